//! A random layered graph, defined by hashing. Node (layer, idx); layer 0 is terminal.
//! Moves either drop to a lower layer with a random gain bounded by `max_gain` per layer dropped,
//! or stay in the layer with gain 0. In the acyclic version a same-layer move goes to a smaller
//! index; in the cyclic version to any index, so positions recur within a layer.

use crate::game::{Child, Children, Game};
use crate::retro::Indexer;

use super::rng::Rng;

#[derive(Debug)]
pub(crate) struct GraphSpec {
    pub(crate) seed: u64,
    pub(crate) layers: u32,
    pub(crate) width: u32,
    pub(crate) max_branch: u32,
    /// Percent of moves that stay in the layer.
    pub(crate) stay_pct: u64,
    /// Percent of moves that pass the turn.
    pub(crate) pass_pct: u64,
    pub(crate) max_gain: i32,
}

#[derive(Clone, Copy)]
pub(crate) struct Graph<const CYCLIC: bool> {
    pub(crate) spec: &'static GraphSpec,
    pub(crate) layer: u32,
    pub(crate) idx: u32,
}

impl<const C: bool> std::fmt::Debug for Graph<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Graph({}, {})", self.layer, self.idx)
    }
}

pub(crate) fn hash(parts: &[u64]) -> u64 {
    let mut r = Rng(0);
    for &p in parts {
        r.0 ^= p;
        r.next();
    }
    r.next()
}

impl<const CYCLIC: bool> Game for Graph<CYCLIC> {
    type Move = u8;
    const CAN_CYCLE: bool = CYCLIC;

    fn children(&self, out: &mut Children<Self>) {
        let sp = self.spec;
        if self.layer == 0 {
            return;
        }
        let h0 = hash(&[sp.seed, self.layer as u64, self.idx as u64]);
        if h0.is_multiple_of(17) {
            return; // an occasional early end of the game
        }
        let moves = 1 + (h0 >> 8) % sp.max_branch as u64;
        for j in 0..moves {
            let h = hash(&[sp.seed, self.layer as u64, self.idx as u64, j + 1]);
            let stay = h % 100 < sp.stay_pct && (CYCLIC || self.idx > 0);
            let (layer, idx, gain) = if stay {
                let bound = if CYCLIC { sp.width } else { self.idx };
                (self.layer, ((h >> 8) % bound as u64) as u32, 0)
            } else {
                let drop = 1 + ((h >> 8) % 3).min(self.layer as u64 - 1) as u32;
                let g = drop as i32 * sp.max_gain;
                let gain = ((h >> 16) % (2 * g as u64 + 1)) as i32 - g;
                (
                    self.layer - drop,
                    ((h >> 24) % sp.width as u64) as u32,
                    gain,
                )
            };
            let turn_passed = (h >> 40) % 100 < sp.pass_pct;
            out.push(Child {
                mv: j as u8,
                next: Graph {
                    spec: sp,
                    layer,
                    idx,
                },
                gain,
                turn_passed,
            });
        }
    }
    fn key(&self) -> u128 {
        (self.layer as u128) * self.spec.width as u128 + self.idx as u128
    }
    fn key_bound(&self) -> u128 {
        (self.spec.layers as u128 + 1) * self.spec.width as u128
    }
    fn stake(&self) -> i32 {
        self.layer as i32 * self.spec.max_gain
    }
    fn layer(&self) -> u32 {
        self.layer
    }
    fn move_index(mv: u8) -> u8 {
        mv
    }
}

pub(crate) fn graph_spec(
    seed: u64,
    layers: u32,
    width: u32,
    stay_pct: u64,
    pass_pct: u64,
) -> &'static GraphSpec {
    Box::leak(Box::new(GraphSpec {
        seed,
        layers,
        width,
        max_branch: 5,
        stay_pct,
        pass_pct,
        max_gain: 3,
    }))
}

pub(crate) fn all_nodes<const C: bool>(spec: &'static GraphSpec) -> Vec<Graph<C>> {
    (0..=spec.layers)
        .flat_map(|layer| (0..spec.width).map(move |idx| Graph { spec, layer, idx }))
        .collect()
}

/// The index of a [`GraphSpec`]'s layers: a node's slot is its `idx`.
pub(crate) struct GraphIx<const C: bool>(pub(crate) &'static GraphSpec);

impl<const C: bool> Indexer for GraphIx<C> {
    type G = Graph<C>;

    fn layer_len(&self, _: u32) -> u64 {
        u64::from(self.0.width)
    }

    fn index(&self, pos: &Graph<C>) -> u64 {
        u64::from(pos.idx)
    }

    fn position(&self, layer: u32, index: u64) -> Option<Graph<C>> {
        Some(Graph {
            spec: self.0,
            layer,
            idx: index as u32,
        })
    }
}

/// A game searched with other flags: as if it could cycle (`CYCLE`: the path bookkeeping must
/// change no value), or with its children generated first (`EARLY`, [`Game::EARLY_CHILDREN`]:
/// the tree must stay the same).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Flagged<G, const CYCLE: bool, const EARLY: bool>(pub(crate) G);

/// An acyclic game searched as if it could cycle.
pub(crate) type CycleFlag<G> = Flagged<G, true, false>;

impl<G: Game<Move = u8>, const CYCLE: bool, const EARLY: bool> Game for Flagged<G, CYCLE, EARLY> {
    type Move = u8;
    const CAN_CYCLE: bool = CYCLE || G::CAN_CYCLE;
    const EARLY_CHILDREN: bool = EARLY;
    fn children(&self, out: &mut Children<Self>) {
        let mut ch = Children::new();
        self.0.children(&mut ch);
        for c in ch.as_slice() {
            out.push(Child {
                mv: c.mv,
                next: Flagged(c.next),
                gain: c.gain,
                turn_passed: c.turn_passed,
            });
        }
    }
    fn key(&self) -> u128 {
        self.0.key()
    }
    fn key_bound(&self) -> u128 {
        self.0.key_bound()
    }
    fn stake(&self) -> i32 {
        self.0.stake()
    }
    fn layer(&self) -> u32 {
        self.0.layer()
    }
    fn move_index(mv: u8) -> u8 {
        G::move_index(mv)
    }
}
