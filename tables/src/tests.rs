//! Tests of the whole crate on a toy game: build, probe, resume, damage, verify.
//!
//! `Piles<CYCLIC>`: three piles of seeds seen from the mover. A move either takes one seed from a
//! pile (it is won; the turn passes), takes two (both won; the mover moves again), or shifts a
//! seed from pile `i` to pile `i + 1` (nothing won; the turn passes). With `CYCLIC` a seed may
//! also shift from the last pile back to the first, so positions recur. Layer `k` (seeds left) is
//! indexed by `(a, b)` as `a (k + 1) + b`, which leaves the slots with `a + b > k` unused.

use std::path::PathBuf;

use solver::search::{solve, SearchConfig};
use solver::{Child, Children, Game, Indexer};

use super::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Piles<const CYCLIC: bool>([u8; 3]);

impl<const CYCLIC: bool> Piles<CYCLIC> {
    fn seeds(&self) -> u32 {
        self.0.iter().map(|&x| x as u32).sum()
    }
}

impl<const CYCLIC: bool> Game for Piles<CYCLIC> {
    type Move = u8;
    const CAN_CYCLE: bool = CYCLIC;

    fn children(&self, out: &mut Children<Self>) {
        for i in 0..3 {
            let n = self.0[i];
            if n >= 1 {
                let mut next = self.0;
                next[i] -= 1;
                out.push(Child {
                    mv: i as u8,
                    next: Piles(next),
                    gain: 1,
                    turn_passed: true,
                });
            }
            if n >= 2 {
                let mut next = self.0;
                next[i] -= 2;
                out.push(Child {
                    mv: 3 + i as u8,
                    next: Piles(next),
                    gain: 2,
                    turn_passed: false,
                });
            }
            if n >= 1 && (i < 2 || CYCLIC) {
                let mut next = self.0;
                next[i] -= 1;
                next[(i + 1) % 3] += 1;
                out.push(Child {
                    mv: 6 + i as u8,
                    next: Piles(next),
                    gain: 0,
                    turn_passed: true,
                });
            }
        }
    }

    fn key(&self) -> u128 {
        let k = self.seeds();
        let below: u128 = (0..k).map(|j| ((j + 1) * (j + 1)) as u128).sum();
        below + Toy::<CYCLIC>.index(self) as u128
    }

    fn key_bound(&self) -> u128 {
        (0..=self.seeds())
            .map(|j| ((j + 1) * (j + 1)) as u128)
            .sum()
    }

    fn stake(&self) -> i32 {
        self.seeds() as i32
    }

    fn layer(&self) -> u32 {
        self.seeds()
    }

    fn move_index(mv: u8) -> u8 {
        mv
    }

    fn is_over(&self) -> bool {
        self.seeds() == 0
    }
}

struct Toy<const CYCLIC: bool>;

impl<const CYCLIC: bool> Indexer for Toy<CYCLIC> {
    type G = Piles<CYCLIC>;

    fn layer_len(&self, layer: u32) -> u64 {
        (layer as u64 + 1).pow(2)
    }

    fn index(&self, pos: &Piles<CYCLIC>) -> u64 {
        let k = pos.seeds() as u64;
        pos.0[0] as u64 * (k + 1) + pos.0[1] as u64
    }

    fn position(&self, layer: u32, index: u64) -> Option<Piles<CYCLIC>> {
        let k = layer as u64;
        let (a, b) = (index / (k + 1), index % (k + 1));
        (a + b <= k && k > 0).then(|| Piles([a as u8, b as u8, (k - a - b) as u8]))
    }
}

fn id(cyclic: bool) -> TableId {
    TableId {
        game: if cyclic {
            "toy-cyclic".into()
        } else {
            "toy".into()
        },
        options: vec![],
        holes: 3,
    }
}

/// A fresh empty directory under the system's temp dir.
fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tables-unit-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn opts(threads: usize) -> BuildOptions {
    BuildOptions {
        threads,
        cyclic_by_graph: false,
        stop: None,
    }
}

fn search_value<G: Game>(p: &G) -> i32 {
    let cfg = SearchConfig {
        threads: 1,
        tt_bytes: 1 << 20,
        ..SearchConfig::default()
    };
    solve(p, &cfg, None).unwrap().value
}

/// The toy's tables of layers `0..=top`, built in `dir` on 2 threads.
fn build_toy<const C: bool>(dir: &std::path::Path, top: u32) -> Vec<Table> {
    build(
        &Toy::<C>,
        &id(C),
        dir,
        top,
        &opts(2),
        &crate::Silent,
        |_| {},
    )
    .unwrap()
}

fn tables_match_search<const C: bool>(top: u32) {
    let dir = temp_dir(if C { "match-c" } else { "match-a" });
    let tables = build_toy::<C>(&dir, top);
    let tb = Tablebase::open(Toy::<C>, id(C), &dir, Check::Checksums).unwrap();
    assert_eq!(tb.max_layer(), top);
    for k in 0..=top {
        for i in 0..Toy::<C>.layer_len(k) {
            let Some(p) = Toy::<C>.position(k, i) else {
                continue;
            };
            let want = search_value(&p);
            assert_eq!(tables[k as usize].get(i), want, "{p:?}");
            assert_eq!(tb.probe_value(&p), Some(want), "{p:?}");
            // The search with the tables as its oracle agrees too (from one layer above, so the
            // search itself has to work).
            let mut q = p.0;
            q[2] += 1;
            let above = Piles::<C>(q);
            let cfg = SearchConfig {
                threads: 1,
                tt_bytes: 1 << 20,
                ..SearchConfig::default()
            };
            let with = solve(&above, &cfg, Some(&tb)).unwrap();
            assert_eq!(with.value, search_value(&above), "{above:?}");
            let (v, best) = tb.best_moves(&p).unwrap();
            assert_eq!(v, want);
            assert!(!best.is_empty());
        }
        assert!(verify_layer(&Toy::<C>, tb.tables(), k, &crate::Silent).wrong == 0);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn acyclic_tables_equal_the_search() {
    tables_match_search::<false>(9);
}

#[test]
fn cyclic_tables_equal_the_search() {
    tables_match_search::<true>(7);
}

#[test]
fn lean_cyclic_files_equal_the_graph_algorithm_byte_for_byte() {
    let lean_dir = temp_dir("lean");
    let graph_dir = temp_dir("graph");
    let by_graph = BuildOptions {
        cyclic_by_graph: true,
        ..opts(1)
    };
    build(
        &Toy::<true>,
        &id(true),
        &lean_dir,
        9,
        &opts(2),
        &crate::Silent,
        |_| {},
    )
    .unwrap();
    build(
        &Toy::<true>,
        &id(true),
        &graph_dir,
        9,
        &by_graph,
        &crate::Silent,
        |_| {},
    )
    .unwrap();
    for k in 0..=9 {
        let name = id(true).file_name(k);
        let lean = std::fs::read(lean_dir.join(&name)).unwrap();
        assert_eq!(
            lean,
            std::fs::read(graph_dir.join(&name)).unwrap(),
            "{name}"
        );
    }
    std::fs::remove_dir_all(&lean_dir).unwrap();
    std::fs::remove_dir_all(&graph_dir).unwrap();
}

#[test]
fn a_killed_build_resumes_and_damaged_layers_are_rebuilt() {
    let dir = temp_dir("resume");
    let first = build(
        &Toy::<false>,
        &id(false),
        &dir,
        6,
        &opts(1),
        &crate::Silent,
        |_| {},
    )
    .unwrap();
    // Lose layer 6 (as if killed while writing it: only a temp file), damage layer 4.
    std::fs::remove_file(dir.join(id(false).file_name(6))).unwrap();
    std::fs::write(
        dir.join(format!(".{}.999.tmp", id(false).file_name(6))),
        b"partial",
    )
    .unwrap();
    let p4 = dir.join(id(false).file_name(4));
    let mut b = std::fs::read(&p4).unwrap();
    let last = b.len() - 1;
    b[last] ^= 0x11;
    std::fs::write(&p4, b).unwrap();
    let mut reports = Vec::new();
    let second = build(
        &Toy::<false>,
        &id(false),
        &dir,
        8,
        &opts(2),
        &crate::Silent,
        |r| reports.push(r.clone()),
    )
    .unwrap();
    let resumed: Vec<u32> = reports
        .iter()
        .filter(|r| r.resumed)
        .map(|r| r.layer)
        .collect();
    assert_eq!(resumed, [0, 1, 2, 3, 5]);
    let r4 = &reports[4];
    assert!(
        r4.rebuilt_because.as_deref().unwrap().contains("checksum"),
        "{r4:?}"
    );
    for k in 0..=6 {
        for i in 0..first[k].len() {
            assert_eq!(first[k].get(i), second[k].get(i));
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn damage_and_wrong_tables_are_reported_clearly() {
    let dir = temp_dir("damage");
    build(
        &Toy::<false>,
        &id(false),
        &dir,
        5,
        &opts(1),
        &crate::Silent,
        |_| {},
    )
    .unwrap();
    let p3 = dir.join(id(false).file_name(3));
    let good = std::fs::read(&p3).unwrap();

    // Truncated.
    std::fs::write(&p3, &good[..good.len() - 3]).unwrap();
    let e = Tablebase::open(Toy::<false>, id(false), &dir, Check::Headers)
        .err()
        .unwrap();
    assert!(matches!(e, TableError::Truncated { .. }), "{e}");
    assert!(e.to_string().contains("truncated"), "{e}");

    // A flipped payload byte: only the checksum sees it.
    let mut b = good.clone();
    let last = b.len() - 1;
    b[last] ^= 0x04;
    std::fs::write(&p3, &b).unwrap();
    assert!(Tablebase::open(Toy::<false>, id(false), &dir, Check::Headers).is_ok());
    let e = Tablebase::open(Toy::<false>, id(false), &dir, Check::Checksums)
        .err()
        .unwrap();
    assert!(e.to_string().contains("payload checksum mismatch"), "{e}");

    // A wrong header: another layer's file under this name, and another game's.
    std::fs::copy(dir.join(id(false).file_name(2)), &p3).unwrap();
    let e = Tablebase::open(Toy::<false>, id(false), &dir, Check::Headers)
        .err()
        .unwrap();
    assert!(e.to_string().contains("layer 2, not 3"), "{e}");
    let other = TableId {
        game: "other".into(),
        options: vec![],
        holes: 3,
    };
    let vals: Vec<i16> = (0..16).map(|_| 0).collect();
    std::fs::write(&p3, format::encode_file(&other, 3, &vals)).unwrap();
    let e = Tablebase::open(Toy::<false>, id(false), &dir, Check::Headers)
        .err()
        .unwrap();
    assert!(
        e.to_string()
            .contains("wrong table: it holds other, 3 holes, not toy, 3 holes"),
        "{e}"
    );
    // A damaged header byte.
    let mut b = good.clone();
    b[format::PREFIX + 1] ^= 0xff;
    std::fs::write(&p3, &b).unwrap();
    let e = Tablebase::open(Toy::<false>, id(false), &dir, Check::Headers)
        .err()
        .unwrap();
    assert!(e.to_string().contains("header checksum mismatch"), "{e}");
    // No tables at all.
    let e = Tablebase::open(Toy::<false>, id(true), &dir, Check::Headers)
        .err()
        .unwrap();
    assert!(
        e.to_string().contains("no tables for toy-cyclic, 3 holes"),
        "{e}"
    );

    // Two damaged layers (opened in parallel): the lower one is reported, on any thread count.
    let p4 = dir.join(id(false).file_name(4));
    let good4 = std::fs::read(&p4).unwrap();
    std::fs::write(&p3, &good[..good.len() - 3]).unwrap();
    std::fs::write(&p4, &good4[..good4.len() - 3]).unwrap();
    for threads in [1, 2, 4] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let e = pool
            .install(|| Tablebase::open(Toy::<false>, id(false), &dir, Check::Headers))
            .err()
            .unwrap();
        assert!(e.to_string().contains(&p3.display().to_string()), "{e}");
    }
    std::fs::write(&p4, &good4).unwrap();

    std::fs::write(&p3, &good).unwrap();
    assert!(Tablebase::open(Toy::<false>, id(false), &dir, Check::Checksums).is_ok());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn verify_catches_a_wrong_entry() {
    for cyclic in [false, true] {
        let dir = temp_dir(if cyclic { "verify-c" } else { "verify-a" });
        let k = 5;
        let tables = if cyclic {
            build(
                &Toy::<true>,
                &id(true),
                &dir,
                k,
                &opts(2),
                &crate::Silent,
                |_| {},
            )
            .unwrap()
        } else {
            build(
                &Toy::<false>,
                &id(false),
                &dir,
                k,
                &opts(2),
                &crate::Silent,
                |_| {},
            )
            .unwrap()
        };
        // Rewrite layer 4 with one entry off by 2, under a valid checksum.
        let mut vals: Vec<i16> = (0..tables[4].len())
            .map(|i| tables[4].get(i) as i16)
            .collect();
        let slot = 7; // (a, b) = (1, 2): a real position
        vals[slot] += 2;
        let mut tables = tables;
        tables[4] = Table::from_bytes("bad", format::encode_file(&id(cyclic), 4, &vals)).unwrap();
        tables[4].check_payload().unwrap();
        let v = if cyclic {
            verify_layer(&Toy::<true>, &tables, 4, &crate::Silent)
        } else {
            verify_layer(&Toy::<false>, &tables, 4, &crate::Silent)
        };
        assert!(v.wrong >= 1);
        assert_eq!(v.examples[0].index, slot as u64);
        assert_eq!(v.examples[0].stored, v.examples[0].derived + 2);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// In the cyclic toy a position of layer 100 reaches all 5,151 positions of its layer, more than a
/// walk may remember (4,096), so its answer checks the layer whole, once; with two entries of that
/// layer altered, every answer from it is refused, naming the lower one. A closure of a small layer
/// is walked. A check stopped before the whole layer is done says so and keeps nothing.
#[test]
fn a_closure_too_large_to_walk_checks_its_whole_layer() {
    let top = 100;
    let dir = temp_dir("whole");
    let tables = build_toy::<true>(&dir, top);
    let tb = Tablebase::open(Toy::<true>, id(true), &dir, Check::Checksums).unwrap();
    let small = Piles::<true>([1, 1, 1]);
    assert_eq!(
        tb.value(&small).unwrap(),
        tables[3].get(Toy::<true>.index(&small))
    );
    assert!(!tb.checked_whole(3));
    let p = Piles::<true>([40, 30, 30]);
    // Stopped before the whole check: no verdict, and none kept.
    assert!(!tb.check_until(&p, solver::Stop::raised()).unwrap());
    assert!(!tb.checked_whole(100));
    assert_eq!(
        tb.value(&p).unwrap(),
        tables[100].get(Toy::<true>.index(&p))
    );
    assert!(tb.checked_whole(100));

    let mut vals: Vec<i16> = (0..tables[100].len())
        .map(|i| tables[100].get(i) as i16)
        .collect();
    let (low, high) = (3000, 7000); // (a, b) = (29, 71) and (69, 31): real positions
    vals[high] += 2;
    vals[low] -= 2;
    let mut tables = tables;
    tables[100] = Table::from_bytes("bad", format::encode_file(&id(true), 100, &vals)).unwrap();
    let tb = Tablebase::new(Toy::<true>, id(true), tables, Check::Checksums).unwrap();
    for q in [p, Piles([0, 0, 100]), Piles([100, 0, 0])] {
        match tb.value(&q) {
            Err(TableError::Contradiction {
                layer,
                entry,
                stored,
                derived,
                ..
            }) => {
                assert_eq!((layer, entry), (100, low as u64), "{q:?}");
                assert_eq!(stored, derived - 2);
            }
            other => panic!("{q:?}: {other:?}"),
        }
    }
    assert!(tb.checked_whole(100));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A view through another indexer ([`Tablebase::reindexed`]) reads the same layers, not a copy,
/// and a contradiction its audit finds is the viewed set's fault too (and the other way).
#[test]
fn a_reindexed_view_shares_the_layers_and_their_faults() {
    let dir = temp_dir("reindexed");
    let tables = build_toy::<true>(&dir, 6);
    let mut vals: Vec<i16> = (0..tables[6].len())
        .map(|i| tables[6].get(i) as i16)
        .collect();
    let p = Piles::<true>([2, 2, 2]);
    let slot = Toy::<true>.index(&p) as usize;
    // Within the layer's range either way.
    vals[slot] += if vals[slot] > 0 { -2 } else { 2 };
    let mut tables = tables;
    tables[6] = Table::from_bytes("bad", format::encode_file(&id(true), 6, &vals)).unwrap();
    let tb = Tablebase::new(Toy::<true>, id(true), tables, Check::Checksums).unwrap();
    let view = tb.reindexed(Toy::<true>).unwrap();
    assert!(std::ptr::eq(view.tables().as_ptr(), tb.tables().as_ptr()));
    assert!(tb.fault().is_none() && view.fault().is_none());
    solver::search::Oracle::audit(&view, &p, solver::Stop::never());
    assert!(matches!(
        view.fault(),
        Some(TableError::Contradiction { .. })
    ));
    assert!(matches!(tb.fault(), Some(TableError::Contradiction { .. })));
    // A view made after the fault sees it too.
    assert!(tb.reindexed(Toy::<true>).unwrap().fault().is_some());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn memory_estimate_counts_entries() {
    let m = memory_estimate(&Toy::<false>, 3);
    assert_eq!(m.entries, 1 + 4 + 9 + 16);
    assert_eq!(m.largest_layer, 16);
    // Layers 0..=2 (14 entries): a plain byte and half a byte of table each.
    assert_eq!(m.tables, 21);
    // The top layer: 2 bytes of values and a byte of file per slot when acyclic; the lean
    // cyclic passes add 2 bytes of best exits and a live bit (one 8-byte word here).
    assert_eq!(m.working, 48);
    assert_eq!(memory_estimate(&Toy::<true>, 3).working, 16 * 4 + 8);
}

// The build by several ranks together (`build_split`).
mod split;

/// A stop raised after layer 3 is written: the build returns `Stopped` with layers 0 to 3
/// finished, leaves exactly their files (no temporary), and a second build resumes from them
/// and writes the same bytes as a build that was never stopped.
#[test]
fn a_stopped_build_keeps_its_finished_layers_and_resumes() {
    for cyclic in [false, true] {
        let (dir, whole) = (temp_dir("stopped"), temp_dir("unstopped"));
        let flag = solver::StopToken::new();
        let stoppable = BuildOptions {
            stop: Some(flag.clone()),
            ..opts(2)
        };
        let r = if cyclic {
            build(
                &Toy::<true>,
                &id(true),
                &dir,
                7,
                &stoppable,
                &crate::Silent,
                |r| {
                    if r.layer == 3 {
                        flag.stop();
                    }
                },
            )
        } else {
            build(
                &Toy::<false>,
                &id(false),
                &dir,
                7,
                &stoppable,
                &crate::Silent,
                |r| {
                    if r.layer == 3 {
                        flag.stop();
                    }
                },
            )
        };
        assert!(
            matches!(r, Err(TableError::Stopped { finished: 4 })),
            "cyclic {cyclic}: {r:?}"
        );
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        let want: Vec<String> = (0..4).map(|k| id(cyclic).file_name(k)).collect();
        assert_eq!(
            names, want,
            "cyclic {cyclic}: only the finished layers' files"
        );
        // Resume, and compare with a build that ran through.
        let mut resumed = 0;
        let mut count = |r: &LayerReport| resumed += u32::from(r.resumed);
        if cyclic {
            build(
                &Toy::<true>,
                &id(true),
                &dir,
                7,
                &opts(2),
                &crate::Silent,
                &mut count,
            )
            .unwrap();
            build(
                &Toy::<true>,
                &id(true),
                &whole,
                7,
                &opts(2),
                &crate::Silent,
                |_| {},
            )
            .unwrap();
        } else {
            build(
                &Toy::<false>,
                &id(false),
                &dir,
                7,
                &opts(2),
                &crate::Silent,
                &mut count,
            )
            .unwrap();
            build(
                &Toy::<false>,
                &id(false),
                &whole,
                7,
                &opts(2),
                &crate::Silent,
                |_| {},
            )
            .unwrap();
        }
        assert_eq!(resumed, 4, "cyclic {cyclic}: layers 0 to 3 resumed");
        for k in 0..=7 {
            let name = id(cyclic).file_name(k);
            assert_eq!(
                std::fs::read(dir.join(&name)).unwrap(),
                std::fs::read(whole.join(&name)).unwrap(),
                "cyclic {cyclic}: layer {k}"
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
        std::fs::remove_dir_all(&whole).unwrap();
    }
}
