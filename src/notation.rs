//! Position notation (RULES.md §2.5): `<p[0],...,p[n-1]>/<p[n],...,p[2n-1]>/<store0>,<store1>/<side>`.
//!
//! Text is parsed into an unvalidated [`Setup`] (syntax only); [`crate::Position::from_setup`]
//! then checks it against a game and normalises it.

use crate::board::Side;
use std::fmt;
use std::str::FromStr;

/// A position as written: both rows in sowing order, the two stores, and the side to move
/// (`None` for `-`, game over). Not yet checked against any game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// South's row, `p[0..n)`.
    pub south: Vec<u32>,
    /// North's row, `p[n..2n)`, in sowing order.
    pub north: Vec<u32>,
    /// South's and North's stores (tallies).
    pub stores: [u32; 2],
    /// The side to move; `None` when the game is over.
    pub to_move: Option<Side>,
}

/// A syntax error in position notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError(pub String);

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (expected <south pits>/<north pits>/<store S>,<store N>/<S|N|->, e.g. 4,4,4/4,4,4/0,0/S)",
            self.0
        )
    }
}

impl std::error::Error for NotationError {}

fn count(field: &str, what: &str) -> Result<u32, NotationError> {
    if field.is_empty() {
        return Err(NotationError(format!("empty count in {what}")));
    }
    if !field.bytes().all(|b| b.is_ascii_digit()) {
        let hint = if field.starts_with('-') || field.starts_with('+') {
            " (counts take no sign)"
        } else {
            ""
        };
        return Err(NotationError(format!(
            "'{field}' in {what} is not a non-negative whole number{hint}"
        )));
    }
    field
        .parse::<u32>()
        .map_err(|_| NotationError(format!("'{field}' in {what} is too large")))
}

fn row(field: &str, what: &str) -> Result<Vec<u32>, NotationError> {
    field.split(',').map(|c| count(c, what)).collect()
}

impl FromStr for Setup {
    type Err = NotationError;

    fn from_str(s: &str) -> Result<Self, NotationError> {
        let parts: Vec<&str> = s.split('/').collect();
        if parts.len() != 4 {
            return Err(NotationError(format!(
                "'{s}' has {} '/'-separated fields, not 4",
                parts.len()
            )));
        }
        let south = row(parts[0], "South's row")?;
        let north = row(parts[1], "North's row")?;
        let stores = row(parts[2], "the stores")?;
        let [s0, s1] = stores[..] else {
            return Err(NotationError(format!(
                "the stores field '{}' must hold exactly two counts",
                parts[2]
            )));
        };
        let to_move = match parts[3] {
            "S" => Some(Side::South),
            "N" => Some(Side::North),
            "-" => None,
            other => {
                return Err(NotationError(format!(
                    "bad side marker '{other}' (expected S, N or -)"
                )))
            }
        };
        Ok(Setup {
            south,
            north,
            stores: [s0, s1],
            to_move,
        })
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let join = |v: &[u32]| {
            v.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        let side = match self.to_move {
            Some(s) => s.letter(),
            None => '-',
        };
        write!(
            f,
            "{}/{}/{},{}/{}",
            join(&self.south),
            join(&self.north),
            self.stores[0],
            self.stores[1],
            side
        )
    }
}
