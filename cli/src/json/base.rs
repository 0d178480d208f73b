//! What every JSON object shares: the format version, the [`Output`] trait, the vocabulary
//! (sides, winners), the heads, and the pieces several commands print.

use anyhow::Result;
use mancala::board::Side;
use mancala::rules::Rules;
use mancala::Position;
use schemars::JsonSchema;
use serde::Serialize;
use std::io::Write;

/// The format version: raised when a field changes meaning or goes away (adding one does not).
pub const FORMAT: u32 = 1;

/// A command's JSON object: the values its `command` field takes (none: a line without a head,
/// `tables dump --format jsonl`). The schema pins `command` to them, so an object validated
/// against its definition is known to come from that command.
pub trait Output: Serialize + JsonSchema {
    /// The values of the `command` field.
    const COMMANDS: &'static [&'static str];
}

/// Prints `v` as one line of JSON.
pub fn print<T: Output>(out: &mut impl Write, v: &T) -> Result<()> {
    writeln!(out, "{}", serde_json::to_string(v)?)?;
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// The vocabulary

/// A side: "S" or "N".
#[derive(Serialize, JsonSchema, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Letter {
    /// South.
    S,
    /// North.
    N,
}

impl From<Side> for Letter {
    fn from(s: Side) -> Self {
        match s {
            Side::South => Letter::S,
            Side::North => Letter::N,
        }
    }
}

/// Who wins under perfect play (or won): "S", "N" or "draw".
#[derive(Serialize, JsonSchema, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winner {
    /// South.
    #[serde(rename = "S")]
    South,
    /// North.
    #[serde(rename = "N")]
    North,
    /// Neither.
    #[serde(rename = "draw")]
    Draw,
}

impl Winner {
    /// The winner of a final South-minus-North value.
    pub fn of(value: i32) -> Self {
        match value.cmp(&0) {
            std::cmp::Ordering::Greater => Winner::South,
            std::cmp::Ordering::Less => Winner::North,
            std::cmp::Ordering::Equal => Winner::Draw,
        }
    }

    /// The winner of a value, when the value is known.
    pub fn of_known(value: Option<i32>) -> Option<Self> {
        value.map(Self::of)
    }

    /// The winner of a match or game result: `Some(None)` is a draw, `None` not over.
    pub fn of_result(result: Option<Option<Side>>) -> Option<Self> {
        result.map(|w| match w {
            Some(Side::South) => Winner::South,
            Some(Side::North) => Winner::North,
            None => Winner::Draw,
        })
    }
}

// ---------------------------------------------------------------------------------------------
// The heads

/// The fields every object about a game starts with.
#[derive(Serialize, JsonSchema, Clone, Debug)]
pub struct Head {
    /// The format version, now 1: raised when a field changes meaning or goes away.
    pub format: u32,
    /// The command that printed the object: `solve`, `tables query`, `verify opening`, ...
    pub command: &'static str,
    /// The game: `kalah`, `dakon`, `djenon-aboure`, `walak-pussa` or `san-yao`.
    pub game: &'static str,
    /// The rule options switched on, in the game's order (`["empty-capture"]`).
    pub options: Vec<&'static str>,
}

impl Head {
    /// The head of `command` about `game` with `options`.
    pub fn game(command: &'static str, game: &'static str, options: Vec<&'static str>) -> Self {
        Self {
            format: FORMAT,
            command,
            game,
            options,
        }
    }

    /// The head of `command` about the game of `rules`.
    pub fn rules<R: Rules>(command: &'static str, rules: &R) -> Self {
        Self::game(command, R::KIND.name(), rules.option_names())
    }
}

/// The head of an object about a position: the game's head, then the board and the position.
#[derive(Serialize, JsonSchema, Clone, Debug)]
pub struct PositionHead {
    #[serde(flatten)]
    pub head: Head,
    /// Holes per row.
    pub holes: u8,
    /// The position in docs/rules.md notation (after `--moves`).
    pub position: String,
    /// The side to move; null when the game is over.
    pub to_move: Option<Letter>,
}

impl PositionHead {
    /// The head of `command` about `p`.
    pub fn of<R: Rules>(command: &'static str, p: &Position<R>) -> Self {
        Self {
            head: Head::rules(command, p.rules()),
            holes: p.board().holes,
            position: p.to_string(),
            to_move: p.to_move().map(Letter::from),
        }
    }
}

/// The head of a command about no one game (`tables info`, `tables verify`).
#[derive(Serialize, JsonSchema, Clone, Debug)]
pub struct ToolHead {
    /// The format version, now 1: raised when a field changes meaning or goes away.
    pub format: u32,
    /// The command that printed the object.
    pub command: &'static str,
}

impl ToolHead {
    /// The head of `command`.
    pub fn new(command: &'static str) -> Self {
        Self {
            format: FORMAT,
            command,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Pieces shared by several commands

/// The verdict on a position: its final South-minus-North `value` under perfect play, the
/// `winner` that means, and every `best` move that reaches it, flattened into the objects of
/// `analyze` and of the batch lines. (`solve` and `tables query` print `future` between
/// `winner` and `best`, so they spell the three fields out: their output stays byte for byte.)
#[derive(Serialize, JsonSchema, Clone, Debug)]
pub struct Verdict {
    pub value: i32,
    pub winner: Winner,
    pub best: Vec<u8>,
}

impl Verdict {
    /// The verdict of a final value and the moves that reach it.
    pub fn new(value: i32, best: Vec<u8>) -> Self {
        Self {
            value,
            winner: Winner::of(value),
            best,
        }
    }
}

/// One move of a move sequence, with the side that makes it (`pv`).
#[derive(Serialize, JsonSchema, Clone, Debug)]
pub struct SideMove {
    /// The side making the move.
    pub side: Letter,
    /// The pit number, 1..=holes.
    #[serde(rename = "move")]
    pub pit: u8,
}

/// A legal move and the final value it leads to under perfect play.
#[derive(Serialize, JsonSchema, Clone, Debug)]
pub struct MoveValue {
    /// The pit number, 1..=holes.
    #[serde(rename = "move")]
    pub pit: u8,
    /// The final South-minus-North value after it.
    pub value: i32,
    /// Who wins after it.
    pub winner: Winner,
}

impl MoveValue {
    /// Each `(move, final value)`.
    pub fn list(finals: &[(u8, i32)]) -> Vec<Self> {
        finals
            .iter()
            .map(|&(pit, value)| MoveValue {
                pit,
                value,
                winner: Winner::of(value),
            })
            .collect()
    }
}

/// A count that may pass 2^64 - 1: a number when it fits, else its exact decimal string.
#[derive(Serialize, JsonSchema, Clone, Debug)]
#[serde(untagged)]
pub enum BigCount {
    /// Up to 2^64 - 1.
    Small(u64),
    /// Beyond: the exact decimal digits.
    Big(String),
}

impl From<&mancala::opening::Count> for BigCount {
    fn from(c: &mancala::opening::Count) -> Self {
        match c.to_u64() {
            Some(v) => BigCount::Small(v),
            None => BigCount::Big(c.to_string()),
        }
    }
}
