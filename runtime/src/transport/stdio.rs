//! The stdio transport: newline-delimited JSON-RPC, guarded.
//!
//! Lines are read with a bound on their length and handed to the guard
//! ([`super::guard`]); a line that passes goes to rmcp through an in-process
//! pipe, and a line that does not is answered here, as are the requests the
//! adapter's shortcut answers before rmcp ([`crate::mcp::shortcut`]): a
//! `tools/list` from the descriptors' text, and a `tools/call` of a tool
//! that cannot talk back, run on a task of its own. Every write to the
//! output is of whole lines, so an answer never interleaves with another.
//!
//! Each request rmcp or the shortcut is given is recorded in flight ([`super::inflight`])
//! until its answer is written: an id already in flight is refused, and
//! while the limit of requests in flight is reached no more input is read,
//! so a client that does not read its answers is held back instead of
//! growing the server. When the input ends or the server is shut down, the
//! requests in flight get up to the grace period to finish (requests that
//! arrive meanwhile are refused, answers to the server's questions still
//! go through); what is left is answered with an error and cancelled, and
//! serving returns with every answer written.
//!
//! The process's own stdin and stdout are polled by the runtime where they
//! can be ([`super::polled`]): a request is then read, answered and written
//! by the worker woken for it. Where they cannot be, each is used from a
//! thread of its own, and a listing is answered on the thread that read
//! it, straight to stdout: a listing then costs a read, a parse and a
//! write, with no thread woken to pass it along.

use super::erased::Erased;
use crate::call::handler::BoxFuture;
use crate::mcp::listing::Answer as Listing;
use crate::mcp::shortcut::{Asked, CallParams, Pending, Shortcut};
use crate::registry::policy::Caller;
use crate::transport::error::ServeError;
use crate::transport::guard::{self, Kind, Unread};
use crate::transport::inflight::{self, InFlight};
use crate::transport::limits::Limits;
use rmcp::ServiceExt;
use rmcp::transport::async_rw::AsyncRwTransport;
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use tokio::io::{
    AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt,
};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

/// The in-process pipe between the guard and rmcp.
const PIPE_BYTES: usize = 1 << 20;
/// Lines read ahead of the guard; reading waits beyond this.
const LINES_AHEAD: usize = 16;

/// One unit of input.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Incoming {
    /// A whole line, without its newline.
    Line(Vec<u8>),
    /// A line longer than the limit, read and thrown away.
    TooLong,
}

/// Where the lines come from and the answers go.
pub(crate) enum Ends<R, W> {
    /// The process's stdin and stdout where the runtime cannot poll them,
    /// each used from a thread of its own: a blocking read of stdin cannot
    /// be cancelled, and a thread of the runtime's blocking pool would keep
    /// the runtime from shutting down on a signal; tokio's stdout sends every write and every flush to its
    /// blocking pool, a thread switch each, which is most of what an answer
    /// costs.
    Process,
    /// An async reader and writer (a pipe, a socket, a test's duplex stream).
    Io(R, W),
}

/// The writer of the output, as [`write_out`] uses it. Each crosses the
/// requests a write answers off as in flight once the write reached the
/// output.
enum Out<W> {
    Async(W, Arc<InFlight>),
    Thread(StdoutThread),
}

impl<W: AsyncWrite + Unpin> Out<W> {
    /// Writes a listing's line where it lies, without copying it into one
    /// buffer first.
    async fn put_listing(&mut self, listing: &Listing) -> std::io::Result<()> {
        match self {
            Out::Async(writer, _) => {
                let mut parts = listing.line_parts();
                let mut rest = &mut parts[..];
                while !rest.is_empty() {
                    match writer.write_vectored(rest).await? {
                        0 => return Err(std::io::ErrorKind::WriteZero.into()),
                        written => std::io::IoSlice::advance_slices(&mut rest, written),
                    }
                }
                writer.flush().await
            }
            Out::Thread(thread) => {
                let mut line = Vec::new();
                listing.write_line(&mut line)?;
                thread.put(line, Vec::new()).await
            }
        }
    }

    /// Writes whole lines, the answers to the requests under `answered`
    /// (claimed in flight) among them.
    async fn put(&mut self, lines: &[u8], answered: Vec<guard::RequestId>) -> std::io::Result<()> {
        match self {
            Out::Async(writer, inflight) => {
                let wrote = async {
                    writer.write_all(lines).await?;
                    writer.flush().await
                }
                .await;
                // Done with even when the write failed: nothing will be
                // written after it.
                inflight.written(answered);
                wrote
            }
            Out::Thread(thread) => thread.put(lines.to_vec(), answered).await,
        }
    }

    /// Waits until everything put was written.
    async fn finish(self) -> std::io::Result<()> {
        match self {
            Out::Async(mut writer, _) => writer.flush().await,
            Out::Thread(thread) => thread.finish().await,
        }
    }
}

/// A thread that writes what it is given to stdout, flushing whenever it
/// has nothing more to write. It holds stdout's lock only while it writes,
/// so the thread reading stdin can write a listing between two of its
/// batches (each batch is whole lines). The answers a batch carries are
/// written once it is flushed: the reading thread answers a listing only
/// under an id whose earlier answer is not still being written.
struct StdoutThread {
    chunks: mpsc::Sender<(Vec<u8>, Vec<guard::RequestId>)>,
    done: tokio::sync::oneshot::Receiver<std::io::Result<()>>,
}

impl StdoutThread {
    fn start(inflight: Arc<InFlight>) -> Result<StdoutThread, ServeError> {
        let (chunks, mut received) = mpsc::channel::<(Vec<u8>, Vec<_>)>(LINES_AHEAD);
        let (finished, done) = tokio::sync::oneshot::channel();
        std::thread::Builder::new()
            .name("tooltable-stdout".into())
            .spawn(move || {
                let stdout = std::io::stdout();
                let mut write = || -> std::io::Result<()> {
                    while let Some((chunk, mut answered)) = received.blocking_recv() {
                        let mut out = stdout.lock();
                        let mut wrote = out.write_all(&chunk);
                        while wrote.is_ok()
                            && let Ok((more, also)) = received.try_recv()
                        {
                            wrote = out.write_all(&more);
                            answered.extend(also);
                        }
                        let wrote = wrote.and_then(|()| out.flush());
                        drop(out);
                        // Done with even when the write failed: nothing
                        // will be written after it.
                        inflight.written(answered);
                        wrote?;
                    }
                    stdout.lock().flush()
                };
                let _ = finished.send(write());
            })
            .map_err(|e| ServeError::io("cannot start the thread that writes stdout", e))?;
        Ok(StdoutThread { chunks, done })
    }

    async fn put(
        &mut self,
        chunk: Vec<u8>,
        answered: Vec<guard::RequestId>,
    ) -> std::io::Result<()> {
        if self.chunks.send((chunk, answered)).await.is_ok() {
            return Ok(());
        }
        // The thread stopped: its error says why.
        match (&mut self.done).await {
            Ok(Err(error)) => Err(error),
            _ => Err(std::io::ErrorKind::BrokenPipe.into()),
        }
    }

    async fn finish(self) -> std::io::Result<()> {
        drop(self.chunks);
        self.done
            .await
            .unwrap_or_else(|_| Err(std::io::ErrorKind::BrokenPipe.into()))
    }
}

/// Listings answered on the thread that reads stdin, written to stdout
/// there and then.
struct ReaderShortcut {
    shortcut: Arc<dyn Shortcut>,
    max_depth: usize,
    /// A listing whose id is in flight is left to the guard, which refuses
    /// it; one whose id's answer is being written, to the guard too, which
    /// answers it after that answer.
    inflight: Arc<InFlight>,
    /// The lines handed to the guard that it has not yet been through: a
    /// listing is answered here only when there are none, so that it never
    /// overtakes an earlier request under its id.
    behind: Arc<AtomicUsize>,
    /// Cleared when serving ends: a line read after that is not answered.
    serving: Arc<AtomicBool>,
    /// Once the server is shutting down, listings too go to the guard,
    /// which refuses them.
    shutdown: CancellationToken,
}

/// What [`ReaderShortcut::answer`] did with a line.
enum Answered {
    /// It was a listing, and its answer was written.
    Yes,
    /// It is for the guard and rmcp.
    No,
    /// Stdout could not be written.
    Failed(std::io::Error),
}

impl ReaderShortcut {
    fn answer(&self, line: &[u8]) -> Answered {
        // Most lines are not listings; finding that out costs a scan, not a parse.
        // Deciding on the bytes is only a shortcut: a listing written with
        // escapes is still one, answered on the guard's path.
        if !self.serving.load(Ordering::Acquire)
            || self.shutdown.is_cancelled()
            || self.behind.load(Ordering::Acquire) > 0
            || memchr::memmem::find(line, b"tools/list").is_none()
            || !guard::inspect(line, self.max_depth).is_ok_and(|passed| {
                passed.lists_tools()
                    && passed.id.is_some_and(|id| {
                        self.inflight.refusal(&id).is_none() && !self.inflight.being_written(&id)
                    })
            })
        {
            return Answered::No;
        }
        // Nobody authenticates on stdio: the caller is whoever started the
        // server.
        let Some(answer) = self.shortcut.list(line, &Caller::operator(), Asked::Stdio) else {
            return Answered::No;
        };
        let mut out = std::io::stdout().lock();
        match answer.write_line(&mut out).and_then(|()| out.flush()) {
            Ok(()) => Answered::Yes,
            Err(error) => Answered::Failed(error),
        }
    }
}

/// Serves `server` on the process's stdin and stdout until stdin ends or
/// `shutdown` is cancelled: polled by the runtime where they can be, on
/// threads of their own otherwise. The future is boxed here so that the
/// transport is compiled in this crate, not in each crate that serves.
pub(crate) fn serve_process(
    server: Erased,
    limits: Limits,
    shortcut: Option<Arc<dyn Shortcut>>,
    shutdown: CancellationToken,
) -> BoxFuture<'static, Result<(), ServeError>> {
    Box::pin(async move {
        #[cfg(target_os = "linux")]
        if let Some((input, output)) = super::polled::stdin_and_stdout().await {
            return serve(server, Ends::Io(input, output), limits, shortcut, shutdown).await;
        }
        let threads = Ends::<tokio::io::Empty, tokio::io::Sink>::Process;
        serve(server, threads, limits, shortcut, shutdown).await
    })
}

/// Serves `server` over any reader and writer, as [`serve`] does, with
/// their types erased and the future boxed here, so that the transport is
/// compiled in this crate, not in each crate that serves.
pub(crate) fn serve_io(
    server: Erased,
    reader: Pin<Box<dyn AsyncRead + Send>>,
    writer: Pin<Box<dyn AsyncWrite + Send>>,
    limits: Limits,
    shortcut: Option<Arc<dyn Shortcut>>,
    shutdown: CancellationToken,
) -> BoxFuture<'static, Result<(), ServeError>> {
    Box::pin(serve(
        server,
        Ends::Io(reader, writer),
        limits,
        shortcut,
        shutdown,
    ))
}

/// Serves `server` over newline-delimited JSON-RPC until the input ends or
/// `shutdown` is cancelled.
pub(crate) async fn serve<R, W>(
    server: Erased,
    ends: Ends<R, W>,
    limits: Limits,
    shortcut: Option<Arc<dyn Shortcut>>,
    shutdown: CancellationToken,
) -> Result<(), ServeError>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (lines_tx, lines_rx) = mpsc::channel(LINES_AHEAD);
    let serving = Arc::new(AtomicBool::new(true));
    let inflight = Arc::new(InFlight::new(limits.max_in_flight));
    let behind = Arc::new(AtomicUsize::new(0));
    let output = match ends {
        Ends::Io(reader, writer) => {
            tokio::spawn(read_lines(
                tokio::io::BufReader::new(reader),
                limits.max_request_bytes,
                lines_tx,
            ));
            Out::Async(writer, inflight.clone())
        }
        Ends::Process => {
            let output = Out::Thread(StdoutThread::start(inflight.clone())?);
            let max = limits.max_request_bytes;
            let on_reader = shortcut.clone().map(|shortcut| ReaderShortcut {
                shortcut,
                max_depth: limits.max_depth,
                inflight: inflight.clone(),
                behind: behind.clone(),
                serving: serving.clone(),
                shutdown: shutdown.clone(),
            });
            std::thread::Builder::new()
                .name("tooltable-stdin".into())
                .spawn(move || read_stdin(max, on_reader, lines_tx))
                .map_err(|e| ServeError::io("cannot start the thread that reads stdin", e))?;
            output
        }
    };
    let (rmcp_side, guard_side) = tokio::io::duplex(PIPE_BYTES);
    let (from_rmcp, to_rmcp) = tokio::io::split(guard_side);
    let (answers_tx, answers_rx) = mpsc::channel::<ToWrite>(LINES_AHEAD);
    // rmcp is stopped by the guard, once the requests in flight were
    // answered or the grace period ended: rmcp's own drain at the end of
    // its input gives up after a few seconds, dropping the answers.
    let rmcp_stop = CancellationToken::new();
    let writer = tokio::spawn(write_out(
        output,
        from_rmcp,
        answers_rx,
        inflight.clone(),
        rmcp_stop.clone(),
    ));
    tokio::spawn(guard_lines(
        lines_rx,
        to_rmcp,
        answers_tx,
        Guarding {
            limits,
            shortcut,
            inflight,
            behind,
            shutdown,
            rmcp_stop: rmcp_stop.clone(),
        },
    ));

    let (read, write) = tokio::io::split(rmcp_side);
    // The guard already refused longer lines; rmcp's own limit only backs it up.
    let transport = AsyncRwTransport::new_server(read, write)
        .with_max_line_length(limits.max_request_bytes.saturating_add(1));
    match server.serve_with_ct(transport, rmcp_stop.clone()).await {
        // Once the guard stops rmcp, everything in flight is answered:
        // rmcp's drain (seconds, for a handler cut off at the end of the
        // grace period) holds no answer a client waits for, so serving
        // does not wait for it.
        Ok(running) => tokio::select! {
            ended = running.waiting() => {
                if let Err(e) = ended {
                    tracing::warn!(error = %e, "the stdio session ended with an error");
                }
            }
            () = rmcp_stop.cancelled() => {}
        },
        // rmcp starts on the first message it is given; a session the
        // shortcut answered whole (listings and calls, then the end of the
        // input) gave it none, and ends as any session does.
        Err(_) if rmcp_stop.is_cancelled() => {}
        Err(e) => {
            return Err(ServeError::protocol(format!(
                "cannot start serving on stdio: {e}"
            )));
        }
    }
    serving.store(false, Ordering::Release);
    // rmcp has closed its end of the pipe; wait until everything it wrote,
    // and every answer of the guard, reached the output.
    writer
        .await
        .map_err(|e| ServeError::protocol(format!("the stdio writer failed: {e}")))?
        .map_err(|e| ServeError::io("cannot write to the output", e))
}

/// Reads lines from an async reader until it ends.
async fn read_lines<R: AsyncBufRead + Unpin>(
    mut reader: R,
    max: usize,
    lines: mpsc::Sender<Incoming>,
) {
    loop {
        let mut line = Vec::new();
        match read_bounded_line(&mut reader, &mut line, max).await {
            Ok(Some(incoming)) => {
                if lines.send(incoming).await.is_err() {
                    return;
                }
            }
            Ok(None) => return,
            Err(error) => {
                tracing::warn!(%error, "cannot read the input; stopping");
                return;
            }
        }
    }
}

/// Reads stdin on its own thread until it ends, answering the listings
/// `on_reader` can answer.
fn read_stdin(max: usize, on_reader: Option<ReaderShortcut>, lines: mpsc::Sender<Incoming>) {
    let stdin = std::io::stdin();
    let mut reader = stdin.lock();
    loop {
        let mut line = Vec::new();
        match read_bounded_line_blocking(&mut reader, &mut line, max) {
            Ok(Some(Incoming::Line(line)))
                if let Some(on_reader) = &on_reader
                    && let answered = on_reader.answer(&line)
                    && !matches!(answered, Answered::No) =>
            {
                if let Answered::Failed(error) = answered {
                    tracing::warn!(%error, "cannot write stdout; stopping");
                    return;
                }
            }
            Ok(Some(incoming)) => {
                if let Some(on_reader) = &on_reader {
                    on_reader.behind.fetch_add(1, Ordering::AcqRel);
                }
                if lines.blocking_send(incoming).is_err() {
                    return;
                }
            }
            Ok(None) => return,
            Err(error) => {
                tracing::warn!(%error, "cannot read stdin; stopping");
                return;
            }
        }
    }
}

/// What one step of line reading found.
enum Step {
    /// The line ended (a newline was consumed).
    Ended,
    /// More bytes are needed.
    More,
}

/// Takes what `available` holds of the current line into `line`, never
/// keeping more than `max` bytes. Returns how many bytes were consumed and
/// whether the line ended.
fn take_line_bytes(
    available: &[u8],
    line: &mut Vec<u8>,
    too_long: &mut bool,
    max: usize,
) -> (usize, Step) {
    let (chunk, step) = match available.iter().position(|b| *b == b'\n') {
        Some(end) => (&available[..end], Step::Ended),
        None => (available, Step::More),
    };
    if !*too_long && line.len() + chunk.len() > max {
        *too_long = true;
        line.clear();
        line.shrink_to_fit();
    }
    if !*too_long {
        line.extend_from_slice(chunk);
    }
    let consumed = chunk.len() + usize::from(matches!(step, Step::Ended));
    (consumed, step)
}

fn finish_line(line: &mut Vec<u8>, too_long: bool) -> Incoming {
    if too_long {
        Incoming::TooLong
    } else {
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        Incoming::Line(std::mem::take(line))
    }
}

/// Reads one line, or `None` at the end of the input.
pub(crate) async fn read_bounded_line<R: AsyncBufRead + Unpin>(
    reader: &mut R,
    line: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<Option<Incoming>> {
    let mut too_long = false;
    let mut started = false;
    loop {
        let available = reader.fill_buf().await?;
        if available.is_empty() {
            return Ok(started.then(|| finish_line(line, too_long)));
        }
        started = true;
        let (consumed, step) = take_line_bytes(available, line, &mut too_long, max);
        reader.consume(consumed);
        if let Step::Ended = step {
            return Ok(Some(finish_line(line, too_long)));
        }
    }
}

fn read_bounded_line_blocking<R: BufRead>(
    reader: &mut R,
    line: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<Option<Incoming>> {
    let mut too_long = false;
    let mut started = false;
    loop {
        let available = match reader.fill_buf() {
            Ok(available) => available,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(started.then(|| finish_line(line, too_long)));
        }
        started = true;
        let (consumed, step) = take_line_bytes(available, line, &mut too_long, max);
        reader.consume(consumed);
        if let Step::Ended = step {
            return Ok(Some(finish_line(line, too_long)));
        }
    }
}

/// What the guard works with besides its channels.
struct Guarding {
    limits: Limits,
    shortcut: Option<Arc<dyn Shortcut>>,
    inflight: Arc<InFlight>,
    /// The lines read on stdin's own thread and not yet through the guard
    /// ([`ReaderShortcut::behind`]); counted down as each one is.
    behind: Arc<AtomicUsize>,
    /// The server is shutting down.
    shutdown: CancellationToken,
    /// Stops rmcp, once nothing is left for it to answer.
    rmcp_stop: CancellationToken,
}

/// What the guard decides of one line read.
enum Verdict {
    /// Nothing to do (a blank line, a stray message before the first request).
    Skip,
    /// Answered by the guard with this refusal.
    Refuse(guard::Refused),
    /// A listing answered from the descriptors' text.
    Listed(Listing),
    /// A request for rmcp, which must first take its place among the
    /// requests in flight; a `tools/call` whose params the guard read
    /// (`call`) goes to the shortcut first, which runs it if it can.
    Enter {
        id: guard::RequestId,
        line: Vec<u8>,
        call: Option<CallParams>,
    },
    /// A notification or response for rmcp.
    Forward(Vec<u8>),
}

/// What the guard remembers from line to line.
struct Judge {
    limits: Limits,
    shortcut: Option<Arc<dyn Shortcut>>,
    /// Nobody authenticates on stdio: the caller is whoever started the
    /// server.
    operator: Caller,
    /// rmcp ends a stdio session whose first message is not a request; a
    /// stray notification or response before rmcp's first request (the
    /// shortcut's calls are not rmcp's) is dropped here instead (they are
    /// never answered anyway).
    opened: bool,
    /// How errors answer a request whose id is unknown: until an
    /// `initialize` says otherwise, as the current revision does.
    unread: Unread,
    /// When the grace period ends, once the server is shutting down.
    stopping: Option<tokio::time::Instant>,
    /// The calls the shortcut is running.
    calls: Arc<Calls>,
}

impl Judge {
    /// The verdict on `incoming`, given the requests in flight.
    fn judge(&mut self, incoming: Incoming, inflight: &InFlight) -> Verdict {
        let line = match incoming {
            Incoming::TooLong => {
                tracing::warn!(
                    max_request_bytes = self.limits.max_request_bytes,
                    "a message larger than the limit was refused"
                );
                return Verdict::Refuse(guard::too_large(self.limits.max_request_bytes));
            }
            Incoming::Line(line) => line,
        };
        if line.trim_ascii().is_empty() {
            return Verdict::Skip;
        }
        let mut passed = match guard::inspect(&line, self.limits.max_depth) {
            Err(refusal) => return Verdict::Refuse(refusal),
            Ok(passed) => passed,
        };
        if let Some(cancelled) = &passed.cancels {
            // rmcp sends no answer to a cancelled request, and neither
            // does the shortcut.
            self.calls.cancel(cancelled);
            inflight.cancel(cancelled);
        }
        if !self.opened && passed.kind != Kind::Request {
            tracing::debug!("a message before rmcp's first request was dropped");
            return Verdict::Skip;
        }
        let Some(id) = passed.id.clone() else {
            self.opened = true;
            return Verdict::Forward(line);
        };
        if self.stopping.is_some() {
            return Verdict::Refuse(guard::shutting_down(Some(&id)));
        }
        if let Some(refusal) = inflight.refusal(&id) {
            return Verdict::Refuse(refused_id(refusal, &id));
        }
        if let Some(listing) = passed
            .lists_tools()
            .then_some(self.shortcut.as_ref())
            .flatten()
            .and_then(|shortcut| shortcut.list(&line, &self.operator, Asked::Stdio))
        {
            return Verdict::Listed(listing);
        }
        if passed.method == guard::Method::Initialize {
            self.unread = Unread::of_version(passed.version.as_deref());
        }
        // A call rmcp may never see: it opens rmcp's session only once it
        // is forwarded.
        self.opened |= passed.method != guard::Method::ToolsCall;
        let call = passed.call.take();
        Verdict::Enter { id, line, call }
    }
}

/// The refusal of a request under an id in flight, or cancelled.
fn refused_id(refusal: inflight::Refusal, id: &guard::RequestId) -> guard::Refused {
    match refusal {
        inflight::Refusal::InUse => guard::id_in_use(id),
        inflight::Refusal::Cancelled => guard::id_cancelled(id),
    }
}

/// The calls the shortcut is running, by id: a cancellation stops one as
/// rmcp would stop its own, and the end of serving stops what is left.
///
/// Each run holds a ticket, so that of a run that finishes and a
/// cancellation of it exactly one wins: a cancelled run never answers,
/// even once a new request has taken its id.
#[derive(Default)]
struct Calls {
    running: Mutex<HashMap<guard::RequestId, (u64, tokio::task::AbortHandle)>>,
    tickets: AtomicU64,
}

impl Calls {
    fn running(
        &self,
    ) -> std::sync::MutexGuard<'_, HashMap<guard::RequestId, (u64, tokio::task::AbortHandle)>> {
        self.running.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Runs the call under `id`, its answer going to `answers`.
    fn start(
        self: &Arc<Self>,
        id: guard::RequestId,
        pending: Pending,
        answers: mpsc::Sender<ToWrite>,
    ) {
        let ticket = self.tickets.fetch_add(1, Ordering::Relaxed);
        let calls = self.clone();
        let key = id.clone();
        // Held while the task is spawned, so that it cannot finish before
        // it is recorded.
        let mut running = self.running();
        let task = tokio::spawn(async move {
            let text = pending.await;
            if calls.finish(&key, ticket) {
                let _ = answers.send(ToWrite::Answer(key, text)).await;
            }
        });
        running.insert(id, (ticket, task.abort_handle()));
    }

    /// Whether the run holding `ticket` is still the call under `id`, which
    /// it then crosses off.
    fn finish(&self, id: &guard::RequestId, ticket: u64) -> bool {
        let mut running = self.running();
        if running.get(id).is_some_and(|(held, _)| *held == ticket) {
            running.remove(id);
            return true;
        }
        false
    }

    /// Stops the call under `id`, if the shortcut is running it.
    fn cancel(&self, id: &guard::RequestId) {
        if let Some((_, task)) = self.running().remove(id) {
            task.abort();
        }
    }

    /// Stops every call still running.
    fn stop(&self) {
        for (_, (_, task)) in self.running().drain() {
            task.abort();
        }
    }
}

/// A line for the writer.
enum ToWrite {
    /// The guard's own refusal. Always written.
    Line(String),
    /// A listing the guard answered. Always written.
    Listing(Listing),
    /// The answer of a call the shortcut ran: written only if its request
    /// is still in flight, which it then leaves, as an answer of rmcp's.
    Answer(guard::RequestId, String),
}

impl ToWrite {
    /// Writes it to `output`, unless it is an answer whose request is no
    /// longer in flight.
    async fn write<W: AsyncWrite + Unpin>(
        self,
        output: &mut Out<W>,
        inflight: &InFlight,
    ) -> std::io::Result<()> {
        let (mut line, answered) = match self {
            ToWrite::Listing(listing) => return output.put_listing(&listing).await,
            ToWrite::Line(line) => (line, Vec::new()),
            ToWrite::Answer(id, line) if inflight.claim(&id) => (line, vec![id]),
            ToWrite::Answer(..) => return Ok(()),
        };
        line.push('\n');
        output.put(line.as_bytes(), answered).await
    }
}

/// Writes a line to rmcp; false once rmcp is gone.
async fn forward<P: AsyncWrite + Unpin>(to_rmcp: &mut P, mut line: Vec<u8>) -> bool {
    line.push(b'\n');
    to_rmcp.write_all(&line).await.is_ok() && to_rmcp.flush().await.is_ok()
}

/// Checks each line; forwards what passes to rmcp and answers what does
/// not. When the input ends or the server shuts down, waits for the
/// requests in flight (up to the grace period), answers what is left, and
/// stops rmcp.
async fn guard_lines<P: AsyncWrite + Unpin>(
    mut lines: mpsc::Receiver<Incoming>,
    mut to_rmcp: P,
    answers: mpsc::Sender<ToWrite>,
    guarding: Guarding,
) {
    let Guarding {
        limits,
        shortcut,
        inflight,
        behind,
        shutdown,
        rmcp_stop,
    } = guarding;
    let mut judge = Judge {
        limits,
        shortcut,
        operator: Caller::operator(),
        opened: false,
        unread: Unread::Omitted,
        stopping: None,
        calls: Arc::default(),
    };
    let answer = |refused: guard::Refused, unread: Unread| {
        let answers = answers.clone();
        async move {
            !refused.answer
                || answers
                    .send(ToWrite::Line(refused.response(unread)))
                    .await
                    .is_ok()
        }
    };
    loop {
        let stopping = judge.stopping;
        let incoming = tokio::select! {
            biased;
            () = shutdown.cancelled(), if stopping.is_none() => {
                judge.stopping = Some(tokio::time::Instant::now() + limits.shutdown_grace);
                continue;
            }
            () = inflight.drained(), if stopping.is_some() => break,
            () = tokio::time::sleep_until(stopping.unwrap_or_else(tokio::time::Instant::now)), if stopping.is_some() => break,
            incoming = lines.recv() => match incoming {
                Some(incoming) => incoming,
                None => break,
            },
        };
        let going_on = match judge.judge(incoming, &inflight) {
            Verdict::Skip => true,
            Verdict::Refuse(refused) => answer(refused, judge.unread).await,
            Verdict::Listed(listing) => answers.send(ToWrite::Listing(listing)).await.is_ok(),
            Verdict::Forward(line) => forward(&mut to_rmcp, line).await,
            Verdict::Enter { id, line, call } => {
                // Held here while the limit is reached: no more input is
                // read until an answer is written.
                let entered = tokio::select! {
                    entered = inflight.enter(&id) => entered.map_err(Some),
                    () = shutdown.cancelled() => Err(None),
                };
                let shortcut_call = judge.shortcut.as_ref().zip(call);
                match entered {
                    Ok(()) => match shortcut_call.and_then(|(s, call)| {
                        s.call(id.to_rmcp(), call, &judge.operator, Asked::Stdio)
                    }) {
                        Some(pending) => {
                            judge.calls.start(id, pending, answers.clone());
                            true
                        }
                        None => {
                            judge.opened = true;
                            forward(&mut to_rmcp, line).await
                        }
                    },
                    Err(None) => answer(guard::shutting_down(Some(&id)), judge.unread).await,
                    Err(Some(refusal)) => answer(refused_id(refusal, &id), judge.unread).await,
                }
            }
        };
        // A line read on stdin's own thread is through: its id, if it
        // entered, is in flight. (Lines read otherwise were never counted.)
        let _ = behind.fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1));
        if !going_on {
            break;
        }
    }
    wind_down(&judge, &inflight, &answers).await;
    judge.calls.stop();
    rmcp_stop.cancel();
    let _ = to_rmcp.shutdown().await;
}

/// The input ended, or the server is shutting down: what is in flight gets
/// what is left of the grace period to finish, and what is still running
/// then is answered with an error saying the server stopped.
async fn wind_down(judge: &Judge, inflight: &InFlight, answers: &mpsc::Sender<ToWrite>) {
    let grace = judge.limits.shutdown_grace;
    let grace_ends = judge
        .stopping
        .unwrap_or_else(|| tokio::time::Instant::now() + grace);
    if tokio::time::timeout_at(grace_ends, inflight.drained())
        .await
        .is_err()
    {
        tracing::warn!(
            grace_ms = grace.as_millis() as u64,
            "requests were still in progress when the grace period ended; they are answered with an error and cancelled"
        );
    }
    for id in inflight.abandon() {
        if answers
            .send(ToWrite::Line(
                guard::stopped(Some(&id)).response(judge.unread),
            ))
            .await
            .is_err()
        {
            break;
        }
    }
}

/// The one writer of the output: what rmcp writes, and the guard's answers.
/// An answer of rmcp's crosses its request off as in flight; one whose
/// request is no longer in flight (cancelled, or answered at shutdown) is
/// dropped.
async fn write_out<W, P>(
    mut output: Out<W>,
    mut from_rmcp: P,
    mut answers: mpsc::Receiver<ToWrite>,
    inflight: Arc<InFlight>,
    rmcp_stop: CancellationToken,
) -> std::io::Result<()>
where
    W: AsyncWrite + Unpin,
    P: AsyncRead + Unpin,
{
    let mut buffer = vec![0u8; 64 * 1024];
    // What rmcp wrote after its last whole line: written once the line ends.
    let mut partial = Vec::new();
    // The whole lines of one read that are to be written.
    let mut kept = Vec::new();
    // The requests they answer.
    let mut answered = Vec::new();
    let (mut rmcp_open, mut guard_open) = (true, true);
    while rmcp_open || guard_open {
        tokio::select! {
            read = from_rmcp.read(&mut buffer), if rmcp_open => match read {
                Ok(0) | Err(_) => rmcp_open = false,
                Ok(n) => {
                    let read = &buffer[..n];
                    let Some(end) = memchr::memrchr(b'\n', read) else {
                        partial.extend_from_slice(read);
                        continue;
                    };
                    let (lines, rest) = read.split_at(end + 1);
                    let lines = if partial.is_empty() {
                        lines
                    } else {
                        partial.extend_from_slice(lines);
                        &partial[..]
                    };
                    let written = keep_answers(lines, &inflight, &mut kept, &mut answered);
                    if !written.is_empty() {
                        output.put(written, std::mem::take(&mut answered)).await?;
                    }
                    partial.clear();
                    partial.extend_from_slice(rest);
                }
            },
            answer = answers.recv(), if guard_open => match answer {
                None => guard_open = false,
                Some(answer) => answer.write(&mut output, &inflight).await?,
            },
            // The guard stopped rmcp and said its last: every request was
            // answered, by rmcp or for it. What rmcp writes while it drains
            // answers nothing in flight, and a line it is halfway through
            // is not written.
            () = rmcp_stop.cancelled(), if rmcp_open && !guard_open => {
                rmcp_open = false;
                partial.clear();
            }
        }
        // Once rmcp is gone nothing more is forwarded; answers still queued
        // are written, then serving ends without waiting for more input.
        if !rmcp_open {
            if !partial.is_empty() {
                let written = keep_answers(&partial, &inflight, &mut kept, &mut answered);
                output.put(written, std::mem::take(&mut answered)).await?;
            }
            while let Ok(answer) = answers.try_recv() {
                answer.write(&mut output, &inflight).await?;
            }
            break;
        }
    }
    output.finish().await
}

/// The lines of rmcp's output that are to be written, claiming the
/// requests they answer (into `answered`): `lines` itself unless one is
/// dropped, when the rest are copied into `kept`.
fn keep_answers<'a>(
    lines: &'a [u8],
    inflight: &InFlight,
    kept: &'a mut Vec<u8>,
    answered: &mut Vec<guard::RequestId>,
) -> &'a [u8] {
    let mut dropped = false;
    let mut start = 0;
    for line in lines.split_inclusive(|b| *b == b'\n') {
        let keep = match inflight::answered(line) {
            Some(id) if inflight.claim(&id) => {
                answered.push(id);
                true
            }
            Some(id) => {
                tracing::debug!(
                    id = %crate::rules::quote::text(&id.to_json()),
                    "an answer to a request no longer in flight was dropped"
                );
                false
            }
            None => true,
        };
        if !keep && !dropped {
            dropped = true;
            kept.clear();
            kept.extend_from_slice(&lines[..start]);
        } else if keep && dropped {
            kept.extend_from_slice(line);
        }
        start += line.len();
    }
    if dropped { kept } else { lines }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn lines_of(input: &[u8], max: usize) -> Vec<Incoming> {
        let mut reader = tokio::io::BufReader::with_capacity(4, input);
        let mut out = Vec::new();
        loop {
            let mut line = Vec::new();
            match read_bounded_line(&mut reader, &mut line, max)
                .await
                .unwrap()
            {
                Some(incoming) => out.push(incoming),
                None => return out,
            }
        }
    }

    #[tokio::test]
    async fn lines_are_split_on_newlines_and_a_carriage_return_is_dropped() {
        assert_eq!(
            lines_of(b"ab\r\ncd\nlast", 10).await,
            vec![
                Incoming::Line(b"ab".to_vec()),
                Incoming::Line(b"cd".to_vec()),
                Incoming::Line(b"last".to_vec())
            ]
        );
    }

    #[tokio::test]
    async fn a_line_over_the_limit_is_consumed_and_reported_without_being_kept() {
        assert_eq!(
            lines_of(b"0123456789abc\nok\n", 10).await,
            vec![Incoming::TooLong, Incoming::Line(b"ok".to_vec())]
        );
        assert_eq!(
            lines_of(b"0123456789\n", 10).await,
            vec![Incoming::Line(b"0123456789".to_vec())]
        );
    }

    #[test]
    fn the_blocking_reader_splits_lines_the_same_way() {
        let mut reader = std::io::BufReader::with_capacity(3, &b"abcdefghijkl\nxy\n"[..]);
        let mut got = Vec::new();
        loop {
            let mut line = Vec::new();
            match read_bounded_line_blocking(&mut reader, &mut line, 5).unwrap() {
                Some(incoming) => got.push(incoming),
                None => break,
            }
        }
        assert_eq!(got, vec![Incoming::TooLong, Incoming::Line(b"xy".to_vec())]);
    }
}
