//! The `mancala` binary: parse the command line, run it, report errors on stderr. The clap
//! arguments, their validation and the subcommands (one module each) live here; what both
//! binaries share is the `mancala_cli` library (`cli/src/lib.rs`).
//!
//! Results go to stdout, diagnostics to stderr. Every error is a message and a non-zero exit,
//! never a panic: see [`run`].

mod batch;
mod book;
mod dataset;
mod draw;
mod fallback;
mod generate;
mod interactive;
mod match_cmd;
mod move_list;
mod perft;
mod play;
mod protocol;
mod record;
mod review;
mod serve;
mod setup;
mod solve;
mod tables;
mod verify;
mod wording;

use anyhow::{bail, Context, Result};
use clap::{Args, Parser, Subcommand};
use mancala::notation::{RoundSetup, Setup};
use mancala::rules::{GameKind, Rules};
use mancala::stop::Stop;
use mancala::variant::Variant;
use mancala::Position;
use std::process::ExitCode;

use draw::draw;
pub(crate) use mancala_cli::args::{parse_game, RuleArgs};
use mancala_cli::watch::{OnSignal, Spinner, Watcher};
pub(crate) use mancala_cli::{json, report};
use std::time::Duration;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
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
            ExitCode::from(mancala_cli::exit::status_of(&e))
        }
    }
}

/// `--version`: the crate version, and the git commit when built from a checkout (`build.rs`).
const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), env!("MANCALA_VERSION_SUFFIX"));

/// Play, solve and analyse two-row mancala games exactly.
#[derive(Parser, Debug)]
#[command(name = "mancala", version = VERSION, long_about = None)]
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
    /// Grade a game against perfect play: each move's value, the best value and moves, the seeds lost.
    Review(review::ReviewArgs),
    /// Write solved positions (the exact value of every move) as JSON Lines, for training networks.
    Dataset(dataset::DatasetArgs),
    /// Count move sequences per depth and per first move, to check a move generator (chess's perft).
    Perft(perft::PerftArgs),
    /// Speak the engine protocol on stdin/stdout (docs/protocol.md), for tournament harnesses and GUIs.
    Engine(protocol::EngineArgs),
    /// Play a multi-round match (Dakon, Walak-pussa, San-Yao; docs/rules.md §13) from a move list.
    Match(match_cmd::MatchArgs),
    /// Serve a web page to play and analyse every game, and its JSON API (docs/web.md).
    Serve(serve::ServeArgs),
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
    /// Print a man page (roff): `mancala man > mancala.1`, `mancala man solve`; `--dir DIR` writes every page.
    Man(generate::ManArgs),
    /// The opening book built into the program: build or verify it.
    #[command(hide = true)]
    Book(book::BookArgs),
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
    /// Start from a game record written by `play --record` (its start and its moves, then
    /// `--moves`); the game and rule options must be the record's.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["position", "seeds", "holes"])]
    load: Option<std::path::PathBuf>,
    #[command(flatten)]
    rules: RuleArgs,
    /// Whose words the errors use: the flags, or a web request's fields.
    #[arg(skip)]
    wording: wording::Wording,
}

#[derive(Args, Debug)]
struct PlayArgs {
    #[command(flatten)]
    pos: PositionArgs,
    /// Print one JSON object: {"position", "to_move", "score"}.
    #[arg(long)]
    json: bool,
    /// Write the game (its start, every move, the rules) to FILE as a game record, which
    /// `--load FILE` reads back on every command.
    #[arg(long, value_name = "FILE", conflicts_with = "interactive")]
    record: Option<std::path::PathBuf>,
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
        self.position_until(rules, Stop::never())
    }

    /// [`PositionArgs::position`] that gives up once `stop` is raised inside a long sowing (a
    /// relay of docs/rules.md §2.9, in `--moves`, a `--load`ed record, or the normalising of
    /// `--position`), with a [`move_list::StillRelaying`] error: for the commands with a time
    /// limit and the server, whose stop is raised by the limit, a signal or a closed connection.
    pub fn position_until<R: Rules>(&self, rules: R, stop: Stop<'_>) -> Result<Position<R>> {
        Ok(self.game_line_until(rules, stop)?.end)
    }

    /// The game as played: where it started (`--position`, the start of the board, or a
    /// `--load`ed record's start), every move since (the record's, then `--moves`), each
    /// checked legal, and where it got to.
    pub fn game_line<R: Rules>(&self, rules: R) -> Result<move_list::Line<R>> {
        self.game_line_until(rules, Stop::never())
    }

    /// [`PositionArgs::game_line`] that gives up once `stop` is raised inside a long sowing.
    pub fn game_line_until<R: Rules>(
        &self,
        rules: R,
        stop: Stop<'_>,
    ) -> Result<move_list::Line<R>> {
        let Some(file) = &self.load else {
            return move_list::apply_line(self.base_position(rules, stop)?, &self.moves, stop);
        };
        let rec = record::Record::read(file)?;
        let (theirs, ours) = (rec.variant()?, self.variant()?);
        if theirs != ours {
            bail!(
                "--load {}: the game was played as {}, not {}",
                file.display(),
                theirs.describe(),
                ours.describe()
            );
        }
        let start = self
            .parse_position(rules, &rec.start, stop)
            .with_context(|| format!("--load {}", file.display()))?;
        let all: Vec<String> = rec
            .moves
            .into_iter()
            .chain(self.moves.iter().cloned())
            .collect();
        move_list::apply_line(start, &all, stop)
    }

    /// The command line that sets up the same game as these arguments, without `--moves`
    /// (`mancala play kalah --holes 4 --seeds 3`): for replay hints.
    pub fn command_line(&self, command: &str) -> String {
        let mut words = vec![
            "mancala".to_string(),
            command.to_string(),
            self.game.name().to_string(),
        ];
        words.extend(self.holes.map(|h| format!("--holes {h}")));
        words.extend(self.seeds.map(|s| format!("--seeds {s}")));
        words.extend(self.position.as_ref().map(|p| format!("--position {p}")));
        if let Some(f) = &self.load {
            let f = f.display().to_string();
            if f.contains(char::is_whitespace) {
                words.push(format!("--load '{f}'"));
            } else {
                words.push(format!("--load {f}"));
            }
        }
        words.extend(self.rules.on.iter().map(|o| format!("--{o}")));
        words.join(" ")
    }

    /// `--position`, or the start of `--holes` × `--seeds`, before `--moves`.
    fn base_position<R: Rules>(&self, rules: R, stop: Stop<'_>) -> Result<Position<R>> {
        let kind = R::KIND;
        let holes = mancala_cli::args::holes(kind, self.holes)?;
        if let Some(text) = &self.position {
            if self.seeds.is_some() {
                let w = self.wording;
                bail!(
                    "{} sets up a start position; it cannot be combined with {}",
                    w.name("seeds"),
                    w.name("position")
                );
            }
            return self.parse_position(rules, text, stop);
        }
        let seeds = mancala_cli::args::seeds(kind, holes, self.seeds)?;
        // The start normalised under the stop: it sows the mover's candidates (the no-move rule).
        let row = vec![u32::from(seeds); usize::from(holes)];
        let start = RoundSetup {
            setup: Setup {
                south: row.clone(),
                north: row,
                stores: [0, 0],
                to_move: Some(mancala::board::Side::South),
            },
            status: vec![mancala::notation::PitStatus::Open; 2 * usize::from(holes)],
        };
        Position::from_round_setup_until(rules, &start, stop).map_err(|e| match e {
            mancala::PositionError::Abandoned(_) => {
                anyhow::Error::new(move_list::StillRelaying::new("the start position"))
            }
            e => e.into(),
        })
    }

    /// A position in docs/rules.md notation (`--position`, or a record's start), checked
    /// against `--holes` when given.
    fn parse_position<R: Rules>(
        &self,
        rules: R,
        text: &str,
        stop: Stop<'_>,
    ) -> Result<Position<R>> {
        let kind = R::KIND;
        {
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
                    anyhow::anyhow!("invalid {} '{text}': {e}{hint}", self.wording.name("position"))
                })?;
                RoundSetup::open(plain)
            } else {
                text.parse().with_context(|| {
                    format!("invalid {} '{text}'", self.wording.name("position"))
                })?
            };
            let setup = &round.setup;
            if let Some(h) = self.holes {
                if setup.south.len() == setup.north.len() && setup.south.len() != h as usize {
                    bail!(
                        "invalid {} '{text}': it has {} pits per row but {} is {h}",
                        self.wording.name("position"),
                        setup.south.len(),
                        self.wording.name("holes")
                    );
                }
            }
            match Position::from_round_setup_until(rules, &round, stop) {
                Err(mancala::PositionError::Abandoned(_)) => Err(anyhow::Error::new(
                    move_list::StillRelaying::new(&format!("normalising '{text}'")),
                )),
                r => {
                    r.with_context(|| format!("invalid {} '{text}'", self.wording.name("position")))
                }
            }
        }
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
            sowing(
                || mancala::with_rules!(v, r => play::play(&a.pos, r, a.json, a.record.as_deref())),
            )
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
        Command::Review(a) => {
            let v = a.variant()?;
            mancala::with_rules!(v, r => review::run(&a, r))
        }
        Command::Dataset(a) => {
            let v = a.variant()?;
            mancala::with_rules!(v, r => dataset::run(&a, r))
        }
        Command::Perft(a) => {
            let v = a.pos.variant()?;
            mancala::with_rules!(v, r => perft::run(&a, r))
        }
        Command::Engine(a) => protocol::run(&a),
        Command::Match(a) => {
            let v = a.pos.variant()?;
            mancala::with_rules!(v, r => match_cmd::run(&a, r))
        }
        Command::Serve(a) => serve::run(&a),
        Command::Tables(a) => tables::run(a),
        Command::Book(a) => book::run(a),
        Command::Verify(a) => verify::run(a),
        Command::Completions { shell } => generate::completions(shell),
        Command::Man(a) => generate::man(&a),
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
