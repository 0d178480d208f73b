//! Position notation (docs/rules.md §2.5): `<p[0],...,p[n-1]>/<p[n],...,p[2n-1]>/<store0>,<store1>/<side>`.
//!
//! Text is parsed into an unvalidated [`Setup`] (syntax only); [`crate::Position::from_setup`]
//! then checks it against a game and normalises it.
//!
//! A round of a match (docs/rules.md §13.2) marks pit entries with their status: `x` for a burnt pit,
//! a count followed by `s` for a son (`5s`, `0s`). [`RoundSetup`] reads and writes those marks;
//! [`Setup`] is the plain notation, every pit open.

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

/// A pit's status for a round (docs/rules.md §13.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PitStatus {
    /// Open, owned by its row's player (every pit of a single game).
    #[default]
    Open,
    /// Burnt: out of the ring, never holds seeds, nobody sows from it.
    Burnt,
    /// A son: open, owned by the player opposite its row (San-Yao).
    Son,
}

/// One pit entry of a round position: `5`, `x` or `5s`.
fn marked(field: &str, what: &str) -> Result<(u32, PitStatus), NotationError> {
    if field == "x" {
        return Ok((0, PitStatus::Burnt));
    }
    if let Some(digits) = field.strip_suffix('s') {
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(NotationError(format!(
                "'{field}' in {what} is not a pit entry (a son is written as its count followed by one 's', e.g. 5s)"
            )));
        }
        return Ok((count(digits, what)?, PitStatus::Son));
    }
    if field.ends_with('x') || field.contains('x') {
        return Err(NotationError(format!(
            "'{field}' in {what} is not a pit entry (a burnt pit is written as a lone 'x': it holds no seeds)"
        )));
    }
    Ok((count(field, what)?, PitStatus::Open))
}

/// A row of a round position: the counts and the statuses.
fn marked_row(field: &str, what: &str) -> Result<(Vec<u32>, Vec<PitStatus>), NotationError> {
    let entries: Vec<(u32, PitStatus)> = field
        .split(',')
        .map(|c| marked(c, what))
        .collect::<Result<_, _>>()?;
    Ok(entries.into_iter().unzip())
}

/// A round position as written (docs/rules.md §13.2): the plain [`Setup`] and each pit's status, in
/// sowing order (`2n` entries, South's row first). Not yet checked against any game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundSetup {
    /// The counts, stores and side to move.
    pub setup: Setup,
    /// The status of `p[0..2n)`.
    pub status: Vec<PitStatus>,
}

impl RoundSetup {
    /// `setup` with every pit open.
    pub fn open(setup: Setup) -> RoundSetup {
        let status = vec![PitStatus::Open; setup.south.len() + setup.north.len()];
        RoundSetup { setup, status }
    }

    /// Whether every pit is open.
    pub fn all_open(&self) -> bool {
        self.status.iter().all(|&s| s == PitStatus::Open)
    }
}

impl FromStr for RoundSetup {
    type Err = NotationError;

    fn from_str(s: &str) -> Result<Self, NotationError> {
        let parts = fields(s)?;
        let (south, mut status) = marked_row(parts[0], "South's row")?;
        let (north, north_status) = marked_row(parts[1], "North's row")?;
        status.extend(north_status);
        let (stores, to_move) = stores_and_side(parts[2], parts[3])?;
        Ok(RoundSetup {
            setup: Setup {
                south,
                north,
                stores,
                to_move,
            },
            status,
        })
    }
}

impl fmt::Display for RoundSetup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.setup.south.len();
        let entry = |i: usize, c: u32| match self.status.get(i).copied().unwrap_or_default() {
            PitStatus::Open => c.to_string(),
            PitStatus::Burnt => "x".to_string(),
            PitStatus::Son => format!("{c}s"),
        };
        let join = |v: &[u32], base: usize| {
            v.iter()
                .enumerate()
                .map(|(j, &c)| entry(base + j, c))
                .collect::<Vec<_>>()
                .join(",")
        };
        let side = match self.setup.to_move {
            Some(s) => s.letter(),
            None => '-',
        };
        write!(
            f,
            "{}/{}/{},{}/{}",
            join(&self.setup.south, 0),
            join(&self.setup.north, n),
            self.setup.stores[0],
            self.setup.stores[1],
            side
        )
    }
}

impl FromStr for Setup {
    type Err = NotationError;

    fn from_str(s: &str) -> Result<Self, NotationError> {
        let parts = fields(s)?;
        let south = row(parts[0], "South's row")?;
        let north = row(parts[1], "North's row")?;
        let (stores, to_move) = stores_and_side(parts[2], parts[3])?;
        Ok(Setup {
            south,
            north,
            stores,
            to_move,
        })
    }
}

/// The four `/`-separated fields of a position: the two rows, the stores, the side to move.
fn fields(s: &str) -> Result<[&str; 4], NotationError> {
    let parts: Vec<&str> = s.split('/').collect();
    <[&str; 4]>::try_from(parts.as_slice()).map_err(|_| {
        NotationError(format!(
            "'{s}' has {} '/'-separated fields, not 4",
            parts.len()
        ))
    })
}

/// The last two fields: `<store0>,<store1>` and `S`, `N` or `-`.
fn stores_and_side(stores: &str, side: &str) -> Result<([u32; 2], Option<Side>), NotationError> {
    let counts = row(stores, "the stores")?;
    let [s0, s1] = counts[..] else {
        return Err(NotationError(format!(
            "the stores field '{stores}' must hold exactly two counts"
        )));
    };
    let to_move = match side {
        "S" => Some(Side::South),
        "N" => Some(Side::North),
        "-" => None,
        other => {
            return Err(NotationError(format!(
                "bad side marker '{other}' (expected S, N or -)"
            )))
        }
    };
    Ok(([s0, s1], to_move))
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
