//! The combinatorial rank of a board: a perfect, exact index of pit layouts.
//!
//! A layout of `k` seeds in `m` pits is a string of `k` stars and `m - 1` bars ("stars and
//! bars"). Pit `j` holds the stars between bar `j - 1` and bar `j`, so bar `j` stands at
//! position `b_j = c_0 + ... + c_j + j`. The bar positions are an `(m-1)`-subset of
//! `0..k+m-1`, and their colexicographic rank
//!
//! ```text
//! rank_in_layer(c) = Σ_{j=0}^{m-2} C(b_j, j+1)        0 <= rank < C(k+m-1, m-1)
//! ```
//!
//! is a bijection between the layouts of one layer (seed count `k`) and `0..layer_len(k, m)`:
//! no hashing, no wasted slot. Layers are stacked in order of seed count, so
//! `key = layers_below(k, m) + rank_in_layer` numbers every layout with at most `K` seeds in
//! `0..C(K+m, m)`. Example, 3 pits: `[0,0,0]` → 0; `[1,0,0]`,`[0,1,0]`,`[0,0,1]` → 1, 2, 3 in
//! some order; `[2,0,0]` … → 4.. (C(1+3,3) = 4 layouts hold fewer than 2 seeds).

/// Largest `n` in the binomial table: seeds on the board plus pits, with room.
const BINOM_N: usize = 300;
/// Largest `k` in the binomial table: the most pits of any board, plus one.
const BINOM_K: usize = 21;

/// `C(n, k)` for `n < BINOM_N`, `k < BINOM_K`, as `u128` (C(299, 20) < 2^108).
static BINOM: [[u128; BINOM_K]; BINOM_N] = binomials();

const fn binomials() -> [[u128; BINOM_K]; BINOM_N] {
    let mut t = [[0u128; BINOM_K]; BINOM_N];
    let mut n = 0;
    while n < BINOM_N {
        t[n][0] = 1;
        let mut k = 1;
        while k < BINOM_K && k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
}

/// [`BINOM`] truncated to its low 64 bits: `C(n, k) mod 2^64`.
static BINOM64: [[u64; BINOM_K]; BINOM_N] = truncated(&BINOM);

const fn truncated(t: &[[u128; BINOM_K]; BINOM_N]) -> [[u64; BINOM_K]; BINOM_N] {
    let mut out = [[0u64; BINOM_K]; BINOM_N];
    let mut n = 0;
    while n < BINOM_N {
        let mut k = 0;
        while k < BINOM_K {
            out[n][k] = t[n][k] as u64;
            k += 1;
        }
        n += 1;
    }
    out
}

/// `C(n, k)`; 0 when `k > n`.
///
/// # Panics
/// When `n >= 300` or `k > 20` (no board of the project needs more).
#[inline(always)]
pub fn binomial(n: usize, k: usize) -> u128 {
    BINOM[n][k]
}

/// Number of layouts of `k` seeds in `m` pits: `C(k+m-1, m-1)`.
#[inline]
pub fn layer_len(k: u32, m: usize) -> u128 {
    binomial(k as usize + m - 1, m - 1)
}

/// Number of layouts of fewer than `k` seeds in `m` pits: `C(k-1+m, m)` (0 for `k = 0`).
#[inline]
pub fn layers_below(k: u32, m: usize) -> u128 {
    if k == 0 {
        0
    } else {
        binomial(k as usize - 1 + m, m)
    }
}

/// The rank of a layout among the layouts with the same seed total; `pit(j)` gives pit `j`'s
/// count for `j < m`.
#[inline(always)]
pub fn rank_in_layer(m: usize, pit: impl Fn(usize) -> u8) -> u128 {
    let mut rank = 0u128;
    let mut bar = 0usize; // position of the next bar = seeds so far + bars so far
    for j in 0..m - 1 {
        bar += pit(j) as usize;
        rank += binomial(bar, j + 1);
        bar += 1;
    }
    rank
}

/// The layout of `k` seeds in `m` pits with the given rank (the inverse of [`rank_in_layer`]).
///
/// # Panics
/// When `rank >= layer_len(k, m)`.
pub fn unrank_in_layer(k: u32, m: usize, mut rank: u128, out: &mut [u8]) {
    assert!(
        rank < layer_len(k, m),
        "rank {rank} out of range for {k} seeds in {m} pits"
    );
    // Bars are recovered from the last down: b_j is the largest b with C(b, j+1) <= rank.
    let mut next_bar = k as usize + m - 1; // position just after the last bar's range
    for j in (0..m - 1).rev() {
        let mut b = next_bar - 1;
        while binomial(b, j + 1) > rank {
            b -= 1;
        }
        rank -= binomial(b, j + 1);
        out[j + 1] = (next_bar - b - 1) as u8;
        next_bar = b;
    }
    out[0] = next_bar as u8;
}

/// `KEY64_MAX_SEEDS[m]`: the most seeds a layout of `m` pits may hold for [`key64`] to be exact
/// (every key of a layout with at most that many seeds is below `2^64`).
pub static KEY64_MAX_SEEDS: [u32; BINOM_K] = key64_max_seeds(&BINOM);

const fn key64_max_seeds(t: &[[u128; BINOM_K]; BINOM_N]) -> [u32; BINOM_K] {
    let mut out = [0u32; BINOM_K];
    let mut m = 1;
    while m < BINOM_K {
        // Keys of layouts with at most k seeds are below layers_below(k + 1, m) = C(k + m, m),
        // which grows with k; the table must also hold C(k + m - 1, ·).
        let mut k = 0usize;
        while k + 1 + m < BINOM_N && t[k + 1 + m][m] <= u64::MAX as u128 + 1 {
            k += 1;
        }
        out[m] = k as u32;
        m += 1;
    }
    out
}

/// [`key`] computed in `u64` arithmetic in one pass over the pits, for layouts whose key is below
/// `2^64` (see [`KEY64_MAX_SEEDS`]). The `m` counts in key order are `front` followed by `back`
/// (the mover's view is two runs of the board's array: two plain loops over slices, because the
/// search ranks every child and a chained iterator costs far more instructions).
///
/// One pass suffices because the stacked key is itself a colex rank: giving the last pit a bar too
/// (at `b_{m-1} = k + m - 1`), its term `C(k + m - 1, m)` is exactly `layers_below(k, m)`, so
/// `key = Σ_{j=0}^{m-1} C(b_j, j+1)`, `b_j` the bar after pit `j`.
///
/// Why wrapping arithmetic on truncated binomials is exact: every term and partial sum is the true
/// value modulo `2^64`, and the true total is below `2^64`, so the sum modulo `2^64` is the total.
#[inline(always)]
pub fn key64(front: &[u8], back: &[u8]) -> u64 {
    let mut sum = 0u64;
    let mut bar = 0usize;
    for (j, &c) in front.iter().enumerate() {
        bar += c as usize;
        sum = sum.wrapping_add(BINOM64[bar][j + 1]);
        bar += 1;
    }
    let base = front.len() + 1;
    for (j, &c) in back.iter().enumerate() {
        bar += c as usize;
        sum = sum.wrapping_add(BINOM64[bar][j + base]);
        bar += 1;
    }
    sum
}

/// [`rank_in_layer`] in `u64` arithmetic (exact when the layer has at most `2^64` layouts, by the
/// argument of [`key64`]): the same sum without the last pit's term. The pits are `front`
/// followed by `back`, at least one in all.
#[inline(always)]
pub fn rank64_in_layer(front: &[u8], back: &[u8]) -> u64 {
    match back.split_last() {
        Some((_, back)) => key64(front, back),
        None => key64(&front[..front.len() - 1], &[]),
    }
}

/// [`BINOM64`] transposed, `BINOM64_BY_K[k][n] = C(n, k) mod 2^64`: with `k` fixed by the
/// caller, a lookup is one load at `base_k + 8n`, no multiply by a row length.
static BINOM64_BY_K: [[u64; BINOM_N]; BINOM_K] = transposed(&BINOM64);

const fn transposed(t: &[[u64; BINOM_K]; BINOM_N]) -> [[u64; BINOM_N]; BINOM_K] {
    let mut out = [[0u64; BINOM_N]; BINOM_K];
    let mut n = 0;
    while n < BINOM_N {
        let mut k = 0;
        while k < BINOM_K {
            out[k][n] = t[n][k];
            k += 1;
        }
        n += 1;
    }
    out
}

/// [`rank64_in_layer`] of the first `M` byte lanes of `word` (pit `j` in lane `j`, the lanes
/// from `M` up empty), for layouts of at most `257 - M` seeds: the bar positions of all pits are
/// computed at once, then summed as in [`key64`]. `M` is a constant so that the sum unrolls into
/// a shift, a byte move and an add per pit.
///
/// ```text
/// word:            c15 ... c2  c1  c0          one pit per byte lane
/// word * 0x01…01:  …   c0+c1+c2  c0+c1  c0     lane j: c_0 + ... + c_j (below 256: no carry)
/// + RAMP:          …   +2        +1     +0     lane j: b_j, the position of bar j (below 256)
/// ```
///
/// A carry out of an unused lane (past `M - 2`) only moves up, into lanes that are not read.
#[inline(always)]
pub fn rank64_of_word<const M: usize>(word: u128) -> u64 {
    rank64_of_prefix_sums::<M>(word.wrapping_mul(WORD_ONES))
}

/// 1 in every byte lane of a word: a word times it holds its lanes' prefix sums.
const WORD_ONES: u128 = u128::MAX / 0xff;

/// [`rank64_of_word`] from the word's prefix sums (`word * WORD_ONES`: lane `j` holds
/// `c_0 + ... + c_j`), which [`key64_of_word_counted`] also reads its seed count from.
#[inline(always)]
fn rank64_of_prefix_sums<const M: usize>(prefix: u128) -> u64 {
    const RAMP: u128 = u128::from_le_bytes([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    const { assert!(M >= 1 && M <= 16) };
    let bars = prefix.wrapping_add(RAMP);
    let (lo, hi) = (bars as u64, (bars >> 64) as u64);
    let mut sum = 0u64;
    for j in 0..M - 1 {
        let b = if j < 8 {
            lo >> (8 * j)
        } else {
            hi >> (8 * (j - 8))
        } as u8;
        sum = sum.wrapping_add(BINOM64_BY_K[j + 1][b as usize]);
    }
    sum
}

/// The most seeds [`key64_of_word_counted`] keys on `M` pits: what a word's rank allows
/// ([`rank64_of_word`]) and what a 64-bit key does ([`KEY64_MAX_SEEDS`]).
#[inline(always)]
pub fn key64_of_word_max_seeds<const M: usize>() -> u32 {
    (257 - M as u32).min(KEY64_MAX_SEEDS[M])
}

/// [`key64`] of the first `M` byte lanes of `word`, with the seed count read off the word itself
/// (the last pit's prefix sum, which the rank computes anyway), or `None` when the layout holds more seeds than
/// [`key64_of_word_max_seeds`]. The first `M` byte lanes of `word` hold the pits, the others
/// nothing, and all of them together at most 255 seeds (a board's most,
/// [`crate::board::MAX_BOARD_SEEDS`]), so that no prefix sum carries out of its lane.
///
/// The search keys every child by it: counting the seeds apart cost as much as the rank.
#[inline(always)]
pub fn key64_of_word_counted<const M: usize>(word: u128) -> Option<u64> {
    let prefix = word.wrapping_mul(WORD_ONES);
    let seeds = (prefix >> (8 * (M - 1))) as u8 as u32;
    if seeds > key64_of_word_max_seeds::<M>() {
        return None;
    }
    Some(rank64_of_prefix_sums::<M>(prefix).wrapping_add(BINOM64_BY_K[M][seeds as usize + M - 1]))
}

/// Part of [`rank64_in_layer`]: the terms of the pits `first..first + counts.len()` of a layout
/// whose pits before `first` hold `before` seeds, `counts` giving those pits (wrapping `u64`
/// arithmetic, exact under the conditions of [`key64`]). The rank of a layout is the sum of such
/// parts over any split of its pits, the last pit left out.
pub fn rank64_terms(counts: &[u8], first: usize, before: u32) -> u64 {
    let mut sum = 0u64;
    let mut bar = before as usize + first;
    for (i, &c) in counts.iter().enumerate() {
        bar += c as usize;
        sum = sum.wrapping_add(BINOM64_BY_K[first + i + 1][bar]);
        bar += 1;
    }
    sum
}

/// Steps `c` to the layout of the same layer with the next rank ([`rank_in_layer`] + 1); false
/// when `c` has the layer's largest rank (and is left unchanged).
///
/// In bar positions this is the colexicographic successor: the lowest bar `j` that can move up
/// (the pit after it is not empty) moves up one, and the bars below it go back to the bottom.
/// In pit counts: one seed leaves pit `j + 1`, and pit `j` gathers it with every seed of pits
/// `0..=j`, which are emptied.
#[inline]
pub fn next_layout(c: &mut [u8]) -> bool {
    let mut below = 0u8;
    for j in 0..c.len().saturating_sub(1) {
        below += c[j];
        if c[j + 1] > 0 {
            c[j + 1] -= 1;
            c[..j].fill(0);
            c[j] = below + 1;
            return true;
        }
    }
    false
}

/// The key of a layout among all layouts with at most `K` seeds: layers stacked by seed count.
#[inline]
pub fn key(m: usize, seeds: u32, pit: impl Fn(usize) -> u8) -> u128 {
    layers_below(seeds, m) + rank_in_layer(m, pit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials_are_right() {
        assert_eq!(binomial(5, 2), 10);
        assert_eq!(binomial(60, 12), 1_399_358_844_975);
        assert_eq!(binomial(4, 5), 0);
        // Pascal's rule everywhere in the table.
        for n in 1..BINOM_N {
            for k in 1..BINOM_K {
                assert_eq!(binomial(n, k), binomial(n - 1, k - 1) + binomial(n - 1, k));
            }
        }
    }

    /// The word forms equal the slice forms up to their limits: every board of 1 to 16 pits,
    /// with the most seeds a word's rank and a 64-bit key allow, and a few fewer.
    #[test]
    fn word_ranks_agree_with_slice_ranks_at_their_limits() {
        fn check<const M: usize>() {
            let mut state = 0x9e37_79b9_7f4a_7c15u64 ^ M as u64;
            let mut next = move || {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state
            };
            // A board holds at most 255 seeds (a pit is a byte).
            let most = (257 - M as u32).min(255).min(KEY64_MAX_SEEDS[M]);
            for _ in 0..2000 {
                let k = most - (next() % 4).min(most as u64) as u32;
                let len = layer_len(k, M);
                let rank = u128::from(next()) % len;
                let mut c = [0u8; 16];
                unrank_in_layer(k, M, rank, &mut c[..M]);
                let word = u128::from_le_bytes(c);
                assert_eq!(
                    rank64_of_word::<M>(word),
                    rank64_in_layer(&c[..M], &[]),
                    "{c:?}"
                );
                assert_eq!(rank64_of_word::<M>(word) as u128, rank, "{c:?}");
                assert_eq!(
                    key64_of_word_counted::<M>(word),
                    (k <= key64_of_word_max_seeds::<M>()).then(|| key64(&c[..M], &[])),
                    "{c:?}"
                );
                let split = M / 2;
                let by_parts = rank64_terms(&c[..split], 0, 0).wrapping_add(rank64_terms(
                    &c[split..M - 1],
                    split,
                    c[..split].iter().map(|&x| u32::from(x)).sum(),
                ));
                assert_eq!(by_parts, rank64_of_word::<M>(word), "{c:?}");
            }
            // Past the limit, up to a board's most seeds: no key, wherever the seeds lie.
            for k in most + 1..=255 {
                let mut c = [0u8; 16];
                c[0] = (k / 2) as u8;
                c[M - 1] += (k - k / 2) as u8;
                let word = u128::from_le_bytes(c);
                assert_eq!(key64_of_word_counted::<M>(word), None, "{c:?}");
            }
        }
        check::<1>();
        check::<2>();
        check::<3>();
        check::<4>();
        check::<5>();
        check::<6>();
        check::<7>();
        check::<8>();
        check::<9>();
        check::<10>();
        check::<11>();
        check::<12>();
        check::<13>();
        check::<14>();
        check::<15>();
        check::<16>();
    }

    #[test]
    fn key64_limits_are_tight() {
        for (m, &k) in KEY64_MAX_SEEDS.iter().enumerate().skip(1) {
            assert!(layers_below(k + 1, m) <= 1u128 << 64, "m = {m}");
            if (k as usize) + 1 + m < BINOM_N {
                assert!(layers_below(k + 2, m) > 1u128 << 64, "m = {m}");
            }
        }
        // The largest 64-bit key of 12 pits (every seed in the first pit), and a spread layout.
        let k = KEY64_MAX_SEEDS[12];
        assert!(k >= 96, "Kalah 6x8 must take the fast path");
        let mut l = [0u8; 12];
        l[0] = k as u8;
        assert_eq!(key64(&l, &[]) as u128, key(12, k, |j| l[j]));
        assert_eq!(key64(&l, &[]) as u128, layers_below(k + 1, 12) - 1);
        let l = [9u8, 0, 17, 3, 8, 8, 0, 1, 20, 4, 2, 24];
        let k: u32 = l.iter().map(|&c| u32::from(c)).sum();
        assert_eq!(key64(&l, &[]) as u128, key(12, k, |j| l[j]));
    }

    /// Stepping through a layer from rank 0 visits every rank in order.
    #[test]
    fn next_layout_steps_the_rank_by_one() {
        for m in 1..=6 {
            for k in 0..=6u32 {
                let mut c = vec![0u8; m];
                unrank_in_layer(k, m, 0, &mut c);
                let mut r = 0u128;
                loop {
                    assert_eq!(rank_in_layer(m, |j| c[j]), r, "m {m} k {k} {c:?}");
                    if !next_layout(&mut c) {
                        break;
                    }
                    r += 1;
                }
                assert_eq!(r + 1, layer_len(k, m));
            }
        }
    }

    /// Every layout of small layers, enumerated directly, ranks to a distinct slot in range, and
    /// unranks back.
    #[test]
    fn rank_is_a_bijection_on_small_layers() {
        fn layouts(k: u32, m: usize) -> Vec<Vec<u8>> {
            if m == 1 {
                return vec![vec![k as u8]];
            }
            let mut v = Vec::new();
            for first in 0..=k {
                for mut rest in layouts(k - first, m - 1) {
                    rest.insert(0, first as u8);
                    v.push(rest);
                }
            }
            v
        }
        for (m, &max_k) in KEY64_MAX_SEEDS.iter().enumerate().take(7).skip(1) {
            for k in 0..=7 {
                let all = layouts(k, m);
                assert_eq!(all.len() as u128, layer_len(k, m));
                let mut seen = vec![false; all.len()];
                for l in &all {
                    let r = rank_in_layer(m, |j| l[j]) as usize;
                    assert!(!seen[r]);
                    seen[r] = true;
                    let mut back = vec![0u8; m];
                    unrank_in_layer(k, m, r as u128, &mut back);
                    assert_eq!(&back, l);
                    let key = key(m, k, |j| l[j]);
                    assert!(k <= max_k);
                    for cut in 0..=m {
                        let (front, back) = l.split_at(cut);
                        assert_eq!(key64(front, back) as u128, key);
                        assert_eq!(rank64_in_layer(front, back) as usize, r);
                    }
                    assert!(key >= layers_below(k, m) && key < layers_below(k + 1, m));
                }
            }
        }
    }
}
