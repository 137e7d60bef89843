//! Identity from a token, tried from outside as a client or an attacker
//! would: every request over HTTP carries a bearer JWT minted here with keys
//! generated here, and every bad token, foreign origin and exposed address
//! gets the refusal the MCP authorization specification names.

use crate::client;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use client::{Answer, exchange};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use rsa::traits::PublicKeyParts;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};
use tooltable_fixture::{Shelf, TOOLS};
use tooltable_runtime::Registry;
use tooltable_runtime::Tier;
use tooltable_runtime::policy::Consent;
use tooltable_runtime::serve::{Auth, AuthError};
use tooltable_runtime::serve::{ServeError, Server};

const ISSUER: &str = "https://auth.example.test";

/// A signing key and its public half as a JWK.
struct Signer {
    kid: &'static str,
    algorithm: Algorithm,
    key: EncodingKey,
    jwk: Value,
}

fn rsa_signer(kid: &'static str) -> Signer {
    let private = <rsa::PrivateKey as rsa::Generate>::generate();
    let der = rsa::pkcs1::EncodeRsaPrivateKey::to_pkcs1_der(&private).expect("PKCS#1 DER");
    let public = private.to_public_key();
    Signer {
        kid,
        algorithm: Algorithm::RS256,
        key: EncodingKey::from_rsa_der(der.as_bytes()),
        jwk: json!({
            "kty": "RSA",
            "kid": kid,
            "alg": "RS256",
            "use": "sig",
            "n": URL_SAFE_NO_PAD.encode(public.n().to_be_bytes()),
            "e": URL_SAFE_NO_PAD.encode(public.e().to_be_bytes()),
        }),
    }
}

fn ec_signer(kid: &'static str) -> Signer {
    let signing = <p256::ecdsa::SigningKey as rsa::Generate>::generate();
    let der = p256::pkcs8::EncodePrivateKey::to_pkcs8_der(&signing).expect("PKCS#8 DER");
    let point = signing.verifying_key().to_sec1_point(false);
    Signer {
        kid,
        algorithm: Algorithm::ES256,
        key: EncodingKey::from_ec_der(der.as_bytes()),
        jwk: json!({
            "kty": "EC",
            "kid": kid,
            "crv": "P-256",
            "x": URL_SAFE_NO_PAD.encode(point.x().unwrap()),
            "y": URL_SAFE_NO_PAD.encode(point.y().unwrap()),
        }),
    }
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

impl Signer {
    fn sign(&self, claims: &Value) -> String {
        let mut header = Header::new(self.algorithm);
        header.kid = Some(self.kid.to_owned());
        jsonwebtoken::encode(&header, claims, &self.key).expect("a signed token")
    }
}

/// The claims of a valid token for `audience` granting `scope`.
fn claims(audience: &str, scope: &str) -> Value {
    json!({
        "iss": ISSUER,
        "aud": audience,
        "sub": "alice",
        "scope": scope,
        "exp": now() + 600,
        "nbf": now() - 10,
        "iat": now(),
    })
}

fn write_keys(path: &Path, signers: &[&Signer]) {
    let keys: Vec<Value> = signers.iter().map(|s| s.jwk.clone()).collect();
    std::fs::write(path, json!({"keys": keys}).to_string()).unwrap();
}

/// A directory removed when the test ends.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let path =
            std::env::temp_dir().join(format!("tooltable-auth-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&path).unwrap();
        TempDir(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// An HTTP server of every fixture tool that authenticates with `jwks`.
struct Served {
    address: std::net::SocketAddr,
    audience: String,
    shelf: std::sync::Arc<Shelf>,
    _stop: tokio::sync::oneshot::Sender<()>,
}

async fn serve(jwks: &Path) -> Served {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let audience = format!("http://{address}/mcp");
    let registry = Registry::builder(&TOOLS)
        .max_tier(Tier::Destructive)
        .consent(Consent::person_or_argument())
        .build();
    let shelf = std::sync::Arc::new(Shelf::new());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = Server::new(registry, shelf.clone())
        .handle_signals(false)
        .auth(Auth::new(ISSUER, &audience, jwks).expect("auth settings"))
        .shutdown_on(async move {
            let _ = stopped.await;
        });
    tokio::spawn(server.http_on(listener));
    Served {
        address,
        audience,
        shelf,
        _stop: stop,
    }
}

/// A 2026-07-28 request, with the headers and `_meta` that revision needs.
async fn rpc(
    served: &Served,
    token: Option<&str>,
    method: &str,
    params: Value,
    extra: &[(&str, &str)],
) -> Answer {
    let mut params = params;
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "auth-tests", "version": "0"},
    });
    let name = params["name"].as_str().map(str::to_owned);
    let body = json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": params}).to_string();
    let bearer = token.map(|t| format!("Bearer {t}"));
    let mut headers = vec![
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", method),
    ];
    if let Some(name) = &name {
        headers.push(("Mcp-Name", name));
    }
    if let Some(bearer) = &bearer {
        headers.push(("Authorization", bearer));
    }
    headers.extend_from_slice(extra);
    exchange(served.address, "POST", "/mcp", &headers, &body).await
}

fn metadata_url(served: &Served) -> String {
    format!(
        "http://{}/.well-known/oauth-protected-resource/mcp",
        served.address
    )
}

#[tokio::test]
async fn a_request_without_a_token_gets_401_with_a_challenge_naming_the_metadata() {
    let dir = TempDir::new("missing");
    let rsa = rsa_signer("rsa-1");
    write_keys(&dir.0.join("jwks.json"), &[&rsa]);
    let served = serve(&dir.0.join("jwks.json")).await;
    let answer = rpc(&served, None, "tools/list", json!({}), &[]).await;
    assert_eq!(answer.status, 401);
    assert_eq!(
        answer.header("www-authenticate"),
        Some(format!("Bearer resource_metadata=\"{}\"", metadata_url(&served)).as_str())
    );
    let metadata = exchange(
        served.address,
        "GET",
        "/.well-known/oauth-protected-resource/mcp",
        &[],
        "",
    )
    .await;
    assert_eq!(metadata.status, 200);
    assert_eq!(
        metadata.json(),
        json!({
            "resource": served.audience,
            "authorization_servers": [ISSUER],
            "scopes_supported": ["items.delete", "items.write"],
            "bearer_methods_supported": ["header"],
        })
    );
    let root = exchange(
        served.address,
        "GET",
        "/.well-known/oauth-protected-resource",
        &[],
        "",
    )
    .await;
    assert_eq!(
        root.json(),
        metadata.json(),
        "the root form names the same resource"
    );
}

#[tokio::test]
async fn every_bad_token_is_401_invalid_token_naming_why_and_runs_nothing() {
    let dir = TempDir::new("bad");
    let rsa = rsa_signer("rsa-1");
    let ec = ec_signer("ec-1");
    let stranger = rsa_signer("rsa-1");
    write_keys(&dir.0.join("jwks.json"), &[&rsa, &ec]);
    let served = serve(&dir.0.join("jwks.json")).await;
    let good = claims(&served.audience, "items.write");
    let with = |key: &str, value: Value| {
        let mut claims = good.clone();
        claims[key] = value;
        claims
    };
    let without = |key: &str| {
        let mut claims = good.clone();
        claims.as_object_mut().unwrap().remove(key);
        claims
    };
    let unsigned = format!(
        "{}.{}.",
        URL_SAFE_NO_PAD.encode(r#"{"alg":"none","typ":"JWT"}"#),
        URL_SAFE_NO_PAD.encode(good.to_string())
    );
    let hmac = {
        let mut header = Header::new(Algorithm::HS256);
        header.kid = Some("rsa-1".into());
        jsonwebtoken::encode(
            &header,
            &good,
            &EncodingKey::from_secret(b"guessable").unwrap(),
        )
        .unwrap()
    };
    let unknown_kid = {
        let mut header = Header::new(Algorithm::RS256);
        header.kid = Some("rsa-9".into());
        jsonwebtoken::encode(&header, &good, &rsa.key).unwrap()
    };
    let cases = [
        (unsigned, "alg: none"),
        (hmac, "accepts only public-key signatures"),
        (stranger.sign(&good), "signature does not verify"),
        (
            rsa.sign(&with("exp", json!(now() - 3600))),
            "the token expired",
        ),
        (rsa.sign(&with("nbf", json!(now() + 3600))), "not valid yet"),
        (
            ec.sign(&with("iss", json!("https://evil.example.test"))),
            "not issued by https://auth.example.test",
        ),
        (
            ec.sign(&with("aud", json!("https://other.example.test/mcp"))),
            "not for this resource",
        ),
        (rsa.sign(&without("exp")), "no `exp` claim"),
        ("not-a-jwt".to_owned(), "not a JWT"),
        (
            format!("{}.{}.{}", "e".repeat(9000), "e".repeat(9000), "e"),
            "longer than 16384 bytes",
        ),
        (
            unknown_kid,
            "the key `rsa-9`, which is not in the server's key set",
        ),
    ];
    for (token, why) in cases {
        let answer = rpc(
            &served,
            Some(&token),
            "tools/call",
            json!({"name": "items_create", "arguments": {"name": "lamp"}}),
            &[],
        )
        .await;
        assert_eq!(answer.status, 401, "{why}: {}", answer.body);
        let challenge = answer.header("www-authenticate").unwrap_or_default();
        assert!(
            challenge.starts_with("Bearer error=\"invalid_token\", error_description=\"")
                && challenge.contains(why)
                && challenge.ends_with(&format!("resource_metadata=\"{}\"", metadata_url(&served))),
            "{why}: {challenge}"
        );
        assert!(
            !answer.body.contains(&token[..token.len().min(40)]),
            "the token is never echoed"
        );
    }
    for header in ["Basic YWxpY2U6c2VjcmV0", "Bearer", "Bearer  "] {
        let answer = exchange(
            served.address,
            "POST",
            "/mcp",
            &[("Authorization", header)],
            "{}",
        )
        .await;
        assert_eq!(answer.status, 401, "{header}");
        assert!(
            answer
                .header("www-authenticate")
                .unwrap_or_default()
                .contains("invalid_token")
        );
    }
    assert_eq!(served.shelf.count(), 0, "no refused request ran a handler");
}

#[tokio::test]
async fn the_token_s_scopes_decide_what_is_listed_and_a_missing_one_is_403_naming_it() {
    let dir = TempDir::new("scopes");
    let rsa = rsa_signer("rsa-1");
    let ec = ec_signer("ec-1");
    write_keys(&dir.0.join("jwks.json"), &[&rsa, &ec]);
    let served = serve(&dir.0.join("jwks.json")).await;
    let writer = ec.sign(&claims(&served.audience, "items.write"));
    let listed = rpc(&served, Some(&writer), "tools/list", json!({}), &[]).await;
    assert_eq!(listed.status, 200, "{}", listed.body);
    let names: Vec<String> = listed.json()["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect();
    assert!(names.contains(&"items_create".to_owned()), "{names:?}");
    assert!(!names.contains(&"items_destroy".to_owned()), "{names:?}");

    let created = rpc(
        &served,
        Some(&writer),
        "tools/call",
        json!({"name": "items_create", "arguments": {"name": "lamp"}}),
        &[],
    )
    .await;
    assert_eq!(
        created.json()["result"]["isError"],
        false,
        "{}",
        created.body
    );
    assert_eq!(served.shelf.count(), 1);

    let destroy = json!({"name": "items_destroy", "arguments": {"id": 1, "confirm": true}});
    let refused = rpc(&served, Some(&writer), "tools/call", destroy.clone(), &[]).await;
    assert_eq!(refused.status, 403, "{}", refused.body);
    assert_eq!(
        refused.header("www-authenticate"),
        Some(format!("Bearer error=\"insufficient_scope\", scope=\"items.delete\", resource_metadata=\"{}\"", metadata_url(&served)).as_str())
    );
    assert_eq!(
        served.shelf.count(),
        1,
        "the refused call destroyed nothing"
    );

    let admin = rsa.sign(&claims(&served.audience, "items.write items.delete"));
    let destroyed = rpc(&served, Some(&admin), "tools/call", destroy, &[]).await;
    assert_eq!(
        destroyed.json()["result"]["isError"],
        false,
        "{}",
        destroyed.body
    );
    assert_eq!(served.shelf.count(), 0);
}

#[tokio::test]
async fn a_rotated_key_file_is_picked_up_without_a_restart_and_a_broken_one_keeps_the_old_keys() {
    let dir = TempDir::new("rotate");
    let jwks = dir.0.join("jwks.json");
    let old = ec_signer("ec-1");
    write_keys(&jwks, &[&old]);
    let served = serve(&jwks).await;
    let new = ec_signer("ec-2");
    let token = new.sign(&claims(&served.audience, ""));
    assert_eq!(
        rpc(&served, Some(&token), "tools/list", json!({}), &[])
            .await
            .status,
        401
    );
    write_keys(&jwks, &[&old, &new]);
    assert_eq!(
        rpc(&served, Some(&token), "tools/list", json!({}), &[])
            .await
            .status,
        200,
        "a token naming a key the server does not hold makes it read the file again"
    );
    std::fs::write(&jwks, "{half a file").unwrap();
    let still = old.sign(&claims(&served.audience, ""));
    assert_eq!(
        rpc(&served, Some(&still), "tools/list", json!({}), &[])
            .await
            .status,
        200
    );
}

#[tokio::test]
async fn a_foreign_origin_is_403_and_the_server_s_own_and_none_are_served() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let (_stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = Server::new(Registry::new(&TOOLS), Shelf::new())
        .handle_signals(false)
        .allowed_origin("https://app.example.test")
        .shutdown_on(async move {
            let _ = stopped.await;
        });
    tokio::spawn(server.http_on(listener));
    let served = Served {
        address,
        audience: String::new(),
        shelf: std::sync::Arc::default(),
        _stop,
    };
    let own = format!("http://localhost:{}", address.port());
    for (origin, status) in [
        (Some("https://evil.example.test"), 403),
        (Some("http://localhost:1"), 403),
        (Some(own.as_str()), 200),
        (Some("https://app.example.test"), 200),
        (None, 200),
    ] {
        let extra: Vec<(&str, &str)> = origin.map(|o| ("Origin", o)).into_iter().collect();
        let answer = rpc(&served, None, "tools/list", json!({}), &extra).await;
        assert_eq!(answer.status, status, "{origin:?}: {}", answer.body);
    }
}

#[tokio::test]
async fn serving_beyond_loopback_without_tokens_is_refused_unless_the_operator_says_so() {
    let listener = tokio::net::TcpListener::bind("0.0.0.0:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let refused = Server::new(Registry::new(&TOOLS), Shelf::new())
        .handle_signals(false)
        .http_on(listener)
        .await
        .unwrap_err();
    assert!(matches!(refused, ServeError::Unauthenticated { address: a } if a == address));
    assert!(refused.to_string().starts_with(&format!(
        "refusing to serve {address} without authentication"
    )));

    let listener = tokio::net::TcpListener::bind("0.0.0.0:0").await.unwrap();
    let served = Server::new(Registry::new(&TOOLS), Shelf::new())
        .handle_signals(false)
        .insecure_no_auth(true)
        .shutdown_on(std::future::ready(()))
        .http_on(listener)
        .await;
    assert!(served.is_ok(), "{served:?}");
}

#[test]
fn bad_auth_settings_are_refused_naming_the_setting() {
    let dir = TempDir::new("settings");
    let jwks = dir.0.join("jwks.json");
    write_keys(&jwks, &[&ec_signer("ec-1")]);
    let refusal = |result: Result<Auth, AuthError>| result.unwrap_err().to_string();
    assert_eq!(
        refusal(Auth::new(
            "auth.example.test",
            "https://notes.example.test/mcp",
            &jwks
        )),
        "the issuer `auth.example.test` is not an http or https URL; give an absolute https URL, such as https://auth.example.com"
    );
    assert!(refusal(Auth::new(ISSUER, "notes", &jwks)).starts_with("the audience `notes`"));
    assert!(
        refusal(Auth::new(
            ISSUER,
            "https://n.example.test/mcp",
            dir.0.join("absent.json")
        ))
        .starts_with("cannot read the key file")
    );
    std::fs::write(&jwks, r#"{"keys": [{"kty": "oct", "k": "c2VjcmV0"}]}"#).unwrap();
    assert!(refusal(Auth::new(ISSUER, "https://n.example.test/mcp", &jwks)).ends_with("holds no usable public key (RSA, EC P-256/P-384 or Ed25519, as `n`/`e` or `x`/`y` components)"));
    std::fs::write(&jwks, "[]").unwrap();
    assert!(
        refusal(Auth::new(ISSUER, "https://n.example.test/mcp", &jwks))
            .contains("is not a JWK set")
    );
}

#[tokio::test]
async fn the_mounted_metadata_names_the_scopes_of_tools_registered_after_it_was_made() {
    use http_body_util::BodyExt;
    use tooltable_runtime::provider::{BoxFuture, Outcome, Output};
    use tooltable_runtime::provider::{ProvidedTool, Provider};
    use tower_service::Service;
    struct Audit;
    impl Provider<Shelf> for Audit {
        fn name(&self) -> &str {
            "audit"
        }
        fn tools(&self) -> Vec<ProvidedTool<Shelf>> {
            let mut tool = ProvidedTool::new(
                "items_audit",
                Tier::Read,
                "Audits the items.",
                tooltable_runtime::provider::handler(
                    |_: &Shelf, _, _: &_| -> BoxFuture<'_, Outcome> {
                        Box::pin(async { Ok(Output::Text("ok".into())) })
                    },
                ),
            );
            tool.permission = Some("items.audit".to_owned());
            vec![tool]
        }
    }
    let dir = TempDir::new("mounted-metadata");
    let rsa = rsa_signer("rsa-1");
    write_keys(&dir.0.join("jwks.json"), &[&rsa]);
    let registry = Registry::builder(&TOOLS)
        .max_tier(Tier::Destructive)
        .build();
    let service = Server::new(registry.clone(), Shelf::new())
        .auth(
            Auth::new(
                ISSUER,
                "https://n.example.test/mcp",
                dir.0.join("jwks.json"),
            )
            .unwrap(),
        )
        .http_service()
        .unwrap();
    let mut metadata = service.metadata().expect("it authenticates");
    assert_eq!(metadata.path(), "/.well-known/oauth-protected-resource/mcp");
    registry.register(&Audit).unwrap();
    let request = http::Request::get(metadata.path().to_owned())
        .body(http_body_util::Empty::<bytes::Bytes>::new())
        .unwrap();
    let response = metadata.call(request).await.unwrap();
    assert_eq!(response.status(), 200);
    let body = response.into_body().collect().await.unwrap().to_bytes();
    let document: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(
        document["scopes_supported"],
        json!(["items.audit", "items.delete", "items.write"]),
        "{document}"
    );
}
