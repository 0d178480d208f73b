//! `split`: a layer solved by 1 to 4 ranks (threads of a [`LocalGroup`]) equals `solve_layer`'s,
//! on every rank, for the three ways of cutting the work: schedule stages, the acyclic walk and
//! the lean cyclic passes.

use super::*;
use crate::retro::split::{pack, slot_range, unit_range, unpack, LocalGroup};

/// Layers `0..=top` solved by `ranks` ranks: every rank's result, checked equal, once.
fn split_all<I: Indexer>(ix: &I, top: u32, ranks: usize) -> Vec<Vec<i16>> {
    let mut tables: Vec<Vec<i16>> = Vec::new();
    for layer in 0..=top {
        let lower = |l: u32, slot: u64| i32::from(tables[l as usize][slot as usize]);
        let mut all = LocalGroup::run(ranks, |g| {
            solve_layer_split(ix, layer, &lower, g, None).unwrap()
        })
        .into_iter();
        let first = all.next().expect("one rank at least");
        assert!(all.all(|t| t == first), "layer {layer}: the ranks disagree");
        tables.push(first);
    }
    tables
}

#[test]
fn split_ranges_cover_the_layer_in_whole_chunks() {
    for len in [0u64, 1, 4095, 4096, 4097, 100_000, 1 << 20] {
        for ranks in 1..=5 {
            let mut at = 0;
            for r in 0..ranks {
                let s = slot_range(len, ranks, r);
                assert_eq!(s.start, at, "len {len}, {ranks} ranks, rank {r}");
                assert!(
                    s.start.is_multiple_of(4096) && (s.end.is_multiple_of(4096) || s.end == len)
                );
                at = s.end;
            }
            assert_eq!(at, len);
            let units = len as usize % 1000;
            let covered: usize = (0..ranks).map(|r| unit_range(units, ranks, r).len()).sum();
            assert_eq!(covered, units);
        }
    }
    for (slot, v) in [(0, 0), (1, -1), ((1 << 48) - 1, i16::MIN), (12345, 32767)] {
        assert_eq!(unpack(pack(slot, v)), (slot, v));
    }
}

#[test]
fn split_acyclic_walk_equals_one_process() {
    // Layers of several chunks, so that every rank has a share.
    let ix = DigitsIx { d: 7 };
    let want = solve_all(&ix, 5, solve_layer_fn());
    for ranks in 1..=4 {
        assert!(split_all(&ix, 5, ranks) == want, "Digits, {ranks} ranks");
    }
}

#[test]
fn split_schedule_equals_one_process() {
    let mut rng = Rng(23);
    for round in 0..6 {
        let sizes = random_sizes(&mut rng, 5, 30);
        let g = RGraph::new(rng.next(), &sizes, 3, 2, true);
        let top = sizes.len() as u32 - 1;
        let ix = Staged {
            ix: RandIx::<false>(g),
            reversed: false,
        };
        let want = solve_all(&ix, top, solve_layer_fn());
        for ranks in 1..=4 {
            assert!(
                split_all(&ix, top, ranks) == want,
                "round {round}, {ranks} ranks"
            );
        }
    }
}

#[test]
fn split_cyclic_passes_equal_one_process() {
    // Large layers (several chunks a rank) and small ones (ranks with nothing to do); mixed and
    // cycle-heavy graphs, whose passes read many values across the ranks' ranges.
    let big = RGraph::new(99, &[20_000, 30_000, 30_000, 40_000], 3, 2, false);
    let heavy = RGraph::new(7, &[9_000, 20_000, 20_000], 6, 1, false);
    let mut rng = Rng(29);
    let sizes = random_sizes(&mut rng, 6, 60);
    let small = RGraph::new(rng.next(), &sizes, 4, 2, false);
    for (what, g) in [("big", big), ("heavy", heavy), ("small", small)] {
        let top = g.layers.len() as u32 - 1;
        let ix = RandIx::<true>(g);
        let want = solve_all(&ix, top, solve_layer_fn());
        for ranks in 1..=4 {
            assert!(split_all(&ix, top, ranks) == want, "{what}, {ranks} ranks");
        }
    }
    let want = solve_all(&TrackIx, 6, solve_layer_fn());
    assert!(split_all(&TrackIx, 6, 3) == want, "Track");
}
