//! What a `go` may spend: `go [infinite] [movetime MS] [depth N] [nodes N] [wtime MS btime MS
//! winc MS binc MS movestogo N]`, in any order, as UCI writes it.

use anyhow::{anyhow, bail, Result};
use mancala::board::Side;
use std::time::Duration;

/// The deepest `go depth` look-ahead.
const MAX_DEPTH: u64 = 64;

/// How many moves a clock is shared over when `movestogo` is not given.
const MOVES_LEFT_GUESS: u64 = 20;

/// Kept back from a clock for the pipe and the process: a move is never played on the flag.
const CLOCK_MARGIN: Duration = Duration::from_millis(50);

/// The limits of one `go`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Limits {
    /// At most this long (`movetime`).
    pub movetime: Option<Duration>,
    /// A heuristic look-ahead of this many plies instead of the exact search (`depth`).
    pub depth: Option<u32>,
    /// Stop after about this many nodes (`nodes`).
    pub nodes: Option<u64>,
    /// The players' clocks (`wtime`, `btime`, ...).
    pub clock: Option<Clock>,
}

/// UCI's clocks: "white" is South, who moves first from a start position, "black" North.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Clock {
    /// Each side's time left, South's first.
    pub left: [Option<Duration>; 2],
    /// Each side's increment per move.
    pub increment: [Duration; 2],
    /// Moves to the next time control.
    pub moves_to_go: Option<u64>,
}

impl Limits {
    /// How long the side `mover` may think: `movetime`, or its share of its clock (its time
    /// left over the moves to go, plus its increment, never more than half of what it has).
    pub(super) fn budget(&self, mover: Side) -> Option<Duration> {
        let clock = self.clock.and_then(|c| {
            let i = usize::from(mover == Side::North);
            let left = c.left[i]?;
            // A `movestogo` past u32 (a driver's typo or a hostile line) is as good as endless:
            // the share is then the smallest; a plain cast would wrap to 0 and divide by it.
            let moves = u32::try_from(c.moves_to_go.unwrap_or(MOVES_LEFT_GUESS))
                .unwrap_or(u32::MAX)
                .max(1);
            let share = (left / moves).saturating_add(c.increment[i]);
            let most = (left / 2).saturating_sub(CLOCK_MARGIN);
            Some(share.min(most).max(Duration::from_millis(1)))
        });
        match (self.movetime, clock) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

/// Parses the words after `go`.
pub(super) fn parse(words: &[&str]) -> Result<Limits> {
    let mut limits = Limits::default();
    let mut clock = Clock::default();
    let mut clocked = false;
    let mut i = 0;
    while i < words.len() {
        let word = words[i];
        let mut number = || -> Result<u64> {
            i += 1;
            let w = words
                .get(i)
                .ok_or_else(|| anyhow!("go {word} needs a number"))?;
            w.parse()
                .map_err(|_| anyhow!("go {word} needs a whole number, not '{w}'"))
        };
        match word {
            "infinite" => {}
            "movetime" => limits.movetime = Some(Duration::from_millis(number()?)),
            "depth" => {
                let d = number()?;
                if d == 0 || d > MAX_DEPTH {
                    bail!("go depth takes 1 to {MAX_DEPTH} plies, not {d}");
                }
                limits.depth = Some(d as u32);
            }
            "nodes" => limits.nodes = Some(number()?),
            "wtime" | "btime" => {
                clock.left[usize::from(word == "btime")] = Some(Duration::from_millis(number()?));
                clocked = true;
            }
            "winc" | "binc" => {
                clock.increment[usize::from(word == "binc")] = Duration::from_millis(number()?);
                clocked = true;
            }
            "movestogo" => {
                clock.moves_to_go = Some(number()?);
                clocked = true;
            }
            _ => bail!(
                "go takes 'movetime MS', 'depth N', 'nodes N', 'infinite' or clocks \
                 ('wtime MS btime MS winc MS binc MS movestogo N'), not '{}'",
                words.join(" ")
            ),
        }
        i += 1;
    }
    if clocked {
        limits.clock = Some(clock);
    }
    Ok(limits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_limits_parse() {
        assert_eq!(parse(&[]).unwrap(), Limits::default());
        assert_eq!(parse(&["infinite"]).unwrap(), Limits::default());
        let ms = |n| Some(Duration::from_millis(n));
        assert_eq!(parse(&["movetime", "250"]).unwrap().movetime, ms(250));
        assert_eq!(parse(&["depth", "7"]).unwrap().depth, Some(7));
        assert_eq!(parse(&["nodes", "1000"]).unwrap().nodes, Some(1000));
        assert!(parse(&["depth", "0"]).is_err());
        assert!(parse(&["movetime"]).is_err());
        assert!(parse(&["movetime", "-3"]).is_err());
        assert!(parse(&["sometime"]).is_err());
    }

    #[test]
    fn clocks_give_each_side_its_share() {
        let l = parse(&[
            "wtime", "60000", "btime", "1000", "winc", "500", "binc", "0",
        ])
        .unwrap();
        // South: 60 s over 20 moves plus 0.5 s.
        assert_eq!(l.budget(Side::South), Some(Duration::from_millis(3500)));
        // North: 1 s over 20 moves.
        assert_eq!(l.budget(Side::North), Some(Duration::from_millis(50)));
        let l = parse(&["btime", "1000", "movestogo", "1", "movetime", "300"]).unwrap();
        // Never more than half of what is left, and never more than movetime.
        assert_eq!(l.budget(Side::North), Some(Duration::from_millis(300)));
        assert_eq!(l.budget(Side::South), Some(Duration::from_millis(300)));
        assert_eq!(parse(&[]).unwrap().budget(Side::South), None);
    }

    #[test]
    fn huge_clock_numbers_give_a_budget_without_panicking() {
        // movestogo 2^32 once wrapped to a division by zero; a huge increment overflowed.
        let l = parse(&["wtime", "1000", "movestogo", "4294967296"]).unwrap();
        let b = l.budget(Side::South).unwrap();
        assert!(b <= Duration::from_millis(1000), "{b:?}");
        let huge = u64::MAX.to_string();
        let l = parse(&["wtime", &huge, "winc", &huge, "movestogo", "0"]).unwrap();
        assert!(l.budget(Side::South).is_some());
    }
}
