//! The brute-force solver: exact values by whole-graph retrograde analysis per seed-count layer
//! (docs/rules.md §8.5), cycle-safe, with no search heuristics to share bugs with the main solver.
//! It runs on plain positions ([`RefPos`]) and on match rounds with pit statuses ([`RefRound`]).

use super::board::{board_of, board_sum};
use super::engine::{candidates, normalize, play};
use super::notation::format;
use super::rounds::{format_round, round_legal, round_normalize, round_play, RefRound};
use super::{RefGame, RefPos};
use std::collections::{BTreeSet, HashMap};
use std::hash::Hash;

/// The same position with both stores set to 0 (the key of the future margin F).
pub(super) fn strip(p: &RefPos) -> RefPos {
    RefPos {
        stores: [0, 0],
        ..p.clone()
    }
}

pub(super) fn store_diff(p: &RefPos) -> i32 {
    p.stores[0] as i32 - p.stores[1] as i32
}

/// What the brute force needs of a position: plain ones and match rounds alike.
trait Node: Clone + Eq + Hash {
    fn pos(&self) -> &RefPos;
    /// The same position with both stores 0.
    fn stripped(&self) -> Self;
    /// The results of the legal moves (normalised, stores included).
    fn successors(&self, g: RefGame) -> Vec<Self>;
    fn text(&self) -> String;
}

impl Node for RefPos {
    fn pos(&self) -> &RefPos {
        self
    }
    fn stripped(&self) -> Self {
        strip(self)
    }
    fn successors(&self, g: RefGame) -> Vec<Self> {
        // `play` rejects a candidate only when its sowing is endless, so this visits exactly
        // the legal moves (sowing each one once).
        candidates(g, self)
            .into_iter()
            .filter_map(|mv| play(g, self, mv).ok())
            .collect()
    }
    fn text(&self) -> String {
        format(self)
    }
}

impl Node for RefRound {
    fn pos(&self) -> &RefPos {
        &self.pos
    }
    fn stripped(&self) -> Self {
        RefRound {
            pos: strip(&self.pos),
            status: self.status.clone(),
        }
    }
    fn successors(&self, g: RefGame) -> Vec<Self> {
        round_legal(g, self)
            .into_iter()
            .map(|mv| round_play(g, self, mv).expect("a legal move"))
            .collect()
    }
    fn text(&self) -> String {
        format_round(self)
    }
}

/// Every normalised stripped position reachable from the root, with its moves as
/// (store change South-minus-North, successor index).
struct Graph<N> {
    nodes: Vec<N>,
    edges: Vec<Vec<(i32, usize)>>,
}

fn explore<N: Node>(g: RefGame, root: &N) -> Graph<N> {
    let mut index: HashMap<N, usize> = HashMap::new();
    let mut nodes = vec![root.clone()];
    let mut edges = Vec::new();
    index.insert(root.clone(), 0);
    let mut i = 0;
    while i < nodes.len() {
        let x = nodes[i].clone();
        let mut out = Vec::new();
        for r in x.successors(g) {
            let d = store_diff(r.pos()); // x has empty stores
            let key = r.stripped();
            let j = match index.get(&key) {
                Some(&j) => j,
                None => {
                    nodes.push(key.clone());
                    index.insert(key, nodes.len() - 1);
                    nodes.len() - 1
                }
            };
            out.push((d, j));
        }
        if x.pos().to_move.is_some() {
            assert!(
                !out.is_empty(),
                "normalised position without legal move: {}",
                x.text()
            );
        }
        edges.push(out);
        i += 1;
    }
    Graph { nodes, edges }
}

/// Future margin F (South minus North, stores excluded) of every node of the graph.
fn solve_graph<N: Node>(graph: &Graph<N>) -> Vec<i32> {
    let count = graph.nodes.len();
    let seeds: Vec<u32> = graph
        .nodes
        .iter()
        .map(|p| board_sum(&board_of(p.pos())))
        .collect();
    // Finished games have future margin 0; everything else is solved layer by layer.
    let mut f: Vec<Option<i32>> = graph
        .nodes
        .iter()
        .map(|p| {
            if p.pos().to_move.is_none() {
                Some(0)
            } else {
                None
            }
        })
        .collect();
    let layers: BTreeSet<u32> = seeds.iter().copied().collect();
    for k in layers {
        let layer: Vec<usize> = (0..count)
            .filter(|&i| seeds[i] == k && f[i].is_none())
            .collect();
        if layer.is_empty() {
            continue;
        }
        solve_layer(graph, &seeds, k, &layer, &mut f);
    }
    f.into_iter().map(|v| v.expect("solved")).collect()
}

/// Solves one seed-count layer `k` (docs/rules.md §8.5), all lower layers being solved already.
/// For each threshold t in T = {exit values} ∪ {0}, W_t is computed by iterating its set
/// equation from the empty set (t > 0: least fixpoint, South must really reach an exit >= t)
/// or from the whole layer (t <= 0: greatest fixpoint, staying in the layer forever earns 0).
/// Updates are done in place; as the equation is monotone, this still converges to the
/// least (respectively greatest) fixpoint. Then F(x) = max { t : x in W_t }.
fn solve_layer<N: Node>(
    graph: &Graph<N>,
    seeds: &[u32],
    k: u32,
    layer: &[usize],
    f: &mut [Option<i32>],
) {
    // Layer-local index of each graph node of the layer.
    let mut local: HashMap<usize, usize> = HashMap::new();
    for (li, &x) in layer.iter().enumerate() {
        local.insert(x, li);
    }
    // For each position of the layer: the best exit value for the side to move (South needs
    // *some* exit >= t, i.e. max exit >= t; North needs *every* exit >= t, i.e. min exit >= t),
    // and the internal edges (layer-local indices).
    let mut best_exit: Vec<Option<i32>> = Vec::new();
    let mut internal: Vec<Vec<usize>> = Vec::new();
    let mut south: Vec<bool> = Vec::new();
    let mut thresholds: BTreeSet<i32> = BTreeSet::new();
    thresholds.insert(0);
    for &x in layer {
        let is_south = graph.nodes[x].pos().to_move == Some(0);
        let mut ex: Option<i32> = None;
        let mut int = Vec::new();
        for &(d, y) in &graph.edges[x] {
            let terminal = graph.nodes[y].pos().to_move.is_none();
            if terminal || seeds[y] < k {
                let v = d + f[y].expect("lower layer solved");
                thresholds.insert(v);
                ex = Some(match ex {
                    None => v,
                    Some(e) if is_south => e.max(v),
                    Some(e) => e.min(v),
                });
            } else {
                assert_eq!(seeds[y], k, "seed count increased");
                assert_eq!(d, 0, "internal edge changed the stores");
                int.push(local[&y]);
            }
        }
        best_exit.push(ex);
        internal.push(int);
        south.push(is_south);
    }
    let len = layer.len();
    let mut best = vec![i32::MIN; len];
    for &t in &thresholds {
        // t > 0: least fixpoint (attractor); t <= 0: greatest fixpoint.
        let mut w = vec![t <= 0; len];
        loop {
            let mut changed = false;
            for i in (0..len).rev() {
                let new = if south[i] {
                    // Some exit >= t, or some internal edge into W_t.
                    let good_exit = matches!(best_exit[i], Some(v) if v >= t);
                    good_exit || internal[i].iter().any(|&j| w[j])
                } else {
                    // Every exit >= t, and every internal edge into W_t.
                    let all_exits_good = match best_exit[i] {
                        None => true,
                        Some(v) => v >= t,
                    };
                    all_exits_good && internal[i].iter().all(|&j| w[j])
                };
                if new != w[i] {
                    w[i] = new;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        for i in 0..len {
            if w[i] && t > best[i] {
                best[i] = t;
            }
        }
    }
    for (li, &x) in layer.iter().enumerate() {
        assert!(best[li] != i32::MIN);
        f[x] = Some(best[li]);
    }
}

/// Exact perfect-play value: final South-minus-North score, stores included (§2.8, §2.10).
pub fn value(g: RefGame, p: &RefPos) -> i32 {
    let root = normalize(g, p);
    if root.to_move.is_none() {
        return store_diff(&root);
    }
    let graph = explore(g, &strip(&root));
    let f = solve_graph(&graph);
    store_diff(&root) + f[0]
}

/// [`value`] of a match round (§13.5): the same retrograde analysis on the round's own rules
/// (burnt pits, sons), which stay fixed in every position of the graph.
pub fn round_value(g: RefGame, r: &RefRound) -> i32 {
    let root = round_normalize(g, r);
    if root.pos.to_move.is_none() {
        return store_diff(&root.pos);
    }
    let graph = explore(g, &root.stripped());
    let f = solve_graph(&graph);
    store_diff(&root.pos) + f[0]
}

#[cfg(test)]
mod tests {
    use super::super::board::make_pos;
    use super::super::engine::{legal_moves, start};
    use super::super::tests::*;
    use super::*;
    use std::collections::HashSet;

    /// Checks the brute force against the docs/rules.md §3.7 rows of `tests/data/kalah_start_values.csv`
    /// that `select` picks; returns how many it checked.
    fn check_kalah_start_values(select: impl Fn(usize, u32) -> bool) -> usize {
        let mut checked = 0;
        for r in crate::util::kalah_start_values() {
            let (holes, seeds) = (r.holes as usize, r.seeds as u32);
            if !r.source.contains("docs/rules.md") || !select(holes, seeds) {
                continue;
            }
            let g = RefGame::Kalah {
                empty_capture: r.rules.empty_capture,
                end_when_mover_empty: r.rules.end_when_mover_empty,
                leftovers_unscored: false,
            };
            let v = value(g, &start(g, holes, seeds));
            assert_eq!(v, r.value, "{g:?} {holes}x{seeds}");
            checked += 1;
        }
        checked
    }

    /// The two largest rows of the §3.7 table: 4 x 3 (about 1.4-1.5 million positions,
    /// 15-30 s per option column in release) and 6 x 1 (up to 600 000 positions, up to ~10 s).
    fn is_big_kalah_row(holes: usize, seeds: u32) -> bool {
        (holes, seeds) == (4, 3) || (holes, seeds) == (6, 1)
    }

    /// Every row of the §3.7 table except the two largest (about 7 s in release).
    #[test]
    fn kalah_start_values_table() {
        assert_eq!(
            check_kalah_start_values(|h, s| !is_big_kalah_row(h, s)),
            15 * 4
        );
    }

    /// Rows 4 x 3 and 6 x 1 of the §3.7 table: 1.5-2.5 minutes in release (machine-dependent).
    #[test]
    #[ignore = "slow: 1.5-2.5 minutes in release"]
    fn kalah_start_values_table_big_rows() {
        assert_eq!(check_kalah_start_values(is_big_kalah_row), 2 * 4);
    }

    // ----- solver cross-checks -----

    /// Plain memoised minimax of the future margin F (South minus North) for acyclic games.
    fn minimax(g: RefGame, x: &RefPos, memo: &mut HashMap<RefPos, i32>) -> i32 {
        if x.to_move.is_none() {
            return 0;
        }
        if let Some(&v) = memo.get(x) {
            return v;
        }
        let mut best: Option<i32> = None;
        for mv in legal_moves(g, x) {
            let r = play(g, x, mv).unwrap();
            let v = store_diff(&r) + minimax(g, &strip(&r), memo);
            best = Some(match best {
                None => v,
                Some(b) if x.to_move == Some(0) => b.max(v),
                Some(b) => b.min(v),
            });
        }
        let v = best.expect("a legal move");
        memo.insert(x.clone(), v);
        v
    }

    fn minimax_value(g: RefGame, p: &RefPos) -> i32 {
        let root = normalize(g, p);
        store_diff(&root) + minimax(g, &strip(&root), &mut HashMap::new())
    }

    /// Depth-first minimax without a table, scoring a repetition on the path as 0 further
    /// margin (§2.10: correct for the root only). Exponential; tiny positions only.
    fn path_minimax(g: RefGame, x: &RefPos, path: &mut HashSet<RefPos>) -> i32 {
        if x.to_move.is_none() || path.contains(x) {
            return 0;
        }
        path.insert(x.clone());
        let mut best: Option<i32> = None;
        for mv in legal_moves(g, x) {
            let r = play(g, x, mv).unwrap();
            let v = store_diff(&r) + path_minimax(g, &strip(&r), path);
            best = Some(match best {
                None => v,
                Some(b) if x.to_move == Some(0) => b.max(v),
                Some(b) => b.min(v),
            });
        }
        path.remove(x);
        best.expect("a legal move")
    }

    fn path_value(g: RefGame, p: &RefPos) -> i32 {
        let root = normalize(g, p);
        store_diff(&root) + path_minimax(g, &strip(&root), &mut HashSet::new())
    }

    #[test]
    fn layer_solver_matches_minimax_kalah() {
        for g in [KALAH, KALAH_MOVER, KALAH_EC, KALAH_BOTH] {
            for (holes, seeds) in [
                (1, 1),
                (1, 5),
                (2, 3),
                (2, 5),
                (3, 1),
                (3, 2),
                (3, 3),
                (4, 1),
                (5, 1),
            ] {
                let s = start(g, holes, seeds);
                assert_eq!(value(g, &s), minimax_value(g, &s), "{g:?} {holes}x{seeds}");
            }
            // Positions after each opening move (including extra turns), and asymmetric ones.
            let s = start(g, 3, 3);
            for mv in legal_moves(g, &s) {
                let r = play(g, &s, mv).unwrap();
                assert_eq!(value(g, &r), minimax_value(g, &r), "{g:?} after {mv}");
            }
            for p in [
                "3,0,5,1/2,4,0,1/7,3/N",
                "0,0,1,6/2,0,0,3/1,0/S",
                "9,0,0,0/1,1,0,2/0,0/S",
            ] {
                let p = pos(p);
                assert_eq!(value(g, &p), minimax_value(g, &p), "{g:?} {}", format(&p));
            }
        }
    }

    #[test]
    fn layer_solver_matches_minimax_dakon() {
        for g in [DAKON, DAKON_LANDING, DAKON_NO_MIKUL, DAKON_BOTH] {
            for (holes, seeds) in [(3, 1), (3, 2), (3, 3), (3, 4), (4, 1), (4, 2), (5, 1)] {
                let s = start(g, holes, seeds);
                assert_eq!(value(g, &s), minimax_value(g, &s), "{g:?} {holes}x{seeds}");
            }
            for p in [
                "1,1,1,1,2/1,0,2,1,1/0,0/S",
                "1,0,1,1,1/1,1,1,5,1/0,0/S",
                "0,2,1,0/1,2,0,2/5,1/N",
                "2,0,3/1,1,1/0,0/S",
                "0,0,0,0,0,0,1/3,0,0,0,0,0,0/40,54/S",
            ] {
                let p = pos(p);
                assert_eq!(value(g, &p), minimax_value(g, &p), "{g:?} {}", format(&p));
            }
        }
    }

    #[test]
    fn layer_solver_matches_path_minimax_cyclic_games() {
        // The cross-turn cycles W3 and Y3 of docs/rules.md, entered at two of their positions.
        let w3 = crate::util::example_positions("W3");
        let y3 = crate::util::example_positions("Y3");
        let cases: Vec<(RefGame, &str)> = vec![
            (WALAK, &w3[0]),
            (WALAK, &w3[3]),
            (WALAK_SR, &w3[0]),
            (SANYAO, &y3[0]),
            (SANYAO, &y3[5]),
            (WALAK, "1,1/1,1/0,0/S"),
            (WALAK, "2,0,1/0,1,0/0,0/N"),
            (WALAK_SR, "2,1/1,1/0,0/S"),
            (SANYAO, "1,1/1,1/0,0/S"),
            (SANYAO, "2,0,1/0,1,1/0,0/S"),
            (SANYAO, "0,0,1/1,1,0/3,4/N"),
            (DJENON, "2,2/1,1/0,0/S"),
            (DJENON, "3,0,1/1,2,0/0,0/N"),
            (DJENON, "2,2,1/1,2,1/0,0/S"),
        ];
        for (g, s) in cases {
            let p = pos(s);
            assert_eq!(value(g, &p), path_value(g, &p), "{g:?} {s}");
        }
    }

    /// Random small positions of the cyclic games: the layer solver agrees with the
    /// path-cut depth-first search at the root (§2.10).
    #[test]
    fn layer_solver_matches_path_minimax_random() {
        let mut rand = crate::util::lcg(0x2545_f491_4f6c_dd1d);
        for g in [DJENON, WALAK, WALAK_SR, SANYAO] {
            for _ in 0..60 {
                let n = 2 + rand(2) as usize;
                let total = 2 + rand(5) as u32;
                let mut board = vec![0u32; 2 * n];
                for _ in 0..total {
                    board[rand(2 * n as u64) as usize] += 1;
                }
                let side = rand(2) as usize;
                let p = make_pos(&board, [rand(5) as u32, rand(5) as u32], Some(side));
                assert_eq!(value(g, &p), path_value(g, &p), "{g:?} {}", format(&p));
            }
        }
    }

    #[test]
    fn small_starts_solve_for_every_game() {
        // Values are within the seed bounds and the solver terminates on cyclic games.
        for g in [DJENON, WALAK, WALAK_SR, SANYAO] {
            for holes in 2..=3 {
                for seeds in 1..=2 {
                    let s = start(g, holes, seeds);
                    let v = value(g, &s);
                    let total = (2 * holes) as i32 * seeds as i32;
                    assert!(v.abs() <= total, "{g:?} {holes}x{seeds}: {v}");
                }
            }
        }
    }
}
