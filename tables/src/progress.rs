//! How a long table operation reports its progress: an observer that the caller provides. The
//! crate draws nothing itself; the binaries draw bars (with indicatif) and a library user, a
//! Python or web front end, can count, log or ignore.

/// An observer of a layer-by-layer operation (a build, a verification): told when a layer
/// starts, how many of its entries are done as the worker threads finish them, and when it ends.
///
/// [`Progress::advance`] is called from worker threads, often (every few thousand entries), so
/// it must be cheap; the other two are called from the thread that drives the operation.
pub trait Progress: Sync {
    /// Work on `layer`, of `entries` entries, starts.
    fn start(&self, layer: u32, entries: u64);

    /// `entries` more entries of the current layer are done.
    fn advance(&self, entries: u64);

    /// The current layer is done (or abandoned, on an error).
    fn finish(&self);
}

/// Reports nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Progress for Silent {
    fn start(&self, _: u32, _: u64) {}
    fn advance(&self, _: u64) {}
    fn finish(&self) {}
}
