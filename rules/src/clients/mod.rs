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
//! - [`schemas`]: the input and output schemas a client sends on or
//!   validates.
//! - [`count`]: how many tools a client takes from a server.

pub mod count;
pub mod names;
pub mod schemas;

use serde_json::Value;
use std::fmt;

/// Every rule of `client` on one tool: its name as `client` shows it from
/// a server called `server`, and its descriptor's schemas. The tool set's
/// size is [`count::check`]'s.
pub fn check_tool(client: Client, server: &str, name: &str, descriptor: &Value) -> Vec<Violation> {
    let mut found = names::check(client, server, name);
    found.extend(schemas::check(client, descriptor));
    found
}

/// A rule of a profile that one tool of a set breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The tool's index in the set: the one that breaks the rule, or for a
    /// set over the client's limit, the first tool past it.
    pub tool: usize,
    /// The rule, its client and what the client does.
    pub violation: Violation,
}

impl Finding {
    /// The sentence that reports it, for the tool `name` checked against
    /// `profile` (which, for `portable`, is not the violation's client).
    pub fn sentence(&self, profile: Client, name: &str) -> String {
        let what = if self.violation.rule.is_count() {
            "is one too many for"
        } else {
            "does not fit"
        };
        format!("tool `{name}` {what} `{profile}`: {}", self.violation)
    }
}

/// Every rule of `profile` the tool set `tools` (name and descriptor, in
/// the order they are listed) breaks, served by a server called `server`:
/// each tool's, then the set's size at the first tool past the limit.
pub fn check_set(profile: Client, server: &str, tools: &[(&str, &Value)]) -> Vec<Finding> {
    let mut found = Vec::new();
    for (index, (name, descriptor)) in tools.iter().enumerate() {
        found.extend(
            check_tool(profile, server, name, descriptor)
                .into_iter()
                .map(|violation| Finding {
                    tool: index,
                    violation,
                }),
        );
    }
    if let Some(violation) = count::check(profile, tools.len())
        && let Some((most, ..)) = count::limit(profile)
    {
        found.push(Finding {
            tool: most,
            violation,
        });
    }
    found
}

/// A client, or model API, whose rules a tool set can be checked against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Client {
    /// What loads in every client below but strict mode: the strictest of
    /// each rule.
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

    /// Whether `portable` holds this profile's rules: every client's but
    /// strict mode's, which a server opts into by exporting its tools for
    /// it.
    pub const fn in_portable(self) -> bool {
        !matches!(self, Client::Portable | Client::OpenAiStrict)
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

/// A rule of a client, by the identifier docs/clients.md lists it under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// `A1` in docs/clients.md.
    A1,
    /// `A4` in docs/clients.md.
    A4,
    /// `A7` in docs/clients.md.
    A7,
    /// `CC2` in docs/clients.md.
    CC2,
    /// `CC6` in docs/clients.md.
    CC6,
    /// `CD1` in docs/clients.md.
    CD1,
    /// `CD2` in docs/clients.md.
    CD2,
    /// `CU1` in docs/clients.md.
    CU1,
    /// `CU2` in docs/clients.md.
    CU2,
    /// `VS1` in docs/clients.md.
    VS1,
    /// `VS2` in docs/clients.md.
    VS2,
    /// `VS4` in docs/clients.md.
    VS4,
    /// `VS5` in docs/clients.md.
    VS5,
    /// `VS9` in docs/clients.md.
    VS9,
    /// `G1` in docs/clients.md.
    G1,
    /// `G2` in docs/clients.md.
    G2,
    /// `G3` in docs/clients.md.
    G3,
    /// `G4` in docs/clients.md.
    G4,
    /// `G5` in docs/clients.md.
    G5,
    /// `G7` in docs/clients.md.
    G7,
    /// `GC3` in docs/clients.md.
    GC3,
    /// `GJ2` in docs/clients.md.
    GJ2,
    /// `O1` in docs/clients.md.
    O1,
    /// `O2` in docs/clients.md.
    O2,
    /// `O4` in docs/clients.md.
    O4,
    /// `O5` in docs/clients.md.
    O5,
    /// `OS1` in docs/clients.md.
    OS1,
    /// `OS2` in docs/clients.md.
    OS2,
    /// `OS3` in docs/clients.md.
    OS3,
    /// `OS5` in docs/clients.md.
    OS5,
    /// `CX1` in docs/clients.md.
    CX1,
    /// `WS1` in docs/clients.md.
    WS1,
    /// `WS2` in docs/clients.md.
    WS2,
    /// `P4` in docs/clients.md.
    P4,
}

impl Rule {
    /// Whether the rule bounds how many tools a server has, rather than
    /// what one tool is ([`count`]).
    pub fn is_count(self) -> bool {
        Client::ALL
            .into_iter()
            .any(|client| count::limit(client).is_some_and(|(_, rule, _)| rule == self))
    }

    /// Every rule.
    pub const ALL: [Rule; 34] = [
        Rule::A1,
        Rule::A4,
        Rule::A7,
        Rule::CC2,
        Rule::CC6,
        Rule::CD1,
        Rule::CD2,
        Rule::CU1,
        Rule::CU2,
        Rule::VS1,
        Rule::VS2,
        Rule::VS4,
        Rule::VS5,
        Rule::VS9,
        Rule::G1,
        Rule::G2,
        Rule::G3,
        Rule::G4,
        Rule::G5,
        Rule::G7,
        Rule::GC3,
        Rule::GJ2,
        Rule::O1,
        Rule::O2,
        Rule::O4,
        Rule::O5,
        Rule::OS1,
        Rule::OS2,
        Rule::OS3,
        Rule::OS5,
        Rule::CX1,
        Rule::WS1,
        Rule::WS2,
        Rule::P4,
    ];

    /// The rule's identifier.
    pub const fn as_str(self) -> &'static str {
        match self {
            Rule::A1 => "A1",
            Rule::A4 => "A4",
            Rule::A7 => "A7",
            Rule::CC2 => "CC2",
            Rule::CC6 => "CC6",
            Rule::CD1 => "CD1",
            Rule::CD2 => "CD2",
            Rule::CU1 => "CU1",
            Rule::CU2 => "CU2",
            Rule::VS1 => "VS1",
            Rule::VS2 => "VS2",
            Rule::VS4 => "VS4",
            Rule::VS5 => "VS5",
            Rule::VS9 => "VS9",
            Rule::G1 => "G1",
            Rule::G2 => "G2",
            Rule::G3 => "G3",
            Rule::G4 => "G4",
            Rule::G5 => "G5",
            Rule::G7 => "G7",
            Rule::GC3 => "GC3",
            Rule::GJ2 => "GJ2",
            Rule::O1 => "O1",
            Rule::O2 => "O2",
            Rule::O4 => "O4",
            Rule::O5 => "O5",
            Rule::OS1 => "OS1",
            Rule::OS2 => "OS2",
            Rule::OS3 => "OS3",
            Rule::OS5 => "OS5",
            Rule::CX1 => "CX1",
            Rule::WS1 => "WS1",
            Rule::WS2 => "WS2",
            Rule::P4 => "P4",
        }
    }

    /// Parses an identifier.
    pub fn parse(text: &str) -> Option<Rule> {
        Rule::ALL.into_iter().find(|r| r.as_str() == text)
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// How the build reports a broken rule, as `client_levels` sets it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Level {
    /// A compile error (the default).
    #[default]
    Error,
    /// A warning.
    Warn,
    /// Not at all.
    Allow,
}

impl Level {
    /// Every level.
    pub const ALL: [Level; 3] = [Level::Error, Level::Warn, Level::Allow];

    /// The level's spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warn => "warn",
            Level::Allow => "allow",
        }
    }

    /// Parses a spelling.
    pub fn parse(text: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.as_str() == text)
    }
}

/// The level `levels` (a crate's `client_levels`) gives `rule`: an error
/// unless it says otherwise.
pub fn level(levels: &[(Rule, Level)], rule: Rule) -> Level {
    levels
        .iter()
        .find(|(r, _)| *r == rule)
        .map_or(Level::Error, |(_, level)| *level)
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
    /// The client lists the tool but fails every call of it before it
    /// reaches the server.
    CallFails,
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
            Effect::CallFails => {
                "lists the tool but fails every call of it before it reaches the server"
            }
        }
    }
}

/// One rule of one client that a tool set breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The client.
    pub client: Client,
    /// The rule.
    pub rule: Rule,
    /// What the client does.
    pub effect: Effect,
    /// Where, as a JSON pointer into the descriptor (`/name`), or empty
    /// for the tool set as a whole.
    pub pointer: String,
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
