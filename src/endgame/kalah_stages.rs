//! Kalah's layers solved in stages, from the highest potential down: [`KalahStages`].

use solver::{try_vec, AllocError, FixedVec, Placed, Schedule, OVER};

use super::kalah_plan::{placed, word_moves, Plan, Step};
use crate::rank;
use crate::rules::{with_word_size, KalahWord};

/// The stages of a Kalah layer: positions by increasing distance of their seeds to the stores.
///
/// The potential of a row is `Φ(row) = Σ i·row[i]` (pit `i` counted from the row's first pit,
/// so the pit next to the store weighs most), and of a board the sum over both rows: docs/rules.md
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

/// About how many positions a unit of work holds (so that the pipeline of a unit stays full and
/// the units are many more than the threads).
const UNIT: usize = 4096;

impl KalahStages {
    /// The stages of `layer`.
    ///
    /// # Errors
    /// [`AllocError`] when the row tables (about `row_count * 144` bytes while they are made,
    /// see [`KalahStages::row_count`]) cannot be allocated.
    pub(super) fn new(word: KalahWord, layer: u32) -> Result<Self, AllocError> {
        let n = word.holes() as usize;
        let k = layer as usize;
        // The largest potential of a row (or a board) of k seeds.
        let top = (n - 1) * k;
        // Group every row of at most k seeds by (seeds, potential): a counting sort.
        let class = |seeds: usize, phi: usize| seeds * (top + 1) + phi;
        let count = usize::try_from(Self::row_count(n, layer)).unwrap_or(usize::MAX);
        let what = || format!("the stages of layer {layer}");
        // Every table below has one entry per row: each is allocated fallibly, then filled.
        let table = |x: &mut dyn Iterator<Item = u64>| -> Result<Vec<u64>, AllocError> {
            let mut v = try_vec(count, what)?;
            v.extend(x);
            Ok(v)
        };
        let mut all: Vec<(usize, u64)> = try_vec(count, what)?;
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
        let mut rows = table(&mut std::iter::repeat_n(0, all.len()))?;
        let mut at = start.clone();
        for &(c, w) in &all {
            rows[at[c] as usize] = w;
            at[c] += 1;
        }
        drop(all);
        let seeds_of = |x: u64| x.to_le_bytes().iter().map(|&c| u32::from(c)).sum::<u32>();
        // In front, all n pits have a term; behind, the last pit of the board has none.
        let front = table(
            &mut rows
                .iter()
                .map(|&x| rank::rank64_terms(&x.to_le_bytes()[..n], 0, 0)),
        )?;
        // Behind, in a board of `k` seeds the mover's row holds `k - |x|` (one fewer a layer
        // down; a row of all `k` seeds has no position behind it there, and its entry is unused).
        let behind = |x: u64, seeds: u32| rank::rank64_terms(&x.to_le_bytes()[..n - 1], n, seeds);
        let back = table(&mut rows.iter().map(|&x| behind(x, layer - seeds_of(x))))?;
        let back_below = table(
            &mut rows
                .iter()
                .map(|&x| behind(x, (layer - seeds_of(x)).saturating_sub(1))),
        )?;
        let front_plus = (1..=n)
            .map(|r| {
                table(&mut rows.iter().map(|&x| {
                    let mut p = x.to_le_bytes();
                    for c in &mut p[..r] {
                        *c += 1;
                    }
                    rank::rank64_terms(&p[..n], 0, 0)
                }))
            })
            .collect::<Result<_, _>>()?;
        let front_zero = (0..n)
            .map(|p| {
                table(&mut rows.iter().map(|&x| {
                    let mut c = x.to_le_bytes();
                    c[p] = 0;
                    rank::rank64_terms(&c[..n], 0, 0)
                }))
            })
            .collect::<Result<_, _>>()?;
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
        Ok(KalahStages {
            word,
            layer,
            rows,
            front,
            back,
            back_below,
            front_plus,
            front_zero,
            stages,
        })
    }

    /// The rows of at most `layer` seeds in `holes` pits, C(layer + holes, holes): the length of
    /// each row table.
    pub(super) fn row_count(holes: usize, layer: u32) -> u128 {
        rank::binomial(layer as usize + holes, holes)
    }

    /// The bytes of the row tables, `rows`, `front`, `back`, `back_below` and the `2n` of
    /// `front_plus` and `front_zero`, 8 bytes an entry: most of [`KalahStages::heap_bytes`]
    /// (the stages' pieces add the rest), known without making them.
    pub(super) fn row_table_bytes(holes: usize, layer: u32) -> u64 {
        let words = Self::row_count(holes, layer).saturating_mul(4 + 2 * holes as u128);
        u64::try_from(words.saturating_mul(8)).unwrap_or(u64::MAX)
    }

    /// The memory its tables take.
    pub(super) fn heap_bytes(&self) -> u64 {
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
    /// move that ends the game) is sown on the whole board ([`KalahWord::one_move`]); the last
    /// two kinds are planned too because that pays (docs/performance.md, "Figures behind
    /// comments").
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
/// branch predictor missed).
const CHUNK: usize = 32;

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
