//! Tasks kept in Redis, shared by replicas.
//!
//! Behind a load balancer the replica that runs a task's handler is not
//! always the one a poll reaches, so everything a client may ask of a task
//! lives in Redis, under the namespace the replicas share their flags in:
//! per task a hash (owner, times, status message, the cancel mark, the
//! ending), the questions it has open, the answers delivered and not yet
//! taken, and the keys it ever asked; per caller, and in all, a sorted set
//! of live task ids for the limits. Every key expires with the task's time
//! to live. Each change that must be seen whole (a place within the limits,
//! an answer to an open question, an ending) is one Lua script, so replicas
//! never see half of it. The replica running a handler looks for answers and
//! for the cancel mark every [`WATCH`]: answers and cancellation take effect
//! across replicas within that time.
//!
//! The running replica also records a sign of life every [`BEAT`]; a task
//! without one for [`STALE`] reads as failed (its replica stopped: a crash,
//! a kill), so a client is not left polling a task nobody runs.
//!
//! When Redis cannot be reached, a request about a task is refused with a
//! sentence naming the store (the task is not lost: it lives in Redis); a
//! replica whose handler finished keeps the ending and writes it once Redis
//! is back, answering polls for that task from its own copy meanwhile.

use super::{
    Ending, Owner, Reservation, Status, TaskLimits, TaskRefusal, TaskView, new_id, numbered,
};
use crate::registry::flags::redis::timeout;
use redis::AsyncCommands;
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tokio_util::sync::CancellationToken;

/// How often the replica running a task looks for answers and for the
/// cancel mark.
const WATCH: Duration = Duration::from_millis(100);
/// How often the replica running a task says it still is.
const BEAT: Duration = Duration::from_secs(1);
/// How long a running task may go without a sign of life before a poll
/// says the replica running it stopped.
const STALE: Duration = Duration::from_secs(10);
/// The longest wait between attempts to write an ending Redis did not take.
const MAX_BACKOFF: Duration = Duration::from_secs(2);

/// Where replicas keep their tasks: the Redis their flags are shared
/// through. Made by [`RedisStore::tasks`](crate::registry::RedisStore::tasks),
/// given to [`Server::tasks_in`](crate::serve::Server::tasks_in).
#[derive(Clone)]
pub struct RedisTasks {
    pub(crate) client: redis::Client,
    pub(crate) url: String,
    pub(crate) prefix: String,
}

impl std::fmt::Debug for RedisTasks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisTasks")
            .field("url", &self.url)
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

/// The store at work: where, and under which limits.
pub(crate) struct RedisTaskStore {
    home: RedisTasks,
    limits: TaskLimits,
    /// Endings this replica holds and Redis has not taken yet.
    unwritten: Mutex<HashMap<String, (String, Value)>>,
    /// The owners of the tasks whose handlers run on this replica.
    running: Mutex<HashMap<String, String>>,
}

fn millis(time: SystemTime) -> u64 {
    time.duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_millis() as u64
}

fn time_of(ms: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_millis(ms)
}

/// Takes a place within the limits: drops expired ids from the caller's
/// and the server's sets, counts, and adds the new id when there is room.
const RESERVE: &str = r"
local expired = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', expired)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', expired)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) or redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4]) then
  return 0
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[5])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[5])
redis.call('PEXPIRE', KEYS[1], ARGV[6])
redis.call('PEXPIRE', KEYS[2], ARGV[6])
return 1
";

/// Delivers answers: only to questions open now, each taken from the open
/// ones and kept for the handler. -1: no such task for this owner.
const UPDATE: &str = r"
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then return -1 end
if redis.call('HEXISTS', KEYS[1], 'end') == 1 then return 0 end
local taken = 0
for i = 3, #ARGV, 2 do
  if redis.call('HDEL', KEYS[2], ARGV[i]) == 1 then
    redis.call('HSET', KEYS[3], ARGV[i], ARGV[i + 1])
    taken = taken + 1
  end
end
if taken > 0 then
  redis.call('HSET', KEYS[1], 'updated', ARGV[2])
  redis.call('PEXPIRE', KEYS[3], redis.call('PTTL', KEYS[1]))
end
return taken
";

/// Marks a running task cancelled. -1: no such task for this owner.
const CANCEL: &str = r"
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then return -1 end
if redis.call('HEXISTS', KEYS[1], 'end') == 0 then
  redis.call('HSET', KEYS[1], 'cancel', '1', 'updated', ARGV[2])
end
return 1
";

/// Opens a question: 0 when the task is gone, ended or cancelled.
const ASK: &str = r"
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('HEXISTS', KEYS[1], 'end') == 1
  or redis.call('HGET', KEYS[1], 'cancel') == '1' then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[1], 'updated', ARGV[3])
redis.call('PEXPIRE', KEYS[2], redis.call('PTTL', KEYS[1]))
return 1
";

/// Takes the answer to a question, if delivered: the answer, or 'cancel'
/// when the task was cancelled or is gone, or nil while it waits.
const TAKE: &str = r"
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('HGET', KEYS[1], 'cancel') == '1' then
  return 'cancel'
end
local answer = redis.call('HGET', KEYS[2], ARGV[1])
if answer then redis.call('HDEL', KEYS[2], ARGV[1]) end
return answer
";

/// Ends a task: cancelled when the mark is set, else as the handler ended.
const FINISH: &str = r"
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('HEXISTS', KEYS[1], 'end') == 1 then return 0 end
local ending = ARGV[1]
if redis.call('HGET', KEYS[1], 'cancel') == '1' then ending = ARGV[2] end
redis.call('HSET', KEYS[1], 'end', ending, 'updated', ARGV[3])
redis.call('DEL', KEYS[2], KEYS[3])
return 1
";

/// Records that the replica running a task still does, by Redis's clock
/// (replicas' own clocks may disagree).
const ALIVE: &str = r"
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('HEXISTS', KEYS[1], 'end') == 1 then return 0 end
local now = redis.call('TIME')
redis.call('HSET', KEYS[1], 'beat', now[1] * 1000 + math.floor(now[2] / 1000))
return 1
";

/// Sets the status message of a running task.
const SAY: &str = r"
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('HEXISTS', KEYS[1], 'end') == 1 then return 0 end
redis.call('HSET', KEYS[1], 'message', ARGV[1], 'updated', ARGV[2])
return 1
";

fn ending_json(ending: Option<Ending>) -> Value {
    match ending {
        None => json!({"status": "cancelled"}),
        Some(Ending::Completed(result)) => json!({"status": "completed", "result": result}),
        Some(Ending::Failed(error)) => json!({"status": "failed", "error": error}),
    }
}

/// The error of a task whose replica stopped running it.
fn stopped(silent: Duration) -> Map<String, Value> {
    let mut error = Map::new();
    error.insert("code".into(), json!(-32603));
    error.insert(
        "message".into(),
        json!(format!(
            "the server running this task stopped before it finished (no sign of it for {} s), so whether it took effect is unknown (work it started may still complete); check before calling the tool again",
            silent.as_secs()
        )),
    );
    error
}

fn status_of(ending: &Value) -> Status {
    let object = |key: &str| {
        ending
            .get(key)
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default()
    };
    match ending.get("status").and_then(Value::as_str) {
        Some("completed") => Status::Completed(object("result")),
        Some("failed") => Status::Failed(object("error")),
        _ => Status::Cancelled,
    }
}

impl RedisTaskStore {
    pub(crate) fn new(home: RedisTasks, limits: TaskLimits) -> RedisTaskStore {
        RedisTaskStore {
            home,
            limits,
            unwritten: Mutex::new(HashMap::new()),
            running: Mutex::new(HashMap::new()),
        }
    }

    fn task_key(&self, id: &str) -> String {
        format!("{}:task:{id}", self.home.prefix)
    }

    fn keys(&self, id: &str) -> [String; 4] {
        let task = self.task_key(id);
        [
            format!("{task}:open"),
            format!("{task}:answers"),
            format!("{task}:issued"),
            task,
        ]
    }

    fn owner_key(&self, owner: &str) -> String {
        format!("{}:owner:{owner}", self.home.prefix)
    }

    fn all_key(&self) -> String {
        format!("{}:tasks", self.home.prefix)
    }

    fn unreachable(&self, error: impl std::fmt::Display) -> TaskRefusal {
        TaskRefusal::Unreachable(format!(
            "the task store at {} cannot be reached ({error}); the task is kept there, so ask again shortly",
            self.home.url
        ))
    }

    async fn connection(&self) -> Result<redis::aio::MultiplexedConnection, TaskRefusal> {
        timeout(self.home.client.get_multiplexed_async_connection())
            .await
            .map_err(|e| self.unreachable(e))
    }

    fn ttl_ms(&self) -> u64 {
        self.limits.ttl.as_millis() as u64
    }

    pub(crate) async fn reserve(self: &std::sync::Arc<Self>, owner: &Owner) -> Option<Reservation> {
        let id = new_id()?;
        let now = millis(SystemTime::now());
        let mut connection = match self.connection().await {
            Ok(connection) => connection,
            Err(refusal) => {
                // Without the store there is no task to keep: the call runs
                // as an ordinary one.
                tracing::warn!(%refusal, "no place for a task");
                return None;
            }
        };
        let reserved: redis::RedisResult<i64> = timeout(
            redis::Script::new(RESERVE)
                .key(self.owner_key(&owner.name))
                .key(self.all_key())
                .arg(now.saturating_sub(self.ttl_ms()))
                .arg(now)
                // Callers that cannot be told apart: only the limit on all.
                .arg(match owner.counted {
                    true => self.limits.per_caller,
                    false => self.limits.total,
                })
                .arg(self.limits.total)
                .arg(&id)
                .arg(self.ttl_ms())
                .invoke_async(&mut connection),
        )
        .await;
        match reserved {
            Ok(1) => {}
            Ok(_) => return None,
            Err(error) => {
                tracing::warn!(url = %self.home.url, %error, "no place for a task");
                return None;
            }
        }
        let store = self.clone();
        let (releasing, owner_key) = (id.clone(), self.owner_key(&owner.name));
        Some(Reservation::new(
            owner,
            id,
            Box::new(move || {
                let Ok(runtime) = tokio::runtime::Handle::try_current() else {
                    return;
                };
                runtime.spawn(async move {
                    if let Ok(mut connection) = store.connection().await {
                        let _: redis::RedisResult<()> = timeout(
                            redis::pipe()
                                .zrem(&owner_key, &releasing)
                                .zrem(store.all_key(), &releasing)
                                .query_async(&mut connection),
                        )
                        .await;
                    }
                });
            }),
        ))
    }

    pub(crate) async fn create(
        self: &std::sync::Arc<Self>,
        mut reservation: Reservation,
        cancel: CancellationToken,
    ) -> Result<TaskView, TaskRefusal> {
        let now = SystemTime::now();
        let id = reservation.id.clone();
        let mut connection = self.connection().await?;
        let key = self.task_key(&id);
        timeout(
            redis::pipe()
                .atomic()
                .hset_multiple(
                    &key,
                    &[
                        ("owner", reservation.owner.name.clone()),
                        ("created", millis(now).to_string()),
                        ("updated", millis(now).to_string()),
                    ],
                )
                .ignore()
                .pexpire(&key, self.ttl_ms() as i64)
                .ignore()
                .query_async::<()>(&mut connection),
        )
        .await
        .map_err(|e| self.unreachable(e))?;
        let _: redis::RedisResult<i64> = timeout(
            redis::Script::new(ALIVE)
                .key(&key)
                .invoke_async(&mut connection),
        )
        .await;
        reservation.take();
        self.running
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(id.clone(), reservation.owner.name.clone());
        tokio::spawn(watch(self.clone(), id.clone(), cancel));
        Ok(self.view(&id, now, now, None, Status::Working))
    }

    fn view(
        &self,
        id: &str,
        created: SystemTime,
        updated: SystemTime,
        message: Option<String>,
        status: Status,
    ) -> TaskView {
        TaskView::new(&self.limits, id, status, message, created, updated)
    }

    pub(crate) async fn get(&self, owner: &str, id: &str) -> Result<TaskView, TaskRefusal> {
        let read = async {
            let mut connection = self.connection().await?;
            let [open, _, _, key] = self.keys(id);
            let (fields, open, (secs, micros)): (
                HashMap<String, String>,
                BTreeMap<String, String>,
                (u64, u64),
            ) = timeout(
                redis::pipe()
                    .hgetall(&key)
                    .hgetall(&open)
                    .cmd("TIME")
                    .query_async(&mut connection),
            )
            .await
            .map_err(|e| self.unreachable(e))?;
            Ok::<_, TaskRefusal>((fields, open, secs * 1000 + micros / 1000))
        };
        let (fields, open, redis_now) = match read.await {
            Ok(read) => read,
            Err(refusal) => return self.held(owner, id).ok_or(refusal),
        };
        if fields.get("owner").map(String::as_str) != Some(owner) {
            return Err(TaskRefusal::Unknown(id.to_owned()));
        }
        let number = |field: &str| {
            fields
                .get(field)
                .and_then(|v| v.parse::<u64>().ok())
                .unwrap_or_default()
        };
        // A task whose first sign of life was never written is taken as alive.
        let silent = match fields.get("beat") {
            Some(_) => Duration::from_millis(redis_now.saturating_sub(number("beat"))),
            None => Duration::ZERO,
        };
        let status = match fields.get("end") {
            Some(ending) => status_of(&serde_json::from_str(ending).unwrap_or(Value::Null)),
            None if silent > STALE => Status::Failed(stopped(silent)),
            None if !open.is_empty() => Status::InputRequired(
                open.into_iter()
                    .map(|(k, v)| (k, serde_json::from_str(&v).unwrap_or(Value::Null)))
                    .collect(),
            ),
            None => Status::Working,
        };
        Ok(self.view(
            id,
            time_of(number("created")),
            time_of(number("updated")),
            fields.get("message").cloned(),
            status,
        ))
    }

    /// A task this replica finished while Redis was away, as it ended.
    fn held(&self, owner: &str, id: &str) -> Option<TaskView> {
        let held = self.unwritten.lock().unwrap_or_else(|p| p.into_inner());
        let (held_owner, ending) = held.get(id)?;
        (held_owner == owner).then(|| {
            let now = SystemTime::now();
            self.view(id, now, now, None, status_of(ending))
        })
    }

    pub(crate) async fn update(
        &self,
        owner: &str,
        id: &str,
        responses: Map<String, Value>,
    ) -> Result<(), TaskRefusal> {
        let mut connection = self.connection().await?;
        let [open, answers, _, key] = self.keys(id);
        let script = redis::Script::new(UPDATE);
        let mut invocation = script.key(&key);
        invocation
            .key(&open)
            .key(&answers)
            .arg(owner)
            .arg(millis(SystemTime::now()));
        for (question, answer) in &responses {
            invocation.arg(question).arg(answer.to_string());
        }
        let taken: i64 = timeout(invocation.invoke_async(&mut connection))
            .await
            .map_err(|e| self.unreachable(e))?;
        if taken < 0 {
            return Err(TaskRefusal::Unknown(id.to_owned()));
        }
        Ok(())
    }

    pub(crate) async fn cancel(&self, owner: &str, id: &str) -> Result<(), TaskRefusal> {
        let mut connection = self.connection().await?;
        let cancelled: i64 = timeout(
            redis::Script::new(CANCEL)
                .key(self.task_key(id))
                .arg(owner)
                .arg(millis(SystemTime::now()))
                .invoke_async(&mut connection),
        )
        .await
        .map_err(|e| self.unreachable(e))?;
        if cancelled < 0 {
            return Err(TaskRefusal::Unknown(id.to_owned()));
        }
        Ok(())
    }

    pub(crate) async fn ask(&self, id: &str, key: &str, request: Value) -> Option<Value> {
        let [open, answers, issued, task] = self.keys(id);
        let mut n = 1;
        let mut asked = numbered(key, n);
        let mut down = false;
        loop {
            let attempt = async {
                let mut connection = self.connection().await?;
                loop {
                    let fresh: i64 = timeout(connection.sadd(&issued, &asked))
                        .await
                        .map_err(|e| self.unreachable(e))?;
                    if fresh == 1 {
                        break;
                    }
                    n += 1;
                    asked = numbered(key, n);
                }
                let _: redis::RedisResult<()> =
                    timeout(connection.pexpire(&issued, self.ttl_ms() as i64)).await;
                let opened: i64 = timeout(
                    redis::Script::new(ASK)
                        .key(&task)
                        .key(&open)
                        .arg(&asked)
                        .arg(request.to_string())
                        .arg(millis(SystemTime::now()))
                        .invoke_async(&mut connection),
                )
                .await
                .map_err(|e| self.unreachable(e))?;
                Ok::<_, TaskRefusal>(opened == 1)
            };
            match attempt.await {
                Ok(true) => break,
                Ok(false) => return None,
                Err(refusal) => {
                    if !down {
                        tracing::error!(task = id, %refusal, "a task's question waits for the task store");
                        down = true;
                    }
                    tokio::time::sleep(WATCH).await;
                }
            }
        }
        loop {
            tokio::time::sleep(WATCH).await;
            let Ok(mut connection) = self.connection().await else {
                continue;
            };
            let taken: redis::RedisResult<Option<String>> = timeout(
                redis::Script::new(TAKE)
                    .key(&task)
                    .key(&answers)
                    .arg(&asked)
                    .invoke_async(&mut connection),
            )
            .await;
            match taken {
                Ok(Some(answer)) if answer == "cancel" => return None,
                Ok(Some(answer)) => return serde_json::from_str(&answer).ok(),
                Ok(None) | Err(_) => {}
            }
        }
    }

    pub(crate) async fn say(&self, id: &str, message: String) {
        let Ok(mut connection) = self.connection().await else {
            return;
        };
        let _: redis::RedisResult<i64> = timeout(
            redis::Script::new(SAY)
                .key(self.task_key(id))
                .arg(message)
                .arg(millis(SystemTime::now()))
                .invoke_async(&mut connection),
        )
        .await;
    }

    /// Writes the ending; while Redis is away this replica keeps it, answers
    /// polls from it, and tries again with backoff until the task's time to
    /// live ends.
    pub(crate) async fn finish(&self, id: &str, ending: Option<Ending>) {
        let ending = ending_json(ending);
        let cancelled = ending_json(None);
        let [open, answers, _, task] = self.keys(id);
        let deadline = tokio::time::Instant::now() + self.limits.ttl;
        let mut backoff = Duration::from_millis(100);
        let mut held = false;
        loop {
            let written = async {
                let mut connection = self.connection().await?;
                timeout(
                    redis::Script::new(FINISH)
                        .key(&task)
                        .key(&open)
                        .key(&answers)
                        .arg(ending.to_string())
                        .arg(cancelled.to_string())
                        .arg(millis(SystemTime::now()))
                        .invoke_async::<i64>(&mut connection),
                )
                .await
                .map_err(|e| self.unreachable(e))
            };
            match written.await {
                Ok(_) => break,
                Err(refusal) => {
                    if !held {
                        tracing::error!(task = id, %refusal, "a task's ending waits for the task store; this replica keeps it meanwhile");
                        let owner = self
                            .running
                            .lock()
                            .unwrap_or_else(|p| p.into_inner())
                            .get(id)
                            .cloned()
                            .unwrap_or_default();
                        self.unwritten
                            .lock()
                            .unwrap_or_else(|p| p.into_inner())
                            .insert(id.to_owned(), (owner, ending.clone()));
                        held = true;
                    }
                    if tokio::time::Instant::now() >= deadline {
                        break;
                    }
                    tokio::time::sleep(backoff).await;
                    backoff = (backoff * 2).min(MAX_BACKOFF);
                }
            }
        }
        if held {
            self.unwritten
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .remove(id);
        }
        self.running
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(id);
    }
}

/// Watches a running task for the cancel mark (set by any replica) and for
/// its end, cancelling the handler's signal when the mark appears or the
/// task is gone.
async fn watch(store: std::sync::Arc<RedisTaskStore>, id: String, cancel: CancellationToken) {
    let key = store.task_key(&id);
    let mut beat = tokio::time::Instant::now();
    loop {
        tokio::select! {
            () = tokio::time::sleep(WATCH) => {}
            () = cancel.cancelled() => return,
        }
        let Ok(mut connection) = store.connection().await else {
            continue;
        };
        if beat.elapsed() >= BEAT {
            beat = tokio::time::Instant::now();
            let _: redis::RedisResult<i64> = timeout(
                redis::Script::new(ALIVE)
                    .key(&key)
                    .invoke_async(&mut connection),
            )
            .await;
        }
        let fields: redis::RedisResult<(Option<String>, bool, bool)> = timeout(
            redis::pipe()
                .hget(&key, "cancel")
                .hexists(&key, "end")
                .exists(&key)
                .query_async(&mut connection),
        )
        .await;
        match fields {
            Ok((_, true, _)) => return,
            Ok((Some(mark), _, _)) if mark == "1" => {
                cancel.cancel();
                return;
            }
            Ok((_, _, false)) => {
                cancel.cancel();
                return;
            }
            _ => {}
        }
    }
}
