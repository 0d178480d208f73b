//! The flags `verify first-player` and `verify pie` share: which boards of which game, under
//! which rules, solved how, with which endgame tables.

use super::limited::{Engine, EngineArgs};
use super::out_file::SurveyFiles;
use anyhow::Result;
use clap::Args;
use mancala::rules::GameKind;
use mancala_cli::args::{parse_game, parse_range, RuleArgs};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The boards a survey solves and how.
#[derive(Args, Debug)]
pub(super) struct SurveyArgs {
    /// The game: kalah, dakon, djenon-aboure, walak-pussa or san-yao.
    #[arg(value_parser = parse_game)]
    pub(super) game: GameKind,
    /// Holes per row: N or a range A..B (default: the game's standard board).
    #[arg(long, value_parser = parse_range, value_name = "A..B")]
    pub(super) holes: Option<(u32, u32)>,
    /// Seeds per hole: N or a range C..D (default: the game's standard for each board).
    #[arg(long, value_parser = parse_range, value_name = "C..D")]
    pub(super) seeds: Option<(u32, u32)>,
    #[command(flatten)]
    pub(super) rules: RuleArgs,
    #[command(flatten)]
    pub(super) engine: EngineArgs,
    /// Probe the endgame tables in DIR (built by `mancala tables build`) at every node; without
    /// DIR, the default table directory (write `--tables=DIR` then), as `solve --tables` does.
    #[arg(long, value_name = "DIR", num_args = 0..=1)]
    pub(super) tables: Option<Option<PathBuf>>,
}

impl SurveyArgs {
    /// The engine (`time_limit` a board) and the files a survey writes (`--csv`, `--plot`) and
    /// reads (the tables), opened before the work, so that a bad path fails now, not after it.
    pub(super) fn start(
        &self,
        time_limit: Option<f64>,
        csv: Option<&Path>,
        plot: Option<&Path>,
    ) -> Result<(Engine, SurveyFiles)> {
        let engine = Engine::new(&self.engine, time_limit)?;
        let files = SurveyFiles::open(csv, plot, self.tables.as_ref())?;
        Ok((engine, files))
    }
}

/// A survey's exit status: interrupted (130) after Ctrl-C, when the boards it finished are
/// still written and the others marked, else success.
pub(super) fn exit_status(interrupted: bool) -> ExitCode {
    if interrupted {
        ExitCode::from(mancala_cli::exit::INTERRUPTED)
    } else {
        ExitCode::SUCCESS
    }
}
