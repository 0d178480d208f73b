//! The one JSON format of every `--json` output (`docs/json.md`), as types: each command's
//! object is a struct here, printed with serde and described by the JSON Schema that
//! [`schema`] generates from the same structs (`mancala json-schema`, committed as
//! `docs/json.schema.json`), so the documented shape and the printed one cannot drift apart.
//!
//! Every object starts with the same head, `format` (this version), `command`, `game`,
//! `options`, and where a position is involved `holes`, `position` and `to_move` ("S", "N" or
//! null); values are final South-minus-North scores, winners "S", "N" or "draw", `best` always
//! a list of moves. The two `tables` commands that look at a whole directory (`info`, `verify`)
//! are about no one game: their head is `format` and `command`, and each table names its game.

use anyhow::Result;
use mancala::board::Side;
use mancala::rules::Rules;
use mancala::Position;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Map, Value};
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

// ---------------------------------------------------------------------------------------------
// show/play, moves

/// `play`: the position after the moves.
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "play")]
pub struct Play {
    #[serde(flatten)]
    pub head: PositionHead,
    /// Seeds in [South's, North's] store (or tallies).
    pub score: [u32; 2],
    /// Whether the game is over.
    pub over: bool,
    /// The result when the game is over; null while it goes on.
    pub winner: Option<Winner>,
}

impl Output for Play {
    const COMMANDS: &'static [&'static str] = &["play"];
}

/// `moves`: every legal move with the position after it.
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "moves")]
pub struct Moves {
    #[serde(flatten)]
    pub head: PositionHead,
    /// The legal moves in pit order (empty when the game is over).
    pub moves: Vec<Child>,
}

/// A legal move and where it leads.
#[derive(Serialize, JsonSchema)]
pub struct Child {
    /// The pit number, 1..=holes.
    #[serde(rename = "move")]
    pub pit: u8,
    /// The position after it (forced passes applied).
    pub position: String,
}

impl Output for Moves {
    const COMMANDS: &'static [&'static str] = &["moves"];
}

/// `perft`: move-sequence counts per depth and per first move.
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "perft")]
pub struct Perft {
    #[serde(flatten)]
    pub head: PositionHead,
    /// The depth asked for, in plies (an extra turn is a ply of its own).
    pub depth: u32,
    /// One entry per depth from 1 to `depth`.
    pub depths: Vec<PerftDepth>,
    /// Each legal first move with its count at the full depth, in move order.
    pub divide: Vec<PerftMove>,
    /// Wall-clock time of the count.
    pub seconds: f64,
}

/// The counts at one depth.
#[derive(Serialize, JsonSchema)]
pub struct PerftDepth {
    /// Plies from the position.
    pub depth: u32,
    /// Move sequences of exactly `depth` plies (a game that ends sooner is not extended).
    pub nodes: u64,
    /// Those of them after which the game is over.
    pub ends: u64,
}

/// One first move's count at the full depth.
#[derive(Serialize, JsonSchema)]
pub struct PerftMove {
    /// The pit number, 1..=holes.
    #[serde(rename = "move")]
    pub pit: u8,
    /// Move sequences of the full depth that start with it.
    pub nodes: u64,
}

impl Output for Perft {
    const COMMANDS: &'static [&'static str] = &["perft"];
}

// ---------------------------------------------------------------------------------------------
// solve, analyze, and their batches

/// `solve`, solved.
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "solve")]
pub struct Solve {
    #[serde(flatten)]
    pub head: PositionHead,
    /// Always true here (a stopped search prints `solve_stopped`).
    pub complete: bool,
    /// The final South-minus-North value under perfect play.
    pub value: i32,
    pub winner: Winner,
    /// The store-independent value for the side to move (the search's own number).
    pub future: i32,
    /// Every move that reaches `value`.
    pub best: Vec<u8>,
    /// A principal variation, move by move.
    pub pv: Vec<SideMove>,
    pub nodes: u64,
    pub seconds: f64,
    pub tt_hit_rate: f64,
    pub tt_bytes: usize,
    pub threads: usize,
    /// With `--tables`: the positions looked up in the endgame tables, and those they answered
    /// (null without tables).
    pub table_probes: Option<u64>,
    pub table_hits: Option<u64>,
}

impl Output for Solve {
    const COMMANDS: &'static [&'static str] = &["solve"];
}

/// Why a search stopped.
#[derive(Serialize, JsonSchema, Clone, Copy, Debug)]
#[serde(rename_all = "kebab-case")]
pub enum StopCause {
    /// Ctrl-C or a termination signal.
    Interrupt,
    /// `--time-limit`.
    TimeLimit,
}

/// `solve`, stopped by `--time-limit` or Ctrl-C: the bounds proven.
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "solve_stopped")]
pub struct SolveStopped {
    #[serde(flatten)]
    pub head: PositionHead,
    /// Always false here.
    pub complete: bool,
    pub stopped: StopCause,
    /// The final South-minus-North value when the search had proven it (it stopped while
    /// proving the best moves or the principal variation); else null.
    pub value: Option<i32>,
    /// The proven bounds on the final South-minus-North value (both `value` when known).
    pub lower: i32,
    pub upper: i32,
    /// The winner when the bounds alone decide it.
    pub winner: Option<Winner>,
    /// Moves proven to reach `value` so far; when none is proven yet, the one move to play now
    /// (a short look-ahead's pick among the moves not proven worse: `best_proven` false).
    /// Empty only when the game is over.
    pub best: Vec<u8>,
    /// Whether `best` holds proven best moves (true) or the unproven pick (false).
    pub best_proven: bool,
    /// Moves proven not to reach it.
    pub worse: Vec<u8>,
    pub nodes: u64,
    pub seconds: f64,
}

impl Output for SolveStopped {
    const COMMANDS: &'static [&'static str] = &["solve"];
}

/// `analyze`, stopped by `--time-limit` or Ctrl-C: each move's value or proven bounds.
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "analyze_stopped")]
pub struct AnalyzeStopped {
    #[serde(flatten)]
    pub head: PositionHead,
    /// Always false here.
    pub complete: bool,
    pub stopped: StopCause,
    /// The proven bounds on the position's final South-minus-North value.
    pub lower: i32,
    pub upper: i32,
    /// The winner when the bounds alone decide it.
    pub winner: Option<Winner>,
    /// Every legal move, in move order.
    pub moves: Vec<MoveBounds>,
    pub nodes: u64,
    pub seconds: f64,
}

impl Output for AnalyzeStopped {
    const COMMANDS: &'static [&'static str] = &["analyze"];
}

/// One move of a stopped analysis.
#[derive(Serialize, JsonSchema)]
pub struct MoveBounds {
    /// The pit number, 1..=holes.
    #[serde(rename = "move")]
    pub pit: u8,
    /// The final South-minus-North value after it, when valued; else null.
    pub value: Option<i32>,
    /// Proven bounds on that value (both `value` when valued).
    pub lower: i32,
    pub upper: i32,
}

/// `analyze`: the value of every legal move.
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "analyze")]
pub struct Analyze {
    #[serde(flatten)]
    pub head: PositionHead,
    pub complete: bool,
    pub value: i32,
    pub winner: Winner,
    pub best: Vec<u8>,
    pub moves: Vec<MoveValue>,
    pub seconds: f64,
}

impl Output for Analyze {
    const COMMANDS: &'static [&'static str] = &["analyze"];
}

/// One line of `solve --batch`.
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "solve_batch_line")]
pub struct SolveLine {
    #[serde(flatten)]
    pub head: PositionHead,
    /// The input line number, from 1.
    pub line: usize,
    pub complete: bool,
    pub value: i32,
    pub winner: Winner,
    pub best: Vec<u8>,
    pub pv: Vec<SideMove>,
    pub nodes: u64,
}

impl Output for SolveLine {
    const COMMANDS: &'static [&'static str] = &["solve"];
}

/// One line of `analyze --batch`.
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "analyze_batch_line")]
pub struct AnalyzeLine {
    #[serde(flatten)]
    pub head: PositionHead,
    /// The input line number, from 1.
    pub line: usize,
    pub complete: bool,
    pub value: i32,
    pub winner: Winner,
    pub best: Vec<u8>,
    pub moves: Vec<MoveValue>,
}

impl Output for AnalyzeLine {
    const COMMANDS: &'static [&'static str] = &["analyze"];
}

/// A batch line that failed: its number (0: the input as a whole) and why.
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "batch_error")]
pub struct BatchError {
    #[serde(flatten)]
    pub head: Head,
    pub line: usize,
    pub error: String,
}

impl Output for BatchError {
    const COMMANDS: &'static [&'static str] = &["solve", "analyze"];
}

// ---------------------------------------------------------------------------------------------
// tables

/// `tables query`: a position's value from the tables.
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "tables_query")]
pub struct TablesQuery {
    #[serde(flatten)]
    pub head: PositionHead,
    pub value: i32,
    pub winner: Winner,
    pub future: i32,
    pub best: Vec<u8>,
    pub moves: Vec<MoveValue>,
}

impl Output for TablesQuery {
    const COMMANDS: &'static [&'static str] = &["tables query"];
}

/// One line of `tables dump --format jsonl`: no head (the game and layer are the command's
/// arguments, and a head on each of millions of lines would double the file).
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "tables_dump_line")]
pub struct DumpLine {
    pub position: String,
    pub value: i32,
    pub best: Vec<u8>,
}

impl Output for DumpLine {
    const COMMANDS: &'static [&'static str] = &[];
}

/// `tables info`: every table file of a directory.
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "tables_info")]
pub struct TablesInfo {
    #[serde(flatten)]
    pub head: ToolHead,
    pub directory: String,
    /// How to build tables, when the directory has none; else null.
    pub message: Option<String>,
    /// Every table file, by name.
    pub files: Vec<InfoFile>,
    /// The readable files grouped by game, options and holes.
    pub sets: Vec<InfoSet>,
}

impl Output for TablesInfo {
    const COMMANDS: &'static [&'static str] = &["tables info"];
}

/// One file of `tables info`.
#[derive(Serialize, JsonSchema)]
pub struct InfoFile {
    pub file: String,
    /// Why the file cannot be read as a table; null when it can (then the fields below are set).
    pub error: Option<String>,
    pub table: Option<InfoTable>,
}

/// A readable table file's header and checks.
#[derive(Serialize, JsonSchema)]
pub struct InfoTable {
    pub game: String,
    pub options: Vec<String>,
    pub holes: u32,
    /// Seeds on the board.
    pub layer: u32,
    pub entries: u64,
    pub encoding: String,
    pub bytes: u64,
    /// Whether the payload's checksum matches.
    pub checksum_ok: bool,
    /// What is wrong: a bad checksum, a file name that disagrees with the header; empty when
    /// nothing is.
    pub problems: Vec<String>,
}

/// One set of tables (a game, options and holes) of `tables info`.
#[derive(Serialize, JsonSchema)]
pub struct InfoSet {
    pub game: String,
    pub options: Vec<String>,
    pub holes: u32,
    /// The layers on disk, in order.
    pub layers: Vec<u32>,
    /// The top of the unbroken run of layers from 0; null without layer 0.
    pub complete_to: Option<u32>,
    pub entries: u64,
    pub bytes: u64,
}

/// `tables build`: the layers built or kept.
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "tables_build")]
pub struct TablesBuild {
    #[serde(flatten)]
    pub head: Head,
    pub holes: u8,
    pub max_seeds: u32,
    pub directory: String,
    pub layers: Vec<BuiltLayer>,
    pub entries: u64,
    pub bytes: u64,
    pub bits_per_entry: f64,
    pub seconds: f64,
    /// The memory the build was estimated to need before it started, in bytes (the one a build
    /// too large for the machine is refused by).
    pub memory_estimate: u64,
    /// The process's peak resident memory (`VmHWM`), in bytes; null where the system does not
    /// say.
    pub peak_memory: Option<u64>,
}

impl Output for TablesBuild {
    const COMMANDS: &'static [&'static str] = &["tables build"];
}

/// One layer of `tables build`.
#[derive(Serialize, JsonSchema)]
pub struct BuiltLayer {
    pub layer: u32,
    pub entries: u64,
    pub encoding: String,
    pub exceptions: u64,
    pub bytes: u64,
    /// Whether a valid file was already there (kept, not rebuilt).
    pub resumed: bool,
    /// Why an existing file was rebuilt; null when none was.
    pub rebuilt_because: Option<String>,
    pub seconds: f64,
}

/// `tables verify`: checksums, then every entry re-derived from its children.
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "tables_verify")]
pub struct TablesVerify {
    #[serde(flatten)]
    pub head: ToolHead,
    pub directory: String,
    /// Table files found.
    pub files: usize,
    /// Files whose framing, name and checksum are sound.
    pub checksums_ok: usize,
    /// What is wrong with each of the other files.
    pub bad_files: Vec<String>,
    pub sets: Vec<VerifiedSet>,
    /// Bad files, missing layers and wrong entries, counted.
    pub problems: u64,
    /// Whether every table verified (no problem).
    pub ok: bool,
}

impl Output for TablesVerify {
    const COMMANDS: &'static [&'static str] = &["tables verify"];
}

/// One set of `tables verify`.
#[derive(Serialize, JsonSchema)]
pub struct VerifiedSet {
    pub game: String,
    pub options: Vec<String>,
    pub holes: u32,
    /// How many layers, from 0, were re-derived.
    pub layers_verified: u32,
    pub entries: u64,
    pub seconds: f64,
    /// Missing or bad layers, and sets that cannot be checked.
    pub problems: Vec<String>,
    /// Examples of wrong entries.
    pub wrong: Vec<WrongEntry>,
    /// Wrong entries, counted.
    pub wrong_count: u64,
    pub ok: bool,
}

/// A wrong entry of `tables verify`: the table's store-independent numbers.
#[derive(Serialize, JsonSchema)]
pub struct WrongEntry {
    pub layer: u32,
    pub slot: u64,
    /// The slot's position; null when the slot holds none.
    pub position: Option<String>,
    pub stored: i32,
    pub derived: i32,
}

// ---------------------------------------------------------------------------------------------
// match

/// `match`: the rounds played and where the match stands.
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "match")]
pub struct MatchPlay {
    /// About the current round's position.
    #[serde(flatten)]
    pub head: PositionHead,
    pub rounds: Vec<MatchRound>,
    /// The current round's number, from 1.
    pub round: usize,
    pub match_over: bool,
    /// The match's winner ("draw" for a drawn match); null while it goes on.
    pub winner: Option<Winner>,
}

impl Output for MatchPlay {
    const COMMANDS: &'static [&'static str] = &["match"];
}

/// One round of `match`.
#[derive(Serialize, JsonSchema)]
pub struct MatchRound {
    pub starter: Letter,
    pub start: String,
    pub moves: Vec<u8>,
    /// The round's last position when it is over; null while it goes on.
    pub end: Option<String>,
    /// [South, North] now.
    pub score: [u32; 2],
}

// ---------------------------------------------------------------------------------------------
// verify

/// How one size of `verify first-player` ended.
#[derive(Serialize, JsonSchema, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum SizeStatus {
    /// Solved exactly.
    Solved,
    /// Cut off by `--time-limit`.
    TimeLimit,
    /// Cut off by Ctrl-C.
    Interrupted,
    /// Not started: the run was interrupted before.
    NotRun,
    /// Cannot be solved on this machine (too large for the search's exact keys).
    Unsolvable,
}

/// `verify first-player`: the start of every size.
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "verify_first_player")]
pub struct FirstPlayer {
    #[serde(flatten)]
    pub head: Head,
    pub time_limit: Option<f64>,
    /// Whether the run went through every size (false after Ctrl-C).
    pub complete: bool,
    pub results: Vec<FirstPlayerSize>,
}

impl Output for FirstPlayer {
    const COMMANDS: &'static [&'static str] = &["verify first-player"];
}

/// One size of `verify first-player`.
#[derive(Serialize, JsonSchema)]
pub struct FirstPlayerSize {
    pub holes: u8,
    pub seeds: u8,
    pub status: SizeStatus,
    /// Null unless solved.
    pub value: Option<i32>,
    pub winner: Option<Winner>,
    pub best: Vec<u8>,
    pub nodes: u64,
    pub seconds: f64,
}

/// `verify opening`: the first player's whole first turn.
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "verify_opening")]
pub struct Opening {
    #[serde(flatten)]
    pub head: PositionHead,
    pub total_seeds: u32,
    pub complete: bool,
    /// Whether some first turn wins outright; null when the search stopped undecided.
    pub winning: Option<bool>,
    /// Winning first turns and all first turns; null when the search stopped.
    pub count: Option<BigCount>,
    pub total: Option<BigCount>,
    /// The counts reached when the search stopped (lower bounds).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count_at_least: Option<BigCount>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total_at_least: Option<BigCount>,
    /// A shortest winning first turn, move by move; null when none is known.
    pub shortest: Option<Vec<u8>>,
    /// The first turn that fills the mover's store most, move by move.
    pub best_turn: Vec<u8>,
    pub max_store: u32,
    pub nodes: u64,
    pub edges: u64,
    pub seconds: f64,
    /// With `--solve`: the full game's value (null when cut off), its winner and time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<Option<i32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<Option<Winner>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value_seconds: Option<f64>,
}

impl Output for Opening {
    const COMMANDS: &'static [&'static str] = &["verify opening"];
}

/// What became of one row of `verify published`.
#[derive(Serialize, JsonSchema, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum RowResult {
    Agree,
    Disagree,
    Skipped,
}

/// `verify published`: the reference values, row by row.
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "verify_published")]
pub struct Published {
    /// Game `kalah`; `options` is empty: each row names its own.
    #[serde(flatten)]
    pub head: Head,
    pub time_limit: f64,
    /// Whether the boards were solved with endgame tables.
    pub tables: bool,
    /// Distinct boards solved (each once, however many rows cite it).
    pub boards_solved: usize,
    pub rows: Vec<PublishedRow>,
    pub agree: usize,
    pub disagree: usize,
    pub skipped: usize,
}

impl Output for Published {
    const COMMANDS: &'static [&'static str] = &["verify published"];
}

/// One row of `verify published`.
#[derive(Serialize, JsonSchema)]
pub struct PublishedRow {
    pub holes: u8,
    pub seeds: u8,
    /// The row's rule options (`["empty-capture"]` or none).
    pub options: Vec<&'static str>,
    /// The published value (final South minus North).
    pub published: i32,
    /// Whether it is exact (false: a lower bound).
    pub published_exact: bool,
    /// The best first moves the source gives (empty: none given).
    pub published_best: Vec<u8>,
    pub source: &'static str,
    pub result: RowResult,
    /// The computed value; null when skipped.
    pub value: Option<i32>,
    pub winner: Option<Winner>,
    pub best: Vec<u8>,
    /// The board's search nodes; null when it was not solved. Rows citing the same board share
    /// its one solve, so they show the same nodes and seconds.
    pub nodes: Option<u64>,
    /// Seconds spent on the board (null: not tried).
    pub seconds: Option<f64>,
    /// Why the row was skipped; null otherwise.
    pub skipped_because: Option<String>,
}

/// How a size's match came out in `verify match`.
#[derive(Serialize, JsonSchema, Clone, Copy, Debug)]
#[serde(rename_all = "kebab-case")]
pub enum MatchResult {
    /// Won or drawn: see `winner`.
    Decided,
    /// A round starts as an earlier one: the match never ends.
    Repeats,
    /// Not found: see `note`.
    Unknown,
}

/// `verify match`: the round-perfect match of each size.
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "verify_match")]
pub struct VerifyMatch {
    #[serde(flatten)]
    pub head: Head,
    pub round_limit: f64,
    pub max_rounds: usize,
    pub sizes: Vec<MatchSize>,
}

impl Output for VerifyMatch {
    const COMMANDS: &'static [&'static str] = &["verify match"];
}

/// One size of `verify match`.
#[derive(Serialize, JsonSchema)]
pub struct MatchSize {
    pub holes: u8,
    pub seeds: u8,
    pub rounds: Vec<PerfectRound>,
    pub result: MatchResult,
    /// The match's winner or "draw" when decided; else null.
    pub winner: Option<Winner>,
    /// The round that starts as an earlier one (`repeats`), or why the result is unknown.
    pub note: Option<String>,
}

/// One round of `verify match`.
#[derive(Serialize, JsonSchema)]
pub struct PerfectRound {
    pub starter: Letter,
    pub start: String,
    /// The start's final South-minus-North value.
    pub value: i32,
    /// [South, North] at the round's end.
    pub end: [u32; 2],
    pub moves: usize,
}

// ---------------------------------------------------------------------------------------------
// The schema

/// The JSON Schema (draft 2020-12) of every output: one definition per object shape under
/// `$defs`, named as in docs/json.md, with `command` pinned to its values and no other fields
/// allowed; the root accepts any of them.
pub fn schema() -> Value {
    let mut g = schemars::generate::SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator();
    let mut roots: Vec<(String, &'static [&'static str])> = Vec::new();
    fn add<T: Output>(
        g: &mut schemars::SchemaGenerator,
        roots: &mut Vec<(String, &'static [&'static str])>,
    ) {
        let r = g.subschema_for::<T>();
        let name = r
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|s| s.rsplit('/').next())
            .unwrap_or_default()
            .to_string();
        roots.push((name, T::COMMANDS));
    }
    add::<Play>(&mut g, &mut roots);
    add::<Moves>(&mut g, &mut roots);
    add::<Perft>(&mut g, &mut roots);
    add::<Solve>(&mut g, &mut roots);
    add::<SolveStopped>(&mut g, &mut roots);
    add::<Analyze>(&mut g, &mut roots);
    add::<AnalyzeStopped>(&mut g, &mut roots);
    add::<SolveLine>(&mut g, &mut roots);
    add::<AnalyzeLine>(&mut g, &mut roots);
    add::<BatchError>(&mut g, &mut roots);
    add::<TablesQuery>(&mut g, &mut roots);
    add::<DumpLine>(&mut g, &mut roots);
    add::<TablesInfo>(&mut g, &mut roots);
    add::<TablesBuild>(&mut g, &mut roots);
    add::<TablesVerify>(&mut g, &mut roots);
    add::<MatchPlay>(&mut g, &mut roots);
    add::<FirstPlayer>(&mut g, &mut roots);
    add::<Opening>(&mut g, &mut roots);
    add::<Published>(&mut g, &mut roots);
    add::<VerifyMatch>(&mut g, &mut roots);
    let mut defs = g.take_definitions(true);
    for d in defs.values_mut() {
        close(d);
    }
    for (name, commands) in &roots {
        let Some(props) = defs
            .get_mut(name)
            .and_then(|d| d.get_mut("properties"))
            .and_then(Value::as_object_mut)
        else {
            continue;
        };
        if let Some(f) = props.get_mut("format") {
            if let Some(f) = f.as_object_mut() {
                f.insert("const".into(), FORMAT.into());
            }
        }
        if let Some(c) = props.get_mut("command").and_then(Value::as_object_mut) {
            match commands {
                [one] => c.insert("const".into(), (*one).into()),
                many => c.insert("enum".into(), many.iter().copied().collect()),
            };
        }
    }
    let any: Vec<Value> = roots
        .iter()
        .map(|(n, _)| serde_json::json!({ "$ref": format!("#/$defs/{n}") }))
        .collect();
    let mut root = Map::new();
    root.insert(
        "$schema".into(),
        "https://json-schema.org/draft/2020-12/schema".into(),
    );
    root.insert("title".into(), "mancala --json output".into());
    root.insert(
        "description".into(),
        format!(
            "Every object a `mancala ... --json` command prints, format {FORMAT} (docs/json.md). \
             Generated by `mancala json-schema` from the output types; do not edit by hand."
        )
        .into(),
    );
    root.insert("anyOf".into(), any.into());
    root.insert("$defs".into(), Value::Object(defs));
    Value::Object(root)
}

/// Allows no fields but the listed ones in every object schema within `v`: a field printed
/// but not in the types (or the reverse) fails validation instead of passing unnoticed.
fn close(v: &mut Value) {
    match v {
        Value::Object(m) => {
            if m.contains_key("properties") && !m.contains_key("additionalProperties") {
                m.insert("additionalProperties".into(), false.into());
            }
            m.values_mut().for_each(close);
        }
        Value::Array(a) => a.iter_mut().for_each(close),
        _ => {}
    }
}
