//! `verify`: claims about the games checked by computation, each as one command whose output can
//! be pasted into a paper.
//!
//! - `verify first-player GAME --holes A..B --seeds C..D`: solves the start of every board size
//!   in the ranges (the first player's advantage), with a per-size time limit; sizes cut off are
//!   reported as unknown, never guessed. Table on stdout; optional CSV, JSON and an SVG heatmap.
//! - `verify published`: the published Kalah values of docs/reference-values.md §2 (built in: [`mancala::reference_values`]),
//!   row by row: agree, disagree or skipped. Exit status 1 on any disagreement.
//! - `verify opening GAME`: the first player's whole first turn, searched exhaustively
//!   ([`mancala::opening`]): is there a winning opening (docs/rules.md §9)? With `--solve`, also the
//!   full game's value.
//!
//! - `verify match GAME --holes A..B --seeds C..D`: the round-perfect match of docs/rules.md §13.5
//!   for each size ([`mod@matches`]).
//! - `verify pie GAME --holes A..B --seeds C..D`: the pie rule (docs/rules.md §3.9): every first
//!   turn's exact value, the pie value and the fairest openings ([`mancala::pie`]).
//!
//! One file per claim (`first_player.rs` with its `heatmap.rs`, `published.rs`, `opening.rs`,
//! `matches.rs`); what they share in files of its own: the flags of `first-player` and `pie`
//! (`survey_args.rs`), solving one start within a time limit
//! (`limited.rs`), the heatmaps of `first-player` and `pie` (`heatmap.rs`), and files written
//! atomically (`out_file.rs`). This file holds the arguments
//! and the dispatch.

mod first_player;
mod heatmap;
mod limited;
mod matches;
mod opening;
mod out_file;
mod pie;
mod published;
mod survey_args;

use anyhow::Result;
use clap::{Args, Subcommand};
use std::process::ExitCode;

/// `mancala verify ...`
#[derive(Args, Debug)]
pub struct VerifyArgs {
    #[command(subcommand)]
    what: VerifyCommand,
}

#[derive(Subcommand, Debug)]
enum VerifyCommand {
    /// Solve the start of every board size in a range: the first player's advantage.
    FirstPlayer(first_player::FirstPlayerArgs),
    /// Check the published Kalah values (docs/reference-values.md §2, built in) that fit the time limit.
    Published(published::PublishedArgs),
    /// Search the first player's whole first turn for an outright win (the Dakon first-player claim).
    Opening(opening::OpeningArgs),
    /// The round-perfect match (docs/rules.md §13.5) of Dakon, Walak-pussa or San-Yao for each size.
    Match(matches::MatchArgs),
    /// The pie rule (docs/rules.md §3.9): every first turn's value, the pie value and the fairest openings.
    Pie(pie::PieArgs),
}

pub(super) fn run(a: VerifyArgs) -> Result<ExitCode> {
    match a.what {
        VerifyCommand::FirstPlayer(a) => first_player::run(&a),
        VerifyCommand::Published(a) => published::run(&a),
        VerifyCommand::Match(a) => matches::run(&a),
        VerifyCommand::Pie(a) => pie::run(&a),
        VerifyCommand::Opening(a) => {
            let v = a.pos.variant()?;
            mancala::with_rules!(v, r => opening::run(&a, r))
        }
    }
}
