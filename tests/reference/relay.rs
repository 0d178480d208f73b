//! The next-pit relay and alternating capture chain shared by Walak-pussa and San-Yao
//! (docs/rules.md §6.3-§6.4, §7.3-§7.4).

use super::board::{check_state, Endless, Turn};
use std::collections::HashMap;

/// Walak-pussa and San-Yao (§6.3–§6.4, §7.3–§7.4): next-pit relay, alternating capture chain.
pub(super) fn sow_next_pit_relay(
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
        let mut pos = lift;
        for _ in 0..k {
            pos = (pos + 1) % m;
            b[pos] += 1;
        }
        let l = pos;
        lap_ends.push(Some(l));
        let next = (l + 1) % m;
        if b[next] != 0 {
            lift = next;
            continue;
        }
        // L+1 is empty: the sowing ends; capture L+2 and the chain.
        let mut x = (l + 2) % m;
        if b[x] != 0 {
            st[mover] += b[x];
            b[x] = 0;
            loop {
                let x1 = (x + 1) % m;
                let x2 = (x + 2) % m;
                if b[x1] == 0 && b[x2] != 0 {
                    st[mover] += b[x2];
                    b[x2] = 0;
                    x = x2;
                } else {
                    break;
                }
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
