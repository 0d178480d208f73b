//! Multi-round matches (docs/rules.md §13): the setup of the next round from the stores at the end of
//! the last one, and a match played move by move across its rounds.
//!
//! - Dakon and Walak-pussa (§13.3): each player refills their own row, `s` seeds a pit, from move
//!   `n` down (or, with [`MatchOptions::fill_from_move_1`], from move 1 up); pits that cannot be
//!   filled are burnt; leftovers stay in the store. A player with fewer than `s` loses the match.
//!   Dakon's next starter is the round's winner, Walak-pussa's the player with fewer seeds.
//! - San-Yao (§13.4): the stronger player fills their row, conquers the weaker one's pits as sons
//!   while `s` stones remain, lends the rest; the weaker one fills what is left; the stronger
//!   starts. The match ends when the weaker one has fewer than `s`.
//!
//! After a drawn round (or a tie in San-Yao) the player who was not that round's starter is the
//! one named. Kalah and Djenon-aboure have no matches.
//!
//! Every sowing of a match can be stopped ([`crate::stop`]): a move of a relay game, and the
//! setup of the next round (which sows the starter's candidates), can relay for billions of
//! laps (docs/rules.md §2.9). The `_until` forms give up with [`MatchError::Abandoned`] once
//! their stop is raised, leaving the match as it was before the call.

use crate::board::{Move, Side};
use crate::notation::{PitStatus, RoundSetup, Setup};
use crate::rules::{GameKind, Rules, LOOK_EVERY};
use crate::stop::{Abandoned, Stop};
use crate::{IllegalMove, PlayError, Position, PositionError};
use std::fmt;

/// The *readings* of §13 that are options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MatchOptions {
    /// Dakon and Walak-pussa: refill from move 1 upwards, so the burnt pits are the ones next to
    /// the store (§13.3 step 2's reading); off: from move `n` down.
    pub fill_from_move_1: bool,
}

/// Why a match cannot be set up or go on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchError {
    /// The game is not played in matches (Kalah, Djenon-aboure).
    NoMatches(GameKind),
    /// [`MatchOptions::fill_from_move_1`] for a game whose rows are always filled from move 1
    /// (San-Yao): an option of the other games.
    FillOrderFixed(GameKind),
    /// The rounds end without a move, over and over: the match would never end.
    Endless,
    /// The next round's start is not a valid position (it always is for boards within range).
    Position(PositionError),
    /// A move of the current round is illegal.
    Illegal {
        /// The move given.
        mv: u32,
        /// The position it was tried in.
        position: String,
        /// Why it is illegal.
        why: IllegalMove,
    },
    /// A move after the match's end.
    Over,
    /// A sowing was given up because the stop was raised: a move's, or one that sets up the
    /// next round. Whether it ends is not known; the match is as it was before the call.
    Abandoned {
        /// The laps its relay had run: more than [`LOOK_EVERY`].
        laps: u64,
    },
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::NoMatches(game) => write!(
                f,
                "{} is not played in matches: matches are Dakon, Walak-pussa and San-Yao (docs/rules.md §13)",
                game.title()
            ),
            MatchError::FillOrderFixed(game) => write!(
                f,
                "the match option fill-from-move-1 applies to dakon and walak-pussa only, not to {} ({} fills from move 1 always)",
                game.name(),
                game.title()
            ),
            MatchError::Endless => f.write_str(
                "the rounds end without a move, over and over: the match never ends",
            ),
            MatchError::Position(e) => write!(f, "the next round cannot be set up: {e}"),
            MatchError::Illegal { mv, position, why } => {
                write!(f, "move {mv} is illegal in {position}: {why}")
            }
            MatchError::Over => write!(f, "the match is over"),
            MatchError::Abandoned { laps } => write!(
                f,
                "a sowing was still relaying after {laps} laps when asked to stop (a relay can run billions of laps, docs/rules.md §2.9)"
            ),
        }
    }
}

impl std::error::Error for MatchError {}

/// What follows a finished round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Between<R: Rules> {
    /// The next round: its start position (normalised) and its starter (named to move in it).
    Next {
        /// The start position.
        start: Position<R>,
        /// Who starts it.
        starter: Side,
    },
    /// The match is over: its winner, or `None` when drawn.
    Over(Option<Side>),
}

/// Checks that `kind` plays matches and that the options fit it.
pub fn check_game(kind: GameKind, options: MatchOptions) -> Result<(), MatchError> {
    match kind {
        GameKind::Dakon | GameKind::WalakPussa => Ok(()),
        GameKind::SanYao if options.fill_from_move_1 => Err(MatchError::FillOrderFixed(kind)),
        GameKind::SanYao => Ok(()),
        other => Err(MatchError::NoMatches(other)),
    }
}

/// The pits of `side`'s row in the order they are filled.
fn fill_order(holes: usize, side: Side, from_move_1: bool) -> Vec<usize> {
    let base = side.index() * holes;
    let mut order: Vec<usize> = (base..base + holes).collect();
    if !from_move_1 {
        order.reverse();
    }
    order
}

/// Fills `pits` in order, `seeds` each, from `stock`: the pits that get no seeds are burnt.
/// Returns what is left of the stock.
fn fill(
    counts: &mut [u32],
    status: &mut [PitStatus],
    pits: &[usize],
    seeds: u32,
    stock: u32,
) -> u32 {
    let mut left = stock;
    for &i in pits {
        if left >= seeds {
            counts[i] = seeds;
            left -= seeds;
        } else {
            counts[i] = 0;
            status[i] = PitStatus::Burnt;
        }
    }
    left
}

/// The next round after a round that ended with `stores` and was started by `starter`
/// (docs/rules.md §13.3–§13.4), on `holes` holes with `seeds` per pit.
pub fn next_round<R: Rules>(
    rules: R,
    holes: u8,
    seeds: u8,
    options: MatchOptions,
    stores: [u32; 2],
    starter: Side,
) -> Result<Between<R>, MatchError> {
    next_round_until(rules, holes, seeds, options, stores, starter, Stop::never())
}

/// [`next_round`] that gives up, with [`MatchError::Abandoned`], once `stop` is raised while
/// the new round's start is normalised (which sows the starter's candidates).
pub fn next_round_until<R: Rules>(
    rules: R,
    holes: u8,
    seeds: u8,
    options: MatchOptions,
    stores: [u32; 2],
    starter: Side,
    stop: Stop<'_>,
) -> Result<Between<R>, MatchError> {
    check_game(R::KIND, options)?;
    let n = holes as usize;
    let s = seeds as u32;
    let mut counts = vec![0u32; 2 * n];
    let mut status = vec![PitStatus::Open; 2 * n];
    let mut left = [0u32; 2];
    let to_move;
    if R::KIND == GameKind::SanYao {
        let strong = match stores[0].cmp(&stores[1]) {
            std::cmp::Ordering::Greater => Side::South,
            std::cmp::Ordering::Less => Side::North,
            std::cmp::Ordering::Equal => starter.other(),
        };
        let weak = strong.other();
        let (a, b) = (stores[strong.index()], stores[weak.index()]);
        if b < s {
            return Ok(Between::Over(if a == b { None } else { Some(strong) }));
        }
        let mut a = fill(&mut counts, &mut status, &fill_order(n, strong, true), s, a);
        // Sons: the weaker player's pits in its move order, while `s` stones remain.
        let weak_row = fill_order(n, weak, true);
        let mut conquered = 0;
        while a >= s && conquered < n {
            let i = weak_row[conquered];
            counts[i] = s;
            status[i] = PitStatus::Son;
            a -= s;
            conquered += 1;
        }
        // Lending: the rest joins the weaker player's stones, not repaid.
        let b = b + a;
        left[weak.index()] = fill(&mut counts, &mut status, &weak_row[conquered..], s, b);
        to_move = strong;
    } else {
        let short: Vec<Side> = Side::ALL
            .into_iter()
            .filter(|side| stores[side.index()] < s)
            .collect();
        match short[..] {
            [_, _] => return Ok(Between::Over(None)),
            [loser] => return Ok(Between::Over(Some(loser.other()))),
            _ => {}
        }
        for side in Side::ALL {
            let order = fill_order(n, side, options.fill_from_move_1);
            left[side.index()] = fill(&mut counts, &mut status, &order, s, stores[side.index()]);
        }
        let more = match stores[0].cmp(&stores[1]) {
            std::cmp::Ordering::Greater => Some(Side::South),
            std::cmp::Ordering::Less => Some(Side::North),
            std::cmp::Ordering::Equal => None,
        };
        to_move = match (more, R::KIND) {
            (None, _) => starter.other(),
            // Dakon: the winner of the round (reading); Walak-pussa: the player with fewer seeds.
            (Some(w), GameKind::Dakon) => w,
            (Some(w), _) => w.other(),
        };
    }
    let round = RoundSetup {
        setup: Setup {
            south: counts[..n].to_vec(),
            north: counts[n..].to_vec(),
            stores: left,
            to_move: Some(to_move),
        },
        status,
    };
    let start = Position::from_round_setup_until(rules, &round, stop).map_err(setup_error)?;
    Ok(Between::Next {
        start,
        starter: to_move,
    })
}

/// A round's start that could not be set up: abandoned (the stop), or not a position.
fn setup_error(e: PositionError) -> MatchError {
    match e {
        // Normalising sows inside `settle`, where only the abandonment is known, not its laps.
        PositionError::Abandoned(Abandoned) => MatchError::Abandoned { laps: LOOK_EVERY },
        e => MatchError::Position(e),
    }
}

/// One round of a match: who started it, its start, the moves played, and its end once over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round<R: Rules> {
    /// The player named to move in the start position as set up.
    pub starter: Side,
    /// The start position (normalised).
    pub start: Position<R>,
    /// The moves played so far.
    pub moves: Vec<Move>,
    /// The position now: the end of the round once it is over.
    pub now: Position<R>,
}

/// A match in progress or over: its rounds, the last one current.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match<R: Rules> {
    rules: R,
    seeds: u8,
    options: MatchOptions,
    rounds: Vec<Round<R>>,
    /// `Some(winner)` once the match is over (`Some(None)`: drawn).
    result: Option<Option<Side>>,
}

/// The most rounds in a row that may end without a move before a match is declared stuck: a
/// round whose start already ends it (every candidate endless) can only be followed by the same
/// setup again once its start repeats, and starts are few; this only bounds a loop.
const MAX_EMPTY_ROUNDS: usize = 1000;

impl<R: Rules> Match<R> {
    /// A match from a round position `start` (its starter named), with `seeds` per pit for the
    /// refills. A finished round goes on at once with the next round's setup.
    pub fn new(
        rules: R,
        seeds: u8,
        options: MatchOptions,
        start: Position<R>,
        starter: Side,
    ) -> Result<Match<R>, MatchError> {
        Self::new_until(rules, seeds, options, start, starter, Stop::never())
    }

    /// [`Match::new`] that gives up, with [`MatchError::Abandoned`], once `stop` is raised while
    /// a finished round's successor is set up.
    pub fn new_until(
        rules: R,
        seeds: u8,
        options: MatchOptions,
        start: Position<R>,
        starter: Side,
        stop: Stop<'_>,
    ) -> Result<Match<R>, MatchError> {
        check_game(R::KIND, options)?;
        let mut m = Match {
            rules,
            seeds,
            options,
            rounds: vec![Round {
                starter,
                start,
                moves: Vec::new(),
                now: start,
            }],
            result: None,
        };
        m.advance(stop)?;
        Ok(m)
    }

    /// Sets up the following rounds while the current one is over. An error may leave a
    /// finished round without its successor: the callers work on a copy.
    fn advance(&mut self, stop: Stop<'_>) -> Result<(), MatchError> {
        let mut empty = 0;
        while self.result.is_none() {
            let last = self.rounds.last().expect("a match has a round");
            if !last.now.is_over() {
                return Ok(());
            }
            if last.moves.is_empty() {
                empty += 1;
                if empty > MAX_EMPTY_ROUNDS {
                    return Err(MatchError::Endless);
                }
            }
            let holes = last.now.board().holes;
            let stores = last.now.score();
            match next_round_until(
                self.rules,
                holes,
                self.seeds,
                self.options,
                stores,
                last.starter,
                stop,
            )? {
                Between::Over(w) => self.result = Some(w),
                Between::Next { start, starter } => self.rounds.push(Round {
                    starter,
                    start,
                    moves: Vec::new(),
                    now: start,
                }),
            }
        }
        Ok(())
    }

    /// Plays `mv` in the current round; a round's end sets up the next round by itself.
    pub fn play(&mut self, mv: Move) -> Result<(), MatchError> {
        self.play_until(mv, Stop::never())
    }

    /// [`Match::play`] that gives up, with [`MatchError::Abandoned`], once `stop` is raised in
    /// the move's sowing or in setting up the next round; the match is then unchanged.
    pub fn play_until(&mut self, mv: Move, stop: Stop<'_>) -> Result<(), MatchError> {
        if self.result.is_some() {
            return Err(MatchError::Over);
        }
        let now = self.position();
        let next = now.try_play_until(mv, stop).map_err(|e| match e {
            PlayError::Illegal(why) => MatchError::Illegal {
                mv: mv.0 as u32,
                position: now.to_string(),
                why,
            },
            PlayError::Abandoned { laps } => MatchError::Abandoned { laps },
        })?;
        self.then(stop, |m| {
            let round = m.rounds.last_mut().expect("a match has a round");
            round.moves.push(mv);
            round.now = next;
        })
    }

    /// Ends the current round by endless play (docs/rules.md §2.10, §13.5), as when a position
    /// repeats: the stores stand, the seeds on the board leave the match, and the next round is
    /// set up from the stores (or the match ends) as after any round.
    pub fn end_round_endless(&mut self) -> Result<(), MatchError> {
        self.end_round_endless_until(Stop::never())
    }

    /// [`Match::end_round_endless`] that gives up, with [`MatchError::Abandoned`], once `stop`
    /// is raised in setting up the next round; the match is then unchanged.
    pub fn end_round_endless_until(&mut self, stop: Stop<'_>) -> Result<(), MatchError> {
        if self.result.is_some() {
            return Err(MatchError::Over);
        }
        let ended = abandoned(self.position()).map_err(MatchError::Position)?;
        self.then(stop, |m| {
            m.rounds.last_mut().expect("a match has a round").now = ended;
        })
    }

    /// Applies `change` to the current round and sets up what follows, on a copy that replaces
    /// the match only when nothing was abandoned: a stopped call leaves the match as it was.
    fn then(&mut self, stop: Stop<'_>, change: impl FnOnce(&mut Self)) -> Result<(), MatchError> {
        let mut next = self.clone();
        change(&mut next);
        next.advance(stop)?;
        *self = next;
        Ok(())
    }

    /// The rounds so far, the current one last.
    pub fn rounds(&self) -> &[Round<R>] {
        &self.rounds
    }

    /// The current position: the current round's, or the last round's end once the match is over.
    pub fn position(&self) -> &Position<R> {
        &self.rounds.last().expect("a match has a round").now
    }

    /// `None` while the match goes on; `Some(winner)` once over (`Some(None)`: drawn).
    pub fn result(&self) -> Option<Option<Side>> {
        self.result
    }
}

/// `p` ended where it stands (docs/rules.md §2.10): the stores kept, every pit emptied (the seeds
/// belong to nobody), the pit statuses as they were, no side to move.
pub fn abandoned<R: Rules>(p: &Position<R>) -> Result<Position<R>, PositionError> {
    let mut round = p.round_setup();
    round.setup.south.iter_mut().for_each(|c| *c = 0);
    round.setup.north.iter_mut().for_each(|c| *c = 0);
    round.setup.to_move = None;
    Position::from_round_setup(*p.rules(), &round)
}
