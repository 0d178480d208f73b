//! Stopping one computation from outside, as a value: the owner holds a [`StopToken`], the
//! computation looks at its borrowed form, a [`Stop`], now and then, and gives up with
//! [`Abandoned`] once it is raised.
//!
//! One vocabulary for every computation that may run long: a search
//! ([`SearchConfig::stop`](crate::SearchConfig::stop)), a move generation inside it
//! ([`Game::children_until`](crate::Game::children_until)), a look-ahead
//! ([`lookahead::best_move`](crate::lookahead::best_move)), a layer of retrograde analysis
//! ([`Stoppable`](crate::Stoppable)), an oracle's audit. Nothing is process-wide: two searches
//! in one process each have their own token, and stopping one leaves the other running.
//!
//! ```
//! use solver::stop::{Stop, StopToken};
//! let token = StopToken::new();
//! let for_the_search = token.clone(); // the same flag: give it to the computation
//! assert!(!for_the_search.is_stopped());
//! token.stop();
//! assert!(for_the_search.is_stopped() && for_the_search.as_stop().is_raised());
//! assert!(!Stop::never().is_raised() && Stop::raised().is_raised());
//! ```

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The owner's handle on one computation's stop request: clones share one flag, so the owner
/// keeps one clone and gives another to the computation (a [`SearchConfig::stop`], or its
/// [`StopToken::as_stop`] to code that only looks).
///
/// [`SearchConfig::stop`]: crate::SearchConfig::stop
#[derive(Clone, Debug, Default)]
pub struct StopToken(Arc<AtomicBool>);

impl StopToken {
    /// A token not yet raised.
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks the computation to stop. It stops soon (a search within a few thousand nodes, a
    /// move generation within its next look) and reports what it finished.
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Lowers the flag again, so that the token can serve the next computation.
    pub fn reset(&self) {
        self.0.store(false, Ordering::Relaxed);
    }

    /// Lowers the token and says whether it was raised: for an owner that consumes each stop
    /// request once (interactive play, where a Ctrl-C ends one thought and the next Ctrl-C is a
    /// first one again). One atomic step, so a request made meanwhile is never lost.
    pub fn take(&self) -> bool {
        self.0.swap(false, Ordering::Relaxed)
    }

    /// Whether [`StopToken::stop`] was called (and not reset since).
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// The borrowed form that the looking code takes: one pointer, `Copy`.
    pub fn as_stop(&self) -> Stop<'_> {
        Stop(&self.0)
    }
}

/// A borrowed stop, as the code that looks at it takes it: one pointer, `Copy`, cheap to pass
/// down every call. [`Stop::never`] for computations nobody stops, [`Stop::raised`] for one
/// that may only do what needs no long computation.
#[derive(Clone, Copy, Debug)]
pub struct Stop<'a>(&'a AtomicBool);

/// The flag behind [`Stop::never`]: never raised.
static NEVER: AtomicBool = AtomicBool::new(false);

/// The flag behind [`Stop::raised`]: raised from the start.
static RAISED: AtomicBool = AtomicBool::new(true);

impl Stop<'static> {
    /// A stop that is never raised: the computation runs to its end.
    #[inline]
    pub fn never() -> Self {
        Stop(&NEVER)
    }

    /// A stop raised from the start: the computation does what it can without looking at it
    /// (a sowing of ordinary length, a move generation that ends within its first look) and
    /// gives up on anything longer.
    #[inline]
    pub fn raised() -> Self {
        Stop(&RAISED)
    }
}

impl Stop<'_> {
    /// Whether the computation was asked to stop.
    #[inline]
    pub fn is_raised(self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// A computation gave up because its stop was raised. What it finished before stays valid;
/// nothing wrong was computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Abandoned;

impl fmt::Display for Abandoned {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("abandoned: asked to stop before it finished")
    }
}

impl std::error::Error for Abandoned {}
