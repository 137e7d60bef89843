//! Tool names in each client: the characters it takes, and the length of
//! the name it builds from the server's name and the tool's.
//!
//! Most clients show a model `mcp__<server>__<tool>` or a form like it, and
//! the model API behind them limits that whole name; so a tool's budget
//! depends on the server's name, which the author chooses in the client's
//! configuration and tooltable takes from `server_name` (the package name
//! unless set). Lengths count characters.

use super::{Client, Effect, Rule, Violation};

/// The checks of `client` on the tool `name` served by `server`. For
/// [`Client::Portable`], every client's.
pub fn check(client: Client, server: &str, name: &str) -> Vec<Violation> {
    if client == Client::Portable {
        let mut found: Vec<Violation> = Vec::new();
        for each in Client::ALL.into_iter().filter(|c| c.in_portable()) {
            for violation in check(each, server, name) {
                if !found.iter().any(|v| v.rule == violation.rule) {
                    found.push(violation);
                }
            }
        }
        return found;
    }
    let mut check = Check {
        client,
        server,
        name,
        found: Vec::new(),
    };
    match client {
        Client::Portable => {}
        // Anthropic, "Define tools": `^[a-zA-Z0-9_-]{1,128}$`
        // (platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools;
        // anthropics/claude-code#96152).
        Client::ClaudeApi => {
            check.pattern(Rule::A1, Effect::RequestRefused, plain, None, Some(128));
        }
        // Claude Code exposes `mcp__<server>__<tool>`; the name inside a
        // tool search's `tool_reference` is held to 64 characters
        // (anthropics/claude-code#22327, #22336), and a `.` or `/` is sent
        // on as it is and refused by the API's pattern
        // (IlyaGulya/gradle-mcp-server#2).
        Client::ClaudeCode => {
            check.pattern(Rule::CC6, Effect::RequestRefused, plain, None, None);
            check.joined(Rule::CC2, Effect::RequestRefused, "mcp__", "__", 64);
        }
        // claude.ai's remote connectors: `^[a-zA-Z0-9_-]{1,64}$`
        // (tahersayed/sayed-wp-conductor-for-claude, release v1.8.0).
        Client::ClaudeDesktop => {
            check.pattern(Rule::CD1, Effect::ToolDropped, plain, None, Some(64));
        }
        // Cursor filters out a tool whose server and tool names together
        // are 60 characters or more (ComposioHQ/composio#2788,
        // PostHog/posthog#51483).
        Client::Cursor => {
            check.joined(Rule::CU1, Effect::ToolDropped, "", "", 59);
        }
        // VS Code's tool id is `mcp_` + the server's label (at most 13
        // characters) + `_` + the tool's name, cut at 64 without a word
        // (microsoft/vscode `McpPrefixGenerator`, `McpToolName.MaxLength`);
        // Copilot CLI sends a `.` or `/` to a backend that refuses it
        // (github/copilot-cli#1879).
        Client::VsCode => {
            check.pattern(Rule::VS9, Effect::RequestRefused, plain, None, None);
            let label: String = server.chars().take(13).collect();
            let prefix = format!("mcp_{label}_");
            check.prefixed(Rule::VS2, Effect::Renamed, &prefix, 64);
        }
        // Gemini's `FunctionDeclaration.name`: a letter or `_` first, then
        // `a-z A-Z 0-9 _ . : -`, at most 64 (googleapis genai SDKs' docs).
        Client::Gemini => {
            check.pattern(
                Rule::G1,
                Effect::RequestRefused,
                gemini,
                Some(|c: char| c.is_ascii_alphabetic() || c == '_'),
                Some(64),
            );
        }
        // gemini-cli names a tool `mcp_<server>_<tool>` and, past 63
        // characters, keeps the first 30 and the last 30 around `...`
        // (google-gemini/gemini-cli `mcp-tool.ts`).
        Client::GeminiCli => {
            check.pattern(Rule::GC3, Effect::Renamed, gemini, None, None);
            check.joined(Rule::GC3, Effect::Renamed, "mcp_", "_", 63);
        }
        // OpenAI's function name: `^[a-zA-Z0-9_-]+$`, at most 64
        // (microsoft/foundry-dev-tools#201).
        Client::OpenAi | Client::OpenAiStrict => {
            check.pattern(Rule::O1, Effect::RequestRefused, plain, None, Some(64));
        }
        // Codex names a tool `mcp__<server>__<tool>`, replaces other
        // characters than `A-Z a-z 0-9 _ -`, and past 64 characters cuts
        // the name and adds a hash (openai/codex `MAX_TOOL_NAME_LENGTH`,
        // openai/codex#14491).
        Client::Codex => {
            check.pattern(Rule::CX1, Effect::Renamed, plain, None, None);
            check.joined(Rule::CX1, Effect::Renamed, "mcp__", "__", 64);
        }
        // Windsurf's Cascade: `^[a-zA-Z0-9_-]{1,64}$`, or none of the
        // server's tools register (patchorbit/domscribe#18).
        Client::Windsurf => {
            check.pattern(Rule::WS1, Effect::ServerDropped, plain, None, Some(64));
        }
    }
    check.found
}

/// `A-Z a-z 0-9 _ -`, the characters every client takes.
fn plain(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

/// Gemini's characters: [`plain`] and `.` and `:`.
fn gemini(c: char) -> bool {
    plain(c) || c == '.' || c == ':'
}

/// One client's checks of one tool, and what they found.
struct Check<'a> {
    client: Client,
    server: &'a str,
    name: &'a str,
    found: Vec<Violation>,
}

impl Check<'_> {
    /// The tool's name alone: its first character, its characters, and
    /// its length when `most` is given.
    fn pattern(
        &mut self,
        rule: Rule,
        effect: Effect,
        allowed: fn(char) -> bool,
        first: Option<fn(char) -> bool>,
        most: Option<usize>,
    ) {
        let violation = self
            .characters(rule, effect, allowed, first)
            .or_else(|| most.and_then(|most| self.alone(rule, effect, most)));
        self.found.extend(violation);
    }

    fn characters(
        &self,
        rule: Rule,
        effect: Effect,
        allowed: fn(char) -> bool,
        first: Option<fn(char) -> bool>,
    ) -> Option<Violation> {
        if let (Some(first), Some(c)) = (first, self.name.chars().next())
            && !first(c)
        {
            return Some(Violation {
                client: self.client,
                rule,
                effect,
                pointer: "/name".into(),
                problem: format!("the tool's name `{}` starts with `{c}`", self.name),
                fix: "start the name with a letter (`#[tool(name = \"...\")]`)".into(),
            });
        }
        let (at, c) = self.name.chars().enumerate().find(|(_, c)| !allowed(*c))?;
        Some(Violation {
            client: self.client,
            rule,
            effect,
            pointer: "/name".into(),
            problem: format!(
                "the tool's name `{}` holds `{c}` (character {})",
                self.name,
                at + 1
            ),
            fix: "name the tool with letters, digits, `_` and `-` only (`#[tool(name = \"...\")]`)"
                .into(),
        })
    }

    fn alone(&self, rule: Rule, effect: Effect, limit: usize) -> Option<Violation> {
        let length = self.name.chars().count();
        (length > limit).then(|| Violation {
            client: self.client,
            rule,
            effect,
            pointer: "/name".into(),
            problem: format!(
                "the tool's name `{}` is {length} characters, over the {limit} it takes",
                self.name
            ),
            fix: format!(
                "shorten the name to at most {limit} characters (`#[tool(name = \"...\")]`)"
            ),
        })
    }

    /// The name the client builds, `before` + server + `between` + tool.
    fn joined(&mut self, rule: Rule, effect: Effect, before: &str, between: &str, limit: usize) {
        let prefix = format!("{before}{}{between}", self.server);
        let together = before.is_empty() && between.is_empty();
        let violation = self.over(rule, effect, &prefix, limit, together);
        self.found.extend(violation);
    }

    /// The name the client builds, `prefix` + tool.
    fn prefixed(&mut self, rule: Rule, effect: Effect, prefix: &str, limit: usize) {
        let violation = self.over(rule, effect, prefix, limit, false);
        self.found.extend(violation);
    }

    /// `prefix` + tool over `limit`; `together` when the client counts the
    /// two names without building one.
    fn over(
        &self,
        rule: Rule,
        effect: Effect,
        prefix: &str,
        limit: usize,
        together: bool,
    ) -> Option<Violation> {
        let length = prefix.chars().count() + self.name.chars().count();
        if length <= limit {
            return None;
        }
        let shown = if together {
            format!(
                "the server's name `{}` and the tool's name `{}` are {length} characters together",
                self.server, self.name
            )
        } else {
            format!(
                "the name the model is shown, `{prefix}{}`, is {length} characters",
                self.name
            )
        };
        let budget = limit.saturating_sub(prefix.chars().count());
        Some(Violation {
            client: self.client,
            rule,
            effect,
            pointer: "/name".into(),
            problem: format!("{shown}, over the {limit} it takes"),
            fix: format!(
                "shorten the tool's name to at most {budget} characters (`#[tool(name = \"...\")]`), or give the server a shorter `server_name` in [package.metadata.tooltable] (now `{}`)",
                self.server
            ),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(client: Client, server: &str, name: &str) -> Vec<Rule> {
        check(client, server, name).iter().map(|v| v.rule).collect()
    }

    #[test]
    fn a_short_plain_name_passes_every_client() {
        assert_eq!(check(Client::Portable, "notes", "notes_search"), []);
    }

    #[test]
    fn cursor_counts_the_server_and_the_tool_together_up_to_59() {
        let at_limit = "a".repeat(54);
        assert_eq!(rules(Client::Cursor, "notes", &at_limit), [] as [Rule; 0]);
        let over = "a".repeat(55);
        let found = check(Client::Cursor, "notes", &over);
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].to_string(),
            format!(
                "the server's name `notes` and the tool's name `{over}` are 60 characters together, over the 59 it takes, so Cursor leaves the tool out (rule CU1, at `/name`); shorten the tool's name to at most 54 characters (`#[tool(name = \"...\")]`), or give the server a shorter `server_name` in [package.metadata.tooltable] (now `notes`)"
            )
        );
    }

    #[test]
    fn claude_code_counts_its_mcp_prefix_up_to_64() {
        // `mcp__` + `notes` + `__` is 12 characters.
        assert_eq!(
            rules(Client::ClaudeCode, "notes", &"a".repeat(52)),
            [] as [Rule; 0]
        );
        assert_eq!(
            rules(Client::ClaudeCode, "notes", &"a".repeat(53)),
            [Rule::CC2]
        );
    }

    #[test]
    fn vs_code_clamps_the_label_to_13_characters() {
        let server = "a-very-long-server-name";
        // `mcp_` + 13 + `_` is 18 characters.
        assert_eq!(
            rules(Client::VsCode, server, &"a".repeat(46)),
            [] as [Rule; 0]
        );
        assert_eq!(rules(Client::VsCode, server, &"a".repeat(47)), [Rule::VS2]);
    }

    #[test]
    fn a_dot_is_refused_where_the_client_refuses_it_and_kept_where_it_does_not() {
        assert_eq!(rules(Client::ClaudeCode, "s", "notes.search"), [Rule::CC6]);
        assert_eq!(rules(Client::Gemini, "s", "notes.search"), [] as [Rule; 0]);
        assert_eq!(rules(Client::Gemini, "s", "1notes"), [Rule::G1]);
    }

    #[test]
    fn portable_is_every_clients_rules() {
        let found = rules(Client::Portable, "notes", "notes.search");
        assert_eq!(
            found,
            [
                Rule::A1,
                Rule::CC6,
                Rule::CD1,
                Rule::VS9,
                Rule::O1,
                Rule::CX1,
                Rule::WS1
            ]
        );
    }
}
