//! The move a stopped search plays when it proved none best, found within a bounded time.
//!
//! The search was stopped (its time limit, Ctrl-C, a page's Stop or a closed connection), so
//! its own stop flag is raised and cannot serve what comes after it. Yet picking a move sows
//! moves, and in a relay game one sowing can run billions of laps (docs/rules.md §2.9): the
//! position `35,29,33,29/35,35,30,29/0,0/N` of Walak-pussa, whose move 2 relays for longer than
//! anyone waits. So the pick gets a budget of its own, [`BUDGET`], with a fresh stop raised when
//! it is spent: first the look-ahead, then each move on its own share of what is left, and a
//! move whose sowing has not ended by then is reported as such, never played and never waited
//! for. A second Ctrl-C still ends the process at once ([`mancala_cli::signal`]).

use mancala::board::Move;
use mancala::rules::Rules;
use mancala::stop::{Stop, StopToken};
use mancala::{PlayError, Position};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How deep the look-ahead goes.
pub const DEPTH: u32 = 6;

/// The whole time the pick may take after the search stopped: half for the look-ahead, the rest
/// shared by the moves tried one by one. Short beside the one second in which a stop must end
/// every command, long beside an ordinary sowing (microseconds).
pub const BUDGET: Duration = Duration::from_millis(500);

/// What a stopped search plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fallback {
    /// The pick of a [`DEPTH`]-ply look-ahead, not proven worse.
    LookAhead(Move),
    /// The look-ahead did not finish (or picked a move proven worse): the first move whose
    /// sowing ended within its share of the budget, those not proven worse tried first.
    FirstToEnd {
        /// The move.
        mv: Move,
        /// Moves tried before it whose sowing was still running when their share ran out.
        unfinished: Vec<Move>,
    },
    /// No move's sowing ended within the budget: nothing can be played now.
    CannotPlay {
        /// The moves whose sowing was still running (every candidate not proven endless).
        unfinished: Vec<Move>,
    },
    /// The game is over: there is no move.
    GameOver,
}

impl Fallback {
    /// The move to play, if any.
    pub fn mv(&self) -> Option<Move> {
        match self {
            Fallback::LookAhead(m) | Fallback::FirstToEnd { mv: m, .. } => Some(*m),
            Fallback::CannotPlay { .. } | Fallback::GameOver => None,
        }
    }

    /// The moves whose sowing did not end within their share of the budget.
    pub fn unfinished(&self) -> &[Move] {
        match self {
            Fallback::FirstToEnd { unfinished, .. } | Fallback::CannotPlay { unfinished } => {
                unfinished
            }
            Fallback::LookAhead(_) | Fallback::GameOver => &[],
        }
    }
}

/// The move to play from `p` when a stopped search proved none best, `worse` being the moves it
/// proved worse; never longer than about [`BUDGET`].
pub fn pick<R: Rules>(p: &Position<R>, worse: &[Move]) -> Fallback {
    if p.is_over() {
        return Fallback::GameOver;
    }
    let started = Instant::now();
    let guess = within(BUDGET / 2, |stop| {
        solver::lookahead::best_move(p, DEPTH, stop)
    });
    if let Some(g) = guess.filter(|g| !worse.contains(&g.mv)) {
        return Fallback::LookAhead(g.mv);
    }
    // Every number a move may have (sons name pits of the other row, docs/rules.md §13.2); those
    // not proven worse first, each group in increasing order.
    let holes = p.board().holes;
    let most = if p.board().sons == 0 {
        holes
    } else {
        2 * holes
    };
    let (open, proven_worse): (Vec<Move>, Vec<Move>) =
        (1..=most).map(Move).partition(|m| !worse.contains(m));
    let order: Vec<Move> = open.into_iter().chain(proven_worse).collect();
    let mut unfinished = Vec::new();
    for (i, &mv) in order.iter().enumerate() {
        let left = BUDGET.saturating_sub(started.elapsed());
        let share = left / (order.len() - i) as u32;
        match within(share, |stop| p.try_play_until(mv, stop)) {
            Ok(_) => return Fallback::FirstToEnd { mv, unfinished },
            Err(PlayError::Abandoned(_)) => unfinished.push(mv),
            // Not a candidate, or proven endless: not a move.
            Err(PlayError::Illegal(_)) => {}
        }
    }
    Fallback::CannotPlay { unfinished }
}

/// Runs `work` with a fresh stop that is raised after `limit` (`work` looks at it and returns
/// soon after), and returns its result.
pub fn within<T>(limit: Duration, work: impl FnOnce(Stop<'_>) -> T) -> T {
    let stop = StopToken::new();
    let (done, finished) = mpsc::channel::<()>();
    std::thread::scope(|s| {
        let timer = &stop;
        s.spawn(move || {
            if let Err(mpsc::RecvTimeoutError::Timeout) = finished.recv_timeout(limit) {
                timer.stop();
            }
        });
        let r = work(stop.as_stop());
        drop(done);
        r
    })
}

/// "move 2 relays for more than 0.2 s; not played" for each of `unfinished`, joined.
pub fn unfinished_words(unfinished: &[Move]) -> String {
    let moves: Vec<String> = unfinished.iter().map(|m| m.0.to_string()).collect();
    match moves.as_slice() {
        [] => String::new(),
        [one] => format!(
            "move {one} was still relaying when its share of the {} s ran out; not played",
            BUDGET.as_secs_f64()
        ),
        many => format!(
            "moves {} were still relaying when their shares of the {} s ran out; not played",
            many.join(", "),
            BUDGET.as_secs_f64()
        ),
    }
}
