#![allow(dead_code)]
//! Independent reference implementation of the five mancala games of `RULES.md`
//! (Kalah, Dakon, Djenon-aboure, Walak-pussa, San-Yao), used as a test oracle.
//!
//! Written for clarity, not speed: the board is a plain `Vec<u32>` of `2n` pits in
//! sowing order (`p[0..n)` South, `p[n..2n)` North), seeds are dropped one at a
//! time, endless relays are detected with a hash set of lap-boundary states, and
//! `value` is a brute-force whole-graph retrograde solver (RULES.md §8.5).
//!
//! Implementation-defined limit (RULES.md §2.5 item 3): every pit and store is a
//! `u32`, and the total of all counts must fit in a `u32`; larger input is rejected
//! by `parse`.

use std::collections::{BTreeSet, HashMap};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefGame {
    Kalah {
        empty_capture: bool,
        end_when_mover_empty: bool,
    },
    Dakon {
        nembak_takes_landing_seed: bool,
        no_mikul: bool,
    },
    DjenonAboure,
    WalakPussa {
        singleton_restriction: bool,
    },
    SanYao,
}

/// A position: South's row and North's row, both in sowing order; the two stores
/// (capture tallies); the side to move (0 = South, 1 = North, `None` = game over).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RefPos {
    pub south: Vec<u32>,
    pub north: Vec<u32>,
    pub stores: [u32; 2],
    pub to_move: Option<usize>,
}

// ---------------------------------------------------------------------------
// Notation (RULES.md §2.5)
// ---------------------------------------------------------------------------

fn parse_count(s: &str) -> Result<u32, String> {
    if s.is_empty() {
        return Err("empty count".to_string());
    }
    if !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("not a non-negative decimal count: {s:?}"));
    }
    s.parse::<u32>()
        .map_err(|_| format!("count too large: {s}"))
}

fn parse_list(s: &str) -> Result<Vec<u32>, String> {
    s.split(',').map(parse_count).collect()
}

/// Parses `<south>/<north>/<store0>,<store1>/<side>`. Checks the syntax, equal row
/// lengths (at least 1), that a game-over position has empty pits, and that the total
/// fits in a `u32`. It does not check the game's hole range and does not normalise.
pub fn parse(s: &str) -> Result<RefPos, String> {
    let parts: Vec<&str> = s.split('/').collect();
    if parts.len() != 4 {
        return Err(format!(
            "expected 4 '/'-separated groups, got {}",
            parts.len()
        ));
    }
    let south = parse_list(parts[0])?;
    let north = parse_list(parts[1])?;
    if south.len() != north.len() {
        return Err(format!(
            "row lengths differ: {} and {}",
            south.len(),
            north.len()
        ));
    }
    let stores = parse_list(parts[2])?;
    if stores.len() != 2 {
        return Err(format!("expected 2 stores, got {}", stores.len()));
    }
    let to_move = match parts[3] {
        "S" => Some(0),
        "N" => Some(1),
        "-" => None,
        other => return Err(format!("bad side marker: {other:?}")),
    };
    let total: u64 = south
        .iter()
        .chain(north.iter())
        .chain(stores.iter())
        .map(|&c| c as u64)
        .sum();
    if total > u32::MAX as u64 {
        return Err("total seed count too large".to_string());
    }
    if to_move.is_none() && south.iter().chain(north.iter()).any(|&c| c != 0) {
        return Err("game-over position ('-') with seeds on the board".to_string());
    }
    Ok(RefPos {
        south,
        north,
        stores: [stores[0], stores[1]],
        to_move,
    })
}

pub fn format(p: &RefPos) -> String {
    let row = |r: &[u32]| {
        r.iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    let side = match p.to_move {
        Some(0) => "S",
        Some(_) => "N",
        None => "-",
    };
    format!(
        "{}/{}/{},{}/{}",
        row(&p.south),
        row(&p.north),
        p.stores[0],
        p.stores[1],
        side
    )
}

// ---------------------------------------------------------------------------
// Board helpers
// ---------------------------------------------------------------------------

/// The whole board as `2n` pits in sowing order.
fn board_of(p: &RefPos) -> Vec<u32> {
    let mut b = p.south.clone();
    b.extend_from_slice(&p.north);
    b
}

fn make_pos(board: &[u32], stores: [u32; 2], to_move: Option<usize>) -> RefPos {
    let n = board.len() / 2;
    RefPos {
        south: board[..n].to_vec(),
        north: board[n..].to_vec(),
        stores,
        to_move,
    }
}

/// Owner of pit `i` on a board of `n` holes per row.
fn owner(n: usize, i: usize) -> usize {
    if i < n {
        0
    } else {
        1
    }
}

fn row_sum(board: &[u32], n: usize, side: usize) -> u32 {
    board[side * n..side * n + n].iter().sum()
}

fn board_sum(board: &[u32]) -> u32 {
    board.iter().sum()
}

/// Each player adds the seeds in their own row to their own store; the board is cleared.
fn sweep_own_rows(board: &mut [u32], stores: &mut [u32; 2]) {
    let n = board.len() / 2;
    stores[0] += row_sum(board, n, 0);
    stores[1] += row_sum(board, n, 1);
    board.iter_mut().for_each(|c| *c = 0);
}

/// `side` takes every seed on the board.
fn sweep_all_to(board: &mut [u32], stores: &mut [u32; 2], side: usize) {
    stores[side] += board_sum(board);
    board.iter_mut().for_each(|c| *c = 0);
}

// ---------------------------------------------------------------------------
// Sowing
// ---------------------------------------------------------------------------

/// Where a seed can be dropped in Kalah and Dakon: a pit, or the mover's own store
/// (the opponent's store is skipped, so it is never a position).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    Pit(usize),
    OwnStore,
}

/// Next position in the store ring of Kalah/Dakon for `mover`.
fn next_slot(n: usize, mover: usize, s: Slot) -> Slot {
    match s {
        Slot::Pit(i) => {
            if i == mover * n + n - 1 {
                Slot::OwnStore
            } else {
                Slot::Pit((i + 1) % (2 * n))
            }
        }
        // After the own store comes the first pit of the opponent's row.
        Slot::OwnStore => Slot::Pit(((mover + 1) * n) % (2 * n)),
    }
}

/// Outcome of one complete turn's sowing and capturing.
#[derive(Clone, Debug)]
struct Turn {
    board: Vec<u32>,
    stores: [u32; 2],
    extra_turn: bool,
    /// Where each lap's last seed landed (`None` = the mover's own store).
    lap_ends: Vec<Option<usize>>,
}

/// An endless relay: the lap-boundary state first seen before lap `first_lap`
/// (0-based) recurs `period` laps later.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Endless {
    first_lap: usize,
    period: usize,
}

/// Lap-boundary bookkeeping (RULES.md §2.9): `seen` is the hash set of lap-boundary states
/// (board, stores, pit about to be lifted), each with the lap it was first seen at. Returns
/// `Err` if this state was seen before, which proves the sowing endless; no caps are used.
fn check_state(
    seen: &mut HashMap<(Vec<u32>, [u32; 2], usize), usize>,
    board: &[u32],
    stores: [u32; 2],
    lift: usize,
    lap: usize,
) -> Result<(), Endless> {
    let key = (board.to_vec(), stores, lift);
    if let Some(&first) = seen.get(&key) {
        return Err(Endless {
            first_lap: first,
            period: lap - first,
        });
    }
    seen.insert(key, lap);
    Ok(())
}

/// Plays the sowing of pit `pit` (a board index) for `mover`. The pit is assumed to be a
/// candidate. Returns `Err` for an endless relay.
fn sow_turn(
    g: RefGame,
    board: &[u32],
    stores: [u32; 2],
    mover: usize,
    pit: usize,
) -> Result<Turn, Endless> {
    match g {
        RefGame::Kalah { empty_capture, .. } => {
            Ok(sow_kalah(board, stores, mover, pit, empty_capture))
        }
        RefGame::Dakon {
            nembak_takes_landing_seed,
            no_mikul,
        } => sow_dakon(
            board,
            stores,
            mover,
            pit,
            nembak_takes_landing_seed,
            no_mikul,
        ),
        RefGame::DjenonAboure => sow_djenon(board, stores, mover, pit),
        RefGame::WalakPussa { .. } | RefGame::SanYao => {
            sow_next_pit_relay(board, stores, mover, pit)
        }
    }
}

/// Kalah (§3.2–§3.3): one lap through the own store, skipping the opponent's.
fn sow_kalah(
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

/// Dakon (§4.2–§4.3): landing-pit relay through the own store.
fn sow_dakon(
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

/// Djenon-aboure (§5.3–§5.4): origin first, landing-pit relay, backward capture walk.
fn sow_djenon(board: &[u32], stores: [u32; 2], mover: usize, pit: usize) -> Result<Turn, Endless> {
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

/// Walak-pussa and San-Yao (§6.3–§6.4, §7.3–§7.4): next-pit relay, alternating capture chain.
fn sow_next_pit_relay(
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

// ---------------------------------------------------------------------------
// Moves
// ---------------------------------------------------------------------------

/// Is board pit `pit` (owned by `side`) a candidate?
fn is_candidate(g: RefGame, board: &[u32], side: usize, pit: usize) -> bool {
    let n = board.len() / 2;
    let c = board[pit];
    match g {
        RefGame::DjenonAboure => c >= 2,
        RefGame::WalakPussa {
            singleton_restriction: true,
        } => {
            let has_big = board[side * n..side * n + n].iter().any(|&x| x >= 2);
            c >= 2 || (c == 1 && !has_big)
        }
        _ => c >= 1,
    }
}

fn candidates_on(g: RefGame, board: &[u32], side: usize) -> Vec<u8> {
    let n = board.len() / 2;
    (1..=n)
        .filter(|&k| is_candidate(g, board, side, side * n + k - 1))
        .map(|k| k as u8)
        .collect()
}

fn legal_on(g: RefGame, board: &[u32], side: usize) -> Vec<u8> {
    let n = board.len() / 2;
    candidates_on(g, board, side)
        .into_iter()
        .filter(|&k| sow_turn(g, board, [0, 0], side, side * n + k as usize - 1).is_ok())
        .collect()
}

pub fn candidates(g: RefGame, p: &RefPos) -> Vec<u8> {
    match p.to_move {
        None => Vec::new(),
        Some(side) => candidates_on(g, &board_of(p), side),
    }
}

pub fn legal_moves(g: RefGame, p: &RefPos) -> Vec<u8> {
    match p.to_move {
        None => Vec::new(),
        Some(side) => legal_on(g, &board_of(p), side),
    }
}

/// Applies the game's end and no-move rules to a position as if it had arisen after a
/// move (forced passes, game end with the final sweep). Game-over positions are returned unchanged.
pub fn normalize(g: RefGame, p: &RefPos) -> RefPos {
    let side = match p.to_move {
        None => return p.clone(),
        Some(s) => s,
    };
    let n = p.south.len();
    let mut b = board_of(p);
    let mut st = p.stores;
    match g {
        RefGame::Kalah {
            end_when_mover_empty,
            ..
        } => {
            let ends = if end_when_mover_empty {
                row_sum(&b, n, side) == 0
            } else {
                row_sum(&b, n, 0) == 0 || row_sum(&b, n, 1) == 0
            };
            if ends {
                sweep_own_rows(&mut b, &mut st);
                return make_pos(&b, st, None);
            }
            p.clone()
        }
        RefGame::Dakon { .. } => {
            if row_sum(&b, n, side) == 0 {
                sweep_all_to(&mut b, &mut st, 1 - side);
                return make_pos(&b, st, None);
            }
            p.clone()
        }
        RefGame::WalakPussa { .. } => {
            if legal_on(g, &b, side).is_empty() {
                sweep_all_to(&mut b, &mut st, 1 - side);
                return make_pos(&b, st, None);
            }
            p.clone()
        }
        RefGame::DjenonAboure | RefGame::SanYao => {
            if g == RefGame::SanYao && board_sum(&b) < 2 {
                // A single remaining stone goes to the owner of its row.
                sweep_own_rows(&mut b, &mut st);
                return make_pos(&b, st, None);
            }
            if !legal_on(g, &b, side).is_empty() {
                return p.clone();
            }
            if !legal_on(g, &b, 1 - side).is_empty() {
                return make_pos(&b, st, Some(1 - side));
            }
            sweep_own_rows(&mut b, &mut st);
            make_pos(&b, st, None)
        }
    }
}

/// Plays move `mv` (1..=n) for the side to move of `p` (taken as given, not normalised
/// first) and returns the normalised result.
pub fn play(g: RefGame, p: &RefPos, mv: u8) -> Result<RefPos, String> {
    let side = p.to_move.ok_or_else(|| "game is over".to_string())?;
    let n = p.south.len();
    if mv < 1 || mv as usize > n {
        return Err(format!("move {mv} out of range 1..={n}"));
    }
    let b = board_of(p);
    let pit = side * n + mv as usize - 1;
    if b[pit] == 0 {
        return Err(format!("move {mv}: empty pit"));
    }
    if !is_candidate(g, &b, side, pit) {
        return Err(format!("move {mv}: not a candidate"));
    }
    let t = sow_turn(g, &b, p.stores, side, pit).map_err(|e| {
        format!(
            "move {mv}: endless sowing (state of lap {} recurs after {} laps)",
            e.first_lap, e.period
        )
    })?;
    let next = if t.extra_turn { side } else { 1 - side };
    Ok(normalize(g, &make_pos(&t.board, t.stores, Some(next))))
}

/// Standard start: `holes` pits a side with `seeds` each, empty stores, South to move; normalised.
pub fn start(g: RefGame, holes: usize, seeds: u32) -> RefPos {
    let p = RefPos {
        south: vec![seeds; holes],
        north: vec![seeds; holes],
        stores: [0, 0],
        to_move: Some(0),
    };
    normalize(g, &p)
}

// ---------------------------------------------------------------------------
// Exact value: whole-graph retrograde analysis per seed-count layer (§8.5)
// ---------------------------------------------------------------------------

/// The same position with both stores set to 0 (the key of the future margin F).
fn strip(p: &RefPos) -> RefPos {
    RefPos {
        stores: [0, 0],
        ..p.clone()
    }
}

fn store_diff(p: &RefPos) -> i32 {
    p.stores[0] as i32 - p.stores[1] as i32
}

/// Every normalised stripped position reachable from the root, with its moves as
/// (store change South-minus-North, successor index).
struct Graph {
    nodes: Vec<RefPos>,
    edges: Vec<Vec<(i32, usize)>>,
}

fn explore(g: RefGame, root: &RefPos) -> Graph {
    let mut index: HashMap<RefPos, usize> = HashMap::new();
    let mut nodes = vec![root.clone()];
    let mut edges = Vec::new();
    index.insert(root.clone(), 0);
    let mut i = 0;
    while i < nodes.len() {
        let x = nodes[i].clone();
        let mut out = Vec::new();
        // `play` rejects a candidate only when its sowing is endless, so this visits exactly
        // the legal moves (sowing each one once).
        for mv in candidates(g, &x) {
            let r = match play(g, &x, mv) {
                Ok(r) => r,
                Err(_) => continue,
            };
            let d = store_diff(&r); // x has empty stores
            let key = strip(&r);
            let j = match index.get(&key) {
                Some(&j) => j,
                None => {
                    nodes.push(key.clone());
                    index.insert(key, nodes.len() - 1);
                    nodes.len() - 1
                }
            };
            out.push((d, j));
        }
        if x.to_move.is_some() {
            assert!(
                !out.is_empty(),
                "normalised position without legal move: {}",
                format(&x)
            );
        }
        edges.push(out);
        i += 1;
    }
    Graph { nodes, edges }
}

/// Future margin F (South minus North, stores excluded) of every node of the graph.
fn solve_graph(graph: &Graph) -> Vec<i32> {
    let count = graph.nodes.len();
    let seeds: Vec<u32> = graph
        .nodes
        .iter()
        .map(|p| board_sum(&board_of(p)))
        .collect();
    // Finished games have future margin 0; everything else is solved layer by layer.
    let mut f: Vec<Option<i32>> = graph
        .nodes
        .iter()
        .map(|p| if p.to_move.is_none() { Some(0) } else { None })
        .collect();
    let layers: BTreeSet<u32> = seeds.iter().copied().collect();
    for k in layers {
        let layer: Vec<usize> = (0..count)
            .filter(|&i| seeds[i] == k && f[i].is_none())
            .collect();
        if layer.is_empty() {
            continue;
        }
        solve_layer(graph, &seeds, k, &layer, &mut f);
    }
    f.into_iter().map(|v| v.expect("solved")).collect()
}

/// Solves one seed-count layer `k` (RULES.md §8.5), all lower layers being solved already.
/// For each threshold t in T = {exit values} ∪ {0}, W_t is computed by iterating its set
/// equation from the empty set (t > 0: least fixpoint, South must really reach an exit >= t)
/// or from the whole layer (t <= 0: greatest fixpoint, staying in the layer forever earns 0).
/// Updates are done in place; as the equation is monotone, this still converges to the
/// least (respectively greatest) fixpoint. Then F(x) = max { t : x in W_t }.
fn solve_layer(graph: &Graph, seeds: &[u32], k: u32, layer: &[usize], f: &mut [Option<i32>]) {
    // Layer-local index of each graph node of the layer.
    let mut local: HashMap<usize, usize> = HashMap::new();
    for (li, &x) in layer.iter().enumerate() {
        local.insert(x, li);
    }
    // For each position of the layer: the best exit value for the side to move (South needs
    // *some* exit >= t, i.e. max exit >= t; North needs *every* exit >= t, i.e. min exit >= t),
    // and the internal edges (layer-local indices).
    let mut best_exit: Vec<Option<i32>> = Vec::new();
    let mut internal: Vec<Vec<usize>> = Vec::new();
    let mut south: Vec<bool> = Vec::new();
    let mut thresholds: BTreeSet<i32> = BTreeSet::new();
    thresholds.insert(0);
    for &x in layer {
        let is_south = graph.nodes[x].to_move == Some(0);
        let mut ex: Option<i32> = None;
        let mut int = Vec::new();
        for &(d, y) in &graph.edges[x] {
            let terminal = graph.nodes[y].to_move.is_none();
            if terminal || seeds[y] < k {
                let v = d + f[y].expect("lower layer solved");
                thresholds.insert(v);
                ex = Some(match ex {
                    None => v,
                    Some(e) if is_south => e.max(v),
                    Some(e) => e.min(v),
                });
            } else {
                assert_eq!(seeds[y], k, "seed count increased");
                assert_eq!(d, 0, "internal edge changed the stores");
                int.push(local[&y]);
            }
        }
        best_exit.push(ex);
        internal.push(int);
        south.push(is_south);
    }
    let len = layer.len();
    let mut best = vec![i32::MIN; len];
    for &t in &thresholds {
        // t > 0: least fixpoint (attractor); t <= 0: greatest fixpoint.
        let mut w = vec![t <= 0; len];
        loop {
            let mut changed = false;
            for i in (0..len).rev() {
                let new = if south[i] {
                    // Some exit >= t, or some internal edge into W_t.
                    let good_exit = matches!(best_exit[i], Some(v) if v >= t);
                    good_exit || internal[i].iter().any(|&j| w[j])
                } else {
                    // Every exit >= t, and every internal edge into W_t.
                    let all_exits_good = match best_exit[i] {
                        None => true,
                        Some(v) => v >= t,
                    };
                    all_exits_good && internal[i].iter().all(|&j| w[j])
                };
                if new != w[i] {
                    w[i] = new;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        for i in 0..len {
            if w[i] && t > best[i] {
                best[i] = t;
            }
        }
    }
    for (li, &x) in layer.iter().enumerate() {
        assert!(best[li] != i32::MIN);
        f[x] = Some(best[li]);
    }
}

/// Exact perfect-play value: final South-minus-North score, stores included (§2.8, §2.10).
pub fn value(g: RefGame, p: &RefPos) -> i32 {
    let root = normalize(g, p);
    if root.to_move.is_none() {
        return store_diff(&root);
    }
    let graph = explore(g, &strip(&root));
    let f = solve_graph(&graph);
    store_diff(&root) + f[0]
}

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    const KALAH: RefGame = RefGame::Kalah {
        empty_capture: false,
        end_when_mover_empty: false,
    };
    const KALAH_MOVER: RefGame = RefGame::Kalah {
        empty_capture: false,
        end_when_mover_empty: true,
    };
    const KALAH_EC: RefGame = RefGame::Kalah {
        empty_capture: true,
        end_when_mover_empty: false,
    };
    const KALAH_BOTH: RefGame = RefGame::Kalah {
        empty_capture: true,
        end_when_mover_empty: true,
    };
    const DAKON: RefGame = RefGame::Dakon {
        nembak_takes_landing_seed: false,
        no_mikul: false,
    };
    const DAKON_LANDING: RefGame = RefGame::Dakon {
        nembak_takes_landing_seed: true,
        no_mikul: false,
    };
    const DAKON_NO_MIKUL: RefGame = RefGame::Dakon {
        nembak_takes_landing_seed: false,
        no_mikul: true,
    };
    const DAKON_BOTH: RefGame = RefGame::Dakon {
        nembak_takes_landing_seed: true,
        no_mikul: true,
    };
    const DJENON: RefGame = RefGame::DjenonAboure;
    const WALAK: RefGame = RefGame::WalakPussa {
        singleton_restriction: false,
    };
    const WALAK_SR: RefGame = RefGame::WalakPussa {
        singleton_restriction: true,
    };
    const SANYAO: RefGame = RefGame::SanYao;

    fn pos(s: &str) -> RefPos {
        parse(s).unwrap_or_else(|e| panic!("parse {s}: {e}"))
    }

    /// Checks `before` --mv--> `after` (both in notation).
    fn check_move(g: RefGame, before: &str, mv: u8, after: &str) {
        let p = pos(before);
        assert_eq!(format(&p), before, "round trip");
        let r = play(g, &p, mv).unwrap_or_else(|e| panic!("{g:?} {before} move {mv}: {e}"));
        assert_eq!(format(&r), after, "{g:?} {before} move {mv}");
    }

    fn check_norm(g: RefGame, before: &str, after: &str) {
        assert_eq!(
            format(&normalize(g, &pos(before))),
            after,
            "{g:?} normalise {before}"
        );
    }

    /// The lap-end pits of a move (None = own store), for the detailed examples.
    fn lap_ends(g: RefGame, p: &RefPos, mv: u8) -> Vec<Option<usize>> {
        let n = p.south.len();
        let side = p.to_move.unwrap();
        sow_turn(g, &board_of(p), p.stores, side, side * n + mv as usize - 1)
            .unwrap()
            .lap_ends
    }

    fn endless_info(g: RefGame, p: &RefPos, mv: u8) -> Endless {
        let n = p.south.len();
        let side = p.to_move.unwrap();
        sow_turn(g, &board_of(p), p.stores, side, side * n + mv as usize - 1).unwrap_err()
    }

    // ----- notation -----

    #[test]
    fn parse_and_format_round_trip() {
        let s = "4,4,4,4,4,4/4,4,4,4,4,4/0,0/S";
        let p = pos(s);
        assert_eq!(p.south, vec![4; 6]);
        assert_eq!(p.to_move, Some(0));
        assert_eq!(format(&p), s);
        assert_eq!(pos("0,0/0,0/3,4/-").to_move, None);
        assert_eq!(pos("1,0/0,2/3,4/N").to_move, Some(1));
        // Leading zeros are accepted on input and not printed.
        assert_eq!(format(&pos("01,0/0,2/3,04/N")), "1,0/0,2/3,4/N");
    }

    #[test]
    fn parse_errors() {
        let bad = [
            "4,4,4/4,4/0,0/S",                 // row lengths differ
            "4,4/4,4,4/0,0/S",                 // row lengths differ
            "/ /0,0/S",                        // empty rows
            "//0,0/S",                         // empty rows
            "4,x/4,4/0,0/S",                   // non-numeric
            "4,4/4,4/0,a/S",                   // non-numeric store
            "4,-1/4,4/0,0/S",                  // negative
            "4,4/4,4/-1,0/S",                  // negative store
            "4,+1/4,4/0,0/S",                  // sign
            "4, 4/4,4/0,0/S",                  // space
            "4,4/4,4/0,0/X",                   // bad side marker
            "4,4/4,4/0,0/s",                   // bad side marker (lower case)
            "4,4/4,4/0,0/",                    // missing side marker
            "4,4/4,4/0,0/SN",                  // bad side marker
            "4,4/4,4/0,0/-",                   // '-' with seeds on board
            "0,0/0,1/0,0/-",                   // '-' with seeds on board
            "4,4/4,4/0/S",                     // one store
            "4,4/4,4/0,0,0/S",                 // three stores
            "4,4/4,4/0,0",                     // missing group
            "4,4/4,4/0,0/S/S",                 // extra group
            "4,,4/4,4,4/0,0/S",                // empty count
            "99999999999,4/4,4/0,0/S",         // too large
            "4000000000,4000000000/0,0/0,0/S", // total too large
        ];
        for s in bad {
            assert!(parse(s).is_err(), "should reject {s:?}");
        }
    }

    // ----- Kalah -----

    #[test]
    fn kalah_k1_to_k5() {
        check_move(
            KALAH,
            "4,4,4,4,4,4/4,4,4,4,4,4/0,0/S",
            3,
            "4,4,0,5,5,5/4,4,4,4,4,4/1,0/S",
        );
        check_move(
            KALAH,
            "4,4,0,5,5,5/4,4,4,4,4,4/1,0/S",
            6,
            "4,4,0,5,5,0/5,5,5,5,4,4/2,0/N",
        );
        check_move(
            KALAH,
            "4,4,0,5,5,0/5,5,5,5,4,4/2,0/N",
            6,
            "5,5,1,5,5,0/5,5,5,5,4,0/2,1/S",
        );
        check_move(
            KALAH,
            "5,5,1,5,5,0/5,5,5,5,4,0/2,1/S",
            1,
            "0,6,2,6,6,0/0,5,5,5,4,0/8,1/N",
        );
        check_move(
            KALAH,
            "13,0,0,0,0,0/1,1,1,1,1,2/0,0/S",
            1,
            "0,1,1,1,1,1/2,2,2,2,2,0/5,0/N",
        );
        // The same moves under every option combination (none of them is affected).
        for g in [KALAH_MOVER, KALAH_EC, KALAH_BOTH] {
            check_move(
                g,
                "4,4,4,4,4,4/4,4,4,4,4,4/0,0/S",
                3,
                "4,4,0,5,5,5/4,4,4,4,4,4/1,0/S",
            );
            check_move(
                g,
                "5,5,1,5,5,0/5,5,5,5,4,0/2,1/S",
                1,
                "0,6,2,6,6,0/0,5,5,5,4,0/8,1/N",
            );
            check_move(
                g,
                "13,0,0,0,0,0/1,1,1,1,1,2/0,0/S",
                1,
                "0,1,1,1,1,1/2,2,2,2,2,0/5,0/N",
            );
        }
    }

    #[test]
    fn kalah_kx1_kx2_kx3() {
        check_move(
            KALAH,
            "0,0,0,0,0,2/0,0,0,0,0,3/20,23/S",
            6,
            "0,0,0,0,0,0/0,0,0,0,0,0/21,27/-",
        );
        check_move(
            KALAH_MOVER,
            "0,0,0,0,0,2/0,0,0,0,0,3/20,23/S",
            6,
            "0,0,0,0,0,0/1,0,0,0,0,3/21,23/N",
        );
        check_move(
            KALAH,
            "1,0,0,0,0,3/1,1,1,1,0,1/0,0/S",
            1,
            "0,1,0,0,0,3/1,1,1,1,0,1/0,0/N",
        );
        check_move(
            KALAH_EC,
            "1,0,0,0,0,3/1,1,1,1,0,1/0,0/S",
            1,
            "0,0,0,0,0,3/1,1,1,1,0,1/1,0/N",
        );
        for g in [KALAH, KALAH_MOVER, KALAH_EC, KALAH_BOTH] {
            check_move(
                g,
                "0,0,0,0,0,1/0,0,1,0,2,0/22,22/S",
                6,
                "0,0,0,0,0,0/0,0,0,0,0,0/23,25/-",
            );
        }
    }

    #[test]
    fn kalah_kx4_normalisation() {
        let s = "0,0,0,0,0,0/1,2,0,0,0,0/20,25/N";
        check_norm(KALAH, s, "0,0,0,0,0,0/0,0,0,0,0,0/20,28/-");
        check_norm(KALAH_EC, s, "0,0,0,0,0,0/0,0,0,0,0,0/20,28/-");
        check_norm(KALAH_MOVER, s, s);
        check_norm(KALAH_BOTH, s, s);
        // With the mover-empty rule, the mover with no seeds ends the game.
        check_norm(
            KALAH_MOVER,
            "0,0,0,0,0,0/1,2,0,0,0,0/20,25/S",
            "0,0,0,0,0,0/0,0,0,0,0,0/20,28/-",
        );
    }

    /// RULES.md §3.7: (holes, seeds, [standard, end-when-mover-empty, empty-capture, both options]).
    const KALAH_START_VALUES: [(usize, u32, [i32; 4]); 17] = [
        (1, 1, [0, 0, 0, 0]),
        (1, 2, [-2, -2, -2, -2]),
        (1, 3, [6, 6, 6, 6]),
        (1, 4, [-2, -2, -2, -2]),
        (2, 1, [2, 2, 2, 2]),
        (2, 2, [-2, -2, -2, 0]),
        (2, 3, [-2, -2, -2, -2]),
        (2, 4, [-10, -12, -12, -10]),
        (3, 1, [0, 0, 0, 0]),
        (3, 2, [4, 4, 4, 4]),
        (3, 3, [2, 2, 2, 4]),
        (3, 4, [2, 2, 2, 0]),
        (4, 1, [2, 2, 2, 2]),
        (4, 2, [6, 6, 6, 6]),
        (4, 3, [6, 6, 8, 8]),
        (5, 1, [0, 0, 0, 0]),
        (6, 1, [2, 2, 2, 2]),
    ];

    fn check_kalah_start_values(select: impl Fn(usize, u32) -> bool) {
        let games = [KALAH, KALAH_MOVER, KALAH_EC, KALAH_BOTH];
        for (holes, seeds, expected) in KALAH_START_VALUES {
            if !select(holes, seeds) {
                continue;
            }
            for (g, want) in games.iter().zip(expected) {
                let v = value(*g, &start(*g, holes, seeds));
                assert_eq!(v, want, "{g:?} {holes}x{seeds}");
            }
        }
    }

    /// The two largest rows of the §3.7 table: 4 x 3 (about 1.4-1.5 million positions,
    /// 15-30 s per option column in release) and 6 x 1 (up to 600 000 positions, up to ~10 s).
    fn is_big_kalah_row(holes: usize, seeds: u32) -> bool {
        (holes, seeds) == (4, 3) || (holes, seeds) == (6, 1)
    }

    /// Every row of the §3.7 table except the two largest (about 7 s in release).
    #[test]
    fn kalah_start_values_table() {
        check_kalah_start_values(|h, s| !is_big_kalah_row(h, s));
    }

    /// Rows 4 x 3 and 6 x 1 of the §3.7 table: 1.5-2.5 minutes in release (machine-dependent).
    #[test]
    #[ignore = "slow: 1.5-2.5 minutes in release"]
    fn kalah_start_values_table_big_rows() {
        check_kalah_start_values(is_big_kalah_row);
    }

    // ----- Dakon -----

    #[test]
    fn dakon_d1_to_d6() {
        let start7 = "7,7,7,7,7,7,7/7,7,7,7,7,7,7/0,0/S";
        check_move(DAKON, start7, 1, "0,8,8,8,8,8,8/7,7,7,7,7,7,7/1,0/S");
        check_move(DAKON, start7, 2, "8,1,8,8,8,8,8/0,8,8,8,8,0,8/9,0/N");
        assert_eq!(lap_ends(DAKON, &pos(start7), 2), vec![Some(7), Some(1)]);
        let d3 = "0,8,8,8,8,8,8/7,7,7,7,7,7,7/1,0/S";
        check_move(DAKON, d3, 2, "6,2,0,1,3,0,4/13,5,13,13,4,13,13/8,0/S");
        let ends: Vec<Option<usize>> = [8, 2, 11, 6, 2, 4, 1, 5, 3, 2, 5]
            .iter()
            .map(|&i| Some(i))
            .chain([None])
            .collect();
        assert_eq!(lap_ends(DAKON, &pos(d3), 2), ends, "D3 lap ends (12 laps)");
        check_move(
            DAKON,
            "1,1,1,1,1,1,3/1,0,2,1,1,1,1/0,0/S",
            7,
            "1,1,1,1,1,1,0/0,0,0,1,1,1,1/6,0/N",
        );
        check_move(
            DAKON_NO_MIKUL,
            "1,1,1,1,1,1,3/1,0,2,1,1,1,1/0,0/S",
            7,
            "1,1,1,1,1,1,0/2,1,2,1,1,1,1/1,0/N",
        );
        check_move(
            DAKON,
            "1,1,1,1,1,1,2/0,1,1,1,1,1,1/0,0/S",
            7,
            "1,1,1,1,1,1,0/1,1,1,1,1,1,1/1,0/N",
        );
        check_move(
            DAKON,
            "1,0,1,1,1,1,1/1,1,1,1,1,5,1/0,0/S",
            1,
            "0,1,1,1,1,1,1/1,1,1,1,1,0,1/5,0/N",
        );
        check_move(
            DAKON_LANDING,
            "1,0,1,1,1,1,1/1,1,1,1,1,5,1/0,0/S",
            1,
            "0,0,1,1,1,1,1/1,1,1,1,1,0,1/6,0/N",
        );
        check_move(
            DAKON_BOTH,
            "1,0,1,1,1,1,1/1,1,1,1,1,5,1/0,0/S",
            1,
            "0,0,1,1,1,1,1/1,1,1,1,1,0,1/6,0/N",
        );
    }

    #[test]
    fn dakon_dx1_dx2() {
        check_move(
            DAKON,
            "0,0,0,0,0,0,1/3,0,0,0,0,0,0/40,54/S",
            7,
            "0,0,0,0,0,0,0/0,0,0,0,0,0,0/41,57/-",
        );
        check_move(
            DAKON,
            "1,0,0,0,0,0,0/0,0,0,0,0,3,0/40,54/S",
            1,
            "0,0,0,0,0,0,0/0,0,0,0,0,0,0/44,54/-",
        );
    }

    #[test]
    fn dakon_opening_moves_2_to_7() {
        let s = start(DAKON, 7, 7);
        assert_eq!(format(&s), "7,7,7,7,7,7,7/7,7,7,7,7,7,7/0,0/S");
        for mv in 2..=7u8 {
            let r = play(DAKON, &s, mv).unwrap();
            assert_eq!(r.stores, [9, 0], "move {mv}");
            assert_eq!(r.to_move, Some(1), "move {mv}");
        }
        assert_eq!(
            format(&play(DAKON, &s, 3).unwrap()),
            "8,8,1,8,8,8,8/8,0,8,8,0,8,8/9,0/N"
        );
        assert_eq!(
            format(&play(DAKON, &s, 7).unwrap()),
            "8,8,8,8,8,8,1/0,8,8,8,8,0,8/9,0/N"
        );
    }

    // ----- Djenon-aboure -----

    #[test]
    fn djenon_j1_j2() {
        let s = "4,4,4,4,4,4/4,4,4,4,4,4/0,0/S";
        check_move(DJENON, s, 1, "2,6,6,0,5,5/5,1,5,5,5,1/2,0/N");
        assert_eq!(
            lap_ends(DJENON, &pos(s), 1),
            vec![Some(3), Some(7), Some(11), Some(3)],
            "J1 4 laps"
        );
        check_move(
            DJENON,
            "2,2,2,2,3,3/1,2,2,2,2,2/0,0/S",
            5,
            "2,2,2,2,1,0/0,2,2,2,2,2/6,0/N",
        );
    }

    #[test]
    fn djenon_jx1_jx2() {
        check_move(
            DJENON,
            "2,0,0,0,0,0/1,1,1,1,1,1/22,18/S",
            1,
            "0,0,0,0,0,0/0,0,0,0,0,0/24,24/-",
        );
        check_move(
            DJENON,
            "2,2,0,0,0,0/1,1,1,1,1,1/20,18/S",
            2,
            "2,1,1,0,0,0/1,1,1,1,1,1/20,18/S",
        );
    }

    #[test]
    fn djenon_j3_endless() {
        let p = pos("2,1,2,3,2,3/1,2,1,5,4,3/0,0/S");
        assert_eq!(candidates(DJENON, &p), vec![1, 3, 4, 5, 6]);
        assert_eq!(legal_moves(DJENON, &p), vec![1, 3, 4, 5]);
        assert_eq!(
            endless_info(DJENON, &p, 6),
            Endless {
                first_lap: 0,
                period: 54
            }
        );
        assert!(play(DJENON, &p, 6).is_err());
        assert_eq!(format(&normalize(DJENON, &p)), format(&p));
    }

    #[test]
    fn djenon_jx3_forced_pass() {
        let p = pos("7,1,0,1,0,1/11,4,3,2,3,4/0,0/S");
        assert_eq!(candidates(DJENON, &p), vec![1]);
        assert_eq!(legal_moves(DJENON, &p), Vec::<u8>::new());
        assert_eq!(
            endless_info(DJENON, &p, 1),
            Endless {
                first_lap: 1,
                period: 462
            }
        );
        let q = normalize(DJENON, &p);
        assert_eq!(format(&q), "7,1,0,1,0,1/11,4,3,2,3,4/0,0/N");
        assert_eq!(legal_moves(DJENON, &q), vec![1, 2, 3, 4, 5, 6]);
    }

    #[test]
    fn djenon_openings_capture_2() {
        let s = start(DJENON, 6, 4);
        let j1 = board_of(&play(DJENON, &s, 1).unwrap());
        for mv in 1..=6u8 {
            let r = play(DJENON, &s, mv).unwrap();
            assert_eq!(r.stores, [2, 0], "move {mv}");
            assert_eq!(r.to_move, Some(1));
            let mut rot = j1.clone();
            rot.rotate_right(mv as usize - 1);
            assert_eq!(board_of(&r), rot, "rotation of J1, move {mv}");
        }
    }

    #[test]
    fn djenon_start_with_one_seed_ends_at_once() {
        assert_eq!(
            format(&start(DJENON, 6, 1)),
            "0,0,0,0,0,0/0,0,0,0,0,0/6,6/-"
        );
    }

    // ----- Walak-pussa -----

    #[test]
    fn walak_w1() {
        let s = "4,4,4,4,4,4,4/4,4,4,4,4,4,4/0,0/S";
        check_move(WALAK, s, 1, "2,1,7,7,7,0,7/0,0,6,1,6,6,0/6,0/N");
        let ends: Vec<Option<usize>> = [4, 9, 0, 6, 12, 4, 6].iter().map(|&i| Some(i)).collect();
        assert_eq!(lap_ends(WALAK, &pos(s), 1), ends, "W1 7 laps");
    }

    #[test]
    fn walak_openings_capture_6() {
        for g in [WALAK, WALAK_SR] {
            let s = start(g, 7, 4);
            let w1 = board_of(&play(g, &s, 1).unwrap());
            for mv in 1..=7u8 {
                let r = play(g, &s, mv).unwrap();
                assert_eq!(r.stores, [6, 0], "move {mv}");
                assert_eq!(r.to_move, Some(1));
                let mut rot = w1.clone();
                rot.rotate_right(mv as usize - 1);
                assert_eq!(board_of(&r), rot, "rotation of W1, move {mv}");
            }
        }
    }

    #[test]
    fn walak_w2_endless() {
        let p = pos("0,1,0,1,0,1,2/1,0,1,0,1,0,1/0,0/S");
        assert_eq!(candidates(WALAK, &p), vec![2, 4, 6, 7]);
        assert_eq!(legal_moves(WALAK, &p), vec![2, 4, 6]);
        assert_eq!(
            endless_info(WALAK, &p, 7),
            Endless {
                first_lap: 0,
                period: 98
            }
        );
        assert_eq!(candidates(WALAK_SR, &p), vec![7]);
        assert_eq!(legal_moves(WALAK_SR, &p), Vec::<u8>::new());
        assert_eq!(
            format(&normalize(WALAK_SR, &p)),
            "0,0,0,0,0,0,0/0,0,0,0,0,0,0/0,9/-"
        );
        assert_eq!(format(&normalize(WALAK, &p)), format(&p));
    }

    const W3: [(&str, u8); 14] = [
        ("0,0,0,0,0,1,0/0,0,0,0,0,1,0/29,25/S", 6),
        ("0,0,0,0,0,0,1/0,0,0,0,0,1,0/29,25/N", 6),
        ("0,0,0,0,0,0,1/0,0,0,0,0,0,1/29,25/S", 7),
        ("0,0,0,0,0,0,0/1,0,0,0,0,0,1/29,25/N", 7),
        ("1,0,0,0,0,0,0/1,0,0,0,0,0,0/29,25/S", 1),
        ("0,1,0,0,0,0,0/1,0,0,0,0,0,0/29,25/N", 1),
        ("0,1,0,0,0,0,0/0,1,0,0,0,0,0/29,25/S", 2),
        ("0,0,1,0,0,0,0/0,1,0,0,0,0,0/29,25/N", 2),
        ("0,0,1,0,0,0,0/0,0,1,0,0,0,0/29,25/S", 3),
        ("0,0,0,1,0,0,0/0,0,1,0,0,0,0/29,25/N", 3),
        ("0,0,0,1,0,0,0/0,0,0,1,0,0,0/29,25/S", 4),
        ("0,0,0,0,1,0,0/0,0,0,1,0,0,0/29,25/N", 4),
        ("0,0,0,0,1,0,0/0,0,0,0,1,0,0/29,25/S", 5),
        ("0,0,0,0,0,1,0/0,0,0,0,1,0,0/29,25/N", 5),
    ];

    #[test]
    fn walak_w3_cycle() {
        for g in [WALAK, WALAK_SR] {
            for i in 0..W3.len() {
                let (before, mv) = W3[i];
                let after = W3[(i + 1) % W3.len()].0;
                check_move(g, before, mv, after);
            }
            check_move(
                g,
                "0,0,0,0,0,0,0/1,0,0,0,0,0,1/29,25/N",
                1,
                "0,0,0,0,0,0,0/0,0,0,0,0,0,0/29,27/-",
            );
            assert_eq!(value(g, &pos(W3[0].0)), 2, "{g:?}");
        }
    }

    #[test]
    fn walak_wx1_wx2() {
        check_move(
            WALAK,
            "0,0,0,0,0,1,0/0,3,0,0,0,0,0/25,27/S",
            6,
            "0,0,0,0,0,0,0/0,0,0,0,0,0,0/29,27/-",
        );
        let p = pos("1,2,0,0,0,0,1/4,0,0,0,0,0,0/0,0/S");
        assert_eq!(legal_moves(WALAK, &p), vec![1, 2, 7]);
        assert_eq!(legal_moves(WALAK_SR, &p), vec![2]);
    }

    // ----- San-Yao -----

    #[test]
    fn sanyao_y1() {
        let s = "5,5,5,5,5/5,5,5,5,5/0,0/S";
        check_move(SANYAO, s, 1, "3,9,2,9,9/9,0,0,0,0/9,0/N");
        let ends: Vec<Option<usize>> = [5, 1, 8, 5, 7, 5].iter().map(|&i| Some(i)).collect();
        assert_eq!(lap_ends(SANYAO, &pos(s), 1), ends, "Y1 6 laps");
    }

    #[test]
    fn sanyao_openings_capture_9() {
        let s = start(SANYAO, 5, 5);
        let y1 = board_of(&play(SANYAO, &s, 1).unwrap());
        for mv in 1..=5u8 {
            let r = play(SANYAO, &s, mv).unwrap();
            assert_eq!(r.stores, [9, 0], "move {mv}");
            assert_eq!(r.to_move, Some(1));
            let mut rot = y1.clone();
            rot.rotate_right(mv as usize - 1);
            assert_eq!(board_of(&r), rot, "rotation of Y1, move {mv}");
        }
    }

    #[test]
    fn sanyao_y2_endless() {
        let p = pos("1,0,2,1,1/0,1,0,1,0/0,0/S");
        assert_eq!(candidates(SANYAO, &p), vec![1, 3, 4, 5]);
        assert_eq!(legal_moves(SANYAO, &p), vec![1, 3, 4]);
        assert_eq!(
            endless_info(SANYAO, &p, 5),
            Endless {
                first_lap: 0,
                period: 50
            }
        );
        assert!(play(SANYAO, &p, 5).is_err());
    }

    const Y3: [(&str, u8); 10] = [
        ("0,0,0,0,0/1,0,0,0,1/19,29/N", 5),
        ("1,0,0,0,0/1,0,0,0,0/19,29/S", 1),
        ("0,1,0,0,0/1,0,0,0,0/19,29/N", 1),
        ("0,1,0,0,0/0,1,0,0,0/19,29/S", 2),
        ("0,0,1,0,0/0,1,0,0,0/19,29/N", 2),
        ("0,0,1,0,0/0,0,1,0,0/19,29/S", 3),
        ("0,0,0,1,0/0,0,1,0,0/19,29/N", 3),
        ("0,0,0,1,0/0,0,0,1,0/19,29/S", 4),
        ("0,0,0,0,1/0,0,0,1,0/19,29/N", 4),
        ("0,0,0,0,1/0,0,0,0,1/19,29/S", 5),
    ];

    #[test]
    fn sanyao_y3_cycle() {
        for i in 0..Y3.len() {
            let (before, mv) = Y3[i];
            let after = Y3[(i + 1) % Y3.len()].0;
            check_move(SANYAO, before, mv, after);
        }
        check_move(SANYAO, Y3[0].0, 1, "0,0,0,0,0/0,1,0,0,1/19,29/N");
        check_move(
            SANYAO,
            "0,0,0,0,0/0,1,0,0,1/19,29/N",
            2,
            "0,0,0,0,0/0,0,0,0,0/19,31/-",
        );
        assert_eq!(value(SANYAO, &pos(Y3[0].0)), -12);
    }

    #[test]
    fn sanyao_yx1_yx2_yx3() {
        check_move(
            SANYAO,
            "0,0,0,0,1/0,0,1,0,0/22,26/S",
            5,
            "0,0,0,0,0/0,0,0,0,0/23,27/-",
        );
        check_move(
            SANYAO,
            "0,0,0,0,0/2,0,0,0,0/24,24/N",
            1,
            "0,0,0,0,0/0,1,1,0,0/24,24/N",
        );
        check_norm(
            SANYAO,
            "0,0,0,0,0/0,0,1,0,0/24,25/S",
            "0,0,0,0,0/0,0,0,0,0/24,26/-",
        );
    }

    // ----- play errors -----

    #[test]
    fn play_errors() {
        let k = pos("4,0,4,4,4,4/4,4,4,4,4,4/0,0/S");
        assert!(play(KALAH, &k, 0).is_err());
        assert!(play(KALAH, &k, 7).is_err());
        assert!(play(KALAH, &k, 2).is_err(), "empty pit");
        assert!(play(KALAH, &k, 1).is_ok());
        let over = pos("0,0,0,0,0,0/0,0,0,0,0,0/24,24/-");
        assert!(play(KALAH, &over, 1).is_err());
        let j = pos("2,1,2,3,2,3/1,2,1,5,4,3/0,0/S");
        assert!(
            play(DJENON, &j, 2).is_err(),
            "singleton is not a Djenon candidate"
        );
        let w = pos("1,2,0,0,0,0,1/4,0,0,0,0,0,0/0,0/S");
        assert!(play(WALAK_SR, &w, 1).is_err(), "singleton restriction");
        assert!(play(WALAK, &w, 1).is_ok());
    }

    // ----- solver cross-checks -----

    /// Plain memoised minimax of the future margin F (South minus North) for acyclic games.
    fn minimax(g: RefGame, x: &RefPos, memo: &mut HashMap<RefPos, i32>) -> i32 {
        if x.to_move.is_none() {
            return 0;
        }
        if let Some(&v) = memo.get(x) {
            return v;
        }
        let mut best: Option<i32> = None;
        for mv in legal_moves(g, x) {
            let r = play(g, x, mv).unwrap();
            let v = store_diff(&r) + minimax(g, &strip(&r), memo);
            best = Some(match best {
                None => v,
                Some(b) if x.to_move == Some(0) => b.max(v),
                Some(b) => b.min(v),
            });
        }
        let v = best.expect("a legal move");
        memo.insert(x.clone(), v);
        v
    }

    fn minimax_value(g: RefGame, p: &RefPos) -> i32 {
        let root = normalize(g, p);
        store_diff(&root) + minimax(g, &strip(&root), &mut HashMap::new())
    }

    /// Depth-first minimax without a table, scoring a repetition on the path as 0 further
    /// margin (§2.10: correct for the root only). Exponential; tiny positions only.
    fn path_minimax(g: RefGame, x: &RefPos, path: &mut HashSet<RefPos>) -> i32 {
        if x.to_move.is_none() || path.contains(x) {
            return 0;
        }
        path.insert(x.clone());
        let mut best: Option<i32> = None;
        for mv in legal_moves(g, x) {
            let r = play(g, x, mv).unwrap();
            let v = store_diff(&r) + path_minimax(g, &strip(&r), path);
            best = Some(match best {
                None => v,
                Some(b) if x.to_move == Some(0) => b.max(v),
                Some(b) => b.min(v),
            });
        }
        path.remove(x);
        best.expect("a legal move")
    }

    fn path_value(g: RefGame, p: &RefPos) -> i32 {
        let root = normalize(g, p);
        store_diff(&root) + path_minimax(g, &strip(&root), &mut HashSet::new())
    }

    #[test]
    fn layer_solver_matches_minimax_kalah() {
        for g in [KALAH, KALAH_MOVER, KALAH_EC, KALAH_BOTH] {
            for (holes, seeds) in [
                (1, 1),
                (1, 5),
                (2, 3),
                (2, 5),
                (3, 1),
                (3, 2),
                (3, 3),
                (4, 1),
                (5, 1),
            ] {
                let s = start(g, holes, seeds);
                assert_eq!(value(g, &s), minimax_value(g, &s), "{g:?} {holes}x{seeds}");
            }
            // Positions after each opening move (including extra turns), and asymmetric ones.
            let s = start(g, 3, 3);
            for mv in legal_moves(g, &s) {
                let r = play(g, &s, mv).unwrap();
                assert_eq!(value(g, &r), minimax_value(g, &r), "{g:?} after {mv}");
            }
            for p in [
                "3,0,5,1/2,4,0,1/7,3/N",
                "0,0,1,6/2,0,0,3/1,0/S",
                "9,0,0,0/1,1,0,2/0,0/S",
            ] {
                let p = pos(p);
                assert_eq!(value(g, &p), minimax_value(g, &p), "{g:?} {}", format(&p));
            }
        }
    }

    #[test]
    fn layer_solver_matches_minimax_dakon() {
        for g in [DAKON, DAKON_LANDING, DAKON_NO_MIKUL, DAKON_BOTH] {
            for (holes, seeds) in [(3, 1), (3, 2), (3, 3), (3, 4), (4, 1), (4, 2), (5, 1)] {
                let s = start(g, holes, seeds);
                assert_eq!(value(g, &s), minimax_value(g, &s), "{g:?} {holes}x{seeds}");
            }
            for p in [
                "1,1,1,1,2/1,0,2,1,1/0,0/S",
                "1,0,1,1,1/1,1,1,5,1/0,0/S",
                "0,2,1,0/1,2,0,2/5,1/N",
                "2,0,3/1,1,1/0,0/S",
                "0,0,0,0,0,0,1/3,0,0,0,0,0,0/40,54/S",
            ] {
                let p = pos(p);
                assert_eq!(value(g, &p), minimax_value(g, &p), "{g:?} {}", format(&p));
            }
        }
    }

    #[test]
    fn layer_solver_matches_path_minimax_cyclic_games() {
        let cases: Vec<(RefGame, &str)> = vec![
            (WALAK, W3[0].0),
            (WALAK, W3[3].0),
            (WALAK_SR, W3[0].0),
            (SANYAO, Y3[0].0),
            (SANYAO, Y3[5].0),
            (WALAK, "1,1/1,1/0,0/S"),
            (WALAK, "2,0,1/0,1,0/0,0/N"),
            (WALAK_SR, "2,1/1,1/0,0/S"),
            (SANYAO, "1,1/1,1/0,0/S"),
            (SANYAO, "2,0,1/0,1,1/0,0/S"),
            (SANYAO, "0,0,1/1,1,0/3,4/N"),
            (DJENON, "2,2/1,1/0,0/S"),
            (DJENON, "3,0,1/1,2,0/0,0/N"),
            (DJENON, "2,2,1/1,2,1/0,0/S"),
        ];
        for (g, s) in cases {
            let p = pos(s);
            assert_eq!(value(g, &p), path_value(g, &p), "{g:?} {s}");
        }
    }

    /// Random small positions of the cyclic games: the layer solver agrees with the
    /// path-cut depth-first search at the root (§2.10).
    #[test]
    fn layer_solver_matches_path_minimax_random() {
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let mut rand = move |m: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % m
        };
        for g in [DJENON, WALAK, WALAK_SR, SANYAO] {
            for _ in 0..60 {
                let n = 2 + rand(2) as usize;
                let total = 2 + rand(5) as u32;
                let mut board = vec![0u32; 2 * n];
                for _ in 0..total {
                    board[rand(2 * n as u64) as usize] += 1;
                }
                let side = rand(2) as usize;
                let p = make_pos(&board, [rand(5) as u32, rand(5) as u32], Some(side));
                assert_eq!(value(g, &p), path_value(g, &p), "{g:?} {}", format(&p));
            }
        }
    }

    #[test]
    fn small_starts_solve_for_every_game() {
        // Values are within the seed bounds and the solver terminates on cyclic games.
        for g in [DJENON, WALAK, WALAK_SR, SANYAO] {
            for holes in 2..=3 {
                for seeds in 1..=2 {
                    let s = start(g, holes, seeds);
                    let v = value(g, &s);
                    let total = (2 * holes) as i32 * seeds as i32;
                    assert!(v.abs() <= total, "{g:?} {holes}x{seeds}: {v}");
                }
            }
        }
    }
}
