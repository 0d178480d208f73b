//! Live counters for a progress display ([`Progress`]).

use std::sync::atomic::{AtomicI32, AtomicU64, Ordering};

/// Live counters for a progress display, updated by the search every few thousand nodes.
#[derive(Debug)]
pub struct Progress {
    nodes: AtomicU64,
    lower: AtomicI32,
    upper: AtomicI32,
}

impl Default for Progress {
    fn default() -> Self {
        Self::new()
    }
}

impl Progress {
    /// Fresh counters.
    pub fn new() -> Self {
        Self {
            nodes: AtomicU64::new(0),
            lower: AtomicI32::new(0),
            upper: AtomicI32::new(0),
        }
    }

    /// Nodes searched so far, over all threads and jobs (approximate while running).
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// The bounds proved so far on the value of the position being solved at the moment (the
    /// root, or the child being analysed).
    pub fn bounds(&self) -> (i32, i32) {
        (
            self.lower.load(Ordering::Relaxed),
            self.upper.load(Ordering::Relaxed),
        )
    }

    pub(super) fn start_job(&self, lower: i32, upper: i32) {
        self.lower.store(lower, Ordering::Relaxed);
        self.upper.store(upper, Ordering::Relaxed);
    }

    pub(super) fn narrow(&self, lower: i32, upper: i32) {
        self.lower.fetch_max(lower, Ordering::Relaxed);
        self.upper.fetch_min(upper, Ordering::Relaxed);
    }

    pub(super) fn add_nodes(&self, n: u64) {
        self.nodes.fetch_add(n, Ordering::Relaxed);
    }
}
