//! `tables build | info | query | dump | verify`: endgame tables from the command line, and the
//! `--tables DIR` option of `solve` and `analyze`.
//!
//! Tables live in one directory, one file per game, options, board size and layer (see the
//! `tables` crate's `format` module); the default directory is [`mancala::endgame::default_dir`].
//! Files are memory-mapped for reading: they are written once, atomically, and never modified in
//! place, so a mapping stays valid as long as nobody else rewrites the directory's files.
//!
//! One file per subcommand: `build.rs`, `info.rs`, `query.rs`, `dump.rs`, `verify.rs`; the
//! directory scan that `info` and `verify` share in `scan.rs`.

mod build;
mod dump;
mod info;
mod query;
mod scan;
mod verify;

use clap::{Args, Subcommand};
use mancala::endgame::default_dir;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

/// Endgame tables: build, inspect, query, dump and verify them.
#[derive(Args, Debug)]
pub(super) struct TablesArgs {
    #[command(subcommand)]
    command: TablesCommand,
}

#[derive(Subcommand, Debug)]
enum TablesCommand {
    /// Build the tables of every position with 0..=K seeds on the board (resumes a killed build).
    Build(build::BuildArgs),
    /// List every table file in the directory: game, options, holes, layer, entries, bytes,
    /// checksum status.
    Info(info::InfoArgs),
    /// The exact value of a position and its best moves, from the tables.
    Query(query::QueryArgs),
    /// Every position of one layer with its value and best moves.
    Dump(dump::DumpArgs),
    /// Check every table: checksums, then every entry re-derived from its children.
    Verify(verify::VerifyArgs),
}

#[derive(Args, Debug)]
struct DirArgs {
    /// The table directory (default: $MANCALA_TABLES, else $XDG_CACHE_HOME/mancala/tables, else
    /// ~/.cache/mancala/tables).
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

impl DirArgs {
    fn dir(&self) -> PathBuf {
        self.dir.clone().unwrap_or_else(default_dir)
    }
}

/// The flags of the commands that work through a whole directory (`build`, `verify`): where,
/// on how many threads, with progress bars or not.
#[derive(Args, Debug)]
struct WorkArgs {
    #[command(flatten)]
    dir: DirArgs,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Show progress bars on stderr even when it is not a terminal.
    #[arg(long)]
    progress: bool,
}

impl WorkArgs {
    /// The table directory.
    fn dir(&self) -> PathBuf {
        self.dir.dir()
    }

    /// `--threads`, checked (default: all cores).
    fn threads(&self) -> anyhow::Result<usize> {
        crate::setup::threads(self.threads)
    }

    /// Whether to draw progress bars: `--progress`, or stderr is a terminal.
    fn progress(&self) -> bool {
        self.progress || std::io::stderr().is_terminal()
    }
}

/// Runs a `tables` subcommand.
pub(super) fn run(a: TablesArgs) -> anyhow::Result<ExitCode> {
    match a.command {
        TablesCommand::Build(b) => build::run(&b),
        TablesCommand::Info(i) => info::run(&i),
        TablesCommand::Query(q) => query::run(&q),
        TablesCommand::Dump(d) => dump::run(&d),
        TablesCommand::Verify(v) => verify::run(&v),
    }
}
