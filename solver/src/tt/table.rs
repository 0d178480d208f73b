//! The table of one entry width: buckets, probe, store and replacement, written once for both
//! widths ([`Width`]); the search is compiled for each, so the narrow path costs what it always
//! did.

use std::alloc::Layout;
use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::entry::{merge, Entry};
use super::error::TtError;

/// One entry width: how a key splits into bucket and quotient, and how an entry is packed into a
/// word and read and written atomically.
pub(crate) trait Width: 'static {
    /// One packed entry (`u64` or `u128`); all-zero is the empty slot.
    type Word: Copy + Eq + Default;
    /// A key's quotient, at most [`Width::MAX_QUOTIENT`].
    type Quotient: Copy + Default + Eq + fmt::Debug;
    /// Two atomic words, aligned so that a bucket never straddles a cache line; all-zero bytes
    /// must be a valid, empty bucket.
    type Bucket: Sync + Send;
    /// The largest quotient an entry can hold.
    const MAX_QUOTIENT: u128;
    /// `(key % len, key / len)`.
    fn split(key: u128, len: u64) -> (usize, Self::Quotient);
    /// Word `i` (0 or 1) of a bucket, by one relaxed atomic load.
    fn load(b: &Self::Bucket, i: usize) -> Self::Word;
    /// Writes word `i` of a bucket by one relaxed atomic store.
    fn store(b: &Self::Bucket, i: usize, w: Self::Word);
    /// The key field a word for `quotient` holds (`quotient + 1`, never 0).
    fn tag(quotient: Self::Quotient) -> Self::Word;
    /// The key field of a word (0 when empty).
    fn stored_tag(w: Self::Word) -> Self::Word;
    /// A word for `quotient` holding `e`.
    fn pack(quotient: Self::Quotient, e: Entry) -> Self::Word;
    /// The entry a word holds.
    fn unpack(w: Self::Word) -> Entry;
    /// The work field of a word (0 for an empty slot).
    fn work(w: Self::Word) -> u8;
    /// Whether a word is the empty slot.
    fn is_empty(w: Self::Word) -> bool;
    /// The quotient a non-empty word holds.
    fn stored_quotient(w: Self::Word) -> u128;
}

/// Where a key lives in a table: its bucket and the quotient stored to identify it. Only valid for
/// the table that computed it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Slot<Q = u64> {
    pub(super) index: usize,
    pub(super) quotient: Q,
}

/// A table of one width. Share it by `&` between threads.
///
/// The table is the first `len` buckets of its allocation; the rest, never touched, is room to
/// grow in place ([`Table::grow_in_place`]).
pub(crate) struct Table<W: Width> {
    buckets: Box<[W::Bucket]>,
    /// The buckets in use, the divisor of the key.
    len: u64,
    /// The byte offset of the next chunk [`Table::fault_in_chunk`] gives out.
    faulted: AtomicUsize,
    /// The byte offset in the allocation up to which [`Table::fault_ahead_chunk`] has faulted
    /// the room in (`usize::MAX` when the system cannot).
    ahead: AtomicUsize,
}

/// Bytes of one [`Table::fault_in_chunk`]: small enough (a few milliseconds of the kernel's
/// work) that a thread faulting in the table notices soon when it has something better to do.
const FAULT_CHUNK: usize = 8 << 20;

/// Bytes of one [`Table::fault_ahead_chunk`]: one huge page, so that the job it runs beside
/// waits at most one page's fault for it when it ends.
const AHEAD_CHUNK: usize = 2 << 20;

impl<W: Width> Table<W> {
    /// Bytes of one bucket.
    pub(crate) const BUCKET_BYTES: usize = std::mem::size_of::<W::Bucket>();

    /// The largest quotient of keys below `key_bound` in a table of `n` buckets.
    pub(crate) fn largest_quotient(key_bound: u128, n: usize) -> u128 {
        key_bound.saturating_sub(1) / n as u128
    }

    /// A zeroed table of `n >= 1` buckets, or [`TtError::Alloc`].
    pub(crate) fn zeroed(n: usize) -> Result<Self, TtError> {
        Self::zeroed_in(n, n)
    }

    /// A zeroed table of `n >= 1` buckets in an allocation of `room >= n` buckets, so that it
    /// can grow in place to `room`; in one of `n` when the system will not reserve `room`.
    /// Only what the table touches is ever faulted in, so the room costs address space, not
    /// memory.
    pub(crate) fn zeroed_with_room(n: usize, room: usize) -> Result<Self, TtError> {
        if room > n {
            if let Ok(t) = Self::zeroed_in(n, room) {
                return Ok(t);
            }
        }
        Self::zeroed(n)
    }

    /// [`Table::zeroed_with_room`], failing when the room cannot be had.
    fn zeroed_in(n: usize, room: usize) -> Result<Self, TtError> {
        let alloc_err = TtError::Alloc {
            bytes: room.saturating_mul(Self::BUCKET_BYTES),
        };
        let layout = Layout::array::<W::Bucket>(room).map_err(|_| alloc_err.clone())?;
        // Zeroed allocation: the allocator hands out fresh pages already zeroed (calloc / mmap), so
        // a big table costs nothing until touched, and the all-zero word is the empty slot.
        // SAFETY: `layout` has non-zero size (n >= 1 and a bucket is 16 or 32 bytes).
        let ptr = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<W::Bucket>();
        if ptr.is_null() {
            return Err(alloc_err);
        }
        crate::memory::advise_huge_pages(ptr.cast::<u8>(), layout.size());
        // SAFETY: `ptr` was allocated by the global allocator with the layout of
        // `[Bucket; room]`, which is the layout `Box<[Bucket]>` frees with; all-zero bytes are a
        // valid bucket (atomics of 0, see `Width::Bucket`).
        let buckets = unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, room)) };
        Ok(Self {
            buckets,
            len: n as u64,
            faulted: AtomicUsize::new(0),
            ahead: AtomicUsize::new(0),
        })
    }

    /// Faults in the next chunk of the table that no call has faulted in yet, leaving its
    /// entries as they are (see [`crate::memory::fault_in`]), so that a thread with nothing to
    /// do takes the kernel's first touches off the searching ones; false when the whole table
    /// has been given out (or the system cannot fault memory in this way).
    pub(crate) fn fault_in_chunk(&self) -> bool {
        let bytes = self.bytes();
        if self.faulted.load(Ordering::Relaxed) >= bytes {
            return false;
        }
        let start = self.faulted.fetch_add(FAULT_CHUNK, Ordering::Relaxed);
        if start >= bytes {
            return false;
        }
        let len = FAULT_CHUNK.min(bytes - start);
        // SAFETY: `start < bytes`, so the pointer stays inside the table's allocation.
        let ptr = unsafe { self.active().as_ptr().cast::<u8>().add(start) };
        if !crate::memory::fault_in(ptr, len) {
            self.faulted.store(bytes, Ordering::Relaxed);
            return false;
        }
        true
    }

    /// Faults in the next huge page of the room (the allocation past the table) below byte
    /// `upto` of the allocation, leaving it as it is (all zero, see [`crate::memory::fault_in`]),
    /// so that an idle core takes the first touches of the table's next size off the search
    /// before it grows; false when there is nothing left below `upto` (or the system cannot
    /// fault memory in this way). On a machine whose host takes back freed memory, a fresh huge
    /// page costs up to 10 ms (docs/performance.md, "The next size faulted in ahead"). One
    /// thread at a time calls it.
    pub(crate) fn fault_ahead_chunk(&self, upto: usize) -> bool {
        let Some((start, upto)) = self.left_to_fault(upto) else {
            return false;
        };
        let len = AHEAD_CHUNK.min(upto - start);
        // SAFETY: `start < upto <=` the allocation's bytes, so the pointer stays inside it.
        let ptr = unsafe { self.buckets.as_ptr().cast::<u8>().add(start) };
        if !crate::memory::fault_in(ptr, len) {
            self.ahead.store(usize::MAX, Ordering::Relaxed);
            return false;
        }
        self.ahead.store(start + len, Ordering::Relaxed);
        true
    }

    /// Whether [`Table::fault_ahead_chunk`] has anything left below byte `upto`.
    pub(crate) fn room_to_fault(&self, upto: usize) -> bool {
        self.left_to_fault(upto).is_some()
    }

    /// The room's bytes `start..end` not faulted in ahead yet below byte `upto` (capped at the
    /// allocation's end), when there are any.
    fn left_to_fault(&self, upto: usize) -> Option<(usize, usize)> {
        let end = upto.min(self.buckets.len() * Self::BUCKET_BYTES);
        let start = self.ahead.load(Ordering::Relaxed).max(self.bytes());
        (start < end).then_some((start, end))
    }

    /// Word `j` of bucket `i`, for tests that compare tables word for word.
    #[cfg(test)]
    pub(crate) fn word_at(&self, i: usize, j: usize) -> W::Word {
        W::load(&self.buckets[i], j)
    }

    /// The buckets in use.
    fn active(&self) -> &[W::Bucket] {
        &self.buckets[..self.len as usize]
    }

    /// The table's size in bytes.
    pub(crate) fn bytes(&self) -> usize {
        self.active().len() * Self::BUCKET_BYTES
    }

    /// The number of entries the table can hold.
    pub(crate) fn capacity(&self) -> usize {
        self.active().len() * 2
    }

    /// Grows the table to `n` buckets within its allocation, keeping every entry, when `n` is a
    /// multiple of its length and fits its room; false (and nothing done) otherwise.
    ///
    /// The result is the table that storing every entry, in [`Table::for_each_entry`]'s order,
    /// into a new table of `n` buckets makes, without a second table: a key
    /// in bucket `i` with quotient `q` moves to bucket `i + len * (q % m)` with quotient `q / m`
    /// (`m = n / len`), so the entries of different buckets never meet, and every bucket past
    /// the old length is still empty. Growing in place touches no memory but the new table's,
    /// and the old one's is not given back to be taken fresh again (on a machine whose host
    /// takes back freed memory, fresh memory costs up to 10 ms per huge page; docs/performance.md).
    pub(crate) fn grow_in_place(&mut self, n: usize) -> bool {
        use rayon::prelude::*;
        let len = self.len as usize;
        if n <= len || !n.is_multiple_of(len) || n > self.buckets.len() {
            return false;
        }
        self.len = n as u64;
        let this = &*self;
        (0..len)
            .into_par_iter()
            .with_min_len(1 << 14)
            .for_each(|i| {
                let b = &this.buckets[i];
                let words = [W::load(b, 0), W::load(b, 1)];
                W::store(b, 0, W::Word::default());
                W::store(b, 1, W::Word::default());
                for w in words {
                    if !W::is_empty(w) {
                        let key = W::stored_quotient(w) * len as u128 + i as u128;
                        this.store_at(this.slot(key), W::unpack(w));
                    }
                }
            });
        true
    }

    /// Where `key` lives: its bucket and quotient. Computing it costs a division, so the search
    /// computes it once per position and reuses it for prefetch, probe and store.
    #[inline]
    pub(crate) fn slot(&self, key: u128) -> Slot<W::Quotient> {
        let (index, quotient) = W::split(key, self.len);
        Slot { index, quotient }
    }

    /// Asks the CPU to start loading the bucket of `slot`, so that several probes can wait for
    /// memory at the same time (the search prefetches all children before probing any).
    #[inline]
    pub(crate) fn prefetch(&self, slot: Slot<W::Quotient>) {
        crate::memory::prefetch(&self.buckets[slot.index]);
    }

    /// What the table knows about `key`, if anything.
    #[inline]
    pub(crate) fn probe(&self, key: u128) -> Option<Entry> {
        self.probe_at(self.slot(key))
    }

    /// What the table knows about the key of `slot`, if anything.
    #[inline]
    pub(crate) fn probe_at(&self, slot: Slot<W::Quotient>) -> Option<Entry> {
        let want = W::tag(slot.quotient);
        let b = &self.buckets[slot.index];
        let w0 = W::load(b, 0);
        if W::stored_tag(w0) == want {
            return Some(W::unpack(w0));
        }
        let w1 = W::load(b, 1);
        if W::stored_tag(w1) == want {
            return Some(W::unpack(w1));
        }
        None
    }

    /// Records what the search learned about `key`; see [`Table::store_at`].
    #[inline]
    pub(crate) fn store(&self, key: u128, e: Entry) {
        self.store_at(self.slot(key), e);
    }

    /// Records what the search learned about the key of `slot`, merging it with what the table
    /// already knows about the same key (both are true bounds, so their intersection is too).
    ///
    /// Concurrent stores to one bucket may lose one of the updates, never corrupt an entry.
    #[inline]
    pub(crate) fn store_at(&self, slot: Slot<W::Quotient>, e: Entry) {
        let q = slot.quotient;
        let want = W::tag(q);
        let b = &self.buckets[slot.index];
        let w0 = W::load(b, 0);
        if W::stored_tag(w0) == want {
            W::store(b, 0, W::pack(q, merge(W::unpack(w0), e)));
            return;
        }
        let w1 = W::load(b, 1);
        if W::stored_tag(w1) == want {
            let m = merge(W::unpack(w1), e);
            if m.work >= W::work(w0) {
                // Promote: the entry now represents more work than the keeper.
                W::store(b, 0, W::pack(q, m));
                W::store(b, 1, w0);
            } else {
                W::store(b, 1, W::pack(q, m));
            }
            return;
        }
        if e.work >= W::work(w0) {
            W::store(b, 1, w0);
            W::store(b, 0, W::pack(q, e));
        } else {
            W::store(b, 1, W::pack(q, e));
        }
    }

    /// Calls `f(key, entry)` for every entry, using all threads of the rayon pool. The bucket
    /// index and the stored quotient give back the whole key (see the module docs of `tt`).
    pub(crate) fn for_each_entry(&self, f: impl Fn(u128, Entry) + Sync) {
        use rayon::prelude::*;
        const CHUNK: usize = 1 << 14;
        let len = u128::from(self.len);
        self.active()
            .par_chunks(CHUNK)
            .enumerate()
            .for_each(|(c, chunk)| {
                for (j, b) in chunk.iter().enumerate() {
                    let index = (c * CHUNK + j) as u128;
                    for i in 0..2 {
                        let w = W::load(b, i);
                        if !W::is_empty(w) {
                            f(W::stored_quotient(w) * len + index, W::unpack(w));
                        }
                    }
                }
            });
    }

    /// Empties the table, using all threads of the rayon pool.
    pub(crate) fn clear(&self) {
        use rayon::prelude::*;
        self.active().par_chunks(1 << 14).for_each(|chunk| {
            for b in chunk {
                W::store(b, 0, W::Word::default());
                W::store(b, 1, W::Word::default());
            }
        });
    }

    /// The fraction of occupied slots, in permille, estimated from the first few thousand buckets
    /// (for progress displays).
    pub(crate) fn hashfull(&self) -> u32 {
        let sample = self.active().len().min(4096);
        let used: usize = self.active()[..sample]
            .iter()
            .map(|b| (0..2).filter(|&i| !W::is_empty(W::load(b, i))).count())
            .sum();
        (used * 1000 / (2 * sample)) as u32
    }
}
