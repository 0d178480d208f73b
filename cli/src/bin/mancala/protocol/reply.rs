//! How the engine answers: one reply a line, flushed at once, in one of two dialects. The
//! native one (after `protocol`, and before any greeting) says values as the project does
//! everywhere, the final South-minus-North score; the UCI one (after `uci`) says them as UCI
//! drivers read them: `score cp X`, X a hundred times the final score from the side to move's
//! point of view, and `bestmove M` alone (docs/protocol.md).

use mancala::board::Side;
use std::io::Write;

/// Which protocol the other end speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Dialect {
    /// The engine's own (`protocol`): `bestmove M value V`, `error MESSAGE`.
    Native,
    /// UCI (`uci`): `bestmove M`, values on `info` lines, errors as `info string error ...`.
    Uci,
}

impl Dialect {
    /// An error line: `error MESSAGE`, or `info string error MESSAGE` in UCI, where a driver
    /// reads unknown lines as noise and `info string` as a message for its user.
    pub(super) fn error(self, message: &str) -> String {
        let message = message.replace(['\n', '\r'], " ");
        match self {
            Dialect::Native => format!("error {message}"),
            Dialect::Uci => format!("info string error {message}"),
        }
    }

    /// The word for "no move" (the game is over, or a `go` failed).
    pub(super) fn no_move(self) -> &'static str {
        match self {
            Dialect::Native => "none",
            // Stockfish's word, which python-chess and the GUIs read as "no move".
            Dialect::Uci => "(none)",
        }
    }
}

/// Prints one reply (one or more lines) and flushes: the other end waits for it. A closed
/// stdout ends the process quietly, as the end of the conversation.
pub(super) fn say(text: &str) {
    let mut out = std::io::stdout().lock();
    if writeln!(out, "{text}").and_then(|_| out.flush()).is_err() {
        std::process::exit(0);
    }
}

/// An error as one line of text.
pub(super) fn one_line(e: &anyhow::Error) -> String {
    format!("{e:#}").replace(['\n', '\r'], " ")
}

/// UCI's score of a final score `value` (South minus North) for `mover`: centiseeds from the
/// mover's side, so that a GUI showing "pawns" shows seeds.
pub(super) fn centiseeds(value: i32, mover: Side) -> i32 {
    100 * mover.sign() * value
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_from_the_movers_side_in_centiseeds() {
        assert_eq!(centiseeds(8, Side::South), 800);
        assert_eq!(centiseeds(8, Side::North), -800);
        assert_eq!(centiseeds(-3, Side::North), 300);
    }

    #[test]
    fn errors_fit_each_dialect() {
        assert_eq!(Dialect::Native.error("a\nb"), "error a b");
        assert_eq!(Dialect::Uci.error("bad"), "info string error bad");
    }
}
