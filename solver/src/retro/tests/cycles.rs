//! The cyclic solvers (the lean passes and the graph algorithm) against brute force and the
//! first-cycle search, on `Track` and random cyclic graphs.

use super::*;

#[test]
fn retro_track_matches_brute_force_and_first_cycle_search() {
    let ix = TrackIx;
    let top = 6;
    let got = solve_all(&ix, top, solve_layer_fn());
    assert_tables_eq(&ix, &got, &brute_all(&ix, top), "Track vs brute force");
    assert_tables_eq(
        &ix,
        &got,
        &first_cycle_all(&ix, top),
        "Track vs first-cycle search",
    );
    // Hand-checked values in layer 1 (F for the side to move; layer 0 is all 0):
    // 0 -> 1 -> 2 -> 0 all pass the turn: F(0) = -F(1) = F(2), and F(2) = max(-F(0), 1) (taking
    //    wins 1 and ends the game). So F(2) = max(-F(2), 1), whose only solution is 1.
    // 3: the self-loop is endless (0); the exit loses 1: F(3) = 0.
    // 7: -> 0 keeping the turn is worth F(0) = 1, the best there is: F(7) = 1.
    // 6: its only move (take 2 needs s >= 2) is -> 7 passing: F(6) = -1.
    // 4: -> 6 passing is worth 1; 5: -> 4 keeping the turn beats losing 1: F(4) = F(5) = 1.
    // 8: a forced endless self-loop: 0.
    assert_eq!(&got[1][..9], &[1, -1, 1, 0, 1, 1, -1, 1, 0]);
    assert_eq!(got[1][9], 0, "unused slot");
    let all: Vec<i16> = got.iter().flatten().copied().collect();
    assert!(
        all.iter().any(|&v| v >= 3) && all.iter().any(|&v| v < 0),
        "{all:?}"
    );
}

#[test]
fn retro_random_cyclic_matches_brute_force() {
    let mut rng = Rng(11);
    for round in 0..60 {
        let sizes = random_sizes(&mut rng, 6, 40);
        let g = RGraph::new(rng.next(), &sizes, 4, 2, false);
        let ix = RandIx::<true>(g);
        let top = sizes.len() as u32 - 1;
        let got = solve_all(&ix, top, solve_layer_fn());
        assert_tables_eq(
            &ix,
            &got,
            &brute_all(&ix, top),
            &format!("round {round}: cyclic vs brute force"),
        );
    }
}

#[test]
fn retro_lean_passes_equal_the_graph_algorithm_and_brute_force() {
    // Track, Digits (acyclic, through the passes too), and random graphs: mixed, and cycle-heavy
    // ones (many internal edges, at most one exit: long forced chains, many endless draws).
    let track = TrackIx;
    let lean = solve_all(&track, 6, passes_fn());
    assert!(lean == solve_all(&track, 6, cyclic_fn()), "Track");
    assert_tables_eq(
        &track,
        &lean,
        &brute_all(&track, 6),
        "Track, lean vs brute force",
    );
    let digits = DigitsIx { d: 4 };
    let lean = solve_all(&digits, 5, passes_fn());
    assert!(lean == solve_all(&digits, 5, cyclic_fn()), "Digits");
    assert_tables_eq(
        &digits,
        &lean,
        &minimax_all(&digits, 5),
        "Digits, lean vs minimax",
    );
    let mut rng = Rng(17);
    for round in 0..80 {
        let heavy = round % 2 == 1;
        let sizes = random_sizes(&mut rng, 6, if heavy { 300 } else { 60 });
        let (internal, exits) = if heavy { (6, 1) } else { (4, 2) };
        let g = RGraph::new(rng.next(), &sizes, internal, exits, false);
        let ix = RandIx::<true>(g);
        let top = sizes.len() as u32 - 1;
        let lean = solve_all(&ix, top, passes_fn());
        let graph = solve_all(&ix, top, cyclic_fn());
        assert!(lean == graph, "round {round}: lean vs graph");
        assert_tables_eq(
            &ix,
            &lean,
            &brute_all(&ix, top),
            &format!("round {round}: lean vs brute force"),
        );
    }
}

#[test]
fn retro_lean_passes_follow_long_chains_against_the_slot_order() {
    // A chain in which every slot's only move leads to the next higher slot and the top one
    // exits: each pass in slot order moves the value down by one slot only, so this needs
    // about as many passes as the chain is long, and every slot must end with the exit's value
    // (or its negation, turn passing at every step).
    let n = 2 * 4096 + 5; // several chunks
    let mut nodes = Vec::new();
    for x in 0..n {
        let internal = if x + 1 < n {
            vec![(x + 1, true)]
        } else {
            vec![]
        };
        let exits = if x + 1 < n {
            vec![]
        } else {
            vec![(0, 0, 2, false)]
        };
        nodes.push(RNode { internal, exits });
    }
    let layer0 = vec![RNode {
        internal: vec![],
        exits: vec![],
    }];
    let g: &'static RGraph = Box::leak(Box::new(RGraph {
        layers: vec![layer0, nodes],
    }));
    let ix = RandIx::<true>(g);
    let lean = with_threads(2, || solve_all(&ix, 1, passes_fn()));
    assert!(lean == solve_all(&ix, 1, cyclic_fn()));
    let last = n as usize - 1;
    for (x, &v) in lean[1][..last].iter().enumerate() {
        let want = if (last - x).is_multiple_of(2) { 2 } else { -2 };
        assert_eq!(v, want, "slot {x}");
    }
}

#[test]
fn retro_random_cyclic_small_matches_first_cycle_search() {
    let mut rng = Rng(13);
    for round in 0..200 {
        let sizes = random_sizes(&mut rng, 4, 6);
        let g = RGraph::new(rng.next(), &sizes, 3, 2, false);
        let ix = RandIx::<true>(g);
        let top = sizes.len() as u32 - 1;
        let got = solve_all(&ix, top, solve_layer_fn());
        assert_tables_eq(
            &ix,
            &got,
            &first_cycle_all(&ix, top),
            &format!("round {round}: vs first-cycle search"),
        );
    }
}

#[test]
fn retro_random_cyclic_values_are_varied() {
    // Guards the random tests against testing only zeros.
    let mut rng = Rng(11);
    let mut seen = BTreeSet::new();
    for _ in 0..20 {
        let sizes = random_sizes(&mut rng, 6, 40);
        let g = RGraph::new(rng.next(), &sizes, 4, 2, false);
        for t in solve_all(&RandIx::<true>(g), sizes.len() as u32 - 1, solve_layer_fn()) {
            seen.extend(t);
        }
    }
    assert!(seen.len() >= 9 && seen.contains(&0), "{seen:?}");
}
