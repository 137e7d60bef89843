//! Confirmation: who may allow a call to a risky tool, and how.
//!
//! A tool declared with `confirm` runs only once a person allowed it. When
//! the client can ask its user (it declared elicitation), the user is asked
//! (see `call::consent`) and nothing the model sends replaces the answer.
//! When it cannot, the call is refused, unless the operator chose
//! [`Consent::person_or_argument`]: then the `confirm` argument injected into
//! the input schema confirms it, as set by the model. The schema property,
//! the setting, the refusals and the check live together here so that what
//! the schema promises and what the server enforces cannot drift apart.

use crate::quote;
use serde_json::{Map, Value, json};
use std::borrow::Cow;
use std::fmt;

/// Whether a tool needs confirmation, and the consequence it names: one
/// representation for the attribute, the baked table, the manifest and
/// tools registered at run time.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Confirm<'a> {
    /// `confirm` as a bare flag.
    Required,
    /// `confirm = "..."`: what the tool does, as a clause ("deletes the note").
    Because(Cow<'a, str>),
}

impl Confirm<'_> {
    /// The declared consequence, if any.
    pub fn consequence(&self) -> Option<&str> {
        match self {
            Confirm::Required => None,
            Confirm::Because(text) => Some(text),
        }
    }

    /// The same requirement, borrowing its text.
    pub fn borrowed(&self) -> Confirm<'_> {
        match self {
            Confirm::Required => Confirm::Required,
            Confirm::Because(text) => Confirm::Because(Cow::Borrowed(text)),
        }
    }

    /// The same requirement, owning its text.
    pub fn into_owned(self) -> Confirm<'static> {
        match self {
            Confirm::Required => Confirm::Required,
            Confirm::Because(text) => Confirm::Because(Cow::Owned(text.into_owned())),
        }
    }
}

/// The name of the injected argument.
pub const PROPERTY: &str = "confirm";

/// The schema of the injected `confirm` property. Its description says
/// what it means under either [`Consent`] setting, because the schema is
/// fixed at build time and the setting is the operator's.
pub fn property_schema(confirm: &Confirm<'_>) -> Value {
    let what = match confirm.consequence() {
        Some(consequence) => format!("this call ({consequence})"),
        None => "this call".to_owned(),
    };
    let description = format!(
        "Confirms {what} only when the client cannot ask its user and the server accepts confirmation by argument; otherwise the user is asked, and this value is ignored."
    );
    json!({"type": "boolean", "default": false, "description": description})
}

/// Who may confirm a call to a confirming tool: always the person when the
/// client can ask them; the setting decides what happens when it cannot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Consent {
    by_argument: bool,
    switch: Option<Cow<'static, str>>,
}

impl Consent {
    /// Only a person (the default): a client that cannot ask its user is
    /// refused, and `confirm: true` from the model confirms nothing.
    pub const fn person() -> Consent {
        Consent {
            by_argument: false,
            switch: None,
        }
    }

    /// A person when the client can ask; otherwise `confirm: true` in the
    /// arguments, which the model sets. Choose it only for clients that show
    /// each call to a person before sending it.
    pub const fn person_or_argument() -> Consent {
        Consent {
            by_argument: true,
            switch: None,
        }
    }

    /// Names what lets clients that cannot ask confirm by argument, for the
    /// refusal, such as `"start the server with --confirm-by-argument"`.
    pub fn switch(mut self, how: impl Into<Cow<'static, str>>) -> Consent {
        self.switch = Some(how.into());
        self
    }

    /// Whether a client that cannot ask may confirm with `confirm: true`.
    pub fn by_argument(&self) -> bool {
        self.by_argument
    }

    /// What the operator does to allow confirmation by argument.
    fn how_to_allow(&self) -> &str {
        self.switch
            .as_deref()
            .unwrap_or("configure the registry with `Consent::person_or_argument()`")
    }
}

impl Default for Consent {
    fn default() -> Consent {
        Consent::person()
    }
}

/// Why `confirm` could not be injected into an input schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InjectError {
    /// The schema has no `properties` object to extend (its root is not an object schema).
    NotAnObjectSchema,
    /// The parameter type already has a field named `confirm`.
    Collision,
}

impl fmt::Display for InjectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InjectError::NotAnObjectSchema => f.write_str(
                "a confirming tool needs an object input schema to carry its `confirm` argument",
            ),
            InjectError::Collision => f.write_str(
                "the parameter type has its own `confirm` field, which would collide with the `confirm` argument this tool's confirmation adds; rename the field (for example with #[serde(rename = \"...\")])",
            ),
        }
    }
}

impl std::error::Error for InjectError {}

/// Adds the `confirm` property to an object input schema. It is not listed
/// in `required`: a client that validates arguments would otherwise refuse
/// the call before the server could explain what confirming means.
pub fn inject(schema: &mut Value, confirm: &Confirm<'_>) -> Result<(), InjectError> {
    let root = schema
        .as_object_mut()
        .ok_or(InjectError::NotAnObjectSchema)?;
    if root.get("type") != Some(&Value::String("object".into())) {
        return Err(InjectError::NotAnObjectSchema);
    }
    let properties = root
        .entry("properties")
        .or_insert_with(|| Value::Object(Map::new()))
        .as_object_mut()
        .ok_or(InjectError::NotAnObjectSchema)?;
    if properties.contains_key(PROPERTY) {
        return Err(InjectError::Collision);
    }
    properties.insert(PROPERTY.into(), property_schema(confirm));
    Ok(())
}

/// Why a confirming call was refused. Each message says that nothing was
/// done and, where there is one, what would let the call run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Confirmation by argument: `confirm` was absent or `false`.
    NotConfirmed {
        /// The tool called.
        tool: String,
        /// What the tool does, as declared.
        consequence: Option<String>,
    },
    /// `confirm` was present but not a boolean.
    NotBoolean {
        /// The tool called.
        tool: String,
        /// The value given, as JSON text, shortened when long.
        given: String,
    },
    /// The client cannot ask its user, and the server accepts only a person's confirmation.
    CannotAsk {
        /// The tool called.
        tool: String,
        /// What the tool does, as declared.
        consequence: Option<String>,
        /// What the operator does to allow confirmation by argument.
        how: String,
    },
    /// The person said no: declined, or answered `false`.
    Declined {
        /// The tool called.
        tool: String,
    },
    /// The person dismissed the question without choosing.
    Dismissed {
        /// The tool called.
        tool: String,
    },
    /// The question could not be asked or its answer not read.
    NoAnswer {
        /// The tool called.
        tool: String,
        /// What went wrong, as a clause.
        why: String,
    },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::NotConfirmed {
                tool,
                consequence: Some(consequence),
            } => write!(
                f,
                "{tool} {consequence}, so it needs confirmation; call it again with `confirm: true` to proceed."
            ),
            Refusal::NotConfirmed {
                tool,
                consequence: None,
            } => write!(
                f,
                "{tool} needs confirmation; call it again with `confirm: true` to proceed."
            ),
            Refusal::NotBoolean { tool, given } => write!(
                f,
                "Invalid argument `confirm` for {tool}: expected true or false, got {given}; nothing was done."
            ),
            Refusal::CannotAsk {
                tool,
                consequence,
                how,
            } => {
                match consequence {
                    Some(consequence) => {
                        write!(f, "{tool} {consequence}, so a person must allow it")?
                    }
                    None => write!(f, "{tool} needs a person to allow it")?,
                }
                write!(
                    f,
                    ", but this client cannot ask its user (it did not declare the elicitation capability); nothing was done. To let such clients confirm with `confirm: true`, {how}."
                )
            }
            Refusal::Declined { tool } => {
                write!(f, "The user did not allow {tool}; nothing was done.")
            }
            Refusal::Dismissed { tool } => write!(
                f,
                "The user dismissed the question whether to allow {tool}; nothing was done."
            ),
            Refusal::NoAnswer { tool, why } => write!(
                f,
                "{tool} needs a person to allow it, but {why}; nothing was done."
            ),
        }
    }
}

/// Takes `confirm` out of `arguments` before anything else sees them: its
/// value when it was a boolean, `None` when absent.
pub fn take(tool: &str, arguments: &mut Map<String, Value>) -> Result<Option<bool>, Refusal> {
    match arguments.remove(PROPERTY) {
        None => Ok(None),
        Some(Value::Bool(given)) => Ok(Some(given)),
        Some(other) => Err(Refusal::NotBoolean {
            tool: tool.to_owned(),
            given: quote::text(&other.to_string()).into_owned(),
        }),
    }
}

/// Decides a call whose client cannot ask its user: confirmed only when the
/// setting accepts the argument and the argument was `true`.
pub fn without_person(
    tool: &str,
    confirm: &Confirm<'_>,
    consent: &Consent,
    given: Option<bool>,
) -> Result<(), Refusal> {
    let consequence = || confirm.consequence().map(str::to_owned);
    if !consent.by_argument() {
        return Err(Refusal::CannotAsk {
            tool: tool.to_owned(),
            consequence: consequence(),
            how: consent.how_to_allow().to_owned(),
        });
    }
    match given {
        Some(true) => Ok(()),
        None | Some(false) => Err(Refusal::NotConfirmed {
            tool: tool.to_owned(),
            consequence: consequence(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(value: Value) -> Map<String, Value> {
        value.as_object().unwrap().clone()
    }

    #[test]
    fn confirm_is_taken_out_before_the_handler_sees_the_arguments() {
        let mut arguments = args(json!({"id": 3, "confirm": true}));
        assert_eq!(take("notes_delete", &mut arguments), Ok(Some(true)));
        assert_eq!(Value::Object(arguments), json!({"id": 3}));
        assert_eq!(take("notes_delete", &mut args(json!({"id": 3}))), Ok(None));
    }

    #[test]
    fn without_a_person_only_the_argument_setting_and_true_confirm() {
        let deletes = Confirm::Because("deletes the note".into());
        let by_argument = Consent::person_or_argument();
        assert_eq!(
            without_person("notes_delete", &deletes, &by_argument, Some(true)),
            Ok(())
        );
        for given in [None, Some(false)] {
            let refusal =
                without_person("notes_delete", &deletes, &by_argument, given).unwrap_err();
            assert_eq!(
                refusal.to_string(),
                "notes_delete deletes the note, so it needs confirmation; call it again with `confirm: true` to proceed."
            );
        }
    }

    #[test]
    fn a_person_only_server_refuses_a_client_that_cannot_ask_even_with_confirm_true() {
        let deletes = Confirm::Because("deletes the note".into());
        let refusal =
            without_person("notes_delete", &deletes, &Consent::person(), Some(true)).unwrap_err();
        assert_eq!(
            refusal.to_string(),
            "notes_delete deletes the note, so a person must allow it, but this client cannot ask its user (it did not declare the elicitation capability); nothing was done. To let such clients confirm with `confirm: true`, configure the registry with `Consent::person_or_argument()`."
        );
        let named = Consent::person().switch("start the server with --confirm-by-argument");
        let refusal = without_person("t", &Confirm::Required, &named, None).unwrap_err();
        assert!(
            refusal
                .to_string()
                .ends_with("To let such clients confirm with `confirm: true`, start the server with --confirm-by-argument."),
            "{refusal}"
        );
    }

    #[test]
    fn a_non_boolean_confirm_is_a_bad_argument_naming_the_value() {
        let refusal = take("t", &mut args(json!({"confirm": "yes"}))).unwrap_err();
        assert_eq!(
            refusal.to_string(),
            "Invalid argument `confirm` for t: expected true or false, got \"yes\"; nothing was done."
        );
    }

    #[test]
    fn a_huge_non_boolean_confirm_is_shortened_in_the_refusal() {
        let refusal = take("t", &mut args(json!({"confirm": "x".repeat(10_000)}))).unwrap_err();
        assert!(refusal.to_string().chars().count() < 400);
    }

    #[test]
    fn injection_adds_an_optional_boolean_property() {
        let mut schema = json!({"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]});
        inject(&mut schema, &Confirm::Because("deletes the note".into())).unwrap();
        assert_eq!(schema["properties"]["confirm"]["type"], "boolean");
        assert_eq!(schema["required"], json!(["id"]));
        let mut empty = json!({"type": "object", "additionalProperties": false});
        inject(&mut empty, &Confirm::Required).unwrap();
        assert_eq!(empty["properties"]["confirm"]["type"], "boolean");
    }

    #[test]
    fn a_parameter_type_with_its_own_confirm_field_collides() {
        let mut schema = json!({"type": "object", "properties": {"confirm": {"type": "string"}}});
        assert_eq!(
            inject(&mut schema, &Confirm::Required),
            Err(InjectError::Collision)
        );
        assert_eq!(
            inject(&mut json!({"type": "string"}), &Confirm::Required),
            Err(InjectError::NotAnObjectSchema)
        );
    }
}
