//! The guard in front of rmcp: every message is JSON-RPC, or gets an answer.
//!
//! rmcp drops a stdio line that is not JSON or is too long, answers a body
//! that is not JSON with `415` and plain text on HTTP, and leaves out `id`
//! in its `-32600`. The MCP specification wants a JSON-RPC error for each,
//! carrying the request's id where it can be read. Both transports hand
//! each incoming message to [`inspect`] first; only a message that passes is
//! given to rmcp, so a client never waits for an answer that will not come.

use serde::Deserialize;
use serde::de::{self, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Value, json};
use std::fmt;

/// JSON-RPC's "Parse error".
pub(crate) const PARSE_ERROR: i64 = -32700;
/// JSON-RPC's "Invalid Request".
pub(crate) const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC's "Invalid params".
pub(crate) const INVALID_PARAMS: i64 = -32602;
/// JSON-RPC's "Internal error", for a server that cannot take more.
#[cfg(feature = "http")]
pub(crate) const INTERNAL_ERROR: i64 = -32603;

/// What a message is, once it passed the guard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A request: it is owed an answer.
    Request,
    /// A notification: no answer, ever.
    Notification,
    /// A response to a request the server sent.
    Response,
}

/// A message the guard let through.
#[derive(Debug)]
pub(crate) struct Passed {
    /// What it is.
    pub kind: Kind,
    /// Whether its method is `tools/list`, which the transports may answer
    /// themselves ([`super::listing`]).
    pub lists_tools: bool,
}

/// A message the guard refused, with the error to answer it with (none for
/// a refused notification: notifications are never answered).
#[derive(Debug)]
pub(crate) struct Refused {
    /// The JSON-RPC error code.
    pub code: i64,
    /// The message, a sentence saying what was wrong and what would work.
    pub message: String,
    /// The request's id, when it could be read; `null` otherwise.
    pub id: Value,
    /// Whether an answer is owed (false for a refused notification).
    pub answer: bool,
}

impl Refused {
    fn new(code: i64, message: impl Into<String>, id: Value) -> Refused {
        Refused {
            code,
            message: message.into(),
            id,
            answer: true,
        }
    }

    /// The JSON-RPC error response, as one line of JSON text.
    pub fn response(&self) -> String {
        error_response(&self.id, self.code, &self.message)
    }
}

/// A JSON-RPC error response as JSON text.
pub(crate) fn error_response(id: &Value, code: i64, message: &str) -> String {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}).to_string()
}

/// The refusal of a message larger than `max_bytes`, which was not kept, so
/// its id is unknown.
pub(crate) fn too_large(max_bytes: usize) -> Refused {
    Refused::new(
        INVALID_REQUEST,
        format!(
            "Invalid request: the message is larger than this server's limit of {max_bytes} bytes; send a smaller request"
        ),
        Value::Null,
    )
}

/// The refusal of an `initialize` that would open a session beyond the
/// server's limit of `max` (HTTP `503`).
#[cfg(feature = "http")]
pub(crate) fn over_session_limit(id: Value, max: usize) -> Refused {
    Refused::new(
        INTERNAL_ERROR,
        format!(
            "Server busy: this server holds its limit of {max} sessions; try again later, or use the stateless 2026-07-28 revision, which needs no session"
        ),
        id,
    )
}

/// The refusal of a message that could not be read to its end.
#[cfg(feature = "http")]
pub(crate) fn unreadable(error: &dyn fmt::Display) -> Refused {
    Refused::new(
        PARSE_ERROR,
        format!("Parse error: cannot read the message: {error}"),
        Value::Null,
    )
}

/// Checks one message: JSON, nested no deeper than `max_depth`, and a
/// JSON-RPC 2.0 request, notification or response.
pub(crate) fn inspect(bytes: &[u8], max_depth: usize) -> Result<Passed, Refused> {
    let deep = nests_deeper_than(bytes, max_depth);
    let envelope = match serde_json::from_slice::<Envelope>(bytes) {
        Ok(envelope) => envelope,
        Err(error) if error.is_syntax() || error.is_eof() => {
            return Err(Refused::new(
                PARSE_ERROR,
                format!(
                    "Parse error: the message is not JSON ({error}); send one JSON-RPC object per message"
                ),
                Value::Null,
            ));
        }
        // Valid JSON that serde_json could not read: nested beyond its own
        // limit (the depth check below words that), or not an object.
        Err(_) if deep => return Err(too_deep(Value::Null, max_depth)),
        Err(_) => return Err(not_json_rpc(Value::Null, "it is not a JSON object")),
    };
    let id = envelope.id.clone().filter(valid_id).unwrap_or(Value::Null);
    if deep {
        return Err(too_deep(id, max_depth));
    }
    if !envelope.version_2_0 {
        return Err(not_json_rpc(id, "`jsonrpc` must be \"2.0\""));
    }
    let lists_tools = envelope.method.is_some_and(|m| m.lists_tools);
    match (
        envelope.method.map(|m| m.shape),
        envelope.has_result_or_error,
    ) {
        (Some(Shape::String), _) => {
            let kind = if envelope.id.is_some() {
                Kind::Request
            } else {
                Kind::Notification
            };
            let refuse = |why: &str| {
                let mut refused = not_json_rpc(id.clone(), why);
                refused.answer = kind == Kind::Request;
                refused
            };
            if kind == Kind::Request && !envelope.id.as_ref().is_some_and(valid_id) {
                return Err(refuse("`id` must be a string or an integer"));
            }
            match envelope.params {
                None => Ok(Passed { kind, lists_tools }),
                Some(Params {
                    shape: Shape::Object,
                    input_responses,
                    request_state,
                }) => {
                    // rmcp reads a null `inputResponses` as absent, which
                    // would quietly restart a multi-round call.
                    let bad = match (input_responses, request_state) {
                        (Some(shape), _) if shape != Shape::Object => Some(
                            "`inputResponses` must be an object mapping each question's key to the client's answer",
                        ),
                        (_, Some(shape)) if shape != Shape::String => {
                            Some("`requestState` must be the string the server gave")
                        }
                        _ => None,
                    };
                    match bad {
                        Some(why) if kind == Kind::Request => Err(Refused::new(
                            INVALID_PARAMS,
                            format!("Invalid params: {why}"),
                            id,
                        )),
                        _ => Ok(Passed { kind, lists_tools }),
                    }
                }
                Some(_) => Err(refuse("`params` must be an object")),
            }
        }
        (Some(_), _) => Err(not_json_rpc(id, "`method` must be a string")),
        (None, true) => Ok(Passed {
            kind: Kind::Response,
            lists_tools: false,
        }),
        (None, false) => Err(not_json_rpc(
            id,
            "it has neither `method` (a request or notification) nor `result` or `error` (a response)",
        )),
    }
}

fn not_json_rpc(id: Value, why: &str) -> Refused {
    Refused::new(
        INVALID_REQUEST,
        format!("Invalid request: the message is not a JSON-RPC 2.0 message: {why}"),
        id,
    )
}

fn too_deep(id: Value, max_depth: usize) -> Refused {
    Refused::new(
        INVALID_REQUEST,
        format!(
            "Invalid request: the message nests arrays and objects deeper than this server's limit of {max_depth} levels; flatten the arguments"
        ),
        id,
    )
}

/// MCP's request ids are strings or integers (never null, never fractional).
fn valid_id(id: &Value) -> bool {
    match id {
        Value::String(_) => true,
        Value::Number(n) => n.is_i64() || n.is_u64(),
        _ => false,
    }
}

/// Whether arrays and objects nest deeper than `max` in JSON text. Nesting
/// can go no deeper than the number of brackets that open, which is counted
/// far faster than strings are skipped, so most messages need only the count.
fn nests_deeper_than(bytes: &[u8], max: usize) -> bool {
    let opening = bytes.iter().filter(|&&b| b == b'{' || b == b'[').count();
    opening > max && nesting_depth(bytes) > max
}

/// How deeply arrays and objects nest in JSON text, counted without parsing
/// it: one pass over the bytes, skipping strings. Text that is not JSON gets
/// a meaningless but harmless answer; the parser refuses it anyway.
pub(crate) fn nesting_depth(bytes: &[u8]) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    let mut in_string = false;
    let mut escaped = false;
    for &byte in bytes {
        if in_string {
            match (escaped, byte) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// The parts of a JSON-RPC message the guard reads; everything else is
/// skipped without being kept.
struct Envelope {
    /// `jsonrpc` is the string `"2.0"`.
    version_2_0: bool,
    id: Option<Value>,
    method: Option<Method>,
    params: Option<Params>,
    has_result_or_error: bool,
}

/// The `method` member: its shape, and whether it names `tools/list`.
#[derive(Clone, Copy, Debug)]
struct Method {
    shape: Shape,
    lists_tools: bool,
}

/// What kind of JSON value a member holds, read without keeping it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    Object,
    String,
    Null,
    Other,
}

/// The shape of `params`, and of the members the multi-round flow of
/// 2026-07-28 reads.
#[derive(Debug)]
struct Params {
    shape: Shape,
    input_responses: Option<Shape>,
    request_state: Option<Shape>,
}

impl<'de> Deserialize<'de> for Params {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Params, D::Error> {
        struct ParamsVisitor;
        impl<'de> Visitor<'de> for ParamsVisitor {
            type Value = Params;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Params, A::Error> {
                let mut params = Params {
                    shape: Shape::Object,
                    input_responses: None,
                    request_state: None,
                };
                while let Some(key) = map.next_key::<Key>()? {
                    match key {
                        Key::InputResponses => params.input_responses = Some(map.next_value()?),
                        Key::RequestState => params.request_state = Some(map.next_value()?),
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(params)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Params, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Params::other())
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<Params, E> {
                Ok(Params::other())
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Params, E> {
                Ok(Params::other())
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Params, E> {
                Ok(Params::other())
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Params, E> {
                Ok(Params::other())
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Params, E> {
                Ok(Params::other())
            }
            fn visit_unit<E: de::Error>(self) -> Result<Params, E> {
                Ok(Params::other())
            }
        }
        deserializer.deserialize_any(ParamsVisitor)
    }
}

impl Params {
    fn other() -> Params {
        Params {
            shape: Shape::Other,
            input_responses: None,
            request_state: None,
        }
    }
}

/// What a JSON value is read as: its [`Shape`], or (for a string) what
/// the string says.
trait Classified: Sized {
    fn of_shape(shape: Shape) -> Self;
    fn of_str(_: &str) -> Self {
        Self::of_shape(Shape::String)
    }
}

impl Classified for Shape {
    fn of_shape(shape: Shape) -> Shape {
        shape
    }
}

impl Classified for Method {
    fn of_shape(shape: Shape) -> Method {
        Method {
            shape,
            lists_tools: false,
        }
    }
    fn of_str(method: &str) -> Method {
        Method {
            shape: Shape::String,
            lists_tools: method == "tools/list",
        }
    }
}

/// Reads any JSON value as a [`Classified`], keeping nothing.
struct Classify<T>(std::marker::PhantomData<T>);

impl<'de, T: Classified> Visitor<'de> for Classify<T> {
    type Value = T;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(T::of_shape(Shape::Object))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<T, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(T::of_shape(Shape::Other))
    }
    fn visit_str<E: de::Error>(self, text: &str) -> Result<T, E> {
        Ok(T::of_str(text))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<T, E> {
        Ok(T::of_shape(Shape::Other))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<T, E> {
        Ok(T::of_shape(Shape::Other))
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<T, E> {
        Ok(T::of_shape(Shape::Other))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<T, E> {
        Ok(T::of_shape(Shape::Other))
    }
    fn visit_unit<E: de::Error>(self) -> Result<T, E> {
        Ok(T::of_shape(Shape::Null))
    }
}

impl<'de> Deserialize<'de> for Shape {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Shape, D::Error> {
        deserializer.deserialize_any(Classify(std::marker::PhantomData))
    }
}

impl<'de> Deserialize<'de> for Method {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Method, D::Error> {
        deserializer.deserialize_any(Classify(std::marker::PhantomData))
    }
}

/// A member name the guard reads, recognised without being copied.
enum Key {
    Jsonrpc,
    Id,
    Method,
    Params,
    ResultOrError,
    InputResponses,
    RequestState,
    Other,
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Key, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = Key;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a member name")
            }
            fn visit_str<E: de::Error>(self, name: &str) -> Result<Key, E> {
                Ok(match name {
                    "jsonrpc" => Key::Jsonrpc,
                    "id" => Key::Id,
                    "method" => Key::Method,
                    "params" => Key::Params,
                    "result" | "error" => Key::ResultOrError,
                    "inputResponses" => Key::InputResponses,
                    "requestState" => Key::RequestState,
                    _ => Key::Other,
                })
            }
        }
        deserializer.deserialize_identifier(KeyVisitor)
    }
}

/// The `jsonrpc` member: whether it is the string `"2.0"`.
struct Version(bool);

impl Classified for Version {
    fn of_shape(_: Shape) -> Version {
        Version(false)
    }
    fn of_str(text: &str) -> Version {
        Version(text == "2.0")
    }
}

impl<'de> Deserialize<'de> for Version {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Version, D::Error> {
        deserializer.deserialize_any(Classify(std::marker::PhantomData))
    }
}

impl<'de> Deserialize<'de> for Envelope {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Envelope, D::Error> {
        struct EnvelopeVisitor;
        impl<'de> Visitor<'de> for EnvelopeVisitor {
            type Value = Envelope;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON-RPC object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Envelope, A::Error> {
                let mut envelope = Envelope {
                    version_2_0: false,
                    id: None,
                    method: None,
                    params: None,
                    has_result_or_error: false,
                };
                while let Some(key) = map.next_key::<Key>()? {
                    match key {
                        Key::Jsonrpc => {
                            envelope.version_2_0 = map.next_value::<Version>()?.0;
                        }
                        Key::Id => envelope.id = Some(map.next_value()?),
                        Key::Method => envelope.method = Some(map.next_value()?),
                        Key::Params => envelope.params = Some(map.next_value()?),
                        Key::ResultOrError => {
                            map.next_value::<IgnoredAny>()?;
                            envelope.has_result_or_error = true;
                        }
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(envelope)
            }
        }
        deserializer.deserialize_map(EnvelopeVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEPTH: usize = 64;

    fn refused(text: &str) -> Refused {
        inspect(text.as_bytes(), DEPTH).unwrap_err()
    }

    #[test]
    fn a_request_a_notification_and_a_response_pass() {
        let request = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#;
        assert_eq!(
            inspect(request.as_bytes(), DEPTH).unwrap().kind,
            Kind::Request
        );
        let notification = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
        assert_eq!(
            inspect(notification.as_bytes(), DEPTH).unwrap().kind,
            Kind::Notification
        );
        let response = r#"{"jsonrpc":"2.0","id":"s-1","result":{}}"#;
        assert_eq!(
            inspect(response.as_bytes(), DEPTH).unwrap().kind,
            Kind::Response
        );
    }

    #[test]
    fn text_that_is_not_json_is_a_parse_error_with_a_null_id() {
        let refusal = refused("{\"jsonrpc\": ");
        assert_eq!(refusal.code, PARSE_ERROR);
        assert_eq!(refusal.id, Value::Null);
        assert!(
            refusal
                .message
                .starts_with("Parse error: the message is not JSON")
        );
    }

    #[test]
    fn json_that_is_not_json_rpc_is_an_invalid_request_carrying_the_id() {
        let refusal = refused(r#"{"jsonrpc":"1.0","id":7,"method":"ping"}"#);
        assert_eq!(refusal.code, INVALID_REQUEST);
        assert_eq!(refusal.id, json!(7));
        assert!(refusal.message.contains("`jsonrpc` must be \"2.0\""));
        for text in ["[]", "42", "\"ping\"", r#"{"jsonrpc":"2.0","id":3}"#] {
            assert_eq!(refused(text).code, INVALID_REQUEST, "{text}");
        }
        assert_eq!(
            refused(r#"{"jsonrpc":"2.0","id":"a","method":"x","params":[1]}"#).id,
            json!("a")
        );
    }

    #[test]
    fn a_request_with_a_null_or_fractional_id_is_refused() {
        for text in [
            r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#,
        ] {
            let refusal = refused(text);
            assert_eq!(refusal.code, INVALID_REQUEST);
            assert_eq!(refusal.id, Value::Null);
        }
    }

    #[test]
    fn a_null_or_non_object_input_responses_is_invalid_params() {
        for responses in ["null", "5", "[]"] {
            let refusal = refused(&format!(
                r#"{{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{{"name":"t","inputResponses":{responses}}}}}"#
            ));
            assert_eq!((refusal.code, &refusal.id), (INVALID_PARAMS, &json!(4)));
        }
        let refusal = refused(
            r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"requestState":7}}"#,
        );
        assert_eq!(refusal.code, INVALID_PARAMS);
        let fine = r#"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"inputResponses":{},"requestState":"s"}}"#;
        assert!(inspect(fine.as_bytes(), DEPTH).is_ok());
    }

    #[test]
    fn a_refused_notification_is_not_answered() {
        let refusal = refused(r#"{"jsonrpc":"2.0","method":"notifications/x","params":3}"#);
        assert!(!refusal.answer);
    }

    #[test]
    fn json_nested_deeper_than_the_limit_is_refused_with_the_id_when_readable() {
        let nested = format!("{}{}", "[".repeat(100), "]".repeat(100));
        let text = format!(
            r#"{{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{{"arguments":{{"x":{nested}}}}}}}"#
        );
        let refusal = refused(&text);
        assert_eq!(refusal.code, INVALID_REQUEST);
        assert_eq!(refusal.id, json!(9));
        assert!(
            refusal
                .message
                .contains("deeper than this server's limit of 64 levels")
        );
        let very = format!(
            r#"{{"jsonrpc":"2.0","id":9,"method":"m","params":{{"x":{}{}}}}}"#,
            "[".repeat(5000),
            "]".repeat(5000)
        );
        assert_eq!(refused(&very).code, INVALID_REQUEST);
    }

    #[test]
    fn brackets_inside_strings_do_not_count_as_nesting() {
        assert_eq!(nesting_depth(br#"{"a":"[[[{{{\"]]]"}"#), 1);
        assert_eq!(nesting_depth(br#"[[1],[2,[3]]]"#), 3);
        let quoted = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"m","params":{{"q":"{}"}}}}"#,
            "[{".repeat(100)
        );
        assert!(inspect(quoted.as_bytes(), DEPTH).is_ok());
    }

    #[test]
    fn a_message_with_more_brackets_than_the_limit_is_refused_only_when_they_nest() {
        let side_by_side = format!("[{}]", vec!["[]"; 100].join(","));
        assert!(!nests_deeper_than(side_by_side.as_bytes(), 3));
        assert!(nests_deeper_than(b"[[[[]]]]", 3));
        assert!(!nests_deeper_than(b"[[[]]]", 3));
    }

    #[test]
    fn an_error_response_is_one_line_of_json_rpc() {
        let line = too_large(10).response();
        let value: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(value["error"]["code"], json!(INVALID_REQUEST));
        assert_eq!(value["id"], Value::Null);
        assert!(!line.contains('\n'));
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use proptest::prelude::*;

    /// Any JSON value, nested a few levels.
    fn json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<f64>().prop_map(Value::from),
            "[ -~]{0,16}".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 32, 6, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                proptest::collection::btree_map("[a-z]{1,8}", inner, 0..6)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    /// A JSON-RPC-shaped message whose fields take any value.
    fn envelope() -> impl Strategy<Value = Value> {
        (
            prop_oneof![Just(json!("2.0")), json()],
            prop::option::of(json()),
            prop::option::of(prop_oneof![
                Just(json!("tools/call")),
                Just(json!("tools/list")),
                json()
            ]),
            prop::option::of(json()),
        )
            .prop_map(|(version, id, method, params)| {
                let mut message = serde_json::Map::new();
                message.insert("jsonrpc".into(), version);
                if let Some(id) = id {
                    message.insert("id".into(), id);
                }
                if let Some(method) = method {
                    message.insert("method".into(), method);
                }
                if let Some(params) = params {
                    message.insert("params".into(), params);
                }
                Value::Object(message)
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn arbitrary_bytes_pass_or_are_refused_with_a_json_rpc_error(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
            if let Err(refused) = inspect(&bytes, 64) {
                let answer: Value = serde_json::from_str(&refused.response()).unwrap();
                prop_assert_eq!(&answer["jsonrpc"], "2.0");
                prop_assert!(answer["error"]["code"].is_i64());
            }
        }

        #[test]
        fn arbitrary_envelopes_pass_or_are_refused_carrying_only_a_valid_id(message in envelope()) {
            let bytes = serde_json::to_vec(&message).unwrap();
            match inspect(&bytes, 64) {
                Ok(_) => prop_assert_eq!(&message["jsonrpc"], "2.0"),
                Err(refused) => {
                    let answer: Value = serde_json::from_str(&refused.response()).unwrap();
                    let id = &answer["id"];
                    prop_assert!(id.is_null() || id.is_string() || id.is_i64() || id.is_u64());
                }
            }
        }
    }
}
