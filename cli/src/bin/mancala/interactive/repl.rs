//! The loop of interactive play, one for games and matches: the engine moves while it is its
//! turn, then a command is read and carried out, until `quit`, end of input or Ctrl-C twice.
//!
//! Undo goes back to the human's previous turn, taking back the engine's replies with the human's
//! move (as chess programs do); with no engine, one move. Redo puts back what the last undo
//! took. A move made after an undo drops what could be redone.

use super::input::{Input, Read};
use super::session::{score_line, who, Session};
use super::think::Engine;
use super::Sides;
use crate::{draw, move_list, report};
use anyhow::Result;
use mancala::board::Side;
use mancala::rules::Rules;
use mancala::stop::{Stop, StopToken};
use mancala::Position;
use mancala_cli::watch::{OnSignal, Watcher};
use std::io::Write;
use std::process::ExitCode;

/// The commands, as `help` prints them.
const HELP: &str = "\
commands:
  3, S3, N3   play a move (a pit number, optionally marked with the side to move)
  hint        the value of every legal move, best first
  value       the value of the position under perfect play
  moves       the legal moves and the position after each
  show        draw the board
  history     the moves played so far, as a --moves list
  undo        take back your last move and the engine's replies
  redo        put back what undo took
  go          the engine moves now for the side to move
  end         end a game or round whose position repeats, by agreement (stores stand)
  help        this list
  quit        leave (so does end of input, or Ctrl-C twice at the prompt)
values are final South-minus-North scores (in a match: of the round, stores included);
Ctrl-C while the engine thinks abandons its move and brings back the prompt";

/// Whether the line of play has been where it is now.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Repeat {
    No,
    /// The position occurred before in this round.
    InRound,
    /// This round starts as an earlier one did, with the same starter.
    Rounds,
}

/// The play state: the session now, the line that led to it, what undo took.
struct State<S: Session> {
    now: S,
    /// The sessions before each move of the line, oldest first.
    past: Vec<S>,
    /// What each undo took, the latest last: the sessions after the one it went back to.
    redo: Vec<Vec<S>>,
    sides: Sides,
    /// The engine waits for `go` (its search was abandoned, or the position repeats).
    paused: bool,
    /// The session changed since the board was last drawn or the result told.
    fresh: bool,
    /// The command line that sets up the same game, for the replay hint of `history`.
    head: String,
}

impl<S: Session> State<S> {
    /// Whether a human is to move in `s`.
    fn human_turn(&self, s: &S) -> bool {
        s.position()
            .to_move()
            .is_some_and(|side| !self.sides.plays(side))
    }

    /// Whether the line has been here before: within this round (play can circle for ever), or
    /// at the start of an earlier round with the same starter (the match can).
    fn repeats(&self) -> Repeat {
        let now = &self.now;
        let (p, label) = (now.position(), now.label());
        let same = |s: &&S| s.position() == p && s.round_start() == now.round_start();
        let mut earlier = self.past.iter().filter(same);
        if earlier.clone().any(|s| s.label() == label) {
            Repeat::InRound
        } else if p == now.round_start()
            && earlier.any(|s| s.round_starter() == now.round_starter())
        {
            Repeat::Rounds
        } else {
            Repeat::No
        }
    }

    /// Makes `next` the session now, after a move or an end by agreement.
    fn advance(&mut self, next: S) {
        self.past.push(std::mem::replace(&mut self.now, next));
        self.redo.clear();
        self.fresh = true;
    }
}

/// Runs the loop over `session`; the engine plays `sides`.
pub(super) fn run<S: Session>(
    session: S,
    sides: Sides,
    engine: &mut Engine<S::R>,
    input: &mut Input,
    head: String,
) -> Result<ExitCode> {
    let mut out = std::io::stdout();
    let p = session.position();
    let kind = <S::R as Rules>::KIND;
    writeln!(
        out,
        "{} on {} holes{}: {}. Type a move (a pit number) or help.",
        kind.title(),
        p.board().holes,
        if session.is_match() { ", a match" } else { "" },
        sides.describe(),
    )?;
    let mut st = State {
        now: session,
        past: Vec::new(),
        redo: Vec::new(),
        sides,
        paused: false,
        fresh: true,
        head,
    };
    let mut interrupts = 0;
    loop {
        engine_moves(&mut st, engine, &mut out)?;
        if std::mem::take(&mut st.fresh) {
            if st.now.finished() {
                for line in st.now.result() {
                    writeln!(out, "{line}")?;
                }
            } else if st.human_turn(&st.now) || st.paused {
                show(&st.now, &mut out)?;
                if st.repeats() == Repeat::InRound {
                    writeln!(out, "this position occurred before in this round: play can repeat for ever (docs/rules.md §2.10); `end` ends it by agreement")?;
                }
            }
        }
        let prompt = match st.now.position().to_move() {
            _ if st.now.finished() => format!("{}over> ", st.now.label()),
            Some(side) => format!("{}{}> ", st.now.label(), who(side, sides.plays(side))),
            None => "> ".to_string(),
        };
        out.flush()?;
        let line = match input.read(&prompt)? {
            Read::Eof => {
                let what = if st.now.is_match() { "match" } else { "game" };
                if st.now.finished() {
                    eprintln!("end of input: the {what} is over");
                } else {
                    eprintln!(
                        "end of input: leaving the {what} unfinished at {}",
                        st.now.position()
                    );
                }
                return Ok(ExitCode::SUCCESS);
            }
            Read::Interrupted => {
                interrupts += 1;
                if interrupts >= 2 {
                    eprintln!("interrupted: leaving");
                    return Ok(ExitCode::from(mancala_cli::exit::INTERRUPTED));
                }
                eprintln!("(Ctrl-C again, or quit, leaves)");
                continue;
            }
            Read::Line(l) => l,
        };
        interrupts = 0;
        if mancala_cli::signal::token().take() {
            // A signal while waiting for a line (from a pipe: Ctrl-C, a `kill`): leave.
            eprintln!("interrupted: leaving");
            return Ok(ExitCode::from(mancala_cli::exit::INTERRUPTED));
        }
        if !command(&mut st, engine, &line, &mut out)? {
            return Ok(ExitCode::SUCCESS);
        }
    }
}

/// The engine's moves while it is its turn, until a human's turn, the end, or a pause.
fn engine_moves<S: Session>(
    st: &mut State<S>,
    engine: &mut Engine<S::R>,
    out: &mut impl Write,
) -> Result<()> {
    while !st.now.finished() && !st.paused {
        let Some(side) = st.now.position().to_move() else {
            return Ok(());
        };
        if !st.sides.plays(side) {
            return Ok(());
        }
        match st.repeats() {
            Repeat::No => {}
            Repeat::InRound => {
                writeln!(out, "the position repeats: first-best play could circle for ever (docs/rules.md §2.10); the engine waits: `end` ends the round by agreement, `go` or a move plays on")?;
                st.paused = true;
                st.fresh = true;
                return Ok(());
            }
            Repeat::Rounds => {
                writeln!(out, "this round starts as an earlier one did, with the same starter: with first-best play the match never ends (docs/rules.md §13.5); the engine waits: `go` or a move plays on")?;
                st.paused = true;
                st.fresh = true;
                return Ok(());
            }
        }
        if !engine_move(st, engine, out)? {
            return Ok(());
        }
    }
    Ok(())
}

/// One engine move for the side to move; false when Ctrl-C abandoned it (the engine then waits).
fn engine_move<S: Session>(
    st: &mut State<S>,
    engine: &mut Engine<S::R>,
    out: &mut impl Write,
) -> Result<bool> {
    let p = *st.now.position();
    let Some(side) = p.to_move() else {
        return Ok(true);
    };
    let root = *st.now.round_start();
    match engine.best_move(&root, &p, &side.to_string())? {
        None => {
            writeln!(out, "the engine's move was abandoned (Ctrl-C): `go` asks again, a move plays one for {side}, undo takes back yours")?;
            st.paused = true;
            st.fresh = true;
            Ok(false)
        }
        Some((mv, value)) => {
            let mut next = st.now.clone();
            let (after, news) = match sowing(|stop| next.play(mv, stop)) {
                Ok(played) => played,
                Err(e) => {
                    // A proven move ends, but its relay may outlast the player's patience.
                    eprintln!("{e:#}");
                    writeln!(out, "the engine's move {mv} was abandoned (Ctrl-C): `go` asks again, a move plays one for {side}, undo takes back yours")?;
                    st.paused = true;
                    st.fresh = true;
                    return Ok(false);
                }
            };
            st.advance(next);
            writeln!(
                out,
                "{side} plays {mv} (engine, value {}): {after}",
                report::labelled(value)
            )?;
            moves_again(side, &after, out)?;
            for line in news {
                writeln!(out, "{line}")?;
            }
            Ok(true)
        }
    }
}

/// Carries out one command line; false to leave.
fn command<S: Session>(
    st: &mut State<S>,
    engine: &mut Engine<S::R>,
    line: &str,
    out: &mut impl Write,
) -> Result<bool> {
    let text = line.trim();
    let word = text.to_ascii_lowercase();
    let p = *st.now.position();
    let root = *st.now.round_start();
    match word.as_str() {
        "" => {}
        "quit" | "exit" | "q" => return Ok(false),
        "help" | "?" => writeln!(out, "{HELP}")?,
        "show" => show(&st.now, out)?,
        "history" => {
            let (moves, _, agreed) = st.now.replay();
            match agreed {
                _ if moves.is_empty() => writeln!(out, "history: no moves yet")?,
                Some(why) => writeln!(out, "history: {moves} ({why})")?,
                None => {
                    writeln!(out, "history: {moves}")?;
                    writeln!(out, "(replay: {} --moves \"{moves}\")", st.head)?;
                }
            }
        }
        "moves" => match sowing(|stop| legal_moves(&p, stop)) {
            Ok(text) => write!(out, "{text}")?,
            Err(e) => eprintln!("{e:#}"),
        },
        "value" => match engine.value(&root, &p)? {
            None => writeln!(out, "the value was abandoned (Ctrl-C)")?,
            Some(v) => writeln!(
                out,
                "value: {v:+} ({} under perfect play; final South minus North{})",
                report::verdict(v),
                if st.now.is_match() {
                    ", this round, stores included"
                } else {
                    ""
                }
            )?,
        },
        "hint" => hint(st, engine, out)?,
        "undo" => undo(st, out)?,
        "redo" => match st.redo.pop() {
            None => eprintln!("nothing to redo"),
            Some(mut taken) => {
                // `taken` is the line after the position undo went back to, oldest first.
                let last = taken.pop().expect("an undo takes at least one move");
                st.past.push(std::mem::replace(&mut st.now, last));
                st.past.extend(taken);
                st.paused = false;
                st.fresh = true;
                writeln!(out, "redone: {}", st.now.position())?;
            }
        },
        "go" => {
            if st.now.finished() {
                eprintln!("the game is over: nothing to play (undo, show, history or quit)");
            } else {
                st.paused = false;
                engine_move(st, engine, out)?;
            }
        }
        "end" => {
            if st.now.finished() {
                eprintln!("the game is over already");
            } else if st.repeats() != Repeat::InRound {
                eprintln!("end: only a position that occurred before in this round can be ended by agreement (docs/rules.md §2.10)");
            } else {
                let mut next = st.now.clone();
                match sowing(|stop| next.end_by_agreement(stop)) {
                    Err(e) => eprintln!("{e:#}"),
                    Ok(news) => {
                        st.advance(next);
                        st.paused = false;
                        for line in news {
                            writeln!(out, "{line}")?;
                        }
                    }
                }
            }
        }
        _ => match move_list::parse_one(text) {
            None => eprintln!("unknown command '{text}': type help for the commands"),
            Some(typed) => match sowing(|stop| {
                // Checked with the command line's words, then played: both sow, both stop.
                move_list::play_typed(&p, typed, &format!("move {text}"), stop)?;
                let mut next = st.now.clone();
                let mv = mancala::board::Move(typed.pit as u8);
                next.play(mv, stop).map(|played| (mv, next, played))
            }) {
                Err(e) => eprintln!("{e:#}"),
                Ok((mv, next, (after, news))) => {
                    let side = p.to_move().expect("a legal move has a mover");
                    st.advance(next);
                    st.paused = false;
                    writeln!(out, "{side} plays {mv}: {after}")?;
                    moves_again(side, &after, out)?;
                    for line in news {
                        writeln!(out, "{line}")?;
                    }
                }
            },
        },
    }
    Ok(true)
}

/// The board, under a heading naming the round in a match.
fn show<S: Session>(s: &S, out: &mut impl Write) -> Result<()> {
    let label = s.label();
    if !label.is_empty() {
        writeln!(out, "{}", label.trim_end_matches([':', ' ']))?;
    }
    write!(out, "{}", draw(s.position()))?;
    Ok(())
}

/// `undo`: back to the latest earlier position where a human was to move.
fn undo<S: Session>(st: &mut State<S>, out: &mut impl Write) -> Result<()> {
    let target = if st.sides.plays(Side::South) && st.sides.plays(Side::North) {
        // The engine plays both sides: one move back (it waits there, as after Ctrl-C).
        st.past.len().checked_sub(1)
    } else {
        st.past.iter().rposition(|s| st.human_turn(s))
    };
    let Some(i) = target else {
        eprintln!("nothing to undo");
        return Ok(());
    };
    let mut taken = st.past.split_off(i);
    let back = taken.remove(0);
    taken.push(std::mem::replace(&mut st.now, back));
    let n = taken.len();
    st.redo.push(taken);
    st.paused = st.sides.plays(Side::South) && st.sides.plays(Side::North);
    st.fresh = true;
    writeln!(
        out,
        "undone: {n} move{} taken back: {}",
        if n == 1 { "" } else { "s" },
        st.now.position()
    )?;
    Ok(())
}

/// `hint`: every legal move's value, best first (ties in move order).
fn hint<S: Session>(
    st: &mut State<S>,
    engine: &mut Engine<S::R>,
    out: &mut impl Write,
) -> Result<()> {
    let p = *st.now.position();
    let Some(side) = p.to_move() else {
        writeln!(out, "the game is over: no moves ({})", score_line(&p))?;
        return Ok(());
    };
    let root = *st.now.round_start();
    let Some(mut values) = engine.analyze(&root, &p)? else {
        writeln!(out, "the hint was abandoned (Ctrl-C)")?;
        return Ok(());
    };
    // Best first for the side to move: South wants the largest final score, North the smallest.
    values.sort_by_key(|&(m, v)| (-side.sign() * v, m.0));
    let best = values.first().map(|b| b.1);
    writeln!(
        out,
        "{side} to move; value of each move (final South minus North), best first:"
    )?;
    for &(m, v) in &values {
        let mark = if Some(v) == best { "  best" } else { "" };
        writeln!(out, "  {:>2}  {v:+4}  {}{mark}", m.0, report::verdict(v))?;
    }
    Ok(())
}

/// Runs `sow` under a stop of its own that Ctrl-C raises (and consumes, as it does a thought):
/// a move that relays for billions of laps (docs/rules.md §2.9) gives up, and the player is
/// back at the prompt instead of waiting for it.
fn sowing<T>(sow: impl FnOnce(Stop<'_>) -> T) -> T {
    let stop = StopToken::new();
    Watcher::new("sowing", OnSignal::Consume)
        .stop(stop.clone())
        .run(|| sow(stop.as_stop()))
}

/// `moves`: the legal moves and the position after each, as text; a relay still sowing when
/// `stop` is raised is a [`move_list::StillRelaying`] error.
fn legal_moves<R: Rules>(p: &mancala::Position<R>, stop: Stop<'_>) -> Result<String> {
    use std::fmt::Write;
    let mut out = String::new();
    let Some(side) = p.to_move() else {
        writeln!(out, "the game is over: no moves")?;
        return Ok(out);
    };
    let mut list = Vec::new();
    p.for_each_child_until(stop, |m, q| list.push((m, q)))
        .map_err(|_| move_list::StillRelaying::new(&format!("listing the moves of {p}")))?;
    writeln!(
        out,
        "{side} to move, {} legal move{}:",
        list.len(),
        if list.len() == 1 { "" } else { "s" }
    )?;
    for (m, q) in &list {
        let note = match q.to_move() {
            None => "  (game over)",
            Some(s) if s == side => "  (moves again)",
            Some(_) => "",
        };
        writeln!(out, "  {m:>2}  {q}{note}")?;
    }
    Ok(out)
}

/// Announces an extra turn: `side` moved and is to move again in `after`.
fn moves_again<R: Rules>(side: Side, after: &Position<R>, out: &mut impl Write) -> Result<()> {
    if after.to_move() == Some(side) {
        writeln!(out, "{side} moves again")?;
    }
    Ok(())
}
