//! The names that link a `#[tool]` shim to the generated table.
//!
//! The macro emits a shim beside each handler; the build script emits the
//! table that refers to it. Neither sees the other's output, so both derive
//! the names from the tool's name with these functions. A free function's
//! shim is a trait impl on a marker type the table declares (trait impls are
//! visible everywhere, whatever the privacy of the module that holds the
//! handler); a method's shim is an associated constant of the context type.
//! Every shim is wrapped in the table's `__tooltable_seen!` macro, which
//! fails the build for a tool the build script did not see.

/// The facade's hidden module that generated code reaches the runtime
/// through: its name carries the contract version this crate generates.
pub fn private_module() -> String {
    format!("__private_v{}", tooltable_rules::CONTRACT)
}

/// The `cfg` the build script declares for the contract version it
/// generates, which `include_table!` and the shims check.
pub const CONTRACT_CFG: &str = "tooltable_contract";

/// The value of [`CONTRACT_CFG`] for this crate's contract version.
pub fn contract_cfg_value() -> String {
    tooltable_rules::CONTRACT.to_string()
}

/// The module of the generated file that holds the marker types.
pub const MARKERS_MODULE: &str = "__tooltable";

/// The static array of the table's entries in the generated file.
pub const ENTRIES_STATIC: &str = "__TOOLTABLE_ENTRIES";

/// The macro the generated file defines to make `TOOLS`, which
/// `include_table!` calls with the visibility its author chose.
pub const TOOLS_MACRO: &str = "__tooltable_tools";

/// The macro the generated file defines to accept the shims it expects.
pub const SEEN_MACRO: &str = "__tooltable_seen";

/// Encodes a tool name (ASCII letters, digits, `_`, `-`, `.`) as the tail of
/// a Rust identifier, one-to-one: `_` doubles, `-` becomes `_h`, `.` `_d`.
pub fn mangle(tool_name: &str) -> String {
    let mut out = String::with_capacity(tool_name.len() + 4);
    for c in tool_name.chars() {
        match c {
            '_' => out.push_str("__"),
            '-' => out.push_str("_h"),
            '.' => out.push_str("_d"),
            c if c.is_ascii_alphanumeric() => out.push(c),
            c => out.push_str(&format!("_u{:x}_", u32::from(c))),
        }
    }
    out
}

/// The marker type of a free-function tool.
pub fn marker_type(tool_name: &str) -> String {
    format!("T_{}", mangle(tool_name))
}

/// The associated constant that holds a method tool's handler.
pub fn method_handler_const(tool_name: &str) -> String {
    format!("__TOOLTABLE_{}", mangle(tool_name))
}

/// The token the seen-macro matches for a tool.
pub fn seen_key(tool_name: &str) -> String {
    format!("t_{}", mangle(tool_name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mangling_is_one_to_one_for_valid_names() {
        let names = ["a_b", "a-b", "a.b", "a__b", "a_hb", "a_db", "ab"];
        let mangled: std::collections::BTreeSet<String> = names.iter().map(|n| mangle(n)).collect();
        assert_eq!(mangled.len(), names.len());
    }

    #[test]
    fn shim_names_are_identifiers_even_for_names_that_start_with_a_digit() {
        for name in ["3d", "x.y-z", "notes_search"] {
            for ident in [
                marker_type(name),
                method_handler_const(name),
                seen_key(name),
            ] {
                assert!(syn::parse_str::<syn::Ident>(&ident).is_ok(), "{ident}");
            }
        }
    }
}
