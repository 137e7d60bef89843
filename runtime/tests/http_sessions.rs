//! Requests in an HTTP session that the transport answers itself, once it
//! knows the revision the session opened on: the same JSON-RPC answers as
//! rmcp's session gives (rmcp streams them, the transport writes them as
//! JSON), only where rmcp would have answered them in that session, and
//! nothing answered for a session rmcp ended or for a call cancelled.

use crate::client::{self, Answer, counting, everything};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tooltable_fixture::Shelf;
use tooltable_runtime::serve::{McpServer, Server};

/// The legacy revisions, whose sessions open with `initialize`.
const ERAS: [&str; 2] = ["2025-06-18", "2025-11-25"];

fn server(shortcuts: bool) -> Server<McpServer<Shelf>> {
    Server::new(everything(), Shelf::new())
        .handle_signals(false)
        .shortcut_calls(shortcuts)
        .shortcut_lists(shortcuts)
}

/// A session opened over HTTP, as a client of `era` opens one.
struct HttpSession {
    address: SocketAddr,
    id: String,
    era: &'static str,
}

const JSON: (&str, &str) = ("Content-Type", "application/json");
const ACCEPT: (&str, &str) = ("Accept", "application/json, text/event-stream");

impl HttpSession {
    async fn open(address: SocketAddr, era: &'static str) -> HttpSession {
        let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": era, "capabilities": {},
            "clientInfo": {"name": "sessions", "version": "0"},
        }});
        let opened = client::exchange(
            address,
            "POST",
            "/mcp",
            &[JSON, ACCEPT],
            &initialize.to_string(),
        )
        .await;
        assert_eq!(opened.status, 200, "{}", opened.body);
        assert!(opened.json()["result"].is_object(), "{}", opened.body);
        let session = HttpSession {
            address,
            id: opened.header("mcp-session-id").unwrap().to_owned(),
            era,
        };
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        assert_eq!(session.post(&initialized, &[]).await.status, 202);
        session
    }

    /// POSTs `message` in the session, with the headers a client sends
    /// and `extra`.
    async fn post(&self, message: &Value, extra: &[(&str, &str)]) -> Answer {
        let mut headers = vec![
            JSON,
            ACCEPT,
            ("Mcp-Session-Id", self.id.as_str()),
            ("MCP-Protocol-Version", self.era),
        ];
        headers.extend_from_slice(extra);
        client::exchange(self.address, "POST", "/mcp", &headers, &message.to_string()).await
    }

    /// Starts a call under `id` that pauses for ten seconds, and waits
    /// until the shortcut runs it; its answer, once it has one.
    async fn slow_call(
        self: &Arc<Self>,
        id: i64,
        direct: &client::Direct,
    ) -> tokio::task::JoinHandle<Answer> {
        let session = self.clone();
        let slow =
            tokio::spawn(
                async move { session.call(id, "items_pause", json!({"ms": 10_000})).await },
            );
        direct.running().await;
        slow
    }

    async fn call(&self, id: i64, tool: &str, arguments: Value) -> Answer {
        let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": tool, "arguments": arguments}});
        self.post(&call, &[]).await
    }
}

/// The calls made of both servers: results, the handler's own errors, a
/// panic, argument errors, an unknown tool, and tools that talk back
/// (rmcp's to answer on both).
fn calls() -> Vec<(&'static str, Value, bool)> {
    vec![
        ("items_list", json!({}), true),
        ("items_create", json!({"name": "a lamp"}), true),
        ("items_get", json!({"id": 1}), true),
        ("items_pause", json!({"ms": 5}), true),
        ("items_get", json!({"id": 999}), true),
        ("items_fault", json!({"kind": "panic"}), true),
        ("items_create", json!({"name": 5}), true),
        ("items_get", json!({}), true),
        ("items_list", json!({"surprise": true}), true),
        ("items_nope", json!({}), true),
        ("items_progress", json!({"steps": 1}), false),
        ("items_destroy", json!({"id": 1}), false),
    ]
}

/// What an answer says, whichever way it was written: its status and its
/// JSON-RPC message.
fn said(answer: &Answer) -> (u16, Value) {
    (answer.status, answer.json())
}

#[test]
fn in_a_legacy_session_a_call_and_a_listing_answered_directly_equal_rmcps() {
    counting(|direct| async move {
        for era in ERAS {
            let mut answers = Vec::new();
            for shortcuts in [true, false] {
                let (address, _stop) = client::listen(server(shortcuts)).await;
                let session = HttpSession::open(address, era).await;
                let before = direct.count();
                let mut these = Vec::new();
                for (i, (tool, arguments, _)) in calls().into_iter().enumerate() {
                    these.push(said(&session.call(i as i64 + 1, tool, arguments).await));
                }
                let listing = json!({"jsonrpc": "2.0", "id": "list", "method": "tools/list"});
                these.push(said(&session.post(&listing, &[]).await));
                let expected = if shortcuts {
                    calls().iter().filter(|(.., simple)| *simple).count()
                } else {
                    0
                };
                assert_eq!(
                    direct.count() - before,
                    expected,
                    "{era}: calls answered directly"
                );
                answers.push(these);
            }
            for (i, (fast, typed)) in answers[0].iter().zip(&answers[1]).enumerate() {
                assert_eq!(
                    fast, typed,
                    "{era}, request {i}: the direct answer differs from rmcp's"
                );
            }
        }
    });
}

#[test]
fn a_session_request_whose_headers_rmcp_must_check_is_left_to_rmcp() {
    counting(|direct| async move {
        let (address, _stop) = client::listen(server(true)).await;
        let session = HttpSession::open(address, "2025-11-25").await;
        let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "items_list", "arguments": {}}});
        for extra in [
            vec![("MCP-Protocol-Version", "2025-06-18")],
            vec![("Mcp-Method", "tools/call")],
            vec![("Mcp-Name", "items_list")],
            vec![("Mcp-Param-Anything", "1")],
            vec![("Origin", "http://evil.example")],
        ] {
            let before = direct.count();
            // `post` names the session's revision first; a second
            // `MCP-Protocol-Version` is refused before any path is chosen,
            // so the other revision is sent alone.
            let answer = if extra[0].0 == "MCP-Protocol-Version" {
                let headers = [
                    JSON,
                    ACCEPT,
                    ("Mcp-Session-Id", session.id.as_str()),
                    extra[0],
                ];
                client::exchange(address, "POST", "/mcp", &headers, &call.to_string()).await
            } else {
                session.post(&call, &extra).await
            };
            assert_eq!(direct.count(), before, "{extra:?}: {}", answer.body);
        }
    });
}

#[test]
fn a_request_in_a_session_rmcp_ended_or_never_opened_is_not_found() {
    counting(|direct| async move {
        let (address, _stop) = client::listen(server(true)).await;
        let session = HttpSession::open(address, "2025-11-25").await;
        assert_eq!(session.call(1, "items_list", json!({})).await.status, 200);
        assert_eq!(direct.count(), 1);
        let headers = [("Mcp-Session-Id", session.id.as_str())];
        let deleted = client::exchange(address, "DELETE", "/mcp", &headers, "").await;
        assert!(deleted.status < 300, "{}", deleted.status);
        let after = session.call(2, "items_list", json!({})).await;
        assert_eq!(after.status, 404, "{}", after.body);
        let stranger = HttpSession {
            id: "not-a-session".into(),
            ..session
        };
        assert_eq!(stranger.call(3, "items_list", json!({})).await.status, 404);
        assert_eq!(direct.count(), 1, "nothing more answered directly");
    });
}

#[test]
fn a_cancelled_session_call_gets_no_answer_and_its_id_is_free_once_it_ended() {
    counting(|direct| async move {
        let (address, _stop) = client::listen(server(true)).await;
        let session = Arc::new(HttpSession::open(address, "2025-11-25").await);
        let slow = session.slow_call(7, &direct).await;
        let again = session.call(7, "items_list", json!({})).await;
        assert_eq!(
            again.status, 400,
            "an id in progress is refused: {}",
            again.body
        );
        let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
            "params": {"requestId": 7, "reason": "enough"}});
        assert_eq!(session.post(&cancel, &[]).await.status, 202);
        let cancelled = tokio::time::timeout(Duration::from_secs(5), slow)
            .await
            .expect("the cancelled call ends at once")
            .unwrap();
        assert_eq!(cancelled.status, 200);
        assert_eq!(cancelled.body, "", "no answer to a cancelled call");
        let reused = session.call(7, "items_list", json!({})).await;
        assert!(reused.json()["result"].is_object(), "{}", reused.body);
    });
}

#[test]
fn a_session_call_whose_client_closed_its_connection_runs_on_until_cancelled() {
    counting(|direct| async move {
        let (address, _stop) = client::listen(server(true)).await;
        let session = Arc::new(HttpSession::open(address, "2025-11-25").await);
        let slow = session.slow_call(7, &direct).await;
        // The client goes, its connection with it: in a session that is
        // not a cancellation.
        slow.abort();
        let _ = slow.await;
        tokio::time::sleep(Duration::from_millis(100)).await;
        let again = session.call(7, "items_list", json!({})).await;
        assert_eq!(again.status, 400, "the call runs on: {}", again.body);
        let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
            "params": {"requestId": 7, "reason": "enough"}});
        assert_eq!(session.post(&cancel, &[]).await.status, 202);
        let freed = async {
            loop {
                let reused = session.call(7, "items_list", json!({})).await;
                if reused.status != 400 {
                    return reused;
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        };
        let reused = tokio::time::timeout(Duration::from_secs(5), freed)
            .await
            .expect("the id is free once the cancelled call ended");
        assert!(reused.json()["result"].is_object(), "{}", reused.body);
    });
}

#[test]
fn a_session_call_in_progress_at_the_end_of_the_grace_period_is_told_the_server_stopped() {
    counting(|direct| async move {
        let server = server(true).shutdown_grace(Duration::from_millis(200));
        let (address, stop) = client::listen(server).await;
        let session = Arc::new(HttpSession::open(address, "2025-11-25").await);
        let slow = session.slow_call(1, &direct).await;
        drop(stop);
        let answer = tokio::time::timeout(Duration::from_secs(5), slow)
            .await
            .expect("answered once the grace period ended")
            .unwrap();
        assert_eq!(answer.status, 503, "{}", answer.body);
        assert_eq!(answer.json()["id"], 1);
        assert!(answer.json()["error"].is_object(), "{}", answer.body);
    });
}

#[test]
fn a_session_call_in_progress_when_the_client_ends_the_session_gets_no_answer() {
    counting(|direct| async move {
        let (address, _stop) = client::listen(server(true)).await;
        let session = Arc::new(HttpSession::open(address, "2025-11-25").await);
        let slow = session.slow_call(1, &direct).await;
        let headers = [("Mcp-Session-Id", session.id.as_str())];
        let deleted = client::exchange(address, "DELETE", "/mcp", &headers, "").await;
        assert!(deleted.status < 300, "{}", deleted.status);
        let ended = tokio::time::timeout(Duration::from_secs(5), slow)
            .await
            .expect("the call ends with its session")
            .unwrap();
        assert_eq!((ended.status, ended.body.as_str()), (200, ""));
    });
}
