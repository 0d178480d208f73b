//! Move lists as users type them: `--moves 3,6,6,1`, `--moves "S3 S6 N1"`, the interactive
//! prompt's `3` or `N3`. A move is a pit number `1..=holes`, optionally marked with the side that
//! makes it (`S3`, `N3`, either case), so a principal variation printed by `solve` (`S3 S6 N1`)
//! pastes straight back. A mark is checked, not obeyed: a move marked for the side not to move
//! is an error naming both.

use anyhow::{bail, Result};
use mancala::board::{Move, Side};
use mancala::rules::Rules;
use mancala::rules::LOOK_EVERY;
use mancala::stop::Stop;
use mancala::{PlayError, Position};

/// One typed move: the pit number and the side it is marked for, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Typed {
    /// The side written before the number (`S3`), if any.
    pub side: Option<Side>,
    /// The pit number as written (range-checked when played).
    pub pit: u32,
}

/// Parses one move, `3`, `S3` or `n3`; `None` when it is not one.
pub fn parse_one(text: &str) -> Option<Typed> {
    let t = text.trim();
    let (side, digits) = match t.as_bytes().first() {
        Some(b'S' | b's') => (Some(Side::South), &t[1..]),
        Some(b'N' | b'n') => (Some(Side::North), &t[1..]),
        _ => (None, t),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let pit = digits.parse().unwrap_or(u32::MAX);
    Some(Typed { side, pit })
}

/// The entries of `--moves` (already split at commas by clap), each also split at whitespace,
/// empty pieces dropped.
pub fn split(entries: &[String]) -> Vec<&str> {
    entries
        .iter()
        .flat_map(|e| e.split(|c: char| c == ',' || c.is_whitespace()))
        .filter(|w| !w.is_empty())
        .collect()
}

/// Plays one typed move on `p`; the error names the move as `label` ("move #3 (S6)") and says
/// why it is refused.
pub fn play_typed<R: Rules>(
    p: &Position<R>,
    m: Typed,
    label: &str,
    stop: Stop<'_>,
) -> Result<Position<R>> {
    let Some(mover) = p.to_move() else {
        bail!("{label} is illegal: the game is already over in {p}");
    };
    if let Some(side) = m.side {
        if side != mover {
            bail!("{label} is marked for {side}, but {mover} is to move in {p}");
        }
    }
    let mv = Move(u8::try_from(m.pit).unwrap_or(u8::MAX));
    match p.try_play_until(mv, stop) {
        Ok(q) => Ok(q),
        Err(PlayError::Abandoned { laps }) => {
            Err(anyhow::Error::new(StillRelaying::after(label, laps)))
        }
        Err(PlayError::Illegal(mancala::IllegalMove::OutOfRange { holes, .. })) => {
            bail!("{label} is illegal: out of range (the pits are numbered 1 to {holes})")
        }
        Err(PlayError::Illegal(e)) => bail!("{label} is illegal for {mover} in {p}: {e}"),
    }
}

/// A sowing that was still relaying (docs/rules.md §2.9: one can run billions of laps) when its
/// stop was raised by a time limit, a signal or a closed connection: not played, and not known
/// to end. The commands with a time limit exit with 124 for it (130 after a signal); the server
/// answers it as `{"error"}`.
#[derive(Debug)]
pub struct StillRelaying {
    /// What was being sown ("move #1 (2)", "the start position").
    pub what: String,
    /// The laps its relay had run when it gave up ([`mancala::rules::SowError::Abandoned`]).
    pub laps: u64,
}

impl StillRelaying {
    /// `what`, whose relay gave up after `laps` laps.
    pub fn after(what: &str, laps: u64) -> Self {
        Self {
            what: what.to_string(),
            laps,
        }
    }

    /// `what`, where only the abandonment is known (normalising a position, listing moves):
    /// more than [`LOOK_EVERY`] laps, the least any abandoned relay has run.
    pub fn new(what: &str) -> Self {
        Self::after(what, LOOK_EVERY)
    }
}

impl std::fmt::Display for StillRelaying {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} relays for more than {} laps: the sowing was still relaying when it was stopped (a relay can run billions of laps, docs/rules.md 2.9); not played",
            self.what, self.laps
        )
    }
}

impl std::error::Error for StillRelaying {}

/// A line of play: where it started, the moves played, and where it got to.
pub struct Line<R: Rules> {
    /// The position before the first move.
    pub start: Position<R>,
    /// The moves, in order, each legal where it was played.
    pub moves: Vec<Move>,
    /// The position after the last move.
    pub end: Position<R>,
}

/// Plays a whole move list from `start`, in order, keeping the line of play.
pub fn apply_line<R: Rules>(
    start: Position<R>,
    entries: &[String],
    stop: Stop<'_>,
) -> Result<Line<R>> {
    let mut p = start;
    let mut moves = Vec::new();
    for (i, text) in split(entries).into_iter().enumerate() {
        let place = i + 1;
        let Some(m) = parse_one(text) else {
            bail!("move #{place} ('{text}') is not a move: write a pit number such as 3, or S3 / N3 with the side");
        };
        p = play_typed(&p, m, &format!("move #{place} ({text})"), stop)?;
        moves.push(Move(m.pit as u8));
    }
    Ok(Line {
        start,
        moves,
        end: p,
    })
}

/// A move sequence from `root` with the side making each move, `S3 S6 N1`: the form `solve`
/// prints and `--moves` reads back.
pub fn marked<R: Rules>(root: &Position<R>, moves: &[Move]) -> Vec<String> {
    let mut p = *root;
    let mut words = Vec::with_capacity(moves.len());
    for &m in moves {
        let side = p.to_move().unwrap_or(Side::South);
        words.push(format!("{}{}", side.letter(), m.0));
        p = p.play_unchecked(m);
    }
    words
}

/// The moves of [`marked`] as JSON: `[{"side":"S","move":3},...]`, the PV's one shape.
pub fn marked_json<R: Rules>(root: &Position<R>, moves: &[Move]) -> Vec<super::json::SideMove> {
    let mut p = *root;
    let mut out = Vec::with_capacity(moves.len());
    for &m in moves {
        let side = p.to_move().unwrap_or(Side::South);
        out.push(super::json::SideMove {
            side: side.into(),
            pit: m.0,
        });
        p = p.play_unchecked(m);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_plain_and_marked_moves() {
        let s = |pit| Some(Typed { side: None, pit });
        assert_eq!(parse_one("3"), s(3));
        assert_eq!(parse_one(" 12 "), s(12));
        assert_eq!(
            parse_one("S3"),
            Some(Typed {
                side: Some(Side::South),
                pit: 3
            })
        );
        assert_eq!(
            parse_one("n4"),
            Some(Typed {
                side: Some(Side::North),
                pit: 4
            })
        );
        for bad in ["", "S", "x3", "3a", "-1", "S-1", "N 3"] {
            assert_eq!(parse_one(bad), None, "{bad}");
        }
        let e = vec!["S3 S6".to_string(), "N1".to_string(), " ".to_string()];
        assert_eq!(split(&e), ["S3", "S6", "N1"]);
    }
}
