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
        for m in 1..=6 {
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
                    assert!(key >= layers_below(k, m) && key < layers_below(k + 1, m));
                }
            }
        }
    }
}
