//! The command line of `mancala-mpi`: the subcommands and flags of `mancala` that it runs
//! distributed, with the same names and meanings (docs/cli.md), and the check that every rank was
//! given the same ones.

use anyhow::Result;
use clap::{Args, Parser, Subcommand};
use mancala::rules::GameKind;
use mancala::variant::Variant;
use mancala_cli::args::{parse_game, GameArgs, RuleArgs};
use std::path::PathBuf;

/// `mancala` on MPI: commands split over the ranks of `mpirun` (docs/scale-out.md).
#[derive(Parser, Debug)]
#[command(name = "mancala-mpi", version, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Endgame tables, built by all the ranks together.
    #[command(subcommand)]
    Tables(TablesCommand),
    /// The exact value and best moves of a start position: rank 0 manages the top of the tree,
    /// the other ranks run its null-window tests below it (docs/scale-out.md).
    Solve(SolveArgs),
}

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// The game: kalah, dakon, djenon-aboure, walak-pussa or san-yao.
    #[arg(value_parser = parse_game)]
    pub game: GameKind,
    /// Holes per row (default: the game's standard board).
    #[arg(long)]
    pub holes: Option<u32>,
    /// Seeds per hole at the start (default: the game's standard for the board).
    #[arg(long)]
    pub seeds: Option<u32>,
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Endgame tables for the workers' search (a directory every rank can read).
    #[arg(long, value_name = "DIR")]
    pub tables: Option<PathBuf>,
    /// Worker threads per rank (default: all cores of the rank's machine).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Transposition table per rank, in MiB.
    #[arg(long, default_value_t = 256)]
    pub hash_mb: u64,
    /// Plies of the tree that rank 0 manages: its jobs are null-window tests on the positions at
    /// that depth.
    #[arg(long, default_value_t = 2)]
    pub split_depth: u32,
    /// Journal of the finished jobs (rank 0 writes it): a killed run started again with the
    /// same journal does not solve them again.
    #[arg(long, value_name = "FILE")]
    pub journal: Option<PathBuf>,
    /// Print one JSON object on rank 0 (docs/json.md, `solve_mpi`).
    #[arg(long)]
    pub json: bool,
}

impl SolveArgs {
    /// The rule options given.
    pub fn rules_names(&self) -> &[&'static str] {
        &self.rules.on
    }

    /// The game with its options.
    pub fn variant(&self) -> Result<Variant> {
        self.rules.variant(self.game)
    }
}

#[derive(Subcommand, Debug)]
pub enum TablesCommand {
    /// Build the tables of every position with 0..=K seeds on the board (resumes a killed
    /// build): the files of `mancala tables build`, byte for byte, written by rank 0.
    Build(BuildArgs),
}

#[derive(Args, Debug)]
pub struct BuildArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// The largest number of seeds on the board to cover.
    #[arg(long, value_name = "K")]
    pub max_seeds: u32,
    /// The table directory, which rank 0 reads and writes (default: $MANCALA_TABLES, else
    /// $XDG_CACHE_HOME/mancala/tables, else ~/.cache/mancala/tables, on rank 0's machine).
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// Worker threads per rank (default: all cores of the rank's machine).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Show rank 0's progress bars on stderr.
    #[arg(long)]
    pub progress: bool,
    /// Print the entries and the memory each rank needs, and build nothing.
    #[arg(long)]
    pub dry_run: bool,
}

/// A checksum of the arguments (the program's name left out, so that ranks may start it from
/// different paths), for [`crate::comm::same_everywhere`].
pub fn fingerprint(args: &[std::ffi::OsString]) -> u64 {
    let mut crc = 0u32;
    for a in args.iter().skip(1) {
        crc = tables::checksum::update(crc, a.as_encoded_bytes());
        crc = tables::checksum::update(crc, &[0]);
    }
    u64::from(crc) << 32 | args.len() as u64
}
