//! Exact values from outside the search ([`Oracle`]), such as endgame tables.

use crate::game::Game;
use crate::stop::Stop;
use std::fmt;
use std::sync::Arc;

/// Exact values from outside the search, such as endgame tables.
pub trait Oracle<G: Game>: Sync {
    /// The exact future value of `pos`, when known. The search asks at every node it cannot
    /// settle from its transposition table, so a "don't know" answer should be cheap.
    fn probe(&self, pos: &G) -> Option<i32>;

    /// The highest layer ([`Game::layer`]) of a position the oracle may answer. The search asks
    /// nothing (neither [`Oracle::probe`] nor [`Oracle::prefetch`]) about a position above it,
    /// which then costs one comparison instead of a call: most of the children a search with
    /// endgame tables generates lie above them (docs/performance.md, "The search with tables").
    /// The default, `u32::MAX`, has every position asked about.
    fn max_layer(&self) -> u32 {
        u32::MAX
    }

    /// Whether [`Oracle::probe`] will answer for `pos`: if so, where the answer is, and the load
    /// of it started. The search calls it for every child of a node before it reads any (the
    /// enhanced transposition cutoff), so that their memory loads overlap; a child the oracle
    /// answers is then settled by [`Oracle::probe_at`], without a table probe or a search. The
    /// default says "don't know" (`None`): the search still asks `probe` when it visits the child.
    fn prefetch(&self, pos: &G) -> Option<OracleSlot> {
        let _ = pos;
        None
    }

    /// The answer for `pos` at `at`, which [`Oracle::prefetch`] returned for it: what `probe`
    /// says, without finding it again (for tables, ranking the position a second time).
    fn probe_at(&self, pos: &G, at: OracleSlot) -> i32 {
        let _ = at;
        self.probe(pos)
            .expect("Oracle::prefetch located a position that Oracle::probe does not answer")
    }

    /// Checks the oracle's own answer for `pos`, whatever its sampling says, and keeps any fault
    /// found for [`Oracle::fault`]. Each of [`Solver`](super::Solver)'s entry points audits the
    /// position it answers about and its children (for a solve: the root's moves, whose values
    /// it reports); the jobs inside it do not. An audit may give up once `stop` (the search's
    /// stop flag) is raised, keeping no fault for what it did not finish: the search then
    /// returns [`SearchError::Interrupted`](super::SearchError::Interrupted). The default checks
    /// nothing.
    fn audit(&self, pos: &G, stop: Stop<'_>) {
        let _ = (pos, stop);
    }

    /// A fault the oracle found in its own data (endgame tables that contradict themselves), as
    /// the oracle's own error. The search looks at it with its stop flag, stops when there is
    /// one, and returns [`SearchError::Oracle`](super::SearchError::Oracle) rather than a value
    /// that may rest on it. The default never finds one.
    fn fault(&self) -> Option<OracleFault> {
        None
    }
}

/// Where an oracle keeps the answer for a position, in its own coordinates (for endgame tables: a
/// layer and an entry), as [`Oracle::prefetch`] found it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OracleSlot {
    /// The part of the oracle (for tables, the layer).
    pub part: u32,
    /// The place within the part.
    pub index: u64,
}

/// A fault an oracle found in its own data: the oracle's own typed error, kept whole (the search
/// knows no oracle's types), so that its caller can read it back with
/// [`OracleFault::downcast_ref`] (for endgame tables, a `tables::TableError`).
#[derive(Clone)]
pub struct OracleFault(Arc<dyn std::error::Error + Send + Sync + 'static>);

impl OracleFault {
    /// The fault `error`.
    pub fn new(error: impl std::error::Error + Send + Sync + 'static) -> Self {
        Self(Arc::new(error))
    }

    /// The fault `error`, already shared (an oracle that keeps its fault hands out copies).
    pub fn shared(error: Arc<dyn std::error::Error + Send + Sync + 'static>) -> Self {
        Self(error)
    }

    /// The oracle's error, when it is an `E`.
    pub fn downcast_ref<E: std::error::Error + 'static>(&self) -> Option<&E> {
        self.0.downcast_ref()
    }
}

impl fmt::Debug for OracleFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl fmt::Display for OracleFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&*self.0, f)
    }
}

impl std::error::Error for OracleFault {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

/// Two faults are equal when they are the same error or say the same thing (the oracle's error
/// type is not known here, so its words stand for it).
impl PartialEq for OracleFault {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.0.to_string() == other.0.to_string()
    }
}

impl Eq for OracleFault {}
