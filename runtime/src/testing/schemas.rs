//! The schema guard: compare every baked schema with schemars, at run time.
//!
//! The build script computes schemas from syntax. This module asks schemars
//! for the schemas of the same types (through the shims the `#[tool]` macro
//! emits when the `schema-guard` feature is on) and reports every difference
//! with the tool's name and a JSON pointer. Use it in a test:
//!
//! ```ignore
//! #[test]
//! fn baked_schemas_equal_schemars() {
//!     tooltable::testing::assert_schemas_match(&my_server::TOOLS);
//! }
//! ```

use crate::call::shape::Returned;
use crate::rules::confirm::{self, Confirm};
use crate::rules::lowering::{self, Lowering};
use crate::rules::schema;
use crate::table::Table;
use crate::table::shim::Reference;
use schemars::generate::{Contract as SchemarsContract, SchemaSettings};
use serde_json::Value;
use std::fmt;

/// schemars' output schema of a handler returning `Result<T, E>`, reached
/// through an alias the macro cannot see: `T`'s, as the build script lowers
/// it (the inherent function wins over [`OutputReference`]'s).
#[doc(hidden)]
impl<T: schemars::JsonSchema, E> Returned<Result<T, E>> {
    /// The schema.
    pub fn output_reference(inline_subschemas: bool) -> Value {
        reference_schema::<T>(inline_subschemas, Contract::Serialize)
    }
}

/// schemars' output schema of a handler returning `T`, not a `Result`.
#[doc(hidden)]
pub trait OutputReference {
    /// The schema.
    fn output_reference(inline_subschemas: bool) -> Value;
}

impl<T: schemars::JsonSchema> OutputReference for Returned<T> {
    fn output_reference(inline_subschemas: bool) -> Value {
        reference_schema::<T>(inline_subschemas, Contract::Serialize)
    }
}

/// Which side of serde a schema describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Contract {
    /// What deserializing accepts (input schemas).
    Deserialize,
    /// What serializing produces (output schemas).
    Serialize,
}

/// schemars' root schema for `T`, with draft 2020-12 settings, without the
/// root `$schema` and `title`: the reference the build script must match.
pub fn reference_schema<T: schemars::JsonSchema + ?Sized>(
    inline_subschemas: bool,
    contract: Contract,
) -> Value {
    let settings = SchemaSettings::draft2020_12().with(|s| {
        s.inline_subschemas = inline_subschemas;
        s.contract = match contract {
            Contract::Deserialize => SchemarsContract::Deserialize,
            Contract::Serialize => SchemarsContract::Serialize,
        };
    });
    let mut value = settings
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value();
    if let Some(object) = value.as_object_mut() {
        object.remove("$schema");
        object.remove("title");
    }
    value
}

/// One difference between a baked schema and schemars'.
#[derive(Clone, Debug, PartialEq)]
pub struct SchemaMismatch {
    /// The tool.
    pub tool: String,
    /// `inputSchema` or `outputSchema`.
    pub schema: &'static str,
    /// Where in that schema, as a JSON pointer.
    pub pointer: String,
    /// The baked value there, if any.
    pub baked: Option<Value>,
    /// schemars' value there, if any.
    pub schemars: Option<Value>,
}

impl fmt::Display for SchemaMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |v: &Option<Value>| {
            v.as_ref()
                .map_or_else(|| "(absent)".to_owned(), Value::to_string)
        };
        write!(
            f,
            "{} {}{}: baked {} but schemars gives {}",
            self.tool,
            self.schema,
            if self.pointer.is_empty() {
                String::new()
            } else {
                format!(" at {}", self.pointer)
            },
            show(&self.baked),
            show(&self.schemars)
        )
    }
}

/// The schemas schemars gives for a tool, with tooltable's additions applied
/// (the crate's `lowerings`, the `confirm` argument, the `{"result": ..}`
/// wrapper), ready to compare.
fn expected(
    reference: Reference,
    lowerings: &[Lowering],
    required: Option<&Confirm<'_>>,
) -> (Value, Option<Value>) {
    let mut input = reference.input;
    lowering::lower_input(lowerings, &mut input);
    if let Some(required) = required {
        let _ = confirm::inject(&mut input, required);
    }
    let output = reference.output.map(|out| {
        if schema::is_object_schema(&out) {
            out
        } else {
            schema::wrap_output(out)
        }
    });
    (input, output)
}

/// Compares every tool's baked schemas with schemars'. `Ok` holds how many
/// tools were compared.
pub fn check_schemas<C>(table: &Table<C>) -> Result<usize, Vec<SchemaMismatch>> {
    let mut mismatches = Vec::new();
    for tool in table.tools() {
        let name = tool.name().to_owned();
        let Some(reference) = tool.reference(table.inline_subschemas()) else {
            mismatches.push(SchemaMismatch {
                tool: name,
                schema: "inputSchema",
                pointer: String::new(),
                baked: None,
                schemars: None,
            });
            continue;
        };
        let (input, output) = expected(
            reference,
            table.settings().lowerings,
            tool.info().confirm.as_ref(),
        );
        let mut descriptor = tool.descriptor();
        // schemars writes a root `$schema` on every schema and the build
        // does not, unless the type asks for one; it says nothing about the
        // shape, so it is not compared.
        for key in ["inputSchema", "outputSchema"] {
            if let Some(schema) = descriptor.get_mut(key).and_then(Value::as_object_mut) {
                schema.remove("$schema");
            }
        }
        diff(
            &name,
            "inputSchema",
            descriptor.get("inputSchema"),
            Some(&input),
            &mut String::new(),
            &mut mismatches,
        );
        diff(
            &name,
            "outputSchema",
            descriptor.get("outputSchema"),
            output.as_ref(),
            &mut String::new(),
            &mut mismatches,
        );
    }
    if mismatches.is_empty() {
        Ok(table.len())
    } else {
        Err(mismatches)
    }
}

/// Panics with every difference, for use in tests.
pub fn assert_schemas_match<C>(table: &Table<C>) -> usize {
    match check_schemas(table) {
        Ok(count) => count,
        Err(mismatches) => {
            let lines: Vec<String> = mismatches.iter().map(ToString::to_string).collect();
            panic!(
                "{} baked schema difference(s) from schemars:\n{}",
                mismatches.len(),
                lines.join("\n")
            );
        }
    }
}

fn diff(
    tool: &str,
    schema: &'static str,
    baked: Option<&Value>,
    theirs: Option<&Value>,
    pointer: &mut String,
    out: &mut Vec<SchemaMismatch>,
) {
    match (baked, theirs) {
        (Some(Value::Object(a)), Some(Value::Object(b))) => {
            let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
            keys.sort();
            keys.dedup();
            for key in keys {
                let len = pointer.len();
                pointer.push('/');
                pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
                diff(tool, schema, a.get(key), b.get(key), pointer, out);
                pointer.truncate(len);
            }
        }
        (Some(Value::Array(a)), Some(Value::Array(b))) if a.len() == b.len() => {
            for (index, (x, y)) in a.iter().zip(b).enumerate() {
                let len = pointer.len();
                pointer.push('/');
                pointer.push_str(&index.to_string());
                diff(tool, schema, Some(x), Some(y), pointer, out);
                pointer.truncate(len);
            }
        }
        (a, b) if a == b => {}
        (a, b) => out.push(SchemaMismatch {
            tool: tool.to_owned(),
            schema,
            pointer: pointer.clone(),
            baked: a.cloned(),
            schemars: b.cloned(),
        }),
    }
}
