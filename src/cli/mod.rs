//! The `mancala` command line: clap arguments, their validation, and the subcommands.
//!
//! Results go to stdout, diagnostics to stderr. Every error is a message and a non-zero exit,
//! never a panic: see [`run`].

mod batch;
mod draw;
mod engine;
mod generate;
mod interactive;
mod match_cmd;
mod move_list;
mod play;
mod solve;
mod tables;
mod verify;

use anyhow::{bail, Context, Result};
use clap::{Args, Parser, Subcommand};
use mancala::notation::{RoundSetup, Setup};
use mancala::rules::{GameKind, Rules};
use mancala::variant::Variant;
use mancala::Position;

use draw::draw;
pub(crate) use mancala_cli::args::{parse_game, RuleArgs};
use mancala_cli::watch::{OnSignal, Spinner, Watcher};
pub(crate) use mancala_cli::{json, report};
use std::time::Duration;

/// `--version`: the crate version, and the git commit when built from a checkout (`build.rs`).
const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), env!("MANCALA_VERSION_SUFFIX"));

/// Play, solve and analyse two-row mancala games exactly.
#[derive(Parser, Debug)]
#[command(name = "mancala", version = VERSION, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Draw a position as a player sees it.
    Show(PositionArgs),
    /// Apply moves to a position and print the result.
    Play(PlayArgs),
    /// List the legal moves of the side to move, with the position after each.
    Moves(MovesArgs),
    /// The exact value of a position under perfect play, the best moves and a principal variation.
    Solve(SolveArgs),
    /// The exact value of every legal move.
    Analyze(SolveArgs),
    /// Play a multi-round match (Dakon, Walak-pussa, San-Yao; docs/rules.md §13) from a move list.
    Match(match_cmd::MatchArgs),
    /// Endgame tables: build, info, query, dump, verify.
    Tables(tables::TablesArgs),
    /// Check claims by computation: first-player advantage over board sizes, the published values, winning openings.
    Verify(verify::VerifyArgs),
    /// Print a shell completion script: `mancala completions bash > ~/.local/share/bash-completion/completions/mancala`.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff): `mancala man > mancala.1`.
    Man,
    /// Print the JSON Schema of every `--json` output (docs/json.schema.json is this output).
    #[command(hide = true)]
    JsonSchema,
}

#[derive(Args, Debug)]
struct SolveArgs {
    #[command(flatten)]
    pos: PositionArgs,
    #[command(flatten)]
    search: solve::SearchArgs,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// Read one position per line from FILE (`-`: stdin) and print one JSON object per line.
    #[arg(long, value_name = "FILE", allow_hyphen_values = true)]
    batch: Option<String>,
}

/// Which game, which options, which position: shared by every subcommand.
#[derive(Args, Debug, Clone)]
pub struct PositionArgs {
    /// The game: kalah, dakon, djenon-aboure (djenon), walak-pussa (walak) or san-yao (sanyao);
    /// any case.
    #[arg(value_parser = parse_game)]
    game: GameKind,
    /// Holes per row (default: the game's standard board).
    #[arg(long)]
    holes: Option<u32>,
    /// Seeds per hole in the start position (default: the game's standard).
    #[arg(long)]
    seeds: Option<u32>,
    /// A position in docs/rules.md notation, e.g. 4,4,4,4,4,4/4,4,4,4,4,4/0,0/S (default: the start).
    #[arg(long, allow_hyphen_values = true)]
    position: Option<String>,
    /// Moves to apply first, in order: pit numbers 1..=holes, each optionally marked with its
    /// side (`3,6,6,1`, `"S3 S6 S6 N1"`: a printed PV pastes back); forced passes are automatic.
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    moves: Vec<String>,
    #[command(flatten)]
    rules: RuleArgs,
}

#[derive(Args, Debug)]
struct PlayArgs {
    #[command(flatten)]
    pos: PositionArgs,
    /// Print one JSON object: {"position", "to_move", "score"}.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    interactive: interactive::InteractiveArgs,
}

#[derive(Args, Debug)]
struct MovesArgs {
    #[command(flatten)]
    pos: PositionArgs,
    /// Print {"moves":[{"move":K,"position":POS},...]}.
    #[arg(long)]
    json: bool,
}

impl PositionArgs {
    /// The game with its options.
    pub fn variant(&self) -> Result<Variant> {
        self.rules.variant(self.game)
    }

    /// The position asked for: `--position`, or the start of `--holes` × `--seeds`, then
    /// `--moves` played from it.
    pub fn position<R: Rules>(&self, rules: R) -> Result<Position<R>> {
        let p = self.base_position(rules)?;
        move_list::apply(p, &self.moves)
    }

    /// `--position`, or the start of `--holes` × `--seeds`, before `--moves`.
    fn base_position<R: Rules>(&self, rules: R) -> Result<Position<R>> {
        let kind = R::KIND;
        let holes = mancala_cli::args::holes(kind, self.holes)?;
        if let Some(text) = &self.position {
            if self.seeds.is_some() {
                bail!("--seeds sets up a start position; it cannot be combined with --position");
            }
            let round: RoundSetup = if matches!(kind, GameKind::Kalah | GameKind::DjenonAboure) {
                // No statuses in these games: the plain notation, whose message names the entry,
                // and why a status mark is not one.
                let plain = text.parse::<Setup>().map_err(|e| {
                    let marks = text.parse::<RoundSetup>().is_ok();
                    let hint = if marks {
                        format!(
                            "; {} has no burnt pits or sons ('x' and 's' marks belong to the rounds of Dakon, Walak-pussa and San-Yao matches)",
                            kind.title()
                        )
                    } else {
                        String::new()
                    };
                    anyhow::anyhow!("invalid --position '{text}': {e}{hint}")
                })?;
                RoundSetup::open(plain)
            } else {
                text.parse()
                    .with_context(|| format!("invalid --position '{text}'"))?
            };
            let setup = &round.setup;
            if let Some(h) = self.holes {
                if setup.south.len() == setup.north.len() && setup.south.len() != h as usize {
                    bail!(
                        "invalid --position '{text}': it has {} pits per row but --holes is {h}",
                        setup.south.len()
                    );
                }
            }
            return Position::from_round_setup(rules, &round)
                .with_context(|| format!("invalid --position '{text}'"));
        }
        let seeds = mancala_cli::args::seeds(kind, holes, self.seeds)?;
        Ok(Position::start(rules, holes, seeds)?)
    }
}

/// Runs the command line; `Ok` carries the process exit code.
pub fn run(cli: Cli) -> Result<std::process::ExitCode> {
    match cli.command {
        // A relay sowing can run billions of laps (docs/rules.md §2.9): these show that they are
        // still at it on a terminal, and stop on a signal.
        Command::Show(a) => {
            let v = a.variant()?;
            sowing(|| mancala::with_rules!(v, r => play::show(&a, r)))
        }
        Command::Play(a) if a.interactive.interactive => {
            let v = a.pos.variant()?;
            mancala::with_rules!(v, r => interactive::play(&a.pos, &a.interactive, r))
        }
        Command::Play(a) => {
            let v = a.pos.variant()?;
            sowing(|| mancala::with_rules!(v, r => play::play(&a.pos, r, a.json)))
        }
        Command::Moves(a) => {
            let v = a.pos.variant()?;
            sowing(|| mancala::with_rules!(v, r => play::moves(&a.pos, r, a.json)))
        }
        Command::Solve(a) => {
            let v = a.pos.variant()?;
            match &a.batch {
                Some(src) => {
                    mancala::with_rules!(v, r => batch::run(&a.pos, &a.search, r, src, "solve"))
                }
                None => mancala::with_rules!(v, r => solve::solve(&a.pos, &a.search, r, a.json)),
            }
        }
        Command::Analyze(a) => {
            let v = a.pos.variant()?;
            match &a.batch {
                Some(src) => {
                    mancala::with_rules!(v, r => batch::run(&a.pos, &a.search, r, src, "analyze"))
                }
                None => mancala::with_rules!(v, r => solve::analyze(&a.pos, &a.search, r, a.json)),
            }
        }
        Command::Match(a) => {
            let v = a.pos.variant()?;
            mancala::with_rules!(v, r => match_cmd::run(&a, r))
        }
        Command::Tables(a) => tables::run(a),
        Command::Verify(a) => verify::run(a),
        Command::Completions { shell } => generate::completions(shell),
        Command::Man => generate::man(),
        Command::JsonSchema => {
            let text = serde_json::to_string_pretty(&json::schema())?;
            let mut out = std::io::stdout().lock();
            std::io::Write::write_all(&mut out, text.as_bytes())?;
            std::io::Write::write_all(&mut out, b"\n")?;
            Ok(std::process::ExitCode::SUCCESS)
        }
    }
}

/// Runs `work`, a sowing that can run billions of laps (docs/rules.md §2.9) without looking at a
/// stop flag: after a second a spinner on a terminal shows that it is still at it, and a signal
/// ends the process with a message.
fn sowing<T>(work: impl FnOnce() -> T) -> T {
    Watcher::new("sowing", OnSignal::Exit)
        .spinner(
            true,
            Spinner::new(Duration::from_secs(1), |_| {
                "sowing… (Ctrl-C stops it)".to_string()
            }),
        )
        .run(work)
}
