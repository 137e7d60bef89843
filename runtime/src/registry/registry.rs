//! The registry: the table plus run-time providers, served safely.
//!
//! A [`Registry`] wraps the static table with what a multi-user server
//! needs: a caller [`Policy`], enable flags an operator flips through a
//! [`FlagStore`], conversation pins, providers that add tools at run time,
//! and an administrator's view. It is cheap to clone and share across tasks.
//!
//! The order in which a call is checked lives in `Registry::dispatch`
//! (which [`Registry::call`] and the adapter use) and nowhere else: unknown tool (JSON-RPC -32602) → policy → enabled → pin →
//! confirmation → arguments → handler.

use crate::call::execute::HandlerContext;
use crate::call::handle::Call;
use crate::call::handler::{Arguments, BoxFuture, DynHandler, Invoke, Outcome};
use crate::call::identity::Permissions;
use crate::call::in_place;
use crate::call::result::{CallError, CallToolResult, Reply};
use crate::registry::flags::{FlagError, FlagStore};
use crate::registry::pins::{self, Pins, SnapshotError};
use crate::registry::policy::{AllowAll, Caller, MaxTier, Policy, check_permission};
use crate::registry::provider::{BatchError, Provider, Registered, validate_batch};
use crate::rules::confirm::Consent;
use crate::rules::info::ToolInfo;
use crate::rules::search::{IndexBuilder, IndexError, Searchable};
use crate::rules::tier::Tier;
use crate::rules::tier::World;
use crate::table::{Table, Tool};
use crate::wire::fingerprint::Fingerprint;
use serde_json::Value;
use std::borrow::Cow;
use std::collections::BTreeSet;
use std::sync::{Arc, Mutex, RwLock};

/// What a call to a disabled tool is told.
pub(crate) const DISABLED: &str = "Tool is disabled on this server";

/// One tool of the registry: baked, or registered by a provider.
pub enum Entry<C: 'static> {
    /// From the static table.
    Static(&'static Tool<C>),
    /// From a provider.
    Provided(Arc<Registered<C>>),
}

impl<C: 'static> Clone for Entry<C> {
    fn clone(&self) -> Entry<C> {
        match self {
            Entry::Static(tool) => Entry::Static(tool),
            Entry::Provided(tool) => Entry::Provided(tool.clone()),
        }
    }
}

impl<C: 'static> Entry<C> {
    /// The tool's metadata: borrowed from the baked table, or a view of a
    /// provided tool's.
    pub fn info(&self) -> Cow<'_, ToolInfo<'_>> {
        match self {
            Entry::Static(tool) => Cow::Borrowed(tool.info()),
            Entry::Provided(tool) => Cow::Owned(tool.info()),
        }
    }

    /// The tool's name.
    pub fn name(&self) -> &str {
        match self {
            Entry::Static(tool) => tool.name(),
            Entry::Provided(tool) => &tool.name,
        }
    }

    /// The descriptor's served text.
    pub fn descriptor_json(&self) -> &str {
        match self {
            Entry::Static(tool) => tool.descriptor_json(),
            Entry::Provided(tool) => &tool.descriptor_text,
        }
    }

    /// The descriptor as a value.
    pub fn descriptor(&self) -> Value {
        match self {
            Entry::Static(tool) => tool.descriptor(),
            Entry::Provided(tool) => tool.descriptor.clone(),
        }
    }

    /// The fingerprint of descriptor and permission.
    pub fn fingerprint(&self) -> &Fingerprint {
        match self {
            Entry::Static(tool) => tool.fingerprint(),
            Entry::Provided(tool) => &tool.fingerprint,
        }
    }

    /// Whether the handler takes the per-call handle (a provider's always
    /// receives it).
    pub(crate) fn takes_call(&self) -> bool {
        match self {
            Entry::Static(tool) => tool.takes_call(),
            Entry::Provided(_) => true,
        }
    }

    fn invoke(&self) -> Invoke<'_, C> {
        match self {
            Entry::Static(tool) => tool.invoke(),
            Entry::Provided(tool) => Invoke::Dynamic {
                handler: &tool.handler,
                input: &tool.input,
                output: tool.output.as_ref(),
            },
        }
    }

    fn wraps_output(&self) -> bool {
        match self {
            Entry::Static(tool) => tool.wraps_output(),
            Entry::Provided(_) => false,
        }
    }
}

/// A tool as an administrator sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct Description {
    /// The name.
    pub name: String,
    /// The descriptor as served.
    pub descriptor: Value,
    /// The permission a caller needs.
    pub permission: Option<String>,
    /// The tier.
    pub tier: crate::rules::tier::Tier,
    /// The toolset.
    pub toolset: Option<String>,
    /// Whether it is enabled now.
    pub enabled: bool,
    /// The declared summary for administrators.
    pub admin_summary: Option<String>,
    /// The declared example arguments.
    pub example: Option<Value>,
    /// Where it comes from: a source file, or `provider:NAME`.
    pub source: String,
}

struct Configured<C: 'static> {
    provider: Arc<dyn Provider<C>>,
    enabled: bool,
}

struct Inner<C: 'static> {
    table: &'static Table<C>,
    /// Bumped whenever what a caller may see can have changed.
    changes: tokio::sync::watch::Sender<u64>,
    max_tier: MaxTier,
    /// Whether every tool of the table is within `max_tier`.
    table_within_tier: bool,
    /// Whether a tool of the table declares a permission.
    table_needs_permissions: bool,
    consent: Consent,
    policy: Box<dyn Policy>,
    store: Option<Box<dyn FlagStore>>,
    conceal: bool,
    open_world_exceptions: BTreeSet<String>,
    configured: Mutex<Vec<Configured<C>>>,
    provided: RwLock<Provided<C>>,
    lists: Mutex<ListCache>,
}

/// Filtered listings already joined, by the set of tools they hold, for
/// the tools registered at one epoch: flags and policy only change which
/// set a caller gets, so a set's text stays right until a provider adds
/// tools.
#[derive(Default)]
struct ListCache {
    epoch: u64,
    lists: std::collections::HashMap<Box<[u64]>, (Arc<str>, usize)>,
}

/// The most filtered listings kept: one per distinct set of visible tools,
/// which few servers have more than a handful of.
const CACHED_LISTS: usize = 64;

/// A listing's JSON text: the bytes baked into the binary, a filtered
/// listing shared from the cache, or a page joined for one answer.
pub(crate) enum ListText {
    Baked(&'static str),
    Shared(Arc<str>),
    #[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
    Owned(String),
}

impl std::ops::Deref for ListText {
    type Target = str;
    fn deref(&self) -> &str {
        match self {
            ListText::Baked(text) => text,
            ListText::Shared(text) => text,
            ListText::Owned(text) => text,
        }
    }
}

#[derive(Default)]
struct Provided<C: 'static> {
    /// Sorted by name.
    tools: Vec<Arc<Registered<C>>>,
    providers: BTreeSet<String>,
    /// Bumped whenever `tools` changes.
    epoch: u64,
    /// The search index over the table's tools and these, in the order of
    /// [`merged`], once there are any.
    search: Option<Arc<IndexBuilder>>,
}

/// The table's tools and the provided ones, in name order.
fn merged<C: 'static>(table: &'static Table<C>, provided: &Provided<C>) -> Vec<Entry<C>> {
    let mut out: Vec<Entry<C>> = Vec::with_capacity(table.len() + provided.tools.len());
    let (mut a, mut b) = (
        table.tools().iter().peekable(),
        provided.tools.iter().peekable(),
    );
    loop {
        let take_static = match (a.peek(), b.peek()) {
            (Some(x), Some(y)) => x.name() < y.name.as_str(),
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => break,
        };
        if take_static {
            out.extend(a.next().map(Entry::Static));
        } else {
            out.extend(b.next().map(|t| Entry::Provided(t.clone())));
        }
    }
    out
}

/// The search index over `entries`: the table's words as the build
/// indexed them, and each provided tool's from its descriptor.
fn index_of<C: 'static>(
    table: &'static Table<C>,
    entries: &[Entry<C>],
) -> Result<IndexBuilder, IndexError> {
    let mut baked = table.search_index().documents().into_iter();
    let documents: Vec<Vec<String>> = entries
        .iter()
        .map(|entry| match entry {
            Entry::Static(_) => baked.next().unwrap_or_default(),
            Entry::Provided(tool) => {
                Searchable::of_descriptor(&tool.descriptor, tool.info().toolset).words()
            }
        })
        .collect();
    IndexBuilder::new(&documents)
}

/// The table plus providers, with policy, enable flags and pins.
pub struct Registry<C: 'static> {
    inner: Arc<Inner<C>>,
}

impl<C: 'static> Clone for Registry<C> {
    fn clone(&self) -> Registry<C> {
        Registry {
            inner: self.inner.clone(),
        }
    }
}

/// Builds a [`Registry`].
pub struct RegistryBuilder<C: 'static> {
    table: &'static Table<C>,
    max_tier: MaxTier,
    consent: Consent,
    policy: Box<dyn Policy>,
    store: Option<Box<dyn FlagStore>>,
    conceal: bool,
    open_world_exceptions: BTreeSet<String>,
    providers: Vec<Configured<C>>,
}

impl<C: 'static> RegistryBuilder<C> {
    /// The highest tier served (default: [`Tier::Read`], so a registry
    /// nobody configured cannot write or destroy anything). Raising it is
    /// this one visible call: `.max_tier(Tier::Write)`, or a [`MaxTier`]
    /// whose refusals name the operator's switch.
    pub fn max_tier(mut self, max_tier: impl Into<MaxTier>) -> Self {
        self.max_tier = max_tier.into();
        self
    }

    /// Who may confirm calls to confirming tools when the client cannot ask
    /// its user (default: [`Consent::person`], so nobody: the call is
    /// refused). A client that can ask always asks its user.
    pub fn consent(mut self, consent: Consent) -> Self {
        self.consent = consent;
        self
    }

    /// The policy that decides, within the maximum tier, what each caller
    /// may see and call (default: everything within the tier).
    pub fn policy(mut self, policy: impl Policy + 'static) -> Self {
        self.policy = Box::new(policy);
        self
    }

    /// Where enable overrides live (default: none, so flags cannot change).
    pub fn store(mut self, store: impl FlagStore + 'static) -> Self {
        self.store = Some(Box::new(store));
        self
    }

    /// Answer calls to tools the policy hides exactly as calls to unknown
    /// tools, instead of with a reasoned refusal.
    pub fn conceal_hidden_tools(mut self, conceal: bool) -> Self {
        self.conceal = conceal;
        self
    }

    /// Lets an open-world tool be pinned (by default only closed-world tools are).
    pub fn pin_open_world(mut self, tool: impl Into<String>) -> Self {
        self.open_world_exceptions.insert(tool.into());
        self
    }

    /// Configures a provider; `enabled = false` keeps it off. Enabled
    /// providers are registered by [`Registry::refresh`].
    pub fn provider(mut self, provider: impl Provider<C> + 'static, enabled: bool) -> Self {
        self.providers.push(Configured {
            provider: Arc::new(provider),
            enabled,
        });
        self
    }

    /// The registry. Configured providers are not registered yet: call
    /// [`Registry::refresh`].
    pub fn build(self) -> Registry<C> {
        let registry = Registry {
            inner: Arc::new(Inner {
                table: self.table,
                changes: tokio::sync::watch::Sender::new(0),
                table_within_tier: self
                    .table
                    .tools()
                    .iter()
                    .all(|tool| tool.info().tier <= self.max_tier.max()),
                table_needs_permissions: self
                    .table
                    .tools()
                    .iter()
                    .any(|tool| tool.info().permission.is_some()),
                max_tier: self.max_tier,
                consent: self.consent,
                policy: self.policy,
                store: self.store,
                conceal: self.conceal,
                open_world_exceptions: self.open_world_exceptions,
                configured: Mutex::new(self.providers),
                provided: RwLock::new(Provided {
                    tools: Vec::new(),
                    providers: BTreeSet::new(),
                    epoch: 0,
                    search: None,
                }),
                lists: Mutex::new(ListCache::default()),
            }),
        };
        if let Some(store) = &registry.inner.store {
            // Weak: the store lives inside the registry it notifies.
            let inner = Arc::downgrade(&registry.inner);
            store.on_change(Arc::new(move || {
                if let Some(inner) = inner.upgrade() {
                    inner.changes.send_modify(|version| *version += 1);
                }
            }));
        }
        registry
    }
}

/// Changes of what callers may see (a tool switched on or off, a provider
/// registered), for telling clients their tool list changed. Changes that
/// come faster than they are read are coalesced into one.
pub struct Changes(tokio::sync::watch::Receiver<u64>);

impl Changes {
    /// Waits for the next change; `false` once the registry is gone.
    pub async fn changed(&mut self) -> bool {
        self.0.changed().await.is_ok()
    }
}

/// A listing: the JSON array of the descriptors a caller may see.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listing {
    /// The JSON array text, borrowed from the binary when nothing was filtered.
    pub json: Cow<'static, str>,
    /// How many tools it holds.
    pub count: usize,
}

/// A served call after its checks: answered, or still to run.
pub(crate) enum Dispatched<F> {
    /// Answered without waiting: unknown, refused, or run at once.
    Done(Result<Reply, CallError>),
    /// Waits (an asynchronous handler, a person's consent, a provided
    /// tool): the rest of the call, to poll.
    Running(F),
}

impl<C: 'static> Registry<C> {
    /// A registry over `table`, configured with a builder.
    pub fn builder(table: &'static Table<C>) -> RegistryBuilder<C> {
        RegistryBuilder {
            table,
            max_tier: MaxTier::new(Tier::Read),
            consent: Consent::person(),
            policy: Box::new(AllowAll),
            store: None,
            conceal: false,
            open_world_exceptions: BTreeSet::new(),
            providers: Vec::new(),
        }
    }

    /// A registry that serves the read tools of `table` to every caller:
    /// the safe default. Use [`Registry::builder`] to raise the tier, or to
    /// add a policy, a flag store or providers.
    pub fn new(table: &'static Table<C>) -> Registry<C> {
        Registry::builder(table).build()
    }

    /// The static table.
    pub fn table(&self) -> &'static Table<C> {
        self.inner.table
    }

    /// Whether every caller may see every tool of the table (so a listing
    /// does not depend on who asks).
    pub fn is_unrestricted(&self) -> bool {
        self.within_tier_and_policy() && !self.inner.table_needs_permissions
    }

    /// Whether `caller` sees what every caller like it sees: the registry is
    /// unrestricted, or only permissions restrict it and the caller holds
    /// them all. Every permission is held only where nobody authenticates
    /// (the operator), so there every caller holds them all.
    pub(crate) fn lists_alike_for(&self, caller: &Caller) -> bool {
        self.within_tier_and_policy()
            && (caller.permissions() == &Permissions::All || !self.inner.table_needs_permissions)
    }

    fn within_tier_and_policy(&self) -> bool {
        self.inner.table_within_tier && self.inner.policy.is_unrestricted()
    }

    /// The highest tier served.
    pub fn max_tier(&self) -> Tier {
        self.inner.max_tier.max()
    }

    /// The maximum tier, then the permission, then the policy: the one
    /// access check for listings, calls and snapshots.
    /// Whether `caller` may call `entry` now: the checks of a call before its
    /// arguments, without running it.
    #[cfg(feature = "rmcp")]
    pub(crate) fn may_call(&self, entry: &Entry<C>, caller: &Caller) -> bool {
        self.refused(&entry.info(), entry, caller).is_none()
    }

    fn access(&self, info: &ToolInfo<'_>, caller: &Caller) -> crate::registry::policy::Access {
        self.inner.max_tier.check(info, caller)?;
        check_permission(info, caller)?;
        self.inner.policy.check(info, caller)
    }

    fn read_provided(&self) -> std::sync::RwLockReadGuard<'_, Provided<C>> {
        self.inner
            .provided
            .read()
            .unwrap_or_else(|p| p.into_inner())
    }

    /// Finds a tool by exact name.
    pub fn get(&self, name: &str) -> Option<Entry<C>> {
        if let Some(tool) = self.inner.table.get(name) {
            return Some(Entry::Static(tool));
        }
        let provided = self.read_provided();
        provided
            .tools
            .binary_search_by(|t| t.name.as_str().cmp(name))
            .ok()
            .map(|i| Entry::Provided(provided.tools[i].clone()))
    }

    /// Every tool, in name order.
    pub fn entries(&self) -> Vec<Entry<C>> {
        self.entries_at().0
    }

    /// Every tool, in name order, and the epoch of the registered tools
    /// they were read at.
    fn entries_at(&self) -> (Vec<Entry<C>>, u64) {
        let provided = self.read_provided();
        (merged(self.inner.table, &provided), provided.epoch)
    }

    /// Whether a tool is enabled (no override means enabled).
    fn is_enabled(&self, name: &str) -> bool {
        self.inner
            .store
            .as_ref()
            .and_then(|s| s.enabled(name))
            .unwrap_or(true)
    }

    /// Whether the caller may see this entry in a listing: the policy
    /// allows it, it is enabled, and (in a pinned conversation) its pin
    /// still matches.
    fn visible(&self, entry: &Entry<C>, caller: &Caller) -> bool {
        let info = entry.info();
        if self.access(&info, caller).is_err() || !self.is_enabled(info.name) {
            return false;
        }
        match caller.pins() {
            Some(pins) => pins.get(info.name) == Some(entry.fingerprint()),
            None => true,
        }
    }

    /// The tools a caller may see, in name order, as the JSON array of their
    /// descriptors. When nothing is filtered (an unrestricted policy, no
    /// disabled tool, no pins, no provider) these are the bytes baked at
    /// build time; otherwise the descriptor texts joined, kept for the next
    /// caller who sees the same tools. No JSON value is built either way.
    pub fn list(&self, caller: &Caller) -> Listing {
        let (text, count) = self.listed_counted(caller);
        let json = match text {
            ListText::Baked(text) => Cow::Borrowed(text),
            other => Cow::Owned(String::from(&*other)),
        };
        Listing { json, count }
    }

    /// [`Registry::list`]'s text, shared rather than copied.
    #[cfg(feature = "rmcp")]
    pub(crate) fn listed(&self, caller: &Caller) -> ListText {
        self.listed_counted(caller).0
    }

    fn listed_counted(&self, caller: &Caller) -> (ListText, usize) {
        if self.is_unfiltered(caller) {
            let table = self.inner.table;
            return (ListText::Baked(table.list_json()), table.len());
        }
        let (entries, epoch) = self.entries_at();
        let mut set = vec![0u64; entries.len().div_ceil(64)].into_boxed_slice();
        for (i, entry) in entries.iter().enumerate() {
            if self.visible(entry, caller) {
                set[i / 64] |= 1 << (i % 64);
            }
        }
        let mut cache = self.inner.lists.lock().unwrap_or_else(|p| p.into_inner());
        if cache.epoch != epoch {
            cache.lists.clear();
            cache.epoch = epoch;
        }
        if let Some((text, count)) = cache.lists.get(&set) {
            return (ListText::Shared(text.clone()), *count);
        }
        let mut json = String::with_capacity(self.inner.table.list_json().len() + 2);
        json.push('[');
        let mut count = 0;
        for (i, entry) in entries.iter().enumerate() {
            if set[i / 64] & (1 << (i % 64)) != 0 {
                if count > 0 {
                    json.push(',');
                }
                json.push_str(entry.descriptor_json());
                count += 1;
            }
        }
        json.push(']');
        let text: Arc<str> = json.into();
        if cache.lists.len() >= CACHED_LISTS {
            cache.lists.clear();
        }
        cache.lists.insert(set, (text.clone(), count));
        (ListText::Shared(text), count)
    }

    /// The tools `caller` may see whose words best match `query` (their
    /// names, titles, descriptions, parameters, toolsets and search hints),
    /// best first, at most `limit`; a tool the caller may not see (by
    /// policy, flag or pin) is never among them. The table's tools are
    /// ranked by the index baked at build time, so nothing is indexed when
    /// the server starts; once tools are registered at run time, the
    /// registration indexes them with the table's, and a search ranks
    /// them all together.
    pub fn search(&self, caller: &Caller, query: &str, limit: usize) -> Vec<Entry<C>> {
        let provided = self.read_provided();
        let Some(index) = provided.search.clone() else {
            drop(provided);
            return self
                .inner
                .table
                .search(query, limit, |tool| {
                    self.visible(&Entry::Static(tool), caller)
                })
                .into_iter()
                .map(Entry::Static)
                .collect();
        };
        let entries = merged(self.inner.table, &provided);
        // The flag store may be remote: the registered tools are not held
        // while it is asked.
        drop(provided);
        let ranked = index.rank(query, limit, |position| {
            entries
                .get(position)
                .is_some_and(|entry| self.visible(entry, caller))
        });
        ranked
            .into_iter()
            .filter_map(|(position, _)| entries.get(position).cloned())
            .collect()
    }

    /// The entries a caller may see, in name order (for adapters that need
    /// typed tools rather than text).
    pub fn visible_entries(&self, caller: &Caller) -> Vec<Entry<C>> {
        self.entries()
            .into_iter()
            .filter(|e| self.visible(e, caller))
            .collect()
    }

    fn is_unfiltered(&self, caller: &Caller) -> bool {
        caller.pins().is_none()
            && self.lists_alike_for(caller)
            && self.inner.store.as_ref().is_none_or(|s| !s.has_disabled())
            && self.read_provided().tools.is_empty()
    }

    /// Calls a tool, in this order: unknown tool (a protocol error, -32602)
    /// → policy (a reasoned refusal, or "unknown" when concealing) → enabled
    /// → pin → confirmation → arguments → handler. Every refusal after the
    /// lookup is a result with `isError: true`.
    pub async fn call(
        &self,
        context: &C,
        caller: &Caller,
        name: &str,
        arguments: Arguments,
    ) -> Result<CallToolResult, CallError> {
        let handle = |takes_call, _: &Arguments| {
            Ok(if takes_call {
                Call::detached_as(caller.shared_identity())
            } else {
                Call::detached()
            })
        };
        match self.dispatch(
            HandlerContext::Lent(context),
            caller,
            self.get(name),
            name,
            arguments,
            handle,
        ) {
            Dispatched::Done(reply) => reply,
            Dispatched::Running(running) => running.await,
        }
        .map(Reply::complete)
    }

    /// [`Registry::call`] up to where it waits: the lookup and every check
    /// run now, and so does the program's own call of a baked synchronous
    /// handler that asks nobody; anything else (every served handler) is
    /// handed back as a future. `handle` makes the call's handle once the
    /// call passed its checks, told whether the tool needs the full one (its
    /// handler takes it) and given the arguments. `entry` is what
    /// [`Registry::get`] found under `name`, looked up by the caller, which
    /// may have decided on it.
    pub(crate) fn dispatch<'a, H>(
        &'a self,
        context: HandlerContext<'a, C>,
        caller: &Caller,
        entry: Option<Entry<C>>,
        name: &str,
        arguments: Arguments,
        handle: H,
    ) -> Dispatched<impl Future<Output = Result<Reply, CallError>> + use<'a, C, H>>
    where
        H: FnOnce(bool, &Arguments) -> Result<Call, CallError>,
    {
        let Some(entry) = entry else {
            return Dispatched::Done(Err(CallError::unknown_tool(name)));
        };
        let call = {
            // A provided tool's metadata is a view made for the checks.
            let info = entry.info();
            if let Some(refused) = self.refused(&info, &entry, caller) {
                return Dispatched::Done(refused);
            }
            // A confirming tool asks through the handle even when its
            // handler does not take it.
            match handle(entry.takes_call() || info.confirm.is_some(), &arguments) {
                Ok(call) => call,
                Err(error) => return Dispatched::Done(Err(error)),
            }
        };
        // A synchronous handler that asks nobody runs here and now: the
        // program's own call on its thread, a served one in place on its
        // worker while another is spare. A served one past that waits for
        // the blocking pool.
        if let Entry::Static(tool) = entry
            && let Some(run) = crate::call::execute::at_once(tool.info(), &tool.invoke())
        {
            let here = match &context {
                HandlerContext::Lent(context) => Some((*context, None)),
                HandlerContext::Served(context, ..) => {
                    in_place::Worker::spare().map(|worker| (context.as_ref(), Some(worker)))
                }
            };
            if let Some((context, worker)) = here {
                return Dispatched::Done(crate::call::execute::execute_at_once(
                    tool.info(),
                    run,
                    tool.wraps_output(),
                    context,
                    arguments,
                    &call,
                    worker,
                ));
            }
        }
        let consent = &self.inner.consent;
        Dispatched::Running(async move {
            match &entry {
                Entry::Static(tool) => {
                    crate::call::execute(
                        tool.info(),
                        entry.invoke(),
                        entry.wraps_output(),
                        consent,
                        context,
                        arguments,
                        call,
                    )
                    .await
                }
                // The view and the call's future are boxed so that the baked
                // tools' future carries neither.
                Entry::Provided(tool) => {
                    Box::pin(async {
                        let info = tool.info();
                        crate::call::execute(
                            &info,
                            entry.invoke(),
                            entry.wraps_output(),
                            consent,
                            context,
                            arguments,
                            call,
                        )
                        .await
                    })
                    .await
                }
            }
        })
    }

    /// The checks of a found tool, in order: policy, enabled, pin. `None`
    /// when the call may go on.
    fn refused(
        &self,
        info: &ToolInfo<'_>,
        entry: &Entry<C>,
        caller: &Caller,
    ) -> Option<Result<Reply, CallError>> {
        let name = info.name;
        if let Err(refusal) = self.access(info, caller) {
            if self.inner.conceal {
                return Some(Err(CallError::unknown_tool(name)));
            }
            return Some(Ok(Reply::Complete(CallToolResult::error(refusal.0))));
        }
        if !self.is_enabled(name) {
            return Some(Ok(Reply::Complete(CallToolResult::error(DISABLED))));
        }
        let pins = caller.pins()?;
        match pins.get(name) {
            None => Some(Ok(Reply::Complete(CallToolResult::error(
                pins::unpinned_sentence(name),
            )))),
            Some(pinned) if pinned != entry.fingerprint() => Some(Ok(Reply::Complete(
                CallToolResult::error(pins::changed_sentence(name, pinned, entry.fingerprint())),
            ))),
            Some(_) => None,
        }
    }

    /// Changes from now on of what callers may see.
    pub fn changes(&self) -> Changes {
        Changes(self.inner.changes.subscribe())
    }

    fn changed(&self) {
        self.inner.changes.send_modify(|version| *version += 1);
    }

    /// Whether tools can be switched on and off at run time.
    pub fn controls_available(&self) -> bool {
        self.inner.store.is_some()
    }

    /// Whether a tool is enabled.
    pub fn enabled(&self, name: &str) -> Result<bool, FlagError> {
        if self.get(name).is_none() {
            return Err(FlagError::UnknownTool(name.to_owned()));
        }
        Ok(self.is_enabled(name))
    }

    /// Switches a tool on or off, for new calls; calls already running finish.
    pub fn set_enabled(&self, name: &str, enabled: bool) -> Result<(), FlagError> {
        let store = self.inner.store.as_ref().ok_or(FlagError::NoStore)?;
        if self.get(name).is_none() {
            return Err(FlagError::UnknownTool(name.to_owned()));
        }
        if self.is_enabled(name) != enabled {
            store.set_enabled(name, enabled);
            self.changed();
        } else {
            store.set_enabled(name, enabled);
        }
        Ok(())
    }

    /// Every tool, whatever the caller, as an administrator sees it.
    pub fn describe(&self) -> Vec<Description> {
        self.entries()
            .iter()
            .map(|entry| {
                let info = entry.info();
                Description {
                    name: info.name.to_owned(),
                    descriptor: entry.descriptor(),
                    permission: info.permission.map(str::to_owned),
                    tier: info.tier,
                    toolset: info.toolset.map(str::to_owned),
                    enabled: self.is_enabled(info.name),
                    admin_summary: info.admin_summary.map(str::to_owned),
                    example: info.example.and_then(|e| serde_json::from_str(e).ok()),
                    source: info.source.to_owned(),
                }
            })
            .collect()
    }

    /// Pins, for a new conversation, the tools the caller may see that are
    /// read-only, not destructive, closed-world (or a named open-world
    /// exception), and on `allowlist`.
    pub fn snapshot(&self, caller: &Caller, allowlist: &[&str]) -> Result<Pins, SnapshotError> {
        let unpinned = caller.unpinned();
        let chosen = self
            .entries()
            .into_iter()
            .filter(|entry| {
                let info = entry.info();
                let hints = info.annotations();
                allowlist.contains(&info.name)
                    && self.visible(entry, &unpinned)
                    && hints.read_only
                    && !hints.destructive
                    && (info.world == World::Closed
                        || self.inner.open_world_exceptions.contains(info.name))
            })
            .map(|entry| (entry.name().to_owned(), *entry.fingerprint()))
            .collect::<Vec<_>>();
        Pins::new(chosen)
    }

    /// Registers one provider's batch now, atomically: every tool or none.
    pub fn register(&self, provider: &dyn Provider<C>) -> Result<usize, BatchError> {
        let name = provider.name().to_owned();
        let batch = provider.tools();
        let mut provided = self
            .inner
            .provided
            .write()
            .unwrap_or_else(|p| p.into_inner());
        if provided.providers.contains(&name) {
            return Err(BatchError {
                provider: name,
                tool: String::new(),
                rule: "this provider is already registered; a provider never replaces its tools"
                    .into(),
            });
        }
        let table = self.inner.table;
        let registered = validate_batch(table.settings(), &name, batch, |tool| {
            if let Some(baked) = table.get(tool) {
                return Some(format!(
                    "the table's tool `{tool}` (declared in {})",
                    baked.info().source
                ));
            }
            let held = provided
                .tools
                .binary_search_by(|t| t.name.as_str().cmp(tool))
                .ok()?;
            Some(format!(
                "the tool `{tool}` of {}",
                provided.tools[held].info().source
            ))
        })?;
        let count = registered.len();
        let before = provided.tools.clone();
        provided.tools.extend(registered.into_iter().map(Arc::new));
        provided.tools.sort_by(|a, b| a.name.cmp(&b.name));
        let search = match index_of(table, &merged(table, &provided)) {
            Ok(search) => search,
            Err(error) => {
                provided.tools = before;
                return Err(BatchError {
                    provider: name,
                    tool: String::new(),
                    rule: error.to_string(),
                });
            }
        };
        provided.providers.insert(name);
        provided.epoch += 1;
        provided.search = Some(Arc::new(search));
        drop(provided);
        self.changed();
        Ok(count)
    }

    /// Registers every enabled, configured provider that is not registered
    /// yet. Never replaces a tool. Returns each batch that was refused.
    pub fn refresh(&self) -> Vec<BatchError> {
        let pending: Vec<Arc<dyn Provider<C>>> = {
            let configured = self
                .inner
                .configured
                .lock()
                .unwrap_or_else(|p| p.into_inner());
            let provided = self.read_provided();
            configured
                .iter()
                .filter(|c| c.enabled && !provided.providers.contains(c.provider.name()))
                .map(|c| c.provider.clone())
                .collect()
        };
        pending
            .iter()
            .filter_map(|p| self.register(p.as_ref()).err())
            .collect()
    }
}

/// Makes a provider handler from an async closure.
pub fn handler<C, F>(f: F) -> DynHandler<C>
where
    C: 'static,
    F: for<'a> Fn(&'a C, Arguments, &'a Call) -> BoxFuture<'a, Outcome> + Send + Sync + 'static,
{
    Arc::new(f)
}
