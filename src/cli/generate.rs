//! `completions SHELL` and `man`: files generated from the clap definition itself, so they can
//! never disagree with the parser (clap_complete, clap_mangen).

use anyhow::Result;
use clap::CommandFactory;
use std::io::Write;
use std::process::ExitCode;

/// Writes the completion script of `shell` to stdout.
pub(super) fn completions(shell: clap_complete::Shell) -> Result<ExitCode> {
    let mut cmd = super::Cli::command();
    let mut out = std::io::stdout().lock();
    clap_complete::generate(shell, &mut cmd, "mancala", &mut out);
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Writes the man page (roff, section 1) to stdout: `mancala man > mancala.1`.
pub(super) fn man() -> Result<ExitCode> {
    let cmd = super::Cli::command();
    let mut out = std::io::stdout().lock();
    clap_mangen::Man::new(cmd).render(&mut out)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
