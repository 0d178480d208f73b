//! The one watcher of every long job of the command line: a thread beside the work that turns
//! a signal (Ctrl-C, SIGTERM, SIGHUP) or a deadline into a stop, and shows on stderr that the
//! work is still going. `solve`/`analyze` (deadline, progress line), `verify` (deadline),
//! `show`/`play`/`moves` and `tables build|verify` (a signal ends the process) and interactive
//! play (a signal goes back to the prompt) all run their work through it.

use crate::signal;
use mancala::stop::StopToken;
use std::io::IsTerminal;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How often the watcher looks at the signal token and redraws the spinner.
const POLL: Duration = Duration::from_millis(50);

/// What a signal does to the watched work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnSignal {
    /// End the process with [`crate::exit::INTERRUPTED`] (after removing half-written table
    /// files): for work that never looks at a stop token, a table layer or a long sowing.
    Exit,
    /// Raise the stop token; the signal token stays raised, so the caller can tell a signal from
    /// the deadline ([`signal::interrupted`]).
    Stop,
    /// Raise the stop token and lower the signal token: the signal is consumed, and the next
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
    stop: Option<StopToken>,
    deadline: Option<Duration>,
    spinner: Option<Spinner<'a>>,
}

impl<'a> Watcher<'a> {
    /// A watcher of `what` (words for the messages: "sowing", "verifying the tables").
    pub fn new(what: impl Into<String>, on_signal: OnSignal) -> Self {
        // Installs the handler now, so a signal from here on raises the token instead of
        // killing.
        let _ = signal::token();
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
    pub fn stop(mut self, stop: StopToken) -> Self {
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

    /// Runs `work` under the watch, until it returns. With a stop token, `work` must look at
    /// it (a search's stop token reaches the sowings inside the search too, [`mancala::stop`]),
    /// so it returns soon after a stop, with what it had finished.
    /// (`work` runs on this thread, the watch on another.)
    pub fn run<T>(self, work: impl FnOnce() -> T) -> T {
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
        let signals = signal::token();
        let terminal = std::io::stderr().is_terminal();
        let mut bar: Option<indicatif::ProgressBar> = None;
        let mut next_log = self
            .spinner
            .as_ref()
            .and_then(|s| s.log_every.map(|e| s.after.max(e)));
        let mut stopped = false;
        loop {
            let signalled = match self.on_signal {
                OnSignal::Consume => signals.take(),
                OnSignal::Exit | OnSignal::Stop => signals.is_stopped(),
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
                    stop.stop();
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Mutex, MutexGuard};

    /// One watcher test at a time: they share the process-wide signal token, which one of them
    /// raises.
    fn one_at_a_time() -> MutexGuard<'static, ()> {
        static LOCK: Mutex<()> = Mutex::new(());
        LOCK.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits for `stop` (at most ten seconds); the time it took.
    fn wait_for(stop: &StopToken) -> Duration {
        let started = Instant::now();
        while !stop.is_stopped() && started.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(1));
        }
        started.elapsed()
    }

    #[test]
    fn the_deadline_raises_the_stop_token_and_run_returns_the_works_result() {
        let _one = one_at_a_time();
        let stop = StopToken::new();
        let waited = Watcher::new("waiting", OnSignal::Stop)
            .stop(stop.clone())
            .deadline(Some(Duration::from_millis(50)))
            .run(|| wait_for(&stop));
        assert!(stop.is_stopped());
        assert!(waited >= Duration::from_millis(50), "{waited:?}");
        assert!(waited < Duration::from_secs(10), "the deadline never came");
    }

    #[test]
    fn no_deadline_no_signal_no_stop() {
        let _one = one_at_a_time();
        let stop = StopToken::new();
        let r = Watcher::new("adding", OnSignal::Stop)
            .stop(stop.clone())
            .run(|| 2 + 2);
        assert_eq!(r, 4);
        assert!(!stop.is_stopped());
    }

    #[test]
    fn a_consumed_signal_stops_the_work_and_lowers_the_signal_token() {
        let _one = one_at_a_time();
        let signalled = signal::token();
        let stop = StopToken::new();
        signalled.stop();
        Watcher::new("waiting", OnSignal::Consume)
            .stop(stop.clone())
            .run(|| wait_for(&stop));
        assert!(stop.is_stopped(), "the signal did not stop the work");
        assert!(!signalled.is_stopped(), "the signal was not consumed");
        // A Stop watcher leaves it raised, so that the caller can tell a signal from a deadline.
        let stop = StopToken::new();
        signalled.stop();
        Watcher::new("waiting", OnSignal::Stop)
            .stop(stop.clone())
            .run(|| wait_for(&stop));
        assert!(stop.is_stopped());
        assert!(signal::interrupted());
        signalled.reset();
    }
}
