//! The pie rule (docs/rules.md §3.9): after the first player's whole first turn the second player
//! may swap sides, so the first player ends with `−|v(t)|` for the turn `t` they played, and the
//! board's **pie value** is `P = −min over t of |v(t)|`.
//!
//! A **first turn** is the side to move's moves until the other side is to move or the game is
//! over: the first sowing and every extra turn it earns (Kalah, Dakon), and the moves the mover
//! makes again when the opponent has to pass (Djenon-aboure, San-Yao). [`first_turns`] lists them
//! all, as move sequences (two sequences reaching the same position are two turns, as in
//! [`crate::opening`]); [`pie`] values each one exactly with one solver, so one transposition
//! table serves them all (the end positions share most of their subtrees), and each distinct end
//! position is solved once.
//!
//! ```
//! use mancala::{answers::AnySolver, pie, rules::Kalah, Position};
//! use solver::search::SearchConfig;
//! let start = Position::start(Kalah::default(), 2, 2).unwrap();
//! let turns = pie::first_turns(&start, 1000).unwrap();
//! let mut solver = AnySolver::new(&start, SearchConfig::default(), None).unwrap();
//! let r = pie::pie(&start, &turns, &mut solver).unwrap();
//! assert_eq!(r.values.len(), turns.len());
//! assert!(r.pie_value <= 0);
//! ```

use crate::answers::AnySolver;
use crate::board::{Move, Side};
use crate::rules::Rules;
use crate::Position;
use solver::search::SearchError;
use std::collections::HashMap;
use std::fmt;

/// One first turn: its moves in order and the position it leaves (the other side to move, or
/// the game over).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn<R: Rules> {
    /// The mover's moves, each a move number (docs/rules.md §2.6).
    pub moves: Vec<Move>,
    /// The position after the turn.
    pub end: Position<R>,
}

/// Why the first turns of a position cannot be listed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TurnsError {
    /// The position is over: nobody has a first turn.
    Over,
    /// More than this many first turns (each is listed, so the count is capped).
    TooMany(usize),
    /// A position recurs inside one turn (the opponent passing while the mover goes round a
    /// cycle): the turn could go on forever, and the pie rule's "after the first turn" has no
    /// end to look at.
    Endless(String),
}

impl fmt::Display for TurnsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TurnsError::Over => write!(f, "the game is over at the start: there is no first turn"),
            TurnsError::TooMany(n) => write!(f, "more than {n} first turns"),
            TurnsError::Endless(p) => {
                write!(
                    f,
                    "a first turn can go on forever (position {p} recurs within it)"
                )
            }
        }
    }
}

impl std::error::Error for TurnsError {}

/// Every first turn of the side to move of `start`, in increasing move order (depth first), at
/// most `max` of them.
///
/// # Errors
/// [`TurnsError`]: the game is over, more than `max` turns, or a turn that never ends.
pub fn first_turns<R: Rules>(start: &Position<R>, max: usize) -> Result<Vec<Turn<R>>, TurnsError> {
    let mover = start.to_move().ok_or(TurnsError::Over)?;
    let mut out = Vec::new();
    let mut path = Vec::new();
    let mut seen = Vec::new();
    extend(start, mover, &mut path, &mut seen, &mut out, max)?;
    Ok(out)
}

/// The turns that continue `path` from `p` (the mover still to move).
fn extend<R: Rules>(
    p: &Position<R>,
    mover: Side,
    path: &mut Vec<Move>,
    seen: &mut Vec<Position<R>>,
    out: &mut Vec<Turn<R>>,
    max: usize,
) -> Result<(), TurnsError> {
    // Kalah's and Dakon's extra turns each bank a seed, so they cannot come back; a cyclic game
    // whose opponent keeps passing could, and the positions of one path are few.
    if seen.contains(p) {
        return Err(TurnsError::Endless(p.to_string()));
    }
    seen.push(*p);
    let mut children = Vec::new();
    p.for_each_child(|m, q| children.push((m, q)));
    for (m, q) in children {
        path.push(m);
        if q.to_move() == Some(mover) {
            extend(&q, mover, path, seen, out, max)?;
        } else {
            if out.len() == max {
                return Err(TurnsError::TooMany(max));
            }
            out.push(Turn {
                moves: path.clone(),
                end: q,
            });
        }
        path.pop();
    }
    seen.pop();
    Ok(())
}

/// The pie rule's answer for a list of first turns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pie {
    /// Each turn's value `v(t)`: the final South-minus-North score under perfect play after it.
    pub values: Vec<i32>,
    /// `P = −min |v(t)|` as the first player's result: South's when South moved first, so it is
    /// never positive (a first player North would make it never negative; see [`Pie::of`]).
    pub pie_value: i32,
    /// The indices of the fairest turns (`|v(t)| = min |v|`), in list order.
    pub fairest: Vec<usize>,
}

impl Pie {
    /// The pie value and the fairest turns of `values`, the values of the first turns of
    /// `mover`. The first player ends with `−|v|` for them: `P` is `−min |v|` from South's side,
    /// `+min |v|` when North moved first (values are always South minus North).
    ///
    /// # Panics
    /// When `values` is empty.
    pub fn of(values: Vec<i32>, mover: Side) -> Pie {
        let least = values
            .iter()
            .map(|v| v.abs())
            .min()
            .expect("at least one first turn");
        let fairest = (0..values.len())
            .filter(|&i| values[i].abs() == least)
            .collect();
        Pie {
            values,
            pie_value: -mover.sign() * least,
            fairest,
        }
    }
}

/// What the second player does after a turn of value `v` (South minus North) by `mover`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Swapping is better for them: they take over the first player's side.
    Swap,
    /// Playing on is better: they keep their side.
    Keep,
    /// The turn is a draw under perfect play: either.
    Either,
}

impl Choice {
    /// The second player's choice after a turn of `mover` worth `v` (South minus North).
    pub fn after(v: i32, mover: Side) -> Choice {
        match (mover.sign() * v).cmp(&0) {
            std::cmp::Ordering::Greater => Choice::Swap,
            std::cmp::Ordering::Less => Choice::Keep,
            std::cmp::Ordering::Equal => Choice::Either,
        }
    }

    /// `swap`, `keep` or `either`.
    pub fn word(self) -> &'static str {
        match self {
            Choice::Swap => "swap",
            Choice::Keep => "keep",
            Choice::Either => "either",
        }
    }
}

/// Values every turn of `start` with `solver` (made for `start`, so that every end
/// position is reachable from its root and its one transposition table serves them all; each
/// distinct end position is solved once) and works out the pie value.
///
/// # Errors
/// The solver's, when it is stopped or cannot run.
///
/// # Panics
/// When `turns` is empty.
pub fn pie<R: Rules>(
    start: &Position<R>,
    turns: &[Turn<R>],
    solver: &mut AnySolver<'_, R>,
) -> Result<Pie, SearchError> {
    let mut known: HashMap<String, i32> = HashMap::new();
    let mut values = Vec::with_capacity(turns.len());
    for t in turns {
        let key = t.end.to_string();
        let v = match known.get(&key) {
            Some(&v) => v,
            None => {
                let v = t.end.final_value(solver.value(&t.end)?);
                known.insert(key, v);
                v
            }
        };
        values.push(v);
    }
    let mover = start.to_move().expect("a first turn, so a side to move");
    Ok(Pie::of(values, mover))
}
