//! An exact alpha-beta search for Kalah, on the reference engine alone: a second method for the
//! boards whose whole game graph is too big for the brute force (`brute.rs`) but small enough to
//! search, such as (6,3). It shares no code with the `mancala` crate (neither its search nor its
//! endgame tables), so agreeing with it is an independent check of the main solver.
//!
//! It searches the future margin F (South minus North, the stores left out) of a position, as
//! `brute.rs` does: the stores never change what is still to come, so positions that differ only
//! in their stores share one transposition-table entry. Kalah's game graph is acyclic (a move
//! either banks seeds or moves them on without a way back), so the plain depth-first search
//! terminates and a value found once holds wherever the position recurs.
//!
//! Kalah only: the cyclic games (Djenon-aboure, Walak-pussa, San-Yao) need the layer solver's
//! cycle handling, and Dakon's rounds are not searched here.

use super::brute::store_diff;
use super::engine::{legal_moves, normalize, play};
use super::{RefGame, RefPos};
use std::collections::HashMap;

/// What the table knows of a position's future margin: `lower <= F <= upper` (equal when
/// exact), and the move that was best (or refuted the window) when it was last searched.
#[derive(Clone, Copy, Debug)]
struct Entry {
    lower: i16,
    upper: i16,
    best: u8,
}

/// One search, with its transposition table (kept across calls on the same game, so repeated
/// calls reuse what earlier ones learnt).
pub struct Search {
    game: RefGame,
    table: HashMap<u128, Entry>,
    /// Positions expanded (moves generated), for the timings reported by the tests.
    pub nodes: u64,
}

/// The table key of a position without its stores: the number of holes a side, then every pit in
/// 8 bits (sowing order), then the side to move in the low bit. A packed integer instead of the
/// position itself keeps the table at a fraction of the memory (the (6,3) searches store tens of
/// millions of positions). The hole count keeps boards of different sizes apart, which a table
/// shared by several boards would otherwise confuse (a board's leading empty pits pack to
/// nothing). Boards of up to 7 holes a side with at most 255 seeds in a pit fit (3 + 14 * 8 + 1
/// bits); larger ones are refused.
fn key(p: &RefPos) -> u128 {
    let n = p.south.len();
    assert!(
        n <= 7 && p.north.len() == n,
        "the search's table key holds at most 7 holes a side"
    );
    let mut k = n as u128;
    for &c in p.south.iter().chain(&p.north) {
        assert!(
            c < 256,
            "the search's table key holds at most 255 seeds a pit"
        );
        k = (k << 8) | c as u128;
    }
    (k << 1) | p.to_move.expect("a position with a side to move") as u128
}

fn seeds_on_board(p: &RefPos) -> i32 {
    p.south.iter().chain(&p.north).sum::<u32>() as i32
}

impl Search {
    pub fn new(game: RefGame) -> Search {
        assert!(
            matches!(game, RefGame::Kalah { .. }),
            "the reference search is for Kalah only (its game graph is acyclic)"
        );
        Search {
            game,
            table: HashMap::new(),
            nodes: 0,
        }
    }

    /// Exact perfect-play value of `p`: final South-minus-North score, stores included.
    pub fn value(&mut self, p: &RefPos) -> i32 {
        let root = normalize(self.game, p);
        if root.to_move.is_none() {
            return store_diff(&root);
        }
        // Every future seed goes to one side or to no one, so F lies in [-seeds, seeds]. The
        // bounds close in on F by zero-window searches (MTD(f)): each one only asks whether
        // F >= beta, which cuts more than one search with the whole window (on (6,3) 39 instead
        // of 49 million positions), and the table keeps what each pass learnt for the next.
        let seeds = seeds_on_board(&root);
        let (mut lower, mut upper) = (-seeds, seeds);
        let mut guess = 0;
        while lower < upper {
            let beta = guess.max(lower + 1);
            guess = self.future(&root, beta - 1, beta);
            if guess < beta {
                upper = guess;
            } else {
                lower = guess;
            }
        }
        store_diff(&root) + lower
    }

    /// Fail-soft alpha-beta on the future margin F of `x` (its stores are ignored), South
    /// maximising and North minimising. The result `v` is exact when `alpha < v < beta`; when
    /// `v <= alpha` it is an upper bound on F, when `v >= beta` a lower bound.
    pub fn future(&mut self, x: &RefPos, mut alpha: i32, mut beta: i32) -> i32 {
        let side = match x.to_move {
            None => return 0, // the game is over: nothing more to come
            Some(side) => side,
        };
        let seeds = seeds_on_board(x);
        let k = key(x);
        // Without an entry, the bounds are the seeds still on the board.
        let (mut lower, mut upper, remembered) = match self.table.get(&k) {
            Some(e) => (e.lower as i32, e.upper as i32, Some(e.best)),
            None => (-seeds, seeds, None),
        };
        if lower >= beta {
            return lower;
        }
        if upper <= alpha {
            return upper;
        }
        if lower == upper {
            return lower;
        }
        // F lies in [lower, upper] anyway, so searching a wider window would waste work. Should the
        // result fall on a narrowed edge, it still bounds F on that side; and as F is also inside
        // [lower, upper], a result outside the caller's window remains a valid bound for it, and
        // one inside it (at lower or upper) is exact.
        alpha = alpha.max(lower);
        beta = beta.min(upper);
        let window = (alpha, beta);

        self.nodes += 1;
        let mut children: Vec<(u8, RefPos)> = legal_moves(self.game, x)
            .into_iter()
            .map(|mv| (mv, play(self.game, x, mv).expect("a legal move")))
            .collect();
        assert!(!children.is_empty(), "a normalised position with no move");
        // Move ordering, which only changes the speed: the remembered best move first, then the
        // moves that earn another turn, then the ones that bank the most for the mover. Good moves
        // first make the window narrow early, so the later moves are refuted quickly.
        let gain = |r: &RefPos| {
            let d = store_diff(r) - store_diff(x);
            if side == 0 {
                d
            } else {
                -d
            }
        };
        children
            .sort_by_key(|(mv, r)| (Some(*mv) != remembered, r.to_move != Some(side), -gain(r)));

        let mut best_value = if side == 0 { i32::MIN } else { i32::MAX };
        let mut best_move = children[0].0;
        for (mv, r) in &children {
            // The move banks d now (South minus North) and F(r) later; r's window is shifted by d.
            let d = store_diff(r) - store_diff(x);
            let v = d + self.future(r, alpha - d, beta - d);
            if side == 0 {
                if v > best_value {
                    best_value = v;
                    best_move = *mv;
                }
                alpha = alpha.max(v);
            } else {
                if v < best_value {
                    best_value = v;
                    best_move = *mv;
                }
                beta = beta.min(v);
            }
            if alpha >= beta {
                break; // the opponent will not let the game come here
            }
        }

        // Below the (narrowed) window the result is an upper bound on F, above it a lower bound,
        // inside it exact; each tightens what the table knew.
        let v = best_value;
        if v <= window.0 {
            upper = upper.min(v);
        } else if v >= window.1 {
            lower = lower.max(v);
        } else {
            (lower, upper) = (v, v);
        }
        // Both are true bounds on F, so they cannot cross: if they do, the search is wrong.
        assert!(lower <= upper, "bounds crossed at {x:?}: {lower} > {upper}");
        self.table.insert(
            k,
            Entry {
                lower: lower as i16,
                upper: upper as i16,
                best: best_move,
            },
        );
        v
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::make_pos;
    use super::super::brute::value as brute_value;
    use super::super::engine::start;
    use super::super::notation::format;
    use super::*;

    /// The eight Kalah option sets (empty-capture, end-when-mover-empty, leftovers-unscored).
    fn kalah_games() -> Vec<RefGame> {
        (0..8)
            .map(|bits| RefGame::Kalah {
                empty_capture: bits & 1 != 0,
                end_when_mover_empty: bits & 2 != 0,
                leftovers_unscored: bits & 4 != 0,
            })
            .collect()
    }

    /// A random position: `holes` a side, `total` seeds dropped into random pits, random stores
    /// and side to move (normalised by the solvers, so it may already be over).
    fn random_pos(rand: &mut impl FnMut(u64) -> u64, holes: usize, total: u32) -> RefPos {
        let mut board = vec![0u32; 2 * holes];
        for _ in 0..total {
            board[rand(2 * holes as u64) as usize] += 1;
        }
        let stores = [rand(6) as u32, rand(6) as u32];
        make_pos(&board, stores, Some(rand(2) as usize))
    }

    /// Every small start (at most 5 holes and 12 seeds; (6,1) takes the brute force seconds)
    /// under all eight option sets: the search agrees with the brute force's whole-graph
    /// retrograde analysis.
    #[test]
    fn search_matches_brute_force_on_small_starts() {
        let mut checked = 0;
        for g in kalah_games() {
            for holes in 1..=5usize {
                for seeds in 1..=4u32 {
                    if 2 * holes as u32 * seeds > 12 {
                        continue;
                    }
                    let s = start(g, holes, seeds);
                    let want = brute_value(g, &s);
                    assert_eq!(Search::new(g).value(&s), want, "{g:?} {holes}x{seeds}");
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 8 * 11);
    }

    /// Random positions (2 to 5 holes, up to 11 seeds, stores and either side to move) under all
    /// eight option sets: the search agrees with the brute force, both with a fresh table and with
    /// one shared by every position of the option set (so entries left by earlier searches, some of
    /// them only bounds, are reused).
    #[test]
    fn search_matches_brute_force_on_random_positions() {
        let mut rand = crate::util::lcg(0x5eed_a1fa_be7a_0001);
        for g in kalah_games() {
            let mut shared = Search::new(g);
            for _ in 0..100 {
                let holes = 2 + rand(4) as usize;
                let total = rand(12) as u32;
                let p = random_pos(&mut rand, holes, total);
                let want = brute_value(g, &p);
                assert_eq!(Search::new(g).value(&p), want, "{g:?} {}", format(&p));
                assert_eq!(shared.value(&p), want, "{g:?} shared {}", format(&p));
            }
        }
    }

    /// The fail-soft contract of [`Search::future`] under arbitrary windows, narrow and empty
    /// ones included, with one table shared by all the calls: a result at or below alpha bounds F
    /// from above, one at or above beta bounds it from below, one inside the window is F.
    #[test]
    fn search_windows_bound_the_value() {
        let mut rand = crate::util::lcg(0x5eed_a1fa_be7a_0002);
        for g in kalah_games() {
            let mut search = Search::new(g);
            for _ in 0..40 {
                let holes = 2 + rand(3) as usize;
                let total = 1 + rand(12) as u32;
                let p = normalize(g, &random_pos(&mut rand, holes, total));
                let f = brute_value(g, &p) - store_diff(&p);
                for _ in 0..8 {
                    let alpha = rand(2 * total as u64 + 3) as i32 - total as i32 - 1;
                    let beta = alpha + 1 + rand(4) as i32;
                    let v = search.future(&p, alpha, beta);
                    let at = format!(
                        "{g:?} {} window ({alpha}, {beta}): {v}, F = {f}",
                        format(&p)
                    );
                    if v <= alpha {
                        assert!(f <= v, "{at}");
                    } else if v >= beta {
                        assert!(f >= v, "{at}");
                    } else {
                        assert_eq!(f, v, "{at}");
                    }
                }
            }
        }
    }

    /// The search refuses the games whose graphs have cycles, rather than loop.
    #[test]
    #[should_panic(expected = "Kalah only")]
    fn search_is_for_kalah_only() {
        Search::new(RefGame::SanYao);
    }
}
