//! `Rand`, random layered graphs.
//!
//! Each node has random internal edges (any target of its layer, itself included, repeated
//! targets allowed, passing the turn at random) and random exits to nodes of lower layers with
//! gains in -3..=3. Some nodes have no move at all. Each node stands for two positions (`tag` 0
//! and 1) with the same moves, which share a slot; the moves lead to either tag. The last slot of
//! each layer is unused. With `C == false` internal edges only go to lower-numbered nodes.

use super::rng::{mix, Rng};
use crate::game::{Child, Children, Game};
use crate::retro::Indexer;

#[derive(Debug)]
pub(crate) struct RNode {
    pub(crate) internal: Vec<(u32, bool)>,
    pub(crate) exits: Vec<(u32, u32, i32, bool)>,
}

pub(crate) struct RGraph {
    pub(crate) layers: Vec<Vec<RNode>>,
}

impl std::fmt::Debug for RGraph {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "RGraph({} layers)", self.layers.len())
    }
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Rand<const C: bool> {
    pub(crate) g: &'static RGraph,
    pub(crate) layer: u32,
    pub(crate) node: u32,
    pub(crate) tag: u8,
}

impl RGraph {
    /// `sizes` gives the number of nodes per layer; `max_internal`, `max_exits` the most edges
    /// of each kind per node.
    pub(crate) fn new(
        start: u64,
        sizes: &[u32],
        max_internal: u64,
        max_exits: u64,
        acyclic: bool,
    ) -> &'static RGraph {
        let mut rng = Rng(start);
        let layers = sizes
            .iter()
            .enumerate()
            .map(|(l, &n)| {
                (0..n)
                    .map(|x| {
                        if rng.chance(8) {
                            return RNode {
                                internal: vec![],
                                exits: vec![],
                            };
                        }
                        let mut internal = Vec::new();
                        for _ in 0..rng.below(max_internal + 1) {
                            let t = if acyclic {
                                if x == 0 {
                                    continue;
                                }
                                rng.below(u64::from(x)) as u32
                            } else {
                                rng.below(u64::from(n)) as u32
                            };
                            internal.push((t, rng.chance(50)));
                        }
                        let mut exits = Vec::new();
                        if l > 0 {
                            for _ in 0..rng.below(max_exits + 1) {
                                let tl = rng.below(l as u64) as u32;
                                let tn = rng.below(u64::from(sizes[tl as usize])) as u32;
                                exits.push((tl, tn, rng.below(7) as i32 - 3, rng.chance(50)));
                            }
                        }
                        RNode { internal, exits }
                    })
                    .collect()
            })
            .collect();
        Box::leak(Box::new(RGraph { layers }))
    }
}

impl<const C: bool> Game for Rand<C> {
    type Move = u8;
    const CAN_CYCLE: bool = C;

    fn children(&self, out: &mut Children<Self>) {
        let node = &self.g.layers[self.layer as usize][self.node as usize];
        let mut mv = 0u8;
        let mut push = |layer: u32, n: u32, gain: i32, passed: bool| {
            let tag = (mix(u64::from(self.node) << 8 | u64::from(mv)) & 1) as u8;
            out.push(Child {
                mv,
                next: Rand {
                    g: self.g,
                    layer,
                    node: n,
                    tag,
                },
                gain,
                turn_passed: passed,
            });
            mv += 1;
        };
        for &(t, passed) in &node.internal {
            push(self.layer, t, 0, passed);
        }
        for &(tl, tn, gain, passed) in &node.exits {
            push(tl, tn, gain, passed);
        }
    }

    fn key(&self) -> u128 {
        u128::from(self.layer) << 64 | u128::from(self.node) << 1 | u128::from(self.tag)
    }

    fn key_bound(&self) -> u128 {
        1 << 80
    }

    fn stake(&self) -> i32 {
        1000
    }

    fn layer(&self) -> u32 {
        self.layer
    }

    fn move_index(mv: u8) -> u8 {
        mv
    }
}

pub(crate) struct RandIx<const C: bool>(pub(crate) &'static RGraph);

impl<const C: bool> Indexer for RandIx<C> {
    type G = Rand<C>;

    fn layer_len(&self, layer: u32) -> u64 {
        self.0.layers[layer as usize].len() as u64 + 1
    }

    fn index(&self, pos: &Rand<C>) -> u64 {
        u64::from(pos.node)
    }

    fn position(&self, layer: u32, index: u64) -> Option<Rand<C>> {
        (index < self.0.layers[layer as usize].len() as u64).then_some(Rand {
            g: self.0,
            layer,
            node: index as u32,
            tag: 0,
        })
    }
}

pub(crate) fn random_sizes(rng: &mut Rng, layers: u32, max: u64) -> Vec<u32> {
    (0..layers).map(|_| 1 + rng.below(max) as u32).collect()
}
