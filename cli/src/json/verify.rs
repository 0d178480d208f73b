//! The objects of `verify first-player | published | opening | match | pie`.

use super::base::*;
use schemars::JsonSchema;
use serde::Serialize;

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
    /// The moves of the round as pit numbers: joined over the rounds, the record replays with
    /// `mancala match --moves`.
    pub played: Vec<u8>,
}

/// What the second player does after a first turn under the pie rule.
#[derive(Serialize, JsonSchema, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum SwapChoice {
    /// Swap sides: the turn left the first player ahead.
    Swap,
    /// Keep their side: the turn left them ahead.
    Keep,
    /// Indifferent: the turn leaves a draw.
    Either,
}

/// `verify pie`: the pie rule (docs/rules.md §3.9) on each board.
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "verify_pie")]
pub struct VerifyPie {
    #[serde(flatten)]
    pub head: Head,
    pub time_limit: Option<f64>,
    /// The most first turns listed per board (`--max-turns`).
    pub max_turns: usize,
    /// Whether the run went through every board (false after Ctrl-C).
    pub complete: bool,
    pub boards: Vec<PieBoard>,
}

impl Output for VerifyPie {
    const COMMANDS: &'static [&'static str] = &["verify pie"];
}

/// One board of `verify pie`.
#[derive(Serialize, JsonSchema)]
pub struct PieBoard {
    pub holes: u8,
    pub seeds: u8,
    /// The start position.
    pub position: String,
    pub status: SizeStatus,
    /// Why the board is not solved (null when it is).
    pub note: Option<String>,
    /// `-min |v(t)|` over the first turns: the first player's result under the pie rule; null
    /// unless solved.
    pub pie_value: Option<i32>,
    /// The fairest first turns (`|v(t)|` least), each a list of pit numbers.
    pub fairest: Vec<Vec<u8>>,
    /// The start's value without the pie rule (the best turn's value); null unless solved.
    pub value: Option<i32>,
    /// Every first turn with its value (empty unless solved).
    pub turns: Vec<PieTurn>,
    pub nodes: u64,
    pub seconds: f64,
}

/// One first turn of `verify pie`.
#[derive(Serialize, JsonSchema)]
pub struct PieTurn {
    /// The first player's moves, pit numbers in order.
    pub moves: Vec<u8>,
    /// The position after the turn.
    pub position: String,
    /// Its value `v(t)`: final South minus North under perfect play from there.
    pub value: i32,
    pub winner: Winner,
    /// What the second player does after it.
    pub second_player: SwapChoice,
    /// Whether it is one of the fairest turns.
    pub fairest: bool,
}
