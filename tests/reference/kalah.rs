//! Kalah's sowing and capture (docs/rules.md §3.2-§3.3).

use super::board::{next_slot, owner, Slot, Turn};

/// Kalah (§3.2–§3.3): one lap through the own store, skipping the opponent's.
pub(super) fn sow_kalah(
    board: &[u32],
    stores: [u32; 2],
    mover: usize,
    pit: usize,
    empty_capture: bool,
) -> Turn {
    let n = board.len() / 2;
    let mut b = board.to_vec();
    let mut st = stores;
    let k = b[pit];
    b[pit] = 0;
    let mut pos = Slot::Pit(pit);
    for _ in 0..k {
        pos = next_slot(n, mover, pos);
        match pos {
            Slot::Pit(i) => b[i] += 1,
            Slot::OwnStore => st[mover] += 1,
        }
    }
    let mut extra_turn = false;
    let lap_end;
    match pos {
        Slot::OwnStore => {
            extra_turn = true;
            lap_end = None;
        }
        Slot::Pit(l) => {
            lap_end = Some(l);
            if owner(n, l) == mover && b[l] == 1 {
                let opp = 2 * n - 1 - l;
                if b[opp] > 0 {
                    st[mover] += b[opp] + 1;
                    b[opp] = 0;
                    b[l] = 0;
                } else if empty_capture {
                    st[mover] += 1;
                    b[l] = 0;
                }
            }
        }
    }
    Turn {
        board: b,
        stores: st,
        extra_turn,
        lap_ends: vec![lap_end],
    }
}
