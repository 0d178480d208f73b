//! The process's one Ctrl-C handler: SIGINT, SIGTERM and SIGHUP raise a flag, which a
//! [`Watcher`](crate::watch::Watcher) turns into a stop (or an exit) for the work it watches.

use crate::exit::{Interrupted, INTERRUPTED};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

/// A flag raised by Ctrl-C, SIGTERM or SIGHUP (the handler is installed once per process), so a
/// long job ends with a message instead of a kill. A second signal ends the process at once
/// (with a message, [`INTERRUPTED`], and no table file half-written) when the job does not
/// stop.
pub fn flag() -> Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let f = flag.clone();
        // If a handler cannot be installed, a signal simply kills the process as usual.
        let _ = ctrlc::set_handler(move || {
            if f.swap(true, Ordering::Relaxed) {
                exit_interrupted("stopped by a second signal");
            }
        });
        flag
    })
    .clone()
}

/// Whether a signal has been received (and not consumed by interactive play).
pub fn interrupted() -> bool {
    flag().load(Ordering::Relaxed)
}

/// Removes the temporary files of table writes in progress, says why on stderr, and exits with
/// [`INTERRUPTED`].
pub fn exit_interrupted(what: &str) -> ! {
    tables::atomic_write::abandon_writes();
    eprintln!("error: {}", Interrupted(what.to_string()));
    std::process::exit(INTERRUPTED.into())
}
