//! The one watcher of every long job of the command line: a thread beside the work that turns
//! a signal (Ctrl-C, SIGTERM, SIGHUP) or a deadline into a stop, and shows on stderr that the
//! work is still going. `solve`/`analyze` (deadline, progress line), `verify` (deadline),
//! `show`/`play`/`moves` and `tables build|verify` (a signal ends the process) and interactive
//! play (a signal goes back to the prompt) all run their work through it.

use crate::signal;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// How often the watcher looks at the signal flag and redraws the spinner.
const POLL: Duration = Duration::from_millis(50);

/// What a signal does to the watched work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnSignal {
    /// End the process with [`crate::exit::INTERRUPTED`] (after removing half-written table
    /// files): for work that never looks at a stop token, a table layer or a long sowing.
    Exit,
    /// Raise the stop token, and abandon any sowing in progress; the signal flag stays raised,
    /// so the caller can tell a signal from the deadline ([`signal::interrupted`]).
    Stop,
    /// Raise the stop token and lower the signal flag: the signal is consumed, and the next
    /// one is a first signal again (interactive play goes back to the prompt).
    Consume,
}

/// The progress display: after `after`, a spinner on a terminal showing `line`; elsewhere (a
/// log, CI) a plain `progress: ` line every `log_every`, if given.
pub struct Spinner<'a> {
    after: Duration,
    log_every: Option<Duration>,
    line: Box<dyn Fn(f64) -> String + Send + Sync + 'a>,
}

impl<'a> Spinner<'a> {
    /// A spinner shown after `after`, its text `line(seconds since the start)`.
    pub fn new(after: Duration, line: impl Fn(f64) -> String + Send + Sync + 'a) -> Self {
        Self {
            after,
            log_every: None,
            line: Box::new(line),
        }
    }

    /// Where stderr is no terminal, writes the line every `every` instead.
    pub fn log_every(mut self, every: Duration) -> Self {
        self.log_every = Some(every);
        self
    }
}

/// A watcher for one job: what the job is, what a signal does, the stop token it raises, the
/// deadline and the spinner.
pub struct Watcher<'a> {
    what: String,
    on_signal: OnSignal,
    stop: Option<Arc<AtomicBool>>,
    deadline: Option<Duration>,
    spinner: Option<Spinner<'a>>,
}

impl<'a> Watcher<'a> {
    /// A watcher of `what` (words for the messages: "sowing", "verifying the tables").
    pub fn new(what: impl Into<String>, on_signal: OnSignal) -> Self {
        // Installs the handler now, so a signal from here on raises the flag instead of killing.
        let _ = signal::flag();
        Self {
            what: what.into(),
            on_signal,
            stop: None,
            deadline: None,
            spinner: None,
        }
    }

    /// The stop token that a signal ([`OnSignal::Stop`], [`OnSignal::Consume`]) or the deadline
    /// raises.
    pub fn stop(mut self, stop: Arc<AtomicBool>) -> Self {
        self.stop = Some(stop);
        self
    }

    /// Raises the stop token after `limit` (none: no deadline).
    pub fn deadline(mut self, limit: Option<Duration>) -> Self {
        self.deadline = limit;
        self
    }

    /// Shows `spinner` while the work runs (when `show`).
    pub fn spinner(mut self, show: bool, spinner: Spinner<'a>) -> Self {
        if show {
            self.spinner = Some(spinner);
        }
        self
    }

    /// Runs `work` under the watch; `None` when it had to be abandoned inside a sowing of a
    /// cyclic game, which can run for hours without looking at the stop token
    /// ([`mancala::rules::give_up_sowings`], raised by an [`OnSignal::Stop`] watcher). What
    /// `work` had recorded before stays valid.
    pub fn run<T>(self, work: impl FnOnce() -> T) -> Option<T> {
        if self.on_signal != OnSignal::Stop {
            return Some(self.finish(work));
        }
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.watched(work)));
        mancala::rules::give_up_sowings(false);
        match r {
            Ok(r) => Some(r),
            Err(e) if e.is::<mancala::rules::SowingAbandoned>() => None,
            Err(e) => std::panic::resume_unwind(e),
        }
    }

    /// Runs `work` under the watch of an [`OnSignal::Exit`] or [`OnSignal::Consume`] watcher,
    /// which abandon no sowing: the work always ends (or the process does).
    pub fn finish<T>(self, work: impl FnOnce() -> T) -> T {
        debug_assert!(
            self.on_signal != OnSignal::Stop,
            "a Stop watcher runs with `run`"
        );
        self.watched(work)
    }

    /// `work` on this thread, the watch on another, until `work` returns or unwinds.
    fn watched<T>(self, work: impl FnOnce() -> T) -> T {
        let (tx, rx) = mpsc::channel::<()>();
        std::thread::scope(|s| {
            s.spawn(move || self.watch(&rx));
            let r = work();
            drop(tx);
            r
        })
    }

    /// The watching thread: returns when `done` is closed (the work ended).
    fn watch(self, done: &mpsc::Receiver<()>) {
        let started = Instant::now();
        let flag = signal::flag();
        let terminal = std::io::stderr().is_terminal();
        let mut bar: Option<indicatif::ProgressBar> = None;
        let mut next_log = self
            .spinner
            .as_ref()
            .and_then(|s| s.log_every.map(|e| s.after.max(e)));
        let mut stopped = false;
        loop {
            let signalled = match self.on_signal {
                OnSignal::Consume => flag.swap(false, Ordering::Relaxed),
                OnSignal::Exit | OnSignal::Stop => flag.load(Ordering::Relaxed),
            };
            let left = self.deadline.map(|l| l.saturating_sub(started.elapsed()));
            if !stopped && (signalled || left == Some(Duration::ZERO)) {
                // Off the screen at once: the work takes a moment to wind down.
                if let Some(b) = bar.take() {
                    b.finish_and_clear();
                }
                if signalled && self.on_signal == OnSignal::Exit {
                    signal::exit_interrupted(&format!(
                        "{} was stopped before it finished",
                        self.what
                    ));
                }
                if let Some(stop) = &self.stop {
                    stop.store(true, Ordering::Relaxed);
                }
                if self.on_signal == OnSignal::Stop {
                    mancala::rules::give_up_sowings(true);
                }
                stopped = true;
            }
            if let Some(sp) = self.spinner.as_ref().filter(|_| !stopped) {
                let t = started.elapsed();
                if t >= sp.after {
                    if terminal {
                        let b = bar.get_or_insert_with(|| {
                            let b = indicatif::ProgressBar::new_spinner();
                            b.enable_steady_tick(Duration::from_millis(120));
                            b
                        });
                        b.set_message((sp.line)(t.as_secs_f64()));
                    } else if let (Some(at), Some(every)) = (next_log, sp.log_every) {
                        if t >= at {
                            eprintln!("progress: {}", (sp.line)(t.as_secs_f64()));
                            next_log = Some(at + every);
                        }
                    }
                }
            }
            let wait = left.filter(|_| !stopped).map_or(POLL, |l| l.min(POLL));
            match done.recv_timeout(wait) {
                Err(mpsc::RecvTimeoutError::Timeout) => continue,
                _ => break,
            }
        }
        if let Some(b) = bar {
            b.finish_and_clear();
        }
    }
}
