//! Enable flags shared by replicas through Redis.
//!
//! Replicas behind a load balancer must agree on which tools are switched
//! off, and each must tell its own clients when that changes. The flags
//! live in one Redis set per server (the names of the disabled tools);
//! every change is published on a channel, and every replica listens,
//! reads the set again and tells its registry, which tells its sessions.
//! Reads never touch the network: each replica answers from the set it last
//! read. When Redis goes away, replicas keep serving with that last-known
//! set (a disabled tool stays disabled), log the outage once, and reconnect
//! with backoff; on reconnecting they read the set again, so a change made
//! meanwhile is not missed. A burst of changes costs one read of the set
//! per burst, not one per change.

use crate::registry::flags::{FlagError, FlagStore, OnChange};
use futures_util::{FutureExt, StreamExt};
use redis::AsyncCommands;
use std::collections::BTreeSet;
use std::sync::{Arc, Mutex, OnceLock, RwLock};
use std::time::Duration;

/// How long one Redis operation may take before it counts as unreachable.
const TIMEOUT: Duration = Duration::from_secs(2);
/// The longest wait between reconnection attempts.
const MAX_BACKOFF: Duration = Duration::from_secs(2);

/// Where a server's flags live in Redis: its set and its channel.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Keys {
    disabled: String,
    channel: String,
}

impl Keys {
    fn new(namespace: &str) -> Keys {
        Keys {
            disabled: format!("tooltable:{namespace}:disabled"),
            channel: format!("tooltable:{namespace}:changes"),
        }
    }
}

/// Enable flags in Redis, shared by every replica that uses the same URL
/// and namespace (by convention the crate name of the table).
pub struct RedisStore {
    client: redis::Client,
    keys: Keys,
    namespace: String,
    url: String,
    /// The disabled tools, as last read.
    disabled: Arc<RwLock<BTreeSet<String>>>,
    notify: Arc<OnceLock<OnChange>>,
    listening: Mutex<Option<tokio::task::JoinHandle<()>>>,
}

impl std::fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisStore")
            .field("url", &self.url)
            .field("keys", &self.keys)
            .finish_non_exhaustive()
    }
}

impl Drop for RedisStore {
    fn drop(&mut self) {
        if let Some(task) = self
            .listening
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
        {
            task.abort();
        }
    }
}

fn unreachable(url: &str, error: impl std::fmt::Display) -> FlagError {
    FlagError::Store(format!(
        "cannot reach the flag store at {url}: {error}; start Redis there, or serve without a shared store"
    ))
}

impl RedisStore {
    /// Connects to `url` (`redis://HOST:PORT/DB`), reads the flags of
    /// `namespace` and starts listening for changes. A malformed URL or a
    /// Redis that cannot be reached now is an error: a replica that started
    /// without the shared flags could serve a tool the others have switched
    /// off.
    pub async fn connect(url: &str, namespace: &str) -> Result<RedisStore, FlagError> {
        let client = redis::Client::open(url).map_err(|e| {
            FlagError::Store(format!(
                "the flag store URL `{url}` is not a Redis URL ({e}); write it as redis://HOST:PORT/DB"
            ))
        })?;
        let keys = Keys::new(namespace);
        let disabled = read(&client, &keys)
            .await
            .map_err(|e| unreachable(url, e))?;
        let store = RedisStore {
            client,
            keys,
            namespace: namespace.to_owned(),
            url: url.to_owned(),
            disabled: Arc::new(RwLock::new(disabled)),
            notify: Arc::new(OnceLock::new()),
            listening: Mutex::new(None),
        };
        let task = tokio::spawn(listen(
            store.client.clone(),
            store.keys.clone(),
            store.url.clone(),
            store.disabled.clone(),
            store.notify.clone(),
        ));
        *store.listening.lock().unwrap_or_else(|p| p.into_inner()) = Some(task);
        Ok(store)
    }

    /// Where the replicas sharing these flags keep their tasks, for
    /// [`Server::tasks_in`](crate::serve::Server::tasks_in): the same Redis,
    /// under the same namespace.
    pub fn tasks(&self) -> crate::registry::RedisTasks {
        crate::registry::RedisTasks {
            client: self.client.clone(),
            url: self.url.clone(),
            prefix: format!("tooltable:{}", self.namespace),
        }
    }

    /// Switches `tool` on or off for every replica, and says whether that
    /// changed anything. For an operator's command: it waits for Redis, and
    /// fails if Redis cannot be reached.
    pub async fn set(
        url: &str,
        namespace: &str,
        tool: &str,
        enabled: bool,
    ) -> Result<bool, FlagError> {
        let client = redis::Client::open(url).map_err(|e| {
            FlagError::Store(format!(
                "the flag store URL `{url}` is not a Redis URL ({e}); write it as redis://HOST:PORT/DB"
            ))
        })?;
        let keys = Keys::new(namespace);
        let mut connection = timeout(client.get_multiplexed_async_connection())
            .await
            .map_err(|e| unreachable(url, e))?;
        write(&mut connection, &keys, tool, enabled)
            .await
            .map_err(|e| unreachable(url, e))
    }
}

impl FlagStore for RedisStore {
    fn enabled(&self, tool: &str) -> Option<bool> {
        let disabled = self.disabled.read().unwrap_or_else(|p| p.into_inner());
        disabled.contains(tool).then_some(false)
    }

    fn set_enabled(&self, tool: &str, enabled: bool) {
        {
            let mut disabled = self.disabled.write().unwrap_or_else(|p| p.into_inner());
            if enabled {
                disabled.remove(tool);
            } else {
                disabled.insert(tool.to_owned());
            }
        }
        // This replica applies the change at once; the others hear of it
        // through Redis. Without a runtime there is nobody to tell.
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let client = self.client.clone();
        let keys = self.keys.clone();
        let url = self.url.clone();
        let tool = tool.to_owned();
        runtime.spawn(async move {
            let written = async {
                let mut connection = timeout(client.get_multiplexed_async_connection()).await?;
                write(&mut connection, &keys, &tool, enabled).await
            };
            if let Err(error) = written.await {
                tracing::error!(%url, tool, enabled, %error, "the flag store could not be told of a change; it applies to this replica only");
            }
        });
    }

    fn has_disabled(&self) -> bool {
        !self
            .disabled
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .is_empty()
    }

    fn on_change(&self, notify: OnChange) {
        let _ = self.notify.set(notify);
    }
}

/// `operation`, or a timeout error once it has taken [`TIMEOUT`]: every
/// Redis operation of the flags and of the tasks is bounded by it.
pub(crate) async fn timeout<T>(
    operation: impl Future<Output = redis::RedisResult<T>>,
) -> redis::RedisResult<T> {
    match tokio::time::timeout(TIMEOUT, operation).await {
        Ok(result) => result,
        Err(_) => Err(redis::RedisError::from(std::io::Error::new(
            std::io::ErrorKind::TimedOut,
            format!("no answer within {} s", TIMEOUT.as_secs()),
        ))),
    }
}

/// The disabled tools, as Redis holds them now.
async fn read(client: &redis::Client, keys: &Keys) -> redis::RedisResult<BTreeSet<String>> {
    let mut connection = timeout(client.get_multiplexed_async_connection()).await?;
    timeout(connection.smembers(&keys.disabled)).await
}

/// Sets one flag and announces it; whether the set changed.
async fn write(
    connection: &mut redis::aio::MultiplexedConnection,
    keys: &Keys,
    tool: &str,
    enabled: bool,
) -> redis::RedisResult<bool> {
    let changed: usize = if enabled {
        timeout(connection.srem(&keys.disabled, tool)).await?
    } else {
        timeout(connection.sadd(&keys.disabled, tool)).await?
    };
    if changed > 0 {
        let _: usize = timeout(connection.publish(&keys.channel, tool)).await?;
    }
    Ok(changed > 0)
}

/// Applies `now` as the disabled set, and tells the registry if it differs.
fn apply(disabled: &RwLock<BTreeSet<String>>, notify: &OnceLock<OnChange>, now: BTreeSet<String>) {
    let changed = {
        let mut held = disabled.write().unwrap_or_else(|p| p.into_inner());
        let changed = *held != now;
        *held = now;
        changed
    };
    if changed && let Some(notify) = notify.get() {
        notify();
    }
}

/// Listens for changes until the store is dropped, reconnecting with
/// backoff whenever Redis goes away.
async fn listen(
    client: redis::Client,
    keys: Keys,
    url: String,
    disabled: Arc<RwLock<BTreeSet<String>>>,
    notify: Arc<OnceLock<OnChange>>,
) {
    let mut backoff = Duration::from_millis(100);
    let mut down = false;
    loop {
        let session = async {
            let mut pubsub = timeout(client.get_async_pubsub()).await?;
            timeout(pubsub.subscribe(&keys.channel)).await?;
            // Subscribed first, then read: a change made in between is seen
            // either in the set or on the channel.
            apply(&disabled, &notify, read(&client, &keys).await?);
            Ok::<_, redis::RedisError>(pubsub)
        };
        match session.await {
            Ok(mut pubsub) => {
                if down {
                    tracing::info!(%url, "the flag store is back; flags are shared again");
                    down = false;
                }
                backoff = Duration::from_millis(100);
                let mut messages = pubsub.on_message();
                while messages.next().await.is_some() {
                    // Coalesce a burst: whatever else is already waiting is
                    // covered by the one read below.
                    while let Some(Some(_)) = messages.next().now_or_never() {}
                    match read(&client, &keys).await {
                        Ok(now) => apply(&disabled, &notify, now),
                        Err(_) => break,
                    }
                }
            }
            Err(error) => {
                if !down {
                    tracing::error!(%url, %error, "lost the flag store; serving with the last flags read until it is back");
                    down = true;
                }
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(MAX_BACKOFF);
                continue;
            }
        }
        if !down {
            tracing::error!(%url, "lost the flag store; serving with the last flags read until it is back");
            down = true;
        }
    }
}
