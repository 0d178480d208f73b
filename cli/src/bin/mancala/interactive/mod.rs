//! `play --interactive` and `match --interactive`: a game, or a multi-round match, against the
//! engine, which plays perfect moves (exact solve, first best move) for its side.
//!
//! One loop ([`repl`]) serves both: it drives a [`session::Session`] (a single game or a match,
//! each with its own `play` and end-of-play wording), an [`think::Engine`] (one solver per round,
//! a stop flag of its own that Ctrl-C raises) and an [`input::Input`] (a line editor on a
//! terminal, plain lines from a pipe).

mod calibrated;
mod input;
mod repl;
mod session;
mod status;
mod think;

use super::PositionArgs;
use anyhow::{Context, Result};
use clap::Args;
use mancala::board::Side;
use mancala::endgame::MancalaIndexer;
use mancala::matches::Match;
use mancala::rules::Rules;
use mancala::Position;
use std::path::PathBuf;
use std::process::ExitCode;
use tables::Tablebase;

/// The options of interactive play, shared by `play` and `match`.
#[derive(Args, Debug, Clone, Default)]
pub struct InteractiveArgs {
    /// Play against the engine: type moves (`3`, `S3`) and commands (`help` lists them: hint,
    /// undo, redo, show, moves, history, value, go, quit). Prompts and line editing on a
    /// terminal; one command per line and no prompts from a pipe.
    #[arg(long, conflicts_with = "json")]
    pub interactive: bool,
    /// With --interactive: the side the engine plays, S, N, both or none (default N: you play
    /// South, who moves first from a start position).
    #[arg(long, value_name = "S|N|both|none", value_parser = parse_engine, requires = "interactive")]
    engine: Option<Sides>,
    /// With --interactive: the engine probes the endgame tables in DIR (built by `mancala tables
    /// build`); without DIR, the default table directory (write `--tables=DIR` before the game's
    /// name). Rounds with burnt pits or sons are solved without them.
    #[arg(long, value_name = "DIR", num_args = 0..=1, requires = "interactive")]
    tables: Option<Option<PathBuf>>,
    /// With --interactive: search threads (default: all cores).
    #[arg(long, requires = "interactive")]
    threads: Option<usize>,
    /// With --interactive: transposition table size in MiB, fixed (default: grows with the
    /// search from 8 MiB, up to 4 GiB or half the free memory).
    #[arg(long, requires = "interactive")]
    hash_mb: Option<u64>,
    #[command(flatten)]
    calibration: calibrated::CalibrationArgs,
}

/// Which sides the engine plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Sides {
    south: bool,
    north: bool,
}

impl Sides {
    /// Whether the engine plays `side`.
    fn plays(self, side: Side) -> bool {
        match side {
            Side::South => self.south,
            Side::North => self.north,
        }
    }

    /// "the engine plays North", for the greeting.
    fn describe(self) -> &'static str {
        match (self.south, self.north) {
            (true, true) => "the engine plays both sides (Ctrl-C stops it)",
            (true, false) => "the engine plays South, you play North",
            (false, true) => "you play South, the engine plays North",
            (false, false) => "no engine: you play both sides",
        }
    }
}

fn parse_engine(s: &str) -> Result<Sides, String> {
    let (south, north) = match s.to_ascii_lowercase().as_str() {
        "s" | "south" => (true, false),
        "n" | "north" => (false, true),
        "both" => (true, true),
        "none" => (false, false),
        _ => return Err(format!("'{s}' is not a side: write S, N, both or none")),
    };
    Ok(Sides { south, north })
}

impl InteractiveArgs {
    fn sides(&self) -> Sides {
        self.engine.unwrap_or(Sides {
            south: false,
            north: true,
        })
    }

    fn tables_dir(&self) -> Option<PathBuf> {
        self.tables
            .as_ref()
            .map(|d| d.clone().unwrap_or_else(mancala::endgame::default_dir))
    }

    /// The endgame tables for the engine, opened once for the whole session (a table slot is a
    /// board with every pit open, so `start` tells the game and size, not which rounds use them)
    /// and kept for the rest of the process: the engine's search over the Kalah node reads them
    /// through a view kept beside them ([`mancala::answers::AnySolver::new`]).
    fn open_tables<R: Rules>(
        &self,
        start: &Position<R>,
    ) -> Result<Option<&'static Tablebase<MancalaIndexer<R>>>> {
        let Some(dir) = self.tables_dir() else {
            return Ok(None);
        };
        // Every layer: a later round of a match may hold more seeds than `start`.
        let tb = mancala::endgame::open_for_layers(&dir, start, mancala::board::MAX_BOARD_SEEDS)
            .with_context(|| format!("--tables {}", dir.display()))?;
        Ok(Some(Box::leak(Box::new(tb))))
    }
}

/// `play --interactive`: one game from the position of `pos` (its `--moves` already played).
pub(super) fn play<R: Rules>(
    pos: &PositionArgs,
    args: &InteractiveArgs,
    rules: R,
) -> Result<ExitCode> {
    let start = pos.position(rules)?;
    if args.tables.is_some() && start.board().has_statuses() {
        // The same refusal, in the same words, as `solve --tables` on such a position.
        super::setup::tables_for_search(&std::path::PathBuf::new(), &start)?;
    }
    let tb = args.open_tables(&start)?;
    let prefix = super::move_list::split(&pos.moves)
        .into_iter()
        .map(str::to_string)
        .collect();
    let session = session::Game::new(start, prefix);
    run(session, args, tb, pos.command_line("play"))
}

/// `match --interactive`: the match `m` (its `--moves` already played, `moves` the list given).
pub(super) fn play_match<R: Rules>(
    m: Match<R>,
    pos: &PositionArgs,
    args: &InteractiveArgs,
) -> Result<ExitCode> {
    let first = m.rounds()[0].start;
    let tb = args.open_tables(&first)?;
    let prefix = pos.moves.iter().map(|m| m.trim().to_string()).collect();
    let head = pos.command_line("match");
    run(session::MatchPlay::new(m, prefix), args, tb, head)
}

/// `head`: the command line that sets up the same game, for the replay hint of `history`.
fn run<S: session::Session>(
    session: S,
    args: &InteractiveArgs,
    tb: Option<&'static Tablebase<MancalaIndexer<S::R>>>,
    head: String,
) -> Result<ExitCode> {
    let threads = super::setup::threads(args.threads)?;
    let hash = super::setup::hash_bytes(args.hash_mb)?;
    let mut engine = think::Engine::new(threads, hash, tb);
    engine.calibrated = args.calibration.player()?;
    let mut input = input::Input::new()?;
    repl::run(session, args.sides(), &mut engine, &mut input, head)
}
