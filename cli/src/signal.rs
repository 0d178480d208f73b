//! The process's one Ctrl-C handler: SIGINT, SIGTERM and SIGHUP raise a token, which a
//! [`Watcher`](crate::watch::Watcher) turns into a stop (or an exit) for the work it watches.

use crate::exit::{Interrupted, INTERRUPTED};
use mancala::stop::StopToken;
use std::sync::OnceLock;

/// A token raised by Ctrl-C, SIGTERM or SIGHUP (the handler is installed once per process), so
/// a long job ends with a message instead of a kill. A second signal ends the process at once
/// (with a message, [`INTERRUPTED`], and no table file half-written) when the job does not
/// stop.
pub fn token() -> StopToken {
    static TOKEN: OnceLock<StopToken> = OnceLock::new();
    TOKEN
        .get_or_init(|| {
            let token = StopToken::new();
            let t = token.clone();
            // If a handler cannot be installed, a signal simply kills the process as usual. The
            // handler runs on one thread, one signal after another, so looking before raising
            // tells a second signal from a first.
            let _ = ctrlc::set_handler(move || {
                if t.is_stopped() {
                    exit_interrupted("stopped by a second signal");
                }
                t.stop();
            });
            token
        })
        .clone()
}

/// Whether a signal has been received (and not consumed by interactive play).
pub fn interrupted() -> bool {
    token().is_stopped()
}

/// Removes the temporary files of table writes in progress, says why on stderr, and exits with
/// [`INTERRUPTED`].
pub fn exit_interrupted(what: &str) -> ! {
    tables::atomic_write::abandon_writes();
    eprintln!("error: {}", Interrupted(what.to_string()));
    std::process::exit(INTERRUPTED.into())
}
