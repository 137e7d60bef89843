//! The rmcp adapter: a registry as an rmcp `ServerHandler`.
//!
//! [`McpServer`] implements rmcp's `ServerHandler`: `tools/list` and
//! `tools/call` go through the [`Registry`] (so its policy, flags, pins and
//! call order apply), `get_tool` answers rmcp's HTTP transport, and the
//! server identifies itself with the user crate's own name and version,
//! never rmcp's. rmcp speaks both protocol eras (the 2026-07-28 stateless
//! revision and the `initialize` era) and shapes each result for the era the
//! peer negotiated; this adapter supplies what the current revision adds to
//! a listing, `ttlMs` and `cacheScope`.
//!
//! Each call gets a [`Call`] built from the request: its era, caller,
//! `_meta`, progress token, log level, cancellation and the client's
//! capabilities, and a channel back to the client over rmcp's peer. On
//! 2026-07-28 a handler's questions become an input-required result whose
//! `requestState` is sealed with the server's key (HMAC-SHA256), so a retry
//! resumes from state the client carried but could not change. The tool
//! list's changes reach `initialize`-era sessions as
//! `notifications/tools/list_changed` and 2026-07-28 clients through
//! `subscriptions/listen`.

mod task_call;

use crate::call::ask::AskError;
use crate::call::content::Content;
use crate::call::execute::HandlerContext;
use crate::call::handle::{Call, Channel, ClientSupport, Era, LogLevel, Notice, Parts, TaskSlot};
use crate::call::handler::{Arguments, BoxFuture};
use crate::call::result::{CallError, CallToolResult, InputRequired, Reply};
use crate::call::rounds::{Rounds, State};
use crate::mcp::admission::Admission;
use crate::mcp::caller::CallerSource;
use crate::mcp::caller::transport_caller;
use crate::mcp::calling::{Calling, ShortcutCalls};
use crate::mcp::discovery::{Discovery, DiscoveryMode};
use crate::mcp::era::Negotiated;
use crate::mcp::listing::{self, Listing};
use crate::mcp::request::CallParams;
use crate::mcp::settings::Settings;
use crate::mcp::shortcut::{Shortcut, Shortcuts};
use crate::mcp::tasks;
use crate::registry::policy::Caller;
use crate::registry::registry::{Dispatched, Entry, Registry};
use crate::registry::tasks::Tasks;
use crate::rules::param_headers;
use crate::rules::quote;
use crate::rules::tier::Tier;
use crate::wire::fingerprint::Fingerprint;
// Logging is deprecated in rmcp (SEP-2577) but is still part of both
// protocol eras tooltable serves.
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult as McpCallToolResult, CancelTaskParams,
    ContentBlock, CustomRequest, CustomResult, ErrorCode, GetTaskParams, GetTaskResult,
    Implementation, InitializeRequestParams, InitializeResult, InputRequest, InputRequests,
    InputRequiredResult, ListToolsResult, PaginatedRequestParams, ProgressNotificationParam,
    ProgressToken, ProtocolVersion, RequestStateCodec, SealOptions, ServerCapabilities,
    ServerConfig, ServerRequest, SubscriptionFilter, Tool, UpdateTaskParams,
};
#[allow(deprecated)]
use rmcp::model::{LoggingLevel, LoggingMessageNotificationParam, SetLevelRequestParams};
use rmcp::service::{
    NotificationContext, Peer, RequestContext, RoleServer, SubscriptionContext, SubscriptionSink,
};
use rmcp::{ErrorData, ServerHandler};
use serde_json::Value;
use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

/// How long a `requestState` stays valid, by default: a person answering a
/// question may take a while.
pub(crate) const DEFAULT_STATE_TTL: Duration = Duration::from_secs(15 * 60);

/// The largest sealed `requestState` issued or accepted.
pub(crate) const MAX_STATE_BYTES: usize = 64 * 1024;

/// How long a handler stopped for taking too long gets to finish cleanly.
const CANCEL_GRACE: Duration = Duration::from_secs(1);

/// How often a session waiting for tool-list changes checks that it is
/// still open.
const SESSION_CHECK: Duration = Duration::from_secs(30);

/// The length of a `requestState` key, in bytes.
pub(crate) const STATE_KEY_BYTES: usize = 32;

/// What one session of a client holds: its logging level, and whether it
/// is being told about tool-list changes. Each clone of an [`McpServer`]
/// starts a new session (rmcp makes one clone per HTTP session).
#[derive(Default)]
struct Session {
    log_level: Mutex<Option<LogLevel>>,
    /// Set once a notification could not be handed to rmcp in time: the
    /// session is closing (rmcp stops sending notifications at the end of
    /// the input, while it still drains responses), so later ones are
    /// dropped at once instead of holding up the calls that send them.
    closing: Arc<AtomicBool>,
    /// The version an `initialize`-era session opened with, once the client
    /// said it is initialized (for the transport's own `tools/list`).
    negotiated: Arc<Negotiated>,
    /// The session's own name, drawn at random the first time a task of a
    /// caller without a subject needs an owner.
    id: std::sync::OnceLock<String>,
    /// The tools a search found, in discovery's reveal mode: they join this
    /// session's listing.
    revealed: Mutex<BTreeSet<String>>,
}

impl Session {
    fn id(&self) -> &str {
        self.id
            .get_or_init(|| crate::registry::tasks::new_id().unwrap_or_default())
    }
}

/// An rmcp `ServerHandler` serving a [`Registry`].
///
/// Cloning it gives a handler for a new session: the clone shares the
/// registry, the context and the state key, and starts with its own
/// logging level.
pub struct McpServer<C: Send + Sync + 'static> {
    registry: Registry<C>,
    context: Arc<C>,
    settings: Arc<Settings>,
    admission: Arc<Admission>,
    state: Arc<RequestStateCodec>,
    state_ttl: Duration,
    tools: Arc<RwLock<HashMap<String, (Fingerprint, Tool)>>>,
    tasks: Tasks,
    /// Whether any tool of the table may run as a task.
    serves_tasks: bool,
    session: Arc<Session>,
}

impl<C: Send + Sync + 'static> Clone for McpServer<C> {
    fn clone(&self) -> McpServer<C> {
        McpServer {
            session: Arc::new(Session::default()),
            ..self.share()
        }
    }
}

impl<C: Send + Sync + 'static> McpServer<C> {
    /// Answers `initialize` as rmcp does for `handler` (the adapter, or the
    /// handler it is composed into), and records the revision the session
    /// opens on: from then on the shortcuts can tell the session's era.
    /// Recorded here rather than at `notifications/initialized`, which rmcp
    /// handles apart from the requests after it: a `tools/list` sent right
    /// after it would be served by rmcp or by the shortcut depending on
    /// which ran first (rmcp serves requests before `initialized` too).
    pub(crate) fn open(
        &self,
        handler: &impl ServerHandler,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        context.peer.set_peer_info(request.clone());
        let result = handler.negotiate_initialize(&request)?;
        self.session.negotiated.set(request.protocol_version);
        Ok(result)
    }

    /// This server for this session: the session shared, not a new one.
    fn share(&self) -> McpServer<C> {
        McpServer {
            registry: self.registry.clone(),
            context: self.context.clone(),
            settings: self.settings.clone(),
            admission: self.admission.clone(),
            state: self.state.clone(),
            state_ttl: self.state_ttl,
            tools: self.tools.clone(),
            tasks: self.tasks.clone(),
            serves_tasks: self.serves_tasks,
            session: self.session.clone(),
        }
    }
}

/// Why a `requestState` key was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateKeyError(String);

impl std::fmt::Display for StateKeyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for StateKeyError {}

fn random_key() -> Vec<u8> {
    let mut key = vec![0u8; STATE_KEY_BYTES];
    if let Err(error) = getrandom::fill(&mut key) {
        // No entropy source is a broken host; a server that cannot seal state
        // must not start quietly with a guessable key.
        panic!("tooltable: the system has no random source for the requestState key: {error}");
    }
    key
}

impl<C: Send + Sync + 'static> McpServer<C> {
    /// Serves `registry` with `context` handed to every handler. The server
    /// names itself after the crate that declared the tools, and seals
    /// `requestState` with a key drawn at random for this process.
    pub fn new(registry: Registry<C>, context: Arc<C>) -> McpServer<C> {
        let table = registry.table();
        let serves_tasks = registry
            .entries()
            .iter()
            .any(|entry| entry.info().task.allows_task());
        let codec = RequestStateCodec::try_new(random_key())
            .unwrap_or_else(|_| RequestStateCodec::new_unchecked(random_key()));
        let settings = Settings::new(Implementation::new(
            table.crate_name(),
            table.crate_version(),
        ));
        McpServer {
            registry,
            context,
            admission: Arc::new(Admission::new(settings.call_limits)),
            tasks: Tasks::new(&settings.task_home, settings.task_limits),
            settings: Arc::new(settings),
            state: Arc::new(codec),
            state_ttl: DEFAULT_STATE_TTL,
            tools: Arc::new(RwLock::new(HashMap::new())),
            serves_tasks,
            session: Arc::new(Session::default()),
        }
    }

    /// Applies `change` to the settings, and makes again what is made of
    /// them (the admission of calls, the tasks' home). Before serving.
    pub(crate) fn configure(mut self, change: impl FnOnce(&mut Settings)) -> McpServer<C> {
        let settings = Arc::make_mut(&mut self.settings);
        change(settings);
        self.admission = Arc::new(Admission::new(settings.call_limits));
        self.tasks = Tasks::new(&settings.task_home, settings.task_limits);
        self
    }

    /// Whether any tool of the table, or of a provider registered before the
    /// server was made, may run as a task: only then does the server declare
    /// the Tasks extension and answer its methods.
    pub(crate) fn serves_tasks(&self) -> bool {
        self.serves_tasks
    }

    /// Whether discovery's found tools join this session's listing: in
    /// reveal mode, on an `initialize`-era session that initialized (only
    /// such a session has a listing of its own and hears
    /// `notifications/tools/list_changed`).
    fn reveals(&self, discovery: &Discovery, context: &RequestContext<RoleServer>) -> bool {
        discovery.mode == DiscoveryMode::Reveal
            && era_of(context) == Era::Legacy
            && self.session.negotiated.is_set()
    }

    /// Adds `found` to this session's listing and, when that changes it,
    /// tells the client, unless the session is closing.
    async fn reveal(&self, found: Vec<String>, peer: &Peer<RoleServer>) {
        let grew = {
            let mut revealed = self
                .session
                .revealed
                .lock()
                .unwrap_or_else(|p| p.into_inner());
            found
                .into_iter()
                .fold(false, |grew, name| revealed.insert(name) | grew)
        };
        if grew {
            deliver(&self.session.closing, peer.notify_tool_list_changed()).await;
        }
    }

    /// The caller of a request.
    fn caller_of(&self, context: &RequestContext<RoleServer>) -> Caller {
        match &self.settings.caller {
            CallerSource::Transport => transport_caller(context),
            CallerSource::Fixed(caller) => caller.clone(),
            CallerSource::Custom(f) => f(context),
        }
    }

    /// What a transport answers before rmcp, for this server's session
    /// (`stdio`) or for stateless requests only.
    pub(crate) fn shortcut(&self, stateless: bool) -> Arc<dyn Shortcut> {
        let session = (!stateless).then(|| self.session.negotiated.clone());
        Arc::new(Shortcuts {
            // Discovery mode lists and calls tools of its own, which only
            // the adapter's typed path knows.
            listing: (self.settings.shortcut_lists && self.settings.discovery.is_none()).then(
                || Listing {
                    registry: self.registry.clone(),
                    shape: listing::Shape {
                        ttl_ms: self.settings.ttl_ms,
                        page_size: self.settings.page_size,
                    },
                    caller: self.settings.caller.clone(),
                    session: session.clone(),
                },
            ),
            calling: (self.settings.shortcut_calls && self.settings.discovery.is_none()).then(
                || Calling {
                    server: Arc::new(self.share()),
                    session,
                },
            ),
        })
    }

    /// The key that seals `requestState` (at least 32 bytes). Replicas that
    /// share it can resume each other's calls; the default is random per
    /// process.
    pub(crate) fn state_key(
        mut self,
        key: impl Into<Vec<u8>>,
    ) -> Result<McpServer<C>, StateKeyError> {
        let key = key.into();
        let codec = RequestStateCodec::try_new(key).map_err(|e| {
            StateKeyError(format!(
                "the requestState key is refused ({e}); give at least {STATE_KEY_BYTES} random bytes"
            ))
        })?;
        self.state = Arc::new(codec);
        Ok(self)
    }

    /// The registry served.
    pub fn registry(&self) -> &Registry<C> {
        &self.registry
    }

    /// rmcp's view of a tool, parsed from its descriptor once per fingerprint.
    fn rmcp_tool(&self, entry: &Entry<C>) -> Result<Tool, ErrorData> {
        let name = entry.name();
        {
            let cache = self.tools.read().unwrap_or_else(|p| p.into_inner());
            if let Some((fingerprint, tool)) = cache.get(name)
                && fingerprint == entry.fingerprint()
            {
                return Ok(tool.clone());
            }
        }
        let tool: Tool = serde_json::from_str(entry.descriptor_json()).map_err(|e| {
            tracing::error!(tool = name, error = %e, "a descriptor does not fit rmcp's Tool");
            ErrorData::internal_error(
                "a tool's descriptor could not be served; consult the server log",
                None,
            )
        })?;
        let mut cache = self.tools.write().unwrap_or_else(|p| p.into_inner());
        cache.insert(name.to_owned(), (*entry.fingerprint(), tool.clone()));
        Ok(tool)
    }

    /// Forwards every change of the tool list to a 2026-07-28 subscription
    /// until it ends. A server that composes this adapter with prompts or
    /// resources calls it from its own `listen`.
    pub async fn forward_tool_changes(&self, sink: SubscriptionSink) {
        if sink.accepted().tools_list_changed != Some(true) {
            return;
        }
        let mut changes = self.registry.changes();
        while changes.changed().await {
            if sink.notify_tool_list_changed().await.is_err() {
                return;
            }
        }
    }

    /// The per-call handle of a request.
    fn call_handle(
        &self,
        context: &RequestContext<RoleServer>,
        caller: &Caller,
        rounds: Option<Rounds>,
        cancel: tokio_util::sync::CancellationToken,
        task: TaskSlot,
    ) -> Call {
        let era = era_of(context);
        let client = context
            .client_capabilities()
            .map(|c| {
                let (form, url) = match &c.elicitation {
                    None => (false, false),
                    Some(e) => (e.form.is_some() || e.url.is_none(), e.url.is_some()),
                };
                ClientSupport {
                    elicitation: form,
                    url_elicitation: url,
                    sampling: c.sampling.is_some(),
                    roots: c.roots.is_some(),
                }
            })
            .unwrap_or_default();
        #[allow(deprecated)]
        let log_threshold = match era {
            Era::Current => context.meta.log_level().map(from_rmcp_level),
            Era::Legacy => Some(
                self.session
                    .log_level
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .unwrap_or(LogLevel::Info),
            ),
        };
        Call::served(Parts {
            era,
            identity: caller.shared_identity(),
            meta: context.meta.0.0.clone(),
            client,
            progress_token: context
                .meta
                .get_progress_token()
                .and_then(|t| serde_json::to_value(t).ok()),
            log_threshold,
            cancel,
            channel: Arc::new(PeerChannel {
                peer: context.peer.clone(),
                timeout: self.settings.ask_timeout,
                closing: self.session.closing.clone(),
            }),
            task,
            rounds,
            // For tools of an rmcp router, which need rmcp's own context;
            // copied only for a handler that takes the handle.
            transport: Some(Arc::new(context.clone())),
        })
    }

    /// Opens a retry's `requestState` and merges the answers it carries.
    fn resume(
        &self,
        request: &CallToolRequestParams,
        arguments: &Arguments,
    ) -> Result<Rounds, CallError> {
        let arguments = Value::Object(arguments.clone());
        let responses: serde_json::Map<String, Value> = request
            .input_responses
            .as_ref()
            .map(|r| r.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
            .unwrap_or_default();
        let Some(sealed) = &request.request_state else {
            return Rounds::seeded(&arguments, &responses)
                .map_err(|e| CallError::invalid_params(e.0));
        };
        let refused = || {
            CallError::invalid_params(format!(
                "requestState was not issued by this server for {}, or it has expired; call the tool again without requestState",
                request.name
            ))
        };
        if sealed.len() > MAX_STATE_BYTES {
            return Err(refused());
        }
        let state: State = self
            .state
            .open_json_with(sealed, request.name.as_bytes())
            .map_err(|_| refused())?;
        Rounds::resume(state, &arguments, &responses).map_err(|e| CallError::invalid_params(e.0))
    }

    /// Ends a round: the questions, and the state sealed for the retry.
    fn input_required(
        &self,
        tool: &str,
        asked: InputRequired,
    ) -> Result<InputRequiredResult, ErrorData> {
        let mut requests = InputRequests::new();
        for (key, method, params) in asked.requests {
            let request: InputRequest =
                serde_json::from_value(serde_json::json!({"method": method, "params": params}))
                    .map_err(|e| {
                        tracing::error!(tool, %key, error = %e, "a question does not fit rmcp's input request");
                        ErrorData::internal_error(
                            "a question could not be sent; consult the server log",
                            None,
                        )
                    })?;
            requests.insert(key, request);
        }
        let options = SealOptions::new()
            .associated_data(tool.as_bytes())
            .ttl(self.state_ttl);
        let sealed = self
            .state
            .seal_json_with(&asked.state, &options)
            .map_err(|e| {
                tracing::error!(tool, error = %e, "requestState could not be sealed");
                ErrorData::internal_error(
                    "the call's state could not be kept; consult the server log",
                    None,
                )
            })?;
        if sealed.len() > MAX_STATE_BYTES {
            return Err(ErrorData::internal_error(
                format!(
                    "{tool} carries more than {MAX_STATE_BYTES} bytes of answers and recorded steps between rounds; it must ask fewer or smaller questions"
                ),
                None,
            ));
        }
        Ok(InputRequiredResult::new(Some(requests), Some(sealed)))
    }
}

impl<C: Send + Sync + 'static> ShortcutCalls for McpServer<C> {
    fn caller_source(&self) -> &CallerSource {
        &self.settings.caller
    }

    /// A call answered without rmcp's service, or `None` when it needs it:
    /// a tool that takes the per-call handle (which talks back through
    /// rmcp's peer), one that confirms (and so may ask a person), one that
    /// may run as a task; over HTTP, one whose arguments are mirrored in
    /// headers (`x-mcp-header`), which rmcp checks against the body.
    /// Everything else is one request and one answer, and takes
    /// [`McpServer::call_plain`] as rmcp's call does.
    fn call_directly(
        self: Arc<Self>,
        params: CallParams,
        caller: Caller,
        over_http: bool,
    ) -> Option<BoxFuture<'static, Result<CallToolResponse, ErrorData>>> {
        // The entry decided on is the one called, even if a provider
        // replaces the tool meanwhile.
        let entry = self.registry.get(&params.name);
        if let Some(entry) = &entry {
            let info = entry.info();
            if entry.takes_call()
                || info.confirm.is_some()
                || (self.serves_tasks && info.task.allows_task())
                || (over_http && entry.descriptor_json().contains(param_headers::KEY))
            {
                return None;
            }
        }
        let arguments = params.arguments().ok()?;
        let name = params.name;
        Some(Box::pin(async move {
            let arguments = arguments.unwrap_or_default();
            let never = std::sync::OnceLock::new();
            let detached = |_: bool, _: &Arguments| Ok(Call::detached());
            let stop = Stop {
                handle: &never,
                request: None,
            };
            self.call_plain(&name, entry, arguments, &caller, detached, stop)
                .await
        }))
    }
}

/// The protocol era of a request.
fn era_of(context: &RequestContext<RoleServer>) -> Era {
    let current = context
        .protocol_version()
        .is_some_and(|v| v.as_str() >= ProtocolVersion::V_2026_07_28.as_str());
    if current { Era::Current } else { Era::Legacy }
}

#[allow(deprecated)]
fn from_rmcp_level(level: LoggingLevel) -> LogLevel {
    match level {
        LoggingLevel::Debug => LogLevel::Debug,
        LoggingLevel::Info => LogLevel::Info,
        LoggingLevel::Notice => LogLevel::Notice,
        LoggingLevel::Warning => LogLevel::Warning,
        LoggingLevel::Error => LogLevel::Error,
        LoggingLevel::Critical => LogLevel::Critical,
        LoggingLevel::Alert => LogLevel::Alert,
        LoggingLevel::Emergency => LogLevel::Emergency,
    }
}

#[allow(deprecated)]
fn to_rmcp_level(level: LogLevel) -> LoggingLevel {
    match level {
        LogLevel::Debug => LoggingLevel::Debug,
        LogLevel::Info => LoggingLevel::Info,
        LogLevel::Notice => LoggingLevel::Notice,
        LogLevel::Warning => LoggingLevel::Warning,
        LogLevel::Error => LoggingLevel::Error,
        LogLevel::Critical => LoggingLevel::Critical,
        LogLevel::Alert => LoggingLevel::Alert,
        LogLevel::Emergency => LoggingLevel::Emergency,
    }
}

/// A call's way back to its client: rmcp's peer.
struct PeerChannel {
    peer: Peer<RoleServer>,
    timeout: Duration,
    closing: Arc<AtomicBool>,
}

/// How long a notification may take to be handed to rmcp before the
/// session is taken to be closing.
const NOTIFY_TIMEOUT: Duration = Duration::from_millis(250);

/// Hands a notification to rmcp, unless the session is `closing`; one that
/// is not taken within [`NOTIFY_TIMEOUT`] marks it closing, so that later
/// ones are dropped at once instead of holding up the calls that send them.
async fn deliver(
    closing: &AtomicBool,
    sending: impl std::future::Future<Output = Result<(), rmcp::service::ServiceError>>,
) {
    if closing.load(Ordering::Relaxed) {
        return;
    }
    match tokio::time::timeout(NOTIFY_TIMEOUT, sending).await {
        Ok(Ok(())) => {}
        Ok(Err(error)) => {
            tracing::debug!(%error, "a notification to the client was not sent");
        }
        Err(_) => {
            closing.store(true, Ordering::Relaxed);
            tracing::debug!("the session is closing; notifications are dropped");
        }
    }
}

impl Channel for PeerChannel {
    fn notify(&self, notice: Notice) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            let sending = async {
                match notice {
                    Notice::Progress {
                        token,
                        progress,
                        total,
                        message,
                    } => {
                        let Ok(token) = serde_json::from_value::<ProgressToken>(token) else {
                            return Ok(());
                        };
                        let mut param = ProgressNotificationParam::new(token, progress);
                        if let Some(total) = total {
                            param = param.with_total(total);
                        }
                        if let Some(message) = message {
                            param = param.with_message(message);
                        }
                        self.peer.notify_progress(param).await
                    }
                    Notice::Log {
                        level,
                        logger,
                        data,
                    } => {
                        #[allow(deprecated)]
                        let mut param =
                            LoggingMessageNotificationParam::new(to_rmcp_level(level), data);
                        if let Some(logger) = logger {
                            param = param.with_logger(logger);
                        }
                        #[allow(deprecated)]
                        self.peer.notify_logging_message(param).await
                    }
                }
            };
            deliver(&self.closing, sending).await;
        })
    }

    fn request(
        &self,
        _key: &str,
        method: &'static str,
        params: Value,
    ) -> BoxFuture<'_, Result<Value, AskError>> {
        Box::pin(async move {
            let request = ServerRequest::CustomRequest(CustomRequest::new(method, Some(params)));
            match tokio::time::timeout(self.timeout, self.peer.send_request(request)).await {
                Err(_) => Err(AskError::Failed(format!(
                    "the client did not answer within {} s",
                    self.timeout.as_secs()
                ))),
                Ok(Err(error)) => Err(AskError::Failed(error.to_string())),
                Ok(Ok(result)) => {
                    serde_json::to_value(result).map_err(|e| AskError::Failed(e.to_string()))
                }
            }
        })
    }
}

/// The refusal for a result over the size limit. A tool that only reads is
/// asked for less; one that changes things has already made its change, so
/// the model is told that it stands rather than invited to make it again.
fn oversized(tool: &str, reads: bool, bytes: usize, limit: usize) -> String {
    if reads {
        format!(
            "{tool}'s result was {bytes} bytes, more than this server's limit of {limit} bytes, so it was not sent; ask for less (a narrower query, a smaller page)"
        )
    } else {
        format!(
            "{tool} ran and its changes stand, but its result was {bytes} bytes, more than this server's limit of {limit} bytes, so it was not sent; do not call it again to make the same change"
        )
    }
}

fn protocol_error(error: CallError) -> ErrorData {
    ErrorData::new(
        ErrorCode(error.code()),
        error.message().to_owned(),
        error.data().cloned(),
    )
}

/// Converts a tooltable result to rmcp's. Plain text maps directly (the
/// common case, on the dispatch path); every other block goes through its
/// MCP JSON, which rmcp's types read.
pub(crate) fn to_rmcp_result(result: CallToolResult) -> McpCallToolResult {
    let content: Vec<ContentBlock> = result
        .content
        .into_iter()
        .filter_map(|block| match block {
            Content::Text {
                text,
                annotations: None,
            } => Some(ContentBlock::text(text)),
            other => serde_json::from_value(other.to_json())
                .inspect_err(|e| tracing::error!(error = %e, "a content block does not fit rmcp's"))
                .ok(),
        })
        .collect();
    let mut out = if result.is_error {
        McpCallToolResult::error(content)
    } else {
        McpCallToolResult::success(content)
    };
    out.structured_content = result.structured_content;
    out
}

/// Whether `method` is one the adapter answers (its params, when rmcp could
/// not parse them, are its to refuse).
pub(crate) fn is_tools_method(method: &str) -> bool {
    matches!(method, "tools/list" | "tools/call")
}

/// The methods of the Tasks extension the adapter answers when it serves
/// tasks.
fn is_tasks_method(method: &str) -> bool {
    matches!(method, "tasks/get" | "tasks/update" | "tasks/cancel")
}

/// How a call that is not a task is stopped before its handler returns.
#[derive(Clone, Copy)]
struct Stop<'a> {
    /// The token of the per-call handle, made only for a handler that
    /// takes one: a stopped handler hears of it there, and gets a moment
    /// to end cleanly.
    handle: &'a std::sync::OnceLock<tokio_util::sync::CancellationToken>,
    /// The request's own token where something other than dropping the
    /// call ends it: rmcp keeps polling a request it was told was
    /// cancelled, and cancels its token instead. A handler still running
    /// then is stopped as the transports' own path stops one, and the call
    /// is answered as cancelled.
    request: Option<&'a tokio_util::sync::CancellationToken>,
}

/// Why a running call was stopped before its handler returned.
enum Stopped {
    /// The server's time limit for a call passed.
    TooLong,
    /// The request was cancelled ([`Stop::request`]).
    Cancelled,
}

impl<C: Send + Sync + 'static> McpServer<C> {
    /// A call that is not a task, through the registry's call path:
    /// admission and limits, then policy, flags, pins, argument validation,
    /// the handler (within the call timeout) and the result's shape. The
    /// one path of every call that is not a task, through rmcp or not.
    async fn call_plain<H>(
        &self,
        name: &str,
        entry: Option<Entry<C>>,
        arguments: Arguments,
        caller: &Caller,
        handle: H,
        stop: Stop<'_>,
    ) -> Result<CallToolResponse, ErrorData>
    where
        H: FnOnce(bool, &Arguments) -> Result<Call, CallError>,
    {
        let admitted = match self.admission.admit(caller, name) {
            Ok(admitted) => admitted,
            Err(refusal) => {
                tracing::info!(tool = %quote::text(name), %refusal, "a call was not admitted");
                return Ok(to_rmcp_result(CallToolResult::error(refusal)).into());
            }
        };
        // A refusal is answered here and now; the handler runs in the
        // future (a synchronous one on the blocking pool), holding the
        // call's place until it ends.
        let dispatched = self.registry.dispatch(
            HandlerContext::served(&self.context, Some(&admitted)),
            caller,
            entry,
            name,
            arguments,
            handle,
        );
        let reply = match dispatched {
            Dispatched::Done(reply) => reply,
            Dispatched::Running(running) => {
                tokio::pin!(running);
                let limit = self.settings.call_timeout;
                // Most calls finish on their first poll; only one that waits
                // arms the timer.
                let first =
                    std::future::poll_fn(|cx| std::task::Poll::Ready(running.as_mut().poll(cx)))
                        .await;
                let reply = match first {
                    std::task::Poll::Ready(reply) => Ok(reply),
                    std::task::Poll::Pending => {
                        let ended = async {
                            match stop.request {
                                Some(token) => token.cancelled().await,
                                None => std::future::pending().await,
                            }
                        };
                        tokio::select! {
                            reply = tokio::time::timeout(limit, &mut running) => {
                                reply.map_err(|_| Stopped::TooLong)
                            }
                            () = ended => Err(Stopped::Cancelled),
                        }
                    }
                };
                match reply {
                    Ok(reply) => reply,
                    Err(why) => {
                        // The handler hears of it through its handle, and gets a
                        // moment to stop cleanly before it is dropped.
                        if let Some(token) = stop.handle.get() {
                            token.cancel();
                            let _ = tokio::time::timeout(CANCEL_GRACE, &mut running).await;
                        }
                        Ok(Reply::Complete(match why {
                            Stopped::TooLong => {
                                tracing::warn!(tool = %name, limit_ms = limit.as_millis() as u64, "a call took too long and was stopped");
                                too_long(name, self.reads(name), limit)
                            }
                            Stopped::Cancelled => {
                                tracing::info!(tool = %quote::text(name), "a call was cancelled and stopped");
                                cancelled(name)
                            }
                        }))
                    }
                }
            }
        };
        self.answer(name, reply)
    }

    /// A call's reply as rmcp's response: a result over the size limit is
    /// replaced by a refusal that says so.
    fn answer(
        &self,
        tool: &str,
        reply: Result<Reply, CallError>,
    ) -> Result<CallToolResponse, ErrorData> {
        match reply {
            Err(error) => Err(protocol_error(error)),
            Ok(Reply::Complete(result)) => Ok(to_rmcp_result(self.bounded(tool, result)).into()),
            Ok(Reply::InputRequired(asked)) => Ok(self.input_required(tool, *asked)?.into()),
        }
    }

    fn bounded(&self, tool: &str, result: CallToolResult) -> CallToolResult {
        let bytes = result.payload_bytes();
        if bytes <= self.settings.max_result_bytes {
            return result;
        }
        tracing::warn!(tool = %quote::text(tool), bytes, max_result_bytes = self.settings.max_result_bytes, "a result over the size limit was not sent");
        CallToolResult::error(oversized(
            tool,
            self.reads(tool),
            bytes,
            self.settings.max_result_bytes,
        ))
    }

    /// Whether `tool` only reads: calling it again after a call that did
    /// not answer changes nothing.
    fn reads(&self, tool: &str) -> bool {
        self.registry
            .get(tool)
            .is_some_and(|entry| entry.info().tier == Tier::Read)
    }
}

/// The refusal of a call stopped at the server's time limit. A tool that
/// only reads can be asked again; another may have changed things before it
/// stopped, and a synchronous handler cannot be stopped at all, so its
/// outcome is unknown.
fn too_long(tool: &str, reads: bool, limit: Duration) -> CallToolResult {
    let ms = limit.as_millis();
    CallToolResult::error(match reads {
        true => format!(
            "{tool} took longer than this server's limit of {ms} ms for a call, and was stopped; try again with less to do"
        ),
        false => format!(
            "{tool} took longer than this server's limit of {ms} ms for a call and was told to stop, so whether it took effect is unknown (what it did by then stands, and work it started may still complete); check before calling it again"
        ),
    })
}

/// The answer to a call cancelled before its handler returned.
pub(super) fn cancelled(tool: &str) -> CallToolResult {
    CallToolResult::error(format!("{} was cancelled", quote::text(tool)))
}

impl<C: Send + Sync + 'static> ServerHandler for McpServer<C> {
    fn get_info(&self) -> ServerConfig {
        #[allow(deprecated)]
        let builder = ServerCapabilities::builder()
            .enable_tools()
            .enable_tool_list_changed()
            .enable_logging();
        let capabilities = if self.serves_tasks {
            builder.enable_tasks().build()
        } else {
            builder.build()
        };
        let mut config = ServerConfig::new(capabilities);
        config.server_info = self.settings.implementation.clone();
        config.instructions = self.settings.instructions.clone();
        config
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        self.open(self, request, context)
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let caller = self.caller_of(&context);
        let mut entries = self.registry.visible_entries(&caller);
        let own: Vec<Tool> = match &self.settings.discovery {
            None => Vec::new(),
            Some(discovery) => {
                let reveals = self.reveals(discovery, &context);
                {
                    let revealed = self
                        .session
                        .revealed
                        .lock()
                        .unwrap_or_else(|p| p.into_inner());
                    entries.retain(|entry| {
                        discovery.lists(entry) || (reveals && revealed.contains(entry.name()))
                    });
                }
                discovery
                    .descriptors(self.registry.max_tier(), !reveals)
                    .into_iter()
                    .map(|descriptor| {
                        serde_json::from_value(descriptor).map_err(|e| {
                            tracing::error!(error = %e, "discovery's own descriptor does not fit rmcp's Tool");
                            ErrorData::internal_error("a tool's descriptor could not be served; consult the server log", None)
                        })
                    })
                    .collect::<Result<_, _>>()?
            }
        };
        let count = own.len() + entries.len();
        let cursor = request.as_ref().and_then(|r| r.cursor.as_deref());
        let (start, end) =
            listing::page(cursor, count, self.settings.page_size).ok_or_else(|| {
                ErrorData::invalid_params(
                    format!(
                        "cursor `{}` is not one this server gave out; list again without a cursor",
                        quote::text(cursor.unwrap_or_default())
                    ),
                    None,
                )
            })?;
        let tools = (start..end)
            .map(|i| match own.get(i) {
                Some(tool) => Ok(tool.clone()),
                None => self.rmcp_tool(&entries[i - own.len()]),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut result = ListToolsResult::with_all_items(tools);
        if end < count {
            result.next_cursor = Some(end.to_string());
        }
        // Caching hints are part of the 2026-07-28 revision; earlier peers get
        // the listing exactly as their revision defines it.
        if era_of(&context) == Era::Current {
            result.ttl_ms = Some(self.settings.ttl_ms);
            result.cache_scope = Some(listing::cache_scope(&self.registry, &caller));
        }
        Ok(result)
    }

    async fn call_tool(
        &self,
        mut request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let caller = self.caller_of(&context);
        if let Some(discovery) = &self.settings.discovery {
            if request.name == discovery.call {
                match discovery.unwrap(request.arguments.take()) {
                    Ok((name, arguments)) => {
                        request.name = name.into();
                        request.arguments = Some(arguments);
                    }
                    Err(refusal) => return Ok(to_rmcp_result(refusal).into()),
                }
            }
            if request.name == discovery.search {
                let (answer, found) =
                    discovery.search(&self.registry, &caller, request.arguments.as_ref());
                if self.reveals(discovery, &context) {
                    // Boxed: revealing is the largest step of any call, and
                    // every call's future would carry it (nearly a third of
                    // its size) and be copied with it.
                    Box::pin(self.reveal(found, &context.peer)).await;
                }
                return Ok(to_rmcp_result(answer).into());
            }
        }
        if let Some(place) = self.task_place(&request.name, &caller, &context).await? {
            return self.call_as_task(request, context, caller, place).await;
        }
        let arguments = request.arguments.take().unwrap_or_default();
        // Built only for a handler that takes the handle: every other call
        // pays nothing for it.
        let cancel = std::sync::OnceLock::new();
        let handle = |takes_call: bool, arguments: &Arguments| {
            if !takes_call {
                return Ok(Call::detached());
            }
            let rounds = match era_of(&context) {
                Era::Current => Some(self.resume(&request, arguments)?),
                Era::Legacy => None,
            };
            let token = cancel.get_or_init(|| context.ct.child_token()).clone();
            Ok(self.call_handle(&context, &caller, rounds, token, TaskSlot::default()))
        };
        let entry = self.registry.get(&request.name);
        self.call_plain(
            &request.name,
            entry,
            arguments,
            &caller,
            handle,
            Stop {
                handle: &cancel,
                request: Some(&context.ct),
            },
        )
        .await
    }

    /// `logging/setLevel` belongs to the `initialize` era; on 2026-07-28 a
    /// request asks for logs in its own `_meta`.
    #[allow(deprecated)]
    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if era_of(&context) == Era::Current {
            return Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                "Method not found: logging/setLevel (on 2026-07-28, ask for logs with `io.modelcontextprotocol/logLevel` in a request's _meta)",
                None,
            ));
        }
        *self
            .session
            .log_level
            .lock()
            .unwrap_or_else(|p| p.into_inner()) = Some(from_rmcp_level(request.level));
        Ok(())
    }

    /// An `initialize`-era session is told whenever the tools it may see
    /// change, until it ends.
    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        let peer = context.peer;
        let mut changes = self.registry.changes();
        tokio::spawn(async move {
            // rmcp offers no signal for a session's end; look now and then.
            let mut look = tokio::time::interval(SESSION_CHECK);
            loop {
                tokio::select! {
                    changed = changes.changed() => {
                        if !changed || peer.notify_tool_list_changed().await.is_err() {
                            return;
                        }
                    }
                    _ = look.tick() => {
                        if peer.is_transport_closed() {
                            return;
                        }
                    }
                }
            }
        });
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        let mut accepted = SubscriptionFilter::new();
        accepted.tools_list_changed = requested.tools_list_changed;
        Some(accepted)
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        tokio::select! {
            () = self.forward_tool_changes(context.sink().clone()) => {}
            () = context.cancelled() => {}
        }
        Ok(())
    }

    /// rmcp hands a request whose params do not fit the method's schema
    /// here, as a custom request. For a method MCP defines that is an
    /// invalid-params error (-32602), not an unknown method (-32601).
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        let tasks = self.serves_tasks && is_tasks_method(&request.method);
        if is_tools_method(&request.method) || tasks {
            let hint = match request.method.as_str() {
                "tools/call" => "give `name` as a string and `arguments` as an object",
                "tools/list" => "give `cursor`, if any, as a string",
                "tasks/update" => {
                    "give `taskId` as a string and `inputResponses` as an object of answers"
                }
                _ => "give `taskId` as a string",
            };
            return Err(ErrorData::invalid_params(
                format!(
                    "Invalid params for {}: they do not fit the request's schema; {hint}",
                    request.method
                ),
                None,
            ));
        }
        Err(ErrorData::new(
            ErrorCode::METHOD_NOT_FOUND,
            format!("Method not found: {}", request.method),
            None,
        ))
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        let owner = self.task_owner(&self.caller_of(&context), &context);
        let view = self
            .tasks
            .get(&owner.name, &request.task_id)
            .await
            .map_err(Self::task_refused)?;
        Ok(GetTaskResult::new(tasks::detailed(view)?))
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let owner = self.task_owner(&self.caller_of(&context), &context);
        let responses = request
            .input_responses
            .iter()
            .map(|(key, value)| (key.clone(), value.clone()))
            .collect();
        self.tasks
            .update(&owner.name, &request.task_id, responses)
            .await
            .map_err(Self::task_refused)
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let owner = self.task_owner(&self.caller_of(&context), &context);
        self.tasks
            .cancel(&owner.name, &request.task_id)
            .await
            .map_err(Self::task_refused)
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        let entry = self.registry.get(name)?;
        self.rmcp_tool(&entry).ok()
    }
}
