//! Identity from a token: the HTTP transport as an OAuth 2.1 resource
//! server, as the MCP authorization specification describes.
//!
//! Over HTTP anyone who can reach the port can call, so a permission means
//! nothing until a request says who sent it. With [`Auth`] configured,
//! every request carries a bearer JWT from the operator's authorization
//! server: the token's signature, issuer, audience and lifetime are checked
//! (`token`) against the issuer's public keys (`keys`), and its `scope`
//! claim becomes the caller's permissions. A request without a valid token
//! is answered `401` with a `WWW-Authenticate` challenge that points at the
//! Protected Resource Metadata (RFC 9728) this module also writes, so a
//! client can find where to get a token; a call that needs a permission the
//! token lacks is answered `403` naming the scope, so a client can step up.
//! Tokens are never logged.

mod keys;
mod token;

use crate::call::identity::{Identity, Permissions};
use crate::registry::policy::Caller;
use http::{HeaderValue, Uri};
use keys::KeyFile;
use std::fmt;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// The default tolerance for clocks that disagree, on `exp` and `nbf`.
pub(crate) const DEFAULT_LEEWAY: Duration = Duration::from_secs(30);

/// The well-known path of Protected Resource Metadata (RFC 9728 §3).
const METADATA_PATH: &str = "/.well-known/oauth-protected-resource";

/// How the HTTP transport authenticates requests: the issuer trusted, this
/// server's canonical URI (the audience tokens must name), and the file of
/// the issuer's public keys (a JWKS), read again whenever it changes.
#[derive(Clone)]
pub struct Auth {
    issuer: String,
    audience: String,
    audience_uri: Uri,
    keys: Arc<KeyFile>,
    leeway: Duration,
    metadata_url: String,
}

impl fmt::Debug for Auth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Auth")
            .field("issuer", &self.issuer)
            .field("audience", &self.audience)
            .field("leeway", &self.leeway)
            .finish_non_exhaustive()
    }
}

/// Why authentication could not be configured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuthError(String);

impl fmt::Display for AuthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for AuthError {}

/// Why a request was not authenticated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Rejection {
    /// It carried no bearer token.
    Missing,
    /// It carried one that is not valid; the reason is short and never
    /// quotes the token.
    Invalid(String),
}

impl Auth {
    /// Trusts tokens from `issuer` (the authorization server's URL, as its
    /// tokens' `iss` claim names it) for `audience` (this server's canonical
    /// URI, such as `https://notes.example.com/mcp`, as the tokens' `aud`
    /// claim names it), signed with the keys in the JWKS file `jwks`.
    pub fn new(
        issuer: impl Into<String>,
        audience: impl Into<String>,
        jwks: impl AsRef<Path>,
    ) -> Result<Auth, AuthError> {
        let issuer = issuer.into();
        let audience = audience.into();
        web_url(&issuer, "issuer")?;
        let audience_uri = web_url(&audience, "audience")?;
        let keys = KeyFile::open(jwks.as_ref()).map_err(|e| AuthError(e.0))?;
        let path = match audience_uri.path() {
            "/" => "",
            path => path,
        };
        let metadata_url = format!(
            "{}://{}{METADATA_PATH}{path}",
            audience_uri.scheme_str().unwrap_or("https"),
            audience_uri.authority().map_or("", |a| a.as_str()),
        );
        Ok(Auth {
            issuer,
            audience,
            audience_uri,
            keys: Arc::new(keys),
            leeway: DEFAULT_LEEWAY,
            metadata_url,
        })
    }

    /// How far `exp` and `nbf` may be off (default 30 seconds).
    pub fn leeway(mut self, leeway: Duration) -> Auth {
        self.leeway = leeway;
        self
    }

    /// The issuer trusted.
    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    /// The audience tokens must name: this server's canonical URI.
    pub fn audience(&self) -> &str {
        &self.audience
    }

    /// Where this server's Protected Resource Metadata is served.
    pub fn metadata_url(&self) -> &str {
        &self.metadata_url
    }

    /// The audience's host and port, which requests may name in `Host`.
    pub(crate) fn audience_authority(&self) -> Option<&str> {
        self.audience_uri.authority().map(|a| a.as_str())
    }

    /// The audience's origin, which a browser client would send.
    pub(crate) fn audience_origin(&self) -> Option<String> {
        let authority = self.audience_uri.authority()?;
        Some(format!("{}://{authority}", self.audience_uri.scheme_str()?))
    }

    /// The paths the metadata is served at: the one the challenge names,
    /// and the root form clients try first when they have no challenge.
    pub(crate) fn metadata_paths(&self) -> [String; 2] {
        let path = match self.audience_uri.path() {
            "/" => "",
            path => path,
        };
        [format!("{METADATA_PATH}{path}"), METADATA_PATH.to_owned()]
    }

    /// The caller a request's `Authorization` headers establish.
    pub(crate) fn authenticate<'h>(
        &self,
        mut authorization: impl Iterator<Item = &'h HeaderValue>,
    ) -> Result<Caller, Rejection> {
        let Some(header) = authorization.next() else {
            return Err(Rejection::Missing);
        };
        if authorization.next().is_some() {
            return Err(Rejection::Invalid(
                "the request carries more than one Authorization header".into(),
            ));
        }
        let token = header
            .to_str()
            .ok()
            .and_then(|value| {
                let (scheme, token) = value.split_once(' ')?;
                scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
            })
            .filter(|token| !token.is_empty())
            .ok_or_else(|| {
                Rejection::Invalid("the Authorization header is not `Bearer <token>`".into())
            })?;
        let expected = token::Expected {
            issuer: &self.issuer,
            audience: &self.audience,
            leeway_secs: self.leeway.as_secs(),
        };
        let claims = token::validate(token, &self.keys, &expected).map_err(Rejection::Invalid)?;
        let permissions: Permissions = claims
            .scope
            .as_deref()
            .unwrap_or_default()
            .split_ascii_whitespace()
            .collect();
        Ok(Caller::from_identity(Identity {
            subject: claims.sub,
            permissions,
        }))
    }

    /// The `WWW-Authenticate` header of a `401`.
    pub(crate) fn challenge(&self, rejection: &Rejection) -> HeaderValue {
        let value = match rejection {
            Rejection::Missing => format!(
                "Bearer resource_metadata=\"{}\"",
                quoted(&self.metadata_url)
            ),
            Rejection::Invalid(why) => format!(
                "Bearer error=\"invalid_token\", error_description=\"{}\", resource_metadata=\"{}\"",
                quoted(why),
                quoted(&self.metadata_url)
            ),
        };
        header_value(value)
    }

    /// The `WWW-Authenticate` header of a `403` for a call that needs
    /// `permission`.
    pub(crate) fn insufficient_scope(&self, permission: &str) -> HeaderValue {
        header_value(format!(
            "Bearer error=\"insufficient_scope\", scope=\"{}\", resource_metadata=\"{}\"",
            quoted(permission),
            quoted(&self.metadata_url)
        ))
    }

    /// The Protected Resource Metadata document (RFC 9728 §2), naming the
    /// permissions the tools declare as the scopes supported.
    pub(crate) fn metadata(&self, scopes: impl IntoIterator<Item = String>) -> String {
        let scopes: Vec<String> = scopes.into_iter().collect();
        serde_json::json!({
            "resource": self.audience,
            "authorization_servers": [self.issuer],
            "scopes_supported": scopes,
            "bearer_methods_supported": ["header"],
        })
        .to_string()
    }
}

/// `value` parsed as an absolute `http` or `https` URL.
fn web_url(value: &str, what: &str) -> Result<Uri, AuthError> {
    let refuse = |why: &str| {
        AuthError(format!(
            "the {what} `{value}` {why}; give an absolute https URL, such as https://auth.example.com"
        ))
    };
    let uri: Uri = value.parse().map_err(|_| refuse("is not a URL"))?;
    match uri.scheme_str() {
        Some("https" | "http") => {}
        _ => return Err(refuse("is not an http or https URL")),
    }
    if uri.authority().is_none() {
        return Err(refuse("has no host"));
    }
    Ok(uri)
}

/// Text inside a quoted-string of a header: no quotes, backslashes or
/// control characters (RFC 6750 §3 allows none of them in its values).
fn quoted(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '"' | '\\' => '\'',
            c if c.is_ascii_graphic() || c == ' ' => c,
            _ => '?',
        })
        .collect()
}

fn header_value(value: String) -> HeaderValue {
    HeaderValue::try_from(value).unwrap_or_else(|_| HeaderValue::from_static("Bearer"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use proptest::prelude::*;
    use std::sync::OnceLock;

    const AUDIENCE: &str = "https://notes.example.test/mcp";

    /// One key pair and an `Auth` that trusts it, made once for every case.
    fn fixture() -> &'static (Auth, String) {
        static FIXTURE: OnceLock<(Auth, String)> = OnceLock::new();
        FIXTURE.get_or_init(|| {
            use p256::pkcs8::EncodePrivateKey;
            let signing = <p256::ecdsa::SigningKey as rsa::Generate>::generate();
            let point = signing.verifying_key().to_sec1_point(false);
            let jwks = serde_json::json!({"keys": [{
                "kty": "EC", "crv": "P-256", "kid": "k",
                "x": URL_SAFE_NO_PAD.encode(point.x().unwrap()),
                "y": URL_SAFE_NO_PAD.encode(point.y().unwrap()),
            }]});
            let path = std::env::temp_dir().join(format!("tooltable-auth-unit-{}.json", std::process::id()));
            std::fs::write(&path, jwks.to_string()).unwrap();
            let auth = Auth::new("https://auth.example.test", AUDIENCE, &path).unwrap();
            let mut header = jsonwebtoken::Header::new(jsonwebtoken::Algorithm::ES256);
            header.kid = Some("k".into());
            let key = jsonwebtoken::EncodingKey::from_ec_der(signing.to_pkcs8_der().unwrap().as_bytes());
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_secs();
            let claims = serde_json::json!({"iss": "https://auth.example.test", "aud": AUDIENCE, "exp": now + 3600, "scope": "a b"});
            let token = jsonwebtoken::encode(&header, &claims, &key).unwrap();
            (auth, token)
        })
    }

    fn check(value: &str) -> Result<Caller, Rejection> {
        let header = HeaderValue::from_str(value).map_err(|_| Rejection::Missing)?;
        fixture().0.authenticate(std::iter::once(&header))
    }

    #[test]
    fn the_valid_token_is_accepted_with_its_scopes() {
        let caller = check(&format!("Bearer {}", fixture().1)).unwrap();
        assert!(caller.permissions().grants("a") && caller.permissions().grants("b"));
        assert!(!caller.permissions().grants("c"));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn arbitrary_authorization_headers_are_refused_and_never_panic(value in "(Bearer |bearer |Basic )?[ -~]{0,300}") {
            prop_assert!(check(&value).is_err());
        }

        #[test]
        fn arbitrary_three_part_tokens_are_refused(header in "[A-Za-z0-9_-]{0,80}", payload in "[A-Za-z0-9_-]{0,200}", signature in "[A-Za-z0-9_-]{0,120}") {
            let token = format!("Bearer {header}.{payload}.{signature}");
            prop_assert!(check(&token).is_err());
        }

        #[test]
        fn any_json_header_and_claims_without_the_key_are_refused(header in proptest::collection::btree_map("[a-z]{1,4}", "[ -~]{0,12}", 0..5), claims in proptest::collection::btree_map("[a-z]{1,4}", "[ -~]{0,12}", 0..6)) {
            let encode = |map: &std::collections::BTreeMap<String, String>| URL_SAFE_NO_PAD.encode(serde_json::to_vec(map).unwrap());
            let token = format!("Bearer {}.{}.c2ln", encode(&header), encode(&claims));
            prop_assert!(check(&token).is_err());
        }

        #[test]
        fn the_valid_token_with_one_character_changed_is_refused(position in any::<prop::sample::Index>(), replacement in "[A-Za-z0-9_-]") {
            let token = &fixture().1;
            let bytes = token.as_bytes();
            // The last character of a part may carry spare bits that decode
            // to the same bytes; change any other.
            let changeable: Vec<usize> = (0..bytes.len())
                .filter(|&i| bytes[i] != b'.' && bytes.get(i + 1).is_some_and(|&n| n != b'.'))
                .collect();
            let at = changeable[position.index(changeable.len())];
            prop_assume!(bytes[at] != replacement.as_bytes()[0]);
            let mut changed = token.clone();
            changed.replace_range(at..=at, &replacement);
            let token = format!("Bearer {changed}");
            prop_assert!(check(&token).is_err());
        }
    }
}
