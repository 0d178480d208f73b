//! Stopping one computation from outside, as a value: a [`StopToken`] per computation, passed
//! down to whatever may run long, which looks at it now and then and returns [`Abandoned`].
//!
//! A sowing of a cyclic game can run billions of laps before it ends or repeats (docs/rules.md
//! §2.9): longer than any time limit, inside a single move, where a search's own between-node
//! checks never get a look. So the stop reaches the sowing itself: [`Rules::sow`] takes a
//! [`Stop`], the relay looks at it every 2^20 laps (so the check costs nothing a sowing of
//! ordinary length would notice) and gives up with [`SowError::Abandoned`], and that result is
//! handed back up through the position code ([`Position::try_play_until`],
//! [`Position::for_each_child_until`]) and the search ([`solver::Game::children_until`], which
//! the search calls with its own stop flag) as an ordinary value. Nothing is unwound, and
//! nothing is process-wide: two searches in one process (an interactive engine, a Python or web
//! front end) each have their own token, and stopping one leaves the other running.
//!
//! ```
//! use mancala::stop::StopToken;
//! let token = StopToken::new();
//! let for_the_search = token.clone(); // the same flag: give it to the computation
//! assert!(!for_the_search.is_stopped());
//! token.stop();
//! assert!(for_the_search.is_stopped());
//! ```
//!
//! [`Rules::sow`]: crate::rules::Rules::sow
//! [`SowError::Abandoned`]: crate::rules::SowError::Abandoned
//! [`Position::try_play_until`]: crate::Position::try_play_until
//! [`Position::for_each_child_until`]: crate::Position::for_each_child_until

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The owner's handle on one computation's stop request: clones share one flag, so the owner
/// keeps one clone and gives another (or its [`StopToken::flag`], for a
/// [`solver::SearchConfig::stop`]) to the computation.
#[derive(Clone, Debug, Default)]
pub struct StopToken(Arc<AtomicBool>);

impl StopToken {
    /// A token not yet raised.
    pub fn new() -> Self {
        Self::default()
    }

    /// The token of an existing flag (a search's [`solver::SearchConfig::stop`]).
    pub fn from_flag(flag: Arc<AtomicBool>) -> Self {
        StopToken(flag)
    }

    /// Asks the computation to stop. It stops soon (a search within a few thousand nodes, a
    /// sowing within about a million laps) and reports what it finished.
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Lowers the flag again, so that the token can serve the next computation.
    pub fn reset(&self) {
        self.0.store(false, Ordering::Relaxed);
    }

    /// Whether [`StopToken::stop`] was called (and not reset since).
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// The shared flag itself, for [`solver::SearchConfig::stop`]: the search and the sowings
    /// inside it then stop together.
    pub fn flag(&self) -> &Arc<AtomicBool> {
        &self.0
    }

    /// The borrowed form that the sowing code takes.
    pub fn as_stop(&self) -> Stop<'_> {
        Stop(&self.0)
    }
}

/// A borrowed stop flag, as the sowing code takes it: one pointer, `Copy`, cheap to pass down
/// every call. [`Stop::never`] for computations nobody stops.
#[derive(Clone, Copy, Debug)]
pub struct Stop<'a>(&'a AtomicBool);

/// The flag behind [`Stop::never`]: never raised.
static NEVER: AtomicBool = AtomicBool::new(false);

impl Stop<'static> {
    /// A stop that is never raised: the computation runs to its end.
    #[inline]
    pub fn never() -> Self {
        Stop(&NEVER)
    }
}

impl<'a> Stop<'a> {
    /// The stop of a raw flag (a search's stop flag, [`solver::Game::children_until`]).
    #[inline]
    pub fn of(flag: &'a AtomicBool) -> Self {
        Stop(flag)
    }

    /// Whether the computation was asked to stop.
    #[inline]
    pub fn is_raised(self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// A computation gave up because its stop token was raised. What it finished before stays
/// valid; nothing wrong was computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Abandoned;

impl fmt::Display for Abandoned {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("abandoned: asked to stop before it finished")
    }
}

impl std::error::Error for Abandoned {}

/// The value of a computation run with [`Stop::never`], which cannot be abandoned.
#[inline(always)]
pub(crate) fn finished<T>(r: Result<T, Abandoned>) -> T {
    match r {
        Ok(v) => v,
        Err(Abandoned) => unreachable!("a computation nobody can stop was abandoned"),
    }
}

#[cfg(test)]
mod tests {
    use super::{Abandoned, StopToken};
    use crate::rules::WalakPussa;
    use crate::{Position, SearchConfig, SearchError};
    use std::time::{Duration, Instant};

    /// A Walak-pussa position whose first candidate sows for billions of laps (docs/cli.md
    /// "Limits"): a search of it sits inside one sowing, where only the sowing can see a stop.
    const LONG: &str = "35,29,33,29/35,35,30,29/0,0/N";

    fn position(text: &str) -> Position<WalakPussa> {
        Position::from_setup(WalakPussa::default(), &text.parse().unwrap()).unwrap()
    }

    fn config(token: &StopToken) -> SearchConfig {
        SearchConfig {
            threads: 1,
            tt_bytes: 16 << 20,
            stop: Some(token.flag().clone()),
            ..SearchConfig::default()
        }
    }

    /// Two searches in one process, each with its own token: the one stuck in an endless-looking
    /// sowing is stopped and says so, as a value, soon after; the other, never stopped, finishes
    /// with the right value (Walak-pussa 5x3 is +12, scripts/signature.sh) while the first is
    /// still sowing, and then too.
    #[test]
    fn two_searches_stop_independently() {
        let (stuck, free) = (StopToken::new(), StopToken::new());
        let (long, start) = (
            position(LONG),
            Position::start(WalakPussa::default(), 5, 3).unwrap(),
        );
        let (a, b) = std::thread::scope(|s| {
            let a = s.spawn(|| {
                let r = crate::solve(&long, &config(&stuck));
                (r, Instant::now())
            });
            let b = s.spawn(|| crate::solve(&start, &config(&free)));
            // Long enough for the first search to be deep inside its sowing.
            std::thread::sleep(Duration::from_millis(300));
            let asked = Instant::now();
            stuck.stop();
            let (a, stopped_at) = a.join().unwrap();
            assert!(
                stopped_at.duration_since(asked) < Duration::from_secs(5),
                "the stopped search took {:?} to notice",
                stopped_at.duration_since(asked)
            );
            (a, b.join().unwrap())
        });
        assert_eq!(a.unwrap_err(), SearchError::Interrupted);
        assert_eq!(b.unwrap().value, 12);
        assert!(!free.is_stopped());
    }

    /// The position code gives up the same way: listing the moves of the long position sows
    /// every candidate, and a raised token ends that with `Abandoned`; a token never raised
    /// would let it run for hours.
    #[test]
    fn a_long_move_listing_is_abandoned() {
        let token = StopToken::new();
        let p = position(LONG);
        let r = std::thread::scope(|s| {
            let r = s.spawn(|| p.legal_moves_until(token.as_stop()));
            std::thread::sleep(Duration::from_millis(100));
            token.stop();
            r.join().unwrap()
        });
        assert_eq!(r, Err(Abandoned));
    }
}
