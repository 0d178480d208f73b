//! ABDADA deferral: threads spread over different subtrees by putting off the children another
//! thread is searching right now.
//!
//! With several threads, a node at a ply below [`SearchConfig::defer_ply`] marks itself busy
//! while a thread searches it ([`BusyMarks`]). A thread that meets a busy child puts it off to
//! the end of its move list ([`put_off`]; step 9 of the node): by the time it comes back, the
//! child's value is likely in the table. The marks are a hint only: a wrong one can put a child
//! off needlessly, never change a value.
//!
//! [`SearchConfig::defer_ply`]: super::SearchConfig::defer_ply

use std::sync::atomic::{AtomicU16, Ordering};

/// Entries in the table of positions being searched (the deferral hint). A collision only makes
/// a thread defer a child it need not have; it never affects a value.
const BUSY_BITS: u32 = 16;

/// Where a node sits: its ply, and whether it is expected to be an ALL node.
///
/// A node's expected type comes from the test: the root of a test expected to fail low (in a
/// value job, one that follows a test that failed high; in the tests of the best moves and the
/// principal variation, one whose answer the caller expects to be no, see `Pool::move_bound`) is
/// an ALL node, the root of any other a CUT node, and a child has its parent's type when the
/// mover moves again, the other type when the turn passes.
#[derive(Clone, Copy)]
pub(super) struct Place {
    pub(super) ply: u32,
    pub(super) all: bool,
}

impl Place {
    pub(super) fn root(all: bool) -> Self {
        Place { ply: 0, all }
    }

    /// The place of a child: the other type when the turn passes, the same when the mover moves
    /// again.
    pub(super) fn child(self, turn_passed: bool) -> Self {
        Place {
            ply: self.ply + 1,
            all: self.all != turn_passed,
        }
    }
}

/// Whether a thread puts off, to after the node's other children, the child at position `j` of
/// the move order of a node at `at`, on the first pass over the children. `open`: the child's
/// value is not known yet; `busy`: whether another thread is in the child.
///
/// A child another thread is in is put off, unless it is the first child: that one is searched
/// at once, except at an expected ALL node at a ply below `defer_first_ply` (see
/// [`SearchConfig::defer_first_ply`]). And thread `id` puts off the first `id` moves of an ALL
/// root, or of an expected ALL node at a ply up to `head_start_ply`, whatever the marks: threads
/// that reach the node at the same moment would otherwise all find the first move free (see
/// [`SearchConfig::head_start_ply`]).
///
/// [`SearchConfig::defer_first_ply`]: super::SearchConfig::defer_first_ply
/// [`SearchConfig::head_start_ply`]: super::SearchConfig::head_start_ply
#[inline]
pub(super) fn put_off(
    at: Place,
    j: usize,
    id: usize,
    defer_first_ply: u32,
    head_start_ply: u32,
    open: bool,
    busy: impl FnOnce() -> bool,
) -> bool {
    let head_start = at.all && at.ply <= head_start_ply && j < id;
    head_start || ((j > 0 || (at.all && at.ply < defer_first_ply)) && open && busy())
}

/// How many threads are searching each node, by a hash of its key.
pub(super) struct BusyMarks(Box<[AtomicU16]>);

impl BusyMarks {
    /// No node marked.
    pub(super) fn new() -> Self {
        Self((0..1 << BUSY_BITS).map(|_| AtomicU16::new(0)).collect())
    }

    /// Clears every mark. Marks are updated without atomic read-modify-writes (see
    /// [`BusyMarks::mark`]), so a race may have left one set: every job starts from none.
    pub(super) fn clear(&self) {
        for b in self.0.iter() {
            b.store(0, Ordering::Relaxed);
        }
    }

    /// Marks the node of `key` as being searched by one more thread (or one less).
    ///
    /// A plain load and store, not an atomic read-modify-write: a `lock`-prefixed instruction
    /// waits for every load in flight, and those are the children's table prefetches that the
    /// node has just started. Two threads can lose an update when they mark the same slot at the
    /// same moment; the mark is only a hint, so that can only put a child off needlessly, never
    /// change a value, and [`BusyMarks::clear`] runs before each job. Saturating at both ends
    /// keeps a lost update from wrapping round.
    #[inline]
    pub(super) fn mark(&self, key: u128, enter: bool) {
        let b = self.slot(key);
        let v = b.load(Ordering::Relaxed);
        b.store(
            if enter {
                v.saturating_add(1)
            } else {
                v.saturating_sub(1)
            },
            Ordering::Relaxed,
        );
    }

    /// Whether some thread is searching the node of `key` (or one that shares its mark).
    #[inline]
    pub(super) fn is_busy(&self, key: u128) -> bool {
        self.slot(key).load(Ordering::Relaxed) > 0
    }

    fn slot(&self, key: u128) -> &AtomicU16 {
        let h = (key as u64 ^ (key >> 64) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        &self.0[(h >> (64 - BUSY_BITS)) as usize]
    }
}
