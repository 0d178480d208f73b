//! What is being played: one game ([`Game`]) or a multi-round match ([`MatchPlay`]), behind the
//! small [`Session`] trait the loop drives. A session is a value: undo and redo keep copies, so
//! neither needs an inverse of a move (a Dakon relay or a round's refill has none to speak of).
//! Every sowing takes a [`Stop`]: a move of a relay game can relay for billions of laps
//! (docs/rules.md §2.9), and Ctrl-C must bring the player back to the prompt, not wait for it.

use anyhow::Result;
use mancala::board::{Move, Side};
use mancala::matches::{abandoned, Match, MatchError, Round};
use mancala::rules::Rules;
use mancala::stop::Stop;
use mancala::{PlayError, Position};

use super::super::move_list::StillRelaying;
use super::super::{move_list, report};

/// A game or a match in play.
pub(super) trait Session: Clone {
    /// The game's rules.
    type R: Rules;

    /// The position in play (the current round's); the final one once play is over.
    fn position(&self) -> &Position<Self::R>;

    /// The start of the current round: the engine's solver root (statuses are fixed for a round).
    fn round_start(&self) -> &Position<Self::R>;

    /// Plays `mv`, which the caller has checked is legal; returns the position right after it
    /// (in a match: in its round, before any next round's setup) and what else to announce (a
    /// round's end and the next round's setup). Its sowings give up once `stop` is raised, with
    /// a [`StillRelaying`] error, and the session is then unchanged.
    fn play(&mut self, mv: Move, stop: Stop<'_>) -> Result<(Position<Self::R>, Vec<String>)>;

    /// Ends the current game or round where it stands, by agreement (docs/rules.md §2.10): the
    /// stores stand, the seeds on the board belong to nobody. Returns what to announce. In a
    /// match the next round's setup sows; it gives up as [`Session::play`] does.
    fn end_by_agreement(&mut self, stop: Stop<'_>) -> Result<Vec<String>>;

    /// Whether play is over for good: the game, or the whole match.
    fn finished(&self) -> bool;

    /// The lines that tell the result once [`Session::finished`].
    fn result(&self) -> Vec<String>;

    /// The `--moves` list that replays this state from the command's start position, the
    /// command that takes it, and why it does not replay the end when a game or round was ended
    /// by agreement.
    fn replay(&self) -> (String, &'static str, Option<&'static str>);

    /// "round 2: " in a match, nothing in a game: the prefix of prompts and of `show`.
    fn label(&self) -> String;

    /// Whether a value is the round's (a match) rather than the game's.
    fn is_match(&self) -> bool;

    /// Who started the current round, in a match: with the position, all that the rest of a
    /// match depends on (a drawn round's next starter, docs/rules.md §13.3).
    fn round_starter(&self) -> Option<Side>;
}

/// One game.
#[derive(Clone, Debug)]
pub(super) struct Game<R: Rules> {
    /// The position play started from (after the command's `--moves`).
    start: Position<R>,
    now: Position<R>,
    /// The command's own `--moves`, as given.
    prefix: Vec<String>,
    /// The moves played since `start`.
    moves: Vec<Move>,
    /// Ended by agreement: the moves no longer replay the end.
    agreed: bool,
}

impl<R: Rules> Game<R> {
    pub(super) fn new(start: Position<R>, prefix: Vec<String>) -> Self {
        Self {
            start,
            now: start,
            prefix,
            moves: Vec::new(),
            agreed: false,
        }
    }
}

/// A match's error: an abandoned sowing as [`StillRelaying`] naming `what`, anything else as is.
fn relaying(e: MatchError, what: &str) -> anyhow::Error {
    match e {
        MatchError::Abandoned { laps } => StillRelaying::after(what, laps).into(),
        e => e.into(),
    }
}

/// The final line of a game or a round: stores and who won.
pub(super) fn score_line(p: &Position<impl Rules>) -> String {
    let [s, n] = p.score();
    format!(
        "South {s}, North {n}: {}",
        report::verdict(s as i32 - n as i32)
    )
}

impl<R: Rules> Session for Game<R> {
    type R = R;

    fn position(&self) -> &Position<R> {
        &self.now
    }

    fn round_start(&self) -> &Position<R> {
        &self.start
    }

    fn play(&mut self, mv: Move, stop: Stop<'_>) -> Result<(Position<R>, Vec<String>)> {
        self.now = match self.now.try_play_until(mv, stop) {
            Ok(next) => next,
            Err(PlayError::Illegal(e)) => return Err(e.into()),
            Err(PlayError::Abandoned { laps }) => {
                return Err(StillRelaying::after(&format!("move {mv}"), laps).into())
            }
        };
        self.moves.push(mv);
        Ok((self.now, Vec::new()))
    }

    fn end_by_agreement(&mut self, _: Stop<'_>) -> Result<Vec<String>> {
        self.now = abandoned(&self.now)?;
        self.agreed = true;
        Ok(vec![format!(
            "the game is ended by agreement: the stores stand ({})",
            score_line(&self.now)
        )])
    }

    fn finished(&self) -> bool {
        self.now.is_over()
    }

    fn result(&self) -> Vec<String> {
        vec![format!("game over: {}", score_line(&self.now))]
    }

    fn replay(&self) -> (String, &'static str, Option<&'static str>) {
        let mut words = self.prefix.clone();
        words.extend(move_list::marked(&self.start, &self.moves));
        let agreed = self.agreed.then_some("then ended by agreement");
        (words.join(" "), "play", agreed)
    }

    fn label(&self) -> String {
        String::new()
    }

    fn is_match(&self) -> bool {
        false
    }

    fn round_starter(&self) -> Option<Side> {
        None
    }
}

/// A multi-round match (docs/rules.md §13).
#[derive(Clone, Debug)]
pub(super) struct MatchPlay<R: Rules> {
    m: Match<R>,
    /// The command's own `--moves`, as given.
    prefix: Vec<String>,
    /// The moves played since, across rounds.
    moves: Vec<Move>,
    /// Some round was ended by agreement: the moves no longer replay the match.
    agreed: bool,
}

impl<R: Rules> MatchPlay<R> {
    pub(super) fn new(m: Match<R>, prefix: Vec<String>) -> Self {
        Self {
            m,
            prefix,
            moves: Vec::new(),
            agreed: false,
        }
    }

    /// What to announce after rounds `from..` (1-based `from + 1`) ended: each one's end and
    /// the next one's setup.
    fn round_news(&self, from: usize) -> Vec<String> {
        let rounds = self.m.rounds();
        let mut news = Vec::new();
        for (i, r) in rounds.iter().enumerate().skip(from) {
            if !r.now.is_over() {
                break;
            }
            news.push(format!("round {} over: {}", i + 1, score_line(&r.now)));
            if let Some(next) = rounds.get(i + 1) {
                news.push(format!(
                    "round {}: {} starts at {}",
                    i + 2,
                    next.starter,
                    next.start
                ));
            }
        }
        news
    }
}

/// A round's record: `round 2: S starts 5,5/5s,5/0,0/S; moves 3 1; end 0,0/0,0/12,8/-; score 12-8`,
/// the fields of `match --json`'s rounds.
fn record(k: usize, r: &Round<impl Rules>) -> String {
    let moves: Vec<String> = r.moves.iter().map(|m| m.to_string()).collect();
    let [s, n] = r.now.score();
    let end = if r.now.is_over() {
        r.now.to_string()
    } else {
        "-".to_string()
    };
    format!(
        "round {k}: {} starts {}; moves {}; end {end}; score {s}-{n}",
        r.starter.letter(),
        r.start,
        if moves.is_empty() {
            "-".to_string()
        } else {
            moves.join(" ")
        },
    )
}

impl<R: Rules> Session for MatchPlay<R> {
    type R = R;

    fn position(&self) -> &Position<R> {
        self.m.position()
    }

    fn round_start(&self) -> &Position<R> {
        &self.m.rounds().last().expect("a match has a round").start
    }

    fn play(&mut self, mv: Move, stop: Stop<'_>) -> Result<(Position<R>, Vec<String>)> {
        let k = self.m.rounds().len();
        self.m
            .play_until(mv, stop)
            .map_err(|e| relaying(e, &format!("move {mv}")))?;
        self.moves.push(mv);
        Ok((self.m.rounds()[k - 1].now, self.round_news(k - 1)))
    }

    fn end_by_agreement(&mut self, stop: Stop<'_>) -> Result<Vec<String>> {
        let k = self.m.rounds().len();
        self.m
            .end_round_endless_until(stop)
            .map_err(|e| relaying(e, &format!("setting up round {}", k + 1)))?;
        self.agreed = true;
        let mut news = vec![format!(
            "round {k} is ended by agreement: the stores stand, the board's seeds leave the match"
        )];
        news.extend(self.round_news(k - 1));
        Ok(news)
    }

    fn finished(&self) -> bool {
        self.m.result().is_some()
    }

    fn result(&self) -> Vec<String> {
        let mut lines: Vec<String> = (self.m.rounds().iter().enumerate())
            .map(|(i, r)| record(i + 1, r))
            .collect();
        lines.push(match self.m.result() {
            Some(Some(w)) => format!("match over: {w} wins the match"),
            Some(None) => "match over: the match is drawn".to_string(),
            None => "the match goes on".to_string(),
        });
        lines
    }

    fn replay(&self) -> (String, &'static str, Option<&'static str>) {
        let mut words = self.prefix.clone();
        words.extend(self.moves.iter().map(|m| m.to_string()));
        let agreed = self.agreed.then_some("with a round ended by agreement");
        (words.join(","), "match", agreed)
    }

    fn label(&self) -> String {
        format!("round {}: ", self.m.rounds().len())
    }

    fn is_match(&self) -> bool {
        true
    }

    fn round_starter(&self) -> Option<Side> {
        self.m.rounds().last().map(|r| r.starter)
    }
}

/// `South` or `North` with a note of who plays it: `South (you)`, `North (engine)`.
pub(super) fn who(side: Side, engine: bool) -> String {
    format!("{side} ({})", if engine { "engine" } else { "you" })
}
