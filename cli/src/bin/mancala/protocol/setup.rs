//! `position ...`: which position the next `go` searches. Three forms: the engine's own
//! (`position GAME [flags] [moves ...]`, the flags of every `mancala` command) and UCI's two
//! (`position startpos [moves ...]`, `position fen POS [moves ...]`, for the game of the
//! `UCI_Variant`, `Holes` and `Seeds` options).
//!
//! The moves are played here, once, each under a stop: a relay sowing can run without end
//! (docs/rules.md §2.9), and the command loop raises the stop when the next line, the end of
//! input or a signal comes while a move is still sowing. The position reached is kept as its
//! text, so a `go` never sows these moves again.

use super::options::Options;
use super::PositionLine;
use crate::move_list;
use crate::PositionArgs;
use anyhow::{anyhow, bail, Result};
use clap::Parser;
use mancala::board::Move;
use mancala::rules::Rules;
use mancala::stop::Stop;
use mancala::{IllegalMove, PlayError, Position};

/// A `position` line read, its moves not played yet.
#[derive(Clone, Debug)]
pub(super) struct Request {
    /// The position before the moves.
    base: PositionArgs,
    /// The moves, as typed (`2`, `S4`).
    moves: Vec<String>,
}

/// Why a `position` was not set.
#[derive(Debug)]
pub(super) enum Refused {
    /// The line or a move is wrong: the message says what.
    Invalid(anyhow::Error),
    /// A move was still sowing when the stop came (the move's label, `move #1 (2)`).
    Abandoned(String),
}

/// Reads the words after `position`.
pub(super) fn parse(words: &[&str], options: &Options) -> Result<Request> {
    let (head, moves) = match words.iter().position(|w| *w == "moves") {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (words, &[][..]),
    };
    let line: Vec<String> = match head {
        [] => bail!("position takes 'startpos', 'fen POS' or a game with its flags"),
        ["startpos"] => uci_words(options, None),
        ["startpos", ..] => bail!("position startpos takes only 'moves' after it"),
        ["fen", text] => uci_words(options, Some(text)),
        ["fen", ..] => {
            bail!("position fen takes one position, such as 4,4,4,4,4,4/4,4,4,4,4,4/0,0/S")
        }
        _ => head.iter().map(|w| (*w).to_string()).collect(),
    };
    let mut parsed = PositionLine::try_parse_from(&line).map_err(|e| {
        let text = e.to_string();
        let first = text.lines().next().unwrap_or("invalid position arguments");
        anyhow!("{}", first.trim_start_matches("error: "))
    })?;
    let mut all = std::mem::take(&mut parsed.pos.moves);
    all.extend(moves.iter().map(|m| (*m).to_string()));
    Ok(Request {
        base: parsed.pos,
        moves: all,
    })
}

/// The command line of `startpos` (`text` none) or `fen TEXT` for the options' game.
fn uci_words(options: &Options, text: Option<&str>) -> Vec<String> {
    let mut words = vec![options.variant.kind().name().to_string()];
    words.extend(
        options
            .variant
            .option_names()
            .iter()
            .map(|o| format!("--{o}")),
    );
    if let Some(h) = options.holes {
        words.extend(["--holes".to_string(), h.to_string()]);
    }
    match text {
        Some(t) => words.extend(["--position".to_string(), t.to_string()]),
        None => {
            if let Some(s) = options.seeds {
                words.extend(["--seeds".to_string(), s.to_string()]);
            }
        }
    }
    words
}

impl Request {
    /// Plays the moves, each under `stop`, and returns the position reached, kept as
    /// arguments that name it directly (no moves left to play).
    pub(super) fn play(&self, stop: Stop<'_>) -> Result<PositionArgs, Refused> {
        let v = self.base.variant().map_err(Refused::Invalid)?;
        let text = mancala::with_rules!(v, r => self.play_in(r, stop))?;
        let mut reached = self.base.clone();
        reached.position = Some(text);
        reached.holes = None;
        reached.seeds = None;
        reached.load = None;
        reached.moves = Vec::new();
        Ok(reached)
    }

    fn play_in<R: Rules>(&self, rules: R, stop: Stop<'_>) -> Result<String, Refused> {
        let mut p = self.base.position(rules).map_err(Refused::Invalid)?;
        for (i, text) in move_list::split(&self.moves).into_iter().enumerate() {
            let label = format!("move #{} ({text})", i + 1);
            let Some(m) = move_list::parse_one(text) else {
                return Err(Refused::Invalid(anyhow!(
                    "{label} is not a move: write a pit number such as 3, or S3 / N3 with the side"
                )));
            };
            p = play_one(&p, m, &label, stop)?;
        }
        Ok(p.to_string())
    }
}

/// One typed move played on `p` under `stop`; as [`move_list::play_typed`], which cannot be
/// stopped.
fn play_one<R: Rules>(
    p: &Position<R>,
    m: move_list::Typed,
    label: &str,
    stop: Stop<'_>,
) -> Result<Position<R>, Refused> {
    let invalid = |e: anyhow::Error| Refused::Invalid(e);
    let Some(mover) = p.to_move() else {
        return Err(invalid(anyhow!(
            "{label} is illegal: the game is already over in {p}"
        )));
    };
    if let Some(side) = m.side {
        if side != mover {
            return Err(invalid(anyhow!(
                "{label} is marked for {side}, but {mover} is to move in {p}"
            )));
        }
    }
    let mv = Move(u8::try_from(m.pit).unwrap_or(u8::MAX));
    match p.try_play_until(mv, stop) {
        Ok(q) => Ok(q),
        Err(PlayError::Abandoned { .. }) => Err(Refused::Abandoned(label.to_string())),
        Err(PlayError::Illegal(IllegalMove::OutOfRange { holes, .. })) => Err(invalid(anyhow!(
            "{label} is illegal: out of range (the pits are numbered 1 to {holes})"
        ))),
        Err(PlayError::Illegal(e)) => Err(invalid(anyhow!(
            "{label} is illegal for {mover} in {p}: {e}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(words: &[&str]) -> Result<String, String> {
        let options = Options::new(1, None, None).unwrap();
        let r = parse(words, &options).map_err(|e| e.to_string())?;
        match r.play(Stop::never()) {
            Ok(p) => Ok(p.position.unwrap()),
            Err(Refused::Invalid(e)) => Err(e.to_string()),
            Err(Refused::Abandoned(l)) => Err(format!("abandoned {l}")),
        }
    }

    #[test]
    fn position_lines_parse_like_the_command_line() {
        // Kalah(6,4), move 3: the last seed in the store (the library's own example).
        assert_eq!(
            play(&["startpos", "moves", "3"]).unwrap(),
            "4,4,0,5,5,5/4,4,4,4,4,4/1,0/S"
        );
        assert_eq!(
            play(&["kalah", "--holes", "6", "--seeds", "4", "--moves", "3"]).unwrap(),
            "4,4,0,5,5,5/4,4,4,4,4,4/1,0/S"
        );
        assert_eq!(
            play(&["fen", "4,4,0,5,5,5/4,4,4,4,4,4/1,0/S", "moves", "S1"]).unwrap(),
            play(&["startpos", "moves", "3", "1"]).unwrap()
        );
        assert!(play(&["kalah", "--holes", "99"]).is_err());
        assert!(play(&["chess"]).is_err());
        assert!(play(&["kalah", "moves", "7"])
            .unwrap_err()
            .starts_with("move #1"));
        assert!(play(&["startpos", "moves", "N3"])
            .unwrap_err()
            .contains("marked for N"));
        assert!(play(&["startpos", "now"]).is_err());
        assert!(play(&[]).is_err());
    }

    #[test]
    fn a_raised_stop_abandons_an_endless_relay() {
        // Walak-pussa's RELAY (issue 56): move 2 relays without end.
        let options = Options::new(1, None, None).unwrap();
        let words = [
            "walak-pussa",
            "--position",
            "35,29,33,29/35,35,30,29/0,0/N",
            "moves",
            "2",
        ];
        let r = parse(&words, &options).unwrap();
        assert!(matches!(r.play(Stop::raised()), Err(Refused::Abandoned(l)) if l == "move #1 (2)"));
    }
}
