//! The objects of `solve` and `analyze`: finished, stopped, and one line per batch position.

use super::base::*;
use schemars::JsonSchema;
use serde::Serialize;

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
    /// Where the answer came from: `rules` (the game is over), `book` (the opening book),
    /// `memory` (proven by an earlier search), `tables` (the endgame tables), `search`.
    pub source: String,
}

impl Output for Solve {
    const COMMANDS: &'static [&'static str] = &["solve"];
}

/// `mancala-mpi solve`, solved: the value and best moves of a start position, and how the work
/// was spread over the ranks. No principal variation: no one rank holds the tables to follow it.
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "solve_mpi")]
pub struct SolveMpi {
    #[serde(flatten)]
    pub head: PositionHead,
    /// Always true here (a distributed solve prints only when it finished).
    pub complete: bool,
    /// The final South-minus-North value under perfect play.
    pub value: i32,
    pub winner: Winner,
    /// The store-independent value for the side to move (the search's own number).
    pub future: i32,
    /// Every move that reaches `value`.
    pub best: Vec<u8>,
    /// Nodes searched by all the ranks together.
    pub nodes: u64,
    pub seconds: f64,
    /// The ranks of the MPI job.
    pub ranks: usize,
    /// Search threads per rank.
    pub threads: usize,
    /// The plies of the tree that rank 0 managed (`--split-depth`).
    pub split_depth: u32,
    /// The null-window jobs that rank 0 handed out.
    pub jobs: MpiJobs,
}

impl Output for SolveMpi {
    const COMMANDS: &'static [&'static str] = &["solve"];
}

/// The null-window jobs of a distributed solve.
#[derive(Serialize, JsonSchema)]
pub struct MpiJobs {
    /// Handed out to the workers.
    pub issued: u64,
    /// Answered with a result.
    pub finished: u64,
    /// Results read from the journal of an earlier run.
    pub reused: u64,
    /// Cancelled once a sibling's result made them useless.
    pub cancelled: u64,
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
    /// Empty when the game is over, or when no move's sowing ended within the time the pick
    /// may take (`unfinished` then lists them).
    pub best: Vec<u8>,
    /// Whether `best` holds proven best moves (true) or the unproven pick (false).
    pub best_proven: bool,
    /// Moves proven not to reach it.
    pub worse: Vec<u8>,
    /// Moves whose sowing was still relaying (docs/rules.md §2.9) when the time to pick a move
    /// to play ran out: not played, not known to end. Absent when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unfinished: Vec<u8>,
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
    /// The moves proven best (valued, and no other can do better); when none is proven yet,
    /// the one move to play now (the look-ahead's pick among the moves not proven worse, as a
    /// stopped `solve`'s: `best_proven` false). Empty when no move's sowing ended within the
    /// time the pick may take (`unfinished` then lists them).
    pub best: Vec<u8>,
    /// Whether `best` holds proven best moves (true) or the unproven pick (false).
    pub best_proven: bool,
    /// Moves whose sowing was still relaying when the time to pick a move ran out. Absent when
    /// none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unfinished: Vec<u8>,
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
    #[serde(flatten)]
    pub verdict: Verdict,
    pub moves: Vec<MoveValue>,
    pub seconds: f64,
    /// Where the values came from (the costliest source of any move): `rules`, `book`,
    /// `memory`, `tables` or `search`, as for `solve`.
    pub source: String,
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
    #[serde(flatten)]
    pub verdict: Verdict,
    pub pv: Vec<SideMove>,
    /// Nodes searched for the line (0 when no search answered).
    pub nodes: u64,
    /// Where the answer came from: `rules`, `book`, `memory`, `tables` or `search`, as for
    /// `solve`.
    pub source: String,
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
    #[serde(flatten)]
    pub verdict: Verdict,
    pub moves: Vec<MoveValue>,
    /// Where the values came from (the costliest source of any move): `rules`, `book`,
    /// `memory`, `tables` or `search`, as for `analyze`.
    pub source: String,
}

impl Output for AnalyzeLine {
    const COMMANDS: &'static [&'static str] = &["analyze"];
}

/// A line of `solve --batch` or `analyze --batch` stopped by `--time-limit` (which bounds each
/// line): the bounds its search proved on the final South-minus-North value; the batch goes on
/// with the next line.
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "batch_stopped_line")]
pub struct StoppedLine {
    #[serde(flatten)]
    pub head: PositionHead,
    /// The input line number, from 1.
    pub line: usize,
    /// Always false here.
    pub complete: bool,
    pub stopped: StopCause,
    /// The proven bounds on the position's final South-minus-North value.
    pub lower: i32,
    pub upper: i32,
    /// The winner when the bounds alone decide it.
    pub winner: Option<Winner>,
    pub nodes: u64,
    /// Always `search` here (only a search can be stopped).
    pub source: String,
}

impl Output for StoppedLine {
    const COMMANDS: &'static [&'static str] = &["solve", "analyze"];
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
