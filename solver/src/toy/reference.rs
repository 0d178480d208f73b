//! Slow reference solvers to check the search and the retrograde analysis against:
//!
//! - [`brute_all`]: docs/rules.md §8.5 verbatim, by naive iteration on the explicit doubled graph (least
//!   fixpoints for `t > 0`, greatest for `t <= 0`), layer by layer over an [`Indexer`];
//! - [`minimax`]: plain memoised minimax over the definition (acyclic games only).

use std::collections::{BTreeSet, HashMap};

use crate::game::{Children, Game};
use crate::retro::Indexer;

#[derive(Clone, Copy)]
pub(crate) enum Mv {
    Exit(i32),
    Int(usize, bool),
}

/// Every layer by brute force, each from the brute-force values of the layers below.
pub(crate) fn brute_all<I: Indexer>(ix: &I, top: u32) -> Vec<Vec<i32>> {
    let mut tables: Vec<Vec<i32>> = Vec::new();
    for layer in 0..=top {
        let t = brute_layer(ix, layer, &|p: &I::G| {
            tables[p.layer() as usize][ix.index(p) as usize]
        });
        tables.push(t);
    }
    tables
}

/// One layer by §8.5. Node `(x, 0)` has the maximiser A to move, `(x, 1)` the minimiser B; an
/// edge that passes the turn switches between them; an exit of value `e` (for x's mover) pays A
/// `e` at `(x, 0)` and `-e` at `(x, 1)`. `F(x) = max { t : (x, 0) ∈ W_t }`.
pub(crate) fn brute_layer<I: Indexer>(
    ix: &I,
    layer: u32,
    lower: &dyn Fn(&I::G) -> i32,
) -> Vec<i32> {
    let n = ix.layer_len(layer) as usize;
    let mut moves: Vec<Vec<Mv>> = Vec::with_capacity(n);
    let mut thresholds = BTreeSet::from([0]);
    for slot in 0..n {
        let mut list = Vec::new();
        if let Some(pos) = ix.position(layer, slot as u64) {
            let mut kids = Children::new();
            pos.children(&mut kids);
            for c in kids.as_slice() {
                let sign = if c.turn_passed { -1 } else { 1 };
                if c.next.layer() < layer {
                    list.push(Mv::Exit(c.gain + sign * lower(&c.next)));
                } else if c.next.is_over() {
                    list.push(Mv::Exit(c.gain));
                } else {
                    assert_eq!(c.gain, 0);
                    list.push(Mv::Int(ix.index(&c.next) as usize, c.turn_passed));
                }
            }
        }
        if list.is_empty() {
            list.push(Mv::Exit(0)); // game over
        }
        for m in &list {
            if let Mv::Exit(e) = *m {
                thresholds.insert(e);
                thresholds.insert(-e);
            }
        }
        moves.push(list);
    }
    let mut f = vec![i32::MIN; n];
    for &t in &thresholds {
        // Least fixpoint from the empty set for t > 0, greatest from the full set for t <= 0.
        let mut w = vec![[t <= 0; 2]; n];
        loop {
            let mut next = w.clone();
            for x in 0..n {
                next[x][0] = moves[x].iter().any(|m| match *m {
                    Mv::Exit(e) => e >= t,
                    Mv::Int(y, passed) => w[y][passed as usize],
                });
                next[x][1] = moves[x].iter().all(|m| match *m {
                    Mv::Exit(e) => -e >= t,
                    Mv::Int(y, passed) => w[y][1 ^ passed as usize],
                });
            }
            if next == w {
                break;
            }
            w = next;
        }
        for x in 0..n {
            if w[x][0] {
                f[x] = f[x].max(t);
            }
        }
    }
    f
}

pub(crate) fn minimax<G: Game>(pos: &G, memo: &mut HashMap<u128, i32>) -> i32 {
    if let Some(&v) = memo.get(&pos.key()) {
        return v;
    }
    let mut kids = Children::new();
    pos.children(&mut kids);
    let v = kids
        .as_slice()
        .iter()
        .map(|c| {
            let f = minimax(&c.next, memo);
            c.gain + if c.turn_passed { -f } else { f }
        })
        .max()
        .unwrap_or(0);
    memo.insert(pos.key(), v);
    v
}

pub(crate) fn minimax_all<I: Indexer>(ix: &I, top: u32) -> Vec<Vec<i32>> {
    let mut memo = HashMap::new();
    (0..=top)
        .map(|l| {
            (0..ix.layer_len(l))
                .map(|s| ix.position(l, s).map_or(0, |p| minimax(&p, &mut memo)))
                .collect()
        })
        .collect()
}
