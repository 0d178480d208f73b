//! Stopping one computation from outside, as a value: a [`StopToken`] per computation, passed
//! down to whatever may run long, which looks at it now and then and returns [`Abandoned`].
//! The three types are the search's own ([`solver::stop`]), re-exported: one vocabulary from a
//! front end's token down to the sowing, with no bridging by hand.
//!
//! A sowing of a cyclic game can run billions of laps before it ends or repeats (docs/rules.md
//! §2.9): longer than any time limit, inside a single move, where a search's own between-node
//! checks never get a look. So the stop reaches the sowing itself: [`Rules::sow`] takes a
//! [`Stop`], the relay looks at it every 2^20 laps (so the check costs nothing a sowing of
//! ordinary length would notice) and gives up with [`SowError::Abandoned`], and that result is
//! handed back up through the position code ([`Position::try_play_until`],
//! [`Position::for_each_child_until`]) and the search ([`solver::Game::children_until`], which
//! the search calls with its own [`solver::SearchConfig::stop`]) as an ordinary value. Nothing is
//! unwound, and nothing is process-wide: two searches in one process (an interactive engine, a Python or web
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

pub use solver::stop::{Abandoned, Stop, StopToken};

/// The value of a computation run with [`Stop::never`], which cannot be abandoned.
#[inline(always)]
pub(crate) fn finished<T>(r: Result<T, Abandoned>) -> T {
    match r {
        Ok(v) => v,
        Err(Abandoned) => unreachable!("a computation nobody can stop was abandoned"),
    }
}
