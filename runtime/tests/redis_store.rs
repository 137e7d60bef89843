//! The Redis flag store against a real redis-server started on a free
//! port (`.ci/run` installs it): a change made through one store reaches
//! another within a second and tells its registry, and a flood of changes
//! ends in the last state.

use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tooltable_runtime::registry::RedisStore;
use tooltable_runtime::registry::{FlagError, FlagStore};

struct Redis(Child, u16);

impl Redis {
    fn start() -> Redis {
        // Below the system's ephemeral range, from a start of this
        // process's own: a port the system handed out and took back could
        // be handed to another test's server before redis-server binds it.
        static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let port = loop {
            let next = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let port = u16::try_from(32_000 - (std::process::id() + next) % 12_000).unwrap();
            if std::net::TcpListener::bind(("127.0.0.1", port)).is_ok() {
                break port;
            }
        };
        let child = Command::new("redis-server")
            .args([
                "--port",
                &port.to_string(),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ])
            .stdout(Stdio::null())
            .spawn()
            .expect("redis-server on PATH (apt-get install redis-server, as .ci/run does)");
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "redis-server listens");
            std::thread::sleep(Duration::from_millis(20));
        }
        Redis(child, port)
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/0", self.1)
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

async fn eventually(what: &str, check: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(1);
    while !check() {
        assert!(Instant::now() < deadline, "{what} within a second");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn a_change_through_one_store_reaches_another_and_tells_its_registry() {
    let redis = Redis::start();
    let here = RedisStore::connect(&redis.url(), "tests").await.unwrap();
    let there = RedisStore::connect(&redis.url(), "tests").await.unwrap();
    let told = Arc::new(AtomicUsize::new(0));
    let counter = told.clone();
    there.on_change(Arc::new(move || {
        counter.fetch_add(1, Ordering::SeqCst);
    }));
    here.set_enabled("notes_search", false);
    assert_eq!(
        here.enabled("notes_search"),
        Some(false),
        "applied here at once"
    );
    eventually("the other store sees it", || {
        there.enabled("notes_search") == Some(false)
    })
    .await;
    assert!(there.has_disabled());
    eventually("its registry is told", || told.load(Ordering::SeqCst) >= 1).await;
    let other = RedisStore::connect(&redis.url(), "other-server")
        .await
        .unwrap();
    assert_eq!(
        other.enabled("notes_search"),
        None,
        "namespaces keep servers apart"
    );
}

#[tokio::test]
async fn a_flood_of_changes_ends_in_the_last_state_and_is_told() {
    let redis = Redis::start();
    let there = RedisStore::connect(&redis.url(), "flood").await.unwrap();
    let told = Arc::new(AtomicUsize::new(0));
    let counter = told.clone();
    there.on_change(Arc::new(move || {
        counter.fetch_add(1, Ordering::SeqCst);
    }));
    for n in 0..500 {
        RedisStore::set(&redis.url(), "flood", "t", n % 2 == 1)
            .await
            .unwrap();
    }
    eventually("the last change (enabled) wins", || {
        there.enabled("t").is_none()
    })
    .await;
    assert!(told.load(Ordering::SeqCst) >= 1);
}

#[tokio::test]
async fn a_bad_or_unreachable_url_is_refused_saying_so() {
    let refusal = RedisStore::connect("http://x", "t").await.unwrap_err();
    assert!(
        matches!(&refusal, FlagError::Store(s) if s.contains("is not a Redis URL")),
        "{refusal}"
    );
    let refusal = RedisStore::connect("redis://127.0.0.1:1/0", "t")
        .await
        .unwrap_err();
    assert!(
        refusal
            .to_string()
            .starts_with("cannot reach the flag store at redis://127.0.0.1:1/0"),
        "{refusal}"
    );
}
