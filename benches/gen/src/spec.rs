//! The server both kinds of crate implement, in one place.
//!
//! A benchmark is only fair if the tooltable crate and the rmcp crates serve
//! the same tools with the same types and the same handler bodies. Everything
//! they share (names, modules, tiers, descriptions, parameter fields, bodies)
//! is decided here; the writers only spell it in each crate's dialect.

/// How many tools share one module.
pub const TOOLS_PER_MODULE: usize = 10;

/// The tool whose handler does almost nothing, for the dispatch benchmark.
pub const TRIVIAL_TOOL: &str = "tool_0000";

/// The arguments the benchmarks send to the trivial tool (small).
pub const TRIVIAL_ARGUMENTS: &str = r#"{"text":"hello"}"#;

/// A tool whose parameters use every kind of field.
pub const REGULAR_TOOL: &str = "tool_0001";

/// The arguments the benchmarks send to it (every field given).
pub const REGULAR_ARGUMENTS: &str = r#"{"subject":"invoices","limit":5,"order":"newest","window":{"from":"2024-01-01","to":"2024-12-31"},"tags":["paid","eu"],"offset":1}"#;

/// The line of every generated handler body that the incremental-rebuild
/// measurement edits (the literal is rewritten in place).
pub const EDIT_MARKER: &str = "let base = ";

/// A server with `tools` tools spread over `tools / 10` modules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Server {
    /// How many tools it has.
    pub tools: usize,
}

/// A tool's risk: half the tools only read, so a read-only policy hides the other half.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tier {
    /// Reads only.
    Read,
    /// Writes.
    Write,
}

/// One tool, as both crates declare it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolSpec {
    /// Its index, from 0.
    pub index: usize,
    /// Its name (also the handler's name).
    pub name: String,
    /// Its doc comment, one line.
    pub description: String,
    /// Its tier.
    pub tier: Tier,
}

impl ToolSpec {
    /// Whether this is the trivial tool (an echo with one string field).
    pub fn is_trivial(&self) -> bool {
        self.index == 0
    }

    /// The parameter type's name.
    pub fn params_type(&self) -> String {
        if self.is_trivial() {
            "EchoParams".to_owned()
        } else {
            format!("Tool{:04}Params", self.index)
        }
    }

    /// The return type's name (inside the crate's dialect wrapper).
    pub fn output_type(&self) -> &'static str {
        if self.is_trivial() { "Echo" } else { "Outcome" }
    }

    /// The handler body: a block that evaluates to the output value. Both
    /// crates paste it verbatim.
    pub fn body(&self) -> String {
        if self.is_trivial() {
            return "{\n        Echo { text: params.text }\n    }".to_owned();
        }
        format!(
            "{{
        {EDIT_MARKER}{}u64;
        let limit = u64::from(params.limit.unwrap_or(20));
        let seen = params.tags.len() as u64 + params.window.from.len() as u64 + base;
        Outcome {{
            subject: params.subject,
            matched: seen.saturating_sub(params.offset.unwrap_or(0)).min(limit),
            order: params.order,
            tags: params.tags,
        }}
    }}",
            self.index % 13
        )
    }
}

impl Server {
    /// How many modules the tools are spread over.
    pub fn modules(&self) -> usize {
        self.tools.div_ceil(TOOLS_PER_MODULE).max(1)
    }

    /// The name of module `m`.
    pub fn module_name(m: usize) -> String {
        format!("group_{m:03}")
    }

    /// The tools of module `m`, in order.
    pub fn module_tools(&self, m: usize) -> Vec<ToolSpec> {
        let start = m * TOOLS_PER_MODULE;
        let end = (start + TOOLS_PER_MODULE).min(self.tools);
        (start..end).map(|index| self.tool(index, m)).collect()
    }

    fn tool(&self, index: usize, module: usize) -> ToolSpec {
        let tier = if index.is_multiple_of(2) {
            Tier::Read
        } else {
            Tier::Write
        };
        let description = if index == 0 {
            "Echoes the text it is given.".to_owned()
        } else {
            format!("Counts the items of group {module} that match, for tool {index}.")
        };
        ToolSpec {
            index,
            name: format!("tool_{index:04}"),
            description,
            tier,
        }
    }
}

/// The types every module declares, in both crates: an enum, a nested
/// struct and the regular tools' output. The arguments are the derive lists
/// the crate's dialect needs for input types, output types and types used
/// both ways (the rmcp crates add `JsonSchema`).
pub fn module_types(deserialize: &str, serialize: &str, both: &str) -> String {
    format!(
        r#"/// How results are ordered.
#[derive(Clone, Copy, Debug, {both})]
#[serde(rename_all = "snake_case")]
pub enum Order {{
    /// Newest first.
    Newest,
    /// Oldest first.
    Oldest,
    /// Best match first.
    Relevance,
}}

/// A window of dates.
#[derive(Debug, {deserialize})]
pub struct Window {{
    /// The first day, as YYYY-MM-DD.
    pub from: String,
    /// The last day, when the window is bounded.
    pub to: Option<String>,
}}

#[derive(Debug, {serialize})]
pub struct Outcome {{
    /// What was looked at.
    pub subject: String,
    /// How many items matched.
    pub matched: u64,
    /// The order applied.
    pub order: Order,
    /// The tags used.
    pub tags: Vec<String>,
}}
"#
    )
}

/// The parameter (and, for the trivial tool, output) types of one tool.
pub fn tool_types(tool: &ToolSpec, deserialize: &str, serialize: &str) -> String {
    if tool.is_trivial() {
        return format!(
            r#"#[derive(Debug, {deserialize})]
pub struct EchoParams {{
    /// The text to echo.
    pub text: String,
}}

#[derive(Debug, {serialize})]
pub struct Echo {{
    /// The same text.
    pub text: String,
}}
"#
        );
    }
    format!(
        r#"#[derive(Debug, {deserialize})]
pub struct {params} {{
    /// What to look at.
    pub subject: String,
    /// The most items to count.
    pub limit: Option<u32>,
    /// How to order the items.
    pub order: Order,
    /// When the items were made.
    pub window: Window,
    /// Tags to filter by.
    pub tags: Vec<String>,
    /// How many items to skip.
    pub offset: Option<u64>,
}}
"#,
        params = tool.params_type()
    )
}

/// Every type module `m` declares, derived for schemars as the rmcp twins
/// and the peer twins that take their schemas from schemars need them.
pub fn schemars_types(server: Server, m: usize) -> String {
    let mut out = module_types(
        "Deserialize, JsonSchema",
        "Serialize, JsonSchema",
        "Deserialize, Serialize, JsonSchema",
    );
    for tool in server.module_tools(m) {
        out.push('\n');
        out.push_str(&tool_types(
            &tool,
            "Deserialize, JsonSchema",
            "Serialize, JsonSchema",
        ));
    }
    out
}

/// The Cargo.toml of a generated crate: its package and `dependencies`
/// (whole lines, each ending in a newline).
pub fn manifest(name: &str, dependencies: &str) -> String {
    format!(
        "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n[dependencies]\n{dependencies}"
    )
}

/// The `pub mod group_XXX;` line of every module, for a crate's lib.rs.
pub fn module_declarations(server: Server) -> String {
    (0..server.modules())
        .map(|m| format!("pub mod {};\n", Server::module_name(m)))
        .collect()
}

/// Every module file of a crate, `src/group_XXX.rs`, its text from `module`.
pub fn module_files(server: Server, module: impl Fn(usize) -> String) -> Vec<(String, String)> {
    (0..server.modules())
        .map(|m| (format!("src/{}.rs", Server::module_name(m)), module(m)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tools_are_spread_ten_to_a_module_and_half_of_them_only_read() {
        let server = Server { tools: 100 };
        assert_eq!(server.modules(), 10);
        let all: Vec<ToolSpec> = (0..server.modules())
            .flat_map(|m| server.module_tools(m))
            .collect();
        assert_eq!(all.len(), 100);
        assert_eq!(all[0].name, TRIVIAL_TOOL);
        assert_eq!(all[99].name, "tool_0099");
        let read = all.iter().filter(|t| t.tier == Tier::Read).count();
        assert_eq!(read, 50);
    }

    #[test]
    fn every_regular_body_has_the_line_the_rebuild_measurement_edits() {
        let server = Server { tools: 10 };
        for tool in server.module_tools(0).iter().skip(1) {
            assert!(tool.body().contains(EDIT_MARKER), "{}", tool.name);
        }
    }
}
