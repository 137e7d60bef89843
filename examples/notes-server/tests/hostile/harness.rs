//! What the hostile tests share: notes-server started as a process on
//! HTTP (its own listener or mounted in axum) or stdio, and a client that
//! writes requests by hand.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::common::{TempDir, listening_port};

pub const SERVER: &str = env!("CARGO_BIN_EXE_notes-server");

/// A notes-server process, killed when the test ends; its log in `log`.
pub struct Server {
    pub child: Child,
    pub port: u16,
    pub log: PathBuf,
    pub dir: TempDir,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Where the HTTP endpoint is served from.
#[derive(Clone, Copy, Debug)]
pub enum Mount {
    /// The library's own listener (`Server::http`).
    Listener,
    /// Mounted in an axum application (`serve --axum`).
    Axum,
}

/// Runs each HTTP test against the library's own listener and against the
/// endpoint mounted in an axum application: every bad input is answered
/// the same way on both.
macro_rules! both_mounts {
    (fn $name:ident($mount:ident: Mount) $body:block) => {
        mod $name {
            use super::*;

            fn run($mount: Mount) $body

            #[test]
            fn on_the_librarys_listener() {
                run(Mount::Listener)
            }

            #[test]
            fn mounted_in_axum() {
                run(Mount::Axum)
            }
        }
    };
}

impl Server {
    /// notes-server serving HTTP on its own listener with `extra` arguments.
    pub fn http(name: &str, extra: &[&str]) -> Server {
        Server::http_on(Mount::Listener, name, extra)
    }

    /// notes-server serving HTTP from `mount` with `extra` arguments.
    pub fn http_on(mount: Mount, name: &str, extra: &[&str]) -> Server {
        let dir = TempDir::new("hostile", &format!("{name}-{mount:?}"));
        let log = dir.0.join("server.log");
        let child = Command::new(SERVER)
            .args(["serve", "--http", "127.0.0.1:0", "--allow-write"])
            .arg("--db")
            .arg(dir.0.join("notes.db"))
            .args(match mount {
                Mount::Listener => &[][..],
                Mount::Axum => &["--axum"][..],
            })
            .args(extra)
            .stdin(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        let mut child = child;
        let port = listening_port(&log, &mut child);
        Server {
            child,
            port,
            log,
            dir,
        }
    }

    pub fn pid(&self) -> String {
        self.child.id().to_string()
    }

    /// Sends SIGTERM.
    pub fn terminate(&self) {
        let status = Command::new("kill")
            .args(["-TERM", &self.pid()])
            .status()
            .unwrap();
        assert!(status.success());
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

/// An HTTP answer.
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The last JSON object of the body, plain or streamed as `data:` lines.
    pub fn json(&self) -> Value {
        self.body
            .lines()
            .rev()
            .map(|line| line.strip_prefix("data:").unwrap_or(line).trim())
            .filter_map(|line| serde_json::from_str::<Value>(line).ok())
            .find(Value::is_object)
            .unwrap_or_else(|| panic!("no JSON in {:?}", self.body))
    }
}

/// Reads an HTTP/1.1 answer to its end (the request said `Connection: close`).
pub fn read_answer(stream: &mut TcpStream) -> Answer {
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response);
    let response = String::from_utf8_lossy(&response).into_owned();
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.get(9..12))
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("not an HTTP answer: {response:?}"));
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    Answer {
        status,
        headers,
        body: body.to_owned(),
    }
}

/// The request text of one POST to `path`, with `headers` added.
pub fn request(port: u16, path: &str, headers: &[(&str, &str)], body: &[u8]) -> Vec<u8> {
    let mut head = format!(
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(body);
    bytes
}

pub fn post(port: u16, headers: &[(&str, &str)], body: &[u8]) -> Answer {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .write_all(&request(port, "/mcp", headers, body))
        .unwrap();
    read_answer(&mut stream)
}

/// The `_meta` a 2026-07-28 request carries.
pub fn current_meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "hostile", "version": "0"},
    })
}

/// A stateless 2026-07-28 request as its body and headers.
pub fn stateless(id: Value, method: &str, mut params: Value) -> (String, Vec<(String, String)>) {
    params["_meta"] = current_meta();
    let mut headers = vec![
        ("MCP-Protocol-Version".to_owned(), "2026-07-28".to_owned()),
        ("Mcp-Method".to_owned(), method.to_owned()),
    ];
    if let Some(name) = params["name"].as_str() {
        headers.push(("Mcp-Name".to_owned(), name.to_owned()));
    }
    let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    (body.to_string(), headers)
}

pub fn post_stateless(port: u16, id: Value, method: &str, params: Value) -> Answer {
    let (body, headers) = stateless(id, method, params);
    let headers: Vec<(&str, &str)> = headers
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    post(port, &headers, body.as_bytes())
}

pub fn initialize(id: u64, method: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{"protocolVersion":"2025-11-25","capabilities":{{}},"clientInfo":{{"name":"hostile","version":"0"}}}}}}"#
    )
}

/// Opens an `initialize`-era session; its id.
pub fn open_session(port: u16) -> String {
    let opened = post(port, &[], initialize(1, "initialize").as_bytes());
    let session = opened
        .header("mcp-session-id")
        .unwrap_or_else(|| panic!("a session: {}", opened.body))
        .to_owned();
    let initialized = post(
        port,
        &[
            ("Mcp-Session-Id", session.as_str()),
            ("MCP-Protocol-Version", "2025-11-25"),
        ],
        br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    );
    assert_eq!(initialized.status, 202, "{}", initialized.body);
    session
}

/// notes-server on stdio, its answers read on a thread of the test's.
pub struct StdioServer {
    pub child: Child,
    pub stdin: Option<ChildStdin>,
    pub lines: mpsc::Receiver<String>,
    pub dir: TempDir,
}

impl Drop for StdioServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl StdioServer {
    pub fn start(name: &str, extra: &[&str]) -> StdioServer {
        let dir = TempDir::new("hostile", name);
        let mut child = Command::new(SERVER)
            .arg("serve")
            .arg("--db")
            .arg(dir.0.join("notes.db"))
            .args(extra)
            // Each call the transport answers without rmcp's service is
            // logged, so a test can tell which path answered it.
            .env("RUST_LOG", "info,rmcp=warn,tooltable::shortcut=debug")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(dir.0.join("server.log")).unwrap())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        let mut session = StdioServer {
            child,
            stdin,
            lines,
            dir,
        };
        session.send(&initialize(0, "initialize"));
        session.answer(&json!(0));
        session.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        // Answered once the session took in `initialized`: from then on
        // the transport knows the session's era, and answers the calls
        // of tools that cannot talk back without rmcp's service.
        session.send(r#"{"jsonrpc":"2.0","id":"opened","method":"ping"}"#);
        session.answer(&json!("opened"));
        session
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    pub fn call(&mut self, id: Value, tool: &str, arguments: Value) {
        let line = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": tool, "arguments": arguments}});
        self.send(&line.to_string());
    }

    /// The next answer carrying `id`.
    pub fn answer(&self, id: &Value) -> Value {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("an answer to {id} within 20 s"));
            let value: Value = serde_json::from_str(&line).unwrap();
            if &value["id"] == id {
                return value;
            }
        }
    }

    /// How many calls the transport answered without rmcp's service, and
    /// the log that says so.
    pub fn shortcut_calls(&self) -> (usize, String) {
        let log = std::fs::read_to_string(self.dir.0.join("server.log")).unwrap_or_default();
        let calls = log
            .matches("a call is answered without rmcp's service")
            .count();
        (calls, log)
    }

    /// Asserts that the request `id` is answered, within `within`, with the
    /// error of a server that stopped before it finished (whose outcome is
    /// unknown), and never again until stdout closes.
    pub fn stopped_once(&self, id: &Value, within: Duration) {
        let started = Instant::now();
        let answer = self.answer(id);
        assert!(started.elapsed() < within, "{answer}");
        assert_eq!(answer["error"]["code"], json!(-32603), "{answer}");
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(
            message.starts_with("Server stopped")
                && message.contains("whether it took effect is unknown"),
            "{answer}"
        );
        let rest = self.rest();
        assert!(
            rest.iter().all(|line| &line["id"] != id),
            "answered once: {rest:?}"
        );
    }

    /// Every line still to come, until stdout closes.
    pub fn rest(&self) -> Vec<Value> {
        let mut rest = Vec::new();
        while let Ok(line) = self.lines.recv_timeout(Duration::from_secs(20)) {
            rest.push(serde_json::from_str(&line).unwrap());
        }
        rest
    }
}

/// Two creates (an async handler, which hands its database work to the
/// blocking pool) and two updates (a synchronous handler, run in place while
/// a worker is spare, on the pool past that), each sent on a thread of its
/// own as a stateless call to the server at `port`.
pub fn four_writes(port: u16) -> Vec<std::thread::JoinHandle<Answer>> {
    (0..4)
        .map(|i| {
            let call = if i % 2 == 0 {
                json!({"name": "notes_create", "arguments": {"title": "t", "body": "b"}})
            } else {
                json!({"name": "notes_update", "arguments": {"id": 1, "title": "u"}})
            };
            std::thread::spawn(move || post_stateless(port, json!(i), "tools/call", call))
        })
        .collect()
}

/// The sockets process `pid` holds open (its listener, its connections,
/// and whatever its runtime keeps).
pub fn sockets(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .unwrap()
        .filter_map(|fd| std::fs::read_link(fd.ok()?.path()).ok())
        .filter(|target| target.to_string_lossy().starts_with("socket:"))
        .count()
}

/// A connection of the test's own holding SQLite's write lock on `db`.
pub fn lock_database(db: &std::path::Path) -> rusqlite::Connection {
    let connection = rusqlite::Connection::open(db).unwrap();
    connection.execute_batch("BEGIN EXCLUSIVE;").unwrap();
    connection
}
