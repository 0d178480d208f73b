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

/// A field of a position in notation, as an error names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// South's row, the first field.
    SouthRow,
    /// North's row, the second field.
    NorthRow,
    /// The two stores, the third field.
    Stores,
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Field::SouthRow => "South's row",
            Field::NorthRow => "North's row",
            Field::Stores => "the stores",
        })
    }
}

/// A syntax error in position notation: what is wrong, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// The text does not have four `/`-separated fields.
    FieldCount {
        /// The text.
        text: String,
        /// How many fields it has.
        found: usize,
    },
    /// An empty entry (`4,,4`).
    EmptyCount {
        /// Where.
        field: Field,
    },
    /// An entry that is not a non-negative whole number.
    NotACount {
        /// The entry as written.
        entry: String,
        /// Where.
        field: Field,
    },
    /// A count too large for any board.
    TooLarge {
        /// The entry as written.
        entry: String,
        /// Where.
        field: Field,
    },
    /// A son mark not written as a count followed by one `s`.
    BadSon {
        /// The entry as written.
        entry: String,
        /// Where.
        field: Field,
    },
    /// A burnt mark with something besides the lone `x`.
    BadBurnt {
        /// The entry as written.
        entry: String,
        /// Where.
        field: Field,
    },
    /// The stores field does not hold exactly two counts.
    StoreCount {
        /// The field as written.
        stores: String,
    },
    /// The side marker is not `S`, `N` or `-`.
    BadSide {
        /// The marker as written.
        marker: String,
    },
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::FieldCount { text, found } => {
                write!(f, "'{text}' has {found} '/'-separated fields, not 4")
            }
            NotationError::EmptyCount { field } => write!(f, "empty count in {field}"),
            NotationError::NotACount { entry, field } => {
                let hint = if entry.starts_with('-') || entry.starts_with('+') {
                    " (counts take no sign)"
                } else {
                    ""
                };
                write!(
                    f,
                    "'{entry}' in {field} is not a non-negative whole number{hint}"
                )
            }
            NotationError::TooLarge { entry, field } => {
                write!(f, "'{entry}' in {field} is too large")
            }
            NotationError::BadSon { entry, field } => write!(
                f,
                "'{entry}' in {field} is not a pit entry (a son is written as its count followed by one 's', e.g. 5s)"
            ),
            NotationError::BadBurnt { entry, field } => write!(
                f,
                "'{entry}' in {field} is not a pit entry (a burnt pit is written as a lone 'x': it holds no seeds)"
            ),
            NotationError::StoreCount { stores } => {
                write!(f, "the stores field '{stores}' must hold exactly two counts")
            }
            NotationError::BadSide { marker } => {
                write!(f, "bad side marker '{marker}' (expected S, N or -)")
            }
        }?;
        f.write_str(
            " (expected <south pits>/<north pits>/<store S>,<store N>/<S|N|->, e.g. 4,4,4/4,4,4/0,0/S)",
        )
    }
}

impl std::error::Error for NotationError {}

fn count(entry: &str, field: Field) -> Result<u32, NotationError> {
    if entry.is_empty() {
        return Err(NotationError::EmptyCount { field });
    }
    if !entry.bytes().all(|b| b.is_ascii_digit()) {
        return Err(NotationError::NotACount {
            entry: entry.to_string(),
            field,
        });
    }
    entry.parse::<u32>().map_err(|_| NotationError::TooLarge {
        entry: entry.to_string(),
        field,
    })
}

fn row(text: &str, field: Field) -> Result<Vec<u32>, NotationError> {
    text.split(',').map(|c| count(c, field)).collect()
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
fn marked(entry: &str, field: Field) -> Result<(u32, PitStatus), NotationError> {
    if entry == "x" {
        return Ok((0, PitStatus::Burnt));
    }
    if let Some(digits) = entry.strip_suffix('s') {
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(NotationError::BadSon {
                entry: entry.to_string(),
                field,
            });
        }
        return Ok((count(digits, field)?, PitStatus::Son));
    }
    if entry.contains('x') {
        return Err(NotationError::BadBurnt {
            entry: entry.to_string(),
            field,
        });
    }
    Ok((count(entry, field)?, PitStatus::Open))
}

/// A row of a round position: the counts and the statuses.
fn marked_row(text: &str, field: Field) -> Result<(Vec<u32>, Vec<PitStatus>), NotationError> {
    let entries: Vec<(u32, PitStatus)> = text
        .split(',')
        .map(|c| marked(c, field))
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
        let (south, mut status) = marked_row(parts[0], Field::SouthRow)?;
        let (north, north_status) = marked_row(parts[1], Field::NorthRow)?;
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
        let south = row(parts[0], Field::SouthRow)?;
        let north = row(parts[1], Field::NorthRow)?;
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
    <[&str; 4]>::try_from(parts.as_slice()).map_err(|_| NotationError::FieldCount {
        text: s.to_string(),
        found: parts.len(),
    })
}

/// The last two fields: `<store0>,<store1>` and `S`, `N` or `-`.
fn stores_and_side(stores: &str, side: &str) -> Result<([u32; 2], Option<Side>), NotationError> {
    let counts = row(stores, Field::Stores)?;
    let [s0, s1] = counts[..] else {
        return Err(NotationError::StoreCount {
            stores: stores.to_string(),
        });
    };
    let to_move = match side {
        "S" => Some(Side::South),
        "N" => Some(Side::North),
        "-" => None,
        other => {
            return Err(NotationError::BadSide {
                marker: other.to_string(),
            })
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Each malformed field is its own error, naming the field and the entry as written; the
    /// message ends with the notation's shape.
    #[test]
    fn malformed_fields_are_typed() {
        let err = |s: &str| s.parse::<RoundSetup>().unwrap_err();
        assert_eq!(
            err("4,4/4,4/0,0"),
            NotationError::FieldCount {
                text: "4,4/4,4/0,0".into(),
                found: 3
            }
        );
        assert_eq!(
            err("4,,4/4,4,4/0,0/S"),
            NotationError::EmptyCount {
                field: Field::SouthRow
            }
        );
        assert_eq!(
            err("4,4,4/4,-1,4/0,0/S"),
            NotationError::NotACount {
                entry: "-1".into(),
                field: Field::NorthRow
            }
        );
        assert_eq!(
            err("4,4,4/4,4,4/0,99999999999/S"),
            NotationError::TooLarge {
                entry: "99999999999".into(),
                field: Field::Stores
            }
        );
        assert_eq!(
            err("4,ss,4/4,4,4/0,0/S"),
            NotationError::BadSon {
                entry: "ss".into(),
                field: Field::SouthRow
            }
        );
        assert_eq!(
            err("4,3x,4/4,4,4/0,0/S"),
            NotationError::BadBurnt {
                entry: "3x".into(),
                field: Field::SouthRow
            }
        );
        assert_eq!(
            err("4,4,4/4,4,4/0/S"),
            NotationError::StoreCount { stores: "0".into() }
        );
        assert_eq!(
            err("4,4,4/4,4,4/0,0/W"),
            NotationError::BadSide { marker: "W".into() }
        );
        let text = err("4,4,4/4,-1,4/0,0/S").to_string();
        assert!(
            text.starts_with("'-1' in North's row is not a non-negative whole number (counts take no sign) (expected"),
            "{text}"
        );
        // The plain notation has no marks: a son is not a count there.
        assert_eq!(
            "4,5s,4/4,4,4/0,0/S".parse::<Setup>().unwrap_err(),
            NotationError::NotACount {
                entry: "5s".into(),
                field: Field::SouthRow
            }
        );
    }
}
