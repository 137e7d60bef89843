//! The lowering's refusals, one test per class, and the behaviours that
//! follow schemars' derive where it is easy to go wrong.
//!
//! Each test writes a small crate to a temporary directory, analyses it as
//! the build script would, and looks at the diagnostics or the baked schema.
//! Agreement with schemars itself is checked by the corpus in
//! `tests/corpus`, which compares every schema with schemars at run time.

use crate::analysis::{Analysis, analyze};
use crate::scan::cfg::CfgEnv;
use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

struct TempCrate(PathBuf);

impl Drop for TempCrate {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn analyze_lib(source: &str, cfg: &CfgEnv) -> (Analysis, TempCrate) {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "tooltable-lower-{}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"demo\"\nversion = \"0.1.0\"\n",
    )
    .unwrap();
    std::fs::write(dir.join("src/lib.rs"), source).unwrap();
    let analysis = analyze(&dir, cfg).expect("the configuration reads");
    (analysis, TempCrate(dir))
}

/// The errors of a crate whose one tool takes `Params` and returns `Out`.
fn errors(types: &str) -> Vec<String> {
    let source = format!(
        "{types}\n/// Do it.\n#[tool(tier = read)]\npub fn go(p: Params) -> Out {{ todo!() }}\n"
    );
    analyze_lib(&source, &CfgEnv::default())
        .0
        .diagnostics()
        .iter()
        .filter(|d| d.is_error())
        .map(ToString::to_string)
        .collect()
}

/// The errors of a crate whose `src/lib.rs` is `source`, as sentences.
fn errors_of(source: &str) -> Vec<String> {
    analyze_lib(source, &CfgEnv::default())
        .0
        .diagnostics()
        .iter()
        .filter(|d| d.is_error())
        .map(ToString::to_string)
        .collect()
}

/// The input and output schemas of a crate whose one tool takes `Params`
/// and returns `Out`.
fn schemas(types: &str) -> (Value, Value) {
    let source = format!(
        "{types}\n/// Do it.\n#[tool(tier = read)]\npub fn go(p: Params) -> Out {{ todo!() }}\n"
    );
    let (analysis, _dir) = analyze_lib(&source, &CfgEnv::default());
    let errors: Vec<String> = analysis
        .diagnostics()
        .iter()
        .filter(|d| d.is_error())
        .map(ToString::to_string)
        .collect();
    assert_eq!(errors, Vec::<String>::new());
    let descriptor = &analysis.table().tools[0].descriptor;
    (
        descriptor["inputSchema"].clone(),
        descriptor["outputSchema"].clone(),
    )
}

fn assert_one_error(errors: &[String], at: &str, words: &[&str]) {
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert!(errors[0].starts_with(at), "{}", errors[0]);
    for word in words {
        assert!(
            errors[0].contains(word),
            "`{word}` is not in: {}",
            errors[0]
        );
    }
}

#[test]
fn a_type_with_a_hand_written_json_schema_impl_is_refused_at_its_name() {
    let errors = errors(
        "#[derive(serde::Deserialize)]\npub struct Params { pub a: Custom }\n\
         pub type Out = u8;\n\
         pub struct Custom;\n\
         impl schemars::JsonSchema for Custom {}\n",
    );
    assert_one_error(
        &errors,
        "src/lib.rs:4:12",
        &[
            "`Custom` implements `JsonSchema` by hand",
            "#[schemars(with = \"Type\")]",
        ],
    );
}

#[test]
fn an_unfinished_serde_attribute_is_refused_at_its_end_not_on_the_first_line() {
    let errors = errors(
        "#[derive(serde::Deserialize)]\npub struct Params {\n    #[serde(rename =)]\n    pub x: u32,\n}\n\
         pub type Out = u8;\n",
    );
    assert_one_error(
        &errors,
        "src/lib.rs:3:21",
        &["cannot read #[serde(...)]: unexpected end of input"],
    );
}

#[test]
fn an_enum_deriving_json_schema_repr_lowers_to_its_discriminants_as_its_repr_type() {
    let (input, _) = schemas(
        "#[derive(serde::Deserialize)]\npub struct Params { pub level: Level }\n\
         pub type Out = u8;\n\
         const BASE: i8 = 4;\n\
         #[derive(serde_repr::Deserialize_repr, schemars::JsonSchema_repr)]\n#[repr(i8)]\n\
         pub enum Level { Low = -2, Mid, High = BASE * 2, Top }\n",
    );
    assert_eq!(
        input["$defs"]["Level"],
        json!({"type": "integer", "enum": [-2, -1, 8, 9]})
    );
}

#[test]
fn a_json_schema_repr_enum_without_a_repr_is_refused_with_the_attribute_to_add() {
    let errors = errors(
        "#[derive(serde::Deserialize)]\npub struct Params { pub level: Level }\n\
         pub type Out = u8;\n\
         #[derive(schemars::JsonSchema_repr)]\npub enum Level { Low = 1, High = 2 }\n",
    );
    assert_eq!(
        errors,
        [
            "src/lib.rs:5:10: `Level` derives `JsonSchema_repr`, which needs the enum's integer type; add #[repr(u8)] (or the integer type its discriminants have)"
        ]
    );
}

#[test]
fn a_repr_serialized_enum_with_a_plain_json_schema_derive_is_refused_for_the_names_it_would_describe()
 {
    let errors = errors(
        "#[derive(serde::Deserialize)]\npub struct Params { pub level: Level }\n\
         pub type Out = u8;\n\
         #[derive(serde_repr::Deserialize_repr, schemars::JsonSchema)]\n#[repr(u8)]\npub enum Level { Low = 1, High = 2 }\n",
    );
    assert_eq!(
        errors,
        [
            "src/lib.rs:6:10: `Level` derives `Deserialize_repr`, so serde reads and writes it as an integer, but `#[derive(JsonSchema)]` describes it by its variants' names; derive `schemars::JsonSchema_repr` instead, whose schema is the integers"
        ]
    );
}

#[test]
fn the_unstable_ref_variants_setting_is_refused() {
    let errors = errors(
        "#[derive(serde::Deserialize)]\npub struct Params { pub e: E }\n\
         pub type Out = u8;\n\
         #[derive(schemars::JsonSchema)]\n#[schemars(_unstable_ref_variants)]\npub enum E { A(u8) }\n",
    );
    assert_one_error(
        &errors,
        "src/lib.rs:5:12",
        &["`_unstable_ref_variants`", "remove it"],
    );
}

#[test]
fn a_serde_remote_stand_in_is_named_after_the_type_it_stands_in_for() {
    let (input, _) = schemas(
        "#[derive(serde::Deserialize)]\npub struct Params {\n\
         #[serde(with = \"ThingDef\")]\n#[schemars(with = \"ThingDef\")]\npub d: other::Thing,\n}\n\
         pub type Out = u8;\n\
         #[derive(serde::Deserialize, schemars::JsonSchema)]\n#[serde(remote = \"other::Thing\")]\npub struct ThingDef { pub a: u8 }\n",
    );
    assert_eq!(input["properties"]["d"], json!({"$ref": "#/$defs/Thing"}));
    assert!(
        input["$defs"]["Thing"]["properties"]["a"].is_object(),
        "{input}"
    );
}

#[test]
fn a_schema_with_function_written_as_a_literal_is_its_schema_with_the_fields_metadata() {
    let (input, output) = schemas(
        "use schemars::{json_schema, Schema, SchemaGenerator};\n\
         const MAX: u64 = 1 << 40;\n\
         fn id(_: &mut SchemaGenerator) -> Schema {\n\
             json_schema!({\"type\": \"string\", \"maxLength\": MAX, \"minimum\": -3, \"x\": 2.0, \"type\": \"integer\"})\n\
         }\n\
         #[derive(serde::Deserialize)]\npub struct Params {\n\
         /// The id.\n#[schemars(schema_with = \"id\")]\npub id: String,\n}\n\
         pub type Out = u8;\n",
    );
    assert_eq!(
        input["properties"]["id"],
        json!({"type": "integer", "maxLength": 1_u64 << 40, "minimum": -3, "x": 2.0, "description": "The id."})
    );
    assert_eq!(output["properties"]["result"]["type"], "integer");
}

#[test]
fn a_schema_with_function_the_build_cannot_evaluate_is_refused_at_its_attribute_with_every_way_out()
{
    let errors = errors(
        "use schemars::{Schema, SchemaGenerator};\n\
         fn id(generator: &mut SchemaGenerator) -> Schema {\n\
             generator.subschema_for::<String>()\n\
         }\n\
         #[derive(serde::Deserialize)]\npub struct Params {\n\
         #[schemars(schema_with = \"id\")]\npub id: String,\n}\n\
         pub type Out = u8;\n",
    );
    assert_eq!(
        errors,
        [
            "src/lib.rs:7:12: the `schema_with` function `id` cannot be evaluated at build time: `generator.subschema_for::<String>()` is not a literal schema (src/lib.rs:3:1); write the function's body as one literal schema (`json_schema!({...})`, or `Schema::try_from(json!({...})).unwrap()`), or replace `schema_with` with #[schemars(with = \"Type\")] (adding the keywords the type lacks with `extend(\"key\" = value)`), or with a type of this crate that derives `JsonSchema`"
        ]
    );
}

#[test]
fn a_schema_with_function_with_statements_before_its_value_is_refused_naming_the_first() {
    let errors = errors(
        "use schemars::{json_schema, Schema, SchemaGenerator};\n\
         fn id(_: &mut SchemaGenerator) -> Schema {\n\
             let s = json_schema!({});\n\
             s\n\
         }\n\
         #[derive(serde::Deserialize)]\npub struct Params {\n\
         #[schemars(schema_with = \"id\")]\npub id: String,\n}\n\
         pub type Out = u8;\n",
    );
    assert_one_error(
        &errors,
        "src/lib.rs:8:12",
        &[
            "`id` cannot be evaluated",
            "statements before its value (src/lib.rs:3:1)",
        ],
    );
}

#[test]
fn a_schema_with_literal_that_is_not_a_schema_is_refused_as_schemars_would_panic() {
    let errors = errors(
        "use schemars::{Schema, SchemaGenerator};\n\
         fn id(_: &mut SchemaGenerator) -> Schema {\n\
             Schema::try_from(serde_json::json!([1, 2])).unwrap()\n\
         }\n\
         #[derive(serde::Deserialize)]\npub struct Params {\n\
         #[schemars(schema_with = \"id\")]\npub id: String,\n}\n\
         pub type Out = u8;\n",
    );
    assert_one_error(
        &errors,
        "src/lib.rs:7:12",
        &["it makes `[1,2]`, which is not a schema", "schemars panics"],
    );
}

#[test]
fn twenty_unevaluable_schema_with_functions_are_twenty_located_errors_in_one_build() {
    let fields: String = (0..20)
        .map(|i| {
            let holder = if i < 10 { "Params" } else { "Inner" };
            format!("{holder}|#[schemars(schema_with = \"made\")]\npub f{i}: String,\n")
        })
        .collect();
    let of = |holder: &str| -> String {
        fields
            .split_inclusive(",\n")
            .filter_map(|f| f.strip_prefix(&format!("{holder}|")))
            .collect()
    };
    let source = format!(
        "use schemars::{{Schema, SchemaGenerator}};\n\
         fn made(g: &mut SchemaGenerator) -> Schema {{ g.subschema_for::<u8>() }}\n\
         #[derive(serde::Deserialize)]\npub struct Params {{\n{}pub inner: Inner,\n}}\n\
         #[derive(serde::Deserialize)]\npub struct Inner {{\n{}}}\n\
         pub type Out = u8;\n",
        of("Params"),
        of("Inner")
    );
    let errors = errors(&source);
    assert_eq!(errors.len(), 20, "{errors:#?}");
    let mut lines: Vec<&str> = errors
        .iter()
        .map(|e| e.split(": error").next().unwrap())
        .collect();
    lines.dedup();
    assert_eq!(
        lines.len(),
        20,
        "each error is at its own attribute: {lines:#?}"
    );
    assert!(
        errors
            .iter()
            .all(|e| e.contains("the `schema_with` function `made` cannot be evaluated"))
    );
}

#[test]
fn a_serde_attribute_serde_refuses_is_refused_with_serdes_sentence_at_its_place() {
    let errors = errors(
        "#[derive(serde::Deserialize)]\n#[serde(rename_all = \"camel\")]\npub struct Params {\n\
         pub a: u8,\n\
         #[serde(flatten, skip_serializing_if = 3)]\npub b: Inner,\n}\n\
         #[derive(serde::Deserialize)]\npub struct Inner { pub c: u8 }\n\
         pub type Out = u8;\n",
    );
    assert_eq!(
        errors,
        [
            "src/lib.rs:2:22: serde refuses this: unknown rename rule `rename_all = \"camel\"`, expected one of \"lowercase\", \"UPPERCASE\", \"PascalCase\", \"camelCase\", \"snake_case\", \"SCREAMING_SNAKE_CASE\", \"kebab-case\", \"SCREAMING-KEBAB-CASE\"",
            "src/lib.rs:5:40: serde refuses this: expected serde skip_serializing_if attribute to be a string: `skip_serializing_if = \"...\"`",
        ]
    );
}

#[test]
fn every_field_attribute_the_build_cannot_read_is_reported_in_one_build() {
    let errors = errors(
        "#[derive(serde::Deserialize)]\npub struct Params {\n\
         #[serde(with = \"a\")]\npub a: u8,\n\
         #[serde(deserialize_with = \"b\")]\npub b: u8,\n}\n\
         pub type Out = u8;\n",
    );
    assert_eq!(errors.len(), 2, "{errors:#?}");
    assert!(errors[0].starts_with("src/lib.rs:3:9"), "{}", errors[0]);
    assert!(errors[1].starts_with("src/lib.rs:5:9"), "{}", errors[1]);
}

#[test]
fn a_default_written_through_serialize_with_is_refused() {
    let errors = errors(
        "#[derive(serde::Deserialize)]\npub struct Params {\n\
         #[serde(default, serialize_with = \"as_text\")]\n#[schemars(with = \"String\")]\npub n: u32,\n}\n\
         pub type Out = u8;\n",
    );
    assert_one_error(
        &errors,
        "src/lib.rs:3:1",
        &[
            "default of field `n`",
            "`with`/`serialize_with`",
            "remove the default",
        ],
    );
}

#[test]
fn a_default_whose_type_does_not_serialize_is_left_out_as_schemars_leaves_it_out() {
    let (input, _) = schemas(
        "#[derive(serde::Deserialize, Default)]\npub struct Inner { pub a: u8 }\n\
         #[derive(serde::Deserialize)]\npub struct Params {\n\
         #[serde(default)]\npub inner: Inner,\n#[serde(default)]\npub n: u8,\n}\n\
         pub type Out = u8;\n",
    );
    assert_eq!(
        input["properties"]["inner"],
        json!({"$ref": "#/$defs/Inner"})
    );
    assert_eq!(input["properties"]["n"]["default"], json!(0));
}

#[test]
fn a_field_never_deserialized_defaults_to_its_types_default_in_the_output() {
    let (_, output) = schemas(
        "pub type Params = Out;\n\
         #[derive(serde::Serialize, serde::Deserialize)]\npub struct Out {\n\
         #[serde(skip_deserializing)]\npub count: u32,\npub name: String,\n}\n",
    );
    assert_eq!(
        output["properties"]["count"],
        json!({"type": "integer", "format": "uint32", "minimum": 0, "readOnly": true, "default": 0})
    );
}

#[test]
fn an_f32_default_is_the_nearest_f32_widened_as_serde_writes_it() {
    let (input, _) = schemas(
        "fn tenth() -> f32 { 0.1 }\n\
         #[derive(serde::Deserialize)]\npub struct Params {\n\
         #[serde(default = \"tenth\")]\npub ratio: f32,\n}\n\
         pub type Out = u8;\n",
    );
    assert_eq!(
        input["properties"]["ratio"]["default"],
        json!(f64::from(0.1_f32))
    );
}

#[test]
fn a_transparent_struct_without_metadata_is_its_fields_schema_at_the_root() {
    let (input, _) = schemas(
        "#[derive(serde::Deserialize)]\npub struct Inner { pub a: u8 }\n\
         #[derive(serde::Deserialize)]\n#[serde(transparent)]\npub struct Params { pub inner: Inner }\n\
         pub type Out = u8;\n",
    );
    assert_eq!(input["type"], json!("object"));
    assert_eq!(input["required"], json!(["a"]));
}

#[test]
fn self_names_the_type_being_declared() {
    let (input, _) = schemas(
        "#[derive(serde::Deserialize)]\npub struct Params { pub children: Vec<Self> }\n\
         pub type Out = u8;\n",
    );
    assert_eq!(
        input["properties"]["children"],
        json!({"type": "array", "items": {"$ref": "#"}})
    );
}

#[test]
fn type_parameters_left_out_take_their_defaults() {
    let (input, _) = schemas(
        "#[derive(serde::Deserialize)]\npub struct Tagged<T, M = String> { pub value: T, pub meta: M }\n\
         #[derive(serde::Deserialize)]\npub struct Params { pub a: Tagged<u8>, pub b: Tagged<u8, String> }\n\
         pub type Out = u8;\n",
    );
    assert_eq!(input["properties"]["a"], json!({"$ref": "#/$defs/Tagged"}));
    assert_eq!(input["properties"]["b"], json!({"$ref": "#/$defs/Tagged"}));
    assert_eq!(
        input["$defs"]["Tagged"]["properties"]["meta"],
        json!({"type": "string"})
    );
}

#[test]
fn instances_that_differ_only_in_a_parameter_that_never_reaches_the_schema_share_a_definition() {
    let (input, _) = schemas(
        "#[derive(serde::Deserialize)]\npub struct S<T> { pub kept: u8, #[serde(skip)] pub gone: Option<T> }\n\
         #[derive(serde::Deserialize)]\npub struct Params { pub a: S<u8>, pub b: S<String> }\n\
         pub type Out = u8;\n",
    );
    assert_eq!(input["properties"]["b"], json!({"$ref": "#/$defs/S"}));
    assert_eq!(input["$defs"].as_object().map(|d| d.len()), Some(1));
}

#[test]
fn serde_from_and_into_give_the_other_types_schema_on_their_side() {
    let (input, output) = schemas(
        "#[derive(serde::Serialize, serde::Deserialize, Clone)]\n\
         #[serde(try_from = \"String\", into = \"Vec<u8>\")]\npub struct Code { pub a: u8 }\n\
         #[derive(serde::Serialize, serde::Deserialize)]\npub struct Params { pub code: Code }\n\
         pub type Out = Params;\n",
    );
    assert_eq!(input["$defs"]["Code"], json!({"type": "string"}));
    assert_eq!(output["$defs"]["Code"]["items"]["format"], json!("uint8"));
}

#[test]
fn extensions_written_as_json_are_read_as_json() {
    let (input, _) = schemas(
        "#[derive(serde::Deserialize)]\npub struct Params {\n\
         #[schemars(extend(\"x-a\" = {\"b\": [1, -2.5, null, true]}, \"x-c\" = \"d\"))]\npub n: u8,\n}\n\
         pub type Out = u8;\n",
    );
    assert_eq!(
        input["properties"]["n"]["x-a"],
        json!({"b": [1, -2.5, null, true]})
    );
    assert_eq!(input["properties"]["n"]["x-c"], json!("d"));
}

#[test]
fn an_extension_that_is_not_written_with_literals_is_refused() {
    let errors = errors(
        "#[derive(serde::Deserialize)]\npub struct Params {\n\
         #[schemars(extend(\"x-a\" = some_value))]\npub n: u8,\n}\n\
         pub type Out = u8;\n",
    );
    assert_one_error(
        &errors,
        "src/lib.rs:3:",
        &["`extend` value must be a literal"],
    );
}

#[test]
fn validator_items_schemars_ignores_are_ignored() {
    let (input, _) = schemas(
        "#[derive(serde::Deserialize)]\npub struct Params {\n\
         #[validate(length(min = 1, max = 3, message = \"too long\"))]\npub s: String,\n}\n\
         pub type Out = u8;\n",
    );
    assert_eq!(
        input["properties"]["s"],
        json!({"type": "string", "minLength": 1, "maxLength": 3})
    );
}

/// The input schema's `"default"` of each property, and the errors, of a
/// crate whose one tool takes `Params`, built for a target whose pointers
/// are `bits` wide.
fn defaults_for_pointer_width(types: &str, bits: u32) -> (Value, Vec<String>) {
    let source = format!(
        "{types}\npub type Out = u8;\n/// Do it.\n#[tool(tier = read)]\npub fn go(p: Params) -> Out {{ todo!() }}\n"
    );
    let cfg = CfgEnv::from_vars([(
        "CARGO_CFG_TARGET_POINTER_WIDTH".to_owned(),
        bits.to_string(),
    )]);
    let (analysis, _dir) = analyze_lib(&source, &cfg);
    let errors = analysis
        .diagnostics()
        .iter()
        .filter(|d| d.is_error())
        .map(ToString::to_string)
        .collect();
    let defaults = analysis.table().tools.first().map_or(Value::Null, |tool| {
        let properties = tool.descriptor["inputSchema"]["properties"]
            .as_object()
            .cloned()
            .unwrap_or_default();
        properties
            .into_iter()
            .map(|(name, schema)| (name, schema["default"].clone()))
            .collect()
    });
    (defaults, errors)
}

#[test]
fn pointer_sized_defaults_take_the_targets_width() {
    let types = "fn most() -> usize { usize::MAX }\nfn least() -> isize { isize::MIN }\n\
         #[derive(serde::Deserialize)]\npub struct Params {\n\
         #[serde(default = \"most\")]\npub most: usize,\n\
         #[serde(default = \"least\")]\npub least: isize,\n}\n";
    assert_eq!(
        defaults_for_pointer_width(types, 32),
        (
            json!({"most": 4_294_967_295_u32, "least": -2_147_483_648_i32}),
            vec![]
        )
    );
    assert_eq!(
        defaults_for_pointer_width(types, 64),
        (json!({"most": u64::MAX, "least": i64::MIN}), vec![])
    );
}

#[test]
fn a_pointer_sized_default_is_checked_at_the_targets_width() {
    let types = "fn size() -> usize { 1 << 40 }\n\
         #[derive(serde::Deserialize)]\npub struct Params {\n\
         #[serde(default = \"size\")]\npub size: usize,\n}\n";
    assert_eq!(
        defaults_for_pointer_width(types, 64),
        (json!({"size": 1_u64 << 40}), vec![])
    );
    let (_, errors) = defaults_for_pointer_width(types, 32);
    assert_one_error(
        &errors,
        "src/lib.rs:1:24",
        &["field `size`", "shifts by 40, but `usize` has 32 bits"],
    );
}

#[test]
fn an_integer_beyond_64_bits_is_refused_as_serde_json_writes_none() {
    let errors = errors(
        "fn huge() -> i128 { i128::MAX }\n\
         #[derive(serde::Deserialize)]\npub struct Params {\n\
         #[serde(default = \"huge\")]\npub huge: i128,\n}\npub type Out = u8;\n",
    );
    assert_one_error(
        &errors,
        "src/lib.rs:4:1",
        &[
            "`170141183460469231731687303715884105727` is beyond the 64 bits",
            "remove the default",
        ],
    );
}

#[test]
fn a_constructor_of_the_crates_own_type_is_not_taken_for_its_default() {
    let errors = errors(
        "#[derive(serde::Deserialize, serde::Serialize, Default)]\npub struct Settings { pub level: u8 }\n\
         impl Settings { fn new() -> Self { Settings { level: 3 } } }\n\
         fn make() -> Settings { Settings::new() }\n\
         #[derive(serde::Deserialize)]\npub struct Params {\n\
         #[serde(default = \"make\")]\npub settings: Settings,\n}\npub type Out = u8;\n",
    );
    assert_one_error(
        &errors,
        "src/lib.rs:7:1",
        &["`Settings::new()` is not a constant", "remove the default"],
    );
    // An inherent `default` comes before the trait's.
    let errors = self::errors(
        "#[derive(serde::Deserialize, serde::Serialize, Default)]\npub struct Settings { pub level: u8 }\n\
         impl Settings { fn default() -> Self { Settings { level: 3 } } }\n\
         fn make() -> Settings { Settings::default() }\n\
         #[derive(serde::Deserialize)]\npub struct Params {\n\
         #[serde(default = \"make\")]\npub settings: Settings,\n}\npub type Out = u8;\n",
    );
    assert_one_error(
        &errors,
        "src/lib.rs:7:1",
        &["`Settings::default()` is not a constant"],
    );
}

#[test]
fn a_literal_of_another_type_than_the_fields_is_refused() {
    let errors = errors(
        "fn limit() -> u32 { 5u64 }\n\
         #[derive(serde::Deserialize)]\npub struct Params {\n\
         #[serde(default = \"limit\")]\npub limit: u32,\n}\npub type Out = u8;\n",
    );
    assert_one_error(
        &errors,
        "src/lib.rs:4:1",
        &["`5u64` is a `u64`, but the value here is a `u32`"],
    );
}

#[test]
fn without_the_targets_pointer_width_a_pointer_sized_default_must_not_depend_on_it() {
    let (input, _) = schemas(
        "fn size() -> usize { 1024 * 1024 }\n\
         #[derive(serde::Deserialize)]\npub struct Params {\n\
         #[serde(default = \"size\")]\npub size: usize,\n}\npub type Out = u8;\n",
    );
    assert_eq!(input["properties"]["size"]["default"], json!(1_048_576));
    let errors = errors(
        "fn most() -> usize { usize::MAX }\n\
         #[derive(serde::Deserialize)]\npub struct Params {\n\
         #[serde(default = \"most\")]\npub most: usize,\n}\npub type Out = u8;\n",
    );
    assert_one_error(
        &errors,
        "src/lib.rs:4:1",
        &["the value of `usize::MAX` depends on the width of `usize` and `isize`"],
    );
}

#[test]
fn a_checkout_with_crlf_line_ends_bakes_the_descriptors_of_one_with_lf() {
    let source = r##"
/// Search the notes.
///
/// Matches titles and bodies.
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Params {
    /** The text to look for,
        across lines. */
    pub query: String,
    #[schemars(description = r"a raw
string")]
    pub limit: u32,
}

/// Do it.
///
/// Over two paragraphs.
#[tool(tier = read)]
pub fn go(p: Params) -> String { todo!() }
"##;
    let baked = |source: &str| {
        let (analysis, _dir) = analyze_lib(source, &CfgEnv::default());
        assert!(
            analysis.diagnostics().iter().all(|d| !d.is_error()),
            "{:?}",
            analysis.diagnostics()
        );
        let tool = &analysis.table().tools[0];
        (tool.descriptor.clone(), tool.fingerprint.to_string())
    };
    let lf = baked(source);
    let crlf = baked(&source.replace('\n', "\r\n"));
    assert!(!lf.0.to_string().contains("\\r"), "{}", lf.0);
    assert_eq!(crlf, lf);
}

#[test]
fn a_function_with_a_raw_name_is_the_tool_of_that_name_without_r_hash() {
    let source =
        "/// Find matches.\n#[tool(tier = read)]\npub fn r#match() -> String { todo!() }\n";
    let (analysis, _dir) = analyze_lib(source, &CfgEnv::default());
    assert!(
        analysis.diagnostics().iter().all(|d| !d.is_error()),
        "{:?}",
        analysis.diagnostics()
    );
    assert_eq!(analysis.table().tools[0].descriptor["name"], "match");
}

#[test]
fn a_context_named_through_an_alias_is_the_type_it_names() {
    let source = "
pub struct Ctx;
pub type State = crate::Ctx;
mod inner {
    pub type Shared = super::State;
}

/// One.
#[tool(tier = read)]
pub fn one(_ctx: &Ctx) -> String { todo!() }

/// Two.
#[tool(tier = read)]
pub fn two(_ctx: &State) -> String { todo!() }

/// Three.
#[tool(tier = read)]
pub fn three(_ctx: &inner::Shared) -> String { todo!() }
";
    let errors = errors_of(source);
    assert!(errors.is_empty(), "{errors:#?}");
}

#[test]
fn contexts_that_differ_behind_their_aliases_still_disagree() {
    let source = "
pub struct Ctx;
pub struct Other;
pub type State = Other;

/// One.
#[tool(tier = read)]
pub fn one(_ctx: &Ctx) -> String { todo!() }

/// Two.
#[tool(tier = read)]
pub fn two(_ctx: &State) -> String { todo!() }
";
    let errors = errors_of(source);
    assert!(
        errors.iter().any(|e| e.contains("share one context type")),
        "{errors:#?}"
    );
}

#[test]
fn a_default_the_build_cannot_evaluate_is_quoted_as_it_was_written() {
    let errors = errors(
        "fn wait() -> std::time::Duration { std::time::Duration::from_secs(5) }\n\
         #[derive(serde::Deserialize)]\npub struct Params {\n\
         #[serde(default = \"wait\")]\npub wait: std::time::Duration,\n}\npub type Out = u8;\n",
    );
    assert!(
        errors
            .iter()
            .any(|e| e.contains("`std::time::Duration::from_secs(5)`")),
        "{errors:#?}"
    );
}

#[test]
fn a_parameter_field_that_borrows_is_refused_at_the_reference_with_the_owned_type_to_use() {
    let errors = errors(
        "#[derive(serde::Deserialize)]\npub struct Params<'a> {\n\
         pub name: &'a str,\n\
         pub tags: Vec<&'a str>,\n}\n\
         pub type Out = u8;\n",
    );
    assert_eq!(
        errors,
        [
            "src/lib.rs:3:11: field `name` of `Params` borrows (`&'a str`), but a tool's parameters are deserialized from JSON the call owns, which a handler cannot borrow from; use an owned type (`String` for `&str`, `Vec<T>` for `&[T]`, `T` for `&T`)",
            "src/lib.rs:4:15: field `tags` of `Params` borrows (`&'a str`), but a tool's parameters are deserialized from JSON the call owns, which a handler cannot borrow from; use an owned type (`String` for `&str`, `Vec<T>` for `&[T]`, `T` for `&T`)",
        ]
    );
}

#[test]
fn an_output_type_may_borrow_as_serialize_allows() {
    let (_, output) = schemas(
        "#[derive(serde::Deserialize)]\npub struct Params { pub a: u8 }\n\
         #[derive(serde::Serialize)]\npub struct Out<'a> { pub name: &'a str }\n",
    );
    assert_eq!(output["properties"]["name"], json!({"type": "string"}));
}
