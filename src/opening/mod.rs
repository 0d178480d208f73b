//! The first player's whole first turn, searched exhaustively: the Dakon first-player claim
//! (docs/rules.md §9).
//!
//! A **first turn** is the side to move's first sowing together with every extra turn it earns:
//! a sequence of move numbers that ends when the turn passes to the opponent or the game ends.
//! Two first turns are distinct when their move sequences differ, even if they reach the same
//! position. A first turn is **winning** when, at its end, the mover already holds more than half
//! of all seeds (board and both stores) in their store. That covers both cases of docs/rules.md §9:
//! more than half banked when the turn passes, and the opponent's row empty when it becomes
//! their turn (the game then ends, the mover takes everything left, and the final score decides).
//! Seeds are never created or destroyed, so "more than half of all seeds" is a win whatever
//! happens next.
//!
//! Inside a turn the mover never changes, so everything about the completions of a turn from a
//! position (how many there are, how many win, the largest store they reach, the shortest
//! winning one) is a function of the position alone: the search memoises on the board. In Kalah
//! and Dakon every extra turn banks a seed, so the positions inside a turn form a DAG and the
//! recursion ends; in the other games a turn is a single move.
//!
//! Counts of sequences grow exponentially with the number of extra turns, so they are kept as
//! exact [`Count`]s (a `u128`, widening to arbitrary precision when that overflows).
//!
//! Transpositions inside a turn are rarer than one might hope (Dakon 6×6: 2.2 million distinct
//! positions for 2.9 million tree nodes and 7.7 million first turns), and the turn tree grows
//! by a factor of thousands per hole: Dakon 7×7 has more than 10^9 tree nodes. So the memo is a
//! bounded direct-mapped cache, and the search takes a stop token. It runs in two phases:
//!
//! 1. iterative deepening finds the shortest winning turn (exact; cheap, as winning turns are
//!    short where they exist) or proves that none exists;
//! 2. the memoised enumeration of every turn: counts, the largest store, the best turn.
//!
//! A stopped search reports what it proved: phase 1's answer when it finished, and phase 2's
//! counts as lower bounds (see [`OpeningReport`]).
//!
//! ```
//! use mancala::{opening, rules::Dakon, Position};
//! let start = Position::start(Dakon::default(), 3, 3).unwrap();
//! let r = opening::search(&start, &opening::Limits::default()).unwrap();
//! assert!(r.complete && r.winning == Some(true));
//! assert_eq!((r.total_seeds, r.max_store), (18, 11));
//! assert_eq!(r.count.to_u64(), Some(3)); // of 13 first turns in all
//! ```

mod count;

pub use count::Count;

use crate::board::{Move, Pits, Side};
use crate::rules::Rules;
use crate::stop::{Stop, StopToken};
use crate::Position;
use std::fmt;
use std::time::Instant;

/// What is known about the completions of the first turn from one position inside it.
#[derive(Clone, Debug, Default)]
struct Summary {
    /// Distinct complete first turns from here.
    total: Count,
    /// How many of them win.
    winning: Count,
    /// The largest store any of them ends with.
    max_store: u16,
    /// The fewest moves among those ending with `max_store`.
    best_len: u16,
    /// The fewest moves of a winning one, if any wins.
    shortest_win: Option<u16>,
}

impl Summary {
    /// Folds in the completions through one move: `inner` is the summary of the position the
    /// move leads to (one move further from here).
    fn absorb(&mut self, first: bool, inner: &Summary) {
        self.total.add(&inner.total);
        self.winning.add(&inner.winning);
        let (store, len) = (inner.max_store, inner.best_len + 1);
        if first
            || (store, std::cmp::Reverse(len)) > (self.max_store, std::cmp::Reverse(self.best_len))
        {
            (self.max_store, self.best_len) = (store, len);
        }
        let win = inner.shortest_win.map(|l| l + 1);
        self.shortest_win = match (self.shortest_win, win) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
    }

    /// The summary of a finished turn (zero moves to go) ending with `store`.
    fn leaf(store: u16, wins: bool) -> Summary {
        Summary {
            total: Count::ONE,
            winning: if wins { Count::ONE } else { Count::ZERO },
            max_store: store,
            best_len: 0,
            shortest_win: wins.then_some(0),
        }
    }
}

/// Limits on the search.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Positions the memo keeps (a direct-mapped cache: a newer position may replace an older
    /// one, which then is recomputed if met again; values are exact either way).
    pub cache_entries: usize,
    /// Raised from outside (a timer, Ctrl-C) to stop the search; the report then says what was
    /// proved so far.
    pub stop: Option<StopToken>,
}

impl Default for Limits {
    /// 2^20 cached positions (about 110 MiB), no stop token.
    fn default() -> Self {
        Self {
            cache_entries: 1 << 20,
            stop: None,
        }
    }
}

/// The result of [`search`].
///
/// When the search was stopped before it had seen every first turn (`complete == false`), the
/// counts are the turns enumerated so far (lower bounds), `best` and `max_store` the best turn
/// found so far (a lower bound on the largest store); `shortest` and `winning` come from an
/// iterative-deepening search and are exact whenever they are known.
#[derive(Clone, Debug)]
pub struct OpeningReport {
    /// The player whose first turn this is (the side to move at the root).
    pub mover: Side,
    /// All seeds: on the board and in both stores.
    pub total_seeds: u32,
    /// The mover's store at the root.
    pub start_store: u32,
    /// Whether every first turn was enumerated: all fields below are then exact.
    pub complete: bool,
    /// Whether some first turn wins outright; `None` when the search was stopped before it could
    /// tell.
    pub winning: Option<bool>,
    /// Distinct winning first turns (a lower bound unless `complete`).
    pub count: Count,
    /// Distinct first turns, winning or not (a lower bound unless `complete`).
    pub total: Count,
    /// The shortest winning first turn (fewest moves; ties: lexicographically smallest).
    pub shortest: Option<Vec<Move>>,
    /// The first turn ending with the largest store (ties: fewest moves, then lexicographically
    /// smallest). It wins whenever any first turn does. The best found so far unless `complete`.
    pub best: Vec<Move>,
    /// The store `best` ends with: the largest store reachable in the first turn when `complete`.
    pub max_store: u32,
    /// Positions expanded inside the first turn, over both phases.
    pub nodes: u64,
    /// Moves generated (edges of the first-turn DAG), over both phases.
    pub edges: u64,
    /// Wall-clock time of the search.
    pub seconds: f64,
}

impl OpeningReport {
    /// Seeds the mover must hold to have won: more than half of all of them.
    pub fn seeds_needed(&self) -> u32 {
        self.total_seeds / 2 + 1
    }
}

/// Why there is no first turn to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameOver;

impl fmt::Display for GameOver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the game is over: there is no first turn to search")
    }
}

impl std::error::Error for GameOver {}

/// One cache slot: the pits of a position inside the turn (the stores follow from them, as the
/// mover is fixed and the opponent's store cannot change inside the turn) and its summary.
struct Slot {
    pits: Pits,
    summary: Summary,
}

struct Search<R: Rules> {
    mover: Side,
    total_seeds: u32,
    len: usize,
    cache: Vec<Option<Slot>>,
    stop: Option<StopToken>,
    stopped: bool,
    nodes: u64,
    edges: u64,
    /// Turns enumerated so far (leaves, or whole cached subtrees), for the lower bounds.
    seen_total: Count,
    seen_winning: Count,
    /// The best turn found so far: (store, moves).
    incumbent: Option<(u16, Vec<Move>)>,
    path: Vec<Move>,
    _rules: std::marker::PhantomData<R>,
}

impl<R: Rules> Search<R> {
    fn wins(&self, store: u16) -> bool {
        2 * store as u32 > self.total_seeds
    }

    /// Whether `p` (reached by a move of the mover) is still inside the first turn.
    fn inside(&self, p: &Position<R>) -> bool {
        p.to_move() == Some(self.mover)
    }

    fn store(&self, p: &Position<R>) -> u16 {
        p.board().stores[self.mover.index()]
    }

    fn slot(&self, pits: &Pits) -> usize {
        // FxHash-style mixing of the pit bytes, eight at a time.
        let mut h = 0u64;
        for chunk in pits.as_slice(self.len).chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            h = (h.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
        (h >> 16) as usize % self.cache.len()
    }

    fn cached(&self, p: &Position<R>) -> Option<&Summary> {
        let pits = &p.board().pits;
        match &self.cache[self.slot(pits)] {
            Some(s) if s.pits == *pits => Some(&s.summary),
            _ => None,
        }
    }

    fn poll_stop(&mut self) -> bool {
        if !self.stopped && self.nodes.is_multiple_of(4096) {
            self.stopped = self.stop.as_ref().is_some_and(StopToken::is_stopped);
        }
        self.stopped
    }

    /// The search's stop, as the sowing code takes it (a sowing of a cyclic game can be long).
    fn stop_flag(token: &Option<StopToken>) -> Stop<'_> {
        token.as_ref().map_or(Stop::never(), StopToken::as_stop)
    }

    fn offer(&mut self, store: u16) {
        let better = match &self.incumbent {
            None => true,
            Some((s, m)) => {
                (store, std::cmp::Reverse(self.path.len())) > (*s, std::cmp::Reverse(m.len()))
            }
        };
        if better {
            self.incumbent = Some((store, self.path.clone()));
        }
    }

    /// The summary of `p` (inside the turn): from the cache, or by searching below it. `None`
    /// when the search was stopped.
    fn visit(&mut self, p: &Position<R>) -> Option<Summary> {
        if let Some(s) = self.cached(p) {
            let s = s.clone();
            self.seen_total.add(&s.total);
            self.seen_winning.add(&s.winning);
            return Some(s);
        }
        self.nodes += 1;
        if self.poll_stop() {
            return None;
        }
        let mut s = Summary::default();
        let mut first = true;
        let mut ok = true;
        let flag = self.stop.clone();
        let sown = p.for_each_child_until(Self::stop_flag(&flag), |m, c| {
            if !ok {
                return;
            }
            self.edges += 1;
            self.path.push(m);
            let inner = if self.inside(&c) {
                self.visit(&c)
            } else {
                let store = self.store(&c);
                let wins = self.wins(store);
                self.seen_total.add(&Count::ONE);
                if wins {
                    self.seen_winning.add(&Count::ONE);
                }
                self.offer(store);
                Some(Summary::leaf(store, wins))
            };
            self.path.pop();
            match inner {
                Some(inner) => s.absorb(first, &inner),
                None => ok = false,
            }
            first = false;
        });
        if sown.is_err() {
            self.stopped = true;
        }
        if !ok || self.stopped {
            return None;
        }
        let at = self.slot(&p.board().pits);
        self.cache[at] = Some(Slot {
            pits: p.board().pits,
            summary: s.clone(),
        });
        Some(s)
    }

    /// Follows summaries from `root`, at each step taking the smallest move whose completions
    /// include one with `len` moves left that satisfies `at_end(store)` (for a move that ends the
    /// turn) or `inside(summary, moves left after it)`. Evicted positions are searched again.
    fn follow(
        &mut self,
        root: &Position<R>,
        mut len: u16,
        at_end: impl Fn(u16) -> bool,
        inside: impl Fn(&Summary, u16) -> bool,
    ) -> Option<Vec<Move>> {
        let mut path = Vec::new();
        let mut p = *root;
        let flag = self.stop.clone();
        loop {
            let mut children = Vec::new();
            if p.for_each_child_until(Self::stop_flag(&flag), |m, c| children.push((m, c)))
                .is_err()
            {
                self.stopped = true;
                return None;
            }
            let mut next = None;
            for (m, c) in children {
                if self.inside(&c) {
                    if len > 1 && inside(&self.visit(&c)?, len - 1) {
                        next = Some((m, c));
                        break;
                    }
                } else if len == 1 && at_end(self.store(&c)) {
                    path.push(m);
                    return Some(path);
                }
            }
            let (m, c) = next.expect("the summaries promise a completion");
            path.push(m);
            p = c;
            len -= 1;
        }
    }

    /// Iterative deepening for the shortest winning turn: the lexicographically first winning
    /// turn of each length, lengths 1, 2, ... Returns `Some(None)` when no turn wins (the turn
    /// tree was exhausted), `None` when stopped.
    fn shortest(&mut self, root: &Position<R>) -> Option<Option<Vec<Move>>> {
        for depth in 1u16.. {
            let mut path = Vec::new();
            let mut deeper = false;
            match self.dls(root, depth, &mut path, &mut deeper)? {
                true => return Some(Some(path)),
                false if !deeper => return Some(None),
                false => {}
            }
        }
        unreachable!()
    }

    /// Depth-limited search for a winning turn of exactly `left` more moves; `deeper` records
    /// whether some turn is longer than the limit. `None` when stopped.
    fn dls(
        &mut self,
        p: &Position<R>,
        left: u16,
        path: &mut Vec<Move>,
        deeper: &mut bool,
    ) -> Option<bool> {
        self.nodes += 1;
        if self.poll_stop() {
            return None;
        }
        let mut children = Vec::new();
        let flag = self.stop.clone();
        if p.for_each_child_until(Self::stop_flag(&flag), |m, c| children.push((m, c)))
            .is_err()
        {
            self.stopped = true;
            return None;
        }
        self.edges += children.len() as u64;
        for (m, c) in children {
            path.push(m);
            if self.inside(&c) {
                if left == 1 {
                    *deeper = true;
                } else if self.dls(&c, left - 1, path, deeper)? {
                    return Some(true);
                }
            } else if left == 1 && self.wins(self.store(&c)) {
                return Some(true);
            }
            path.pop();
        }
        Some(false)
    }
}

/// Searches the whole first turn of the side to move of `root` (see the module docs): first the
/// shortest winning turn by iterative deepening, then every turn, memoised.
///
/// # Errors
/// [`GameOver`] when `root` is a finished game.
pub fn search<R: Rules>(root: &Position<R>, limits: &Limits) -> Result<OpeningReport, GameOver> {
    let started = Instant::now();
    let mover = root.to_move().ok_or(GameOver)?;
    let [s, n] = root.score();
    let total_seeds = root.board().seeds_on_board() + s + n;
    let mut search = Search::<R> {
        mover,
        total_seeds,
        len: root.board().ring().len(),
        cache: (0..limits.cache_entries.max(1)).map(|_| None).collect(),
        stop: limits.stop.clone(),
        stopped: false,
        nodes: 0,
        edges: 0,
        seen_total: Count::ZERO,
        seen_winning: Count::ZERO,
        incumbent: None,
        path: Vec::new(),
        _rules: std::marker::PhantomData,
    };
    // The recursion is one frame per extra turn (each banks a seed, so at most a few hundred);
    // a dedicated thread with a generous stack keeps deep turns safe on any platform.
    let (search, shortest, top, best) = std::thread::scope(|sc| {
        std::thread::Builder::new()
            .name("opening".into())
            .stack_size(256 << 20)
            .spawn_scoped(sc, move || {
                let shortest = search.shortest(root);
                let top = search.visit(root);
                let best = match &top {
                    Some(t) => {
                        let (store, len) = (t.max_store, t.best_len);
                        search.follow(
                            root,
                            len,
                            |s| s == store,
                            |k, rest| k.max_store == store && k.best_len == rest,
                        )
                    }
                    None => None,
                };
                (search, shortest, top, best)
            })
            .expect("cannot spawn the opening search thread")
            .join()
            // A panic of the search thread is a bug: raise it again here. (Not control flow: a
            // stopped search returns normally, with what it proved.)
            .unwrap_or_else(|e| std::panic::resume_unwind(e))
    });
    let complete = top.is_some() && best.is_some();
    let (count, total, max_store, best) = match (top, best) {
        (Some(t), Some(b)) => (t.winning, t.total, t.max_store as u32, b),
        _ => {
            let (store, moves) = search
                .incumbent
                .clone()
                .unwrap_or((search.store(root), Vec::new()));
            (
                search.seen_winning.clone(),
                search.seen_total.clone(),
                store as u32,
                moves,
            )
        }
    };
    let shortest = shortest.flatten();
    let winning = match (&shortest, complete) {
        (Some(_), _) => Some(true),
        (None, true) => Some(!count.is_zero()),
        // Stopped, but a winning turn may have been enumerated by the second phase.
        (None, false) if !count.is_zero() => Some(true),
        (None, false) => None,
    };
    Ok(OpeningReport {
        mover,
        total_seeds,
        start_store: root.score()[mover.index()],
        complete,
        winning,
        count,
        total,
        shortest,
        best,
        max_store,
        nodes: search.nodes,
        edges: search.edges,
        seconds: started.elapsed().as_secs_f64(),
    })
}
