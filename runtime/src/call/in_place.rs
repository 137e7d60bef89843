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
//! it is, on a [`Worker`] taken while another stays free, marked as running,
//! and a watchdog thread looks at the marks: a handler it finds running at
//! two looks in a row (a [`TICK`] apart at least) gets a task spawned on
//! its runtime, which wakes a sleeping worker; that worker takes the
//! blocked worker's queued tasks and its turn at the sockets and timers,
//! and everything else goes on. The watchdog looks again a tick after a
//! look that found a handler running, and waits twice as long as the time
//! before after one that found none, up to [`LONGEST_WAIT`]: each look is
//! a thread woken (17 µs of CPU on the machine of docs/benchmarks.md), and
//! a server of quick handlers, whose handlers are rarely running at the
//! instant it looks, is looked at a few hundred times a second instead of
//! a thousand. A handler that blocks holds up what its worker holds for
//! [`LONGEST_WAIT`] and a tick at most. A quick handler pays two stores to
//! its thread's mark (the first one sequentially consistent) and a look at
//! whether the watchdog sleeps: the mark is a count of the handlers its
//! thread started and ended, which the watchdog compares between looks, so
//! no clock is read, and the runtime's handle is put in the mark only when
//! its thread runs a handler for another runtime than the last one.
//!
//! What this cannot hand off is the one task a worker keeps to run next
//! (tokio's "LIFO slot"): a task the call itself woke before its handler
//! blocked waits for the handler. The call path wakes none before the
//! handler runs.
//!
//! The watchdog sleeps when no handler has run in place for a while, and
//! the next one wakes it.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::Duration;
use tokio::runtime::{Handle, Id, RuntimeFlavor};

/// The least time a handler runs before what it holds up is handed off,
/// and how soon the watchdog looks again after a look that found one
/// running.
pub(crate) const TICK: Duration = Duration::from_millis(1);

/// The longest the watchdog waits between looks.
const LONGEST_WAIT: Duration = Duration::from_millis(4);

/// How long the watchdog looks without finding a handler running before
/// it sleeps until the next one starts.
const UNTIL_ASLEEP: Duration = Duration::from_millis(200);

/// Synchronous handlers running in place, on workers of a runtime, in this
/// process.
static IN_PLACE: AtomicUsize = AtomicUsize::new(0);

/// A worker of a multi-threaded runtime lent to one synchronous handler,
/// the one polling the call: taken while fewer handlers run in place than
/// the runtime has workers less one (the others go on serving everything
/// else, and one is woken for what a handler running long holds up), and
/// given back when dropped.
pub(crate) struct Worker {
    runtime: Handle,
}

impl Worker {
    /// This thread's runtime's worker, if it is a multi-threaded one with a
    /// worker to spare.
    pub(crate) fn spare() -> Option<Worker> {
        let runtime = Handle::try_current()
            .ok()
            .filter(|runtime| runtime.runtime_flavor() == RuntimeFlavor::MultiThread)?;
        let spare = runtime.metrics().num_workers().saturating_sub(1);
        if IN_PLACE.fetch_add(1, Ordering::AcqRel) < spare {
            Some(Worker { runtime })
        } else {
            IN_PLACE.fetch_sub(1, Ordering::AcqRel);
            None
        }
    }

    /// Runs `handler` in place on this thread: if the watchdog finds it
    /// running a [`TICK`] or longer, a sleeping worker of the runtime is
    /// woken to take over what this one holds up.
    pub(crate) fn run<R>(self, handler: impl FnOnce() -> R) -> R {
        MARK.with(|mark| {
            let slot = mark.slot.get_or_init(Slot::watched);
            // A handler run inside another's (a program's own call made
            // from a handler) is covered by the outer mark.
            if slot.running() {
                return handler();
            }
            let id = self.runtime.id();
            if mark.runtime.get() != Some(id) {
                let last = slot.runtime().replace(self.runtime.clone());
                mark.runtime.set(Some(id));
                drop(last);
            }
            slot.enter();
            // Left even if the handler panics, so the watchdog does not keep
            // waking workers for a handler that is gone.
            struct Leave<'s>(&'s Slot);
            impl Drop for Leave<'_> {
                fn drop(&mut self) {
                    self.0.leave();
                }
            }
            let _leave = Leave(slot);
            handler()
        })
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        IN_PLACE.fetch_sub(1, Ordering::AcqRel);
    }
}

/// One thread's mark: how many handlers it started and ended in place, and
/// the runtime whose workers can take over.
struct Slot {
    /// Moved on when a handler starts and when it ends, so odd while one
    /// runs; written by its own thread only.
    count: AtomicU64,
    /// The runtime of the last handler its thread ran in place. Only its own
    /// thread writes it, and only when that runtime changes: a thread that
    /// only entered a runtime (a `block_on`) may enter another later. So a
    /// thread keeps the handle of the last runtime it ran a handler for
    /// until it ends or runs one for another.
    runtime: Mutex<Option<Handle>>,
}

/// A thread's own view of its mark.
struct Mark {
    /// Made and registered with the watchdog by the first handler the
    /// thread runs in place.
    slot: OnceLock<Arc<Slot>>,
    /// Which runtime's handle the slot holds.
    runtime: Cell<Option<Id>>,
}

thread_local! {
    static MARK: Mark = const {
        Mark {
            slot: OnceLock::new(),
            runtime: Cell::new(None),
        }
    };
}

impl Slot {
    /// A new slot, registered with the watchdog.
    fn watched() -> Arc<Slot> {
        let slot = Arc::new(Slot {
            count: AtomicU64::new(0),
            runtime: Mutex::new(None),
        });
        watchdog().watch(&slot);
        slot
    }

    fn running(&self) -> bool {
        self.count.load(Ordering::Relaxed) % 2 == 1
    }

    fn runtime(&self) -> std::sync::MutexGuard<'_, Option<Handle>> {
        self.runtime.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn enter(&self) {
        let count = self.count.load(Ordering::Relaxed);
        // Sequentially consistent with the watchdog's own store before it
        // looks at the slots: either it sees this mark, or this sees it
        // asleep and wakes it.
        self.count.store(count + 1, Ordering::SeqCst);
        let watchdog = watchdog();
        if watchdog.asleep.load(Ordering::SeqCst)
            && watchdog.asleep.swap(false, Ordering::SeqCst)
            && let Some(thread) = watchdog.thread.get()
        {
            thread.unpark();
        }
    }

    fn leave(&self) {
        let count = self.count.load(Ordering::Relaxed);
        self.count.store(count + 1, Ordering::Release);
    }
}

/// A slot as the watchdog follows it: the count it saw at its last look.
struct Watched {
    slot: Weak<Slot>,
    seen: u64,
}

/// The one thread that looks at every slot.
struct Watchdog {
    slots: Mutex<Vec<Watched>>,
    asleep: AtomicBool,
    thread: OnceLock<std::thread::Thread>,
}

fn watchdog() -> &'static Watchdog {
    static WATCHDOG: OnceLock<Watchdog> = OnceLock::new();
    WATCHDOG.get_or_init(|| Watchdog {
        slots: Mutex::new(Vec::new()),
        asleep: AtomicBool::new(true),
        thread: OnceLock::new(),
    })
}

impl Watchdog {
    fn slots(&self) -> std::sync::MutexGuard<'_, Vec<Watched>> {
        self.slots.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Adds `slot`, starting the watchdog's thread with the first one.
    fn watch(&'static self, slot: &Arc<Slot>) {
        self.slots().push(Watched {
            slot: Arc::downgrade(slot),
            seen: 0,
        });
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
        let mut wait = TICK;
        let mut unseen = Duration::ZERO;
        loop {
            if self.asleep.load(Ordering::SeqCst) {
                std::thread::park();
                wait = TICK;
                continue;
            }
            std::thread::sleep(wait);
            if self.look() {
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
                if self.look() {
                    self.asleep.store(false, Ordering::SeqCst);
                    wait = TICK;
                }
                unseen = Duration::ZERO;
            }
        }
    }

    /// Wakes a worker for every handler that was running at the last look
    /// and still is; whether any handler runs in place.
    fn look(&self) -> bool {
        let mut running = false;
        self.slots().retain_mut(|watched| {
            let Some(slot) = watched.slot.upgrade() else {
                return false;
            };
            let count = slot.count.load(Ordering::SeqCst);
            if count % 2 == 1 {
                running = true;
                if count == watched.seen {
                    // A task from outside the runtime wakes a sleeping
                    // worker, which then polls the sockets and timers.
                    if let Some(runtime) = &*slot.runtime() {
                        drop(runtime.spawn(async {}));
                    }
                }
            }
            watched.seen = count;
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
                let handler = || blocked.recv_timeout(Duration::from_secs(10)).ok();
                // Without a worker to spare the handler blocks unwatched,
                // and the test fails.
                match Worker::spare() {
                    Some(worker) => worker.run(handler),
                    None => handler(),
                };
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
