//! The issuer's public keys, read from a JWKS file and read again when it
//! changes.
//!
//! Keys rotate: the issuer publishes a new one before it signs with it, and
//! the operator (or a sidecar) rewrites the file. The server notices without
//! a restart: at most once a second, and at once when a token names a key it
//! does not hold, it reads the file again, and a file that changed and
//! parses replaces the keys. A file that no longer parses keeps the keys
//! that worked and is reported in the log, so a half-written file never
//! locks everyone out. Only public keys of asymmetric algorithms are kept:
//! a shared secret (`kty: "oct"`) in the file would let anyone who can read
//! it mint tokens, and an HMAC-signed token verified with a public key is
//! the classic confusion attack.

use jsonwebtoken::jwk::{AlgorithmParameters, Jwk, JwkSet};
use jsonwebtoken::{Algorithm, DecodingKey};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How often the file is looked at, at most, when nothing forces it.
const RECHECK: Duration = Duration::from_secs(1);

/// The largest key file read, in bytes: a key set is a few kilobytes.
const MAX_FILE_BYTES: u64 = 1024 * 1024;

/// One usable key.
pub(crate) struct Key {
    /// The key's `kid`, if it has one.
    pub id: Option<String>,
    /// The algorithm the key is restricted to, if the file says.
    pub algorithm: Option<Algorithm>,
    /// Whether it is an RSA, an elliptic-curve or an Edwards key.
    pub kind: Kind,
    pub key: DecodingKey,
}

/// The kind of a public key, which decides the algorithms it verifies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Rsa,
    Ec,
    Ed,
}

impl Kind {
    /// Whether a key of this kind verifies `algorithm`.
    pub(crate) fn verifies(self, algorithm: Algorithm) -> bool {
        matches!(
            (self, algorithm),
            (
                Kind::Rsa,
                Algorithm::RS256
                    | Algorithm::RS384
                    | Algorithm::RS512
                    | Algorithm::PS256
                    | Algorithm::PS384
                    | Algorithm::PS512
            ) | (Kind::Ec, Algorithm::ES256 | Algorithm::ES384)
                | (Kind::Ed, Algorithm::EdDSA)
        )
    }
}

/// Why a key file could not be used.
#[derive(Debug)]
pub(crate) struct KeyFileError(pub String);

struct Loaded {
    keys: Arc<Vec<Key>>,
    /// The file's bytes when the keys were read, to see whether it changed.
    bytes: Vec<u8>,
    checked: Instant,
}

/// The key file and the keys last read from it.
pub(crate) struct KeyFile {
    path: PathBuf,
    loaded: Mutex<Loaded>,
}

impl KeyFile {
    /// Reads the file; a server does not start on a key file it cannot use.
    pub(crate) fn open(path: &Path) -> Result<KeyFile, KeyFileError> {
        let bytes = read(path)?;
        let keys = parse(&bytes)
            .map_err(|why| KeyFileError(format!("the key file {} {why}", path.display())))?;
        Ok(KeyFile {
            path: path.to_owned(),
            loaded: Mutex::new(Loaded {
                keys: Arc::new(keys),
                bytes,
                checked: Instant::now(),
            }),
        })
    }

    /// The keys, read again first if the file is due a look (or `force`).
    pub(crate) fn keys(&self, force: bool) -> Arc<Vec<Key>> {
        let mut loaded = self.loaded.lock().unwrap_or_else(|p| p.into_inner());
        if force || loaded.checked.elapsed() >= RECHECK {
            loaded.checked = Instant::now();
            self.reload(&mut loaded);
        }
        loaded.keys.clone()
    }

    fn reload(&self, loaded: &mut Loaded) {
        let bytes = match read(&self.path) {
            Ok(bytes) => bytes,
            Err(error) => {
                tracing::error!(error = %error.0, "cannot read the key file again; keeping the keys read before");
                return;
            }
        };
        if bytes == loaded.bytes {
            return;
        }
        match parse(&bytes) {
            Ok(keys) => {
                tracing::info!(path = %self.path.display(), keys = keys.len(), "the key file changed; using its keys");
                loaded.keys = Arc::new(keys);
                loaded.bytes = bytes;
            }
            Err(why) => {
                tracing::error!(path = %self.path.display(), %why, "the key file changed but cannot be used; keeping the keys read before");
                // Remember the bad bytes, so the same error is not logged every second.
                loaded.bytes = bytes;
            }
        }
    }
}

fn read(path: &Path) -> Result<Vec<u8>, KeyFileError> {
    let size = std::fs::metadata(path)
        .map_err(|e| KeyFileError(format!("cannot read the key file {}: {e}", path.display())))?
        .len();
    if size > MAX_FILE_BYTES {
        return Err(KeyFileError(format!(
            "the key file {} is {size} bytes, more than a key set needs ({MAX_FILE_BYTES} at most)",
            path.display()
        )));
    }
    std::fs::read(path)
        .map_err(|e| KeyFileError(format!("cannot read the key file {}: {e}", path.display())))
}

/// The usable keys of a JWKS document, or why there are none.
fn parse(bytes: &[u8]) -> Result<Vec<Key>, String> {
    let set: JwkSet = serde_json::from_slice(bytes).map_err(|e| {
        format!("is not a JWK set (a JSON object with a `keys` array, RFC 7517): {e}")
    })?;
    let mut keys = Vec::new();
    for jwk in &set.keys {
        match key(jwk) {
            Ok(key) => keys.push(key),
            Err(why) => {
                tracing::warn!(kid = ?jwk.common.key_id, %why, "a key of the key file is not used")
            }
        }
    }
    if keys.is_empty() {
        return Err(
            "holds no usable public key (RSA, EC P-256/P-384 or Ed25519, as `n`/`e` or `x`/`y` components)"
                .to_owned(),
        );
    }
    Ok(keys)
}

fn key(jwk: &Jwk) -> Result<Key, String> {
    let kind = match &jwk.algorithm {
        AlgorithmParameters::RSA(_) => Kind::Rsa,
        AlgorithmParameters::EllipticCurve(_) => Kind::Ec,
        AlgorithmParameters::OctetKeyPair(_) => Kind::Ed,
        AlgorithmParameters::OctetKey(_) => {
            return Err(
                "it is a shared secret (`kty: oct`); only public keys verify tokens here".into(),
            );
        }
        _ => return Err("its key type is not supported".into()),
    };
    let algorithm = match jwk.common.key_algorithm {
        None => None,
        Some(declared) => {
            let algorithm = Algorithm::try_from(declared)
                .map_err(|_| format!("its `alg` ({declared:?}) is not a signing algorithm"))?;
            if !kind.verifies(algorithm) {
                return Err(format!(
                    "its `alg` ({algorithm:?}) does not fit its key type"
                ));
            }
            Some(algorithm)
        }
    };
    let key = DecodingKey::from_jwk(jwk).map_err(|e| format!("it cannot be read: {e}"))?;
    Ok(Key {
        id: jwk.common.key_id.clone(),
        algorithm,
        kind,
        key,
    })
}
