//! Dakon's sowing and captures (docs/rules.md §4.2-§4.3).

use super::board::{check_state, next_slot, owner, Endless, Slot, Turn};
use std::collections::HashMap;

/// Dakon (§4.2–§4.3): landing-pit relay through the own store.
pub(super) fn sow_dakon(
    board: &[u32],
    stores: [u32; 2],
    mover: usize,
    pit: usize,
    nembak_takes_landing_seed: bool,
    no_mikul: bool,
) -> Result<Turn, Endless> {
    let n = board.len() / 2;
    let mut b = board.to_vec();
    let mut st = stores;
    let mut seen = HashMap::new();
    let mut lap_ends = Vec::new();
    let mut lift = pit;
    loop {
        check_state(&mut seen, &b, st, lift, lap_ends.len())?;
        let k = b[lift];
        b[lift] = 0;
        let mut pos = Slot::Pit(lift);
        for _ in 0..k {
            pos = next_slot(n, mover, pos);
            match pos {
                Slot::Pit(i) => b[i] += 1,
                Slot::OwnStore => st[mover] += 1,
            }
        }
        match pos {
            Slot::OwnStore => {
                lap_ends.push(None);
                return Ok(Turn {
                    board: b,
                    stores: st,
                    extra_turn: true,
                    lap_ends,
                });
            }
            Slot::Pit(l) => {
                lap_ends.push(Some(l));
                if b[l] >= 2 {
                    // Occupied pit: relay from it.
                    lift = l;
                    continue;
                }
                // The pit was empty: the sowing ends; captures.
                if owner(n, l) == mover {
                    // Nembak.
                    let opp = 2 * n - 1 - l;
                    if b[opp] > 0 {
                        st[mover] += b[opp];
                        b[opp] = 0;
                        if nembak_takes_landing_seed {
                            st[mover] += b[l];
                            b[l] = 0;
                        }
                    }
                } else if !no_mikul {
                    // Mikul: both same-row neighbours exist and hold the same non-zero count.
                    let row_start = owner(n, l) * n;
                    let row_end = row_start + n - 1;
                    if l > row_start && l < row_end && b[l - 1] == b[l + 1] && b[l - 1] > 0 {
                        st[mover] += b[l - 1] + b[l + 1] + b[l];
                        b[l - 1] = 0;
                        b[l + 1] = 0;
                        b[l] = 0;
                    }
                }
                return Ok(Turn {
                    board: b,
                    stores: st,
                    extra_turn: false,
                    lap_ends,
                });
            }
        }
    }
}
