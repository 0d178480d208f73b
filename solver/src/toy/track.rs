//! `Track`, a hand-made cyclic toy game.
//!
//! Layer s has places 0..=8 (slot 9 is unused: `position` says None). For s >= 1
//! ("take k" goes to layer s - k; "-> q" stays; "pass" hands the turn over):
//!
//!   0: -> 1 pass                                         (forced)
//!   1: -> 2 pass                                         (forced; 0 -> 1 -> 2 -> 0 is an odd cycle
//!   2: -> 0 pass | take 1, win 1, to 3, keep               of passes: the mover alternates)
//!   3: -> 3 keep (self-loop) | take 1, lose 1, to 0, pass
//!   4: -> 5 keep | -> 6 pass
//!   5: -> 4 keep | take s, lose s, game over, keep
//!   6: take 2 (s >= 2), win 2, to 1, pass | -> 7 pass
//!   7: -> 0 keep | -> 4 pass | take 1, win 0, to 2, pass | -> 8 keep
//!   8: -> 8 pass                                         (forced self-loop: endless, F = 0)
//!
//! Layer 0 is game over everywhere.

use crate::game::{Child, Children, Game};
use crate::retro::Indexer;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Track {
    pub(crate) s: u8,
    pub(crate) q: u8,
}

impl Game for Track {
    type Move = u8;
    const CAN_CYCLE: bool = true;

    fn children(&self, out: &mut Children<Self>) {
        let s = self.s;
        if s == 0 {
            return;
        }
        let mut n = 0;
        let mut stay = |q: u8, passed: bool| {
            out.push(Child {
                mv: n,
                next: Track { s, q },
                gain: 0,
                turn_passed: passed,
            });
            n += 1;
        };
        match self.q {
            0 => stay(1, true),
            1 => stay(2, true),
            2 => stay(0, true),
            3 => stay(3, false),
            4 => {
                stay(5, false);
                stay(6, true);
            }
            5 => stay(4, false),
            6 => stay(7, true),
            7 => {
                stay(0, false);
                stay(4, true);
                stay(8, false);
            }
            8 => stay(8, true),
            _ => unreachable!(),
        }
        let take = |k: u8, q: u8, gain: i32, passed: bool| Child {
            mv: 10 + k,
            next: Track { s: s - k, q },
            gain,
            turn_passed: passed,
        };
        match self.q {
            2 => out.push(take(1, 3, 1, false)),
            3 => out.push(take(1, 0, -1, true)),
            5 => out.push(take(s, 5, -i32::from(s), false)),
            6 if s >= 2 => out.push(take(2, 1, 2, true)),
            7 => out.push(take(1, 2, 0, true)),
            _ => {}
        }
    }

    fn is_over(&self) -> bool {
        self.s == 0
    }

    fn key(&self) -> u128 {
        u128::from(self.s) * 16 + u128::from(self.q)
    }

    fn key_bound(&self) -> u128 {
        1 << 12
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

pub(crate) struct TrackIx;

impl Indexer for TrackIx {
    type G = Track;

    fn layer_len(&self, _: u32) -> u64 {
        10
    }

    fn index(&self, pos: &Track) -> u64 {
        u64::from(pos.q)
    }

    fn position(&self, layer: u32, index: u64) -> Option<Track> {
        (index < 9).then_some(Track {
            s: layer as u8,
            q: index as u8,
        })
    }
}
