//! What the two binaries, `mancala` and `mancala-mpi`, share: the arguments that name a game
//! and a board with their range checks ([`args`]), the `--json` types and their schema
//! ([`json`]), how values and moves are worded ([`report`]), the exit statuses ([`exit`]), and
//! the one watcher of long jobs: deadline, Ctrl-C, spinner ([`watch`], [`signal`]).
//!
//! The binaries' own code (clap's subcommands, each command's work) is in this package's
//! `src/bin/mancala/` and `src/bin/mancala-mpi/`: a package that depends on this crate must own
//! them (the library `mancala` cannot: this crate depends on it).

pub mod args;
pub mod exit;
pub mod json;
pub mod layer_bars;
pub mod report;
mod rule_args;
pub mod signal;
pub mod watch;
