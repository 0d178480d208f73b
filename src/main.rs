//! The `mancala` binary: parse the command line, run it, report errors on stderr.

mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    match cli::run(cli) {
        Ok(code) => code,
        Err(e) => {
            // A closed pipe (`mancala ... | head`) is not an error worth reporting.
            if e.chain().any(|c| {
                c.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }) {
                return ExitCode::SUCCESS;
            }
            eprintln!("error: {e:#}");
            if e.downcast_ref::<cli::engine::Interrupted>().is_some() {
                return ExitCode::from(cli::engine::INTERRUPTED_EXIT);
            }
            ExitCode::FAILURE
        }
    }
}
