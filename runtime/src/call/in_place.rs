//! Synchronous handlers run in place, on the worker that polls the call,
//! and what they hold up is handed off only when they run long.
//!
//! A synchronous handler may block (on a lock, a file, a database). A
//! worker of tokio's runtime blocked in one while the other workers sleep
//! leaves every connection unread and every timer unfired until it
//! returns: the other workers sleep on a condition variable, and only the
//! worker that was polling the sockets would have woken for them. Handing
//! the worker's queue and its turn at the sockets to another thread before
//! every handler (tokio's `block_in_place`) costs a thread woken per call,
//! several times what a quick handler costs. So a handler runs in place as
//! it is, marked as running ([`run`]), and a watchdog thread looks at the
//! marks: a handler it finds running for a [`TICK`] or longer gets a task
//! spawned on its runtime, which wakes a sleeping worker; that worker takes
//! the blocked worker's queued tasks and its turn at the sockets and
//! timers, and everything else goes on. The watchdog looks again a tick
//! after a look that found a handler running, and waits twice as long as
//! the time before after one that found none, up to [`LONGEST_WAIT`]: each
//! look is a thread woken (17 µs of CPU on the machine of
//! docs/benchmarks.md), and a server of quick handlers, whose handlers are
//! rarely running at the instant it looks, is looked at a few hundred
//! times a second instead of a thousand. A handler that blocks holds up
//! what its worker holds for [`LONGEST_WAIT`] at most. A quick handler pays
//! an uncontended lock on either side (its runtime's handle, put in its
//! thread's mark and taken out again), two atomic stores and a clock read.
//!
//! What this cannot hand off is the one task a worker keeps to run next
//! (tokio's "LIFO slot"): a task the call itself woke before its handler
//! blocked waits for the handler. The call path wakes none before the
//! handler runs.
//!
//! The watchdog sleeps when no handler has run in place for a while, and
//! the next one wakes it.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::{Duration, Instant};
use tokio::runtime::Handle;

/// How long a handler runs before what it holds up is handed off, and how
/// soon the watchdog looks again after a look that found one running.
pub(crate) const TICK: Duration = Duration::from_millis(1);

/// The longest the watchdog waits between looks, and so the longest a
/// handler that blocks holds up what its worker holds.
const LONGEST_WAIT: Duration = Duration::from_millis(4);

/// How long the watchdog looks without finding a handler running before
/// it sleeps until the next one starts.
const UNTIL_ASLEEP: Duration = Duration::from_millis(200);

/// Runs `handler` in place on this thread, a worker of `runtime`: if the
/// watchdog finds it running a [`TICK`] or longer, a sleeping worker of
/// `runtime` is woken to take over what this one holds up.
pub(crate) fn run<R>(runtime: &Handle, handler: impl FnOnce() -> R) -> R {
    let slot = Slot::of_this_thread();
    slot.enter(runtime);
    // Left even if the handler panics, so the watchdog does not keep
    // waking workers for a handler that is gone, nor keeps its runtime.
    struct Leave<'s>(&'s Slot);
    impl Drop for Leave<'_> {
        fn drop(&mut self) {
            self.0.since.store(IDLE, Ordering::SeqCst);
            self.0.runtime().take();
        }
    }
    let _leave = Leave(&slot);
    handler()
}

/// `since` of a thread running no handler.
const IDLE: u64 = 0;

/// One thread's mark: since when it runs a handler in place, and the
/// runtime whose workers can take over.
struct Slot {
    /// Nanoseconds since [`Watchdog::epoch`] (plus one) when the handler
    /// started; [`IDLE`] when none runs.
    since: AtomicU64,
    /// The runtime of the handler running, if one runs: a thread that only
    /// entered a runtime (a `block_on`) may enter another later, and one
    /// dropped is not kept alive by its mark.
    runtime: Mutex<Option<Handle>>,
}

thread_local! {
    static SLOT: OnceLock<Arc<Slot>> = const { OnceLock::new() };
}

impl Slot {
    /// This thread's slot, registered with the watchdog on first use.
    fn of_this_thread() -> Arc<Slot> {
        SLOT.with(|slot| {
            slot.get_or_init(|| {
                let slot = Arc::new(Slot {
                    since: AtomicU64::new(IDLE),
                    runtime: Mutex::new(None),
                });
                watchdog().watch(&slot);
                slot
            })
            .clone()
        })
    }

    fn runtime(&self) -> std::sync::MutexGuard<'_, Option<Handle>> {
        self.runtime.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn enter(&self, runtime: &Handle) {
        *self.runtime() = Some(runtime.clone());
        let watchdog = watchdog();
        self.since.store(watchdog.now(), Ordering::SeqCst);
        // Sequentially consistent with the watchdog's own store before it
        // looks at the slots: either it sees this mark, or this sees it
        // asleep and wakes it.
        if watchdog.asleep.load(Ordering::SeqCst)
            && watchdog.asleep.swap(false, Ordering::SeqCst)
            && let Some(thread) = watchdog.thread.get()
        {
            thread.unpark();
        }
    }
}

/// The one thread that looks at every slot.
struct Watchdog {
    epoch: Instant,
    slots: Mutex<Vec<Weak<Slot>>>,
    asleep: AtomicBool,
    thread: OnceLock<std::thread::Thread>,
}

fn watchdog() -> &'static Watchdog {
    static WATCHDOG: OnceLock<Watchdog> = OnceLock::new();
    WATCHDOG.get_or_init(|| Watchdog {
        epoch: Instant::now(),
        slots: Mutex::new(Vec::new()),
        asleep: AtomicBool::new(true),
        thread: OnceLock::new(),
    })
}

impl Watchdog {
    /// Now, as a slot's `since`: never [`IDLE`].
    fn now(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_nanos())
            .unwrap_or(u64::MAX)
            .saturating_add(1)
    }

    fn slots(&self) -> std::sync::MutexGuard<'_, Vec<Weak<Slot>>> {
        self.slots.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Adds `slot`, starting the watchdog's thread with the first one.
    fn watch(&'static self, slot: &Arc<Slot>) {
        self.slots().push(Arc::downgrade(slot));
        self.thread.get_or_init(|| {
            // Without the thread nothing is handed off: handlers still run,
            // as they would on a runtime without this module.
            std::thread::Builder::new()
                .name("tooltable-watchdog".into())
                .spawn(move || self.watch_forever())
                .map(|joined| joined.thread().clone())
                .unwrap_or_else(|error| {
                    tracing::warn!(%error, "cannot start the thread that watches synchronous handlers; a blocked handler will hold up its worker's connections");
                    std::thread::current()
                })
        });
    }

    fn watch_forever(&self) {
        let tick = u64::try_from(TICK.as_nanos()).unwrap_or(u64::MAX);
        let mut wait = TICK;
        let mut unseen = Duration::ZERO;
        loop {
            if self.asleep.load(Ordering::SeqCst) {
                std::thread::park();
                wait = TICK;
                continue;
            }
            std::thread::sleep(wait);
            if self.look(tick) {
                wait = TICK;
                unseen = Duration::ZERO;
                continue;
            }
            unseen += wait;
            wait = (wait * 2).min(LONGEST_WAIT);
            if unseen >= UNTIL_ASLEEP {
                self.asleep.store(true, Ordering::SeqCst);
                // A handler that entered before the store above was seen
                // by `look` or is seen now.
                if self.look(tick) {
                    self.asleep.store(false, Ordering::SeqCst);
                    wait = TICK;
                }
                unseen = Duration::ZERO;
            }
        }
    }

    /// Wakes a worker for every handler running for a tick or longer;
    /// whether any handler runs in place.
    fn look(&self, tick: u64) -> bool {
        let now = self.now();
        let mut running = false;
        self.slots().retain(|slot| {
            let Some(slot) = slot.upgrade() else {
                return false;
            };
            let since = slot.since.load(Ordering::SeqCst);
            if since != IDLE {
                running = true;
                if now.saturating_sub(since) >= tick {
                    // A task from outside the runtime wakes a sleeping
                    // worker, which then polls the sockets and timers.
                    if let Some(runtime) = &*slot.runtime() {
                        drop(runtime.spawn(async {}));
                    }
                }
            }
            true
        });
        running
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::sync::mpsc;
    use tokio::io::AsyncReadExt;

    /// A connected pair: the runtime's end and a plain one to write to.
    fn pair(runtime: &tokio::runtime::Runtime) -> (tokio::net::TcpStream, std::net::TcpStream) {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let address = listener.local_addr().unwrap();
        let ours = runtime
            .block_on(tokio::net::TcpStream::connect(address))
            .unwrap();
        (ours, listener.accept().unwrap().0)
    }

    /// A request arrives and its handler blocks the worker that read it;
    /// then bytes arrive for another task: whether that task read them
    /// within a second.
    fn read_while_a_handler_blocks() -> bool {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let (mut request, mut send_request) = pair(&runtime);
        let (mut other, mut send_other) = pair(&runtime);
        let (release, blocked) = mpsc::channel::<()>();
        runtime.spawn(async move {
            let mut byte = [0u8; 1];
            if request.read_exact(&mut byte).await.is_ok() {
                run(&Handle::current(), || {
                    blocked.recv_timeout(Duration::from_secs(10)).ok()
                });
            }
        });
        let (read, got) = mpsc::channel();
        runtime.spawn(async move {
            let mut byte = [0u8; 1];
            if other.read_exact(&mut byte).await.is_ok() {
                let _ = read.send(());
            }
        });
        // Both workers asleep, one of them waiting on the sockets, which
        // is the one that reads the request and runs its handler.
        std::thread::sleep(Duration::from_millis(50));
        send_request.write_all(b"x").unwrap();
        std::thread::sleep(Duration::from_millis(50));
        send_other.write_all(b"x").unwrap();
        let answered = got.recv_timeout(Duration::from_secs(1)).is_ok();
        let _ = release.send(());
        runtime.shutdown_timeout(Duration::from_secs(1));
        answered
    }

    #[test]
    fn a_task_waiting_on_a_socket_is_woken_while_a_handler_blocks_a_worker() {
        for attempt in 1..=5 {
            assert!(
                read_while_a_handler_blocks(),
                "attempt {attempt}: bytes that arrived while a handler blocked a worker were not read within a second"
            );
        }
    }
}
