//! Server CPU per served `tools/list` and `tools/call`, on stdio and on
//! HTTP.
//!
//! Each side runs as a process of its own (`harness serve`, see
//! [`crate::serve`]): tooltable on its library transports, rmcp's stored
//! router on rmcp's own, and the write baseline, which answers every request
//! with the bytes tooltable answered the first one with (for calls, having
//! parsed the request). This client sends the same request again and
//! again, one at a time, and only frames the replies (a line on stdio; a
//! `Content-Length` or chunked body on one keep-alive HTTP/1.1 connection):
//! it parses none of them after the first, which it checks is a real
//! listing of all N tools, or a call's result that is not an error. The
//! calls are of the trivial tool and of the tool with every kind of field.
//!
//! What is measured is the server process's own CPU time (user and system,
//! every thread, read through its process CPU clock, which the kernel keeps
//! in nanoseconds; the same sum /proc/PID/stat gives in 10 ms ticks, which
//! is checked against it), divided by the requests served. The sides take
//! their samples in turn, as every comparison of the harness does.
//!
//! In the harness that links the other frameworks' twins, each twin is a
//! side too, on its framework's own transports, and HTTP requests go
//! through an `initialize` session (see [`sessions`]).
//!
//! stdio sessions start with the `initialize` handshake (revision
//! 2025-11-25), then list; HTTP requests are 2026-07-28 stateless POSTs
//! carrying the revision's `_meta` and headers, so no session is held.

use crate::crates::{REGULAR_ARGUMENTS, REGULAR_TOOL, TRIVIAL_ARGUMENTS, TRIVIAL_TOOL};
use crate::measure::{Batch, Settings, compare};
use crate::results::Results;
use crate::serve::{Side, Transport};
use crate::suite::{Crates, Visit};
use rmcp::ServerHandler;
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Duration;

/// Measures served listings for each size.
pub struct Served<'r> {
    /// How long to measure.
    pub settings: Settings,
    /// Where the numbers go.
    pub results: &'r mut Results,
}

impl Visit for Served<'_> {
    fn visit<C, S, R>(&mut self, crates: &Crates<C, S, R>)
    where
        C: Send + Sync + 'static,
        S: ServerHandler + Clone + Send + Sync + 'static,
        R: ServerHandler + Clone + Send + Sync + 'static,
    {
        let n = crates.n;
        let scratch = scratch();
        for (transport, ask) in Transport::ALL
            .into_iter()
            .flat_map(|t| Ask::ALL.into_iter().map(move |a| (t, a)))
        {
            let mut endpoints: Vec<Endpoint> = [Side::Tooltable, Side::Rmcp]
                .into_iter()
                .chain(
                    crate::crates::peers_at(n)
                        .iter()
                        .map(|&framework| Side::Peer(framework)),
                )
                .map(|side| Endpoint::start(side, n, transport, ask, None))
                .collect();
            for endpoint in &mut endpoints {
                endpoint.handshake();
            }
            let first = endpoints[0].first(n);
            for endpoint in &mut endpoints[1..] {
                endpoint.first(n);
            }
            let reply = scratch.join(format!("reply-{}-{}-{n}", ask.word(), transport.word()));
            if let Err(e) = std::fs::write(&reply, &first.bytes) {
                fail(&format!("cannot write {}: {e}", reply.display()));
            }
            let mut write = Endpoint::start(
                Side::Write,
                n,
                transport,
                ask,
                Some((&reply, &first.content_type)),
            );
            write.first(n);
            endpoints.push(write);
            let metric = format!("{}-{}-{}/{n}", prefix(), ask.word(), transport.word());
            if ask == Ask::List {
                for endpoint in &endpoints {
                    self.results.record(
                        &format!(
                            "bytes/{n}/{}-{}-{}",
                            prefix(),
                            transport.word(),
                            endpoint.side.word()
                        ),
                        endpoint.reply_len as f64,
                    );
                }
            }
            let mut candidates: Vec<Batch<'_>> = endpoints
                .iter_mut()
                .map(|endpoint| -> Batch<'_> { Box::new(move |requests| endpoint.serve(requests)) })
                .collect();
            let times = compare(self.settings, &mut candidates);
            drop(candidates);
            for (endpoint, time) in endpoints.iter().zip(times) {
                self.results
                    .record(&format!("{metric}/{}", endpoint.side.word()), time);
            }
            for endpoint in endpoints {
                endpoint.stop();
            }
            let _ = std::fs::remove_file(&reply);
        }
        let _ = std::fs::remove_dir(&scratch);
    }
}

/// The metrics' first word: `served`, or `peers-served` in the harness
/// that links the other frameworks' twins (its sides run on another
/// serde_json, see `crate::peers`), whose figures are their own.
fn prefix() -> &'static str {
    if crate::crates::PEERS.is_empty() {
        "served"
    } else {
        "peers-served"
    }
}

/// Where the captured replies go.
fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tooltable-bench-{}", std::process::id()));
    if let Err(e) = std::fs::create_dir_all(&dir) {
        fail(&format!("cannot create {}: {e}", dir.display()));
    }
    dir
}

fn fail(message: &str) -> ! {
    eprintln!("served requests: {message}");
    std::process::exit(2);
}

/// What the client asks, again and again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    /// `tools/list`.
    List,
    /// `tools/call` of the trivial tool.
    Call,
    /// `tools/call` of the tool with every kind of field.
    CallRegular,
}

impl Ask {
    /// Everything asked, in the order the suite measures it.
    pub const ALL: [Ask; 3] = [Ask::List, Ask::Call, Ask::CallRegular];

    /// The word in metric names and on `harness serve`'s command line.
    pub fn word(self) -> &'static str {
        match self {
            Ask::List => "list",
            Ask::Call => "call",
            Ask::CallRegular => "call-regular",
        }
    }

    /// The method, and the tool a call names.
    fn method(self) -> (&'static str, Option<&'static str>) {
        match self {
            Ask::List => ("tools/list", None),
            Ask::Call => ("tools/call", Some(TRIVIAL_TOOL)),
            Ask::CallRegular => ("tools/call", Some(REGULAR_TOOL)),
        }
    }

    /// The request as a line of an `initialize`-era stdio session.
    fn line(self) -> Vec<u8> {
        match self {
            Ask::List => LIST_LINE.to_vec(),
            Ask::Call | Ask::CallRegular => {
                let (tool, arguments) = self.call();
                format!(
                    "{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{{\"name\":\"{tool}\",\"arguments\":{arguments}}}}}\n"
                )
                .into_bytes()
            }
        }
    }

    /// The request as the body of a stateless 2026-07-28 POST.
    fn body(self) -> String {
        match self {
            Ask::List => LIST_BODY.to_owned(),
            Ask::Call | Ask::CallRegular => {
                let (tool, arguments) = self.call();
                format!(
                    "{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{{\"name\":\"{tool}\",\"arguments\":{arguments},\"_meta\":{META}}}}}"
                )
            }
        }
    }

    fn call(self) -> (&'static str, &'static str) {
        match self {
            Ask::Call => (TRIVIAL_TOOL, TRIVIAL_ARGUMENTS),
            _ => (REGULAR_TOOL, REGULAR_ARGUMENTS),
        }
    }
}

/// The `_meta` of a 2026-07-28 request: the revision's keys (the protocol
/// version and the client's capabilities are required, its info is sent as
/// clients send it).
const META: &str = r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"tooltable-bench","version":"0"},"io.modelcontextprotocol/clientCapabilities":{}}"#;

const INITIALIZE: &[u8] = br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"tooltable-bench","version":"0"}}}
"#;
const INITIALIZED: &[u8] = b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n";
const LIST_LINE: &[u8] = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}\n";

/// A 2026-07-28 `tools/list` body: the revision's `_meta` keys (the
/// protocol version and the client's capabilities are required, its info
/// is sent as clients send it).
pub const LIST_BODY: &str = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"tooltable-bench","version":"0"},"io.modelcontextprotocol/clientCapabilities":{}}}}"#;

/// A whole HTTP/1.1 POST of `body` to `/mcp` with the 2026-07-28 headers.
pub fn http_request(address: &str, method: &str, name: Option<&str>, body: &str) -> Vec<u8> {
    let name = name.map_or_else(String::new, |name| format!("Mcp-Name: {name}\r\n"));
    format!(
        "POST /mcp HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: {method}\r\n{name}Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// Whether HTTP requests go through an `initialize` session (revision
/// 2025-11-25, `Mcp-Session-Id` on every request) rather than stateless
/// 2026-07-28 POSTs: in the harness that links the other frameworks'
/// twins, whose HTTP transports all serve sessions and none serves the
/// stateless revision as built (tower-mcp only with a feature of its own),
/// every side is reached the same way.
fn sessions() -> bool {
    !crate::crates::PEERS.is_empty()
}

/// A whole HTTP/1.1 POST of `body` to `/mcp` in an `initialize` session
/// (none yet when `session` is empty, as for `initialize` itself).
fn session_request(address: &str, session: &str, body: &str) -> Vec<u8> {
    let session = if session.is_empty() {
        String::new()
    } else {
        format!("Mcp-Session-Id: {session}\r\nMCP-Protocol-Version: 2025-11-25\r\n")
    };
    format!(
        "POST /mcp HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n{session}Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// A reply as it came: its bytes (the line with its newline, or the HTTP
/// body) and, over HTTP, its content type.
pub struct Reply {
    /// The bytes to write back.
    pub bytes: Vec<u8>,
    /// The `Content-Type` (empty on stdio).
    pub content_type: String,
}

/// How a client reaches one server process.
enum Connection {
    Stdio {
        input: ChildStdin,
        output: BufReader<ChildStdout>,
        /// The request, a line.
        request: Vec<u8>,
    },
    Http {
        stream: BufReader<TcpStream>,
        request: Vec<u8>,
        /// The server's address, for the `Host` header.
        address: String,
        /// Kept so that the process stops when this client does.
        _input: ChildStdin,
    },
}

/// One server process and the connection to it.
struct Endpoint {
    side: Side,
    ask: Ask,
    child: Child,
    connection: Connection,
    clock: libc::clockid_t,
    reply: Vec<u8>,
    reply_len: usize,
    content_type: String,
    /// The last `Mcp-Session-Id` the server sent.
    session: String,
}

impl Endpoint {
    /// Starts `harness serve` for one side and connects to it, to ask
    /// `ask`.
    fn start(
        side: Side,
        n: usize,
        transport: Transport,
        ask: Ask,
        reply: Option<(&Path, &str)>,
    ) -> Endpoint {
        // This very binary, even if a rebuild has replaced the file since.
        let mut command = Command::new("/proc/self/exe");
        command
            .args(["serve", "--side", side.word(), "--n", &n.to_string()])
            .args(["--transport", transport.word()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        if let Some((path, content_type)) = reply {
            command.arg("--reply").arg(path);
            if !content_type.is_empty() {
                command.args(["--content-type", content_type]);
            }
            if ask != Ask::List {
                command.arg("--parse");
            }
        }
        let mut child = command
            .spawn()
            .unwrap_or_else(|e| fail(&format!("cannot start the {} server: {e}", side.word())));
        let input = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        widen(&stdout);
        let mut output = BufReader::with_capacity(1 << 20, stdout);
        let connection = match transport {
            Transport::Stdio => Connection::Stdio {
                input,
                output,
                request: ask.line(),
            },
            Transport::Http => {
                let mut address = String::new();
                if output.read_line(&mut address).unwrap_or(0) == 0 {
                    fail(&format!("the {} server said no address", side.word()));
                }
                let address = address.trim().to_owned();
                let stream = TcpStream::connect(&address).unwrap_or_else(|e| {
                    fail(&format!(
                        "cannot connect to the {} server at {address}: {e}",
                        side.word()
                    ))
                });
                let _ = stream.set_nodelay(true);
                Connection::Http {
                    stream: BufReader::with_capacity(1 << 20, stream),
                    request: {
                        let (method, name) = ask.method();
                        http_request(&address, method, name, &ask.body())
                    },
                    address,
                    _input: input,
                }
            }
        };
        let mut clock: libc::clockid_t = 0;
        // SAFETY: `clock` is a valid place for the clock id.
        let rc = unsafe { libc::clock_getcpuclockid(child.id() as libc::pid_t, &mut clock) };
        if rc != 0 {
            fail(&format!(
                "cannot read the CPU clock of the {} server (error {rc})",
                side.word()
            ));
        }
        Endpoint {
            side,
            ask,
            child,
            connection,
            clock,
            reply: Vec::with_capacity(1 << 20),
            reply_len: 0,
            content_type: String::new(),
            session: String::new(),
        }
    }

    /// The `initialize` handshake on stdio, and over HTTP in the session
    /// era (see [`sessions`]); nothing over stateless HTTP, whose requests
    /// carry their revision.
    fn handshake(&mut self) {
        let side = self.side.word();
        if let Connection::Http {
            stream,
            request,
            address,
            ..
        } = &mut self.connection
        {
            if !sessions() {
                return;
            }
            let initialize = std::str::from_utf8(INITIALIZE).unwrap_or_default().trim_end();
            let initialized = std::str::from_utf8(INITIALIZED).unwrap_or_default().trim_end();
            let (reply, content_type) = (&mut self.reply, &mut self.content_type);
            let mut session = String::new();
            let mut ignored = String::new();
            let answered = stream
                .get_mut()
                .write_all(&session_request(address, "", initialize))
                .and_then(|()| read_response(stream, reply, content_type, &mut session));
            if !matches!(answered, Ok(200)) {
                fail(&format!(
                    "the {side} server did not answer initialize over HTTP ({answered:?}): {}",
                    excerpt(reply)
                ));
            }
            let answered = stream
                .get_mut()
                .write_all(&session_request(address, &session, initialized))
                .and_then(|()| read_response(stream, reply, content_type, &mut ignored));
            if !matches!(answered, Ok(200..=299)) {
                fail(&format!(
                    "the {side} server did not take notifications/initialized over HTTP ({answered:?}): {}",
                    excerpt(reply)
                ));
            }
            let line = self.ask.line();
            let body = std::str::from_utf8(&line).unwrap_or_default().trim_end();
            *request = session_request(address, &session, body);
            return;
        }
        if let Connection::Stdio { input, output, .. } = &mut self.connection {
            self.reply.clear();
            let answered = input
                .write_all(INITIALIZE)
                .and_then(|()| output.read_until(b'\n', &mut self.reply));
            let value: Option<Value> = serde_json::from_slice(&self.reply).ok();
            if !matches!(answered, Ok(1..))
                || value
                    .as_ref()
                    .and_then(|v| v.pointer("/result/protocolVersion"))
                    .is_none()
            {
                fail(&format!(
                    "the {side} server did not answer initialize: {}",
                    excerpt(&self.reply)
                ));
            }
            if let Err(e) = input.write_all(INITIALIZED) {
                fail(&format!("cannot write to the {side} server: {e}"));
            }
        }
    }

    /// Sends the request once and reads the whole reply into `self.reply`
    /// (over HTTP, its content type into `self.content_type`).
    fn round_trip(&mut self) -> std::io::Result<()> {
        self.reply.clear();
        match &mut self.connection {
            Connection::Stdio {
                input,
                output,
                request,
            } => {
                input.write_all(request)?;
                if output.read_until(b'\n', &mut self.reply)? == 0 {
                    return Err(std::io::ErrorKind::UnexpectedEof.into());
                }
            }
            Connection::Http {
                stream, request, ..
            } => {
                stream.get_mut().write_all(request)?;
                let status = read_response(
                    stream,
                    &mut self.reply,
                    &mut self.content_type,
                    &mut self.session,
                )?;
                if status != 200 {
                    return Err(std::io::Error::other(format!("HTTP status {status}")));
                }
            }
        }
        Ok(())
    }

    /// The first reply, parsed and checked: a listing with all `n` tools,
    /// or a call's result that is not an error.
    fn first(&mut self, n: usize) -> Reply {
        let side = self.side.word();
        let (method, _) = self.ask.method();
        if let Err(e) = self.round_trip() {
            fail(&format!("the {side} server did not answer {method}: {e}"));
        }
        let content_type = match &self.connection {
            Connection::Stdio { .. } => String::new(),
            Connection::Http { .. } => self.content_type.clone(),
        };
        let message = if content_type.starts_with("text/event-stream") {
            sse_message(&self.reply)
        } else {
            Some(self.reply.clone())
        };
        let value: Option<Value> = message.and_then(|m| serde_json::from_slice(&m).ok());
        if self.ask != Ask::List {
            let result = value.as_ref().and_then(|v| v.get("result"));
            if result.is_none_or(|r| r.get("isError") == Some(&Value::Bool(true))) {
                fail(&format!(
                    "the {side} server's first {method} is not a result: {}",
                    excerpt(&self.reply)
                ));
            }
            self.reply_len = self.reply.len();
            return Reply {
                bytes: self.reply.clone(),
                content_type,
            };
        }
        let listed = value
            .as_ref()
            .and_then(|v| v.pointer("/result/tools"))
            .and_then(Value::as_array)
            .map(Vec::len);
        if listed != Some(n) {
            fail(&format!(
                "the {side} server's first tools/list is not a listing of its {n} tools ({} tools): {}",
                listed.map_or_else(|| "no".to_owned(), |l| l.to_string()),
                excerpt(&self.reply)
            ));
        }
        self.reply_len = self.reply.len();
        Reply {
            bytes: self.reply.clone(),
            content_type,
        }
    }

    /// Serves `requests` requests and returns the CPU time the server spent.
    fn serve(&mut self, requests: u64) -> Duration {
        let before = self.cpu();
        for _ in 0..requests {
            if let Err(e) = self.round_trip() {
                fail(&format!(
                    "the {} server stopped answering: {e}",
                    self.side.word()
                ));
            }
            // Framing only: a reply of another length than the first (an
            // error, another page) would make the figure meaningless.
            let stable = match self.connection {
                Connection::Stdio { .. } => self.reply.len() == self.reply_len,
                Connection::Http { .. } => self.reply.len().abs_diff(self.reply_len) < 64,
            };
            if !stable {
                fail(&format!(
                    "the {} server's reply changed from {} to {} bytes: {}",
                    self.side.word(),
                    self.reply_len,
                    self.reply.len(),
                    excerpt(&self.reply)
                ));
            }
        }
        self.cpu().saturating_sub(before)
    }

    /// The server process's CPU time so far, every thread, user and system.
    fn cpu(&self) -> Duration {
        let mut now = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `now` is a valid timespec to write to.
        if unsafe { libc::clock_gettime(self.clock, &mut now) } != 0 {
            fail(&format!(
                "cannot read the {} server's CPU clock",
                self.side.word()
            ));
        }
        Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
    }

    /// Checks the clock against /proc/PID/stat, then ends the process.
    fn stop(mut self) {
        let clock = self.cpu();
        if let Some(stat) = proc_cpu(self.child.id()) {
            let tolerance = Duration::from_millis(50) + clock / 20;
            if clock.abs_diff(stat) > tolerance {
                eprintln!(
                    "served requests: the {} server's CPU clock says {clock:?}, /proc says {stat:?}",
                    self.side.word()
                );
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The most a pipe should hold: the largest answer (2 MB at N = 1000) and
/// then some.
const PIPE_BYTES: libc::c_int = 4 << 20;

/// Makes the pipe of a server's stdout hold a whole answer, so that the
/// server never waits mid-answer for this client to read: its CPU time is
/// then its own work, not a function of how the client reads. Without the
/// privilege to go beyond /proc/sys/fs/pipe-max-size, as far as that.
fn widen(pipe: &ChildStdout) {
    use std::os::fd::AsRawFd;
    let fd = pipe.as_raw_fd();
    let limit = std::fs::read_to_string("/proc/sys/fs/pipe-max-size")
        .ok()
        .and_then(|s| s.trim().parse::<libc::c_int>().ok())
        .unwrap_or(1 << 20);
    for size in [PIPE_BYTES, limit.min(PIPE_BYTES)] {
        // SAFETY: fcntl on a pipe this process owns; a refusal is harmless.
        if unsafe { libc::fcntl(fd, libc::F_SETPIPE_SZ, size) } >= 0 {
            return;
        }
    }
}

/// utime + stime of a process, from /proc/PID/stat.
fn proc_cpu(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    // After the command: state is field 3, utime 14 and stime 15.
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // SAFETY: sysconf has no preconditions.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    let per_second = u64::try_from(per_second).ok().filter(|t| *t > 0)?;
    Some(Duration::from_nanos(ticks * 1_000_000_000 / per_second))
}

/// Reads one HTTP/1.1 response: returns its status, leaves its body in
/// `body`, its content type in `content_type` and the session it names
/// (`Mcp-Session-Id`, if any) in `session`. Bodies are framed by
/// `Content-Length` or chunked encoding; nothing in them is parsed.
pub fn read_response(
    stream: &mut BufReader<TcpStream>,
    body: &mut Vec<u8>,
    content_type: &mut String,
    session: &mut String,
) -> std::io::Result<u16> {
    let eof = || std::io::Error::from(std::io::ErrorKind::UnexpectedEof);
    body.clear();
    content_type.clear();
    session.clear();
    let mut line = String::new();
    if stream.read_line(&mut line)? == 0 {
        return Err(eof());
    }
    let status = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse::<u16>().ok())
        .ok_or_else(|| std::io::Error::other(format!("not an HTTP status line: {line:?}")))?;
    let mut length = None;
    let mut chunked = false;
    loop {
        line.clear();
        if stream.read_line(&mut line)? == 0 {
            return Err(eof());
        }
        let header = line.trim_end();
        if header.is_empty() {
            break;
        }
        let Some((name, value)) = header.split_once(':') else {
            continue;
        };
        let value = value.trim();
        if name.eq_ignore_ascii_case("content-length") {
            length = value.parse::<usize>().ok();
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            chunked = value.eq_ignore_ascii_case("chunked");
        } else if name.eq_ignore_ascii_case("content-type") {
            content_type.push_str(value);
        } else if name.eq_ignore_ascii_case("mcp-session-id") {
            session.push_str(value);
        }
    }
    if chunked {
        loop {
            line.clear();
            if stream.read_line(&mut line)? == 0 {
                return Err(eof());
            }
            let size = line.trim_end().split(';').next().unwrap_or("");
            let size = usize::from_str_radix(size.trim(), 16)
                .map_err(|_| std::io::Error::other(format!("not a chunk size: {line:?}")))?;
            if size == 0 {
                // Trailers, up to the empty line.
                loop {
                    line.clear();
                    if stream.read_line(&mut line)? == 0 || line.trim_end().is_empty() {
                        break;
                    }
                }
                break;
            }
            let start = body.len();
            body.resize(start + size, 0);
            stream.read_exact(&mut body[start..])?;
            let mut crlf = [0u8; 2];
            stream.read_exact(&mut crlf)?;
        }
    } else if let Some(length) = length {
        body.resize(length, 0);
        stream.read_exact(body)?;
    } else if !matches!(status, 202 | 204 | 304) {
        // A 202 (an accepted notification) without a length has no body.
        stream.read_to_end(body)?;
    }
    Ok(status)
}

/// The JSON-RPC response in a server-sent event stream: the data of the
/// event that carries an `id`.
pub fn sse_message(body: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(body).ok()?;
    text.split("\n\n").find_map(|event| {
        let data: Vec<&str> = event
            .lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .map(|d| d.strip_prefix(' ').unwrap_or(d))
            .collect();
        let data = data.join("\n");
        let value: Value = serde_json::from_str(&data).ok()?;
        value.get("id").is_some().then(|| data.into_bytes())
    })
}

/// The start of a reply, for error messages.
pub fn excerpt(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(300)]).into_owned();
    if bytes.len() > 300 {
        format!("{text}…")
    } else {
        text
    }
}
