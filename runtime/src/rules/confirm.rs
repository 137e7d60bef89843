//! Confirmation: the `confirm` argument a risky tool requires.
//!
//! A tool declared with `confirm` gets a boolean `confirm` property injected
//! into its input schema. At call time the argument is taken out before the
//! handler sees it: absent or `false` refuses the call with a sentence that
//! names the consequence, anything but a boolean refuses it as a bad
//! argument. The schema property, the refusal and the check live together
//! here so that what the schema promises and what the server enforces cannot
//! drift apart.

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

/// The schema of the injected `confirm` property.
pub fn property_schema(confirm: &Confirm<'_>) -> Value {
    let description = match confirm.consequence() {
        Some(consequence) => {
            format!(
                "Set to true to confirm this call: it {consequence}. Without it the call is refused."
            )
        }
        None => "Set to true to confirm this call. Without it the call is refused.".to_owned(),
    };
    json!({"type": "boolean", "default": false, "description": description})
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

/// Why a confirming call was refused. The message is written for the model
/// that made the call: it says what the tool would do and how to proceed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// `confirm` was absent or `false`.
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
                "Invalid argument `confirm` for {tool}: expected true or false, got {given}. Call it again with `confirm: true` to proceed."
            ),
        }
    }
}

const SHOWN_VALUE_CHARS: usize = 64;

/// Takes `confirm` out of `arguments`, and refuses unless it was `true`.
pub fn take(
    tool: &str,
    confirm: &Confirm<'_>,
    arguments: &mut Map<String, Value>,
) -> Result<(), Refusal> {
    match arguments.remove(PROPERTY) {
        Some(Value::Bool(true)) => Ok(()),
        None | Some(Value::Bool(false)) => Err(Refusal::NotConfirmed {
            tool: tool.to_owned(),
            consequence: confirm.consequence().map(str::to_owned),
        }),
        Some(other) => {
            let mut given = other.to_string();
            if given.chars().count() > SHOWN_VALUE_CHARS {
                given = given.chars().take(SHOWN_VALUE_CHARS).collect::<String>() + "…";
            }
            Err(Refusal::NotBoolean {
                tool: tool.to_owned(),
                given,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(value: Value) -> Map<String, Value> {
        value.as_object().unwrap().clone()
    }

    #[test]
    fn a_true_confirm_is_taken_out_before_the_handler_sees_the_arguments() {
        let mut arguments = args(json!({"id": 3, "confirm": true}));
        assert_eq!(
            take("notes_delete", &Confirm::Required, &mut arguments),
            Ok(())
        );
        assert_eq!(Value::Object(arguments), json!({"id": 3}));
    }

    #[test]
    fn an_absent_or_false_confirm_is_refused_naming_the_consequence() {
        for value in [json!({"id": 3}), json!({"id": 3, "confirm": false})] {
            let refusal = take(
                "notes_delete",
                &Confirm::Because("deletes the note".into()),
                &mut args(value),
            )
            .unwrap_err();
            assert_eq!(
                refusal.to_string(),
                "notes_delete deletes the note, so it needs confirmation; call it again with `confirm: true` to proceed."
            );
        }
    }

    #[test]
    fn a_non_boolean_confirm_is_a_bad_argument_naming_the_value() {
        let refusal = take(
            "t",
            &Confirm::Required,
            &mut args(json!({"confirm": "yes"})),
        )
        .unwrap_err();
        assert_eq!(
            refusal.to_string(),
            "Invalid argument `confirm` for t: expected true or false, got \"yes\". Call it again with `confirm: true` to proceed."
        );
    }

    #[test]
    fn a_huge_non_boolean_confirm_is_shortened_in_the_refusal() {
        let refusal = take(
            "t",
            &Confirm::Required,
            &mut args(json!({"confirm": "x".repeat(10_000)})),
        )
        .unwrap_err();
        assert!(refusal.to_string().len() < 300);
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
