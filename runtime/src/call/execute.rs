//! Executing a call: from a found tool and JSON arguments to an MCP result.
//!
//! The registry decides whether a call may run (policy, enabled flag, pin);
//! this module runs it: the arguments, then consent for a confirming tool,
//! then the handler, then the shaping of the output. Everything here answers with a result
//! (`isError: true` when refused or failed), because the MCP specification
//! wants errors a model can act on inside the result. A handler that panics
//! or fails internally is logged with the tool's name, and the caller is told
//! only to consult the server log.
//!
//! Where a synchronous handler runs depends on whose call it is
//! ([`HandlerContext`]): a served call runs it where it cannot stall the
//! server, since a synchronous function may block (on a lock, a file, a
//! database). That is in place, on the worker polling the call, as long as
//! another worker stays free for everything else (on a runtime of N
//! workers, N - 1 such handlers at once), and tokio's blocking pool past
//! that, or on a current-thread runtime. In place, a handler still running
//! after a tick has a sleeping worker woken to take over what its worker
//! holds up ([`in_place`]); a trip to the pool costs a
//! thread wake-up each way. The program's own call runs it on the calling
//! thread, as any function the program calls. An `async fn` handler runs
//! on the runtime: blocking inside one is its author's to avoid.

use crate::call::consent;
use crate::call::handle::{Call, Era};
use crate::call::handler::{Arguments, BoxFuture, Failure, Handler, Invoke, Outcome, Output};
use crate::call::in_place;
use crate::call::result::{
    CallError, CallToolResult, GENERIC_FAILURE, InputRequired, Reply, wrapped,
};
use crate::rules::confirm::{self, Consent};
use crate::rules::info::ToolInfo;
use crate::rules::validate::{self, SchemaError, Validator};
use serde_json::Value;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

/// How a future polled until it finished or asked a question ended.
enum Ran<T> {
    /// It returned, or panicked.
    Finished(std::thread::Result<T>),
    /// It asked the client a question on 2026-07-28 and is waiting: the
    /// round ends here.
    Asked,
}

/// The handler to run, once the arguments passed.
enum Run<'h, C: 'static> {
    Static(&'h Handler<C>),
    Dynamic(&'h crate::call::handler::DynHandler<C>),
}

/// The context a call runs with, which decides where a synchronous handler
/// runs.
pub(crate) enum HandlerContext<'a, C: 'static> {
    /// The program's own call, with a context it lends: a synchronous
    /// handler runs on the calling thread.
    Lent(&'a C),
    /// A served call: a synchronous handler runs where blocking is allowed,
    /// and keeps the call's place while it runs. (Only the rmcp adapter
    /// serves calls.)
    #[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
    Served(&'a Arc<C>, Offload<C>, Option<&'a dyn Place>),
}

/// A served call's place among the calls in progress, which its handler
/// keeps until it returns. A synchronous handler handed to the blocking
/// pool cannot be stopped: when its call is dropped (cancelled, cut off at
/// shutdown) it runs on, so it takes the place with it ([`Place::keep`]),
/// and a client cannot start more handlers than the server admits by
/// cancelling each one. A handler run in place ends with its call, and
/// takes nothing.
pub(crate) trait Place: Sync {
    /// The place, moved out of the call into what the handler holds until
    /// it returns.
    fn keep(&self) -> Box<dyn Send>;
}

/// Runs a synchronous handler off the async runtime, giving back the call.
type Offload<C> = for<'p> fn(
    Arc<C>,
    SyncHandler<C>,
    Arguments,
    Call,
    Option<&'p dyn Place>,
) -> BoxFuture<'p, std::thread::Result<Outcome>>;

#[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
impl<'a, C: Send + Sync + 'static> HandlerContext<'a, C> {
    /// A served call's context: its synchronous handlers run where blocking
    /// is allowed, keeping `place` while they run.
    pub(crate) fn served(
        context: &'a Arc<C>,
        place: Option<&'a dyn Place>,
    ) -> HandlerContext<'a, C> {
        HandlerContext::Served(context, where_blocking_is_allowed::<C>, place)
    }
}

impl<'a, C> HandlerContext<'a, C> {
    fn get(&self) -> &'a C {
        match self {
            HandlerContext::Lent(context) => context,
            HandlerContext::Served(context, ..) => context,
        }
    }
}

/// Runs `handler` where blocking does not stall the runtime: in place, on
/// the worker that polls the call, while another worker is spare
/// ([`in_place::Worker`]); otherwise on tokio's blocking pool. If the pool
/// no longer takes work (the runtime is shutting down), that is the call's
/// failure.
#[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
fn where_blocking_is_allowed<'p, C: Send + Sync + 'static>(
    context: Arc<C>,
    handler: SyncHandler<C>,
    arguments: Arguments,
    call: Call,
    place: Option<&'p dyn Place>,
) -> BoxFuture<'p, std::thread::Result<Outcome>> {
    Box::pin(async move {
        if let Some(worker) = in_place::Worker::spare() {
            return worker.run(|| run_sync(handler, &context, arguments, &call));
        }
        let kept = place.map(Place::keep);
        tokio::task::spawn_blocking(move || {
            let outcome = run_sync(handler, &context, arguments, &call);
            drop(kept);
            outcome
        })
        .await
        .unwrap_or_else(|error| {
            Err(Box::new(format!(
                "the blocking pool did not run it: {error}"
            )))
        })
    })
}

/// Runs a tool the registry let through: the `confirm` argument taken out,
/// the arguments checked, consent obtained, the handler run, its result
/// shaped. A protocol error only for a capability the client lacks on
/// 2026-07-28; every other failure is a result with `isError: true`.
pub(crate) async fn execute<C>(
    info: &ToolInfo<'_>,
    invoke: Invoke<'_, C>,
    wrap_output: bool,
    consent: &Consent,
    context: HandlerContext<'_, C>,
    mut arguments: Arguments,
    call: Call,
) -> Result<Reply, CallError> {
    let era = call.era();
    let given = match &info.confirm {
        Some(_) => match confirm::take(info.name, &mut arguments) {
            Ok(given) => given,
            Err(refusal) => return Ok(Reply::Complete(CallToolResult::error(refusal.to_string()))),
        },
        None => None,
    };
    let (run, output_validator) = match invoke {
        Invoke::Static {
            handler,
            validator,
            check,
        } => {
            if let Some(validator) = validator
                && let Some(refusal) = refuse_arguments(info.name, validator, &arguments)
            {
                return Ok(Reply::Complete(refusal));
            }
            if let Some(check) = check
                && let Err(Failure::Arguments(detail)) = check(&arguments)
            {
                return Ok(Reply::Complete(invalid_arguments(info.name, &detail)));
            }
            (Run::Static(handler), None)
        }
        Invoke::Dynamic {
            handler,
            input,
            output,
        } => {
            if let Some(refusal) = refuse_arguments(info.name, &Ok(input), &arguments) {
                return Ok(Reply::Complete(refusal));
            }
            (Run::Dynamic(handler), output)
        }
    };
    if let Some(required) = &info.confirm {
        // Asked after the arguments passed, so a person is never asked to
        // allow a call that would be refused anyway. Boxed: the question's
        // future is large, and only confirming calls should carry it.
        let obtain = Box::pin(consent::obtain(
            info, required, consent, given, &arguments, &call,
        ));
        match (UntilAsked {
            future: obtain,
            call: &call,
        })
        .await
        {
            Ran::Asked => return Ok(input_required(&call)),
            Ran::Finished(Ok(Ok(()))) => {}
            Ran::Finished(Ok(Err(refusal))) => {
                tracing::info!(tool = info.name, %refusal, "a confirming call was not allowed");
                return Ok(Reply::Complete(CallToolResult::error(refusal.to_string())));
            }
            Ran::Finished(Err(_)) => {
                tracing::error!(tool = info.name, "asking for consent panicked");
                return Ok(Reply::Complete(CallToolResult::error(GENERIC_FAILURE)));
            }
        }
    }
    let ran = match run {
        Run::Static(Handler::Sync(invoke)) => match context {
            HandlerContext::Lent(context) => {
                Ran::Finished(run_sync(*invoke, context, arguments, &call))
            }
            HandlerContext::Served(context, offload, place) => {
                let outcome = offload(context.clone(), *invoke, arguments, call, place).await;
                return finish(info, outcome, None, wrap_output, era);
            }
        },
        Run::Static(Handler::Async(invoke)) => {
            UntilAsked {
                future: invoke(context.get(), arguments, &call),
                call: &call,
            }
            .await
        }
        Run::Dynamic(handler) => {
            match catch_unwind(AssertUnwindSafe(|| {
                handler(context.get(), arguments, &call)
            })) {
                Ok(future) => {
                    UntilAsked {
                        future,
                        call: &call,
                    }
                    .await
                }
                Err(panic) => Ran::Finished(Err(panic)),
            }
        }
    };
    match ran {
        Ran::Asked => Ok(input_required(&call)),
        Ran::Finished(outcome) => finish(info, outcome, output_validator, wrap_output, era),
    }
}

/// What runs at once, without a future, in the program's own call: the
/// synchronous handler of a baked tool that does not confirm, and the
/// validator of its arguments if its schema says more than its parameter
/// type.
pub(crate) struct AtOnce<'h, C: 'static> {
    handler: SyncHandler<C>,
    validator: Option<&'h Result<Validator, SchemaError>>,
}

type SyncHandler<C> = fn(&C, Arguments, &Call) -> Outcome;

/// Whether a call can run at once: nothing in it waits (no person is asked,
/// the handler is synchronous), and what it needs is baked.
pub(crate) fn at_once<'h, C>(info: &ToolInfo<'_>, invoke: &Invoke<'h, C>) -> Option<AtOnce<'h, C>> {
    match invoke {
        Invoke::Static {
            handler: Handler::Sync(handler),
            validator,
            ..
        } if info.confirm.is_none() => Some(AtOnce {
            handler: *handler,
            validator: *validator,
        }),
        _ => None,
    }
}

/// [`execute`] for a call that [`at_once`] accepted, as a plain function:
/// the same steps (arguments, handler, shaping) without a confirmation to
/// take out or a person to ask. The handler runs on the calling thread: the
/// program's own call lends it (`worker` is `None`), a served call runs it
/// in place on the `worker` it took. Most served calls are these, and a
/// future around them would be moved and polled for nothing.
pub(crate) fn execute_at_once<C>(
    info: &ToolInfo<'_>,
    run: AtOnce<'_, C>,
    wrap_output: bool,
    context: &C,
    arguments: Arguments,
    call: &Call,
    worker: Option<in_place::Worker>,
) -> Result<Reply, CallError> {
    if let Some(validator) = run.validator
        && let Some(refusal) = refuse_arguments(info.name, validator, &arguments)
    {
        return Ok(Reply::Complete(refusal));
    }
    let outcome = match worker {
        Some(worker) => worker.run(|| run_sync(run.handler, context, arguments, call)),
        None => run_sync(run.handler, context, arguments, call),
    };
    finish(info, outcome, None, wrap_output, call.era())
}

fn run_sync<C>(
    handler: SyncHandler<C>,
    context: &C,
    arguments: Arguments,
    call: &Call,
) -> std::thread::Result<Outcome> {
    catch_unwind(AssertUnwindSafe(|| handler(context, arguments, call)))
}

/// From what the handler gave (or its panic) to the reply. Not generic, so
/// every tool shares one copy of it.
fn finish(
    info: &ToolInfo<'_>,
    outcome: std::thread::Result<Outcome>,
    output_validator: Option<&Validator>,
    wrap_output: bool,
    era: Era,
) -> Result<Reply, CallError> {
    let result = match outcome {
        Ok(Ok(Output::Structured(value) | Output::Summarized(value, _)))
            if output_validator.is_some_and(|v| v.check(&value).is_err()) =>
        {
            let violations = output_validator
                .and_then(|v| v.check(&value).err())
                .unwrap_or_default();
            tracing::error!(
                tool = info.name,
                violations = %validate::describe(&violations),
                "a provider tool's result does not fit its output schema"
            );
            CallToolResult::error(GENERIC_FAILURE)
        }
        Ok(Ok(output)) => shape(output, wrap_output),
        Ok(Err(Failure::Arguments(detail))) => invalid_arguments(info.name, &detail),
        Ok(Err(Failure::Tool(error))) => match error.into_protocol() {
            Ok(protocol) => return Err(protocol),
            Err(error) => match (error.message(), error.missing()) {
                (Some(message), _) => {
                    if let Some(source) = error.reported_error() {
                        tracing::info!(tool = info.name, error = ?source, "tool failed");
                    }
                    match error.data() {
                        Some(data) => CallToolResult::error_with_data(message, data.clone()),
                        None => CallToolResult::error(message),
                    }
                }

                (None, Some(capability)) if era == Era::Current => {
                    return Err(CallError::missing_capability(capability));
                }
                (None, Some(_)) => CallToolResult::error(error.to_string()),
                (None, None) => {
                    tracing::error!(tool = info.name, error = %error, "tool failed");
                    CallToolResult::error(GENERIC_FAILURE)
                }
            },
        },
        Err(panic) => {
            let message = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic without a message".to_owned());
            tracing::error!(tool = info.name, panic = %message, "tool panicked");
            CallToolResult::error(GENERIC_FAILURE)
        }
    };
    Ok(Reply::Complete(result))
}

/// Ends the round with the questions asked in it.
fn input_required(call: &Call) -> Reply {
    let (requests, state) = call.end_round();
    Reply::InputRequired(Box::new(InputRequired { requests, state }))
}

/// The refusal of arguments that do not fit the input schema, naming the
/// first few violations; `None` when they fit.
fn refuse_arguments<V: std::borrow::Borrow<Validator>>(
    tool: &str,
    validator: &Result<V, SchemaError>,
    arguments: &Arguments,
) -> Option<CallToolResult> {
    let validator = match validator {
        Ok(validator) => validator.borrow(),
        Err(error) => {
            tracing::error!(tool, %error, "the input schema cannot be enforced");
            return Some(CallToolResult::error(GENERIC_FAILURE));
        }
    };
    // Validation reads a value; the arguments stay the handler's to own.
    let given = Value::Object(arguments.clone());
    let violations = validator.check(&given).err()?;
    Some(CallToolResult::error(format!(
        "Invalid arguments for {tool}: {}.",
        validate::describe(&violations)
    )))
}

/// The refusal of arguments the parameter type does not accept.
fn invalid_arguments(tool: &str, detail: &str) -> CallToolResult {
    CallToolResult::error(format!("Invalid arguments for {tool}: {detail}"))
}

fn shape(output: Output, wrap: bool) -> CallToolResult {
    match output {
        Output::Structured(value) if wrap => CallToolResult::structured(wrapped(value)),
        Output::Structured(value) => CallToolResult::structured(value),
        Output::Summarized(value, text) if wrap => CallToolResult::summarized(wrapped(value), text),
        Output::Summarized(value, text) => CallToolResult::summarized(value, text),
        Output::Text(text) => CallToolResult::text(text),
        Output::Content(content) => CallToolResult {
            content,
            structured_content: None,
            is_error: false,
        },
        Output::Result(result) => result,
    }
}

/// Polls a future inside `catch_unwind`, so a panicking async handler
/// becomes an error instead of tearing down the task that serves the call,
/// and ends the round when the future waits on a question.
struct UntilAsked<'c, F> {
    future: F,
    call: &'c Call,
}

impl<F> Future for UntilAsked<'_, F>
where
    F: Future + Unpin,
{
    type Output = Ran<F::Output>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Ran<F::Output>> {
        let inner = &mut self.future;
        match catch_unwind(AssertUnwindSafe(|| Pin::new(&mut *inner).poll(cx))) {
            Ok(Poll::Ready(outcome)) => Poll::Ready(Ran::Finished(Ok(outcome))),
            // Questions asked together (`join!`) are all registered in the
            // same poll, so one round carries them all.
            Ok(Poll::Pending) if self.call.has_asked() => Poll::Ready(Ran::Asked),
            Ok(Poll::Pending) => Poll::Pending,
            Err(panic) => Poll::Ready(Ran::Finished(Err(panic))),
        }
    }
}
