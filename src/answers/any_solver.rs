//! [`AnySolver`]: the analyzer's kept search, through the fastest node type that holds its
//! root.
//!
//! The search is generic over its game type, and a Kalah position on at most 7 holes searches
//! faster as a [`KalahNode`] (the mover's word: about a fifth fewer instructions, the same tree;
//! docs/performance.md, "The Kalah node as its own word"). The analyzer's front ends speak
//! [`Position`]; this type takes positions and gives results in their terms (the node's moves
//! are the same [`Move`] values, its keys, child order, gains and so node counts the same), so
//! the type a search runs on is chosen once, when it is built, and converted at each call's
//! root, never per node.

use solver::search::{Oracle, Proven, SearchConfig, SearchError, SearchResult, Solver};
use solver::{Game, OracleFault, TranspositionTable};
use std::sync::Arc;
use tables::Tablebase;

use super::node_tables::node_view;
use crate::board::Move;
use crate::endgame::MancalaIndexer;
use crate::rules::{KalahNode, KalahNodeIndexer, Rules};
use crate::Position;

/// A [`Solver`] of a position's game, over [`KalahNode<N>`] when the root is a Kalah position
/// of `N <= 7` holes the node takes ([`KalahNode::from_position`]), else over [`Position`].
///
/// `'o` is the tables' borrow: `'static` for the kept sets ([`AnySolver::new`]), a call's own for
/// tables opened for one search ([`AnySolver::scoped`]).
pub enum AnySolver<'o, R: Rules> {
    /// Any game, any board.
    Position(Solver<'o, Position<R>>),
    /// Kalah on 1 hole.
    Kalah1(Solver<'o, KalahNode<1>>),
    /// Kalah on 2 holes.
    Kalah2(Solver<'o, KalahNode<2>>),
    /// Kalah on 3 holes.
    Kalah3(Solver<'o, KalahNode<3>>),
    /// Kalah on 4 holes.
    Kalah4(Solver<'o, KalahNode<4>>),
    /// Kalah on 5 holes.
    Kalah5(Solver<'o, KalahNode<5>>),
    /// Kalah on 6 holes.
    Kalah6(Solver<'o, KalahNode<6>>),
    /// Kalah on 7 holes.
    Kalah7(Solver<'o, KalahNode<7>>),
}

/// Calls `$m!` with `$args`, then `;` and every node variant with its hole count: the one list
/// of the node types, which each match over them below expands.
macro_rules! node_variants {
    ($m:ident ! ( $($args:tt)* )) => {
        $m!($($args)* ; Kalah1 1, Kalah2 2, Kalah3 3, Kalah4 4, Kalah5 5, Kalah6 6, Kalah7 7)
    };
}

/// `$body` with `$s` the solver of whichever variant `$self` is (and `$q` the root `$p` in that
/// solver's type, when given): the same code, monomorphised per node type.
macro_rules! each {
    (@solver $self:expr, $s:ident, $body:expr; $($v:ident $n:literal),*) => {
        match $self {
            AnySolver::Position($s) => $body,
            $(AnySolver::$v($s) => $body,)*
        }
    };
    (@root $self:expr, $p:expr, $s:ident, $q:ident, $body:expr; $($v:ident $n:literal),*) => {
        match $self {
            AnySolver::Position($s) => {
                let $q = $p;
                $body
            }
            $(AnySolver::$v($s) => {
                let $q = &node::<$n, R>($p);
                $body
            })*
        }
    };
    ($self:expr, |$s:ident| $body:expr) => {
        node_variants!(each!(@solver $self, $s, $body))
    };
    ($self:expr, $p:expr, |$s:ident, $q:ident| $body:expr) => {
        node_variants!(each!(@root $self, $p, $s, $q, $body))
    };
}

/// The node of `p`, a position the solver's root reaches (so one the node takes: the same
/// game and board, no more seeds).
fn node<const N: usize, R: Rules>(p: &Position<R>) -> KalahNode<N> {
    KalahNode::<N>::from_position(p)
        .expect("a position the search's root reaches is one its node type takes")
}

/// A result in the position's terms: the moves are the same values, nothing else names the
/// game type.
fn lift<G: Game<Move = Move>, R: Rules>(r: SearchResult<G>) -> SearchResult<Position<R>> {
    SearchResult {
        value: r.value,
        best: r.best,
        pv: r.pv,
        nodes: r.nodes,
        tt_probes: r.tt_probes,
        tt_hits: r.tt_hits,
        oracle_probes: r.oracle_probes,
        oracle_hits: r.oracle_hits,
        seconds: r.seconds,
        tt_bytes: r.tt_bytes,
    }
}

/// A solver over the node `root` with the view of `tables` through the node's index.
fn node_solver<const N: usize, R: Rules>(
    root: KalahNode<N>,
    cfg: SearchConfig,
    tables: Option<&'static Tablebase<MancalaIndexer<R>>>,
) -> Result<Solver<'static, KalahNode<N>>, SearchError> {
    let oracle = match tables {
        // A view that does not fit its set (another game's or size's layers) is a fault of
        // the tables as the search would read them.
        Some(tb) => Some(
            node_view::<R, N>(tb, root.rules())
                .map_err(|e| SearchError::Oracle(OracleFault::shared(Arc::new(e))))?
                as &'static dyn Oracle<KalahNode<N>>,
        ),
        None => None,
    };
    Solver::new(&root, cfg, oracle)
}

impl<R: Rules> AnySolver<'static, R> {
    /// A solver for `root` and the positions it reaches, with `tables` as its oracle: over
    /// [`KalahNode`] when `root` is one, else over [`Position`].
    ///
    /// # Errors
    /// As [`Solver::new`]; [`SearchError::Oracle`] when `tables` do not fit the node's index.
    pub fn new(
        root: &Position<R>,
        cfg: SearchConfig,
        tables: Option<&'static Tablebase<MancalaIndexer<R>>>,
    ) -> Result<Self, SearchError> {
        macro_rules! try_nodes {
            (; $($v:ident $n:literal),*) => {
                match root.board().holes {
                    $($n => {
                        if let Some(q) = KalahNode::<$n>::from_position(root) {
                            return node_solver::<$n, R>(q, cfg, tables).map(AnySolver::$v);
                        }
                    })*
                    _ => {}
                }
            };
        }
        node_variants!(try_nodes!());
        Self::over_position(root, cfg, tables)
    }
}

/// A solver over the node `root` with the view `view` of the tables as its oracle.
fn node_solver_with<'v, const N: usize>(
    root: &KalahNode<N>,
    cfg: SearchConfig,
    view: Option<&'v Tablebase<KalahNodeIndexer<N>>>,
) -> Result<Solver<'v, KalahNode<N>>, SearchError> {
    Solver::new(root, cfg, view.map(|v| v as &'v dyn Oracle<KalahNode<N>>))
}

impl<'o, R: Rules> AnySolver<'o, R> {
    /// A solver over [`Position`] whatever `root` is: the reference the node's search must
    /// agree with (same values, moves and, on 1 thread, node counts).
    ///
    /// # Errors
    /// As [`Solver::new`].
    pub fn over_position(
        root: &Position<R>,
        cfg: SearchConfig,
        tables: Option<&'o Tablebase<MancalaIndexer<R>>>,
    ) -> Result<Self, SearchError> {
        let oracle = tables.map(|t| t as &'o dyn Oracle<Position<R>>);
        Solver::new(root, cfg, oracle).map(AnySolver::Position)
    }

    /// Runs `job` on a solver for `root` as [`AnySolver::new`] chooses it, with `tables`
    /// borrowed for this call only (tables opened for one search): the node's view of them is
    /// made for the call and dropped after it, with the solver. `Err` only when the solver
    /// cannot be built.
    ///
    /// # Errors
    /// As [`AnySolver::new`].
    pub fn scoped<T>(
        root: &Position<R>,
        cfg: SearchConfig,
        tables: Option<&Tablebase<MancalaIndexer<R>>>,
        job: impl FnOnce(&mut AnySolver<'_, R>) -> T,
    ) -> Result<T, SearchError> {
        macro_rules! try_nodes {
            (; $($v:ident $n:literal),*) => {
                match root.board().holes {
                    $($n => {
                        if let Some(q) = KalahNode::<$n>::from_position(root) {
                            let view = tables
                                .map(|tb| tb.reindexed(KalahNodeIndexer::<$n>::new(q.rules())))
                                .transpose()
                                .map_err(|e| {
                                    SearchError::Oracle(OracleFault::shared(Arc::new(e)))
                                })?;
                            let s = node_solver_with::<$n>(&q, cfg, view.as_ref())?;
                            return Ok(job(&mut AnySolver::$v(s)));
                        }
                    })*
                    _ => {}
                }
            };
        }
        node_variants!(try_nodes!());
        let mut s = AnySolver::over_position(root, cfg, tables)?;
        Ok(job(&mut s))
    }

    /// Whether this solver searches `p`'s game type: any position for the [`Position`] solver,
    /// one the node takes for a node's. (The positions a root reaches always are.)
    pub fn takes(&self, p: &Position<R>) -> bool {
        macro_rules! takes {
            ($this:expr, $p:expr; $($v:ident $n:literal),*) => {
                match $this {
                    AnySolver::Position(_) => true,
                    $(AnySolver::$v(_) => KalahNode::<$n>::from_position($p).is_some(),)*
                }
            };
        }
        node_variants!(takes!(self, p))
    }

    /// Whether the search runs over [`KalahNode`] (else over [`Position`]).
    pub fn is_node(&self) -> bool {
        !matches!(self, AnySolver::Position(_))
    }

    /// [`Solver::table`].
    pub fn table(&self) -> &TranspositionTable {
        each!(self, |s| s.table())
    }

    /// [`Solver::nodes`].
    pub fn nodes(&self) -> u64 {
        each!(self, |s| s.nodes())
    }

    /// [`Solver::value`]. Every position passed to a method of this type must be one the
    /// solver's root reaches, as [`Solver`]'s must.
    ///
    /// # Errors
    /// As [`Solver::value`].
    pub fn value(&mut self, p: &Position<R>) -> Result<i32, SearchError> {
        each!(self, p, |s, q| s.value(q))
    }

    /// [`Solver::bound`].
    ///
    /// # Errors
    /// As [`Solver::bound`].
    pub fn bound(&mut self, p: &Position<R>, t: i32) -> Result<i32, SearchError> {
        each!(self, p, |s, q| s.bound(q, t))
    }

    /// [`Solver::guess`].
    ///
    /// # Errors
    /// As [`Solver::guess`].
    pub fn guess(&mut self, p: &Position<R>) -> Result<i32, SearchError> {
        each!(self, p, |s, q| s.guess(q))
    }

    /// [`Solver::solve`].
    ///
    /// # Errors
    /// As [`Solver::solve`].
    pub fn solve(&mut self, p: &Position<R>) -> Result<SearchResult<Position<R>>, SearchError> {
        each!(self, p, |s, q| s.solve(q).map(lift))
    }

    /// [`Solver::solve_tracked`].
    ///
    /// # Errors
    /// As [`Solver::solve_tracked`].
    pub fn solve_tracked(
        &mut self,
        p: &Position<R>,
        proven: &mut Proven<Move>,
    ) -> Result<SearchResult<Position<R>>, SearchError> {
        each!(self, p, |s, q| s.solve_tracked(q, proven).map(lift))
    }

    /// [`Solver::best_moves`].
    ///
    /// # Errors
    /// As [`Solver::best_moves`].
    pub fn best_moves(
        &mut self,
        p: &Position<R>,
        first_only: bool,
    ) -> Result<(i32, Vec<Move>), SearchError> {
        each!(self, p, |s, q| s.best_moves(q, first_only))
    }

    /// [`Solver::analyze`].
    ///
    /// # Errors
    /// As [`Solver::analyze`].
    pub fn analyze(&mut self, p: &Position<R>) -> Result<Vec<(Move, i32)>, SearchError> {
        each!(self, p, |s, q| s.analyze(q))
    }

    /// [`Solver::analyze_tracked`].
    ///
    /// # Errors
    /// As [`Solver::analyze_tracked`].
    pub fn analyze_tracked(
        &mut self,
        p: &Position<R>,
        proven: &mut Proven<Move>,
    ) -> Result<(), SearchError> {
        each!(self, p, |s, q| s.analyze_tracked(q, proven))
    }
}

#[cfg(test)]
#[path = "any_solver_tests.rs"]
mod tests;
