//! Validating a bearer token: which key signed it, and whether its claims
//! let it in.
//!
//! The signature check and the claim checks are the `jsonwebtoken` crate's;
//! this module chooses what it is asked. Only asymmetric algorithms are
//! accepted (never `none`, never a shared secret), the key is the one the
//! token's `kid` names (or the only key that fits), `exp` and `nbf` are
//! checked with a small leeway, and `iss` and `aud` must equal the issuer
//! and the audience this server was configured with. Every refusal is a
//! short reason for the `WWW-Authenticate` header and the log; the token
//! itself is never quoted.

use crate::transport::auth::keys::{Key, KeyFile};
use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Algorithm, Validation};
use serde::Deserialize;

/// The longest token read, in bytes.
pub(crate) const MAX_TOKEN_BYTES: usize = 16 * 1024;

/// The algorithms a token may be signed with.
const ACCEPTED: [Algorithm; 9] = [
    Algorithm::RS256,
    Algorithm::RS384,
    Algorithm::RS512,
    Algorithm::PS256,
    Algorithm::PS384,
    Algorithm::PS512,
    Algorithm::ES256,
    Algorithm::ES384,
    Algorithm::EdDSA,
];

/// The claims read from a valid token (the checked ones are `jsonwebtoken`'s).
#[derive(Deserialize)]
pub(crate) struct Claims {
    pub sub: Option<String>,
    #[serde(default)]
    pub scope: Option<String>,
}

/// What a token is checked against.
pub(crate) struct Expected<'a> {
    pub issuer: &'a str,
    pub audience: &'a str,
    pub leeway_secs: u64,
}

/// Checks `token`, and returns its claims or why it was refused.
pub(crate) fn validate(
    token: &str,
    keys: &KeyFile,
    expected: &Expected<'_>,
) -> Result<Claims, String> {
    if token.len() > MAX_TOKEN_BYTES {
        return Err(format!("the token is longer than {MAX_TOKEN_BYTES} bytes"));
    }
    let header = jsonwebtoken::decode_header(token).map_err(|e| match e.kind() {
        ErrorKind::Json(_) | ErrorKind::InvalidAlgorithmName => {
            "the token's header names no algorithm this server accepts (an unsigned token, `alg: none`, is never accepted)".to_owned()
        }
        _ => "the token is not a JWT (three base64url parts separated by dots)".to_owned(),
    })?;
    if !ACCEPTED.contains(&header.alg) {
        return Err(format!(
            "the token is signed with {:?}; this server accepts only public-key signatures (RS256, ES256 and their kin)",
            header.alg
        ));
    }
    let held = keys.keys(false);
    let reloaded;
    let mut found = find(&held, header.kid.as_deref(), header.alg);
    if let Found::None = found {
        // An unknown key may be a new one the issuer just published.
        reloaded = keys.keys(true);
        found = find(&reloaded, header.kid.as_deref(), header.alg);
    }
    let key = match found {
        Found::Key(key) => key,
        other => return Err(other.reason(header.kid.as_deref(), header.alg)),
    };
    let mut validation = Validation::new(header.alg);
    validation.leeway = expected.leeway_secs;
    validation.validate_nbf = true;
    validation.set_issuer(&[expected.issuer]);
    validation.set_audience(&[expected.audience]);
    validation.set_required_spec_claims(&["exp", "iss", "aud"]);
    jsonwebtoken::decode::<Claims>(token, &key.key, &validation)
        .map(|data| data.claims)
        .map_err(|e| match e.kind() {
            ErrorKind::ExpiredSignature => "the token expired".to_owned(),
            ErrorKind::ImmatureSignature => {
                "the token is not valid yet (its `nbf` is in the future)".to_owned()
            }
            ErrorKind::InvalidIssuer => format!("the token was not issued by {}", expected.issuer),
            ErrorKind::InvalidAudience => {
                format!("the token is not for this resource ({})", expected.audience)
            }
            ErrorKind::InvalidSignature => {
                "the token's signature does not verify with the key it names".to_owned()
            }
            ErrorKind::MissingRequiredClaim(claim) => format!("the token has no `{claim}` claim"),
            ErrorKind::InvalidClaimFormat(claim) => {
                format!("the token's `{claim}` claim has the wrong type")
            }
            ErrorKind::InvalidAlgorithm => {
                "the token's algorithm does not fit the key it names".to_owned()
            }
            _ => "the token cannot be read".to_owned(),
        })
}

enum Found<'k> {
    Key(&'k Key),
    None,
    Ambiguous,
    Misfit,
}

impl Found<'_> {
    fn reason(&self, kid: Option<&str>, algorithm: Algorithm) -> String {
        match (self, kid) {
            (Found::None, Some(kid)) => {
                format!("the token is signed with the key `{kid}`, which is not in the server's key set")
            }
            (Found::None, None) => format!("no key of the server's key set verifies {algorithm:?}"),
            (Found::Ambiguous, _) => {
                "the token names no key (`kid`) and the server's key set holds several that could verify it".to_owned()
            }
            (Found::Misfit, _) => format!("the key the token names does not verify {algorithm:?}"),
            (Found::Key(_), _) => String::new(),
        }
    }
}

fn find<'k>(keys: &'k [Key], kid: Option<&str>, algorithm: Algorithm) -> Found<'k> {
    let fits =
        |key: &Key| key.kind.verifies(algorithm) && key.algorithm.is_none_or(|a| a == algorithm);
    match kid {
        Some(kid) => match keys.iter().find(|key| key.id.as_deref() == Some(kid)) {
            Some(key) if fits(key) => Found::Key(key),
            Some(_) => Found::Misfit,
            None => Found::None,
        },
        None => {
            let mut fitting = keys.iter().filter(|key| fits(key));
            match (fitting.next(), fitting.next()) {
                (Some(key), None) => Found::Key(key),
                (Some(_), Some(_)) => Found::Ambiguous,
                (None, _) => Found::None,
            }
        }
    }
}
