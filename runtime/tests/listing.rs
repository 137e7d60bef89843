//! `tools/list` answered from the descriptors' text equals what rmcp's
//! typed path sends, in every era, on every page, under every policy the
//! tests serve, on both transports; and it is really the other path that
//! answered.

use crate::client;

use client::{
    Session, current_meta, everything, one_disabled, pinned, read_only, without_permissions,
};

use serde_json::{Value, json};
use std::time::Duration;
use tooltable_fixture::Shelf;
use tooltable_runtime::Caller;
use tooltable_runtime::Registry;
use tooltable_runtime::Tier;
use tooltable_runtime::provider::handler;
use tooltable_runtime::provider::{BoxFuture, Outcome, Output};
use tooltable_runtime::provider::{ProvidedTool, Provider};
use tooltable_runtime::serve::McpServer;
use tooltable_runtime::serve::Server;

/// A way of serving the fixture: a registry, who calls, and a page size.
struct Setup {
    name: &'static str,
    registry: fn() -> Registry<Shelf>,
    caller: Option<fn() -> Caller>,
    page_size: Option<usize>,
}

fn with_provider() -> Registry<Shelf> {
    struct Stats;
    impl Provider<Shelf> for Stats {
        fn name(&self) -> &str {
            "stats"
        }
        fn tools(&self) -> Vec<ProvidedTool<Shelf>> {
            vec![ProvidedTool::new(
                "items_count",
                Tier::Read,
                "Counts the items.",
                handler(|_: &Shelf, _, _: &_| -> BoxFuture<'_, Outcome> {
                    Box::pin(async { Ok(Output::Structured(json!({"count": 0}))) })
                }),
            )]
        }
    }
    let registry = everything();
    registry.register(&Stats).unwrap();
    registry
}

fn setups() -> Vec<Setup> {
    let setup = |name, registry, caller, page_size| Setup {
        name,
        registry,
        caller,
        page_size,
    };
    vec![
        setup("every tool", everything, None, None),
        setup("the read tier", read_only, None, None),
        setup("a disabled tool", one_disabled, None, None),
        setup("a provider's tool", with_provider, None, None),
        setup(
            "no permissions",
            everything,
            Some(without_permissions),
            None,
        ),
        setup("pinned", everything, Some(pinned), None),
        setup("pages of 5", everything, None, Some(5)),
        setup("filtered pages of 2", one_disabled, None, Some(2)),
    ]
}

fn server(setup: &Setup, baked: bool) -> Server<McpServer<Shelf>> {
    let mut server = Server::new((setup.registry)(), Shelf::new())
        .handle_signals(false)
        .shortcut_lists(baked);
    if let Some(caller) = setup.caller {
        server = server.fixed_caller(caller());
    }
    if let Some(size) = setup.page_size {
        server = server.page_size(size);
    }
    server
}

/// Whether `raw` holds the first listed tool's descriptor exactly as the
/// registry keeps it: copied text, not a serialisation of a typed value.
fn copies_descriptors(setup: &Setup, raw: &str, answer: &Value) -> bool {
    let Some(name) = answer["result"]["tools"][0]["name"].as_str() else {
        return false;
    };
    let registry = (setup.registry)();
    let entry = registry
        .get(name)
        .expect("a listed tool is in the registry");
    raw.contains(entry.descriptor_json())
}

/// Every page of the listing, then two cursors the server never gave out.
async fn walk<F, Fut>(mut list: F) -> Vec<(String, Value)>
where
    F: FnMut(Option<String>) -> Fut,
    Fut: std::future::Future<Output = (String, Value)>,
{
    let mut answers = Vec::new();
    let mut cursor = None;
    loop {
        let (raw, answer) = list(cursor.take()).await;
        cursor = answer["result"]["nextCursor"].as_str().map(str::to_owned);
        answers.push((raw, answer));
        if cursor.is_none() || answers.len() > 20 {
            break;
        }
    }
    answers.push(list(Some("999".to_owned())).await);
    answers.push(list(Some("not a cursor".to_owned())).await);
    answers
}

/// The fast and the typed answers are equal as JSON values, the fast ones
/// copy the descriptors' text and the typed ones do not.
fn compare(setup: &Setup, era: &str, fast: &[(String, Value)], typed: &[(String, Value)]) {
    assert_eq!(
        fast.len(),
        typed.len(),
        "{} ({era}): page counts",
        setup.name
    );
    // Each answer carries its request's id (`ask` matched it); the sessions
    // number their requests differently.
    let without_id = |answer: &Value| {
        let mut answer = answer.clone();
        answer.as_object_mut().map(|a| a.remove("id"));
        answer
    };
    for (i, ((fast_raw, fast), (typed_raw, typed))) in fast.iter().zip(typed).enumerate() {
        assert_eq!(
            without_id(fast),
            without_id(typed),
            "{} ({era}), answer {i}: the answer from baked bytes differs from rmcp's",
            setup.name
        );
        if fast.get("result").is_some() {
            assert!(
                copies_descriptors(setup, fast_raw, fast),
                "{} ({era}), answer {i}: the shortcut did not answer: {fast_raw}",
                setup.name
            );
            assert!(
                !copies_descriptors(setup, typed_raw, typed),
                "{} ({era}), answer {i}: the typed path answered from text: {typed_raw}",
                setup.name
            );
        }
    }
    assert!(
        fast.iter()
            .any(|(_, answer)| answer.get("result").is_some()),
        "{} ({era}): nothing was listed",
        setup.name
    );
}

#[tokio::test]
async fn on_stdio_a_listing_from_baked_bytes_equals_rmcps_in_every_era_page_and_policy() {
    for setup in setups() {
        for era in [Some("2025-06-18"), Some("2025-11-25"), None] {
            let mut answers = Vec::new();
            for baked in [true, false] {
                let mut session = Session::open(server(&setup, baked), era).await;
                if baked && era.is_some() {
                    // The session's era is known once rmcp has handled the
                    // `initialized` notification; until then listings go to
                    // rmcp, which is right but not what is tested here.
                    wait_for_the_fast_path(&setup, &mut session).await;
                }
                answers.push(walk_session(session).await);
            }
            compare(
                &setup,
                era.unwrap_or("2026-07-28"),
                &answers[0],
                &answers[1],
            );
        }
    }
}

#[tokio::test]
async fn on_a_process_s_stdio_a_listing_answered_where_it_is_read_equals_rmcps() {
    // The setups fixture_stdio serves: every tool, in one page or in pages of 5.
    let setups = setups();
    for setup in setups
        .iter()
        .filter(|s| s.name == "every tool" || s.name == "pages of 5")
    {
        let mut args = Vec::new();
        let size = setup.page_size.map(|size| size.to_string());
        if let Some(size) = &size {
            args.extend(["--page-size", size.as_str()]);
        }
        for era in [Some("2025-11-25"), None] {
            let mut answers = Vec::new();
            for typed in [false, true] {
                let mut args = args.clone();
                if typed {
                    args.push("--typed");
                }
                let mut session = Session::spawn(&args, era).await;
                if !typed && era.is_some() {
                    wait_for_the_fast_path(setup, &mut session).await;
                }
                answers.push(walk_session(session).await);
            }
            compare(setup, era.unwrap_or("2026-07-28"), &answers[0], &answers[1]);
        }
    }
}

/// Every page a session lists, following its cursors.
async fn walk_session(session: Session) -> Vec<(String, Value)> {
    let session = std::sync::Arc::new(tokio::sync::Mutex::new(session));
    walk(|cursor| {
        let session = session.clone();
        async move { session.lock().await.list(cursor.as_deref()).await }
    })
    .await
}

async fn wait_for_the_fast_path(setup: &Setup, session: &mut Session) {
    for _ in 0..500 {
        let (raw, answer) = session.list(None).await;
        if copies_descriptors(setup, &raw, &answer) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!(
        "{}: the session's listings never came from baked bytes",
        setup.name
    );
}

/// An HTTP server for `setup`, stopped when the sender is dropped.
async fn http(
    setup: &Setup,
    baked: bool,
) -> (std::net::SocketAddr, tokio::sync::oneshot::Sender<()>) {
    client::listen(server(setup, baked)).await
}

/// A POST of a `tools/list` body to `/mcp` with the headers a 2026-07-28
/// client sends, naming `version`, plus `extra`.
async fn post(
    address: std::net::SocketAddr,
    body: &Value,
    version: &str,
    extra: &[(&str, &str)],
) -> client::Answer {
    let mut headers = vec![
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
        ("MCP-Protocol-Version", version),
        ("Mcp-Method", "tools/list"),
    ];
    headers.extend_from_slice(extra);
    client::exchange(address, "POST", "/mcp", &headers, &body.to_string()).await
}

async fn post_list(
    address: std::net::SocketAddr,
    id: i64,
    cursor: Option<&str>,
) -> (String, Value) {
    let mut params = json!({"_meta": current_meta()});
    if let Some(cursor) = cursor {
        params["cursor"] = json!(cursor);
    }
    let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/list", "params": params});
    let answer = post(address, &body, "2026-07-28", &[]).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    let value = answer.json();
    (answer.body, value)
}

#[tokio::test]
async fn over_http_a_stateless_listing_from_baked_bytes_equals_rmcps_on_every_page_and_policy() {
    for setup in setups() {
        let mut answers = Vec::new();
        for baked in [true, false] {
            let (address, _stop) = http(&setup, baked).await;
            let id = std::sync::atomic::AtomicI64::new(1);
            let id = &id;
            answers.push(
                walk(|cursor| async move {
                    let id = id.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    post_list(address, id, cursor.as_deref()).await
                })
                .await,
            );
        }
        compare(&setup, "2026-07-28 over HTTP", &answers[0], &answers[1]);
    }
}

#[tokio::test]
async fn a_listing_rmcp_must_refuse_is_left_to_rmcp() {
    let setup = &setups()[0];
    let (address, _stop) = http(setup, true).await;
    // The header and the request disagree on the version: rmcp's refusal,
    // not a listing.
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": current_meta()}});
    let answer = post(address, &body, "2025-11-25", &[]).await;
    assert!(answer.json().get("error").is_some(), "{}", answer.body);
    // A foreign Origin is refused by rmcp's check, never listed.
    let answer = post(
        address,
        &body,
        "2026-07-28",
        &[("Origin", "https://evil.example")],
    )
    .await;
    assert_eq!(answer.status, 403, "{}", answer.body);
    // A stdio request without a version before any `initialize`: rmcp's
    // answer, whatever it is, not a listing from bytes.
    let mut session = Session::open(server(setup, true), None).await;
    session.legacy = Some("none");
    let (raw, answer) = session.list(None).await;
    assert!(!copies_descriptors(setup, &raw, &answer), "{raw}");
}
