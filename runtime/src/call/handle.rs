//! The per-call handle: what a handler may ask of the client while it runs.
//!
//! A handler that takes a `&Call` argument (recognised by its type, not
//! part of the input schema) can report progress, send log messages, notice
//! that the call was cancelled, ask the person a question, ask the client's
//! model to write, learn the client's roots, and see who is calling. The two
//! protocol eras do these differently underneath: on the `initialize` era a
//! question is a request the server sends the client, and the handler waits
//! for the answer; on 2026-07-28 a question ends the round with an
//! input-required result, and the retry runs the handler again with the
//! answers (see `call::rounds`). The handler's code is the same for both.
//!
//! A call made directly on a table, with no client, gets a detached handle:
//! progress and logs go nowhere, it is never cancelled, and questions fail
//! with [`AskError::NoClient`].

use crate::call::ask::{
    AskError, Capability, Elicitation, Elicited, Question, Root, RootsRequest, Sampled, Sampling,
    read_elicited, read_roots, read_sampled,
};
use crate::call::error::ToolError;
use crate::call::identity::Identity;
use crate::call::rounds::{Rounds, State, UNRECORDED, question_digest};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::fmt;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio_util::sync::CancellationToken;

/// The protocol era a call arrived in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Era {
    /// The `initialize` era (2025-11-25 and earlier): a session, and
    /// requests from the server to the client.
    Legacy,
    /// The stateless 2026-07-28 revision: every request stands alone, and
    /// questions travel as input-required results.
    Current,
}

/// How severe a log message is, from least to most (RFC 5424's levels, as
/// MCP uses them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LogLevel {
    /// Detail for debugging.
    Debug,
    /// Normal operation.
    Info,
    /// Normal but significant.
    Notice,
    /// Something to look at.
    Warning,
    /// An error.
    Error,
    /// A critical condition.
    Critical,
    /// Act now.
    Alert,
    /// The system is unusable.
    Emergency,
}

impl LogLevel {
    /// Every level, from least to most severe.
    pub const ALL: [LogLevel; 8] = [
        LogLevel::Debug,
        LogLevel::Info,
        LogLevel::Notice,
        LogLevel::Warning,
        LogLevel::Error,
        LogLevel::Critical,
        LogLevel::Alert,
        LogLevel::Emergency,
    ];

    /// The spelling MCP uses.
    pub const fn as_str(self) -> &'static str {
        match self {
            LogLevel::Debug => "debug",
            LogLevel::Info => "info",
            LogLevel::Notice => "notice",
            LogLevel::Warning => "warning",
            LogLevel::Error => "error",
            LogLevel::Critical => "critical",
            LogLevel::Alert => "alert",
            LogLevel::Emergency => "emergency",
        }
    }

    /// Parses MCP's spelling.
    pub fn parse(text: &str) -> Option<LogLevel> {
        LogLevel::ALL.into_iter().find(|l| l.as_str() == text)
    }
}

impl fmt::Display for LogLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What the client declared it can do, for the questions a handler asks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClientSupport {
    /// Form-mode elicitation.
    pub elicitation: bool,
    /// URL-mode elicitation.
    pub url_elicitation: bool,
    /// Sampling.
    pub sampling: bool,
    /// Roots.
    pub roots: bool,
}

impl ClientSupport {
    /// Whether the client declared `capability`.
    pub fn has(&self, capability: Capability) -> bool {
        match capability {
            Capability::Elicitation => self.elicitation,
            Capability::UrlElicitation => self.url_elicitation,
            Capability::Sampling => self.sampling,
            Capability::Roots => self.roots,
        }
    }
}

/// A message from the server to the client about a call in progress.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Notice {
    Progress {
        token: Value,
        progress: f64,
        total: Option<f64>,
        message: Option<String>,
    },
    Log {
        level: LogLevel,
        logger: Option<String>,
        data: Value,
    },
}

/// How a served call reaches its client; the serving layer implements it.
/// A boxed future a channel answers with (the handler contract's
/// `BoxFuture`, named here so that the handle does not reach back into the
/// contract that names it).
type Boxed<'a, T> = std::pin::Pin<Box<dyn std::future::Future<Output = T> + Send + 'a>>;

pub(crate) trait Channel: Send + Sync {
    /// Sends a notification; a failure to send is logged, not returned.
    fn notify(&self, notice: Notice) -> Boxed<'_, ()>;
    /// Asks the client now and waits for the answer: a request on the
    /// `initialize` era, or an input request of a task under `key`.
    fn request(
        &self,
        key: &str,
        method: &'static str,
        params: Value,
    ) -> Boxed<'_, Result<Value, AskError>>;
}

/// Where a call's questions and notices go once the server has made it a
/// task: empty while the call is an ordinary one, set once when it becomes
/// a task (the handler keeps running, and does not know).
pub(crate) type TaskSlot = Arc<std::sync::OnceLock<Arc<dyn Channel>>>;

/// How often progress may be reported: faster reports are dropped, except
/// the first and the one that reaches the total.
pub const PROGRESS_INTERVAL: Duration = Duration::from_millis(25);

/// What one run of the handler did that the next round needs.
#[derive(Default)]
struct RoundLog {
    /// Questions asked and not yet answered, in the order asked.
    asked: Vec<(String, Question)>,
    /// Steps run in this round.
    steps: BTreeMap<String, Value>,
    /// How many questions without a key the handler asked so far, for default keys.
    questions: usize,
    /// When progress was last sent.
    last_progress: Option<Instant>,
}

/// The per-call handle a handler may take as `&Call`.
pub struct Call {
    /// `None` for a call whose handler cannot see it (the shared "nobody"
    /// answers), so such a call touches no reference count.
    identity: Option<Arc<Identity>>,
    /// Everything a served call has; `None` for a detached call, which so
    /// costs a call nothing to make and drop.
    served: Option<Box<Served>>,
}

/// What a served call adds to a detached one.
struct Served {
    era: Era,
    meta: Map<String, Value>,
    client: ClientSupport,
    progress_token: Option<Value>,
    log_threshold: Option<LogLevel>,
    cancel: CancellationToken,
    channel: Arc<dyn Channel>,
    task: TaskSlot,
    rounds: Option<Rounds>,
    log: Mutex<RoundLog>,
    /// What the transport knows of the request (rmcp's request context), for
    /// tools served through the transport's own machinery: a tool of an
    /// rmcp `ToolRouter` needs it.
    transport: Option<Arc<dyn std::any::Any + Send + Sync>>,
}

impl Served {
    /// Where notices go: the task, once the call is one.
    fn active_channel(&self) -> &Arc<dyn Channel> {
        self.task.get().unwrap_or(&self.channel)
    }
}

impl fmt::Debug for Call {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Call")
            .field("era", &self.era())
            .field("identity", &self.identity)
            .field("client", &self.client())
            .field("served", &self.served.is_some())
            .finish_non_exhaustive()
    }
}

/// What a served call is made of; the serving layer (the rmcp adapter)
/// fills it in.
#[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
pub(crate) struct Parts {
    pub era: Era,
    pub identity: Arc<Identity>,
    pub meta: Map<String, Value>,
    pub client: ClientSupport,
    pub progress_token: Option<Value>,
    pub log_threshold: Option<LogLevel>,
    pub cancel: CancellationToken,
    pub channel: Arc<dyn Channel>,
    pub task: TaskSlot,
    pub rounds: Option<Rounds>,
    pub transport: Option<Arc<dyn std::any::Any + Send + Sync>>,
}

/// Which answers from the client a 2026-07-28 question accepts.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Answers {
    /// Any answer under its key, even one sent without a state.
    Any,
    /// Only an answer to the question as this server recorded asking it.
    RecordedOnly,
}

impl Call {
    /// A handle for a call made directly, with no client: progress and logs
    /// go nowhere, it is never cancelled, questions fail.
    pub fn detached() -> Call {
        Call {
            identity: None,
            served: None,
        }
    }

    pub(crate) fn detached_as(identity: Arc<Identity>) -> Call {
        Call {
            identity: Some(identity),
            served: None,
        }
    }

    #[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
    pub(crate) fn served(parts: Parts) -> Call {
        Call {
            identity: Some(parts.identity),
            served: Some(Box::new(Served {
                era: parts.era,
                meta: parts.meta,
                client: parts.client,
                progress_token: parts.progress_token,
                log_threshold: parts.log_threshold,
                cancel: parts.cancel,
                channel: parts.channel,
                task: parts.task,
                rounds: parts.rounds,
                log: Mutex::new(RoundLog::default()),
                transport: parts.transport,
            })),
        }
    }

    /// What the transport knows of the request, if this call was served
    /// through one that said, as a `T`.
    #[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
    pub(crate) fn transport<T: 'static>(&self) -> Option<&T> {
        self.served.as_ref()?.transport.as_ref()?.downcast_ref()
    }

    /// The round's log; `None` for a detached call, which has no rounds.
    fn round(&self) -> Option<std::sync::MutexGuard<'_, RoundLog>> {
        // A handler that panicked mid-round leaves a log that is still whole.
        let served = self.served.as_ref()?;
        Some(served.log.lock().unwrap_or_else(|p| p.into_inner()))
    }

    fn rounds(&self) -> Option<&Rounds> {
        self.served.as_ref()?.rounds.as_ref()
    }

    /// The protocol era the call arrived in (a detached call counts as the
    /// `initialize` era: it never has rounds).
    pub fn era(&self) -> Era {
        self.served.as_ref().map_or(Era::Legacy, |s| s.era)
    }

    /// Who is calling, as the policy saw them.
    pub fn identity(&self) -> &Identity {
        static NOBODY: std::sync::LazyLock<Identity> = std::sync::LazyLock::new(Identity::default);
        self.identity.as_deref().unwrap_or(&NOBODY)
    }

    /// The request's `_meta` (empty for a detached call).
    pub fn meta(&self) -> &Map<String, Value> {
        static EMPTY: std::sync::LazyLock<Map<String, Value>> = std::sync::LazyLock::new(Map::new);
        self.served.as_ref().map_or(&EMPTY, |s| &s.meta)
    }

    /// What the client declared it can be asked.
    pub fn client(&self) -> ClientSupport {
        self.served.as_ref().map(|s| s.client).unwrap_or_default()
    }

    /// Reports progress: `progress` so far, of `total` if known, with a
    /// message. Nothing is sent when the client gave no progress token, and
    /// reports faster than [`PROGRESS_INTERVAL`] are dropped (the first and
    /// the last, at the total, always go), so a tight loop cannot flood the
    /// transport.
    pub async fn progress(&self, progress: f64, total: Option<f64>, message: Option<&str>) {
        let Some(served) = &self.served else {
            return;
        };
        // A task shows progress as its status message, token or not.
        let token = match (&served.progress_token, served.task.get()) {
            (Some(token), _) => token.clone(),
            (None, Some(_)) => Value::Null,
            (None, None) => return,
        };
        if self.is_cancelled() {
            return;
        }
        {
            let Some(mut round) = self.round() else {
                return;
            };
            let now = Instant::now();
            let last = total.is_some_and(|t| progress >= t);
            let due = round
                .last_progress
                .is_none_or(|at| now.duration_since(at) >= PROGRESS_INTERVAL);
            if !(due || last) {
                return;
            }
            round.last_progress = Some(now);
        }
        served
            .active_channel()
            .notify(Notice::Progress {
                token,
                progress,
                total,
                message: message.map(str::to_owned),
            })
            .await;
    }

    /// Whether a message at `level` would reach the client.
    pub fn logs(&self, level: LogLevel) -> bool {
        self.served
            .as_ref()
            .is_some_and(|s| s.log_threshold.is_some_and(|t| level >= t))
    }

    /// Sends a log message to the client, when the client asked for that
    /// level: on the `initialize` era with `logging/setLevel` (every level
    /// from `info` until it does), on 2026-07-28 only when the request's
    /// `_meta` asked for it.
    pub async fn log(&self, level: LogLevel, data: impl Serialize) {
        if !self.logs(level) || self.is_cancelled() {
            return;
        }
        let Some(served) = &self.served else {
            return;
        };
        let data = serde_json::to_value(data).unwrap_or(Value::Null);
        served
            .active_channel()
            .notify(Notice::Log {
                level,
                logger: None,
                data,
            })
            .await;
    }

    /// Sends an `info` log message.
    pub async fn info(&self, message: &str) {
        self.log(LogLevel::Info, message).await;
    }

    /// Sends a `warning` log message.
    pub async fn warning(&self, message: &str) {
        self.log(LogLevel::Warning, message).await;
    }

    /// Whether the call was cancelled: by the client, by the client going
    /// away, or by the server's time limit for a call.
    pub fn is_cancelled(&self) -> bool {
        self.served
            .as_ref()
            .is_some_and(|s| s.cancel.is_cancelled())
    }

    /// Completes when the call is cancelled; never, for a detached call.
    pub async fn cancelled(&self) {
        match &self.served {
            Some(served) => served.cancel.cancelled().await,
            None => std::future::pending().await,
        }
    }

    /// Asks the person a question. On the `initialize` era the client is
    /// asked now; on 2026-07-28 the round ends and the handler runs again
    /// with the answer. Declining or cancelling is an answer, not an error.
    pub async fn elicit(&self, question: Elicitation) -> Result<Elicited, AskError> {
        let (key, answer) = self.ask(Question::Elicit(question), Answers::Any).await?;
        read_elicited(&key, &answer)
    }

    /// Asks the person whether a call may run. On 2026-07-28 only an answer
    /// to the question this server asked counts: one sent before the
    /// question (without the state that records it) is ignored and the
    /// question asked.
    pub(crate) async fn ask_consent(&self, question: Elicitation) -> Result<Elicited, AskError> {
        let (key, answer) = self
            .ask(Question::Elicit(question), Answers::RecordedOnly)
            .await?;
        read_elicited(&key, &answer)
    }

    /// Asks the client's model to write a message.
    pub async fn sample(&self, request: Sampling) -> Result<Sampled, AskError> {
        let (key, answer) = self.ask(Question::Sample(request), Answers::Any).await?;
        read_sampled(&key, &answer)
    }

    /// Asks for the client's roots.
    pub async fn roots(&self, request: RootsRequest) -> Result<Vec<Root>, AskError> {
        let (key, answer) = self.ask(Question::Roots(request), Answers::Any).await?;
        read_roots(&key, &answer)
    }

    /// Runs a side effect once per call, across rounds. On 2026-07-28 a
    /// handler that asks a question runs again on the retry; a step it ran
    /// before the question returns its recorded result instead of running
    /// again. Write effects that precede a question as steps (or ask first).
    /// On the `initialize` era, and for a detached call, the step just runs.
    pub async fn step<T, F, Fut>(&self, name: &str, effect: F) -> Result<T, ToolError>
    where
        T: Serialize + DeserializeOwned,
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<T, ToolError>>,
    {
        let Some(rounds) = self.rounds() else {
            return effect().await;
        };
        if let Some(recorded) = rounds.steps.get(name) {
            return serde_json::from_value(recorded.clone()).map_err(ToolError::internal);
        }
        let value = effect().await?;
        let recorded = serde_json::to_value(&value).map_err(ToolError::internal)?;
        if let Some(mut round) = self.round() {
            round.steps.insert(name.to_owned(), recorded);
        }
        Ok(value)
    }

    /// The key of the next question: its own, or its order among the
    /// questions without one (so a key given to one question does not
    /// renumber the others).
    fn next_key(round: &mut RoundLog, question: &Question) -> String {
        match question.explicit_key() {
            Some(key) => key.to_owned(),
            None => {
                round.questions += 1;
                format!("q{}", round.questions)
            }
        }
    }

    async fn ask(&self, question: Question, answers: Answers) -> Result<(String, Value), AskError> {
        let Some(served) = &self.served else {
            return Err(AskError::NoClient);
        };
        let key = match self.round() {
            Some(mut round) => Call::next_key(&mut round, &question),
            None => return Err(AskError::NoClient),
        };
        if !served.client.has(question.capability()) {
            return Err(AskError::Unsupported(question.capability()));
        }
        let answered = |key: &str| {
            self.rounds()
                .and_then(|r| r.answers.get(key))
                .filter(|(asked, _)| answers == Answers::Any || asked != UNRECORDED)
        };
        // A task asks through itself, in the current revision's terms; an
        // answer its earlier rounds carried still counts.
        if let Some(task) = served.task.get()
            && answered(&key).is_none()
        {
            let params = question.input_request_params();
            return tokio::select! {
                answer = task.request(&key, question.method(), params) => answer.map(|a| (key, a)),
                () = self.cancelled() => Err(AskError::Cancelled),
            };
        }
        match served.era {
            Era::Legacy => {
                let cancelled = self.cancelled();
                tokio::select! {
                    answer = served.channel.request(&key, question.method(), question.params()) => {
                        answer.map(|a| (key, a))
                    }
                    () = cancelled => Err(AskError::Cancelled),
                }
            }
            Era::Current => {
                let digest = question_digest(question.method(), &question.input_request_params());
                if let Some((asked, answer)) = answered(&key) {
                    if asked != UNRECORDED && *asked != digest {
                        return Err(AskError::BadAnswer {
                            key,
                            why: "the handler asked a different question under this key than the one answered; a question may depend only on the arguments and earlier answers".into(),
                        });
                    }
                    return Ok((key, answer.clone()));
                }
                if let Some(mut round) = self.round() {
                    round.asked.push((key, question));
                }
                // The round ends here: the executor sees the question, drops
                // the handler and answers input-required.
                std::future::pending().await
            }
        }
    }

    /// Whether the handler asked a question this round that has no answer.
    pub(crate) fn has_asked(&self) -> bool {
        self.round().is_some_and(|round| !round.asked.is_empty())
    }

    /// The questions of this round, and the state that carries the call to
    /// the next one.
    pub(crate) fn end_round(&self) -> (Vec<(String, &'static str, Value)>, State) {
        let (asked, steps) = match self.round() {
            Some(mut round) => (
                std::mem::take(&mut round.asked),
                std::mem::take(&mut round.steps),
            ),
            None => (Vec::new(), BTreeMap::new()),
        };
        let digests = asked
            .iter()
            .map(|(key, q)| {
                (
                    key.clone(),
                    question_digest(q.method(), &q.input_request_params()),
                )
            })
            .collect();
        let requests = asked
            .into_iter()
            .map(|(key, q)| (key, q.method(), q.input_request_params()))
            .collect();
        let rounds = self.rounds().cloned().unwrap_or_default();
        (requests, rounds.next(steps, digests))
    }
}
