//! `mancala-mpi`: `mancala`'s table build and solve spread over the ranks of an MPI job
//! (`mpirun -n P mancala-mpi tables build ...`, `mpirun -n P mancala-mpi solve ...`;
//! docs/scale-out.md).
//!
//! Every rank runs this program with the same arguments. Started without `mpirun` it runs as a
//! single rank (MPI's singleton start), and says so. Ranks that were given different arguments
//! all stop with an error before any work; an error on one rank during the build is an error on
//! all (the build's collectives carry it); a panic ends the whole job (`MPI_Abort`), so that no
//! rank waits for ever for a rank that is gone; and a rank killed from outside ends the job by
//! `mpirun`'s own rule (it kills the other ranks when one dies). Files are written atomically by
//! rank 0, so a job ended at any moment leaves only complete, verified layers, which the next
//! build keeps.

mod args;
mod build;
mod comm;
mod solve;

use args::{Cli, Command, TablesCommand};
use clap::Parser;
use mpi::traits::Communicator;
use mpi::Threading;
use solver::Collective;
use std::process::ExitCode;

/// Environment variables that the launchers of the common MPI implementations set in every
/// rank; none of them set means the program was not started by one.
const LAUNCHED: &[&str] = &[
    "OMPI_COMM_WORLD_SIZE",
    "PMI_SIZE",
    "PMI_RANK",
    "PMIX_RANK",
    "MPI_LOCALNRANKS",
    "SLURM_PROCID",
];

fn main() -> ExitCode {
    // Looked at before MPI starts: a singleton start sets some of them itself.
    let launched = LAUNCHED.iter().any(|v| std::env::var_os(v).is_some());
    // Serialized: one thread at a time calls MPI (the build's collectives from whichever thread
    // runs it; in the solve each rank's main thread alone, while its search thread works).
    let Some((universe, _)) = mpi::initialize_with_threading(Threading::Serialized) else {
        eprintln!("error: MPI was already initialised");
        return ExitCode::FAILURE;
    };
    let world = comm::World::new(universe.world());
    let root = world.rank() == 0;
    let prefix = if world.ranks() > 1 {
        format!("rank {}: ", world.rank())
    } else {
        String::new()
    };
    // A panic on one rank would leave the others in a collective for ever: end the job.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        hook(info);
        eprintln!("error: a rank panicked: ending every rank of the job");
        mpi::topology::SimpleCommunicator::world().abort(101);
    }));
    if root && !launched {
        eprintln!(
            "note: not started by mpirun (or srun): running as a single rank; start it as `mpirun -n P mancala-mpi ...` to spread the work"
        );
    }
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if let Err(e) = comm::same_everywhere(&world, "arguments", args::fingerprint(&argv)) {
        if root {
            eprintln!("error: {e:#}");
        }
        return ExitCode::FAILURE;
    }
    // Every rank parses the same arguments, so all succeed or all fail; rank 0 speaks.
    let cli = match Cli::try_parse_from(&argv) {
        Ok(c) => c,
        Err(e) => {
            if root {
                let _ = e.print();
            }
            return if e.use_stderr() {
                ExitCode::from(mancala_cli::exit::USAGE)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    let result = match &cli.command {
        Command::Tables(TablesCommand::Build(b)) => build::run(b, &world),
        Command::Solve(s) => solve::run(s, &world),
    };
    // An error is on every rank: a bad flag is the same everywhere, and one during the build
    // reaches every rank (`tables::build_split`); each says it, by rank, and stops.
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{prefix}error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
