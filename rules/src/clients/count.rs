//! How many tools each client takes from a server.
//!
//! A server's tools share a client's budget with every other server the
//! user enabled, so these limits are upper bounds for one server alone.

use super::{Client, Effect, Rule, Violation};

/// The most tools `client` takes, with the rule and what it does past it;
/// `None` where no limit is known. For [`Client::Portable`], the smallest.
pub const fn limit(client: Client) -> Option<(usize, Rule, Effect)> {
    match client {
        // The smallest of the limits below and Trae's 40
        // (Trae-AI/TRAE#1344).
        Client::Portable => Some((40, Rule::P4, Effect::ToolDropped)),
        // Cursor sends the first 80 tools of all enabled servers
        // (Snowflake-Labs/mcp#77; 40 before 2025-09).
        Client::Cursor => Some((80, Rule::CU2, Effect::ToolDropped)),
        // Windsurf's Cascade: "a limit of 100 total tools"
        // (docs.windsurf.com/windsurf/cascade/mcp).
        Client::Windsurf => Some((100, Rule::WS2, Effect::ServerDropped)),
        // VS Code: at most 128 tools per request (vscode-copilot-chat
        // `HARD_TOOL_LIMIT`).
        Client::VsCode => Some((128, Rule::VS1, Effect::RequestRefused)),
        // OpenAI: at most 128 tools per request (zed-industries/zed#32946).
        Client::OpenAi | Client::OpenAiStrict => Some((128, Rule::O2, Effect::RequestRefused)),
        // Gemini: at most 512 function declarations per request
        // (google-gemini/gemini-cli#19083); gemini-cli sends them all.
        Client::Gemini | Client::GeminiCli => Some((512, Rule::G2, Effect::RequestRefused)),
        Client::ClaudeApi | Client::ClaudeCode | Client::ClaudeDesktop | Client::Codex => None,
    }
}

/// The check of `client` on a server of `tools` tools.
pub fn check(client: Client, tools: usize) -> Option<Violation> {
    let (most, rule, effect) = limit(client)?;
    (tools > most).then(|| Violation {
        client,
        rule,
        effect,
        pointer: String::new(),
        problem: format!("the server has {tools} tools, over the {most} it takes"),
        fix: "serve fewer tools: split the server in two, or leave tools out with a toolset policy or a feature".into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_at_the_limit_passes_and_one_more_is_refused() {
        assert_eq!(check(Client::Cursor, 80), None);
        let over = check(Client::Cursor, 81).unwrap();
        assert_eq!(over.rule, Rule::CU2);
        assert_eq!(
            over.to_string(),
            "the server has 81 tools, over the 80 it takes, so Cursor leaves the tool out (rule CU2); serve fewer tools: split the server in two, or leave tools out with a toolset policy or a feature"
        );
    }

    #[test]
    fn portable_takes_the_smallest_limit() {
        assert_eq!(check(Client::Portable, 40), None);
        assert_eq!(check(Client::Portable, 41).unwrap().rule, Rule::P4);
        assert_eq!(check(Client::ClaudeCode, 10_000), None);
    }
}
