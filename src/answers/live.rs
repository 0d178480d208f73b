//! A live view of a question being answered: what is proven so far while the search runs, for
//! a display that stays useful when the answer is not instant (the web page's stream, the
//! status line of `play`).
//!
//! Two views, both exact: every value in them is either a proven value or proven bounds.
//!
//! - [`LiveAnalysis`], of an analysis (every move's value, the moves valued one after another):
//!   the moves valued already, the bounds proved on the one being valued, the stake's bounds
//!   on the others, the position's bounds, and the best move so far. A driver that values the
//!   moves ([`super::Analyzer::analyze`], `play`'s hint) keeps a [`Live`] up to date; a display
//!   on another thread takes [`Live::analysis`] snapshots.
//! - [`LiveSolve`], of a solve ([`solve_view`]): the root's bounds and the root move proven to
//!   reach the best value so far, read from the search's own [`Progress`].
//!
//! The best move so far follows one rule ([`best_so_far`]): a move whose proven lower bound is
//! at least every other move's upper bound is **proven best**; otherwise the move with the best
//! proven value or lower bound **leads** (not proven best); before anything is proven of any
//! move there is none, and a display shows a quick look-ahead's pick instead, said to be one.

use std::sync::{Arc, Mutex};

use solver::search::Progress;
use solver::{Child, Game};

use super::answer::Bounds;
use crate::board::{Move, Side};
use crate::rules::Rules;
use crate::Position;

/// One move in a live view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LiveMove {
    /// The move.
    pub mv: Move,
    /// Its final value (South minus North), exact or within proven bounds.
    pub value: Bounds,
    /// The bounds its stake alone proves: a move whose lower bound for the side to move is no
    /// higher has nothing proven in its favour yet.
    pub stake: Bounds,
}

/// The best move so far of a live view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Leader {
    /// The move.
    pub mv: Move,
    /// Its final value, exact or within proven bounds.
    pub value: Bounds,
    /// Whether it is proven best: its value is at least every other move's (its lower bound,
    /// for the side to move, reaches every other move's upper bound).
    pub proven_best: bool,
}

/// The best move so far among `moves` for `mover` ([module documentation](self)): the move
/// with the best proven value or lower bound for the mover (ties: an exact value first, then
/// move order), proven best when that bound is at least every other move's upper bound. `None`
/// while no move is exact or has a lower bound (for the mover) above its stake's: a search
/// that has only proven moves no better than something says nothing about which is best.
pub fn best_so_far(mover: Side, moves: &[LiveMove]) -> Option<Leader> {
    // The mover's view: larger is better.
    let own = |b: Bounds| {
        let (a, z) = (mover.sign() * b.lower, mover.sign() * b.upper);
        (a.min(z), a.max(z))
    };
    let proven = |m: &LiveMove| m.value.is_exact() || own(m.value).0 > own(m.stake).0;
    if !moves.iter().any(proven) {
        return None;
    }
    let (at, leader) = moves.iter().enumerate().min_by_key(|(i, m)| {
        let (lower, _) = own(m.value);
        (std::cmp::Reverse(lower), !m.value.is_exact(), *i)
    })?;
    let floor = own(leader.value).0;
    let proven_best = moves
        .iter()
        .enumerate()
        .all(|(i, m)| i == at || own(m.value).1 <= floor);
    Some(Leader {
        mv: leader.mv,
        value: leader.value,
        proven_best,
    })
}

/// A snapshot of an analysis in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveAnalysis {
    /// Every legal move, in move order, exact or within proven bounds.
    pub moves: Vec<LiveMove>,
    /// The move being valued now, if any.
    pub valuing: Option<Move>,
    /// The position's final value bounded by its moves': the best of them for the side to
    /// move.
    pub value: Bounds,
    /// The best move so far ([`best_so_far`]).
    pub best: Option<Leader>,
    /// Nodes searched since the analysis began.
    pub nodes: u64,
}

/// A snapshot of a solve in progress ([`solve_view`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LiveSolve {
    /// Bounds on the position's final value (exact once the search has proved it).
    pub value: Bounds,
    /// The root move proven to reach the best value so far: proven best once it reaches the
    /// value's bound for the side to move.
    pub best: Option<Leader>,
    /// Nodes searched since `nodes_from`.
    pub nodes: u64,
}

/// What a solve of `p` has proven so far, read from its search's live counters: the root's
/// bounds and best move so far ([`Progress::best_move`]), as final values. `progress` must be
/// the counters of a solve of `p` started since they were last restarted for `p`
/// ([`Progress::restart`] with `p`'s stake, or the solve's own start): each job of a solve
/// restarts them for its root, but a display that reads them before the first job would
/// otherwise see the last question's. `nodes_from`: the node count at the start.
pub fn solve_view<R: Rules>(p: &Position<R>, progress: &Progress, nodes_from: u64) -> LiveSolve {
    let s = p.stake();
    let (lo, hi) = progress.bounds();
    let best = progress.best_move();
    // Every bound is proven on its own; the best move's value is a floor of the root's too.
    let lo = lo.max(best.map_or(-s, |b| b.1)).clamp(-s, s);
    let hi = hi.clamp(lo, s);
    let to_final = |a: i32, b: i32| Bounds::between(p.final_value(a), p.final_value(b));
    LiveSolve {
        value: to_final(lo, hi),
        best: best.map(|(index, reached)| Leader {
            mv: Move(index),
            value: to_final(reached.clamp(-s, hi), hi),
            proven_best: reached >= hi,
        }),
        nodes: progress.nodes().saturating_sub(nodes_from),
    }
}

/// The live state of an analysis, kept up to date by its driver (which values the moves one
/// after another) and read by a display on another thread.
///
/// The driver says which move it values before it searches it ([`Live::valuing`]), and that
/// call, under the lock a snapshot takes, also restarts the search's live counters at that
/// move's stake: a snapshot then never reads the last move's bounds as this one's.
pub struct Live {
    progress: Arc<Progress>,
    state: Mutex<State>,
}

/// What [`Live`] keeps between snapshots.
#[derive(Default)]
struct State {
    /// Whether an analysis has begun since the last [`Live::clear`].
    begun: bool,
    mover: Option<Side>,
    /// The moves, their values as known (exact or the stake's bounds).
    moves: Vec<LiveMove>,
    /// The move being valued: its index, and its final value as `at + slope * f` for the
    /// future value `f` of the position it leads to (what the search bounds).
    valuing: Option<(usize, i32, i32)>,
    /// The node count when the analysis began.
    nodes_from: u64,
    /// The position's value when the game is over (no moves).
    over: i32,
}

impl Live {
    /// A live state read from the search's counters `progress` (those of the search that
    /// values the moves).
    pub fn new(progress: Arc<Progress>) -> Self {
        Self {
            progress,
            state: Mutex::new(State::default()),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// No analysis in progress: snapshots are `None` until the next [`Live::begin`].
    pub fn clear(&self) {
        *self.state() = State::default();
    }

    /// An analysis of `p`, whose moves lead to `children`, begins; `known[i]` is the final
    /// value of move `i` when another source knows it exactly.
    pub fn begin<R: Rules>(
        &self,
        p: &Position<R>,
        children: &[Child<Position<R>>],
        known: &[Option<i32>],
    ) {
        let moves = children
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let (at, slope) = line(p, c);
                let s = c.next.stake();
                let stake = Bounds::between(at - slope * s, at + slope * s);
                LiveMove {
                    mv: c.mv,
                    value: known.get(i).copied().flatten().map_or(stake, Bounds::exact),
                    stake,
                }
            })
            .collect();
        *self.state() = State {
            begun: true,
            mover: p.to_move(),
            moves,
            valuing: None,
            nodes_from: self.progress.nodes(),
            over: p.final_value(0),
        };
    }

    /// The driver is about to search move `index` of `p`, which leads to `c`.
    pub fn valuing<R: Rules>(&self, p: &Position<R>, index: usize, c: &Child<Position<R>>) {
        let mut state = self.state();
        let (at, slope) = line(p, c);
        state.valuing = Some((index, at, slope));
        let s = c.next.stake();
        self.progress.restart(-s, s);
    }

    /// Move `index` is valued: `value` (final), exact, or bounds when its search was stopped.
    pub fn valued(&self, index: usize, value: Bounds) {
        let mut state = self.state();
        if let Some(m) = state.moves.get_mut(index) {
            m.value = m.value.narrowed_by(value);
        }
        if state.valuing.is_some_and(|v| v.0 == index) {
            state.valuing = None;
        }
    }

    /// A snapshot of the analysis; `None` before one has begun.
    pub fn analysis(&self) -> Option<LiveAnalysis> {
        let state = self.state();
        if !state.begun {
            return None;
        }
        let mut moves = state.moves.clone();
        if let Some((i, at, slope)) = state.valuing {
            // Read under the lock: the driver cannot have moved on to another move's search.
            let (lo, hi) = self.progress.bounds();
            let searched = Bounds::between(at + slope * lo, at + slope * hi);
            moves[i].value = moves[i].value.narrowed_by(searched);
        }
        let value = match state.mover {
            Some(side) if !moves.is_empty() => {
                let pick = |it: &mut dyn Iterator<Item = i32>| match side {
                    Side::South => it.max(),
                    Side::North => it.min(),
                };
                let a = pick(&mut moves.iter().map(|m| m.value.lower)).unwrap_or(0);
                let b = pick(&mut moves.iter().map(|m| m.value.upper)).unwrap_or(0);
                Bounds::between(a, b)
            }
            _ => Bounds::exact(state.over),
        };
        let best = state.mover.and_then(|side| best_so_far(side, &moves));
        Some(LiveAnalysis {
            valuing: state.valuing.map(|v| moves[v.0].mv),
            moves,
            value,
            best,
            nodes: self.progress.nodes().saturating_sub(state.nodes_from),
        })
    }
}

/// The final value of the move of `p` to `c` as `at + slope * f`, `f` the future value of the
/// position it leads to: `p.final_value(gain ± f)`, negated when the turn passes.
fn line<R: Rules>(p: &Position<R>, c: &Child<Position<R>>) -> (i32, i32) {
    let at = p.final_value(c.gain);
    let sign = p.to_move().map_or(1, Side::sign);
    (at, if c.turn_passed { -sign } else { sign })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Kalah;

    fn mv(m: u8, value: Bounds, stake: Bounds) -> LiveMove {
        LiveMove {
            mv: Move(m),
            value,
            stake,
        }
    }

    #[test]
    fn the_best_so_far_is_proven_leading_or_none() {
        let wide = Bounds::between(-20, 20);
        let b = Bounds::between;
        let e = Bounds::exact;
        // Nothing beyond the stakes: no best move (a display shows a look-ahead's pick); nor
        // when only upper bounds came down (South's upper, North's lower).
        assert_eq!(
            best_so_far(Side::South, &[mv(1, wide, wide), mv(2, wide, wide)]),
            None
        );
        let capped = [mv(1, b(-20, 8), wide), mv(2, wide, wide)];
        assert_eq!(best_so_far(Side::South, &capped), None);
        let floored = [mv(1, b(-8, 20), wide), mv(2, wide, wide)];
        assert_eq!(best_so_far(Side::North, &floored), None);
        assert_eq!(best_so_far(Side::South, &floored).unwrap().mv, Move(1));
        // One move exact, another not yet searched: it leads, not proven best.
        let moves = [mv(1, e(4), wide), mv(2, wide, wide), mv(3, e(-2), wide)];
        let lead = best_so_far(Side::South, &moves).unwrap();
        assert_eq!(
            (lead.mv, lead.value, lead.proven_best),
            (Move(1), e(4), false)
        );
        // The others bounded at or below it: proven best (a tie at the bound included).
        let moves = [
            mv(1, e(4), wide),
            mv(2, b(-20, 4), wide),
            mv(3, e(-2), wide),
        ];
        assert!(best_so_far(Side::South, &moves).unwrap().proven_best);
        // A lower bound above every other move's value leads, and is proven best though its
        // own value is not exact.
        let moves = [mv(1, e(4), wide), mv(2, b(6, 20), wide)];
        let lead = best_so_far(Side::South, &moves).unwrap();
        assert_eq!((lead.mv, lead.proven_best), (Move(2), true));
        // North wants the smallest: its lower bound is the South-minus-North upper bound.
        let moves = [
            mv(1, e(4), wide),
            mv(2, b(-20, -3), wide),
            mv(3, wide, wide),
        ];
        let lead = best_so_far(Side::North, &moves).unwrap();
        assert_eq!((lead.mv, lead.proven_best), (Move(2), false));
        // A tie of lower bounds: the exact value first, then move order.
        let moves = [mv(1, b(2, 9), wide), mv(2, e(2), wide), mv(3, e(2), wide)];
        let lead = best_so_far(Side::South, &moves).unwrap();
        assert_eq!((lead.mv, lead.proven_best), (Move(2), false));
        let moves = [mv(1, e(2), wide), mv(2, e(2), wide)];
        let lead = best_so_far(Side::South, &moves).unwrap();
        assert_eq!((lead.mv, lead.proven_best), (Move(1), true));
    }

    #[test]
    fn a_live_analysis_reads_the_move_being_valued_from_the_search() {
        let p = Position::start(Kalah::default(), 4, 3).unwrap();
        let mut children = solver::Children::new();
        p.children(&mut children);
        let kids = children.as_slice();
        let progress = Arc::new(Progress::new());
        let live = Live::new(progress.clone());
        assert_eq!(live.analysis(), None);
        let mut known = vec![None; kids.len()];
        known[0] = Some(5);
        live.begin(&p, kids, &known);
        let a = live.analysis().unwrap();
        assert_eq!(a.moves[0].value, Bounds::exact(5));
        assert_eq!(a.best.unwrap().mv, a.moves[0].mv);
        // Move 2 (index 1) being valued: the search's bounds on its next position's future
        // value, mapped to final values.
        live.valuing(&p, 1, &kids[1]);
        let s = kids[1].next.stake();
        assert_eq!(progress.bounds(), (-s, s), "restarted at the move's stake");
        progress.restart(-1, 3);
        let a = live.analysis().unwrap();
        let c = &kids[1];
        let f = |x: i32| p.final_value(c.gain + if c.turn_passed { -x } else { x });
        assert_eq!(a.moves[1].value, Bounds::between(f(-1), f(3)));
        assert_eq!(a.valuing, Some(c.mv));
        live.valued(1, Bounds::exact(f(2)));
        let a = live.analysis().unwrap();
        assert_eq!((a.moves[1].value, a.valuing), (Bounds::exact(f(2)), None));
        live.clear();
        assert_eq!(live.analysis(), None);
    }

    #[test]
    fn an_analyzers_live_view_ends_as_its_analysis() {
        use crate::answers::{Analyzer, AnalyzerConfig, Limits, TablesChoice};
        let config = AnalyzerConfig {
            threads: 1,
            tables: TablesChoice::Off,
            book: false,
            ..AnalyzerConfig::default()
        };
        let mut analyzer = Analyzer::new(config);
        let p = Position::start(Kalah::default(), 4, 3).unwrap();
        let a = analyzer.analyze(&p, &Limits::none()).unwrap();
        let view = analyzer.live().analysis().unwrap();
        let values: Vec<(Move, Bounds)> = view.moves.iter().map(|m| (m.mv, m.value)).collect();
        let want: Vec<(Move, Bounds)> = a.moves.iter().map(|m| (m.mv, m.value)).collect();
        assert_eq!(values, want);
        assert_eq!(view.value, a.value);
        let best = view.best.unwrap();
        assert!(best.proven_best && a.best().contains(&best.mv));
    }
}
