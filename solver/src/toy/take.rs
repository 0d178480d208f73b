//! Take-away. A row of tokens with values; take 1, 2 or 3 from the end and win their
//! sum. Taking exactly 2 keeps the turn. Key = tokens left (the values are fixed per game).

use crate::game::{Child, Children, Game};

use super::rng::Rng;

#[derive(Debug)]
pub(crate) struct TakeSpec {
    pub(crate) vals: Vec<i32>,
}

#[derive(Clone, Copy)]
pub(crate) struct Take {
    pub(crate) spec: &'static TakeSpec,
    pub(crate) n: usize,
}

impl std::fmt::Debug for Take {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Take({})", self.n)
    }
}

impl Game for Take {
    type Move = u8;
    const CAN_CYCLE: bool = false;

    fn children(&self, out: &mut Children<Self>) {
        for k in 1..=3.min(self.n) {
            let gain = self.spec.vals[self.n - k..self.n].iter().sum();
            let next = Take {
                spec: self.spec,
                n: self.n - k,
            };
            out.push(Child {
                mv: k as u8,
                next,
                gain,
                turn_passed: k != 2,
            });
        }
    }
    fn key(&self) -> u128 {
        self.n as u128
    }
    fn key_bound(&self) -> u128 {
        self.spec.vals.len() as u128 + 1
    }
    fn stake(&self) -> i32 {
        self.spec.vals[..self.n].iter().map(|v| v.abs()).sum()
    }
    fn layer(&self) -> u32 {
        self.n as u32
    }
    fn move_index(mv: u8) -> u8 {
        mv - 1
    }
    fn is_over(&self) -> bool {
        self.n == 0
    }
}

pub(crate) fn take_game(seed: u64, len: usize, lo: i32, hi: i32) -> Take {
    let mut r = Rng(seed);
    let vals = (0..len)
        .map(|_| lo + (r.next() % (hi - lo + 1) as u64) as i32)
        .collect();
    Take {
        spec: Box::leak(Box::new(TakeSpec { vals })),
        n: len,
    }
}

/// A take-away game whose keys claim to need far more room than a small table has: keys below
/// `2^BITS` (all of `u128` for 128), the game's own keys moved up to bit `BITS - 2`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WideKeys<const BITS: u32 = 60>(pub(crate) Take);

impl<const BITS: u32> Game for WideKeys<BITS> {
    type Move = u8;
    const CAN_CYCLE: bool = false;
    fn children(&self, out: &mut Children<Self>) {
        let mut ch = Children::new();
        self.0.children(&mut ch);
        for c in ch.as_slice() {
            out.push(Child {
                mv: c.mv,
                next: WideKeys(c.next),
                gain: c.gain,
                turn_passed: c.turn_passed,
            });
        }
    }
    fn key(&self) -> u128 {
        self.0.key() + (1 << (BITS - 2))
    }
    fn key_bound(&self) -> u128 {
        if BITS == 128 {
            u128::MAX
        } else {
            1 << BITS
        }
    }
    fn stake(&self) -> i32 {
        self.0.stake()
    }
    fn layer(&self) -> u32 {
        self.0.layer()
    }
    fn move_index(mv: u8) -> u8 {
        mv - 1
    }
}
