//! Round-perfect play (docs/rules.md §13.5): every move is the first best move (the lowest move
//! number among those whose value is the position's value), with the exception for cycles.
//!
//! # Why an exception, and the graph it is about
//!
//! In Walak-pussa and San-Yao a position can lie on a cycle within its seed-count layer. Every
//! best move inside the layer keeps the remaining margin (it captures nothing), so first-best play
//! may go round such a cycle for ever and never collect the margin it promises. §13.5: there the
//! player the value favours (South if the remaining margin is positive, North if negative) plays
//! the first best move that leaves the cycle's strongly connected component, or else the first
//! best move that lowers the number of moves within which that player can force leaving it by a
//! move of that value. The other player plays the first best move.
//!
//! The graph is the one round-perfect play moves in, the **best-play graph** of the layer: the
//! positions with the same seeds on the board and the same remaining margin `t`, joined by the
//! moves of value `t` of whoever is to move. (Play leaves it only by a move of value `t` out of
//! the layer.) A cycle made of moves of another value is never followed by round-perfect play,
//! so it needs no exception; and the best-play graph is small, where the layer itself can be
//! huge.
//!
//! The distance `d` of a position of a component `C` is the attractor distance for the favoured
//! player: 1 when it can leave `C` at once (for the favoured player, some best move leaves; for
//! the other, every best move leaves), else 1 + the least `d` of its best moves into `C` for the
//! favoured player and 1 + the greatest for the other. It is finite for every position of `C`:
//! the position lies in the attractor `W_t` of §8.5 (for `t > 0`, the least fixpoint: the
//! favoured player reaches an exit of value `t`), and `W_t`'s rank, restricted to moves of value
//! `t`, is a finite bound. Play therefore leaves every component it enters, never comes back
//! (that is what components are), and so never repeats a position while `t != 0`.
//!
//! With `t = 0` endless play is as good as the value for both, nobody is favoured, and the first
//! best move is played; a round that repeats a position then ends by endless play (§2.10, §13.5),
//! which [`play_round`] applies.

use crate::answers::AnySolver;
use crate::board::{Move, Side};
use crate::matches::{Match, MatchError};
use crate::rules::Rules;
use crate::Position;
use std::collections::{HashMap, HashSet, VecDeque};

/// Why a move was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The first best move (no cycle of best play through the position, or not the favoured
    /// player's turn, or a remaining margin of 0).
    FirstBest,
    /// The favoured player's first best move out of the cycle's component.
    LeavesComponent,
    /// The favoured player's first best move that lowers the distance out of the component.
    Closer,
}

/// A round-perfect move and what it was chosen from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The move to play.
    pub mv: Move,
    /// The position's value: its final South-minus-North score under perfect play.
    pub value: i32,
    /// Why this move among the best ones.
    pub reason: Reason,
}

/// One position of the explored best-play graph.
struct Node<R: Rules> {
    pos: Position<R>,
    /// Its best moves in increasing move number, each with the node it leads to inside the
    /// layer, or `None` when it leaves the layer (a capture, or the round's end).
    best: Vec<(Move, Option<usize>)>,
    /// Its strongly connected component (an index into [`RoundPerfect::cyclic`]).
    comp: usize,
}

/// Round-perfect play for one round: it keeps the best-play graph of the layer play is in, so a
/// graph is explored once per stretch of play within a layer and margin.
pub struct RoundPerfect<R: Rules> {
    index: HashMap<Position<R>, usize>,
    nodes: Vec<Node<R>>,
    /// Per component: whether it holds a cycle (more than one position, or a move to itself).
    cyclic: Vec<bool>,
    /// Per component, once asked for: the favoured player's distance out of it, per node.
    dist: HashMap<usize, HashMap<usize, u32>>,
}

impl<R: Rules> Default for RoundPerfect<R> {
    fn default() -> Self {
        Self::new()
    }
}

/// How many of a position's best moves [`RoundPerfect::choose`] asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    /// The first (lowest-numbered) one: enough for plain first-best play.
    First,
    /// All of them: for the best-play graph of a cyclic game.
    All,
}

/// A position's value and best moves, as [`RoundPerfect::choose`] asks for them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Best {
    /// The value of the best moves from the mover's point of view (`gain ± F(next)`, the
    /// position's future value `F`).
    pub value: i32,
    /// The best moves in increasing move number: all of them, or at least the first for
    /// [`Need::First`].
    pub moves: Vec<Move>,
}

impl Best {
    /// The best moves among `values`, the exact value of every legal move (in increasing move
    /// number, from the mover's point of view, as `solver::Solver::analyze` gives them).
    ///
    /// # Panics
    /// When `values` is empty.
    pub fn of_values(values: &[(Move, i32)]) -> Self {
        let value = values.iter().map(|&(_, v)| v).max().expect("a legal move");
        Best {
            value,
            moves: values
                .iter()
                .filter(|&&(_, v)| v == value)
                .map(|&(m, _)| m)
                .collect(),
        }
    }
}

impl<R: Rules> RoundPerfect<R> {
    /// No graph explored yet.
    pub fn new() -> Self {
        Self {
            index: HashMap::new(),
            nodes: Vec::new(),
            cyclic: Vec::new(),
            dist: HashMap::new(),
        }
    }

    /// The round-perfect move in `p` (a position with a side to move). `best(q, need)` must give
    /// the exact value of `q` and its best moves ([`Best`]; `solver::Solver::best_moves` finds
    /// them); it is asked about `p` (for the first best move only in an acyclic game) and, on a
    /// cyclic game with a nonzero margin, for all the best moves of the positions of `p`'s
    /// best-play graph.
    ///
    /// # Errors
    /// Whatever `best` returns.
    ///
    /// # Panics
    /// When `p` is over, or when the values are not exact (a component that the favoured player
    /// cannot leave by best moves).
    pub fn choose<E>(
        &mut self,
        p: &Position<R>,
        best: &mut impl FnMut(&Position<R>, Need) -> Result<Best, E>,
    ) -> Result<Choice, E> {
        let side = p.to_move().expect("choose: the round is over");
        let need = if R::CAN_CYCLE { Need::All } else { Need::First };
        let mine = best(p, need)?;
        let value = p.final_value(mine.value);
        let plain = Choice {
            mv: *mine.moves.first().expect("a best move"),
            value,
            reason: Reason::FirstBest,
        };
        // The remaining margin, South minus North; 0: endless play is worth the value.
        let margin = side.sign() * mine.value;
        if !R::CAN_CYCLE || margin == 0 {
            return Ok(plain);
        }
        let favoured = if margin > 0 { Side::South } else { Side::North };
        let x = match self.index.get(p) {
            Some(&x) => x,
            None => {
                // Play is in a new layer or at a new margin: the old graph is behind it.
                self.explore(p, mine, best)?;
                0
            }
        };
        let comp = self.nodes[x].comp;
        if side != favoured || !self.cyclic[comp] {
            return Ok(plain);
        }
        let leaves = |to: Option<usize>| to.is_none_or(|z| self.nodes[z].comp != comp);
        if let Some(&(mv, _)) = self.nodes[x].best.iter().find(|&&(_, to)| leaves(to)) {
            return Ok(Choice {
                mv,
                value,
                reason: Reason::LeavesComponent,
            });
        }
        self.measure(comp, favoured);
        let dist = &self.dist[&comp];
        let here = dist.get(&x).copied();
        let closer = self.nodes[x].best.iter().find(|&&(_, to)| {
            let d = to.and_then(|z| dist.get(&z).copied());
            matches!((d, here), (Some(d), Some(h)) if d < h)
        });
        let Some(&(mv, _)) = closer else {
            panic!(
                "round-perfect play: {p} lies on a cycle of best play that {favoured} cannot leave by moves of value {value}: the move values are not exact"
            );
        };
        Ok(Choice {
            mv,
            value,
            reason: Reason::Closer,
        })
    }

    /// Explores the best-play graph from `root` (whose best moves are `root_best`) and splits
    /// it into strongly connected components.
    fn explore<E>(
        &mut self,
        root: &Position<R>,
        root_best: Best,
        best: &mut impl FnMut(&Position<R>, Need) -> Result<Best, E>,
    ) -> Result<(), E> {
        self.index.clear();
        self.nodes.clear();
        self.cyclic.clear();
        self.dist.clear();
        let layer = root.board().seeds_on_board();
        self.index.insert(*root, 0);
        self.nodes.push(Node {
            pos: *root,
            best: Vec::new(),
            comp: 0,
        });
        let mut pending = Some(root_best);
        let mut i = 0;
        while i < self.nodes.len() {
            let y = self.nodes[i].pos;
            let moves = match pending.take() {
                Some(b) => b.moves,
                None => best(&y, Need::All)?.moves,
            };
            let mut out = Vec::new();
            for mv in moves {
                let z = y.play_unchecked(mv);
                if z.is_over() || z.board().seeds_on_board() != layer {
                    out.push((mv, None));
                    continue;
                }
                let j = *self.index.entry(z).or_insert_with(|| {
                    self.nodes.push(Node {
                        pos: z,
                        best: Vec::new(),
                        comp: 0,
                    });
                    self.nodes.len() - 1
                });
                out.push((mv, Some(j)));
            }
            self.nodes[i].best = out;
            i += 1;
        }
        self.components();
        Ok(())
    }

    /// Tarjan's algorithm, iterative (the graph can be deeper than the stack is tall): sets
    /// every node's component and each component's `cyclic` flag.
    fn components(&mut self) {
        let len = self.nodes.len();
        const NONE: usize = usize::MAX;
        let mut order = vec![NONE; len];
        let mut low = vec![0; len];
        let mut on_stack = vec![false; len];
        let mut stack = Vec::new();
        let mut next = 0;
        for root in 0..len {
            if order[root] != NONE {
                continue;
            }
            // (node, index of its next edge to look at)
            let mut work = vec![(root, 0usize)];
            order[root] = next;
            low[root] = next;
            next += 1;
            stack.push(root);
            on_stack[root] = true;
            while let Some(&(v, e)) = work.last() {
                work.last_mut().expect("not empty").1 += 1;
                let edge = self.nodes[v].best.get(e).map(|&(_, to)| to);
                match edge {
                    Some(Some(w)) if order[w] == NONE => {
                        order[w] = next;
                        low[w] = next;
                        next += 1;
                        stack.push(w);
                        on_stack[w] = true;
                        work.push((w, 0));
                    }
                    Some(Some(w)) => {
                        if on_stack[w] {
                            low[v] = low[v].min(order[w]);
                        }
                    }
                    Some(None) => {}
                    None => {
                        work.pop();
                        if let Some(&(u, _)) = work.last() {
                            low[u] = low[u].min(low[v]);
                        }
                        if low[v] == order[v] {
                            let comp = self.cyclic.len();
                            let mut size = 0;
                            loop {
                                let w = stack.pop().expect("on the stack");
                                on_stack[w] = false;
                                self.nodes[w].comp = comp;
                                size += 1;
                                if w == v {
                                    break;
                                }
                            }
                            let self_loop = self.nodes[v].best.iter().any(|&(_, to)| to == Some(v));
                            self.cyclic.push(size > 1 || self_loop);
                        }
                    }
                }
            }
        }
    }

    /// Computes, once per component, the favoured player's distance out of component `comp`
    /// for each of its nodes (see the module doc), by a backward breadth-first pass with
    /// counters for the other player.
    fn measure(&mut self, comp: usize, favoured: Side) {
        if !self.dist.contains_key(&comp) {
            let members: Vec<usize> = (0..self.nodes.len())
                .filter(|&v| self.nodes[v].comp == comp)
                .collect();
            let mut preds: HashMap<usize, Vec<usize>> = HashMap::new();
            let mut inside: HashMap<usize, usize> = HashMap::new();
            let mut d: HashMap<usize, u32> = HashMap::new();
            let mut queue = VecDeque::new();
            for &v in &members {
                let node = &self.nodes[v];
                let mut count = 0;
                let mut leaves = false;
                for &(_, to) in &node.best {
                    match to {
                        Some(z) if self.nodes[z].comp == comp => {
                            preds.entry(z).or_default().push(v);
                            count += 1;
                        }
                        _ => leaves = true,
                    }
                }
                let is_favoured = node.pos.to_move() == Some(favoured);
                if (is_favoured && leaves) || (!is_favoured && count == 0) {
                    d.insert(v, 1);
                    queue.push_back(v);
                }
                inside.insert(v, count);
            }
            while let Some(z) = queue.pop_front() {
                let dz = d[&z];
                for &y in preds.get(&z).map_or(&[][..], |v| v.as_slice()) {
                    if d.contains_key(&y) {
                        continue;
                    }
                    if self.nodes[y].pos.to_move() == Some(favoured) {
                        // The first of its moves to be reached is its nearest.
                        d.insert(y, dz + 1);
                        queue.push_back(y);
                    } else {
                        // Reached by its last move: the farthest, as the queue is in order.
                        let left = inside.get_mut(&y).expect("a member");
                        *left -= 1;
                        if *left == 0 {
                            d.insert(y, dz + 1);
                            queue.push_back(y);
                        }
                    }
                }
            }
            self.dist.insert(comp, d);
        }
    }
}

/// Why [`play_round`] stopped short of the round's end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError<E> {
    /// The move values could not be had (for example, a search was interrupted).
    Values(E),
    /// The match cannot go on (rounds that end at their start without a move, over and over).
    Match(MatchError),
}

/// How a round went under round-perfect play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundPlay {
    /// The value of the round's position when play began (its start's, for a fresh round).
    pub value: i32,
    /// The moves played.
    pub moves: usize,
    /// Whether the round ended by a repeated position (endless play, §2.10) rather than by its
    /// rules.
    pub endless: bool,
}

/// Plays the current round of `m` to its end round-perfectly ([`RoundPerfect::choose`]); a
/// position that repeats ends the round by endless play ([`Match::end_round_endless`]). The
/// match then stands at the next round's start, or is over.
///
/// # Errors
/// [`PlayError::Values`] with whatever `values` returns, [`PlayError::Match`] when the match
/// cannot set up the rounds that follow; the match keeps the moves played so far.
///
/// # Panics
/// When the match is over, or as [`RoundPerfect::choose`].
pub fn play_round<R: Rules, E>(
    m: &mut Match<R>,
    best: &mut impl FnMut(&Position<R>, Need) -> Result<Best, E>,
) -> Result<RoundPlay, PlayError<E>> {
    assert!(m.result().is_none(), "play_round: the match is over");
    let k = m.rounds().len();
    let start = *m.position();
    let mut perfect = RoundPerfect::new();
    let mut seen = HashSet::new();
    let mut value = None;
    let mut moves = 0;
    let mut endless = false;
    while m.rounds().len() == k && m.result().is_none() {
        let p = *m.position();
        if !seen.insert(p) {
            m.end_round_endless().map_err(PlayError::Match)?;
            endless = true;
            break;
        }
        let choice = perfect.choose(&p, best).map_err(PlayError::Values)?;
        value.get_or_insert(choice.value);
        m.play(choice.mv).map_err(PlayError::Match)?;
        moves += 1;
    }
    // A round that ended without a move (its start already over) has the start's value.
    let value = value.unwrap_or_else(|| {
        let [s, n] = start.score();
        s as i32 - n as i32
    });
    Ok(RoundPlay {
        value,
        moves,
        endless,
    })
}

/// The `best` callback of [`RoundPerfect::choose`] and [`play_round`] answered by a search: the
/// value and the best moves of each position by `solver` (one solver per round, so that its
/// transposition table serves every position of the round; over the Kalah node when the round's
/// start is one, [`AnySolver::new`]).
pub fn by_search<'s, 'o: 's, R: Rules>(
    solver: &'s mut AnySolver<'o, R>,
) -> impl FnMut(&Position<R>, Need) -> Result<Best, solver::SearchError> + use<'s, 'o, R> {
    move |q, need| {
        let (value, moves) = solver.best_moves(q, need == Need::First)?;
        Ok(Best { value, moves })
    }
}
