//! Djenon-aboure's sowing and capture walk (docs/rules.md §5.3-§5.4).

use super::board::{check_state, Endless, Turn};
use std::collections::HashMap;

/// Djenon-aboure (§5.3–§5.4): origin first, landing-pit relay, backward capture walk.
pub(super) fn sow_djenon(
    board: &[u32],
    stores: [u32; 2],
    mover: usize,
    pit: usize,
) -> Result<Turn, Endless> {
    let m = board.len();
    let mut b = board.to_vec();
    let mut st = stores;
    let mut seen = HashMap::new();
    let mut lap_ends = Vec::new();
    let mut lift = pit;
    loop {
        check_state(&mut seen, &b, st, lift, lap_ends.len())?;
        let k = b[lift];
        b[lift] = 0;
        // The first seed goes back into the pit just emptied.
        let mut pos = lift;
        b[pos] += 1;
        for _ in 1..k {
            pos = (pos + 1) % m;
            b[pos] += 1;
        }
        let l = pos;
        lap_ends.push(Some(l));
        let c = b[l];
        if c == 1 {
            return Ok(Turn {
                board: b,
                stores: st,
                extra_turn: false,
                lap_ends,
            });
        }
        if c == 2 || c == 4 {
            st[mover] += b[l];
            b[l] = 0;
            let mut x = (l + m - 1) % m;
            while x != l && (b[x] == 2 || b[x] == 4) {
                st[mover] += b[x];
                b[x] = 0;
                x = (x + m - 1) % m;
            }
            return Ok(Turn {
                board: b,
                stores: st,
                extra_turn: false,
                lap_ends,
            });
        }
        // c == 3 or c >= 5: relay from the landing pit.
        lift = l;
    }
}
