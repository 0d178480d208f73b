//! `completions SHELL` and `man`: files generated from the clap definition itself, so they can
//! never disagree with the parser (clap_complete, clap_mangen).
//!
//! Both are rendered into memory first and then written with one checked write: a closed stdout
//! (`mancala completions bash | head`) is then an error that `main` ends quietly, never a panic
//! inside the generator.

use anyhow::{bail, Context, Result};
use clap::{Args, CommandFactory};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Writes the completion script of `shell` to stdout.
pub(super) fn completions(shell: clap_complete::Shell) -> Result<ExitCode> {
    let mut cmd = super::Cli::command();
    let mut text = Vec::new();
    clap_complete::generate(shell, &mut cmd, "mancala", &mut text);
    write_stdout(&text)
}

/// `mancala man [COMMAND...] [--dir DIR]`.
#[derive(Args, Debug)]
pub(super) struct ManArgs {
    /// The page of one command, e.g. `solve` or `tables build` (default: the main page).
    command: Vec<String>,
    /// Write every page (mancala.1, mancala-solve.1, mancala-tables-build.1, ...) to DIR instead.
    #[arg(long, value_name = "DIR", conflicts_with = "command")]
    dir: Option<PathBuf>,
}

/// Writes the man page (roff, section 1) of the program or of one command to stdout, or every
/// page to a directory: `mancala man > mancala.1`, `mancala man --dir man1`.
pub(super) fn man(args: &ManArgs) -> Result<ExitCode> {
    let cmd = super::Cli::command();
    if let Some(dir) = &args.dir {
        std::fs::create_dir_all(dir).with_context(|| format!("--dir {}", dir.display()))?;
        clap_mangen::generate_to(cmd, dir).with_context(|| format!("--dir {}", dir.display()))?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut page = cmd;
    let mut name = String::from("mancala");
    for word in &args.command {
        page.build();
        let Some(sub) = page.find_subcommand(word).cloned() else {
            let known: Vec<&str> = page.get_subcommands().map(|c| c.get_name()).collect();
            bail!(
                "'{name} {word}' is not a command; the commands of {name} are {}",
                known.join(", ")
            );
        };
        // `build` named the subcommand `mancala-solve` (its display name), which the page uses.
        name = format!("{name} {}", sub.get_name());
        page = sub;
    }
    let mut text = Vec::new();
    clap_mangen::Man::new(page).render(&mut text)?;
    write_stdout(&text)
}

fn write_stdout(bytes: &[u8]) -> Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
