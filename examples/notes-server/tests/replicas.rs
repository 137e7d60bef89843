//! Replicas in step: two notes-server processes on HTTP share one Redis
//! (really started, on a free loopback port) for their enable flags and one
//! key for `requestState`. A flag changed with `notes-server admin` reaches
//! both and a legacy session is told; with Redis gone both keep serving the
//! last flags; when it returns changes flow again; a two-round call may move
//! between replicas. Needs `redis-server` (`.ci/run` installs it).

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common;

use common::{TempDir, free_port, started};

const SERVER: &str = env!("CARGO_BIN_EXE_notes-server");

fn wait_for_port(port: u16, child: &mut Child, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        if let Ok(Some(status)) = child.try_wait() {
            panic!("{what} exited with {status} before listening");
        }
        if TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("{what} did not listen on port {port}");
}

/// A process killed when the test ends.
struct Process(Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A redis-server of the test's own.
struct Redis {
    port: u16,
    process: Option<Process>,
}

impl Redis {
    fn start() -> Redis {
        let mut redis = Redis {
            port: free_port(),
            process: None,
        };
        redis.restart();
        redis
    }

    fn restart(&mut self) {
        let child = Command::new("redis-server")
            .args(["--port", &self.port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
            .stdout(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!("cannot start redis-server ({e}): install it (apt-get install redis-server), as .ci/run does")
            });
        let mut process = Process(child);
        wait_for_port(self.port, &mut process.0, "redis-server");
        self.process = Some(process);
    }

    fn stop(&mut self) {
        self.process = None;
    }

    /// Freezes (`STOP`) or thaws (`CONT`) the server: it keeps its data and
    /// its connections, and answers nothing meanwhile.
    fn signal(&self, signal: &str) {
        let pid = self.process.as_ref().unwrap().0.id().to_string();
        let sent = Command::new("kill")
            .args([&format!("-{signal}"), &pid])
            .status();
        assert!(sent.unwrap().success(), "kill -{signal} {pid}");
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/0", self.port)
    }
}

/// One replica serving HTTP with the shared store and key.
struct Replica {
    port: u16,
    _process: Process,
}

impl Replica {
    fn start(dir: &Path, name: &str, state: &str, key: &Path) -> Replica {
        Replica::try_start(dir, name, state, key).unwrap_or_else(|why| panic!("{why}"))
    }

    /// [`Replica::start`], or why the replica did not start.
    fn try_start(dir: &Path, name: &str, state: &str, key: &Path) -> Result<Replica, String> {
        let log = dir.join(format!("{name}.log"));
        let child = Command::new(SERVER)
            .args(["serve", "--http", "127.0.0.1:0", "--allow-destructive"])
            .arg("--db")
            .arg(dir.join(format!("{name}.db")))
            .args(["--state", state])
            .arg("--state-key")
            .arg(key)
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        let mut process = Process(child);
        let port = started(&log, &mut process.0)?;
        Ok(Replica {
            port,
            _process: process,
        })
    }

    /// A 2026-07-28 request; the JSON-RPC answer.
    fn rpc(&self, method: &str, params: Value) -> Value {
        self.request(method, params, json!({"elicitation": {}}))
    }

    /// A 2026-07-28 request from a client that declares the Tasks extension.
    fn task_rpc(&self, method: &str, params: Value) -> Value {
        self.request(
            method,
            params,
            json!({"elicitation": {}, "extensions": {"io.modelcontextprotocol/tasks": {}}}),
        )
    }

    fn request(&self, method: &str, params: Value, capabilities: Value) -> Value {
        let mut params = params;
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": capabilities,
        });
        let name = params["name"]
            .as_str()
            .or(params["taskId"].as_str())
            .map(str::to_owned);
        let body =
            json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).to_string();
        let mut headers = vec![
            ("MCP-Protocol-Version".to_owned(), "2026-07-28".to_owned()),
            ("Mcp-Method".to_owned(), method.to_owned()),
        ];
        if let Some(name) = name {
            headers.push(("Mcp-Name".to_owned(), name));
        }
        let (_, _, body) = post(self.port, &headers, &body);
        last_json(&body)
    }

    fn listed(&self) -> Vec<String> {
        let answer = self.rpc("tools/list", json!({}));
        answer["result"]["tools"]
            .as_array()
            .unwrap_or_else(|| panic!("{answer}"))
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_owned())
            .collect()
    }
}

/// One POST; the status, the headers (names lowercase) and the body.
fn post(
    port: u16,
    headers: &[(String, String)],
    body: &str,
) -> (u16, Vec<(String, String)>, String) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let mut request = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(body);
    stream.write_all(request.as_bytes()).unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    let mut lines = head.lines();
    let status = lines.next().unwrap_or_default()[9..12].parse().unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    (status, headers, body.to_owned())
}

/// The last JSON object in a body, plain or streamed as `data:` lines.
fn last_json(body: &str) -> Value {
    body.lines()
        .rev()
        .map(|line| line.strip_prefix("data:").unwrap_or(line).trim())
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .find(Value::is_object)
        .unwrap_or_else(|| panic!("no JSON in {body:?}"))
}

fn eventually(what: &str, within: Duration, mut check: impl FnMut() -> bool) {
    let deadline = Instant::now() + within;
    while Instant::now() < deadline {
        if check() {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("{what} within {within:?}");
}

fn admin(action: &str, tool: &str, state: &str) -> std::process::Output {
    Command::new(SERVER)
        .args(["admin", action, tool, "--state", state])
        .output()
        .unwrap()
}

fn shared_key(dir: &Path) -> PathBuf {
    let path = dir.join("state.key");
    std::fs::write(
        &path,
        b"a key of at least thirty-two bytes shared by replicas",
    )
    .unwrap();
    path
}

/// A legacy-era session on `port` whose standalone stream is open; reads
/// its events on a thread and reports whether `needle` arrived.
fn legacy_session_hears(port: u16, needle: &'static str) -> std::sync::mpsc::Receiver<()> {
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "replicas", "version": "0"}
    }})
    .to_string();
    let (_, headers, _) = post(port, &[], &initialize);
    let session = headers
        .iter()
        .find(|(n, _)| n == "mcp-session-id")
        .map(|(_, v)| v.clone())
        .expect("a session id");
    let session_header = vec![
        ("Mcp-Session-Id".to_owned(), session.clone()),
        ("MCP-Protocol-Version".to_owned(), "2025-11-25".to_owned()),
    ];
    post(
        port,
        &session_header,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    );
    let (heard, hearing) = std::sync::mpsc::channel();
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        stream,
        "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\nMcp-Session-Id: {session}\r\nMCP-Protocol-Version: 2025-11-25\r\n\r\n"
    )
    .unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stream).lines() {
            match line {
                Ok(line) if line.contains(needle) => {
                    let _ = heard.send(());
                    return;
                }
                Ok(_) => {}
                Err(_) => return,
            }
        }
    });
    hearing
}

#[test]
fn a_flag_changed_by_admin_reaches_both_replicas_and_a_legacy_session_is_told() {
    let (_dir, redis, a, b) = two_replicas("flags");
    assert!(a.listed().contains(&"notes_search".to_owned()));
    let told = legacy_session_hears(b.port, "notifications/tools/list_changed");

    let disabled = admin("disable", "notes_search", &redis.url());
    assert!(disabled.status.success(), "{disabled:?}");
    assert_eq!(
        String::from_utf8_lossy(&disabled.stdout).trim(),
        format!(
            "notes_search is now disabled on every replica sharing {}",
            redis.url()
        )
    );
    for replica in [&a, &b] {
        eventually(
            "the tool is hidden on both replicas",
            Duration::from_secs(2),
            || !replica.listed().contains(&"notes_search".to_owned()),
        );
    }
    told.recv_timeout(Duration::from_secs(2))
        .expect("the legacy session on the other replica is told its list changed");
    let called = b.rpc(
        "tools/call",
        json!({"name": "notes_search", "arguments": {"query": "x"}}),
    );
    assert_eq!(called["result"]["isError"], true, "{called}");

    let again = admin("disable", "notes_search", &redis.url());
    assert!(String::from_utf8_lossy(&again.stdout).contains("was already disabled"));
    let unknown = admin("disable", "notes_burn", &redis.url());
    assert!(!unknown.status.success());
    assert!(
        String::from_utf8_lossy(&unknown.stderr)
            .contains("no tool is named `notes_burn`; the tools are notes_create"),
        "{unknown:?}"
    );
}

#[test]
fn with_redis_gone_replicas_keep_the_last_flags_and_changes_flow_again_when_it_returns() {
    let (_dir, mut redis, a, b) = two_replicas("outage");
    assert!(
        admin("disable", "notes_stats", &redis.url())
            .status
            .success()
    );
    for replica in [&a, &b] {
        eventually("the tool is hidden", Duration::from_secs(2), || {
            !replica.listed().contains(&"notes_stats".to_owned())
        });
    }

    redis.stop();
    std::thread::sleep(Duration::from_millis(500));
    for replica in [&a, &b] {
        let listed = replica.listed();
        assert!(
            listed.contains(&"notes_search".to_owned()),
            "still serving: {listed:?}"
        );
        assert!(
            !listed.contains(&"notes_stats".to_owned()),
            "still disabled: {listed:?}"
        );
    }
    let unreachable = admin("enable", "notes_stats", &redis.url());
    assert!(!unreachable.status.success());
    assert!(String::from_utf8_lossy(&unreachable.stderr).contains("cannot reach the flag store"));

    redis.restart();
    // A fresh Redis holds no flags: the replicas read its empty set when they
    // reconnect, then hear the operator's change.
    assert!(
        admin("disable", "notes_export", &redis.url())
            .status
            .success()
    );
    for replica in [&a, &b] {
        eventually(
            "changes flow again after the outage",
            Duration::from_secs(10),
            || !replica.listed().contains(&"notes_export".to_owned()),
        );
    }
}

#[test]
fn a_two_round_call_may_move_between_replicas_sharing_the_key_and_not_to_one_without_it() {
    let (dir, redis, a, b) = two_replicas("hop");
    let stranger_key = dir.0.join("other.key");
    std::fs::write(
        &stranger_key,
        b"another key of at least thirty-two bytes, not shared",
    )
    .unwrap();
    let c = Replica::start(&dir.0, "c", &redis.url(), &stranger_key);

    let first = a.rpc(
        "tools/call",
        json!({"name": "notes_create", "arguments": {"body": "moved"}}),
    );
    assert_eq!(first["result"]["resultType"], "input_required", "{first}");
    let retry = json!({
        "name": "notes_create",
        "arguments": {"body": "moved"},
        "requestState": first["result"]["requestState"],
        "inputResponses": {"title": {"action": "accept", "content": {"title": "Hopped"}}},
    });
    let elsewhere = c.rpc("tools/call", retry.clone());
    assert_eq!(elsewhere["error"]["code"], -32602, "{elsewhere}");
    assert!(
        elsewhere["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("requestState was not issued by this server"),
        "{elsewhere}"
    );
    let done = b.rpc("tools/call", retry);
    assert_eq!(
        done["result"]["structuredContent"]["title"], "Hopped",
        "{done}"
    );
}

/// A Redis of the test's own and two replicas sharing it and one key, in a
/// directory named after the test.
fn two_replicas(test: &str) -> (TempDir, Redis, Replica, Replica) {
    let dir = TempDir::new("replicas", test);
    let key = shared_key(&dir.0);
    // A redis-server that was seen listening has been found refusing the
    // first replica's connection when the whole suite runs (twice, never
    // alone); what is under test starts after this, so the set-up is tried
    // again with a new redis-server, saying so.
    let mut tries = 0;
    loop {
        tries += 1;
        let redis = Redis::start();
        let started = Replica::try_start(&dir.0, "a", &redis.url(), &key)
            .and_then(|a| Replica::try_start(&dir.0, "b", &redis.url(), &key).map(|b| (a, b)));
        match started {
            Ok((a, b)) => return (dir, redis, a, b),
            Err(why) if tries < 3 && why.contains("cannot reach the flag store") => {
                eprintln!(
                    "{test}: the replicas could not reach redis-server on port {}, starting another: {why}",
                    redis.port
                );
            }
            Err(why) => panic!("{why}"),
        }
    }
}

/// Polls `task` on `replica` until `done` holds of it.
fn poll_until(replica: &Replica, task: &str, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    poll_within(replica, task, what, Duration::from_secs(10), done)
}

fn poll_within(
    replica: &Replica,
    task: &str,
    what: &str,
    within: Duration,
    done: impl Fn(&Value) -> bool,
) -> Value {
    let deadline = Instant::now() + within;
    loop {
        let got = replica.task_rpc("tasks/get", json!({"taskId": task}));
        if done(&got["result"]) {
            return got["result"].clone();
        }
        assert!(Instant::now() < deadline, "{what}: last {got}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_task_started_on_one_replica_is_polled_cancelled_and_finished_from_the_other() {
    let (_dir, _redis, a, b) = two_replicas("tasks");

    // Without the extension the call is an ordinary one.
    let plain = a.rpc(
        "tools/call",
        json!({"name": "notes_watch", "arguments": {"seconds": 1}}),
    );
    assert_eq!(plain["result"]["resultType"], "complete", "{plain}");

    let started = a.task_rpc(
        "tools/call",
        json!({"name": "notes_watch", "arguments": {"seconds": 300}}),
    );
    assert_eq!(started["result"]["resultType"], "task", "{started}");
    let watching = started["result"]["taskId"].as_str().unwrap().to_owned();
    let seen = b.task_rpc("tasks/get", json!({"taskId": watching}));
    assert_eq!(seen["result"]["status"], "working", "{seen}");
    assert_eq!(seen["result"]["resultType"], "complete", "{seen}");
    let cancelled = b.task_rpc("tasks/cancel", json!({"taskId": watching}));
    assert_eq!(
        cancelled["result"],
        json!({"resultType": "complete"}),
        "{cancelled}"
    );
    poll_until(
        &b,
        &watching,
        "the handler on a hears of the cancel made on b",
        |t| t["status"] == "cancelled",
    );
    let on_a = a.task_rpc("tasks/get", json!({"taskId": watching}));
    assert_eq!(on_a["result"]["status"], "cancelled", "{on_a}");

    let short = a.task_rpc(
        "tools/call",
        json!({"name": "notes_watch", "arguments": {"seconds": 1}}),
    );
    let short = short["result"]["taskId"].as_str().unwrap().to_owned();
    let done = poll_until(&b, &short, "the task finishes", |t| {
        t["status"] == "completed"
    });
    assert_eq!(
        done["result"]["structuredContent"],
        json!({"note": null}),
        "{done}"
    );
    let again = b.task_rpc("tasks/cancel", json!({"taskId": short}));
    assert_eq!(
        again["result"],
        json!({"resultType": "complete"}),
        "{again}"
    );
    let still = b.task_rpc("tasks/get", json!({"taskId": short}));
    assert_eq!(still["result"]["status"], "completed", "{still}");

    for id in ["0123456789abcdef0123456789abcdef", "not a task"] {
        let unknown = b.task_rpc("tasks/get", json!({"taskId": id}));
        assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
        assert!(
            unknown["error"]["message"]
                .as_str()
                .unwrap()
                .starts_with(&format!("no task `{id}` is known to this server")),
            "{unknown}"
        );
    }
    let undeclared = b.rpc("tasks/get", json!({"taskId": short}));
    assert_eq!(undeclared["error"]["code"], -32021, "{undeclared}");
}

#[test]
fn a_task_whose_replica_dies_reads_as_failed_on_the_other_instead_of_working_forever() {
    let (_dir, _redis, a, b) = two_replicas("died");
    let started = a.task_rpc(
        "tools/call",
        json!({"name": "notes_watch", "arguments": {"seconds": 300}}),
    );
    let task = started["result"]["taskId"].as_str().unwrap().to_owned();
    drop(a);
    let failed = poll_within(
        &b,
        &task,
        "the task of a killed replica fails",
        Duration::from_secs(20),
        |t| t["status"] == "failed",
    );
    assert_eq!(failed["error"]["code"], -32603, "{failed}");
    assert!(
        failed["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("the server running this task stopped before it finished"),
        "{failed}"
    );
}

#[test]
fn with_redis_unreachable_a_finished_task_is_not_lost_and_the_other_replica_says_why() {
    let (_dir, redis, a, b) = two_replicas("frozen");
    let started = a.task_rpc(
        "tools/call",
        json!({"name": "notes_watch", "arguments": {"seconds": 1}}),
    );
    let task = started["result"]["taskId"].as_str().unwrap().to_owned();
    redis.signal("STOP");
    // The handler finishes after a second; writing its ending times out.
    std::thread::sleep(Duration::from_millis(3500));
    let held = a.task_rpc("tasks/get", json!({"taskId": task}));
    assert_eq!(held["result"]["status"], "completed", "{held}");
    assert_eq!(
        held["result"]["result"]["structuredContent"],
        json!({"note": null}),
        "{held}"
    );
    let elsewhere = b.task_rpc("tasks/get", json!({"taskId": task}));
    assert_eq!(elsewhere["error"]["code"], -32603, "{elsewhere}");
    assert!(
        elsewhere["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with(&format!(
                "the task store at {} cannot be reached",
                redis.url()
            )),
        "{elsewhere}"
    );
    redis.signal("CONT");
    let written = poll_until(&b, &task, "the held ending reaches Redis", |t| {
        t["status"] == "completed"
    });
    assert_eq!(
        written["result"]["structuredContent"],
        json!({"note": null}),
        "{written}"
    );
}

#[test]
fn a_confirming_task_asks_for_consent_and_the_answer_may_come_through_the_other_replica() {
    let (_dir, _redis, a, b) = two_replicas("consent");
    let created = a.rpc(
        "tools/call",
        json!({"name": "notes_create", "arguments": {"title": "Doomed", "body": "soon gone"}}),
    );
    let id = created["result"]["structuredContent"]["id"].clone();
    assert!(id.is_i64(), "{created}");

    let started = a.task_rpc(
        "tools/call",
        json!({"name": "notes_delete", "arguments": {"id": id}}),
    );
    assert_eq!(started["result"]["resultType"], "task", "{started}");
    let task = started["result"]["taskId"].as_str().unwrap().to_owned();
    let asking = poll_until(&b, &task, "consent is the task's question", |t| {
        t["status"] == "input_required"
    });
    let requests = asking["inputRequests"].as_object().unwrap();
    assert_eq!(requests.len(), 1, "{asking}");
    let (question, request) = requests.iter().next().unwrap();
    assert_eq!(request["method"], "elicitation/create", "{asking}");
    assert!(
        request["params"]["message"]
            .as_str()
            .unwrap()
            .contains("deletes the note and its tags for good"),
        "{asking}"
    );

    // An answer to a question never asked changes nothing.
    let stray = b.task_rpc(
        "tasks/update",
        json!({"taskId": task, "inputResponses": {"nobody-asked": {"action": "accept"}}}),
    );
    assert_eq!(
        stray["result"],
        json!({"resultType": "complete"}),
        "{stray}"
    );
    let still = b.task_rpc("tasks/get", json!({"taskId": task}));
    assert_eq!(still["result"]["status"], "input_required", "{still}");

    let yes = json!({"action": "accept", "content": {"confirm": true}});
    let answered = b.task_rpc(
        "tasks/update",
        json!({"taskId": task, "inputResponses": {question: yes}}),
    );
    assert_eq!(
        answered["result"],
        json!({"resultType": "complete"}),
        "{answered}"
    );
    let done = poll_until(&a, &task, "the delete runs once consent is given", |t| {
        t["status"] == "completed"
    });
    assert_eq!(done["result"]["structuredContent"]["id"], id, "{done}");
    // Answered twice: ignored, and nothing runs again.
    let twice = b.task_rpc(
        "tasks/update",
        json!({"taskId": task, "inputResponses": {question: yes}}),
    );
    assert_eq!(
        twice["result"],
        json!({"resultType": "complete"}),
        "{twice}"
    );
    let gone = a.rpc(
        "tools/call",
        json!({"name": "notes_get", "arguments": {"id": id}}),
    );
    assert_eq!(gone["result"]["isError"], true, "{gone}");
}

#[test]
fn a_malformed_or_unreachable_state_url_stops_the_server_at_start_saying_so() {
    let dir = TempDir::new("replicas", "bad");
    for (url, expected) in [
        ("http://not-redis", "is not a Redis URL"),
        (
            &format!("redis://127.0.0.1:{}/0", free_port()) as &str,
            "cannot reach the flag store",
        ),
    ] {
        let output = Command::new(SERVER)
            .args([
                "serve",
                "--http",
                &format!("127.0.0.1:{}", free_port()),
                "--state",
                url,
            ])
            .arg("--db")
            .arg(dir.0.join("bad.db"))
            .output()
            .unwrap();
        assert!(!output.status.success());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(expected), "{url}: {stderr}");
    }
}
