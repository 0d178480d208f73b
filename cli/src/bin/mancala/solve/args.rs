//! The search flags of `solve` and `analyze` (threads, table, tables, time limit, progress),
//! and the search configuration they make.

use crate::setup;
use anyhow::Result;
use clap::Args;
use mancala::answers::{Analyzer, AnalyzerConfig, MemoryChoice, TablesChoice};
use mancala::rules::Rules;
use mancala_cli::args::parse_seconds;
use solver::search::SearchConfig;
use std::io::IsTerminal;

/// Search settings shared by `solve` and `analyze`.
#[derive(Args, Debug, Clone)]
pub struct SearchArgs {
    /// Search threads (default: all cores).
    #[arg(long)]
    pub(super) threads: Option<usize>,
    /// Transposition table size in MiB, fixed (default: grows with the search from 8 MiB, up to 4 GiB or half the available memory).
    #[arg(long)]
    pub(super) hash_mb: Option<u64>,
    /// Show a progress line on stderr even when it is not a terminal.
    #[arg(long)]
    pub(super) progress: bool,
    /// Probe the endgame tables in DIR (built by `mancala tables build`) at every node; without
    /// DIR, the default table directory (write `--tables=DIR` before the game's name).
    #[arg(long, value_name = "DIR", num_args = 0..=1, require_equals = false)]
    pub(super) tables: Option<Option<std::path::PathBuf>>,
    /// Search without endgame tables, even when the default table directory holds the game's
    /// (which every search uses otherwise).
    #[arg(long, conflicts_with = "tables")]
    pub(super) no_tables: bool,
    /// Do not answer from the opening book built into the program.
    #[arg(long)]
    pub(super) no_book: bool,
    /// The memory of proven positions (default: $MANCALA_MEMORY, else memory.sqlite beside the
    /// default table directory; `off` turns it off).
    #[arg(long, value_name = "FILE")]
    pub(super) memory: Option<std::path::PathBuf>,
    /// Neither read nor write the memory of proven positions.
    #[arg(long, conflicts_with = "memory")]
    pub(super) no_memory: bool,
    /// Use the wide (16-byte) table entries even where the narrow ones would do (for measuring
    /// the wide path; values are the same).
    #[arg(long, hide = true)]
    pub(super) wide_table: bool,
    /// Stop after SECS seconds and print what is proven: bounds on the value (exit status 124).
    #[arg(long, value_parser = parse_seconds, value_name = "SECS", allow_negative_numbers = true)]
    pub(super) time_limit: Option<f64>,
}

impl SearchArgs {
    /// The search configuration for `root`, with the table sized to what the position can use
    /// and what the machine can give.
    pub(crate) fn config<G: solver::Game>(&self, root: &G) -> Result<SearchConfig> {
        let threads = setup::threads(self.threads)?;
        let asked = setup::hash_bytes(self.hash_mb)?;
        Ok(SearchConfig {
            threads,
            tt_bytes: asked.first_bytes(root),
            tt_max_bytes: asked.max_bytes(root),
            wide_table: self.wide_table,
            ..SearchConfig::default()
        })
    }

    /// The table directory of `--tables`, the default one when no DIR is given.
    pub(crate) fn tables_dir(&self) -> Option<std::path::PathBuf> {
        self.tables
            .as_ref()
            .map(|d| d.clone().unwrap_or_else(mancala::endgame::default_dir))
    }

    /// The analyzer these flags describe, for positions like `root`: the book, the memory and
    /// the tables as chosen, the threads and the table size of [`SearchArgs::config`].
    pub(crate) fn analyzer<R: Rules>(&self) -> Result<Analyzer<R>> {
        let threads = setup::threads(self.threads)?;
        let table_size = setup::hash_bytes(self.hash_mb)?;
        let tables = match (self.tables_dir(), self.no_tables) {
            (Some(d), _) => TablesChoice::Dir(d),
            (None, true) => TablesChoice::Off,
            (None, false) => TablesChoice::Default,
        };
        Ok(Analyzer::new(AnalyzerConfig {
            threads,
            table_size,
            tables,
            book: !self.no_book,
            memory: self.memory_choice(),
            wide_table: self.wide_table,
        }))
    }

    /// `--memory`, `--no-memory`, `$MANCALA_MEMORY` (`off`: none).
    fn memory_choice(&self) -> MemoryChoice {
        match (&self.memory, self.no_memory) {
            (_, true) => MemoryChoice::Off,
            (Some(path), false) => MemoryChoice::File(path.clone()),
            (None, false) => MemoryChoice::Default,
        }
    }

    pub(super) fn wants_progress(&self) -> bool {
        self.progress || std::io::stderr().is_terminal()
    }
}

impl SearchArgs {
    /// The search flags of `mancala serve`, which every search of the server starts from.
    pub(crate) fn for_server(
        threads: Option<usize>,
        hash_mb: Option<u64>,
        tables: Option<Option<std::path::PathBuf>>,
        time_limit: f64,
    ) -> Self {
        Self {
            threads,
            hash_mb,
            progress: false,
            tables,
            no_tables: false,
            no_book: false,
            memory: None,
            no_memory: false,
            wide_table: false,
            time_limit: Some(time_limit),
        }
    }

    /// `--time-limit`.
    pub(crate) fn time_limit(&self) -> Option<f64> {
        self.time_limit
    }

    /// These flags with the time limit lowered to `asked` (a request's own), never raised.
    pub(crate) fn limited_to(&self, asked: Option<f64>) -> Self {
        let time_limit = match (self.time_limit, asked) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Self {
            time_limit,
            ..self.clone()
        }
    }
}
