//! One layer solved by several processes together ("ranks", as in MPI), each over its share,
//! with the values exchanged through a [`Collective`] that the caller provides (an MPI binary;
//! [`LocalGroup`]'s threads in tests). The result is the same on every rank, and equal to
//! [`solve_layer`](super::solve_layer)'s whatever the number of ranks.
//!
//! Every rank holds the whole layer being solved (and the caller's lower layers): a share is the
//! part a rank *computes*, not the part it stores. How the work is cut:
//!
//! - **Scheduled acyclic layers** (a [`Schedule`](super::Schedule)): the stages in order, each stage's units
//!   split into [`unit_range`]s. After a stage each rank sends the `(slot, value)` of every slot
//!   it solved ([`pack`]), and every rank stores everyone's before the next stage, whose internal
//!   children all lie in earlier stages.
//! - **Other acyclic layers**: the slots split into [`slot_range`]s (whole chunks); each rank
//!   walks from its own slots (the walk may compute some of the others' too, as descendants), and
//!   the ranges' values are gathered once at the end.
//! - **Cyclic layers**: the lean passes, each rank over its slot range, reading the other ranges
//!   as the last exchange left them; after every pass the ranks exchange their ranges' values and
//!   live bits and sum the values changed, and stop after a pass in which no rank changed
//!   anything. The values read from other ranges are at or below the fixpoint (they are values of
//!   the same iteration, only older), so nothing overshoots; and after a pass that changed nothing
//!   anywhere, every slot was recomputed from values equal to the current ones: a fixpoint below
//!   the least one, hence the least one, as in the module docs of `retro`. The number of passes
//!   may differ with the number of ranks; the values do not.

use std::ops::Range;
use std::sync::atomic::{AtomicI16, Ordering};
use std::sync::{Barrier, Mutex};

use rayon::prelude::*;

use super::entry::CHUNK;
use super::index::{Indexer, Lower};
use super::{acyclic, passes, LayerWatch};
use crate::game::Game;
use crate::memory::{huge_vec, try_vec, AllocError};

/// The communication between the ranks that [`solve_layer_split`] needs: collectives, which
/// every rank calls together, in the same order, with the same counts.
pub trait Collective {
    /// This rank, `0..ranks()`.
    fn rank(&self) -> usize;

    /// The number of ranks.
    fn ranks(&self) -> usize;

    /// Every rank's `mine`, in rank order (an all-gather).
    fn gather(&self, mine: u64) -> Vec<u64>;

    /// Every rank's `mine` concatenated in rank order into `out` (an all-gather of varying
    /// counts): rank `r`'s part is `counts[r]` bytes long, and `out.len()` is their sum. The
    /// counts are the same on every rank and `mine.len() == counts[rank()]`.
    fn gather_bytes(&self, mine: &[u8], counts: &[usize], out: &mut [u8]);
}

/// The slots that rank `rank` of `ranks` computes in a layer of `len` slots: whole chunks of
/// 4096 slots (`CHUNK`, the unit of the builders' parallel loops, a multiple of 64 so that a range's
/// live bits are whole words), the chunks shared as evenly as they go. The ranges of all ranks
/// cover `0..len` in rank order without overlap.
pub fn slot_range(len: u64, ranks: usize, rank: usize) -> Range<u64> {
    let chunks = len.div_ceil(CHUNK as u64);
    let at = |r: usize| (chunks * r as u64 / ranks as u64 * CHUNK as u64).min(len);
    at(rank)..at(rank + 1)
}

/// The units of a stage of `units` units that rank `rank` of `ranks` solves: as even a share
/// as they go, in rank order.
pub fn unit_range(units: usize, ranks: usize, rank: usize) -> Range<usize> {
    let at = |r: usize| units * r / ranks;
    at(rank)..at(rank + 1)
}

/// A solved slot and its value in one word, as the ranks exchange them: the slot in the top 48
/// bits, the value's 16 bits below.
///
/// # Panics
/// When the slot does not fit in 48 bits (a layer of 2^48 slots is far beyond any machine).
#[inline]
pub fn pack(slot: u64, value: i16) -> u64 {
    assert!(slot < 1 << 48, "slot {slot} does not fit in a packed pair");
    slot << 16 | u64::from(value as u16)
}

/// The slot and value of a [`pack`]ed word.
#[inline]
pub fn unpack(word: u64) -> (u64, i16) {
    (word >> 16, word as u16 as i16)
}

/// As [`solve_layer`](super::solve_layer), by the ranks of `group` together: every rank calls
/// it with the same arguments, computes its share on its current rayon pool, and gets the whole
/// layer's values. See the module docs for how the work is cut.
///
/// `progress` counts this rank's share only.
///
/// # Errors
/// As [`solve_layer`](super::solve_layer): the layer's arrays cannot be allocated.
///
/// # Panics
/// When the ranks' collectives fail (the [`Collective`]'s own panics).
pub fn solve_layer_split<I: Indexer, L: Lower + ?Sized, C: Collective + ?Sized>(
    ix: &I,
    layer: u32,
    lower: &L,
    group: &C,
    progress: Option<&(dyn Fn(u64) + Sync)>,
) -> Result<Vec<i16>, AllocError> {
    let n = usize::try_from(ix.layer_len(layer)).expect("a layer that fits in memory");
    // A progress callback alone never stops: one rank stopping alone would leave the others
    // waiting in a collective, and its values unsolved.
    let tick = progress.map(|p| move |slots: u64| p(slots));
    let progress = tick.as_ref().map(|t| t as &dyn LayerWatch);
    if <I::G as Game>::CAN_CYCLE {
        solve_cyclic(ix, layer, lower, group, n, progress)
    } else if let Some(schedule) = ix.schedule(layer)? {
        let memo = acyclic::new_memo(layer, n)?;
        for stage in 0..schedule.stages() {
            let units = unit_range(schedule.units(stage), group.ranks(), group.rank());
            let slots = acyclic::stage_units::<Vec<u64>>(
                layer, lower, &memo, &*schedule, stage, units, progress,
            );
            let mine: Vec<u8> = slots
                .par_iter()
                .flat_map_iter(|unit| {
                    unit.iter().flat_map(|&s| {
                        pack(s, memo[s as usize].load(Ordering::Relaxed)).to_le_bytes()
                    })
                })
                .collect();
            drop(slots);
            let all = gather_all(group, &mine);
            all.par_chunks_exact(8).for_each(|w| {
                let (slot, v) = unpack(u64::from_le_bytes(w.try_into().expect("8 bytes")));
                memo[slot as usize].store(v, Ordering::Relaxed);
            });
        }
        Ok(super::entry::into_values(memo))
    } else {
        let range = slot_range(n as u64, group.ranks(), group.rank());
        let memo = acyclic::new_memo(layer, n)?;
        acyclic::walk_range(ix, layer, lower, &memo, range.clone(), progress);
        let mine = bytes_of(&memo[range.start as usize..range.end as usize]);
        drop(memo);
        let counts: Vec<usize> = (0..group.ranks())
            .map(|r| 2 * range_len(slot_range(n as u64, group.ranks(), r)))
            .collect();
        let mut all = try_vec(2 * n, || format!("layer {layer}'s exchanged values"))?;
        all.resize(2 * n, 0u8);
        group.gather_bytes(&mine, &counts, &mut all);
        Ok(all
            .par_chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]))
            .collect())
    }
}

/// The lean passes of a cyclic layer, split by slot range (see the module docs).
fn solve_cyclic<I: Indexer, L: Lower + ?Sized, C: Collective + ?Sized>(
    ix: &I,
    layer: u32,
    lower: &L,
    group: &C,
    n: usize,
    progress: Option<&dyn LayerWatch>,
) -> Result<Vec<i16>, AllocError> {
    let ranges: Vec<Range<u64>> = (0..group.ranks())
        .map(|r| slot_range(n as u64, group.ranks(), r))
        .collect();
    let mine = ranges[group.rank()].clone();
    let st = passes::new_state(layer, n)?;
    let mut best: Vec<i16> = huge_vec(
        range_len(mine.clone()),
        || format!("layer {layer}'s best exits"),
        || 0i16,
    )?;
    passes::first_pass_range(ix, layer, lower, &st, &mut best, mine.start, progress);
    exchange_state(group, &st, &ranges);
    loop {
        let changed = passes::later_pass_range(ix, layer, &st, &best, mine.start, progress);
        exchange_state(group, &st, &ranges);
        if group.gather(changed).iter().all(|&c| c == 0) {
            break;
        }
    }
    Ok(st.into_values())
}

/// Sends this rank's values and live bits to every other rank and stores theirs: a part per
/// rank, its range's values (2 bytes each) then its live words (8 bytes each).
fn exchange_state<C: Collective + ?Sized>(group: &C, st: &passes::State, ranges: &[Range<u64>]) {
    let values = st.values();
    let live = st.live_words();
    let words = |r: &Range<u64>| (r.start / 64) as usize..(r.end.div_ceil(64)) as usize;
    let me = &ranges[group.rank()];
    let mut mine = bytes_of(&values[me.start as usize..me.end as usize]);
    for w in &live[words(me)] {
        mine.extend_from_slice(&w.load(Ordering::Acquire).to_le_bytes());
    }
    let counts: Vec<usize> = ranges
        .iter()
        .map(|r| 2 * range_len(r.clone()) + 8 * words(r).len())
        .collect();
    let mut all = vec![0u8; counts.iter().sum()];
    group.gather_bytes(&mine, &counts, &mut all);
    let mut at = 0;
    for (r, range) in ranges.iter().enumerate() {
        let part = &all[at..at + counts[r]];
        at += counts[r];
        if r == group.rank() {
            continue;
        }
        let (v, l) = part.split_at(2 * range_len(range.clone()));
        values[range.start as usize..range.end as usize]
            .par_iter()
            .zip(v.par_chunks_exact(2))
            .for_each(|(a, b)| a.store(i16::from_le_bytes([b[0], b[1]]), Ordering::Relaxed));
        // A live bit only ever goes from set to clear, and the value it guards is stored first.
        for (a, b) in live[words(range)].iter().zip(l.chunks_exact(8)) {
            a.store(
                u64::from_le_bytes(b.try_into().expect("8 bytes")),
                Ordering::Release,
            );
        }
    }
}

/// Every rank's bytes, concatenated in rank order.
fn gather_all<C: Collective + ?Sized>(group: &C, mine: &[u8]) -> Vec<u8> {
    let counts: Vec<usize> = group
        .gather(mine.len() as u64)
        .into_iter()
        .map(|c| c as usize)
        .collect();
    let mut all = vec![0u8; counts.iter().sum()];
    group.gather_bytes(mine, &counts, &mut all);
    all
}

fn bytes_of(memo: &[AtomicI16]) -> Vec<u8> {
    memo.par_iter()
        .flat_map_iter(|a| a.load(Ordering::Relaxed).to_le_bytes())
        .collect()
}

fn range_len(r: Range<u64>) -> usize {
    (r.end - r.start) as usize
}

/// Ranks as threads of one process, for tests of [`solve_layer_split`] (and of what is built on
/// it) without MPI: [`LocalGroup::run`] runs a closure once per rank, each on its own thread with
/// its own [`Collective`], and returns their results in rank order.
pub struct LocalGroup {
    ranks: usize,
    barrier: Barrier,
    parts: Mutex<Vec<Vec<u8>>>,
}

/// One rank of a [`LocalGroup`].
pub struct LocalRank<'a> {
    group: &'a LocalGroup,
    rank: usize,
}

impl LocalGroup {
    /// Runs `f` on `ranks` threads, rank `r` with a [`LocalRank`] of rank `r`; returns the
    /// results in rank order.
    ///
    /// # Panics
    /// When a rank panics (after every other rank has finished or is stuck: use it in tests).
    pub fn run<T: Send>(ranks: usize, f: impl Fn(&LocalRank<'_>) -> T + Sync) -> Vec<T> {
        let group = LocalGroup {
            ranks,
            barrier: Barrier::new(ranks),
            parts: Mutex::new(vec![Vec::new(); ranks]),
        };
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..ranks)
                .map(|rank| {
                    let (group, f) = (&group, &f);
                    s.spawn(move || f(&LocalRank { group, rank }))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a rank panicked"))
                .collect()
        })
    }
}

impl LocalRank<'_> {
    /// Publishes `mine`, waits for every rank's, and hands them to `read`.
    fn exchange<T>(&self, mine: &[u8], read: impl FnOnce(&[Vec<u8>]) -> T) -> T {
        self.group.parts.lock().expect("no rank panicked")[self.rank] = mine.to_vec();
        self.group.barrier.wait();
        let out = read(&self.group.parts.lock().expect("no rank panicked"));
        // Nobody may overwrite a part before everyone has read it.
        self.group.barrier.wait();
        out
    }
}

impl Collective for LocalRank<'_> {
    fn rank(&self) -> usize {
        self.rank
    }

    fn ranks(&self) -> usize {
        self.group.ranks
    }

    fn gather(&self, mine: u64) -> Vec<u64> {
        self.exchange(&mine.to_le_bytes(), |parts| {
            parts
                .iter()
                .map(|p| u64::from_le_bytes(p[..8].try_into().expect("8 bytes")))
                .collect()
        })
    }

    fn gather_bytes(&self, mine: &[u8], counts: &[usize], out: &mut [u8]) {
        assert_eq!(mine.len(), counts[self.rank], "rank {}'s count", self.rank);
        self.exchange(mine, |parts| {
            let mut at = 0;
            for (p, &c) in parts.iter().zip(counts) {
                assert_eq!(p.len(), c, "a rank's part disagrees with its count");
                out[at..at + c].copy_from_slice(p);
                at += c;
            }
        });
    }
}
