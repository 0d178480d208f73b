//! `completions SHELL` and `man`: files generated from the clap definition itself, so they can
//! never disagree with the parser (clap_complete, clap_mangen).
//!
//! Both are rendered into memory first and then written with one checked write: a closed stdout
//! (`mancala completions bash | head`) is then an error that `main` ends quietly, never a panic
//! inside the generator.

use anyhow::{bail, Context, Result};
use clap::{Args, CommandFactory};
use mancala::rules::GameKind;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Writes the completion script of `shell` to stdout.
pub(super) fn completions(shell: clap_complete::Shell) -> Result<ExitCode> {
    let mut cmd = offered(&super::Cli::command());
    let mut text = Vec::new();
    clap_complete::generate(shell, &mut cmd, "mancala", &mut text);
    write_stdout(&text)
}

/// The command tree as completions offer it: without the hidden commands and flags (for tools
/// and measurements, not for people: `json-schema`, `--wide-table`; clap_complete's generators
/// list hidden ones too), and with the five games' names as the values of a game argument (its
/// parser also takes aliases and any case, which clap cannot list).
fn offered(cmd: &clap::Command) -> clap::Command {
    let mut out = clap::Command::new(cmd.get_name().to_owned());
    if let Some(about) = cmd.get_about() {
        out = out.about(about.clone());
    }
    if let Some(v) = cmd.get_version() {
        out = out.version(v.to_owned());
    }
    for arg in cmd.get_arguments().filter(|a| !a.is_hide_set()) {
        let arg = arg.clone();
        out = out.arg(if arg.get_id() == "game" {
            let names = GameKind::ALL.map(GameKind::name);
            arg.value_parser(clap::builder::PossibleValuesParser::new(names))
        } else {
            arg
        });
    }
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        out = out.subcommand(offered(sub));
    }
    out
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
