//! `#[cfg]` and `#[cfg_attr]`, evaluated the way the compiler will.
//!
//! The build script sees the crate's sources before they are compiled, so it
//! must drop what the compiler will drop and apply the `cfg_attr`s the
//! compiler will apply, or the table would describe a different crate than
//! the one that is built. The set of active cfgs comes from cargo's
//! environment (`CARGO_FEATURE_*`, `CARGO_CFG_*`) in a build script, and from
//! the host and the crate's default features in the `tooltable` command. A
//! cfg that is not set is false, as for the compiler.
//!
//! A few cfgs cannot be known from a build script ([`UNCERTAIN`]): one run
//! of it serves `cargo build`, `cargo test` (where only the test target has
//! `cfg(test)`) and `cargo doc` (where rustdoc sets `cfg(doc)`, and decides
//! `debug_assertions` its own way). The environment records which of them
//! a reading of the crate looked at, so the build can read it once more for
//! each of their values it depends on.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, ExprLit, Lit, Meta, Token};

/// The cfg names a build script cannot know for every compilation its run
/// serves.
pub const UNCERTAIN: [&str; 3] = ["debug_assertions", "test", "doc"];

/// The cfgs that are set for one build.
#[derive(Clone, Debug, Default)]
pub struct CfgEnv {
    features: BTreeSet<String>,
    names: BTreeSet<String>,
    values: BTreeMap<String, BTreeSet<String>>,
    /// The uncertain names a predicate looked at.
    asked: RefCell<BTreeSet<&'static str>>,
}

impl PartialEq for CfgEnv {
    fn eq(&self, other: &CfgEnv) -> bool {
        (&self.features, &self.names, &self.values)
            == (&other.features, &other.names, &other.values)
    }
}

impl Eq for CfgEnv {}

fn normalize_feature(name: &str) -> String {
    name.to_ascii_lowercase().replace('-', "_")
}

impl CfgEnv {
    /// The cfgs of the build cargo is running this build script for.
    pub fn from_cargo_env() -> CfgEnv {
        CfgEnv::from_vars(std::env::vars())
    }

    /// The cfgs described by cargo's variables (`CARGO_FEATURE_*`, `CARGO_CFG_*`).
    pub fn from_vars(vars: impl IntoIterator<Item = (String, String)>) -> CfgEnv {
        let mut env = CfgEnv::default();
        for (key, value) in vars {
            if let Some(feature) = key.strip_prefix("CARGO_FEATURE_") {
                env.features.insert(normalize_feature(feature));
            } else if let Some(cfg) = key.strip_prefix("CARGO_CFG_") {
                let name = cfg.to_ascii_lowercase();
                if name == "feature" {
                    continue;
                }
                if value.is_empty() {
                    env.names.insert(name);
                } else {
                    env.values
                        .entry(name)
                        .or_default()
                        .extend(value.split(',').map(str::to_owned));
                }
            }
        }
        env
    }

    /// The cfgs of the machine running this code, with `features` enabled,
    /// for reading a crate without cargo.
    pub fn host(features: impl IntoIterator<Item = String>) -> CfgEnv {
        let mut env = CfgEnv::default();
        env.features
            .extend(features.into_iter().map(|f| normalize_feature(&f)));
        let mut set = |name: &str, value: &str| {
            env.values
                .entry(name.to_owned())
                .or_default()
                .insert(value.to_owned());
        };
        set("target_os", std::env::consts::OS);
        set("target_family", std::env::consts::FAMILY);
        set("target_arch", std::env::consts::ARCH);
        set("target_pointer_width", &(usize::BITS).to_string());
        set(
            "target_endian",
            if cfg!(target_endian = "little") {
                "little"
            } else {
                "big"
            },
        );
        set("panic", "unwind");
        if cfg!(unix) {
            env.names.insert("unix".into());
        }
        if cfg!(windows) {
            env.names.insert("windows".into());
        }
        env.names.insert("debug_assertions".into());
        env
    }

    /// The cfg names a build script cannot know (`debug_assertions`,
    /// `test`, `doc`) that the predicates evaluated so far looked at, in
    /// that order.
    pub fn asked_uncertain(&self) -> Vec<&'static str> {
        let asked = self.asked.borrow();
        UNCERTAIN
            .into_iter()
            .filter(|name| asked.contains(name))
            .collect()
    }

    /// These cfgs with each of `names` set or not, as given.
    pub fn with_names(&self, names: &[(&str, bool)]) -> CfgEnv {
        let mut env = CfgEnv {
            features: self.features.clone(),
            names: self.names.clone(),
            values: self.values.clone(),
            asked: RefCell::default(),
        };
        for (name, set) in names {
            if *set {
                env.names.insert((*name).to_owned());
            } else {
                env.names.remove(*name);
            }
        }
        env
    }

    /// These target cfgs with exactly `features` enabled: the cfgs of the
    /// same target in another build configuration.
    pub fn with_features(&self, features: impl IntoIterator<Item = String>) -> CfgEnv {
        let mut env = self.with_names(&[]);
        env.features = features
            .into_iter()
            .map(|f| normalize_feature(&f))
            .collect();
        env
    }

    /// Whether `name` is set.
    pub fn has_name(&self, name: &str) -> bool {
        self.names.contains(name)
    }

    /// The target's pointer width in bits, when the cfgs say.
    pub fn pointer_width(&self) -> Option<u32> {
        let mut widths = self.values.get("target_pointer_width")?.iter();
        match (widths.next(), widths.next()) {
            (Some(width), None) => width.parse().ok(),
            _ => None,
        }
    }

    /// Whether a feature is enabled.
    pub fn has_feature(&self, name: &str) -> bool {
        self.features.contains(&normalize_feature(name))
    }

    /// Evaluates a cfg predicate: `name`, `key = "value"`, `all(..)`, `any(..)`, `not(..)`.
    pub fn eval(&self, meta: &Meta) -> syn::Result<bool> {
        match meta {
            Meta::Path(path) => {
                let name = path_name(path)?;
                if let Some(uncertain) = UNCERTAIN.into_iter().find(|u| *u == name) {
                    self.asked.borrow_mut().insert(uncertain);
                }
                Ok(match name.as_str() {
                    "true" => true,
                    "false" => false,
                    _ => self.names.contains(&name),
                })
            }
            Meta::NameValue(nv) => {
                let key = path_name(&nv.path)?;
                let Expr::Lit(ExprLit {
                    lit: Lit::Str(value),
                    ..
                }) = &nv.value
                else {
                    return Err(syn::Error::new(
                        nv.value.span(),
                        "a cfg value must be a string literal",
                    ));
                };
                let value = value.value();
                Ok(if key == "feature" {
                    self.has_feature(&value)
                } else {
                    self.values
                        .get(&key)
                        .is_some_and(|set| set.contains(&value))
                })
            }
            Meta::List(list) => {
                let name = path_name(&list.path)?;
                let args = list.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)?;
                match name.as_str() {
                    "all" => {
                        for arg in &args {
                            if !self.eval(arg)? {
                                return Ok(false);
                            }
                        }
                        Ok(true)
                    }
                    "any" => {
                        for arg in &args {
                            if self.eval(arg)? {
                                return Ok(true);
                            }
                        }
                        Ok(false)
                    }
                    "not" if args.len() == 1 => Ok(!self.eval(&args[0])?),
                    "not" => Err(syn::Error::new(
                        list.span(),
                        "`not(..)` takes exactly one predicate",
                    )),
                    other => Err(syn::Error::new(
                        list.path.span(),
                        format!("`{other}(..)` is not a cfg predicate; use `all`, `any` or `not`"),
                    )),
                }
            }
        }
    }

    /// Expands `#[cfg_attr(pred, attrs..)]` into the attributes it applies, and
    /// tells whether every `#[cfg(..)]` holds. `None` means the item is
    /// compiled out.
    pub fn active_attrs(&self, attrs: &[Attribute]) -> syn::Result<Option<Vec<Attribute>>> {
        let mut out = Vec::with_capacity(attrs.len());
        let mut pending: Vec<Attribute> = attrs.iter().rev().cloned().collect();
        while let Some(attr) = pending.pop() {
            if attr.path().is_ident("cfg") {
                let predicate: Meta = attr.parse_args()?;
                if !self.eval(&predicate)? {
                    return Ok(None);
                }
            } else if attr.path().is_ident("cfg_attr") {
                let Meta::List(list) = &attr.meta else {
                    return Err(syn::Error::new(
                        attr.span(),
                        "`cfg_attr` takes a predicate and attributes",
                    ));
                };
                let mut parts = list
                    .parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)?
                    .into_iter();
                let predicate = parts
                    .next()
                    .ok_or_else(|| syn::Error::new(attr.span(), "`cfg_attr` needs a predicate"))?;
                if self.eval(&predicate)? {
                    for meta in parts.rev() {
                        pending.push(Attribute {
                            pound_token: attr.pound_token,
                            style: attr.style,
                            bracket_token: attr.bracket_token,
                            meta,
                        });
                    }
                }
            } else {
                out.push(attr);
            }
        }
        Ok(Some(out))
    }
}

fn path_name(path: &syn::Path) -> syn::Result<String> {
    path.get_ident()
        .map(ToString::to_string)
        .ok_or_else(|| syn::Error::new(path.span(), "a cfg name is a single identifier"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::parse_quote;

    fn env() -> CfgEnv {
        CfgEnv::from_vars([
            ("CARGO_FEATURE_SERDE_JSON".to_owned(), "1".to_owned()),
            ("CARGO_CFG_UNIX".to_owned(), String::new()),
            ("CARGO_CFG_TARGET_OS".to_owned(), "linux".to_owned()),
            ("CARGO_CFG_TARGET_FEATURE".to_owned(), "sse,sse2".to_owned()),
        ])
    }

    fn eval(meta: Meta) -> bool {
        env().eval(&meta).unwrap()
    }

    #[test]
    fn features_names_and_values_come_from_cargo_variables() {
        assert!(eval(parse_quote!(feature = "serde-json")));
        assert!(!eval(parse_quote!(feature = "other")));
        assert!(eval(parse_quote!(unix)));
        assert!(!eval(parse_quote!(windows)));
        assert!(eval(parse_quote!(target_os = "linux")));
        assert!(eval(parse_quote!(target_feature = "sse2")));
        assert!(!eval(parse_quote!(test)));
    }

    #[test]
    fn the_pointer_width_is_known_only_when_cargo_says() {
        assert_eq!(env().pointer_width(), None);
        let wide =
            CfgEnv::from_vars([("CARGO_CFG_TARGET_POINTER_WIDTH".to_owned(), "32".to_owned())]);
        assert_eq!(wide.pointer_width(), Some(32));
        assert_eq!(CfgEnv::host(Vec::new()).pointer_width(), Some(usize::BITS));
    }

    #[test]
    fn all_any_and_not_combine() {
        assert!(eval(parse_quote!(all(
            unix,
            not(windows),
            any(test, target_os = "linux")
        ))));
        assert!(!eval(parse_quote!(any())));
        assert!(eval(parse_quote!(all())));
    }

    #[test]
    fn cfg_attr_applies_its_attributes_only_when_its_predicate_holds() {
        let attrs: Vec<Attribute> = vec![
            parse_quote!(#[cfg_attr(unix, path = "unix.rs", doc = "x")]),
            parse_quote!(#[cfg_attr(windows, path = "windows.rs")]),
            parse_quote!(#[cfg_attr(unix, cfg_attr(feature = "serde-json", serde(default)))]),
        ];
        let active = env().active_attrs(&attrs).unwrap().unwrap();
        let names: Vec<String> = active
            .iter()
            .map(|a| a.path().get_ident().unwrap().to_string())
            .collect();
        assert_eq!(names, ["path", "doc", "serde"]);
    }

    #[test]
    fn the_names_a_build_script_cannot_know_are_recorded_when_looked_at() {
        let env = env();
        assert!(!eval(parse_quote!(all(unix, test))));
        env.eval(&parse_quote!(any(windows, target_os = "linux")))
            .unwrap();
        assert!(env.asked_uncertain().is_empty());
        env.eval(&parse_quote!(all(unix, not(test), debug_assertions)))
            .unwrap();
        assert_eq!(env.asked_uncertain(), ["debug_assertions", "test"]);
        let testing = env.with_names(&[("test", true)]);
        assert!(testing.has_name("test") && testing.asked_uncertain().is_empty());
        assert_eq!(testing.with_names(&[("test", false)]), env);
    }

    #[test]
    fn a_false_cfg_compiles_the_item_out() {
        let attrs: Vec<Attribute> = vec![parse_quote!(#[cfg(windows)])];
        assert_eq!(env().active_attrs(&attrs).unwrap(), None);
        let attrs: Vec<Attribute> = vec![parse_quote!(#[cfg_attr(unix, cfg(test))])];
        assert_eq!(env().active_attrs(&attrs).unwrap(), None);
    }
}
