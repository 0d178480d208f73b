//! Calibrated opponents: a perfect player weakened on purpose, by a known amount, so that agents
//! can be measured against a ladder of strengths (issue 55).
//!
//! Given every legal move's **exact** value, [`Calibrated::choose`] picks a move in one of three
//! ways:
//!
//! - **perfect** (`epsilon = 0`, `temperature = 0`): the perfect player's move;
//! - **epsilon-random**: with probability `epsilon`, a legal move drawn uniformly (the best
//!   moves included), else the move the rest of the calibration picks;
//! - **softmax** (`temperature > 0`): a move drawn with probability proportional to
//!   `exp(value / temperature)`, values in seeds from the mover's side. At `temperature = 1` a
//!   move one seed worse than another is played `e ≈ 2.7` times less often; as the temperature
//!   grows the choice tends to uniform, as it falls to the perfect player.
//!
//! The two combine: with probability `epsilon` a uniform move, otherwise the softmax (or the
//! perfect move when `temperature` is 0).
//!
//! Every draw comes from a seeded generator of this module's own ([`SplitMix64`]): the same
//! seed and the same values give the same moves on every machine and every version. The `rand`
//! crate's `StdRng` says its algorithm may change between releases, and a reproducible game
//! record is the point here; a ten-line generator whose output is fixed by its definition costs
//! less than pinning `rand_chacha`, and its statistical quality is ample for picking moves.
//!
//! ```
//! use mancala::calibrated::{Calibrated, Calibration, Pick};
//! let values = [(1u8, -4), (2, 6), (3, 6), (4, -10)]; // (move, exact value for the mover)
//! let mut perfect = Calibrated::new(Calibration::PERFECT, 7);
//! assert_eq!(perfect.choose(&values, 2), (2, Pick::Perfect));
//! // Half the moves uniformly random; the same seed replays the same moves.
//! let noisy = Calibration::new(0.5, 0.0).unwrap();
//! let game = |seed| {
//!     let mut player = Calibrated::new(noisy, seed);
//!     (0..20).map(|_| player.choose(&values, 2).0).collect::<Vec<_>>()
//! };
//! assert_eq!(game(7), game(7));
//! ```

use std::fmt;

/// How far from perfect a calibrated player plays: the probability of a uniformly random move
/// and the softmax temperature (0 for none).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Calibration {
    epsilon: f64,
    temperature: f64,
}

/// A calibration that cannot be used: a probability outside `[0, 1]`, or a temperature that is
/// negative or not a number.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CalibrationError {
    /// `epsilon` is a probability: it must lie in `[0, 1]`.
    Epsilon(f64),
    /// The temperature must be a finite number of at least 0.
    Temperature(f64),
}

impl fmt::Display for CalibrationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CalibrationError::Epsilon(e) => write!(
                f,
                "epsilon {e} is not a probability: it must lie between 0 and 1"
            ),
            CalibrationError::Temperature(t) => write!(
                f,
                "temperature {t} must be a finite number of at least 0 (0: no softmax)"
            ),
        }
    }
}

impl std::error::Error for CalibrationError {}

impl Calibration {
    /// The perfect player: never a random move, no softmax.
    pub const PERFECT: Calibration = Calibration {
        epsilon: 0.0,
        temperature: 0.0,
    };

    /// A calibration, checked: `epsilon` in `[0, 1]`, `temperature` finite and at least 0.
    ///
    /// # Errors
    /// [`CalibrationError`] naming the value out of range.
    pub fn new(epsilon: f64, temperature: f64) -> Result<Self, CalibrationError> {
        if !(0.0..=1.0).contains(&epsilon) {
            return Err(CalibrationError::Epsilon(epsilon));
        }
        if !(temperature.is_finite() && temperature >= 0.0) {
            return Err(CalibrationError::Temperature(temperature));
        }
        Ok(Calibration {
            epsilon,
            temperature,
        })
    }

    /// The probability of a uniformly random move.
    pub fn epsilon(&self) -> f64 {
        self.epsilon
    }

    /// The softmax temperature, in seeds (0: no softmax).
    pub fn temperature(&self) -> f64 {
        self.temperature
    }

    /// Whether this is the perfect player (no randomness at all).
    pub fn is_perfect(&self) -> bool {
        self.epsilon == 0.0 && self.temperature == 0.0
    }

    /// The probability of each move under this calibration, in the order of `values`, given the
    /// perfect move `perfect`: what [`Calibrated::choose`] samples from. Sums to 1.
    pub fn probabilities<M: Copy + PartialEq>(&self, values: &[(M, i32)], perfect: M) -> Vec<f64> {
        let n = values.len();
        if n == 0 {
            return Vec::new();
        }
        let uniform = self.epsilon / n as f64;
        let rest = 1.0 - self.epsilon;
        if self.temperature == 0.0 {
            return values
                .iter()
                .map(|&(m, _)| uniform + if m == perfect { rest } else { 0.0 })
                .collect();
        }
        let weights = softmax_weights(values, self.temperature);
        let total: f64 = weights.iter().sum();
        weights.iter().map(|w| uniform + rest * w / total).collect()
    }
}

/// `exp((v - best) / t)` per move: the softmax's unnormalised weights, shifted so that the best
/// move weighs 1 and no exponential overflows.
fn softmax_weights<M>(values: &[(M, i32)], t: f64) -> Vec<f64> {
    let best = values.iter().map(|v| v.1).max().unwrap_or(0);
    values
        .iter()
        .map(|&(_, v)| ((f64::from(v) - f64::from(best)) / t).exp())
        .collect()
}

/// How a move was picked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// The perfect player's move.
    Perfect,
    /// A uniformly random legal move (the `epsilon` draw); it may be a best move all the same.
    Random,
    /// A draw from the softmax of the exact values.
    Softmax,
}

/// A calibrated player: a [`Calibration`] and its seeded generator. Each call of
/// [`Calibrated::choose`] advances the generator, so one player over one game replays the same
/// moves from the same seed.
#[derive(Clone, Debug)]
pub struct Calibrated {
    calibration: Calibration,
    rng: SplitMix64,
}

impl Calibrated {
    /// A player with `calibration`, its generator seeded by `seed`.
    pub fn new(calibration: Calibration, seed: u64) -> Self {
        Self {
            calibration,
            rng: SplitMix64::new(seed),
        }
    }

    /// The calibration.
    pub fn calibration(&self) -> Calibration {
        self.calibration
    }

    /// Picks a move among `values`, every legal move with its exact value from the mover's side
    /// (any order); `perfect` is the move the perfect player makes (a best move: the first one,
    /// or the one that leaves a cycle of best play, docs/rules.md §13.5). The perfect player
    /// draws nothing, so its generator is untouched.
    ///
    /// # Panics
    /// When `values` is empty: a position with no legal move has no move to pick.
    pub fn choose<M: Copy + PartialEq>(&mut self, values: &[(M, i32)], perfect: M) -> (M, Pick) {
        assert!(!values.is_empty(), "a move is picked among at least one");
        let c = self.calibration;
        if c.is_perfect() {
            return (perfect, Pick::Perfect);
        }
        if c.epsilon > 0.0 && self.rng.unit() < c.epsilon {
            return (values[self.rng.below(values.len())].0, Pick::Random);
        }
        if c.temperature == 0.0 {
            return (perfect, Pick::Perfect);
        }
        let weights = softmax_weights(values, c.temperature);
        let total: f64 = weights.iter().sum();
        let mut x = self.rng.unit() * total;
        for (i, w) in weights.iter().enumerate() {
            if x < *w {
                return (values[i].0, Pick::Softmax);
            }
            x -= w;
        }
        // Rounding left `x` a hair above the last weight: the last move.
        (values[values.len() - 1].0, Pick::Softmax)
    }
}

/// SplitMix64 (Steele, Lea and Flood, 2014): a 64-bit counter passed through a fixed mixing
/// function. Its output for a seed is fixed by these few lines, on every platform, for ever.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// The generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in `[0, 1)`, from the top 53 bits (a double's precision).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A uniform integer in `0..n` (`n > 0`), by the multiply-shift map: its bias is below
    /// `n / 2^64`, far under anything a game could show.
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const VALUES: [(u8, i32); 4] = [(1, -4), (2, 6), (3, 5), (4, -10)];

    /// Draws `n` moves and returns each move's share, in the order of [`VALUES`].
    fn shares(c: Calibration, seed: u64, n: usize) -> Vec<f64> {
        let mut p = Calibrated::new(c, seed);
        let mut counts = [0usize; 4];
        for _ in 0..n {
            let (m, _) = p.choose(&VALUES, 2);
            counts[usize::from(m) - 1] += 1;
        }
        counts.iter().map(|&k| k as f64 / n as f64).collect()
    }

    /// Each observed share lies within five standard errors of its probability.
    fn assert_matches(observed: &[f64], expected: &[f64], n: usize) {
        for (o, p) in observed.iter().zip(expected) {
            let sigma = (p * (1.0 - p) / n as f64).sqrt();
            assert!(
                (o - p).abs() <= 5.0 * sigma + 1e-12,
                "observed {observed:?}, expected {expected:?}"
            );
        }
    }

    #[test]
    fn splitmix64_gives_its_published_sequence() {
        // The reference outputs of SplitMix64 seeded with 0 (Vigna's splitmix64.c).
        let mut g = SplitMix64::new(0);
        assert_eq!(g.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(g.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(g.next_u64(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn the_perfect_player_always_plays_the_perfect_move() {
        let mut p = Calibrated::new(Calibration::PERFECT, 1);
        for _ in 0..100 {
            assert_eq!(p.choose(&VALUES, 2), (2, Pick::Perfect));
        }
        assert_eq!(
            Calibration::PERFECT.probabilities(&VALUES, 2),
            vec![0.0, 1.0, 0.0, 0.0]
        );
    }

    #[test]
    fn epsilon_draws_follow_their_distribution() {
        let n = 200_000;
        for eps in [0.1, 0.5, 1.0] {
            let c = Calibration::new(eps, 0.0).unwrap();
            let expected = c.probabilities(&VALUES, 2);
            // The perfect move: 1 - eps + eps/4; every other move eps/4.
            assert!((expected[1] - (1.0 - eps + eps / 4.0)).abs() < 1e-12);
            assert!((expected[0] - eps / 4.0).abs() < 1e-12);
            assert_matches(&shares(c, 42, n), &expected, n);
        }
    }

    #[test]
    fn softmax_draws_follow_their_distribution() {
        let n = 200_000;
        for t in [0.5, 1.0, 4.0] {
            let c = Calibration::new(0.0, t).unwrap();
            let expected = c.probabilities(&VALUES, 2);
            // Worked by hand: exp(v / t) normalised.
            let w: Vec<f64> = VALUES.iter().map(|v| (f64::from(v.1) / t).exp()).collect();
            let total: f64 = w.iter().sum();
            for (e, w) in expected.iter().zip(&w) {
                assert!((e - w / total).abs() < 1e-12);
            }
            assert_matches(&shares(c, 7, n), &expected, n);
        }
        // Both at once: a uniform move with probability epsilon, the softmax otherwise.
        let c = Calibration::new(0.2, 1.0).unwrap();
        assert_matches(&shares(c, 9, n), &c.probabilities(&VALUES, 2), n);
    }

    #[test]
    fn the_same_seed_replays_the_same_moves_and_another_seed_does_not() {
        let c = Calibration::new(0.3, 2.0).unwrap();
        let run = |seed| {
            let mut p = Calibrated::new(c, seed);
            (0..64).map(|_| p.choose(&VALUES, 2)).collect::<Vec<_>>()
        };
        assert_eq!(run(5), run(5));
        assert_ne!(run(5), run(6));
    }

    #[test]
    fn calibrations_out_of_range_are_refused() {
        assert_eq!(
            Calibration::new(1.5, 0.0),
            Err(CalibrationError::Epsilon(1.5))
        );
        assert!(Calibration::new(-0.1, 0.0).is_err());
        assert!(Calibration::new(f64::NAN, 0.0).is_err());
        assert!(Calibration::new(0.0, -1.0).is_err());
        assert!(Calibration::new(0.0, f64::INFINITY).is_err());
        assert!(Calibration::new(0.0, f64::NAN).is_err());
        assert!(Calibration::new(1.0, 0.0).is_ok());
    }

    #[test]
    fn a_large_spread_of_values_neither_overflows_nor_loses_the_best_move() {
        let values = [(1u8, 150), (2, -150)];
        let c = Calibration::new(0.0, 0.01).unwrap();
        let p = c.probabilities(&values, 1);
        assert_eq!(p, vec![1.0, 0.0]);
        let mut player = Calibrated::new(c, 3);
        assert_eq!(player.choose(&values, 1).0, 1);
    }
}
