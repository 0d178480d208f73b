//! `Digits`, an acyclic toy game.
//!
//! A position is a stake `s` (the layer) and a number `p < 4^d`, read as `d` base-4 digits.
//! - Lowering one nonzero digit by 1 is an internal move (gain 0); it keeps the turn or passes it
//!   depending on the digit's value and place. The digit sum falls, so layers are acyclic, and the
//!   longest internal path is at most 3d moves.
//! - Taking k in {1, 2} (k <= s) wins k, loses k or wins nothing (by a hash), passes the turn or
//!   not (by a hash), and lands on a hashed number in layer s - k.
//! - Stake 0, and every p = 5 (mod 13), is game over.

use super::rng::mix;
use crate::game::{Child, Children, Game};
use crate::retro::Indexer;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Digits {
    pub(crate) s: u8,
    pub(crate) p: u32,
    pub(crate) d: u8,
}

impl Digits {
    pub(crate) fn len(d: u8) -> u64 {
        1 << (2 * d)
    }
}

impl Game for Digits {
    type Move = u8;
    const CAN_CYCLE: bool = false;

    fn children(&self, out: &mut Children<Self>) {
        if self.is_over() {
            return;
        }
        for i in 0..self.d {
            let digit = (self.p >> (2 * i)) & 3;
            if digit > 0 {
                out.push(Child {
                    mv: i,
                    next: Digits {
                        p: self.p - (1 << (2 * i)),
                        ..*self
                    },
                    gain: 0,
                    turn_passed: (digit + u32::from(i)) & 1 == 0,
                });
            }
        }
        for k in 1..=self.s.min(2) {
            let h = mix(u64::from(self.p) << 16 | u64::from(self.s) << 8 | u64::from(k));
            let gain = match h % 3 {
                0 => i32::from(k),
                1 => -i32::from(k),
                _ => 0,
            };
            out.push(Child {
                mv: 16 + k,
                next: Digits {
                    s: self.s - k,
                    p: ((h >> 8) % Digits::len(self.d)) as u32,
                    d: self.d,
                },
                gain,
                turn_passed: h & 16 != 0,
            });
        }
    }

    fn is_over(&self) -> bool {
        self.s == 0 || self.p % 13 == 5
    }

    fn key(&self) -> u128 {
        u128::from(self.s) << 32 | u128::from(self.p)
    }

    fn key_bound(&self) -> u128 {
        1 << 40
    }

    fn stake(&self) -> i32 {
        i32::from(self.s)
    }

    fn layer(&self) -> u32 {
        u32::from(self.s)
    }

    fn move_index(mv: u8) -> u8 {
        mv
    }
}

pub(crate) struct DigitsIx {
    pub(crate) d: u8,
}

impl Indexer for DigitsIx {
    type G = Digits;

    fn layer_len(&self, _: u32) -> u64 {
        Digits::len(self.d)
    }

    fn index(&self, pos: &Digits) -> u64 {
        u64::from(pos.p)
    }

    fn position(&self, layer: u32, index: u64) -> Option<Digits> {
        Some(Digits {
            s: layer as u8,
            p: index as u32,
            d: self.d,
        })
    }
}
