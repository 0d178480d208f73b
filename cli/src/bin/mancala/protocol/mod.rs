//! `mancala engine`: the engine protocol on stdin/stdout (docs/protocol.md), for tournament
//! harnesses, GUIs and UCI drivers: one command a line in, one reply a line out, the search in a
//! thread of its own so that `stop` and `isready` are answered while it runs.
//!
//! The engine speaks two dialects of one protocol ([`reply::Dialect`]): its own, where values
//! are final scores, and UCI's shape (after `uci`), where python-chess-style drivers and
//! tournament managers find `uciok`, `setoption`, `position startpos`, `info ... score cp ...`
//! and a bare `bestmove`. The loop itself survives what a pipe can send: input is read on a
//! thread ([`input`]: lines too long or not UTF-8 are refused one by one), a `position` whose
//! moves sow without end is abandoned when the next line comes ([`setup`]), each `go` has its
//! own stop, and a signal stops the running search or, when none runs, ends the engine as
//! `quit` does.

mod input;
mod limits;
mod options;
mod reply;
mod search;
mod setup;

use super::PositionArgs;
use anyhow::Result;
use clap::{Args, Parser};
use input::Input;
use mancala::stop::StopToken;
use options::Options;
use reply::{one_line, say, Dialect};
use std::collections::VecDeque;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// The protocol's version, raised when a reply changes meaning.
const PROTOCOL: u32 = 2;

/// How often an idle engine looks at the signal flag.
const IDLE_POLL: Duration = Duration::from_millis(50);

#[derive(Args, Debug)]
pub(super) struct EngineArgs {
    /// Search threads (default: all cores; UCI's `setoption name Threads`).
    #[arg(long)]
    threads: Option<usize>,
    /// Transposition table size in MiB, fixed (default: starts at 8 MiB and grows with the search, up to 4 GiB or half the free memory; UCI's `Hash`).
    #[arg(long, value_name = "MB")]
    hash_mb: Option<u64>,
    /// Probe the endgame tables in DIR (default directory when no DIR is given; UCI's `Tables`).
    #[arg(long, value_name = "DIR", num_args = 0..=1)]
    tables: Option<Option<std::path::PathBuf>>,
}

/// The arguments of a `position` line: the same as every command's position arguments.
#[derive(Parser, Debug)]
#[command(name = "position", no_binary_name = true, disable_help_flag = true)]
struct PositionLine {
    #[command(flatten)]
    pos: PositionArgs,
}

/// A search in progress.
struct Running {
    stop: StopToken,
    /// Raised by the search just before it prints its bestmove: from then on the other end may
    /// send the next command, and the search counts as over.
    answered: Arc<AtomicBool>,
    handle: JoinHandle<()>,
}

/// The engine between commands.
struct Engine {
    dialect: Dialect,
    options: Options,
    /// The calibrated player, shared with the `go`s: its draws go on from one move to the next.
    player: Arc<Mutex<mancala::calibrated::Calibrated>>,
    /// The position of the next `go`, its moves played.
    position: Option<PositionArgs>,
    running: Option<Running>,
    /// Lines read while a `position` was still sowing, to be carried out next.
    pending: VecDeque<Input>,
    /// The analyzer the `go`s share, one after another ([`search::Kept`]).
    kept: Arc<Mutex<search::Kept>>,
}

pub(super) fn run(args: &EngineArgs) -> Result<ExitCode> {
    let threads = super::setup::threads(args.threads)?;
    let tables = args
        .tables
        .as_ref()
        .map(|d| d.clone().unwrap_or_else(mancala::endgame::default_dir));
    let options = Options::new(threads, args.hash_mb, tables)?;
    // The handler from the start: a signal raises the flag instead of killing the engine.
    let signal = mancala_cli::signal::token();
    let inputs = input::spawn(|| std::io::stdin().lock());
    let mut engine = Engine {
        dialect: Dialect::Native,
        player: Arc::new(Mutex::new(options.player())),
        options,
        position: None,
        running: None,
        pending: VecDeque::new(),
        kept: Arc::default(),
    };
    loop {
        let next = match engine.pending.pop_front() {
            Some(i) => i,
            None => match inputs.recv_timeout(IDLE_POLL) {
                Ok(i) => i,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    engine.forget_answered();
                    // A signal while no search runs (a running one consumes it): as `quit`.
                    if engine.running.is_none() && signal.take() {
                        break;
                    }
                    continue;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => Input::End,
            },
        };
        engine.forget_answered();
        let line = match next {
            Input::Line(l) => l,
            Input::NotUtf8(n) => {
                say(&engine
                    .dialect
                    .error(&format!("line {n} is not UTF-8: ignored")));
                continue;
            }
            Input::TooLong(n) => {
                say(&engine.dialect.error(&format!(
                    "line {n} is longer than {} bytes: ignored",
                    input::MAX_LINE
                )));
                continue;
            }
            Input::End => break,
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, rest)) = words.split_first() else {
            continue;
        };
        if !engine.command(command, rest, &inputs, &signal) {
            break;
        }
    }
    // The end of input, `quit` or a signal: stop a search that still runs, after its bestmove.
    engine.finish();
    Ok(ExitCode::SUCCESS)
}

impl Engine {
    /// Carries out one command; `false` for `quit`.
    fn command(
        &mut self,
        command: &str,
        rest: &[&str],
        inputs: &mpsc::Receiver<Input>,
        signal: &StopToken,
    ) -> bool {
        let busy = "a search is running: send stop first";
        match command {
            "protocol" => {
                self.dialect = Dialect::Native;
                say(&format!(
                    "id name mancala {}\nid protocol {PROTOCOL}\nprotocolok",
                    env!("CARGO_PKG_VERSION")
                ));
            }
            "uci" => {
                self.dialect = Dialect::Uci;
                let mut lines = vec![
                    format!("id name mancala {}", env!("CARGO_PKG_VERSION")),
                    "id author the mancala authors".to_string(),
                ];
                lines.extend(self.options.declarations());
                lines.push("uciok".to_string());
                say(&lines.join("\n"));
            }
            "isready" => say("readyok"),
            "debug" => {}
            "ucinewgame" if self.running.is_some() => self.refuse(busy),
            "ucinewgame" => {
                self.position = None;
                *self.lock_player() = self.options.player();
            }
            "setoption" if self.running.is_some() => self.refuse(busy),
            "setoption" => match self.options.set(rest) {
                Ok(true) => *self.lock_player() = self.options.player(),
                Ok(false) => {}
                Err(e) => self.refuse(&one_line(&e)),
            },
            "position" if self.running.is_some() => self.refuse(busy),
            "position" => self.set_position(rest, inputs, signal),
            "go" if self.running.is_some() => self.refuse(busy),
            "go" => self.go(rest),
            "stop" => self.finish(),
            "quit" => return false,
            other => self.refuse(&format!("unknown command '{other}'")),
        }
        true
    }

    fn refuse(&self, message: &str) {
        say(&self.dialect.error(message));
    }

    fn lock_player(&self) -> std::sync::MutexGuard<'_, mancala::calibrated::Calibrated> {
        self.player.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `position ...`: its moves played on a thread under a stop, while this loop keeps reading:
    /// the next line, the end of input or a signal raises the stop of a move still sowing (a
    /// move stops within about a million laps of it; an ordinary move is over long before).
    fn set_position(&mut self, words: &[&str], inputs: &mpsc::Receiver<Input>, signal: &StopToken) {
        let request = match setup::parse(words, &self.options) {
            Ok(r) => r,
            Err(e) => return self.refuse(&one_line(&e)),
        };
        let stop = StopToken::new();
        let mut cause = None;
        let played = std::thread::scope(|s| {
            let worker = s.spawn(|| request.play(stop.as_stop()));
            while !worker.is_finished() {
                if signal.take() {
                    cause.get_or_insert("a signal");
                    stop.stop();
                }
                match inputs.recv_timeout(Duration::from_millis(5)) {
                    Ok(i) => {
                        cause.get_or_insert(if i == Input::End {
                            "the end of input"
                        } else {
                            "the next command"
                        });
                        stop.stop();
                        self.pending.push_back(i);
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                    Err(mpsc::RecvTimeoutError::Disconnected) => {
                        stop.stop();
                    }
                }
            }
            worker.join().expect("playing a position does not panic")
        });
        match played {
            Ok(p) => self.position = Some(p),
            Err(setup::Refused::Invalid(e)) => self.refuse(&one_line(&e)),
            Err(setup::Refused::Abandoned(label)) => self.refuse(&format!(
                "{label} was still sowing (a relay past a million laps) when {} came: not played; the previous position stays",
                cause.unwrap_or("a stop")
            )),
        }
    }

    /// `go ...`: a search on its own thread with its own stop.
    fn go(&mut self, words: &[&str]) {
        let limits = match limits::parse(words) {
            Ok(l) => l,
            Err(e) => return self.refuse(&one_line(&e)),
        };
        let Some(pos) = self.position.clone() else {
            let no_position = "no position: send position first";
            return match self.dialect {
                Dialect::Native => self.refuse(no_position),
                // A UCI driver waits for a bestmove after every go.
                Dialect::Uci => say(&format!(
                    "{}\nbestmove {}",
                    self.dialect.error(no_position),
                    self.dialect.no_move()
                )),
            };
        };
        let stop = StopToken::new();
        let answered = Arc::new(AtomicBool::new(false));
        let job = search::Job {
            pos,
            limits,
            options: self.options.clone(),
            dialect: self.dialect,
            player: self.player.clone(),
            stop: stop.clone(),
            answered: answered.clone(),
            kept: self.kept.clone(),
        };
        let handle = std::thread::spawn(move || job.run());
        self.running = Some(Running {
            stop,
            answered,
            handle,
        });
    }

    /// A search that has given its bestmove is over (its thread ends at once): forget it.
    fn forget_answered(&mut self) {
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.answered.load(Ordering::SeqCst))
        {
            self.finish();
        }
    }

    /// Stops the running search, if any, and waits until it has printed its bestmove.
    fn finish(&mut self) {
        if let Some(r) = self.running.take() {
            // The search's stop flag also reaches a sowing in progress.
            r.stop.stop();
            let _ = r.handle.join();
        }
    }
}
