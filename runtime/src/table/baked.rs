//! The tool table: what the build script bakes into a server.
//!
//! `tooltable::include_table!()` defines a `static TOOLS: Table<C>` whose
//! entries are sorted by name and carry everything a server needs, computed
//! at build time: validated metadata, the descriptor's served text, its
//! fingerprint, and the function that invokes the handler. Nothing here is
//! computed at start-up; a lookup by name goes through the hash index the
//! build script laid out (see [`crate::wire::name_index`]).

use crate::call::handle::Call;
use crate::call::handler::{Handler, Invoke};
use crate::call::result::{CallError, CallToolResult, Reply};
use crate::rules::confirm::Consent;
use crate::rules::info::ToolInfo;
use crate::rules::names::NameProfile;
use crate::rules::validate::{SchemaError, Validator};
use crate::table::shim::{Reference, ShimFns};
use crate::wire::fingerprint::Fingerprint;
use crate::wire::manifest::{Manifest, ManifestTool};
use crate::wire::name_index::NameIndex;
use serde_json::{Map, Value};
use std::sync::OnceLock;

/// One tool of a static table.
pub struct Tool<C: 'static> {
    info: ToolInfo<'static>,
    descriptor: &'static str,
    fingerprint: Fingerprint,
    handler: Handler<C>,
    takes_call: bool,
    // Read by the schema guard only.
    #[cfg_attr(not(feature = "schema-guard"), allow(dead_code))]
    reference: Option<fn(bool) -> Reference>,
    wrap_output: bool,
    /// Whether arguments are validated against the input schema (it says
    /// more than the parameter type enforces); the build decides.
    validates: bool,
    validator: OnceLock<Result<Validator, SchemaError>>,
}

impl<C: 'static> Tool<C> {
    /// Used by generated code only.
    #[doc(hidden)]
    pub const fn __new(
        info: ToolInfo<'static>,
        descriptor: &'static str,
        fingerprint: [u8; 32],
        shim: ShimFns<C>,
        wrap_output: bool,
        validates: bool,
    ) -> Tool<C> {
        Tool {
            info,
            descriptor,
            fingerprint: Fingerprint::from_bytes(fingerprint),
            handler: shim.handler,
            takes_call: shim.takes_call,
            reference: shim.reference,
            wrap_output,
            validates,
            validator: OnceLock::new(),
        }
    }

    /// The tool's metadata.
    pub const fn info(&self) -> &ToolInfo<'static> {
        &self.info
    }

    /// The tool's name.
    pub const fn name(&self) -> &'static str {
        self.info.name
    }

    /// The descriptor's served JSON text, exactly as baked at build time.
    pub const fn descriptor_json(&self) -> &'static str {
        self.descriptor
    }

    /// The descriptor as a JSON value (parsed from the baked text).
    pub fn descriptor(&self) -> Value {
        // The text was written by the build script from a JSON value, so it
        // always parses; `Null` would only mark a corrupted binary.
        serde_json::from_str(self.descriptor).unwrap_or(Value::Null)
    }

    /// The fingerprint of the descriptor and permission, computed at build time.
    pub const fn fingerprint(&self) -> &Fingerprint {
        &self.fingerprint
    }

    /// Whether the handler takes the per-call handle.
    pub const fn takes_call(&self) -> bool {
        self.takes_call
    }

    pub(crate) fn invoke(&self) -> Invoke<'_, C> {
        Invoke::Static(&self.handler, self.validator())
    }

    /// The input schema's validator, compiled on the tool's first call;
    /// `None` when the parameter type enforces everything the schema says.
    /// A confirming tool always has one: its arguments are checked in full
    /// before a person is asked to allow the call, so nobody is asked to
    /// allow a call that the parameter type would then refuse.
    fn validator(&self) -> Option<&Result<Validator, SchemaError>> {
        if !self.validates && self.info.confirm.is_none() {
            return None;
        }
        Some(self.validator.get_or_init(|| {
            let descriptor = self.descriptor();
            Validator::new(descriptor.get("inputSchema").unwrap_or(&Value::Null))
        }))
    }

    /// Whether structured output is served wrapped as `{"result": ..}`
    /// (the return type's schema is not an object).
    pub const fn wraps_output(&self) -> bool {
        self.wrap_output
    }

    /// schemars' schemas for this tool's types, when built with `schema-guard`.
    #[cfg(feature = "schema-guard")]
    pub(crate) fn reference(&self, inline_subschemas: bool) -> Option<Reference> {
        self.reference.map(|f| f(inline_subschemas))
    }
}

/// The crate's settings a table carries, so tools registered at run time
/// are held to the same rules as the baked ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The name profile.
    pub names: NameProfile,
    /// Prefixes every tool name must start with (none when empty).
    pub prefixes: &'static [&'static str],
    /// The `_meta` key that carries declarations.
    pub declarations_key: &'static str,
    /// Whether schemas were built with schemars' `inline_subschemas`.
    pub inline_subschemas: bool,
}

/// A crate's tools, sorted by name, with everything computed at build time.
pub struct Table<C: 'static> {
    crate_name: &'static str,
    crate_version: &'static str,
    inventory: Fingerprint,
    tools: &'static [Tool<C>],
    /// The tools' names in the same order, hashed for lookups.
    names: NameIndex,
    list_json: &'static str,
    settings: Settings,
}

impl<C: 'static> Table<C> {
    /// Used by generated code only: `tools` must be sorted by name, `names`
    /// must index their names in that order, and `list_json` must be the
    /// JSON array of their descriptors in that order.
    #[doc(hidden)]
    pub const fn __new(
        crate_name: &'static str,
        crate_version: &'static str,
        inventory: [u8; 32],
        tools: &'static [Tool<C>],
        names: NameIndex,
        list_json: &'static str,
        settings: Settings,
    ) -> Table<C> {
        Table {
            crate_name,
            crate_version,
            inventory: Fingerprint::from_bytes(inventory),
            tools,
            names,
            list_json,
            settings,
        }
    }

    /// The crate's settings the table was built with.
    pub(crate) const fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Whether the schemas were built with schemars' `inline_subschemas`.
    pub const fn inline_subschemas(&self) -> bool {
        self.settings.inline_subschemas
    }

    /// The package name of the crate that declared the tools.
    pub const fn crate_name(&self) -> &'static str {
        self.crate_name
    }

    /// The version of the crate that declared the tools.
    pub const fn crate_version(&self) -> &'static str {
        self.crate_version
    }

    /// The inventory fingerprint over every tool.
    pub const fn inventory(&self) -> &Fingerprint {
        &self.inventory
    }

    /// Every tool, in name order.
    pub const fn tools(&self) -> &'static [Tool<C>] {
        self.tools
    }

    /// The number of tools.
    pub const fn len(&self) -> usize {
        self.tools.len()
    }

    /// Whether the table holds no tool.
    pub const fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// Finds a tool by exact (case-sensitive) name.
    pub fn get(&self, name: &str) -> Option<&'static Tool<C>> {
        self.names
            .find(name)
            .and_then(|position| self.tools.get(position))
    }

    /// The JSON array of every descriptor, in name order, as baked at build time.
    pub const fn list_json(&self) -> &'static str {
        self.list_json
    }

    /// Calls the tool `name` with `arguments`, with a detached per-call
    /// handle (no client to report to or ask).
    ///
    /// The call is your program's own, with no model between it and the
    /// tool, so a confirming tool is confirmed by `confirm: true` in the
    /// arguments. Serve calls from clients through a
    /// [`Registry`](crate::registry::registry::Registry), whose
    /// [`Consent`](crate::rules::confirm::Consent) setting decides instead.
    ///
    /// An unknown name is a protocol error (JSON-RPC -32602). Everything else
    /// (a refused confirmation, arguments that do not fit the parameter type,
    /// a handler's error or panic) is a result with `isError: true`.
    pub async fn call(
        &self,
        context: &C,
        name: &str,
        arguments: Map<String, Value>,
    ) -> Result<CallToolResult, CallError> {
        let tool = self
            .get(name)
            .ok_or_else(|| CallError::unknown_tool(name))?;
        static BY_ARGUMENT: Consent = Consent::person_or_argument();
        crate::call::execute(
            tool.info(),
            tool.invoke(),
            tool.wraps_output(),
            &BY_ARGUMENT,
            crate::call::execute::HandlerContext::Lent(context),
            arguments,
            Call::detached(),
        )
        .await
        .map(Reply::complete)
    }

    /// The manifest, rendered from the baked data. It equals, byte for byte,
    /// the `tools.json` the build script wrote.
    pub fn manifest(&self) -> Manifest {
        let tools = self
            .tools
            .iter()
            .map(|tool| ManifestTool::new(&tool.info, tool.fingerprint, tool.descriptor()))
            .collect();
        Manifest::new(self.crate_name, tools)
    }
}
