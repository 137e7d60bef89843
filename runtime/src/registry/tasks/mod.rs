//! Tasks' state: calls that outlive their request (the Tasks extension,
//! `io.modelcontextprotocol/tasks`).
//!
//! A task is a durable state machine: `working`, `input_required` while the
//! handler waits on a question, then one of the terminal statuses, whose
//! result or error is kept until the task's time to live ends. Each task is
//! bound to the caller that created it: a task id is unguessable, and even a
//! guessed one reads as unknown to any other caller. The bounds (tasks per
//! caller, tasks in all, time to live) are [`TaskLimits`]. Tasks live in the
//! server's memory ([`memory`]), or in Redis for replicas ([`redis`], with
//! the `redis` feature), where a task started on one replica is polled,
//! answered and cancelled from any. Nothing here knows MCP's wire: the
//! adapter turns [`TaskView`]s into the extension's messages.

pub(crate) mod memory;
#[cfg(feature = "redis")]
pub(crate) mod redis;

use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tokio_util::sync::CancellationToken;

/// The bounds on the tasks a server keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TaskLimits {
    /// How long a task, and its result, is kept after it is created.
    pub ttl: Duration,
    /// How often a client is asked to poll.
    pub poll_interval: Duration,
    /// The most tasks one caller may have kept at once, running or finished.
    pub per_caller: usize,
    /// The most tasks kept at once, in all.
    pub total: usize,
    /// The most bytes of results kept at once, in all, by a server that
    /// keeps its tasks in memory (Redis bounds its own memory).
    pub result_bytes: usize,
    /// The most bytes of results one caller may have kept at once, of
    /// [`result_bytes`](TaskLimits::result_bytes): one caller's results
    /// leave room for the others'.
    pub result_bytes_per_caller: usize,
}

impl Default for TaskLimits {
    /// An hour to live, polls every half second, 32 tasks per caller and
    /// 4096 in all, 256 MiB of results in all and 64 MiB per caller.
    fn default() -> TaskLimits {
        TaskLimits {
            ttl: Duration::from_secs(60 * 60),
            poll_interval: Duration::from_millis(500),
            per_caller: 32,
            total: 4096,
            result_bytes: 256 * 1024 * 1024,
            result_bytes_per_caller: 64 * 1024 * 1024,
        }
    }
}

impl TaskLimits {
    /// Why these limits cannot serve, if they cannot.
    pub(crate) fn check(&self) -> Result<(), String> {
        if self.ttl < Duration::from_secs(1) {
            return Err(format!(
                "a task's time to live must be at least 1 s, for a client to read its result; got {} ms",
                self.ttl.as_millis()
            ));
        }
        if self.poll_interval.is_zero() || self.poll_interval > self.ttl {
            return Err(
                "a task's poll interval must be more than zero and at most its time to live"
                    .to_owned(),
            );
        }
        if self.per_caller == 0 || self.total < self.per_caller {
            return Err(format!(
                "tasks per caller must be at least 1 and at most the tasks in all; got {} per caller and {} in all",
                self.per_caller, self.total
            ));
        }
        if self.result_bytes < 1024 {
            return Err(format!(
                "the bytes of task results kept must be at least 1024; got {}",
                self.result_bytes
            ));
        }
        if self.result_bytes_per_caller < 1024 || self.result_bytes_per_caller > self.result_bytes {
            return Err(format!(
                "the bytes of task results one caller may keep must be at least 1024 and at most the bytes kept in all; got {} per caller and {} in all",
                self.result_bytes_per_caller, self.result_bytes
            ));
        }
        Ok(())
    }
}

/// Whose a task is: the name that alone may read it, and whether the
/// per-caller limits count it. A caller with a token's subject, or an
/// `initialize`-era session, is one owner; callers with neither (a
/// 2026-07-28 request without a token) cannot be told apart, so their
/// tasks are read by their unguessable ids alone and only the limits on
/// all tasks bound them: counted as one caller, any of them could use up
/// the others' places.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Owner {
    pub(crate) name: String,
    pub(crate) counted: bool,
}

impl Owner {
    /// A caller told apart from the others by `name`.
    pub(crate) fn named(name: String) -> Owner {
        Owner {
            name,
            counted: true,
        }
    }

    /// Every caller that cannot be told apart.
    pub(crate) fn anonymous() -> Owner {
        Owner {
            name: "anonymous".to_owned(),
            counted: false,
        }
    }
}

/// A task's status, with what each status carries.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Status {
    /// The handler is running.
    Working,
    /// The handler waits on the questions still open (key → `{method, params}`).
    InputRequired(BTreeMap<String, Value>),
    /// The handler finished; its result (a `CallToolResult`, error or not).
    Completed(Map<String, Value>),
    /// The call failed with a protocol error (`{code, message, data?}`).
    Failed(Map<String, Value>),
    /// Cancelled before it finished.
    Cancelled,
}

/// A task as a client sees it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct TaskView {
    pub id: String,
    pub status: Status,
    pub status_message: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    pub ttl_ms: u64,
    pub poll_interval_ms: u64,
}

impl TaskView {
    /// A task as a client sees it, with the times and intervals `limits` give.
    pub(crate) fn new(
        limits: &TaskLimits,
        id: &str,
        status: Status,
        status_message: Option<String>,
        created: SystemTime,
        updated: SystemTime,
    ) -> TaskView {
        TaskView {
            id: id.to_owned(),
            status,
            status_message,
            created_at: rfc3339(created),
            updated_at: rfc3339(updated),
            ttl_ms: limits.ttl.as_millis() as u64,
            poll_interval_ms: limits.poll_interval.as_millis().max(1) as u64,
        }
    }
}

/// The key a question asked under `key` takes the `n`th time the task asks
/// under it: a key names one question for the task's whole life.
pub(crate) fn numbered(key: &str, n: usize) -> String {
    if n <= 1 {
        key.to_owned()
    } else {
        format!("{key}~{n}")
    }
}

/// Why a task request was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum TaskRefusal {
    /// No such task for this caller: never created, expired, or another's.
    Unknown(String),
    /// The shared store cannot be reached now; the sentence says which.
    #[cfg(feature = "redis")]
    Unreachable(String),
}

impl std::fmt::Display for TaskRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TaskRefusal::Unknown(id) => write!(
                f,
                "no task `{}` is known to this server for this caller: it was never created, it has expired, or another caller created it",
                crate::rules::quote::text(id)
            ),
            #[cfg(feature = "redis")]
            TaskRefusal::Unreachable(sentence) => f.write_str(sentence),
        }
    }
}

/// Where a server keeps its tasks, as configured.
#[derive(Clone, Debug, Default)]
pub(crate) enum TaskHome {
    /// In this process's memory (the default).
    #[default]
    Memory,
    /// In the Redis replicas share.
    #[cfg(feature = "redis")]
    Redis(Box<redis::RedisTasks>),
}

/// Where a server's tasks live, at work: a closed set, chosen when it is built.
#[derive(Clone)]
pub(crate) enum Tasks {
    /// In this process's memory.
    Memory(Arc<memory::TaskBoard>),
    /// In Redis, shared by replicas.
    #[cfg(feature = "redis")]
    Redis(Arc<redis::RedisTaskStore>),
}

impl Tasks {
    /// Tasks kept where `home` says, bounded by `limits`.
    pub(crate) fn new(home: &TaskHome, limits: TaskLimits) -> Tasks {
        match home {
            TaskHome::Memory => Tasks::Memory(Arc::new(memory::TaskBoard::new(limits))),
            #[cfg(feature = "redis")]
            TaskHome::Redis(tasks) => Tasks::Redis(Arc::new(redis::RedisTaskStore::new(
                (**tasks).clone(),
                limits,
            ))),
        }
    }

    /// A place for a task of `owner`, if the limits leave one.
    pub(crate) async fn reserve(&self, owner: &Owner) -> Option<Reservation> {
        match self {
            Tasks::Memory(board) => board.reserve(owner),
            #[cfg(feature = "redis")]
            Tasks::Redis(store) => store.reserve(owner).await,
        }
    }

    /// Creates a working task in `reservation`'s place, durably: a poll for
    /// it resolves once this returns. Its cancellation reaches the handler
    /// through `cancel`.
    pub(crate) async fn create(
        &self,
        reservation: Reservation,
        cancel: CancellationToken,
    ) -> Result<TaskView, TaskRefusal> {
        match self {
            Tasks::Memory(board) => Ok(board.create(reservation, cancel)),
            #[cfg(feature = "redis")]
            Tasks::Redis(store) => store.create(reservation, cancel).await,
        }
    }

    /// `tasks/get`.
    pub(crate) async fn get(&self, owner: &str, id: &str) -> Result<TaskView, TaskRefusal> {
        match self {
            Tasks::Memory(board) => board.get(owner, id),
            #[cfg(feature = "redis")]
            Tasks::Redis(store) => store.get(owner, id).await,
        }
    }

    /// `tasks/update`: answers to questions the task has open; answers to
    /// any other key (never asked, already answered) are ignored.
    pub(crate) async fn update(
        &self,
        owner: &str,
        id: &str,
        responses: Map<String, Value>,
    ) -> Result<(), TaskRefusal> {
        match self {
            Tasks::Memory(board) => board.update(owner, id, responses),
            #[cfg(feature = "redis")]
            Tasks::Redis(store) => store.update(owner, id, responses).await,
        }
    }

    /// `tasks/cancel`: the handler is told; a finished task stays as it is.
    pub(crate) async fn cancel(&self, owner: &str, id: &str) -> Result<(), TaskRefusal> {
        match self {
            Tasks::Memory(board) => board.cancel(owner, id),
            #[cfg(feature = "redis")]
            Tasks::Redis(store) => store.cancel(owner, id).await,
        }
    }

    /// Opens a question of the running task `id` under `key` and waits for
    /// its answer. `None` when the task is gone or cancelled.
    pub(crate) async fn ask(&self, id: &str, key: &str, request: Value) -> Option<Value> {
        match self {
            Tasks::Memory(board) => board.ask(id, key, request).await,
            #[cfg(feature = "redis")]
            Tasks::Redis(store) => store.ask(id, key, request).await,
        }
    }

    /// Sets the message a poll shows beside the status.
    pub(crate) async fn say(&self, id: &str, message: String) {
        match self {
            Tasks::Memory(board) => board.say(id, message),
            #[cfg(feature = "redis")]
            Tasks::Redis(store) => store.say(id, message).await,
        }
    }

    /// Ends the task `id` with its call's outcome (`None`: it stopped on
    /// cancellation); a task whose caller asked to cancel it ends cancelled
    /// whatever the handler returned.
    pub(crate) async fn finish(&self, id: &str, ending: Option<Ending>) {
        match self {
            Tasks::Memory(board) => board.finish(id, ending),
            #[cfg(feature = "redis")]
            Tasks::Redis(store) => store.finish(id, ending).await,
        }
    }
}

/// The budget a result did not fit in.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Budget {
    /// The bytes kept in all.
    All(usize),
    /// The bytes one caller may keep.
    PerCaller(usize),
}

/// The result a task keeps in place of one over `budget`.
pub(crate) fn unkept(bytes: usize, budget: Budget) -> Map<String, Value> {
    let text = match budget {
        Budget::All(budget) => format!(
            "the task finished, but its result ({bytes} bytes) was not kept: this server keeps at most {budget} bytes of task results at once; call the tool again later, or ask for less"
        ),
        Budget::PerCaller(budget) => format!(
            "the task finished, but its result ({bytes} bytes) was not kept: this server keeps at most {budget} bytes of task results for one caller at once; read the results of your other tasks or let them expire, then call the tool again, or ask for less"
        ),
    };
    let mut result = Map::new();
    result.insert(
        "content".into(),
        serde_json::json!([{"type": "text", "text": text}]),
    );
    result.insert("isError".into(), Value::Bool(true));
    result
}

/// A place for a task, held between deciding a call may become one and
/// creating it, with the id the task will have; dropped unused, it frees
/// the place.
pub(crate) struct Reservation {
    pub(crate) owner: Owner,
    pub(crate) id: String,
    release: Option<Box<dyn FnOnce() + Send + Sync>>,
}

impl Reservation {
    pub(crate) fn new(
        owner: &Owner,
        id: String,
        release: Box<dyn FnOnce() + Send + Sync>,
    ) -> Reservation {
        Reservation {
            owner: owner.clone(),
            id,
            release: Some(release),
        }
    }

    /// Marks the place used: the task now counts for itself.
    pub(crate) fn take(&mut self) {
        self.release = None;
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        if let Some(release) = self.release.take() {
            release();
        }
    }
}

/// How a finished call ends its task.
pub(crate) enum Ending {
    Completed(Map<String, Value>),
    Failed(Map<String, Value>),
}

/// A new task id: 128 random bits, as 32 hex digits.
pub(crate) fn new_id() -> Option<String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).ok()?;
    Some(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// `time` as an RFC 3339 UTC timestamp with milliseconds
/// (`2026-12-01T22:14:03.120Z`).
pub(crate) fn rfc3339(time: SystemTime) -> String {
    let since = time.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = since.as_secs();
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Howard Hinnant's days-to-civil, for the proleptic Gregorian calendar.
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60,
        since.subsec_millis()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_asked_again_is_numbered_from_the_key_itself() {
        let keys: Vec<String> = (1..=3).map(|n| numbered("name", n)).collect();
        assert_eq!(keys, ["name", "name~2", "name~3"]);
    }

    #[test]
    fn timestamps_are_rfc_3339_in_utc() {
        assert_eq!(rfc3339(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        let leap_day = UNIX_EPOCH + Duration::from_millis(951_782_400_250);
        assert_eq!(rfc3339(leap_day), "2000-02-29T00:00:00.250Z");
        let late = UNIX_EPOCH + Duration::from_secs(1_796_169_599);
        assert_eq!(rfc3339(late), "2026-12-01T23:59:59.000Z");
    }
}
