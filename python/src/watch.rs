//! Running engine work off the GIL while the calling thread stays responsive: the work runs on
//! its own thread; the caller waits for it in short slices with the GIL released, and between
//! slices raises the work's own stop token at the deadline or when Python has a pending signal
//! (Ctrl-C), so that two searches in one process stop independently.

use mancala::stop::StopToken;
use pyo3::prelude::*;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long the caller waits between looks at the clock and at Python's signals: well under the
/// second within which Ctrl-C must stop a search, and rare enough to cost nothing.
pub(crate) const SLICE: Duration = Duration::from_millis(50);

/// How a watched piece of work ended.
pub struct Watched<T> {
    /// What the work returned.
    pub value: T,
    /// Whether the deadline raised the stop token.
    pub timed_out: bool,
}

/// Runs `work` on a new thread with the GIL released; raises `stop` once `limit` has passed
/// since the start or when a Python signal handler raises (KeyboardInterrupt on Ctrl-C). The
/// work is always waited for (it ends soon after `stop`); then a signal's exception is returned,
/// and a panic in the work becomes Python's `PanicException`, never a crash.
pub fn watch<T: Send>(
    py: Python<'_>,
    limit: Option<Duration>,
    stop: &StopToken,
    work: impl FnOnce() -> T + Send,
) -> PyResult<Watched<T>> {
    let started = Instant::now();
    let (tx, rx) = mpsc::channel::<()>();
    // A receiver is not `Sync`; the closure run without the GIL must be `Send`.
    let rx = std::sync::Mutex::new(rx);
    let mut timed_out = false;
    let mut signal: Option<PyErr> = None;
    let joined = std::thread::scope(|s| {
        // A panic in `work` drops `tx` while unwinding, so the wait below ends either way.
        let handle = s.spawn(move || {
            let r = work();
            drop(tx);
            r
        });
        loop {
            let left = limit.map(|l| l.saturating_sub(started.elapsed()));
            let wait = left.map_or(SLICE, |l| l.min(SLICE));
            match py.allow_threads(|| rx.lock().expect("channel").recv_timeout(wait)) {
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                _ => break,
            }
            if !timed_out && limit.is_some_and(|l| started.elapsed() >= l) {
                timed_out = true;
                stop.stop();
            }
            if signal.is_none() {
                if let Err(e) = py.check_signals() {
                    stop.stop();
                    signal = Some(e);
                }
            }
        }
        py.allow_threads(|| handle.join())
    });
    if let Some(e) = signal {
        return Err(e);
    }
    let value = match joined {
        Ok(v) => v,
        Err(panic) => {
            let msg = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "the engine panicked".to_string());
            return Err(pyo3::panic::PanicException::new_err(msg));
        }
    };
    Ok(Watched { value, timed_out })
}
