//! The contract between the position code and a game: the [`Rules`] trait and what a sowing
//! reports.

use super::{GameKind, GameOption};
#[cfg(doc)]
use super::{NoOption, RuleOption};
use crate::board::{Board, Side};
use crate::stop::{Abandoned, Stop};
use std::fmt::Debug;
use std::hash::Hash;

/// How a sowing ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnEnd {
    /// The turn passes to the opponent.
    Passes,
    /// The last seed landed in the mover's store: the mover moves again.
    ExtraTurn,
}

/// Why a sowing has no result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SowError {
    /// The sowing never ends (docs/rules.md §2.9): the move is illegal.
    Endless,
    /// The sowing was abandoned because its [`Stop`] was raised: whether it ends is not known.
    Abandoned {
        /// The laps the relay had run when it gave up: more than [`LOOK_EVERY`], as a relay looks
        /// at its stop only every [`LOOK_EVERY`] laps (an ordinary sowing never gives up).
        laps: u64,
    },
}

/// How many laps a relay runs between two looks at its [`Stop`] (docs/rules.md §2.9): a
/// sowing abandoned by its stop has run more than this many.
pub const LOOK_EVERY: u64 = 1 << 20;

/// A sowing given up where only the [`Abandoned`] is known, not its relay's laps (the relays
/// that settle a position after the move's own sowing): more than [`LOOK_EVERY`] laps, the
/// least any abandoned relay has run.
impl From<Abandoned> for SowError {
    fn from(_: Abandoned) -> Self {
        SowError::Abandoned { laps: LOOK_EVERY }
    }
}

/// Why a candidate pit may not be sown (besides an endless sowing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotCandidate {
    /// The pit is empty.
    Empty,
    /// Djenon-aboure: the pit holds a single seed.
    Single,
    /// Walak-pussa with `singleton-restriction`: a singleton while a pit holds two or more.
    SingletonRestricted,
}

/// One game's rules, with its options as fields.
///
/// The contract between the position code and a game:
/// - [`Rules::candidate`] says whether the side to move may sow a pit;
/// - [`Rules::sow`] plays the sowing and its captures on a copy of the board, or reports it as
///   endless, or as abandoned when `stop` was raised during a long relay (the copy is then
///   thrown away);
/// - [`Rules::settle`] applies the end-of-game checks and the no-move rule after every move and
///   to every position read from the user, so that every position handed out is normalised
///   (docs/rules.md §2.5–§2.7).
pub trait Rules: Copy + Eq + Hash + Debug + Send + Sync + 'static {
    /// Which game this is.
    const KIND: GameKind;
    /// Whether positions can recur across turns or a sowing can be endless (docs/rules.md §8.1).
    const CAN_CYCLE: bool;

    /// Whether `side` may sow `pit` (one of its own pits) on `board`, endlessness aside.
    fn candidate(&self, board: &Board, side: Side, pit: usize) -> Result<(), NotCandidate>;

    /// Sows `pit` for `side`, with all relays and captures. Stores/tallies are updated; `to_move`
    /// is not touched. A relay looks at `stop` every 2^20 laps ([`crate::stop`]).
    fn sow(
        &self,
        board: &mut Board,
        side: Side,
        pit: usize,
        stop: Stop<'_>,
    ) -> Result<TurnEnd, SowError>;

    /// Whether the sowing of candidate `pit` surely ends, told from the board alone: its first lap
    /// ends it. A shortcut for the no-move rules, which otherwise sow every candidate to see
    /// whether it ends (twice the work of a relay game's move generation); `false` when unsure.
    #[inline]
    fn first_lap_ends(&self, board: &Board, side: Side, pit: usize) -> bool {
        let _ = (board, side, pit);
        false
    }

    /// Applies the game's end and no-move rules to a board whose `to_move` is the player due to
    /// move next (docs/rules.md §2.7 steps 3–4). The no-move rules of the relay games sow each
    /// candidate to see whether it ends, so they too can be abandoned by `stop` (the board is
    /// then unspecified).
    fn settle(&self, board: &mut Board, stop: Stop<'_>) -> Result<(), Abandoned>;

    /// The game's rule options (docs/rules.md §2.12): an enum with a variant each, which
    /// declares their names once ([`GameOption`]); [`NoOption`] for a game without any.
    type Opt: GameOption;

    /// Whether option `o` is on.
    fn option(&self, o: Self::Opt) -> bool;

    /// Switches option `o` on or off.
    fn set_option(&mut self, o: Self::Opt, on: bool);

    /// The options that are switched on, by name, in [`GameOption::ALL`] order.
    fn option_names(&self) -> Vec<&'static str> {
        let all = Self::Opt::ALL.iter();
        all.filter(|&&o| self.option(o))
            .map(|o| o.declaration().name)
            .collect()
    }

    /// The option named `name` (as in [`RuleOption::name`]), if these rules have one.
    fn option_named(name: &str) -> Option<Self::Opt> {
        let mut all = Self::Opt::ALL.iter().copied();
        all.find(|o| o.declaration().name == name)
    }

    /// A guess at the future value for the side to move, from its row `mine` and the opponent's
    /// row `theirs` (each in sowing order): the search's heuristic look-ahead scores its horizon
    /// with it ([`solver::Game::estimate`]). Only a guess, so any answer is safe; the default 0
    /// means "no idea".
    fn estimate(&self, mine: &[u8], theirs: &[u8]) -> i32 {
        let _ = (mine, theirs);
        0
    }
}

/// The usual candidate rule: any non-empty own pit (Kalah, Dakon, San-Yao).
#[inline]
pub(crate) fn any_seeds(board: &Board, pit: usize) -> Result<(), NotCandidate> {
    if board.pits.get(pit) == 0 {
        Err(NotCandidate::Empty)
    } else {
        Ok(())
    }
}
