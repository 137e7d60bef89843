//! How a `#[tool]` shim plugs into the table.
//!
//! The macro emits, beside each handler, an implementation of [`Shim`] (a
//! free function, on the marker type the generated table declares) or an
//! associated constant (a method); the table reads a [`ShimFns`] from it.

use crate::call::handler::{Check, Handler};
use serde_json::Value;

/// What a `#[tool]` shim gives the table: how to invoke the handler, and
/// (with the `schema-guard` feature) how to ask schemars for the schemas the
/// build script baked.
pub struct ShimFns<C: 'static> {
    /// How to invoke the handler.
    pub handler: Handler<C>,
    /// schemars' schemas for the parameter and return types; `None` unless
    /// the `schema-guard` feature is on.
    pub reference: Option<fn(bool) -> Reference>,
    /// Whether the handler takes the per-call handle: a served call builds
    /// the full handle only for those that do.
    pub takes_call: bool,
    /// For a confirming tool, the handler's own parsing of its arguments,
    /// run before a person is asked to allow the call, so nobody is asked
    /// to allow a call its parameter type would then refuse.
    pub check: Option<Check>,
}

/// schemars' schemas for a tool's parameter and return types, before
/// tooltable's own additions (the injected `confirm`, the `{"result": ..}` wrapper).
#[derive(Clone, Debug, PartialEq)]
pub struct Reference {
    /// The input schema.
    pub input: Value,
    /// The output schema, for structured output.
    pub output: Option<Value>,
}

/// Implemented by the shim of a free-function tool, on its marker type.
pub trait Shim<C: 'static> {
    /// The shim.
    const SHIM: ShimFns<C>;
}

/// Implemented on a free-function tool's marker type when the handler takes
/// a context, so the table can name the context type without a path to it.
pub trait Context {
    /// The context type.
    type Type: 'static;
}
