//! [`KalahNode`] against [`Position`]: the same children, keys, layers, stakes, estimates and
//! hints on random boards and playouts, and the same searches (value and node count).

use super::{Kalah, KalahNode, KalahNodeIndexer};
use crate::board::Side;
use crate::notation::Setup;
use crate::position::Position;
use crate::rank;
use solver::search::{SearchConfig, Solver};
use solver::{Children, Game};

/// A xorshift stream: `next(bound)` is in `0..bound`.
fn below(seed: u64) -> impl FnMut(u64) -> u64 {
    let mut state = seed;
    move |bound| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % bound
    }
}

/// Kalah under all eight option sets (bit 0: empty-capture, 1: end-when-mover-empty, 2:
/// leftovers-unscored).
fn kalahs() -> impl Iterator<Item = Kalah> {
    (0..8).map(|i| Kalah {
        empty_capture: i & 1 != 0,
        end_when_mover_empty: i & 2 != 0,
        leftovers_unscored: i & 4 != 0,
    })
}

/// Everything the search reads of a node equals what it reads of the position.
fn same_node<const N: usize>(node: &KalahNode<N>, p: &Position<Kalah>) {
    assert_eq!(KalahNode::<N>::from_position(p), Some(*node), "{p}");
    assert_eq!(node.key(), p.key(), "{p}");
    assert_eq!(node.key_bound(), p.key_bound(), "{p}");
    assert_eq!(node.stake(), p.stake(), "{p}");
    assert_eq!(node.layer(), p.layer(), "{p}");
    assert_eq!(node.estimate(), p.estimate(), "{p}");
    assert_eq!(node.is_over(), Game::is_over(p), "{p}");
    assert_eq!(node.rules(), *p.rules());
}

/// `p`'s children against its node's, one by one (each child's node too); returns `p`'s.
fn same_children<const N: usize>(p: &Position<Kalah>) -> Children<Position<Kalah>> {
    let node = KalahNode::<N>::from_position(p).expect("a Kalah word board");
    same_node(&node, p);
    let (mut theirs, mut ours) = (Children::new(), Children::new());
    p.children(&mut theirs);
    node.children(&mut ours);
    assert_eq!(theirs.len(), ours.len(), "{p}");
    for (t, o) in theirs.as_slice().iter().zip(ours.as_slice()) {
        assert_eq!(t.mv, o.mv, "{p}");
        assert_eq!(t.gain, o.gain, "{p} {}", t.mv);
        assert_eq!(t.turn_passed, o.turn_passed, "{p} {}", t.mv);
        assert_eq!(
            Position::<Kalah>::move_index(t.mv),
            KalahNode::<N>::move_index(o.mv)
        );
        assert_eq!(
            Position::<Kalah>::order_hint(t.mv),
            KalahNode::<N>::order_hint(o.mv)
        );
        same_node(&o.next, &t.next);
    }
    let mut again = Children::new();
    node.children_until(&mut again, crate::stop::Stop::never())
        .expect("Kalah never gives up");
    assert_eq!(again.as_slice(), ours.as_slice());
    theirs
}

fn same_children_sized(holes: u8, p: &Position<Kalah>) -> Children<Position<Kalah>> {
    match holes {
        1 => same_children::<1>(p),
        2 => same_children::<2>(p),
        3 => same_children::<3>(p),
        4 => same_children::<4>(p),
        5 => same_children::<5>(p),
        6 => same_children::<6>(p),
        _ => same_children::<7>(p),
    }
}

/// Random playouts from the start of 1 to 7 holes, 1 to 8 seeds, every option set: every
/// position on the way, and every child of it, reads the same through the node.
#[test]
fn node_agrees_with_position_on_playouts() {
    let mut next = below(0x9e37_79b9_7f4a_7c15);
    for holes in 1..=7u8 {
        for rules in kalahs() {
            for seeds in 1..=8u8 {
                for _ in 0..20 {
                    let mut p = Position::start(rules, holes, seeds).expect("a start");
                    loop {
                        let children = same_children_sized(holes, &p);
                        if children.is_empty() {
                            break;
                        }
                        let pick = next(children.len() as u64) as usize;
                        p = children.as_slice()[pick].next;
                    }
                    // The finished game: no children, key 0, layer 0.
                    same_children_sized(holes, &p);
                }
            }
        }
    }
}

/// Random boards of every layer a word takes (up to `257 - 2n` seeds, past what a word's
/// 64-bit key takes, where the key falls back to the general rank), either side to move,
/// stores not empty, every option set.
#[test]
fn node_agrees_with_position_on_random_boards() {
    let mut next = below(0x2545_f491_4f6c_dd1d);
    for holes in 1..=7u8 {
        let m = 2 * holes as usize;
        let most = (257 - m as u64).min(255);
        let (mut boards, mut general) = (0, 0);
        for rules in kalahs() {
            for _ in 0..2_000 {
                let k = next(most + 1) as u32;
                let mut pits = [0u8; 16];
                let slot = next(u64::MAX) % (rank::layer_len(k, m).min(u64::MAX as u128) as u64);
                rank::unrank_in_layer(k, m, slot as u128, &mut pits[..m]);
                let setup = Setup {
                    south: pits[..holes as usize].iter().map(|&x| x as u32).collect(),
                    north: pits[holes as usize..m].iter().map(|&x| x as u32).collect(),
                    stores: [next(40) as u32, next(40) as u32],
                    to_move: Some(if next(2) == 0 {
                        Side::South
                    } else {
                        Side::North
                    }),
                };
                let pos = Position::from_setup(rules, &setup).expect("a valid setup");
                same_children_sized(holes, &pos);
                boards += 1;
                general += u32::from(k > rank::KEY64_MAX_SEEDS[m].min(257 - m as u32));
            }
        }
        // Both keys were compared: the word's and, on the bigger boards, the general one.
        assert_eq!(boards, 16_000);
        if rank::KEY64_MAX_SEEDS[m] < most as u32 {
            assert!(general > 100, "{holes} holes: {general} general keys");
        }
    }
}

/// A node turns back into the position with South to move (stores empty) that it is.
#[test]
fn node_position_round_trips() {
    let p = Position::start(Kalah::default(), 6, 4).expect("a start");
    let node = KalahNode::<6>::from_position(&p).expect("a node");
    assert_eq!(node.position(), p);
    let mut c = Children::new();
    node.children(&mut c);
    for child in c.as_slice() {
        let q = child.next.position();
        assert_eq!(KalahNode::<6>::from_position(&q), Some(child.next));
    }
    // Another size, another game, too many seeds for a word: no node.
    assert_eq!(KalahNode::<5>::from_position(&p), None);
    let dakon = Position::start(crate::rules::Dakon::default(), 6, 4).expect("a start");
    assert_eq!(KalahNode::<6>::from_position(&dakon), None);
    let big = Position::start(Kalah::default(), 7, 18).expect("a start");
    assert_eq!(KalahNode::<7>::from_position(&big), None);
    assert!(
        KalahNode::<7>::from_position(&Position::start(Kalah::default(), 7, 17).unwrap()).is_some()
    );
}

/// The same solve through both types: value, best moves, principal variation and the node
/// count (the searches are the same tree).
fn same_solve<const N: usize>(rules: Kalah, seeds: u8) {
    let p = Position::start(rules, N as u8, seeds).expect("a start");
    let node = KalahNode::<N>::from_position(&p).expect("a node");
    let cfg = SearchConfig {
        threads: 1,
        tt_bytes: 1 << 20,
        ..SearchConfig::default()
    };
    let a = Solver::new(&p, cfg.clone(), None)
        .and_then(|mut s| s.solve(&p))
        .expect("solved");
    let b = Solver::new(&node, cfg, None)
        .and_then(|mut s| s.solve(&node))
        .expect("solved");
    assert_eq!(a.value, b.value, "{p} {rules:?}");
    assert_eq!(a.best, b.best, "{p} {rules:?}");
    assert_eq!(a.pv, b.pv, "{p} {rules:?}");
    assert_eq!(a.nodes, b.nodes, "{p} {rules:?}");
    assert_eq!(a.tt_probes, b.tt_probes, "{p} {rules:?}");
    assert!(a.nodes > 100, "{p}: {} nodes", a.nodes);
}

#[test]
fn node_solves_like_position() {
    for rules in kalahs() {
        same_solve::<3>(rules, 3);
        same_solve::<4>(rules, 2);
    }
    let standard = Kalah::default();
    let empty = Kalah {
        empty_capture: true,
        ..Kalah::default()
    };
    for rules in [standard, empty] {
        same_solve::<4>(rules, 3);
        same_solve::<5>(rules, 3);
    }
}

/// The node is one word, its child two (a position's child is 80 bytes).
#[test]
fn node_and_child_sizes() {
    use std::mem::size_of;
    assert_eq!(size_of::<KalahNode<6>>(), 16);
    assert_eq!(size_of::<solver::Child<KalahNode<6>>>(), 32);
    assert_eq!(size_of::<solver::Child<Position<Kalah>>>(), 80);
}

/// The node's index reads the tables `MancalaIndexer` builds: every slot of every layer is the
/// same position, answered the same; and a search with the tables as its oracle takes the same
/// nodes and finds the same value through either type.
#[test]
fn node_indexer_reads_the_same_tables() {
    use crate::endgame::{table_id, MancalaIndexer};
    use solver::Indexer;
    use tables::{BuildOptions, Check, Tablebase};
    const K: u32 = 10;
    for (i, rules) in kalahs().enumerate() {
        let dir =
            std::env::temp_dir().join(format!("mancala-node-tables-{}-{i}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        let ix = MancalaIndexer::new(rules, 4);
        let id = table_id(&rules, 4);
        let opts = BuildOptions {
            threads: 2,
            cyclic_by_graph: false,
            stop: None,
        };
        tables::build(&ix, &id, &dir, K, &opts, &tables::Silent, |_| {}).expect("built");
        let tb = Tablebase::open(ix, id.clone(), &dir, Check::Checksums).expect("opened");
        let node_ix = KalahNodeIndexer::<4>::new(rules);
        let node_tb = Tablebase::open(node_ix, id, &dir, Check::Checksums).expect("opened");
        for layer in 0..=K {
            assert_eq!(node_ix.layer_len(layer), ix.layer_len(layer));
            for i in 0..ix.layer_len(layer) {
                let p = ix.position(layer, i);
                let node = node_ix.position(layer, i);
                assert_eq!(p.and_then(|p| KalahNode::<4>::from_position(&p)), node);
                if let (Some(p), Some(node)) = (p, node) {
                    assert_eq!(node_ix.index(&node), i);
                    assert_eq!(node_tb.probe_value(&node), tb.probe_value(&p));
                }
            }
        }
        let p = Position::start(rules, 4, 3).expect("a start");
        let node = KalahNode::<4>::from_position(&p).expect("a node");
        let cfg = SearchConfig {
            threads: 1,
            tt_bytes: 1 << 20,
            ..SearchConfig::default()
        };
        let a = Solver::new(&p, cfg.clone(), Some(&tb))
            .and_then(|mut s| s.solve(&p))
            .expect("solved");
        let b = Solver::new(&node, cfg, Some(&node_tb))
            .and_then(|mut s| s.solve(&node))
            .expect("solved");
        assert_eq!((a.value, &a.best, a.nodes), (b.value, &b.best, b.nodes));
        assert_eq!(
            (a.oracle_probes, a.oracle_hits),
            (b.oracle_probes, b.oracle_hits)
        );
        assert!(a.oracle_hits > 0);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
