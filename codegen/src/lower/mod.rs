//! Lowering: parameter and output types to JSON Schema, as schemars would.
//!
//! The served `inputSchema` must equal, as a JSON value, what schemars 1.x
//! produces for the parameter type with `SchemaSettings::draft2020_12()`
//! (deserialize contract), without the root `$schema` and `title`; the
//! `outputSchema` likewise for the return type under the serialize contract.
//! The build script sees syntax, not types, so this module reproduces
//! schemars' generator over the syntax: the same `$defs` naming (`Name`,
//! `Name2`, … in encounter order), the same inlining rules, the same
//! treatment of serde's attributes. What it cannot render exactly is an
//! error with the construct's location and the way out; it never guesses.
//!
//! - [`known`]: the table of types schemars defines itself.
//! - [`ty`]: resolving a written type to a [`ty::Ty`].
//! - [`attrs`]: schemars, validator and garde attributes, and the serde items schemars hands on.
//! - [`serde_view`]: what serde's own reader makes of the serde attributes.
//! - [`derive`](mod@derive): structs and enums, as `#[derive(JsonSchema)]` renders them.
//! - [`defaults`]: `"default"` values knowable at build time.
//! - [`consts`]: constant expressions in defaults, folded as the compiler folds them.
//! - [`schema_fn`]: `schema_with` functions whose body is a literal schema.
//! - [`schema_ops`]: schemars' small edits on schema values.

pub mod attrs;
pub mod consts;
pub mod defaults;
pub mod derive;
pub mod known;
pub mod schema_fn;
pub mod schema_ops;
pub mod serde_view;
#[cfg(test)]
mod tests;
pub mod ty;

use crate::resolve::Resolver;
use crate::scan::{Crate, ModuleId};
use proc_macro2::Span;
use serde_json::{Map, Value, json};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;
use ty::{DefItem, Place, Scope, Ty};

/// Whether a schema describes what is accepted or what is produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Contract {
    /// What deserializing accepts (input schemas).
    Deserialize,
    /// What serializing produces (output schemas).
    Serialize,
}

/// A construct that cannot be rendered exactly.
#[derive(Clone, Debug)]
pub struct LowerError {
    /// The module whose file holds the construct.
    pub module: ModuleId,
    /// Where.
    pub span: Span,
    /// What, and the way out.
    pub message: String,
}

impl LowerError {
    /// An error at `span` in `module`'s file.
    pub fn new(module: ModuleId, span: Span, message: impl Into<String>) -> LowerError {
        LowerError {
            module,
            span,
            message: message.into(),
        }
    }
}

/// The lowering context of one crate.
pub struct Lowerer<'k> {
    /// The scanned crate.
    pub krate: &'k Crate,
    /// Its name resolution.
    pub resolver: Resolver<'k>,
    /// schemars' `inline_subschemas` setting.
    pub inline_subschemas: bool,
    containers: RefCell<HashMap<usize, Rc<derive::ContainerInfo<'k>>>>,
    hand_written: std::cell::OnceCell<HashSet<usize>>,
    /// The `schema_with` functions evaluated, by address.
    given: RefCell<HashMap<usize, Rc<ty::Given>>>,
    /// Errors found beside the one a lowering returns, so that one build
    /// reports them all.
    found: RefCell<Vec<LowerError>>,
    /// Where the type being resolved stands.
    place: std::cell::Cell<Place>,
}

impl<'k> Lowerer<'k> {
    /// A lowering context for `krate`.
    pub fn new(krate: &'k Crate, inline_subschemas: bool) -> Lowerer<'k> {
        Lowerer {
            krate,
            resolver: Resolver::new(krate),
            inline_subschemas,
            containers: RefCell::new(HashMap::new()),
            hand_written: std::cell::OnceCell::new(),
            given: RefCell::new(HashMap::new()),
            found: RefCell::new(Vec::new()),
            place: std::cell::Cell::new(Place::Field),
        }
    }

    /// `ty` resolved where a tool's signature has it: the type itself at
    /// `place`, what it holds as a field's.
    fn signature_ty(
        &self,
        module: ModuleId,
        ty: &syn::Type,
        place: Place,
    ) -> Result<Ty<'k>, LowerError> {
        self.place.set(place);
        let resolved = self.ty(&Scope::module(module), ty);
        self.place.set(Place::Field);
        resolved
    }

    /// Where each `extend("x-mcp-header" = ..)` of the types lowered so far
    /// is written.
    pub fn header_extensions(&self) -> Vec<(String, ModuleId, Span)> {
        let mut all: Vec<(String, ModuleId, Span)> = self
            .containers
            .borrow()
            .values()
            .flat_map(|info| info.header_extensions())
            .collect();
        all.sort_by_key(|(_, module, span)| (*module, span.start().line, span.start().column));
        all
    }

    /// Keeps the error of a part the lowering goes on past, to be reported
    /// with the schema's own.
    pub fn report<T>(&self, result: Result<T, LowerError>) -> Option<T> {
        match result {
            Ok(value) => Some(value),
            Err(e) => {
                self.found.borrow_mut().push(e);
                None
            }
        }
    }

    /// The local types with a hand-written `impl JsonSchema`, by address.
    fn hand_written_schemas(&self) -> &HashSet<usize> {
        self.hand_written.get_or_init(|| {
            let mut found = HashSet::new();
            for (module, contents) in self.krate.modules.iter().enumerate() {
                for item in &contents.items {
                    let syn::Item::Impl(imp) = item else { continue };
                    let Some((trait_path, _)) = &imp.trait_ else {
                        continue;
                    };
                    if trait_path
                        .segments
                        .last()
                        .is_none_or(|s| s.ident != "JsonSchema")
                    {
                        continue;
                    }
                    let syn::Type::Path(self_path) = &*imp.self_ty else {
                        continue;
                    };
                    match self.resolver.resolve(module, &self_path.path) {
                        Ok(crate::resolve::Resolved::Struct(_, s)) => {
                            found.insert(std::ptr::from_ref(s) as usize);
                        }
                        Ok(crate::resolve::Resolved::Enum(_, e)) => {
                            found.insert(std::ptr::from_ref(e) as usize);
                        }
                        _ => {}
                    }
                }
            }
            found
        })
    }

    /// A local type's attributes and body, read once.
    pub fn container(
        &self,
        module: ModuleId,
        item: DefItem<'k>,
    ) -> Result<Rc<derive::ContainerInfo<'k>>, LowerError> {
        let key = match item {
            DefItem::Struct(s) => std::ptr::from_ref(s) as usize,
            DefItem::Enum(e) => std::ptr::from_ref(e) as usize,
        };
        if let Some(found) = self.containers.borrow().get(&key) {
            return Ok(found.clone());
        }
        let by_hand = self
            .hand_written_schemas()
            .contains(&key)
            .then_some("implements `JsonSchema` by hand");
        if let Some(how) = by_hand {
            return Err(LowerError::new(
                module,
                item.ident().span(),
                format!(
                    "`{}` {how}, so its schema is not the derived one the build script renders; derive `JsonSchema`, or say what the schema is with #[schemars(with = \"Type\")] where `{}` is used",
                    item.ident(),
                    item.ident()
                ),
            ));
        }
        if let Some(repr) = ["Deserialize_repr", "Serialize_repr"]
            .into_iter()
            .find(|d| derive::derives(item.attrs(), d))
            && !derive::derives(item.attrs(), "JsonSchema_repr")
        {
            return Err(LowerError::new(
                module,
                item.ident().span(),
                format!(
                    "`{}` derives `{repr}`, so serde reads and writes it as an integer, but `#[derive(JsonSchema)]` describes it by its variants' names; derive `schemars::JsonSchema_repr` instead, whose schema is the integers",
                    item.ident()
                ),
            ));
        }
        let info = match derive::read_container(module, item) {
            Ok(info) => Rc::new(info),
            Err(mut errors) => {
                let first = errors.remove(0);
                self.found.borrow_mut().extend(errors);
                return Err(first);
            }
        };
        self.containers.borrow_mut().insert(key, info.clone());
        Ok(info)
    }

    /// The root schema of `ty` (written in `module`) under `contract`, as
    /// schemars' `schema_for!` gives it, without `$schema` and `title`; or
    /// every problem found in it.
    pub fn root_schema(
        &self,
        module: ModuleId,
        ty: &syn::Type,
        contract: Contract,
    ) -> Result<Value, Vec<LowerError>> {
        let place = match contract {
            Contract::Deserialize => Place::Parameter,
            Contract::Serialize => Place::Return,
        };
        self.all_found(
            self.signature_ty(module, ty, place)
                .and_then(|resolved| self.root_schema_of(&resolved, contract)),
        )
    }

    /// The output schema of a handler returning `ty`: the schema of its
    /// success type when `ty` is a `Result` reached through an alias (the
    /// shim, which lets the compiler decide, serves its error as the tool's
    /// error), otherwise of `ty` itself; or every problem found in it.
    pub fn output_schema(
        &self,
        module: ModuleId,
        ty: &syn::Type,
    ) -> Result<Value, Vec<LowerError>> {
        self.all_found(
            self.signature_ty(module, ty, Place::Return)
                .and_then(|resolved| match resolved {
                    Ty::Result(ok, _) => self.root_schema_of(&ok, Contract::Serialize),
                    resolved => self.root_schema_of(&resolved, Contract::Serialize),
                }),
        )
    }

    /// `result` with the errors found beside it.
    fn all_found(&self, result: Result<Value, LowerError>) -> Result<Value, Vec<LowerError>> {
        let mut found = self.found.take();
        match result {
            Ok(value) if found.is_empty() => Ok(value),
            Ok(_) => Err(found),
            Err(e) => {
                found.insert(0, e);
                Err(found)
            }
        }
    }

    /// The root schema of a resolved type.
    fn root_schema_of(&self, ty: &Ty<'k>, contract: Contract) -> Result<Value, LowerError> {
        let mut generator = Generator::new(self, contract);
        let id = generator.id(ty)?;
        generator.root_stack.push(id.clone());
        let mut schema = generator.json_schema_internal(ty, &id)?;
        generator.root_stack.pop();
        let definitions = std::mem::take(&mut generator.definitions);
        let object = schema_ops::ensure_object(&mut schema);
        object.remove("title");
        if !definitions.is_empty() {
            let defs = object
                .entry("$defs")
                .or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(defs) = defs {
                defs.extend(definitions);
            }
        }
        Ok(schema)
    }
}

/// schemars' `SchemaGenerator`, over resolved types.
pub struct Generator<'g, 'k> {
    /// The lowering context.
    pub lowerer: &'g Lowerer<'k>,
    /// The contract in force.
    pub contract: Contract,
    definitions: Map<String, Value>,
    used_names: HashSet<String>,
    id_to_name: HashMap<String, String>,
    pending: HashSet<String>,
    root_stack: Vec<String>,
    /// The `const` items being folded, innermost last, by address and name.
    consts: Vec<(usize, String)>,
    /// The width of `usize` and `isize` constants are folded at: the
    /// target's, or each possible one in turn when the build does not say.
    pointer_width: Option<u32>,
}

impl<'g, 'k> Generator<'g, 'k> {
    fn new(lowerer: &'g Lowerer<'k>, contract: Contract) -> Generator<'g, 'k> {
        Generator {
            lowerer,
            contract,
            definitions: Map::new(),
            used_names: HashSet::new(),
            id_to_name: HashMap::new(),
            pending: HashSet::new(),
            root_stack: Vec::new(),
            consts: Vec::new(),
            pointer_width: lowerer.krate.pointer_width,
        }
    }

    /// schemars' `subschema_for`: the schema of `ty`, or a `$ref` to its
    /// definition when it is not inlined.
    pub fn subschema_for(&mut self, ty: &Ty<'k>) -> Result<Value, LowerError> {
        let id = self.id(ty)?;
        let inline = self.inline(ty)?;
        let return_ref = !inline && (!self.lowerer.inline_subschemas || self.pending.contains(&id));
        if !return_ref {
            return self.json_schema_internal(ty, &id);
        }
        if self.root_stack.last() == Some(&id) {
            return Ok(json!({"$ref": "#"}));
        }
        let name = match self.id_to_name.get(&id) {
            Some(name) => name.clone(),
            None => {
                let base = self.name(ty)?;
                let name = if self.used_names.contains(&base) {
                    (2..)
                        .map(|i| format!("{base}{i}"))
                        .find(|n| !self.used_names.contains(n))
                        .unwrap_or(base)
                } else {
                    base
                };
                self.used_names.insert(name.clone());
                self.id_to_name.insert(id.clone(), name.clone());
                name
            }
        };
        let reference = format!("#/$defs/{}", encode_ref_name(&name));
        if !self.definitions.contains_key(&name) {
            self.definitions.insert(name.clone(), Value::Bool(false));
            let schema = self.json_schema_internal(ty, &id)?;
            self.definitions.insert(name, schema);
        }
        Ok(json!({"$ref": reference}))
    }

    fn json_schema_internal(&mut self, ty: &Ty<'k>, id: &str) -> Result<Value, LowerError> {
        let added = self.pending.insert(id.to_owned());
        let schema = self.json_schema(ty);
        if added {
            self.pending.remove(id);
        }
        schema
    }

    /// schemars' `json_schema`: the schema of `ty` itself, never a `$ref` to it.
    pub fn json_schema(&mut self, ty: &Ty<'k>) -> Result<Value, LowerError> {
        Ok(match ty {
            Ty::Leaf(leaf) => (leaf.schema)(self.contract),
            Ty::Option(inner) => {
                let mut schema = self.subschema_for(inner)?;
                schema_ops::allow_null(&mut schema);
                schema
            }
            Ty::Seq(item) => json!({"type": "array", "items": self.subschema_for(item)?}),
            Ty::Set(item) => {
                json!({"type": "array", "uniqueItems": true, "items": self.subschema_for(item)?})
            }
            Ty::Array(_, 0) => json!({"type": "array", "maxItems": 0}),
            Ty::Array(item, len) => {
                json!({"type": "array", "items": self.subschema_for(item)?, "minItems": len, "maxItems": len})
            }
            Ty::ArrayVec(item, cap) => {
                json!({"type": "array", "items": self.subschema_for(item)?, "maxItems": cap})
            }
            Ty::Tuple(items) => {
                let prefix = items
                    .iter()
                    .map(|t| self.subschema_for(t))
                    .collect::<Result<Vec<_>, _>>()?;
                json!({"type": "array", "prefixItems": prefix, "minItems": items.len(), "maxItems": items.len()})
            }
            Ty::Result(ok, err) => json!({
                "oneOf": [
                    {"type": "object", "properties": {"Ok": self.subschema_for(ok)?}, "required": ["Ok"]},
                    {"type": "object", "properties": {"Err": self.subschema_for(err)?}, "required": ["Err"]}
                ]
            }),
            Ty::Range(item) => {
                let sub = self.subschema_for(item)?;
                json!({
                    "type": "object",
                    "properties": {"start": sub.clone(), "end": sub},
                    "required": ["start", "end"]
                })
            }
            Ty::Bound(item) => json!({
                "oneOf": [
                    {"type": "object", "properties": {"Included": self.subschema_for(item)?}, "required": ["Included"]},
                    {"type": "object", "properties": {"Excluded": self.subschema_for(item)?}, "required": ["Excluded"]},
                    {"type": "string", "const": "Unbounded"}
                ]
            }),
            Ty::Map(key, value) => self.map_schema(key, value)?,
            Ty::Local(def) => self.local_schema(def)?,
            Ty::Given(given) => given.schema.clone(),
        })
    }

    /// schemars' `_schemars_private_non_optional_json_schema`.
    pub fn non_optional_json_schema(&mut self, ty: &Ty<'k>) -> Result<Value, LowerError> {
        match ty {
            Ty::Option(inner) => self.non_optional_json_schema(inner),
            Ty::Local(def) => match self.forwarded(def)? {
                Some(inner) => self.non_optional_json_schema(&inner),
                None => self.json_schema(ty),
            },
            _ => self.json_schema(ty),
        }
    }

    /// schemars' `_schemars_private_is_option`.
    pub fn is_option(&self, ty: &Ty<'k>) -> Result<bool, LowerError> {
        Ok(match ty {
            Ty::Option(_) => true,
            Ty::Local(def) => match self.forwarded(def)? {
                Some(inner) => self.is_option(&inner)?,
                None => false,
            },
            _ => false,
        })
    }

    /// schemars' `inline_schema`.
    pub fn inline(&self, ty: &Ty<'k>) -> Result<bool, LowerError> {
        Ok(match ty {
            Ty::Leaf(leaf) => leaf.inline,
            Ty::Result(..) | Ty::Range(..) | Ty::Bound(..) => false,
            Ty::Local(def) => match self.forwarded(def)? {
                Some(inner) => self.inline(&inner)?,
                None => self.container(def)?.attrs.inline,
            },
            _ => true,
        })
    }

    /// schemars' `schema_name`.
    pub fn name(&self, ty: &Ty<'k>) -> Result<String, LowerError> {
        Ok(match ty {
            Ty::Leaf(leaf) => leaf.name.to_owned(),
            Ty::Option(inner) => format!("Nullable_{}", self.name(inner)?),
            Ty::Seq(item) => format!("Array_of_{}", self.name(item)?),
            Ty::Set(item) => format!("Set_of_{}", self.name(item)?),
            Ty::Array(_, 0) => "EmptyArray".to_owned(),
            Ty::Array(item, len) => format!("Array_size_{len}_of_{}", self.name(item)?),
            Ty::ArrayVec(item, cap) => format!("Array_up_to_size_{cap}_of_{}", self.name(item)?),
            Ty::Tuple(items) => format!(
                "Tuple_of_{}",
                items
                    .iter()
                    .map(|t| self.name(t))
                    .collect::<Result<Vec<_>, _>>()?
                    .join("_and_")
            ),
            Ty::Result(ok, err) => format!("Result_of_{}_or_{}", self.name(ok)?, self.name(err)?),
            Ty::Range(item) => format!("Range_of_{}", self.name(item)?),
            Ty::Bound(item) => format!("Bound_of_{}", self.name(item)?),
            Ty::Map(key, value) => {
                if self.id(key)? == "string" {
                    format!("Map_of_{}", self.name(value)?)
                } else {
                    format!("Map_from_{}_to_{}", self.name(key)?, self.name(value)?)
                }
            }
            Ty::Local(def) => match self.forwarded(def)? {
                Some(inner) => self.name(&inner)?,
                None => self.container_name(def)?,
            },
            Ty::Given(given) => given.name.clone(),
        })
    }

    /// schemars' `schema_id`: what makes two types the same definition.
    pub fn id(&self, ty: &Ty<'k>) -> Result<String, LowerError> {
        Ok(match ty {
            Ty::Leaf(leaf) => leaf.id.to_owned(),
            Ty::Option(inner) => format!("Option<{}>", self.id(inner)?),
            Ty::Seq(item) => format!("[{}]", self.id(item)?),
            Ty::Set(item) => format!("Set<{}>", self.id(item)?),
            Ty::Array(_, 0) => "[]".to_owned(),
            Ty::Array(item, len) => format!("[{len}; {}]", self.id(item)?),
            Ty::ArrayVec(..) => self.name(ty)?,
            Ty::Tuple(items) => format!(
                "({})",
                items
                    .iter()
                    .map(|t| self.id(t))
                    .collect::<Result<Vec<_>, _>>()?
                    .join(",")
            ),
            Ty::Result(ok, err) => format!("Result<{}, {}>", self.id(ok)?, self.id(err)?),
            Ty::Range(item) => format!("Range<{}>", self.id(item)?),
            Ty::Bound(item) => format!("Bound<{}>", self.id(item)?),
            Ty::Map(key, value) => {
                let key_id = self.id(key)?;
                if key_id == "string" {
                    format!("Map<{}>", self.id(value)?)
                } else {
                    format!("Map<{key_id}, {}>", self.id(value)?)
                }
            }
            Ty::Local(def) => match self.forwarded(def)? {
                Some(inner) => self.id(&inner)?,
                None => {
                    let base = format!(
                        "{}::{}",
                        self.lowerer.krate.module_path(def.module),
                        self.container_name(def)?
                    );
                    // Only the parameters that reach the schema, in
                    // schemars' order (sorted by name), without separators.
                    let info = self.container(def)?;
                    if info.relevant_params.is_empty() {
                        base
                    } else {
                        let mut args = String::new();
                        for param in &info.relevant_params {
                            if let Some(index) = def.params.iter().position(|p| p == param) {
                                args.push_str(&self.id(&def.args[index])?);
                            }
                        }
                        format!("{base}<{args}>")
                    }
                }
            },
            Ty::Given(given) => given.id.clone(),
        })
    }

    fn map_schema(&mut self, key: &Ty<'k>, value: &Ty<'k>) -> Result<Value, LowerError> {
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
        enum Integers {
            None,
            Unsigned,
            Signed,
        }
        let key_schema = self.json_schema(key)?;
        let value_schema = self.subschema_for(value)?;
        let mut options: Vec<Map<String, Value>> = match key_schema
            .get("anyOf")
            .and_then(Value::as_array)
        {
            Some(any_of) => match any_of
                .iter()
                .map(|v| v.as_object().cloned())
                .collect::<Option<Vec<_>>>()
            {
                Some(options) => options,
                None => return Ok(json!({"additionalProperties": value_schema, "type": "object"})),
            },
            None => match key_schema.as_object() {
                Some(object) => vec![object.clone()],
                None => return Ok(json!({"additionalProperties": value_schema, "type": "object"})),
            },
        };
        for option in &mut options {
            if let Some(definition) = option
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix("#/$defs/"))
                .and_then(|r| self.definitions.get(r))
                .and_then(Value::as_object)
            {
                *option = definition.clone();
            }
        }
        let mut additional = false;
        let mut integers = Integers::None;
        let mut patterns = std::collections::BTreeSet::new();
        let mut properties = std::collections::BTreeSet::new();
        for option in &options {
            let pattern = option.get("pattern").and_then(Value::as_str);
            let values = option
                .get("enum")
                .and_then(Value::as_array)
                .and_then(|a| a.iter().map(Value::as_str).collect::<Option<Vec<_>>>());
            let key_type = option.get("type").and_then(Value::as_str);
            let minimum = option.get("minimum").and_then(Value::as_u64);
            match (pattern, values, key_type) {
                (Some(p), _, Some("string")) => {
                    patterns.insert(p.to_owned());
                }
                (None, Some(values), Some("string")) => {
                    properties.extend(values.into_iter().map(str::to_owned));
                }
                (_, _, Some("integer")) if minimum == Some(0) => {
                    integers = integers.max(Integers::Unsigned)
                }
                (_, _, Some("integer")) => integers = integers.max(Integers::Signed),
                _ => additional = true,
            }
        }
        let mut map = Map::new();
        map.insert("type".into(), "object".into());
        map.insert(
            "additionalProperties".into(),
            if additional {
                value_schema.clone()
            } else {
                Value::Bool(false)
            },
        );
        match integers {
            Integers::None => {}
            Integers::Unsigned => {
                patterns.insert(r"^\d+$".to_owned());
            }
            Integers::Signed => {
                patterns.insert(r"^-?\d+$".to_owned());
            }
        }
        if !patterns.is_empty() {
            map.insert(
                "patternProperties".into(),
                Value::Object(
                    patterns
                        .into_iter()
                        .map(|p| (p, value_schema.clone()))
                        .collect(),
                ),
            );
        }
        if !properties.is_empty() {
            map.insert(
                "properties".into(),
                Value::Object(
                    properties
                        .into_iter()
                        .map(|p| (p, value_schema.clone()))
                        .collect(),
                ),
            );
        }
        Ok(Value::Object(map))
    }
}

/// schemars' encoding of a definition name inside a `$ref`: JSON pointer
/// escaping for `~` and `/`, percent-encoding for what a URI fragment cannot hold.
fn encode_ref_name(name: &str) -> String {
    let keep = |byte: u8| matches!(byte, b'!' | b'$' | b'&'..=b';' | b'=' | b'?'..=b'Z' | b'_' | b'a'..=b'z');
    let mut out = String::with_capacity(name.len());
    for byte in name.bytes() {
        match byte {
            b'~' => out.push_str("~0"),
            b'/' => out.push_str("~1"),
            b if keep(b) => out.push(b as char),
            b => out.push_str(&format!("%{b:2X}")),
        }
    }
    out
}
