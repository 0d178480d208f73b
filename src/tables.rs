//! The mancala side of the endgame tables: a perfect index of each layer for the `tables` crate,
//! table identities, and the default table directory.
//!
//! Layer `k` holds every board with `k` seeds in its `2n` pits, **seen from the mover**: slot `i`
//! is the rank ([`crate::rank::rank_in_layer`]) of the pit counts read from the mover's first
//! pit, the mover's row first. Every game treats both players alike, so a board with North to
//! move has the value of the rotated board with South to move, and one table serves both sides:
//! `C(k + 2n - 1, 2n - 1)` slots, no hashing, none wasted. A slot whose board is not a normalised
//! position with South to move (one side's row empty when that ends the game, or no legal move so
//! the turn passes at once) is never met by the search; it holds 0.
//!
//! ```
//! use mancala::{board::Move, rules::Kalah, tables::MancalaIndexer, Position};
//! use solver::Indexer;
//! let ix = MancalaIndexer::new(Kalah::default(), 6);
//! let p = Position::start(Kalah::default(), 6, 4).unwrap().try_play(Move(1)).unwrap(); // North to move
//! let slot = ix.index(&p);
//! let q = ix.position(48, slot).unwrap(); // the same board from North's seat, South to move
//! assert_eq!(q.to_string(), "4,4,4,4,4,4/0,5,5,5,5,4/0,0/S");
//! ```

use std::path::PathBuf;

use solver::{FixedVec, Indexer, Placed, Schedule, OVER};
use tables::TableId;

use crate::board::{Pits, Side};
use crate::rank;
use crate::rules::{with_word_size, KalahWord, Rules, WordMove};
use crate::Position;

/// The environment variable naming the default table directory.
pub const TABLES_ENV: &str = "MANCALA_TABLES";

/// The default table directory: `$MANCALA_TABLES`, else `$XDG_CACHE_HOME/mancala/tables`, else
/// `$HOME/.cache/mancala/tables`, else `mancala-tables` in the current directory.
pub fn default_dir() -> PathBuf {
    let var = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(d) = var(TABLES_ENV) {
        return d;
    }
    if let Some(c) = var("XDG_CACHE_HOME") {
        return c.join("mancala").join("tables");
    }
    if let Some(h) = var("HOME") {
        return h.join(".cache").join("mancala").join("tables");
    }
    PathBuf::from("mancala-tables")
}

/// The identity of the tables of `rules` on `holes` holes: game name, options, holes.
pub fn table_id<R: Rules>(rules: &R, holes: u8) -> TableId {
    TableId {
        game: R::KIND.name().to_string(),
        options: rules.option_names().into_iter().map(String::from).collect(),
        holes: holes as u32,
    }
}

/// A perfect index of the positions of one game on one board size, layer by layer (see the
/// module docs).
#[derive(Clone, Copy, Debug)]
pub struct MancalaIndexer<R: Rules> {
    rules: R,
    holes: u8,
    /// Kalah's one-word move generator, when the rules are Kalah's and the board fits a word.
    word: Option<KalahWord>,
}

impl<R: Rules> MancalaIndexer<R> {
    /// The index of `rules` on `holes` holes per row.
    pub fn new(rules: R, holes: u8) -> Self {
        let word = rules.as_kalah().and_then(|k| KalahWord::new(k, holes));
        Self { rules, holes, word }
    }

    /// Pits on the board, `2n`.
    fn pits(&self) -> usize {
        2 * self.holes as usize
    }

    /// The rules.
    pub fn rules(&self) -> &R {
        &self.rules
    }

    /// Holes per row.
    pub fn holes(&self) -> u8 {
        self.holes
    }
}

impl<R: Rules> Indexer for MancalaIndexer<R> {
    type G = Position<R>;

    /// `C(k + 2n - 1, 2n - 1)`, saturated at `u64::MAX` (a layer that large cannot be built
    /// anyway; the builder refuses it by its memory estimate).
    fn layer_len(&self, layer: u32) -> u64 {
        u64::try_from(rank::layer_len(layer, self.pits())).unwrap_or(u64::MAX)
    }

    /// [`rank::rank_in_layer`] of the pits from the mover's first pit, in `u64` arithmetic
    /// ([`rank::rank64_in_layer`]: exact, as the layer's length fits; see `layer_len`).
    #[inline]
    fn index(&self, pos: &Position<R>) -> u64 {
        debug_assert_eq!(pos.board().holes, self.holes);
        let (front, back) = pos.mover_rows();
        let rank = rank::rank64_in_layer(front, back);
        debug_assert_eq!(
            rank as u128,
            rank::rank_in_layer(self.pits(), |j| pos.mover_pit(j))
        );
        rank
    }

    fn position(&self, layer: u32, index: u64) -> Option<Position<R>> {
        let m = self.pits();
        let mut pits = [0u8; 2 * crate::board::MAX_HOLES];
        rank::unrank_in_layer(layer, m, index as u128, &mut pits[..m]);
        self.live(&pits[..m])
    }

    /// Unranks the first slot, then steps from layout to layout ([`rank::next_layout`]), which
    /// costs a few byte operations instead of an unranking per slot.
    fn for_each_position(
        &self,
        layer: u32,
        slots: std::ops::Range<u64>,
        wanted: &mut dyn FnMut(u64) -> bool,
        f: &mut dyn FnMut(u64, Option<Position<R>>),
    ) {
        if slots.is_empty() {
            return;
        }
        let m = self.pits();
        let mut pits = [0u8; 2 * crate::board::MAX_HOLES];
        rank::unrank_in_layer(layer, m, slots.start as u128, &mut pits[..m]);
        for slot in slots {
            if wanted(slot) {
                f(slot, self.live(&pits[..m]));
            }
            rank::next_layout(&mut pits[..m]);
        }
    }

    /// For Kalah on up to 7 holes: [`KalahStages`], by the potential of RULES.md §8.2.
    fn schedule(&self, layer: u32) -> Option<Box<dyn Schedule + '_>> {
        let word = self.word?;
        // The rank of a word needs at most `257 - 2n` seeds.
        if layer as usize + self.pits() > 257 {
            return None;
        }
        Some(Box::new(KalahStages::new(word, layer)))
    }

    /// Exact: the schedule is made and measured (a few milliseconds).
    fn schedule_bytes(&self, layer: u32) -> u64 {
        let Some(word) = self.word else { return 0 };
        if layer as usize + self.pits() > 257 {
            return 0;
        }
        KalahStages::new(word, layer).heap_bytes()
    }
}

impl<R: Rules> MancalaIndexer<R> {
    /// The position of the layout `pits` (read from the mover's first pit) with South to move,
    /// when normalisation leaves it as it is: a board where normalisation changes anything (the
    /// game ends, or the turn passes at once) is never met by the search with South to move.
    fn live(&self, pits: &[u8]) -> Option<Position<R>> {
        if let Some(word) = &self.word {
            let p = Pits::from_slice(pits);
            let w = p.low_word();
            let live = with_word_size!(word.holes(), |N, M| word.live::<N>(w));
            return live.then(|| Position::south_to_move_unchecked(self.rules, self.holes, p));
        }
        self.general_live(pits)
    }

    /// [`MancalaIndexer::live`] by the general position code: normalise, and see whether
    /// anything changed.
    fn general_live(&self, pits: &[u8]) -> Option<Position<R>> {
        let p = Position::from_pits_unchecked(self.rules, self.holes, pits, Side::South);
        // Compared as whole boards, not as slices: a slice comparison of run-time length is a
        // call to `memcmp` (1% of a build).
        (p.to_move() == Some(Side::South) && p.board().pits == Pits::from_slice(pits)).then_some(p)
    }
}

/// The stages of a Kalah layer: positions by increasing distance of their seeds to the stores.
///
/// The potential of a row is `Φ(row) = Σ i·row[i]` (pit `i` counted from the row's first pit,
/// so the pit next to the store weighs most), and of a board the sum over both rows: RULES.md
/// §8.2's potential (seeds times steps to the store) counted from the other end. A move that
/// stays in the layer sows `s` seeds from pit `j` into pits `j+1..=j+s` of the mover's own row
/// (reaching the store or capturing would bank seeds), which raises the mover's row's potential
/// by `(j+1) + ... + (j+s) - s·j = s(s+1)/2 > 0`, and leaves the other row as it is. The board
/// seen from the next mover has the same two rows. So every internal edge raises `Φ`, and stage
/// `t` (from 0) holds the positions with `Φ = (n-1)·k - t`.
///
/// Within a stage the positions `(a, b)` (mover's row `a`, opponent's row `b`) are visited with
/// `a` fixed and `b` running through its rows of the right seed count and potential in colex
/// order. A passing move from `(a, b)` leads to the board `(b, a')` seen from the opponent, whose
/// slot is `a'`'s contribution (fixed while `a` is) plus `b`'s colex rank: the children of
/// successive positions, move by move, lie in increasing slots close together, instead of all
/// over the layer.
pub(crate) struct KalahStages {
    word: KalahWord,
    /// The layer: seeds on the board.
    layer: u32,
    /// Every row of at most `k` seeds (pit `i` in byte `i`), grouped by seeds and potential,
    /// each group in colex order.
    rows: Vec<u64>,
    /// For each row `x` of `rows`, the rank terms ([`rank::rank64_terms`]) it adds to a board:
    /// as the mover's row (`front`); as the opponent's row of this layer (`back`) and of the
    /// layer below (`back_below`: a board after a move that banked one seed, for the mover's
    /// row holding the rest).
    front: Vec<u64>,
    back: Vec<u64>,
    back_below: Vec<u64>,
    /// `front_plus[r - 1][x]`: the terms of row `x` with a seed added to each of its first `r`
    /// pits, in front (the opponent's row after a sowing that passed the store and ended `r`
    /// pits into it, seen from its owner, who moves next).
    front_plus: Vec<Vec<u64>>,
    /// `front_zero[p][x]`: the terms of row `x` with pit `p` emptied, in front (the opponent's
    /// row after a capture from its pit `p`, seen from its owner, who moves next).
    front_zero: Vec<Vec<u64>>,
    /// The work of each stage, in units.
    stages: Vec<Stage>,
}

// Memory: the rows of at most k seeds number C(k + n, n), against C(k + 2n - 1, 2n - 1) slots in
// the layer: for 6 holes and k = 19, 177 k rows of 8 + 8 * (3 + 2n) = 128 bytes (and the stages'
// pieces), about 23 MiB against 54.6 M slots of 3 bytes. The build's estimate counts it
// ([`Indexer::schedule_bytes`]).

/// The units of work of one stage: unit `u` is `pieces[bounds[u]..bounds[u+1]]`.
struct Stage {
    pieces: Vec<Piece>,
    bounds: Vec<u32>,
}

/// Every position `(a, b)` with `a` in `rows[a]` and `b` in `rows[b]`; the rows `b` hold
/// `seeds_b` seeds.
struct Piece {
    a: std::ops::Range<u32>,
    b: std::ops::Range<u32>,
    seeds_b: u32,
}

/// The moves of the live board `w` (mover's view, `2N` lanes; `M = 2N`) of `seeds` seeds,
/// placed, by [`KalahWord`]: each child is ranked from its word
/// ([`rank::rank64_of_word`]), and its layer is `seeds` less what the move banked.
#[inline(always)]
fn word_moves<const N: usize, const M: usize>(
    word: &KalahWord,
    w: u128,
    seeds: u32,
    out: &mut FixedVec<Placed>,
) {
    word.for_each_move::<N>(w, |_, mv| out.push(placed::<M>(mv, seeds)));
}

/// About how many positions a unit of work holds (so that the pipeline of a unit stays full and
/// the units are many more than the threads).
const UNIT: usize = 4096;

impl KalahStages {
    fn new(word: KalahWord, layer: u32) -> Self {
        let n = word.holes() as usize;
        let k = layer as usize;
        // The largest potential of a row (or a board) of k seeds.
        let top = (n - 1) * k;
        // Group every row of at most k seeds by (seeds, potential): a counting sort.
        let class = |seeds: usize, phi: usize| seeds * (top + 1) + phi;
        let mut all: Vec<(usize, u64)> = Vec::new();
        let mut row = [0u8; 8];
        for seeds in 0..=k {
            rank::unrank_in_layer(seeds as u32, n, 0, &mut row[..n]);
            loop {
                let phi: usize = row[..n]
                    .iter()
                    .enumerate()
                    .map(|(i, &c)| i * c as usize)
                    .sum();
                all.push((class(seeds, phi), u64::from_le_bytes(row)));
                if !rank::next_layout(&mut row[..n]) {
                    break;
                }
            }
        }
        let classes = (k + 1) * (top + 1);
        let mut start = vec![0u32; classes + 1];
        for &(c, _) in &all {
            start[c + 1] += 1;
        }
        for c in 0..classes {
            start[c + 1] += start[c];
        }
        let mut rows = vec![0u64; all.len()];
        let mut at = start.clone();
        for &(c, w) in &all {
            rows[at[c] as usize] = w;
            at[c] += 1;
        }
        let seeds_of = |x: u64| x.to_le_bytes().iter().map(|&c| u32::from(c)).sum::<u32>();
        // In front, all n pits have a term; behind, the last pit of the board has none.
        let front = rows
            .iter()
            .map(|&x| rank::rank64_terms(&x.to_le_bytes()[..n], 0, 0))
            .collect();
        // Behind, in a board of `k` seeds the mover's row holds `k - |x|` (one fewer a layer
        // down; a row of all `k` seeds has no position behind it there, and its entry is unused).
        let behind = |x: u64, seeds: u32| rank::rank64_terms(&x.to_le_bytes()[..n - 1], n, seeds);
        let back = rows
            .iter()
            .map(|&x| behind(x, layer - seeds_of(x)))
            .collect();
        let back_below = rows
            .iter()
            .map(|&x| behind(x, (layer - seeds_of(x)).saturating_sub(1)))
            .collect();
        let front_plus = (1..=n)
            .map(|r| {
                rows.iter()
                    .map(|&x| {
                        let mut p = x.to_le_bytes();
                        for c in &mut p[..r] {
                            *c += 1;
                        }
                        rank::rank64_terms(&p[..n], 0, 0)
                    })
                    .collect()
            })
            .collect();
        let front_zero = (0..n)
            .map(|p| {
                rows.iter()
                    .map(|&x| {
                        let mut c = x.to_le_bytes();
                        c[p] = 0;
                        rank::rank64_terms(&c[..n], 0, 0)
                    })
                    .collect()
            })
            .collect();
        let group =
            |seeds: usize, phi: usize| start[class(seeds, phi)]..start[class(seeds, phi) + 1];
        let stages = (0..=top)
            .map(|t| {
                let phi = top - t;
                let mut pieces = Vec::new();
                let mut bounds = vec![0u32];
                let mut in_unit = 0usize;
                for seeds_a in 0..=k {
                    let seeds_b = k - seeds_a;
                    for phi_a in 0..=((n - 1) * seeds_a).min(phi) {
                        let phi_b = phi - phi_a;
                        if phi_b > (n - 1) * seeds_b {
                            continue;
                        }
                        let (a, b) = (group(seeds_a, phi_a), group(seeds_b, phi_b));
                        if a.is_empty() || b.is_empty() {
                            continue;
                        }
                        let per_a = b.len();
                        let step = (UNIT / per_a).max(1) as u32;
                        let mut from = a.start;
                        while from < a.end {
                            let to = (from + step).min(a.end);
                            pieces.push(Piece {
                                a: from..to,
                                b: b.clone(),
                                seeds_b: seeds_b as u32,
                            });
                            in_unit += (to - from) as usize * per_a;
                            if in_unit >= UNIT {
                                bounds.push(pieces.len() as u32);
                                in_unit = 0;
                            }
                            from = to;
                        }
                    }
                }
                if in_unit > 0 {
                    bounds.push(pieces.len() as u32);
                }
                Stage { pieces, bounds }
            })
            .collect();
        KalahStages {
            word,
            layer,
            rows,
            front,
            back,
            back_below,
            front_plus,
            front_zero,
            stages,
        }
    }

    /// The memory its tables take.
    fn heap_bytes(&self) -> u64 {
        let words = self.rows.capacity()
            + self.front.capacity()
            + self.back.capacity()
            + self.back_below.capacity()
            + self.front_plus.iter().map(Vec::capacity).sum::<usize>()
            + self.front_zero.iter().map(Vec::capacity).sum::<usize>();
        let stages: usize = self
            .stages
            .iter()
            .map(|s| {
                s.pieces.capacity() * std::mem::size_of::<Piece>()
                    + s.bounds.capacity() * std::mem::size_of::<u32>()
            })
            .sum();
        (words * 8 + stages + self.stages.capacity() * std::mem::size_of::<Stage>()) as u64
    }

    /// [`Schedule::for_each`] on `N` holes (`M = 2N` pits).
    ///
    /// While the mover's row `a` stays the same and `b` runs through a group, most moves of `a`
    /// do the same thing to every board, and so is most of their children's rank:
    ///
    /// - a sowing that ends in the mover's own row, on a pit that held seeds (no capture), leads
    ///   to `(b, a')` in this layer, turn passed: slot `front[b] + R`, with `R` the rank terms of
    ///   `a'` behind `b`'s `|b|` seeds;
    /// - a sowing that ends in the store leads to `(a', b)` one layer down, same mover: slot
    ///   `R + back_below[b]`, with `R` the terms of `a'` in front;
    /// - a sowing that passes the store and ends `r` pits into the opponent's row leads to
    ///   `(b + 1 in its first r pits, a')` one layer down, turn passed: slot
    ///   `front_plus[r - 1][b] + R`, with `R` the terms of `a'` behind `|b| + r` seeds;
    /// - a sowing that ends in an empty pit of the mover's row depends on `b` only through the
    ///   opposite pit `p`: with `v` seeds there it captures them (or under the standard rule, with
    ///   none, the seed stays: slot `front[b] + R` as above), leading to `(b without pit p, a')`
    ///   `1 + v` layers down: slot `front_zero[p][b]` plus the terms of `a'` behind `|b| - v`
    ///   seeds (five table reads, as `v` varies);
    ///
    /// so all are worked out once per `a` ([`Plan`]), and per board cost an add or a few. The
    /// board's own slot is `front[a] + back[b]`. Every other move (a sowing round the board, a
    /// move that ends the game) is sown on the whole board ([`KalahWord::one_move`]).
    ///
    /// Measured on 6 holes (tables identical): planning the last two kinds as well, instead of
    /// sowing them on the whole board, took the K=18 build from 7.11 to 5.99 s on 1 thread, and
    /// from 3.56-3.58 to 3.10-3.22 s (K=18) and 5.98-6.37 to 5.06-5.39 s (K=19) on 2.
    #[inline(always)]
    fn visit<const N: usize, const M: usize>(
        &self,
        pieces: &[Piece],
        f: &mut dyn FnMut(u64, Option<&[Placed]>),
    ) {
        let k = self.layer;
        const UNSET: Placed = Placed {
            gain: 0,
            turn_passed: false,
            layer: OVER,
            slot: 0,
        };
        let mut buf = [[UNSET; 8]; CHUNK];
        let mut count = [0usize; CHUNK];
        let rules = self.word.rules();
        for p in pieces {
            for ai in p.a.start as usize..p.a.end as usize {
                let a = self.rows[ai];
                let a_front = self.front[ai];
                // The mover's row holds seeds, and so does the opponent's unless the game ends
                // only when the mover has none (`KalahWord::live`, the same for the whole piece).
                let live = a != 0 && (rules.end_when_mover_empty || p.seeds_b > 0);
                if !live {
                    for bi in p.b.start as usize..p.b.end as usize {
                        debug_assert!(!self
                            .word
                            .live::<N>(a as u128 | (self.rows[bi] as u128) << (8 * N)));
                        f(a_front.wrapping_add(self.back[bi]), None);
                    }
                    continue;
                }
                let plan = Plan::of::<N>(a, p.seeds_b, rules.empty_capture);
                let mut start = p.b.start as usize;
                while start < p.b.end as usize {
                    let len = (p.b.end as usize - start).min(CHUNK);
                    let chunk = start..start + len;
                    count[..len].fill(0);
                    let mut push = |x: usize, m: Placed| {
                        buf[x][count[x]] = m;
                        count[x] += 1;
                    };
                    // Move by move over the chunk, in increasing pit order for each board.
                    for (j, step) in plan.steps[..N].iter().enumerate() {
                        match *step {
                            Step::Empty => {}
                            Step::Within(r) => {
                                for (x, &front) in self.front[chunk.clone()].iter().enumerate() {
                                    push(
                                        x,
                                        Placed {
                                            gain: 0,
                                            turn_passed: true,
                                            layer: k,
                                            slot: front.wrapping_add(r),
                                        },
                                    );
                                }
                            }
                            Step::Store(r) => {
                                for (x, &below) in self.back_below[chunk.clone()].iter().enumerate()
                                {
                                    push(
                                        x,
                                        Placed {
                                            gain: 1,
                                            turn_passed: false,
                                            layer: k - 1,
                                            slot: r.wrapping_add(below),
                                        },
                                    );
                                }
                            }
                            Step::Beyond(r, terms) => {
                                let plus = &self.front_plus[usize::from(r) - 1][chunk.clone()];
                                for (x, &front) in plus.iter().enumerate() {
                                    push(
                                        x,
                                        Placed {
                                            gain: 1,
                                            turn_passed: true,
                                            layer: k - 1,
                                            slot: front.wrapping_add(terms),
                                        },
                                    );
                                }
                            }
                            Step::Capture {
                                opposite,
                                row,
                                no_capture,
                            } => {
                                let zero = &self.front_zero[usize::from(opposite)];
                                for (x, bi) in chunk.clone().enumerate() {
                                    let b = self.rows[bi];
                                    let taken = b.to_le_bytes()[usize::from(opposite)];
                                    push(
                                        x,
                                        if let (0, Some(stays)) = (taken, no_capture) {
                                            // Standard rule, nothing opposite: the seed stays.
                                            Placed {
                                                gain: 0,
                                                turn_passed: true,
                                                layer: k,
                                                slot: self.front[bi].wrapping_add(stays),
                                            }
                                        } else if u32::from(taken) < p.seeds_b {
                                            let t = p.seeds_b - u32::from(taken);
                                            let behind = rank::rank64_terms(
                                                &row.to_le_bytes()[..N - 1],
                                                N,
                                                t,
                                            );
                                            Placed {
                                                gain: 1 + i32::from(taken),
                                                turn_passed: true,
                                                layer: k - 1 - u32::from(taken),
                                                slot: zero[bi].wrapping_add(behind),
                                            }
                                        } else {
                                            // The capture empties the opponent's row: the game
                                            // ends.
                                            let w = a as u128 | (b as u128) << (8 * N);
                                            placed::<M>(self.word.one_move::<N>(w, j), k)
                                        },
                                    );
                                }
                            }
                            Step::Sow => {
                                for (x, bi) in chunk.clone().enumerate() {
                                    let w = a as u128 | (self.rows[bi] as u128) << (8 * N);
                                    push(x, placed::<M>(self.word.one_move::<N>(w, j), k));
                                }
                            }
                        }
                    }
                    for (x, bi) in chunk.enumerate() {
                        let slot = a_front.wrapping_add(self.back[bi]);
                        let moves = &buf[x][..count[x]];
                        debug_assert!({
                            let w = a as u128 | (self.rows[bi] as u128) << (8 * N);
                            let mut all = FixedVec::new();
                            word_moves::<N, M>(&self.word, w, k, &mut all);
                            slot == rank::rank64_of_word::<M>(w)
                                && self.word.live::<N>(w)
                                && all.as_slice() == moves
                        });
                        f(slot, Some(moves));
                    }
                    start += len;
                }
            }
        }
    }
}

/// Boards of one mover's row that [`KalahStages::visit`] works on together, move by move: it
/// matches on each pit's [`Step`] once per chunk, not once per board (an indirect jump that the
/// branch predictor missed). Measured on 6 holes, K=18, 1 thread: 5.91 -> 4.95-5.10 s.
const CHUNK: usize = 32;

/// What each pit's move does on the boards `(a, b)` of one mover's row `a` (see
/// [`KalahStages::visit`]).
struct Plan {
    steps: [Step; 8],
}

/// One pit's move in a [`Plan`].
#[derive(Clone, Copy)]
enum Step {
    /// The pit is empty: no move.
    Empty,
    /// Ends in the mover's row without a capture; the rank terms of the sown row behind the
    /// opponent's.
    Within(u64),
    /// Ends in the store; the rank terms of the sown row in front.
    Store(u64),
    /// Passes the store and ends this many pits into the opponent's row (no lap), leaving seeds
    /// in the mover's row; the rank terms of the sown row behind the opponent's, which now
    /// holds that many more seeds.
    Beyond(u8, u64),
    /// Ends in an empty pit of the mover's row, opposite the opponent's pit `opposite`; `row` is
    /// the mover's row after the capture (pits as bytes). `no_capture`: under the standard rule,
    /// the rank terms of the sown row behind the opponent's for when the opposite pit is empty
    /// and the seed stays (none under the empty-capture rule, which banks it anyway).
    Capture {
        opposite: u8,
        row: u64,
        no_capture: Option<u64>,
    },
    /// Depends on the opponent's row: sow the whole board.
    Sow,
}

impl Plan {
    /// The plan of the mover's row `a` (`N` pits) against opponent's rows of `seeds_b` seeds.
    #[inline(always)]
    fn of<const N: usize>(a: u64, seeds_b: u32, empty_capture: bool) -> Plan {
        let mut steps = [Step::Empty; 8];
        let pits = a.to_le_bytes();
        for j in 0..N {
            let s = pits[j] as usize;
            if s == 0 {
                continue;
            }
            let last = j + s;
            // The row after the sowing, when it stays in the row or ends in the store.
            let mut sown = pits;
            sown[j] = 0;
            for x in &mut sown[j + 1..last.min(N)] {
                *x += 1;
            }
            let sown_seeds: u32 = sown[..N].iter().map(|&x| u32::from(x)).sum();
            steps[j] = if last < N && pits[last] > 0 && seeds_b > 0 {
                // Lands on seeds (no capture); the opponent's row is not empty, so the game goes
                // on whatever the rule for its end.
                sown[last] += 1;
                Step::Within(rank::rank64_terms(&sown[..N - 1], N, seeds_b))
            } else if last == N && seeds_b > 0 && sown_seeds > 0 {
                // Banks one seed and moves again; both rows hold seeds, so the game goes on.
                Step::Store(rank::rank64_terms(&sown[..N], 0, 0))
            } else if last < N && pits[last] == 0 && seeds_b > 0 && sown_seeds > 0 {
                // Lands in an empty pit of the mover's row. What happens depends on the pit
                // opposite; the mover's row keeps seeds after a capture (`sown` is that row: its
                // pit `last` is still empty), so the game goes on unless the capture empties the
                // opponent's row.
                let no_capture = (!empty_capture).then(|| {
                    let mut stays = sown;
                    stays[last] = 1;
                    rank::rank64_terms(&stays[..N - 1], N, seeds_b)
                });
                Step::Capture {
                    opposite: (N - 1 - last) as u8,
                    row: u64::from_le_bytes(sown),
                    no_capture,
                }
            } else if last > N && last <= 2 * N && sown_seeds > 0 {
                // Banks one seed and ends in the opponent's row, which now holds seeds; the
                // mover's row still does, so the game goes on whatever the rule for its end.
                let r = last - N;
                Step::Beyond(
                    r as u8,
                    rank::rank64_terms(&sown[..N - 1], N, seeds_b + r as u32),
                )
            } else {
                Step::Sow
            };
        }
        Plan { steps }
    }
}

/// A move from [`KalahWord`] as [`Placed`], from a board of `seeds` seeds, ranking the child.
#[inline(always)]
fn placed<const M: usize>(mv: WordMove, seeds: u32) -> Placed {
    match mv {
        WordMove::Over { mover, opponent } => Placed {
            gain: mover as i32 - opponent as i32,
            turn_passed: true,
            layer: OVER,
            slot: 0,
        },
        WordMove::Next {
            pits,
            banked,
            passed,
        } => Placed {
            gain: banked as i32,
            turn_passed: passed,
            layer: seeds - banked,
            slot: rank::rank64_of_word::<M>(pits),
        },
    }
}

impl Schedule for KalahStages {
    fn stages(&self) -> usize {
        self.stages.len()
    }

    fn units(&self, stage: usize) -> usize {
        self.stages[stage].bounds.len() - 1
    }

    fn for_each(&self, stage: usize, unit: usize, f: &mut dyn FnMut(u64, Option<&[Placed]>)) {
        let s = &self.stages[stage];
        let pieces = &s.pieces[s.bounds[unit] as usize..s.bounds[unit + 1] as usize];
        with_word_size!(self.word.holes(), |N, M| self.visit::<N, M>(pieces, f))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Kalah;
    use solver::{Children, Game};

    /// The moves of `pos` (a live board with South to move) by the general rules, placed: the
    /// children by the general position code, each live one indexed.
    fn general_moves<R: Rules>(ix: &MancalaIndexer<R>, pos: &Position<R>) -> Vec<Placed> {
        let mut kids = Children::new();
        pos.general_children(&mut kids);
        kids.as_slice()
            .iter()
            .map(|c| Placed {
                gain: c.gain,
                turn_passed: c.turn_passed,
                layer: if c.next.is_over() {
                    OVER
                } else {
                    c.next.layer()
                },
                slot: if c.next.is_over() {
                    0
                } else {
                    ix.index(&c.next)
                },
            })
            .collect()
    }

    /// The moves of `pos` by the schedule's generator, [`word_moves`].
    fn fast_moves<R: Rules>(ix: &MancalaIndexer<R>, pos: &Position<R>) -> Vec<Placed> {
        let word = ix.word.expect("Kalah on at most 7 holes");
        let (w, k) = (pos.board().pits.low_word(), pos.layer());
        let mut out = FixedVec::new();
        with_word_size!(ix.holes, |N, M| word_moves::<N, M>(&word, w, k, &mut out));
        out.as_slice().to_vec()
    }

    /// The fast and the general moves of `pos` agree, and so do its `Game::children`.
    fn check_children<R: Rules>(ix: &MancalaIndexer<R>, pos: &Position<R>) {
        assert_eq!(fast_moves(ix, pos), general_moves(ix, pos), "{pos}");
        let (mut fast, mut general) = (Children::new(), Children::new());
        pos.children(&mut fast);
        pos.general_children(&mut general);
        assert_eq!(fast.as_slice(), general.as_slice(), "{pos}");
    }

    /// A fixed-start xorshift generator: `next(bound)` is in `0..bound`.
    fn below(seed: u64) -> impl FnMut(u64) -> u64 {
        let mut state = seed;
        move |bound| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % bound
        }
    }

    const KALAHS: [Kalah; 4] = [
        Kalah {
            empty_capture: false,
            end_when_mover_empty: false,
        },
        Kalah {
            empty_capture: true,
            end_when_mover_empty: false,
        },
        Kalah {
            empty_capture: false,
            end_when_mover_empty: true,
        },
        Kalah {
            empty_capture: true,
            end_when_mover_empty: true,
        },
    ];

    /// Kalah's one-word generator against the general rules, under all four option sets, on
    /// every layout of the small layers of every board it handles (laps of a whole circuit
    /// included on the boards of up to 3 holes): the same live boards, the same children.
    #[test]
    fn kalah_word_agrees_with_the_rules_on_small_layers() {
        for holes in 1..=7u8 {
            let top = match holes {
                1..=3 => 14,
                4 => 9,
                5 => 7,
                6 => 6,
                _ => 5,
            };
            let m = 2 * holes as usize;
            for rules in KALAHS {
                let ix = MancalaIndexer::new(rules, holes);
                assert!(ix.word.is_some());
                for k in 0..=top {
                    let mut pits = [0u8; 32];
                    for slot in 0..ix.layer_len(k) {
                        rank::unrank_in_layer(k, m, slot as u128, &mut pits[..m]);
                        let live = ix.live(&pits[..m]);
                        assert_eq!(live, ix.general_live(&pits[..m]), "{:?}", &pits[..m]);
                        if let Some(pos) = live {
                            check_children(&ix, &pos);
                        }
                    }
                }
            }
        }
    }

    /// The search's Kalah children and keys (from the one-word generator) against the general
    /// rules: random positions of 1 to 7 holes, either side to move, stores not empty, every
    /// option set. Whole positions are compared: pits, stores, side to move.
    #[test]
    fn kalah_word_children_and_keys_match_the_general_code() {
        let mut next = below(0x2545_f491_4f6c_dd1du64);
        for holes in 1..=7u8 {
            let m = 2 * holes as usize;
            for rules in KALAHS {
                for _ in 0..5_000 {
                    let k = next(rank::KEY64_MAX_SEEDS[m].min(120) as u64 + 1) as u32;
                    let mut pits = [0u8; 32];
                    let slot = next(u64::MAX) % (rank::layer_len(k, m) as u64);
                    rank::unrank_in_layer(k, m, slot as u128, &mut pits[..m]);
                    let setup = crate::notation::Setup {
                        south: pits[..holes as usize].iter().map(|&x| x as u32).collect(),
                        north: pits[holes as usize..m].iter().map(|&x| x as u32).collect(),
                        stores: [next(40) as u32, next(40) as u32],
                        to_move: Some(if next(2) == 0 {
                            Side::South
                        } else {
                            Side::North
                        }),
                    };
                    let pos = Position::from_setup(rules, &setup).expect("a valid setup");
                    assert_eq!(pos.key(), pos.general_key(), "{pos}");
                    let (mut fast, mut general) = (Children::new(), Children::new());
                    pos.children(&mut fast);
                    pos.general_children(&mut general);
                    assert_eq!(fast.as_slice(), general.as_slice(), "{pos}");
                }
            }
        }
    }

    /// The build's memory estimate counts the schedule: Kalah's holds 16 words for each row of
    /// at most `k` seeds (the row, its 3 + 2n rank terms, for 6 holes) besides its stages; the
    /// other games have none.
    #[test]
    fn schedule_bytes_count_every_row() {
        let ix = MancalaIndexer::new(KALAHS[0], 6);
        assert_eq!(
            ix.schedule_bytes(0),
            KalahStages::new(ix.word.unwrap(), 0).heap_bytes()
        );
        for k in [1u32, 6, 12] {
            let rows = rank::layers_below(k + 1, 6) as u64;
            let bytes = ix.schedule_bytes(k);
            assert!(
                bytes >= rows * 128,
                "layer {k}: {bytes} bytes for {rows} rows"
            );
            // The stages add little: a piece per few thousand positions or per pair of groups.
            assert!(bytes < rows * 256 + 4096, "layer {k}: {bytes} bytes");
        }
        let dakon = MancalaIndexer::new(crate::rules::Dakon::default(), 7);
        assert_eq!(dakon.schedule_bytes(10), 0);
    }

    /// Kalah's stages visit every slot of a layer once, with the moves of the position `position`
    /// gives (as the general rules place them), and every move inside the layer leads to an
    /// earlier stage.
    #[test]
    fn kalah_stages_cover_each_slot_once_children_first() {
        for holes in 1..=7u8 {
            let top = match holes {
                1..=3 => 12,
                4 => 8,
                5 => 6,
                6 => 5,
                _ => 4,
            };
            for rules in KALAHS {
                let ix = MancalaIndexer::new(rules, holes);
                for k in 0..=top {
                    let schedule = ix.schedule(k).expect("Kalah has stages");
                    let mut stage_of = vec![usize::MAX; ix.layer_len(k) as usize];
                    for stage in 0..schedule.stages() {
                        for unit in 0..schedule.units(stage) {
                            schedule.for_each(stage, unit, &mut |slot, moves| {
                                assert_eq!(
                                    stage_of[slot as usize],
                                    usize::MAX,
                                    "slot {slot} twice"
                                );
                                stage_of[slot as usize] = stage;
                                let pos = ix.position(k, slot);
                                assert_eq!(moves.is_some(), pos.is_some(), "slot {slot}");
                                if let (Some(moves), Some(pos)) = (moves, pos) {
                                    assert_eq!(moves, general_moves(&ix, &pos), "{pos}");
                                }
                            });
                        }
                    }
                    for (slot, &stage) in stage_of.iter().enumerate() {
                        assert_ne!(stage, usize::MAX, "slot {slot} of layer {k} never visited");
                        let Some(pos) = ix.position(k, slot as u64) else {
                            continue;
                        };
                        for m in general_moves(&ix, &pos) {
                            if m.layer == k {
                                assert!(stage_of[m.slot as usize] < stage, "{pos}");
                            }
                        }
                    }
                }
            }
        }
    }

    /// The same on random boards of 6 and 7 holes with up to 200 seeds, as far as slots fit in
    /// 64 bits (long laps, big pits).
    #[test]
    fn kalah_word_agrees_with_the_rules_on_random_boards() {
        let mut next = below(0x9e37_79b9_7f4a_7c15u64);
        for holes in [6u8, 7] {
            let m = 2 * holes as usize;
            for rules in KALAHS {
                let ix = MancalaIndexer::new(rules, holes);
                // Slots are u64: the layers whose length fits.
                let most = rank::KEY64_MAX_SEEDS[m].min(200);
                for _ in 0..20_000 {
                    let k = next(most as u64 + 1) as u32;
                    let slot = next(u64::MAX) % ix.layer_len(k);
                    let mut pits = [0u8; 32];
                    rank::unrank_in_layer(k, m, slot as u128, &mut pits[..m]);
                    let live = ix.live(&pits[..m]);
                    assert_eq!(live, ix.general_live(&pits[..m]), "{:?}", &pits[..m]);
                    if let Some(pos) = live {
                        check_children(&ix, &pos);
                    }
                }
            }
        }
    }
}
