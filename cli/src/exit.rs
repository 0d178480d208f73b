//! The exit statuses of both binaries, in one table (README "Exit status"), and the error that
//! carries a signal's stop up to `main`.

/// A command that failed: bad input, a missing file, a claim that did not check out.
pub const FAILURE: u8 = 1;

/// A command line clap refused (clap's own status for usage errors).
pub const USAGE: u8 = 2;

/// A search stopped by `--time-limit`, as `timeout(1)` exits.
pub const TIME_OUT: u8 = 124;

/// A command stopped by SIGINT, SIGTERM or SIGHUP: 130, the shell's 128 + 2 for SIGINT,
/// whichever of them it was.
pub const INTERRUPTED: u8 = 130;

/// The error of a command stopped by a signal; `main` exits with [`INTERRUPTED`] for it.
#[derive(Debug)]
pub struct Interrupted(pub String);

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "interrupted: {}", self.0)
    }
}

impl std::error::Error for Interrupted {}

/// The exit status of a command that ended with `e`: [`INTERRUPTED`] for a signal, else
/// [`FAILURE`].
pub fn status_of(e: &anyhow::Error) -> u8 {
    if e.downcast_ref::<Interrupted>().is_some() {
        INTERRUPTED
    } else {
        FAILURE
    }
}
