//! Client profiles: what each MCP client, and each model API behind one,
//! does with a tool it cannot take.
//!
//! A tool set that is valid MCP can still fail where it is used: a client
//! that prefixes tool names with the server's and refuses the result past
//! 64 characters, one that hides a tool whose names together reach 60, a
//! model API that refuses the whole request for one bad name. Each rule
//! here is one such behaviour of one client, with what the client does
//! ([`Effect`]), the public evidence it comes from (in its doc comment) and
//! the fix. The build checks every tool it bakes against the profiles a
//! crate names (`clients = [...]` in `[package.metadata.tooltable]`), the
//! CLI against the ones it is given; both call these functions.
//!
//! - [`names`]: tool names, alone and with the prefix each client adds.
//! - [`count`]: how many tools a client takes from a server.

pub mod count;
pub mod names;

use std::fmt;

/// A client, or model API, whose rules a tool set can be checked against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Client {
    /// What loads in every client below: the strictest of each rule.
    Portable,
    /// The Anthropic Messages API, for clients that send tools to it as
    /// they are served.
    ClaudeApi,
    /// Claude Code.
    ClaudeCode,
    /// Claude Desktop and claude.ai's remote connectors.
    ClaudeDesktop,
    /// Cursor.
    Cursor,
    /// VS Code with GitHub Copilot (and Copilot CLI).
    VsCode,
    /// The Gemini API's function declarations.
    Gemini,
    /// gemini-cli.
    GeminiCli,
    /// OpenAI's Chat Completions and Responses function tools.
    OpenAi,
    /// OpenAI's function tools with `strict: true`.
    OpenAiStrict,
    /// OpenAI's Codex CLI.
    Codex,
    /// Windsurf's Cascade.
    Windsurf,
}

impl Client {
    /// Every profile, in the order the documentation lists them.
    pub const ALL: [Client; 12] = [
        Client::Portable,
        Client::ClaudeApi,
        Client::ClaudeCode,
        Client::ClaudeDesktop,
        Client::Cursor,
        Client::VsCode,
        Client::Gemini,
        Client::GeminiCli,
        Client::OpenAi,
        Client::OpenAiStrict,
        Client::Codex,
        Client::Windsurf,
    ];

    /// The profile's spelling in `clients = [...]` and `--clients`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Client::Portable => "portable",
            Client::ClaudeApi => "claude-api",
            Client::ClaudeCode => "claude-code",
            Client::ClaudeDesktop => "claude-desktop",
            Client::Cursor => "cursor",
            Client::VsCode => "vscode",
            Client::Gemini => "gemini",
            Client::GeminiCli => "gemini-cli",
            Client::OpenAi => "openai",
            Client::OpenAiStrict => "openai-strict",
            Client::Codex => "codex",
            Client::Windsurf => "windsurf",
        }
    }

    /// The client's name in a sentence.
    pub const fn display_name(self) -> &'static str {
        match self {
            Client::Portable => "a client",
            Client::ClaudeApi => "the Anthropic API",
            Client::ClaudeCode => "Claude Code",
            Client::ClaudeDesktop => "Claude Desktop",
            Client::Cursor => "Cursor",
            Client::VsCode => "VS Code",
            Client::Gemini => "the Gemini API",
            Client::GeminiCli => "gemini-cli",
            Client::OpenAi => "the OpenAI API",
            Client::OpenAiStrict => "the OpenAI API in strict mode",
            Client::Codex => "Codex",
            Client::Windsurf => "Windsurf",
        }
    }

    /// Parses a profile's spelling.
    pub fn parse(text: &str) -> Option<Client> {
        Client::ALL.into_iter().find(|c| c.as_str() == text)
    }

    /// Every spelling, for an error that lists them.
    pub fn spellings() -> String {
        Client::ALL
            .iter()
            .map(|c| format!("`{}`", c.as_str()))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl fmt::Display for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// What a client does with a tool set that breaks one of its rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// The model API refuses the whole request (HTTP 400); a client that
    /// sends every tool each turn fails every turn until the server is
    /// removed.
    RequestRefused,
    /// The client leaves the tool out.
    ToolDropped,
    /// The client loses every tool of the server.
    ServerDropped,
    /// The client rewrites or truncates the name the model sees.
    Renamed,
}

impl Effect {
    /// What the client does, after its name in a sentence.
    pub const fn sentence(self) -> &'static str {
        match self {
            Effect::RequestRefused => {
                "refuses every request that carries it (HTTP 400), until the server is removed"
            }
            Effect::ToolDropped => "leaves the tool out",
            Effect::ServerDropped => "loses every tool of the server",
            Effect::Renamed => {
                "rewrites the name the model sees, so names can collide and permissions written for the name miss it"
            }
        }
    }
}

/// One rule of one client that a tool set breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The client.
    pub client: Client,
    /// The rule's identifier, as docs/clients.md lists it (`CU1`).
    pub rule: &'static str,
    /// What the client does.
    pub effect: Effect,
    /// Where, as a JSON pointer into the descriptor (`/name`), or empty
    /// for the tool set as a whole.
    pub pointer: &'static str,
    /// What is wrong, as a sentence without its end.
    pub problem: String,
    /// How to fix it, in Rust terms.
    pub fix: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.pointer.is_empty() {
            String::new()
        } else {
            format!(", at `{}`", self.pointer)
        };
        write!(
            f,
            "{}, so {} {} (rule {}{at}); {}",
            self.problem,
            self.client.display_name(),
            self.effect.sentence(),
            self.rule,
            self.fix
        )
    }
}
