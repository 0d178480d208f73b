//! The move a stopped search plays when it proved none best, found within a bounded time: the
//! choice of a look-ahead deepened one ply at a time until its deadline ([`deepen`]), among the
//! moves the exact search did not prove worse. `solve`'s stopped report, the server's and the
//! engine protocol's timed `go` all play it.
//!
//! A fixed shallow look-ahead is not enough: after `go movetime 2000` from Kalah(6,4)'s start
//! the engine once played 6 (a 6-ply look-ahead's choice, worth +4) where a 12-ply look-ahead,
//! a quarter of a second's work, finds 3 (+8). Deepening until the deadline means a stopped
//! search never plays a move that a look-ahead it had time for rates worse than its choice.
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
use mancala::rules::{Rules, LOOK_EVERY};
use mancala::stop::{Stop, StopToken};
use mancala::{PlayError, Position};
use solver::lookahead;
use solver::{Children, Game};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The deepest look-ahead tried (the deadline ends the deepening long before on large boards).
const MAX_DEPTH: u32 = 64;

/// How often the timer of [`deepen`] looks at the clock.
const TICK: Duration = Duration::from_millis(2);

/// The whole time the pick may take after the search stopped: half for the look-ahead, the rest
/// shared by the moves tried one by one. Short beside the one second in which a stop must end
/// every command, long beside an ordinary sowing (microseconds).
pub const BUDGET: Duration = Duration::from_millis(500);

/// What a stopped search plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fallback {
    /// The pick of the deepest look-ahead finished in half the budget ([`deepen`]), among the
    /// moves not proven worse.
    LookAhead(Guess),
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
            Fallback::LookAhead(Guess { mv: m, .. }) | Fallback::FirstToEnd { mv: m, .. } => {
                Some(*m)
            }
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
    if let Some(g) = deepen(p, worse, started + BUDGET / 2) {
        return Fallback::LookAhead(g);
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
            Err(PlayError::Abandoned { .. }) => unfinished.push(mv),
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

/// "move 2 relays for more than 1048576 laps; not played" for `unfinished`, joined: each was
/// abandoned at a look at its stop, so its relay had run more than [`LOOK_EVERY`] laps.
pub fn unfinished_words(unfinished: &[Move]) -> String {
    let moves: Vec<String> = unfinished.iter().map(|m| m.0.to_string()).collect();
    match moves.as_slice() {
        [] => String::new(),
        [one] => format!(
            "move {one} relays for more than {LOOK_EVERY} laps; not played (still relaying when its share of the {} s ran out)",
            BUDGET.as_secs_f64()
        ),
        many => format!(
            "moves {} relay for more than {LOOK_EVERY} laps; not played (still relaying when their shares of the {} s ran out)",
            many.join(", "),
            BUDGET.as_secs_f64()
        ),
    }
}

/// What the deepest finished look-ahead chose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Guess {
    /// Its depth in plies.
    pub depth: u32,
    /// The move: the first of the best, in move order, among the moves not proven worse.
    pub mv: Move,
    /// Its estimated future value for the side to move (exact only where every line ends
    /// within the horizon).
    pub estimate: i32,
}

/// Deepens a look-ahead from `p` until `until`, choosing among the moves not in `worse`;
/// `None` when not even one ply finished in time (or the game is over).
pub fn deepen<R: Rules>(p: &Position<R>, worse: &[Move], until: Instant) -> Option<Guess> {
    let stop = StopToken::new();
    let done = AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                if Instant::now() >= until {
                    stop.stop();
                    return;
                }
                std::thread::sleep(TICK);
            }
        });
        let mut found = None;
        for depth in 1..=MAX_DEPTH {
            if Instant::now() >= until {
                break;
            }
            match choose(p, depth, worse, stop.as_stop()) {
                Some(g) => found = Some(g),
                None => break,
            }
        }
        done.store(true, Ordering::Relaxed);
        found
    })
}

/// The `depth`-ply look-ahead's choice among the moves not in `worse`; `None` when stopped.
fn choose<R: Rules>(p: &Position<R>, depth: u32, worse: &[Move], stop: Stop<'_>) -> Option<Guess> {
    // Most often the look-ahead's own choice is open: one alpha-beta search from the root.
    let g = lookahead::best_move(p, depth, stop)?;
    if !worse.contains(&g.mv) {
        return Some(Guess {
            depth,
            mv: g.mv,
            estimate: g.estimate,
        });
    }
    // It was proven worse: value each open move on its own, one ply less below it.
    let mut children = Children::new();
    p.children_until(&mut children, stop).ok()?;
    let mut best: Option<Guess> = None;
    for c in children
        .as_slice()
        .iter()
        .filter(|c| !worse.contains(&c.mv))
    {
        let below = if c.next.is_over() {
            0
        } else {
            let e = lookahead::best_move(&c.next, depth.saturating_sub(1).max(1), stop)?.estimate;
            if c.turn_passed {
                -e
            } else {
                e
            }
        };
        let estimate = c.gain + below;
        if best.is_none_or(|b| estimate > b.estimate) {
            best = Some(Guess {
                depth,
                mv: c.mv,
                estimate,
            });
        }
    }
    if stop.is_raised() {
        return None;
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala::rules::Kalah;

    #[test]
    fn the_deepest_finished_look_ahead_chooses_among_the_open_moves() {
        let p = Position::start(Kalah::default(), 4, 3).unwrap();
        let soon = Instant::now() + Duration::from_millis(200);
        let g = deepen(&p, &[], soon).expect("a look-ahead finishes in time");
        let fixed = lookahead::best_move(&p, g.depth, Stop::never()).unwrap();
        assert_eq!((g.mv, g.estimate), (fixed.mv, fixed.estimate));
        // With its choice proven worse, the best of the others by the same look-ahead.
        let g = deepen(
            &p,
            &[fixed.mv],
            soon.max(Instant::now() + Duration::from_millis(200)),
        )
        .unwrap();
        assert_ne!(g.mv, fixed.mv);
        assert!(g.estimate <= fixed.estimate);
        // A deadline already past: nothing finished.
        assert_eq!(deepen(&p, &[], Instant::now()), None);
    }
}
