//! The search flags of `solve` and `analyze` (threads, table, tables, time limit, progress),
//! and the search configuration they make.

use crate::engine;
use anyhow::Result;
use clap::Args;
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
        let threads = engine::threads(self.threads)?;
        let asked = engine::hash_bytes(self.hash_mb)?;
        Ok(SearchConfig {
            threads,
            tt_bytes: engine::tt_bytes(root, asked),
            tt_max_bytes: engine::tt_max_bytes(root, asked),
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
