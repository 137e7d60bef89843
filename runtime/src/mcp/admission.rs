//! Admission: whether a call may start now.
//!
//! One caller must not be able to take the whole server: a model in a loop,
//! or a client that opens a hundred calls to a slow tool, would starve every
//! other caller. Each call is admitted against three bounds before it runs:
//! the calls in progress in all, the calls in progress for its caller, and
//! the rate at which its caller starts calls (a token bucket, `governor`'s
//! GCRA). A call over a bound is refused at once with a result that says
//! which bound and, for the rate, when to try again; nothing queues, so a
//! refused call holds nothing. Callers are told apart by their token's
//! subject. Callers without one (the operator, everyone on a server without
//! authentication) cannot be told apart, so only the bound on calls in all
//! applies to them: a per-caller budget shared by everyone would be a
//! server-wide rate limit nobody asked for. The rate is kept only where
//! there can be more than one caller, over HTTP (feature `http`): a stdio
//! server has one peer, and the limiter would only add to its build.

use crate::call::execute::Place;
use crate::registry::policy::Caller;
use crate::rules::quote;
#[cfg(feature = "http")]
use governor::clock::{Clock, DefaultClock};
#[cfg(feature = "http")]
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use std::collections::HashMap;
#[cfg(feature = "http")]
use std::num::NonZeroU32;
#[cfg(feature = "http")]
use std::sync::atomic::AtomicU64;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
#[cfg(feature = "http")]
use std::time::Duration;

/// Calls in progress at once, in all, by default.
pub(crate) const DEFAULT_MAX_CONCURRENT_CALLS: usize = 64;
/// Calls in progress at once for one caller, by default.
pub(crate) const DEFAULT_MAX_CONCURRENT_CALLS_PER_CALLER: usize = 16;
/// Calls a caller may start per second, on average, by default.
pub(crate) const DEFAULT_CALLS_PER_SECOND: u32 = 50;
/// Calls a caller may start at once after a quiet spell, by default.
pub(crate) const DEFAULT_CALL_BURST: u32 = 100;

/// How often, in admitted calls, the rate limiter forgets callers it has
/// not seen for a while, so its memory stays bounded by recent callers.
#[cfg(feature = "http")]
const FORGET_EVERY: u64 = 1024;

/// The bounds a call is admitted against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallLimits {
    /// Calls in progress at once, in all (default 64).
    pub max_concurrent: usize,
    /// Calls in progress at once for one caller (default 16).
    pub max_concurrent_per_caller: usize,
    /// Calls one caller may start per second, on average (default 50).
    pub per_second: u32,
    /// Calls one caller may start at once after a quiet spell (default 100).
    pub burst: u32,
}

impl Default for CallLimits {
    fn default() -> CallLimits {
        CallLimits {
            max_concurrent: DEFAULT_MAX_CONCURRENT_CALLS,
            max_concurrent_per_caller: DEFAULT_MAX_CONCURRENT_CALLS_PER_CALLER,
            per_second: DEFAULT_CALLS_PER_SECOND,
            burst: DEFAULT_CALL_BURST,
        }
    }
}

impl CallLimits {
    /// The first bound that is zero, as a sentence naming the setting.
    pub(crate) fn check(&self) -> Result<(), String> {
        let zero = [
            (self.max_concurrent, "the limit of calls in progress"),
            (
                self.max_concurrent_per_caller,
                "the limit of calls in progress per caller",
            ),
            (self.per_second as usize, "the rate of calls per caller"),
            (self.burst as usize, "the burst of calls per caller"),
        ];
        match zero.iter().find(|(value, _)| *value == 0) {
            Some((_, what)) => Err(format!("{what} must be at least 1; got 0")),
            None => Ok(()),
        }
    }
}

/// The admission state shared by every session of a server.
pub(crate) struct Admission {
    limits: CallLimits,
    /// Calls in progress, in all: an atomic, so a caller without a subject
    /// (the common case on a server without tokens) takes no lock.
    total: AtomicUsize,
    /// Calls in progress per subject; only subjects with one in progress,
    /// so bounded by `max_concurrent`.
    by_caller: Mutex<HashMap<String, usize>>,
    #[cfg(feature = "http")]
    rate: DefaultKeyedRateLimiter<String>,
    #[cfg(feature = "http")]
    admitted: AtomicU64,
}

/// A call's place among those in progress; dropping it frees the place.
/// It borrows the admission state rather than sharing it: the call it
/// admits ends before the server does, and a reference count would cost
/// every call two more atomic operations. Only a synchronous handler handed
/// to the blocking pool, which may outlive its call (cancelled, or cut off
/// at shutdown), takes the place with it, sharing the state then
/// ([`Place::keep`]).
pub(crate) struct Admitted<'a> {
    admission: &'a Arc<Admission>,
    /// The subject's key; taken when the place is kept elsewhere.
    key: Mutex<Option<String>>,
    /// The place was kept elsewhere, which frees it.
    kept: AtomicBool,
}

impl Drop for Admitted<'_> {
    #[inline]
    fn drop(&mut self) {
        if !*self.kept.get_mut() {
            let key = self.key.get_mut().unwrap_or_else(|p| p.into_inner()).take();
            self.admission.free(key.as_deref());
        }
    }
}

impl Place for Admitted<'_> {
    fn keep(&self) -> Box<dyn Send> {
        self.kept.store(true, Ordering::Release);
        let key = self.key.lock().unwrap_or_else(|p| p.into_inner()).take();
        Box::new(Kept {
            admission: self.admission.clone(),
            key,
        })
    }
}

/// A place taken out of its call by a handler that outlives it.
struct Kept {
    admission: Arc<Admission>,
    key: Option<String>,
}

impl Drop for Kept {
    fn drop(&mut self) {
        self.admission.free(self.key.as_deref());
    }
}

impl Admission {
    pub(crate) fn new(limits: CallLimits) -> Admission {
        #[cfg(feature = "http")]
        let quota = {
            let per_second = NonZeroU32::new(limits.per_second).unwrap_or(NonZeroU32::MIN);
            let burst = NonZeroU32::new(limits.burst).unwrap_or(NonZeroU32::MIN);
            Quota::per_second(per_second).allow_burst(burst)
        };
        Admission {
            limits,
            total: AtomicUsize::new(0),
            by_caller: Mutex::new(HashMap::new()),
            #[cfg(feature = "http")]
            rate: RateLimiter::keyed(quota),
            #[cfg(feature = "http")]
            admitted: AtomicU64::new(0),
        }
    }

    /// Whether a caller with this subject may start a call now, at its rate.
    #[cfg(feature = "http")]
    fn within_rate(&self, key: &String, tool: &str) -> Result<(), String> {
        if let Err(not_until) = self.rate.check_key(key) {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            return Err(format!(
                "{} was not started: this caller starts calls faster than this server allows ({} a second); try again in {}",
                quote::text(tool),
                self.limits.per_second,
                seconds(wait)
            ));
        }
        if self.admitted.fetch_add(1, Ordering::Relaxed) % FORGET_EVERY == FORGET_EVERY - 1 {
            self.rate.retain_recent();
            self.rate.shrink_to_fit();
        }
        Ok(())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, usize>> {
        self.by_caller.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Frees a place, held by the subject `key` if it has one.
    #[inline]
    fn free(&self, key: Option<&str>) {
        self.total.fetch_sub(1, Ordering::AcqRel);
        if let Some(key) = key {
            self.leave(key);
        }
    }

    /// Frees a place held by the subject `key`.
    fn leave(&self, key: &str) {
        let mut by_caller = self.lock();
        if let Some(count) = by_caller.get_mut(key) {
            *count -= 1;
            if *count == 0 {
                by_caller.remove(key);
            }
        }
    }

    /// Admits a call by `caller` to `tool`, or refuses it with a sentence
    /// the caller can act on.
    #[inline]
    pub(crate) fn admit<'a>(
        self: &'a Arc<Self>,
        caller: &Caller,
        tool: &str,
    ) -> Result<Admitted<'a>, String> {
        // Every call on a server without tokens comes this way: kept small
        // enough to inline, the refusal's wording out of line.
        if let Some(subject) = &caller.identity().subject {
            return self.admit_subject(subject, tool);
        }
        if self.total.fetch_add(1, Ordering::AcqRel) >= self.limits.max_concurrent {
            return Err(self.refuse_over_total(tool));
        }
        Ok(Admitted {
            admission: self,
            key: Mutex::new(None),
            kept: AtomicBool::new(false),
        })
    }

    #[cold]
    fn refuse_over_total(&self, tool: &str) -> String {
        self.total.fetch_sub(1, Ordering::AcqRel);
        format!(
            "{} was not started: this server is running its limit of {} calls at once; try again when one has finished",
            quote::text(tool),
            self.limits.max_concurrent
        )
    }

    /// [`Admission::admit`] for a caller with a subject: its rate, then the
    /// calls in all, then its own calls in progress.
    fn admit_subject<'a>(
        self: &'a Arc<Self>,
        subject: &str,
        tool: &str,
    ) -> Result<Admitted<'a>, String> {
        let key = subject.to_owned();
        #[cfg(feature = "http")]
        self.within_rate(&key, tool)?;
        if self.total.fetch_add(1, Ordering::AcqRel) >= self.limits.max_concurrent {
            return Err(self.refuse_over_total(tool));
        }
        let mut by_caller = self.lock();
        let mine = by_caller.get(&key).copied().unwrap_or(0);
        if mine >= self.limits.max_concurrent_per_caller {
            drop(by_caller);
            self.total.fetch_sub(1, Ordering::AcqRel);
            return Err(format!(
                "{} was not started: this caller is already running as many calls at once as this server allows one caller ({}); try again when one has finished",
                quote::text(tool),
                self.limits.max_concurrent_per_caller
            ));
        }
        *by_caller.entry(key.clone()).or_default() += 1;
        drop(by_caller);
        Ok(Admitted {
            admission: self,
            key: Mutex::new(Some(key)),
            kept: AtomicBool::new(false),
        })
    }
}

/// A wait as a person reads it: "0.25 s", at least a hundredth.
#[cfg(feature = "http")]
fn seconds(wait: Duration) -> String {
    format!("{:.2} s", wait.as_secs_f64().max(0.01))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::call::identity::{Identity, Permissions};
    use std::sync::Arc;

    fn caller(subject: &str) -> Caller {
        Caller::from_identity(Identity {
            subject: Some(subject.to_owned()),
            permissions: Permissions::All,
        })
    }

    fn limits(
        max_concurrent: usize,
        per_caller: usize,
        per_second: u32,
        burst: u32,
    ) -> Arc<Admission> {
        Arc::new(Admission::new(CallLimits {
            max_concurrent,
            max_concurrent_per_caller: per_caller,
            per_second,
            burst,
        }))
    }

    #[test]
    fn a_caller_over_its_share_of_calls_in_progress_is_refused_and_others_are_not() {
        let admission = limits(10, 2, 1000, 1000);
        let first = admission.admit(&caller("alice"), "t").unwrap();
        let _second = admission.admit(&caller("alice"), "t").unwrap();
        let refusal = admission.admit(&caller("alice"), "t").err().unwrap();
        assert_eq!(
            refusal,
            "t was not started: this caller is already running as many calls at once as this server allows one caller (2); try again when one has finished"
        );
        assert!(admission.admit(&caller("bob"), "t").is_ok());
        drop(first);
        assert!(
            admission.admit(&caller("alice"), "t").is_ok(),
            "a finished call frees its place"
        );
    }

    #[test]
    fn the_server_s_limit_of_calls_in_progress_holds_across_callers() {
        let admission = limits(2, 2, 1000, 1000);
        let _a = admission.admit(&caller("a"), "t").unwrap();
        let _b = admission.admit(&caller("b"), "t").unwrap();
        let refusal = admission.admit(&caller("c"), "t").err().unwrap();
        assert!(
            refusal.contains("its limit of 2 calls at once"),
            "{refusal}"
        );
    }

    #[cfg(feature = "http")]
    #[test]
    fn a_caller_over_its_rate_is_told_when_to_retry_and_others_are_not_slowed() {
        let admission = limits(100, 100, 1, 3);
        for _ in 0..3 {
            drop(admission.admit(&caller("alice"), "t").unwrap());
        }
        let refusal = admission.admit(&caller("alice"), "t").err().unwrap();
        assert!(
            refusal.starts_with("t was not started: this caller starts calls faster than this server allows (1 a second); try again in "),
            "{refusal}"
        );
        assert!(admission.admit(&caller("bob"), "t").is_ok());
    }

    #[test]
    fn nothing_is_kept_for_a_caller_without_calls_in_progress() {
        let admission = limits(100, 100, 1000, 1000);
        for n in 0..50 {
            drop(admission.admit(&caller(&format!("c{n}")), "t").unwrap());
        }
        assert!(admission.lock().is_empty());
        assert_eq!(admission.total.load(Ordering::SeqCst), 0);
    }

    #[test]
    fn callers_without_a_subject_share_only_the_bound_on_calls_in_all() {
        let admission = limits(3, 1, 1, 1);
        let operator = Caller::operator();
        let held: Vec<_> = (0..3)
            .map(|_| admission.admit(&operator, "t").unwrap())
            .collect();
        let refusal = admission.admit(&operator, "t").err().unwrap();
        assert!(
            refusal.contains("its limit of 3 calls at once"),
            "{refusal}"
        );
        drop(held);
        for _ in 0..10 {
            drop(admission.admit(&operator, "t").unwrap());
        }
    }

    #[test]
    fn a_zero_limit_is_refused_naming_it() {
        let zero = CallLimits {
            burst: 0,
            ..CallLimits::default()
        };
        assert_eq!(
            zero.check(),
            Err("the burst of calls per caller must be at least 1; got 0".to_owned())
        );
    }
}
