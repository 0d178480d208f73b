//! The arguments that name a game and a board, shared by every subcommand of both binaries:
//! the game's name ([`parse_game`]), its rule options ([`RuleArgs`]), and the one range check of
//! `--holes` ([`holes`]) and `--seeds` ([`seeds`]), each failing with a typed error.

use clap::Args;
use mancala::position::PositionError;
use mancala::rules::GameKind;
use mancala::variant::Variant;
use std::fmt;

pub use crate::rule_args::RuleArgs;

/// The game's name as clap parses it: kalah, dakon, djenon-aboure, walak-pussa, san-yao (their
/// short forms, any case).
pub fn parse_game(s: &str) -> Result<GameKind, String> {
    s.parse()
}

/// `--holes`, checked against the game's range; the game's standard board when not given.
pub fn holes(kind: GameKind, asked: Option<u32>) -> Result<u8, PositionError> {
    let (min, max) = kind.holes_range();
    match asked {
        None => Ok(kind.default_holes()),
        Some(h) if h >= u32::from(min) && h <= u32::from(max) => Ok(h as u8),
        Some(h) => Err(PositionError::Holes {
            holes: h as usize,
            min,
            max,
            game: kind.name(),
        }),
    }
}

/// A `--seeds` outside the game's range for the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeedsError {
    /// The game's name.
    pub game: &'static str,
    /// Holes per row of the board.
    pub holes: u8,
    /// Seeds per hole asked for.
    pub seeds: u32,
    /// The smallest and largest allowed.
    pub min: u8,
    pub max: u8,
}

impl fmt::Display for SeedsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let SeedsError {
            game,
            holes,
            seeds,
            min,
            max,
        } = self;
        write!(
            f,
            "{game} on {holes} holes is played with {min} to {max} seeds per hole, not {seeds}"
        )
    }
}

impl std::error::Error for SeedsError {}

/// `--seeds` of a start position on `holes` holes, checked against the game's range; the
/// game's standard when not given.
pub fn seeds(kind: GameKind, holes: u8, asked: Option<u32>) -> Result<u8, SeedsError> {
    let (min, max) = kind.seeds_range(holes);
    match asked {
        None => Ok(kind.default_seeds(holes)),
        Some(s) if s >= u32::from(min) && s <= u32::from(max) => Ok(s as u8),
        Some(seeds) => Err(SeedsError {
            game: kind.name(),
            holes,
            seeds,
            min,
            max,
        }),
    }
}

/// `N`, `A..B` or `A..=B` (both ends included).
pub fn parse_range(s: &str) -> Result<(u32, u32), String> {
    let num = |t: &str| -> Result<u32, String> {
        t.trim()
            .parse::<u32>()
            .map_err(|_| format!("'{s}' is not a number N or a range A..B of whole numbers"))
    };
    let (a, b) = match s.split_once("..") {
        Some((a, b)) => (num(a)?, num(b.strip_prefix('=').unwrap_or(b))?),
        None => {
            let n = num(s)?;
            (n, n)
        }
    };
    if a > b {
        return Err(format!("'{s}' is an empty range: {a} is greater than {b}"));
    }
    Ok((a, b))
}

/// A positive, finite number of seconds.
pub fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 && x <= 1e9 => Ok(x),
        _ => Err(format!("'{s}' is not a positive number of seconds")),
    }
}

/// The most threads any subcommand accepts.
pub const MAX_THREADS: usize = 1024;

/// `--threads`: at least 1, at most [`MAX_THREADS`]; all cores when not given.
pub fn threads(asked: Option<usize>) -> anyhow::Result<usize> {
    match asked {
        Some(0) => anyhow::bail!("--threads must be at least 1"),
        Some(t) if t > MAX_THREADS => {
            anyhow::bail!("--threads {t} is more than this program supports ({MAX_THREADS})")
        }
        Some(t) => Ok(t),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// Which game, which options, which board (no position): `tables` and `mancala-mpi`.
#[derive(Args, Debug, Clone)]
pub struct GameArgs {
    /// The game: kalah, dakon, djenon-aboure, walak-pussa or san-yao.
    #[arg(value_parser = parse_game)]
    pub game: GameKind,
    /// Holes per row (default: the game's standard board).
    #[arg(long)]
    pub holes: Option<u32>,
    #[command(flatten)]
    pub rules: RuleArgs,
}

impl GameArgs {
    /// The game with its options.
    pub fn variant(&self) -> anyhow::Result<Variant> {
        self.rules.variant(self.game)
    }

    /// The holes per row, checked against the game's range.
    pub fn holes(&self) -> Result<u8, PositionError> {
        holes(self.game, self.holes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_checked_with_the_games_words() {
        assert_eq!(holes(GameKind::Kalah, None), Ok(6));
        assert_eq!(holes(GameKind::Kalah, Some(8)), Ok(8));
        let e = holes(GameKind::Kalah, Some(9)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "kalah is played with 1 to 8 holes per row, not 9"
        );
        assert_eq!(seeds(GameKind::Dakon, 7, Some(10)), Ok(10));
        let e = seeds(GameKind::Dakon, 7, Some(0)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "dakon on 7 holes is played with 1 to 10 seeds per hole, not 0"
        );
    }
}
