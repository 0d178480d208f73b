//! Match rounds (docs/rules.md §13) for the reference engine: pit statuses, the three match games'
//! sowing with burnt pits and sons, and the setup between rounds. Written from §13 and the game
//! sections alone, seed by seed, for clarity; it shares nothing with the `mancala` crate.
//!
//! A round is a [`RefPos`] plus one status letter per pit in sowing order: `o` open, `x` burnt,
//! `s` son (owned by the player opposite its row).

use super::{RefGame, RefPos};
use std::collections::HashSet;

/// A round position: the counts and each pit's status (`o`, `x`, `s`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RefRound {
    pub pos: RefPos,
    pub status: Vec<char>,
}

/// Parses a round position (§13.2): `x` burnt, `Ns` a son, plain counts open.
pub fn parse_round(text: &str) -> Result<RefRound, String> {
    let parts: Vec<&str> = text.split('/').collect();
    if parts.len() != 4 {
        return Err(format!("{text}: not 4 groups"));
    }
    let mut counts = Vec::new();
    let mut status = Vec::new();
    let mut lens = Vec::new();
    for row in &parts[..2] {
        let mut len = 0;
        for e in row.split(',') {
            len += 1;
            if e == "x" {
                counts.push(0);
                status.push('x');
            } else if let Some(d) = e.strip_suffix('s') {
                counts.push(d.parse::<u32>().map_err(|_| format!("bad entry {e}"))?);
                status.push('s');
            } else {
                counts.push(e.parse::<u32>().map_err(|_| format!("bad entry {e}"))?);
                status.push('o');
            }
        }
        lens.push(len);
    }
    if lens[0] != lens[1] {
        return Err("rows differ".into());
    }
    let st: Vec<u32> = parts[2]
        .split(',')
        .map(|x| x.parse::<u32>().map_err(|_| format!("bad store {x}")))
        .collect::<Result<_, _>>()?;
    if st.len() != 2 {
        return Err("two stores".into());
    }
    let to_move = match parts[3] {
        "S" => Some(0),
        "N" => Some(1),
        "-" => None,
        o => return Err(format!("bad side {o}")),
    };
    let n = lens[0];
    Ok(RefRound {
        pos: RefPos {
            south: counts[..n].to_vec(),
            north: counts[n..].to_vec(),
            stores: [st[0], st[1]],
            to_move,
        },
        status,
    })
}

/// Writes a round position with its marks.
pub fn format_round(r: &RefRound) -> String {
    let n = r.pos.south.len();
    let entry = |i: usize, c: u32| match r.status[i] {
        'x' => "x".to_string(),
        's' => format!("{c}s"),
        _ => c.to_string(),
    };
    let row = |base: usize, v: &[u32]| {
        v.iter()
            .enumerate()
            .map(|(j, &c)| entry(base + j, c))
            .collect::<Vec<_>>()
            .join(",")
    };
    let side = match r.pos.to_move {
        Some(0) => "S",
        Some(_) => "N",
        None => "-",
    };
    format!(
        "{}/{}/{},{}/{}",
        row(0, &r.pos.south),
        row(n, &r.pos.north),
        r.pos.stores[0],
        r.pos.stores[1],
        side
    )
}

/// §13.1: the owner of pit `i`: its row's player, the other for a son.
fn owner(status: &[char], i: usize) -> usize {
    let n = status.len() / 2;
    let row = usize::from(i >= n);
    if status[i] == 's' {
        1 - row
    } else {
        row
    }
}

/// The next pit after `i` that is not burnt (burnt pits are out of the ring).
fn next_open(status: &[char], i: usize) -> usize {
    let m = status.len();
    let mut j = (i + 1) % m;
    while status[j] == 'x' {
        j = (j + 1) % m;
    }
    j
}

/// The pits `side` may sow, as move numbers `1..=2n` counted from its move-1 pit (§13.2).
fn owned_moves(status: &[char], side: usize) -> Vec<(u8, usize)> {
    let m = status.len();
    let n = m / 2;
    (1..=m)
        .map(|k| (k as u8, (side * n + k - 1) % m))
        .filter(|&(_, i)| status[i] != 'x' && owner(status, i) == side)
        .collect()
}

fn board(r: &RefRound) -> Vec<u32> {
    let mut b = r.pos.south.clone();
    b.extend_from_slice(&r.pos.north);
    b
}

fn with_board(r: &RefRound, b: &[u32], stores: [u32; 2], to_move: Option<usize>) -> RefRound {
    let n = b.len() / 2;
    RefRound {
        pos: RefPos {
            south: b[..n].to_vec(),
            north: b[n..].to_vec(),
            stores,
            to_move,
        },
        status: r.status.clone(),
    }
}

/// One turn's result: board, stores, extra turn; `None` for an endless sowing.
type Sown = Option<(Vec<u32>, [u32; 2], bool)>;

/// Dakon (§4.2–§4.3) with burnt pits: the ring of open pits plus the mover's store, which sits
/// after the mover's last physical pit; nembak and mikul look at physical pits.
fn sow_dakon(g: RefGame, r: &RefRound, mover: usize, pit: usize) -> Sown {
    let RefGame::Dakon {
        nembak_takes_landing_seed,
        no_mikul,
    } = g
    else {
        unreachable!()
    };
    let st_ = &r.status;
    let m = st_.len();
    let n = m / 2;
    let mut b = board(r);
    let mut st = r.pos.stores;
    let store_after = mover * n + n - 1;
    let mut lift = pit;
    loop {
        let k = b[lift];
        b[lift] = 0;
        // `None` stands for the own store.
        let mut at = Some(lift);
        for _ in 0..k {
            at = loop {
                let cand = match at {
                    Some(i) if i == store_after => None,
                    Some(i) => Some((i + 1) % m),
                    None => Some((store_after + 1) % m),
                };
                at = cand;
                match cand {
                    Some(i) if st_[i] == 'x' => continue,
                    c => break c,
                }
            };
            match at {
                Some(i) => b[i] += 1,
                None => st[mover] += 1,
            }
        }
        let Some(l) = at else {
            return Some((b, st, true));
        };
        if b[l] >= 2 {
            lift = l;
            continue;
        }
        if usize::from(l >= n) == mover {
            let opp = m - 1 - l;
            if b[opp] > 0 {
                st[mover] += b[opp];
                b[opp] = 0;
                if nembak_takes_landing_seed {
                    st[mover] += b[l];
                    b[l] = 0;
                }
            }
        } else if !no_mikul {
            let start = (1 - mover) * n;
            if l > start && l < start + n - 1 && b[l - 1] == b[l + 1] && b[l - 1] > 0 {
                st[mover] += b[l - 1] + b[l + 1] + b[l];
                b[l - 1] = 0;
                b[l + 1] = 0;
                b[l] = 0;
            }
        }
        return Some((b, st, false));
    }
}

/// Walak-pussa and San-Yao (§6.3–§6.4) with burnt pits: every step is to the next open pit.
fn sow_relay(r: &RefRound, mover: usize, pit: usize) -> Sown {
    let status = &r.status;
    let mut b = board(r);
    let mut st = r.pos.stores;
    let mut seen = HashSet::new();
    let mut lift = pit;
    loop {
        if !seen.insert((b.clone(), lift)) {
            return None;
        }
        let k = b[lift];
        b[lift] = 0;
        let mut at = lift;
        for _ in 0..k {
            at = next_open(status, at);
            b[at] += 1;
        }
        let after = next_open(status, at);
        if b[after] > 0 {
            lift = after;
            continue;
        }
        let mut x = next_open(status, after);
        if b[x] > 0 {
            st[mover] += b[x];
            b[x] = 0;
            loop {
                let x1 = next_open(status, x);
                let x2 = next_open(status, x1);
                if b[x1] == 0 && b[x2] > 0 {
                    st[mover] += b[x2];
                    b[x2] = 0;
                    x = x2;
                } else {
                    break;
                }
            }
        }
        return Some((b, st, false));
    }
}

fn sow(g: RefGame, r: &RefRound, mover: usize, pit: usize) -> Sown {
    match g {
        RefGame::Dakon { .. } => sow_dakon(g, r, mover, pit),
        RefGame::WalakPussa { .. } | RefGame::SanYao => sow_relay(r, mover, pit),
        _ => panic!("no rounds in {g:?}"),
    }
}

fn is_candidate(g: RefGame, r: &RefRound, side: usize, pit: usize) -> bool {
    let b = board(r);
    match g {
        RefGame::WalakPussa {
            singleton_restriction: true,
        } => {
            let big = owned_moves(&r.status, side).iter().any(|&(_, i)| b[i] >= 2);
            b[pit] >= 2 || (b[pit] == 1 && !big)
        }
        _ => b[pit] >= 1,
    }
}

/// The legal moves of the side to move (move numbers, increasing).
pub fn round_legal(g: RefGame, r: &RefRound) -> Vec<u8> {
    let Some(side) = r.pos.to_move else {
        return Vec::new();
    };
    owned_moves(&r.status, side)
        .into_iter()
        .filter(|&(_, i)| is_candidate(g, r, side, i) && sow(g, r, side, i).is_some())
        .map(|(k, _)| k)
        .collect()
}

/// The end and no-move rules with statuses (§13.1): Dakon and Walak-pussa give every seed left
/// to the other player; San-Yao's sweeps go by the owner of each pit.
pub fn round_normalize(g: RefGame, r: &RefRound) -> RefRound {
    let Some(side) = r.pos.to_move else {
        return r.clone();
    };
    let b = board(r);
    let mut st = r.pos.stores;
    let total: u32 = b.iter().sum();
    let cleared = vec![0; b.len()];
    let by_owner = |st: &mut [u32; 2]| {
        for (i, &c) in b.iter().enumerate() {
            st[owner(&r.status, i)] += c;
        }
    };
    match g {
        RefGame::Dakon { .. } => {
            let mine: u32 = owned_moves(&r.status, side)
                .iter()
                .map(|&(_, i)| b[i])
                .sum();
            if mine == 0 {
                st[1 - side] += total;
                return with_board(r, &cleared, st, None);
            }
            r.clone()
        }
        RefGame::WalakPussa { .. } => {
            if round_legal(g, r).is_empty() {
                st[1 - side] += total;
                return with_board(r, &cleared, st, None);
            }
            r.clone()
        }
        RefGame::SanYao => {
            if total < 2 {
                by_owner(&mut st);
                return with_board(r, &cleared, st, None);
            }
            if !round_legal(g, r).is_empty() {
                return r.clone();
            }
            let other = with_board(r, &b, st, Some(1 - side));
            if !round_legal(g, &other).is_empty() {
                return other;
            }
            by_owner(&mut st);
            with_board(r, &cleared, st, None)
        }
        _ => panic!("no rounds in {g:?}"),
    }
}

/// Plays move `mv` of the side to move and normalises.
pub fn round_play(g: RefGame, r: &RefRound, mv: u8) -> Result<RefRound, String> {
    let side = r.pos.to_move.ok_or("over")?;
    let Some(&(_, pit)) = owned_moves(&r.status, side).iter().find(|&&(k, _)| k == mv) else {
        return Err(format!("move {mv} is not an owned pit"));
    };
    if !is_candidate(g, r, side, pit) {
        return Err(format!("move {mv} is not a candidate"));
    }
    let (b, st, extra) = sow(g, r, side, pit).ok_or("endless")?;
    let next = if extra { side } else { 1 - side };
    Ok(round_normalize(g, &with_board(r, &b, st, Some(next))))
}

/// What follows a finished round (§13.3–§13.4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RefBetween {
    /// The next round (normalised) and its starter (named to move before normalising).
    Next(RefRound, usize),
    /// The winner, `None` for a drawn match.
    Over(Option<usize>),
}

/// The next round after a round with final `stores`, started by `starter`.
pub fn ref_next_round(
    g: RefGame,
    n: usize,
    s: u32,
    stores: [u32; 2],
    starter: usize,
    fill_from_move_1: bool,
) -> RefBetween {
    let mut counts = vec![0u32; 2 * n];
    let mut status = vec!['o'; 2 * n];
    let mut left = [0u32; 2];
    let first;
    // The pit of `side`'s move k (1-based) on its own row.
    let pit = |side: usize, k: usize| side * n + k - 1;
    if g == RefGame::SanYao {
        let a_side = if stores[0] > stores[1] {
            0
        } else if stores[1] > stores[0] {
            1
        } else {
            1 - starter
        };
        let b_side = 1 - a_side;
        let (mut a, mut b) = (stores[a_side], stores[b_side]);
        if b < s {
            return RefBetween::Over(if a == b { None } else { Some(a_side) });
        }
        for k in 1..=n {
            if a >= s {
                counts[pit(a_side, k)] = s;
                a -= s;
            } else {
                status[pit(a_side, k)] = 'x';
            }
        }
        let mut k = 1;
        while a >= s && k <= n {
            counts[pit(b_side, k)] = s;
            status[pit(b_side, k)] = 's';
            a -= s;
            k += 1;
        }
        b += a;
        for k in k..=n {
            if b >= s {
                counts[pit(b_side, k)] = s;
                b -= s;
            } else {
                status[pit(b_side, k)] = 'x';
            }
        }
        left[b_side] = b;
        first = a_side;
    } else {
        match (stores[0] < s, stores[1] < s) {
            (true, true) => return RefBetween::Over(None),
            (true, false) => return RefBetween::Over(Some(1)),
            (false, true) => return RefBetween::Over(Some(0)),
            _ => {}
        }
        for side in 0..2 {
            let mut r = stores[side];
            let order: Vec<usize> = if fill_from_move_1 {
                (1..=n).collect()
            } else {
                (1..=n).rev().collect()
            };
            for k in order {
                if r >= s {
                    counts[pit(side, k)] = s;
                    r -= s;
                } else {
                    status[pit(side, k)] = 'x';
                }
            }
            left[side] = r;
        }
        let winner = if stores[0] > stores[1] {
            Some(0)
        } else if stores[1] > stores[0] {
            Some(1)
        } else {
            None
        };
        first = match (winner, g) {
            (None, _) => 1 - starter,
            (Some(w), RefGame::Dakon { .. }) => w,
            (Some(w), _) => 1 - w,
        };
    }
    let r = RefRound {
        pos: RefPos {
            south: counts[..n].to_vec(),
            north: counts[n..].to_vec(),
            stores: left,
            to_move: Some(first),
        },
        status,
    };
    RefBetween::Next(round_normalize(g, &r), first)
}
