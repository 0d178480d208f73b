//! The arguments that name a game and a board, shared by every subcommand of both binaries:
//! the game's name ([`parse_game`]), its rule options ([`RuleArgs`]), and the one range check of
//! `--holes` ([`holes`]) and `--seeds` ([`seeds`]), each failing with a typed error.

use clap::Args;
use mancala::matches::MatchError;
use mancala::rules::{GameKind, SizeError, UnknownGame};
use mancala::variant::{Variant, VariantError};

pub use crate::rule_args::RuleArgs;

/// The game's name as clap parses it: kalah, dakon, djenon-aboure, walak-pussa, san-yao (their
/// short forms, any case).
pub fn parse_game(s: &str) -> Result<GameKind, UnknownGame> {
    s.parse()
}

/// A library error about a rule option, worded with the option's flag (`--empty-capture`): the
/// library names the option, the command line the flag that sets it.
pub fn variant_error(e: VariantError) -> anyhow::Error {
    match e {
        VariantError::OtherGame {
            option,
            owner,
            game,
        } => anyhow::anyhow!(
            "option --{option} applies to {} only, not to {}",
            owner.name(),
            game.name()
        ),
        e => anyhow::Error::new(e),
    }
}

/// A library error about a match, worded with the command line's flags (`--fill-from-move-1`).
pub fn match_error(e: MatchError) -> anyhow::Error {
    match e {
        MatchError::FillOrderFixed(game) => anyhow::anyhow!(
            "--fill-from-move-1 applies to dakon and walak-pussa only, not to {} ({} fills from move 1 always)",
            game.name(),
            game.title()
        ),
        e => anyhow::Error::new(e),
    }
}

/// `--holes`, checked against the game's range ([`GameKind::check_holes`]); the game's
/// standard board when not given.
pub fn holes(kind: GameKind, asked: Option<u32>) -> Result<u8, SizeError> {
    asked.map_or(Ok(kind.default_holes()), |h| kind.check_holes(h))
}

/// `--seeds` of a start position on `holes` holes, checked against the game's range
/// ([`GameKind::check_seeds`]); the game's standard when not given.
pub fn seeds(kind: GameKind, holes: u8, asked: Option<u32>) -> Result<u8, SizeError> {
    asked.map_or(Ok(kind.default_seeds(holes)), |s| {
        kind.check_seeds(holes, s)
    })
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
    pub fn holes(&self) -> Result<u8, SizeError> {
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
        assert_eq!(
            seeds(GameKind::Dakon, 7, None),
            Ok(GameKind::Dakon.default_seeds(7))
        );
        let e = seeds(GameKind::Dakon, 7, Some(0)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "dakon on 7 holes is played with 1 to 10 seeds per hole, not 0"
        );
    }
}
