//! The MTD(f) driver: one thread's share of a job, a sequence of null-window tests that pins the
//! value down.

use super::config::SearchConfig;
use super::node::{Searcher, TestEnd};
use super::shared::Job;
use crate::game::Game;
use crate::tt::Width;

/// One thread's share of a job; `None` when it was stopped.
pub(super) fn run_job<G: Game, W: Width>(
    s: &mut Searcher<'_, '_, G, W>,
    job: Job<G>,
    cfg: &SearchConfig,
) -> Option<i32> {
    match job {
        // Fail-soft: `r >= t` proves `F >= r`, `r < t` proves `F <= r`.
        Job::AtLeast(pos, t, all) => s.root(&pos, t - 1, t, all),
        Job::Guess(pos) => s.shared_guess(&pos, cfg.guess_depth),
        Job::Exact(pos, mut lo, mut hi) | Job::Floor(pos, mut lo, mut hi) => {
            let floor = matches!(job, Job::Floor(..));
            // MTD(f)-style null-window tests: the first asks whether the mover takes the whole
            // stake, the second whether the position reaches the heuristic guess (or, for small
            // stakes, the first asks whether it is won, F >= 1); after that each test sits
            // at the bound just proved (fail-soft results often land on the value itself), so
            // the proof that ends the search comes next. If the bound keeps creeping one way
            // (`SearchConfig::bisect_after`), bisect instead, to bound the number of passes.
            if lo >= hi {
                return Some(lo);
            }
            // The first test asks whether the mover takes the whole stake still in play. It is
            // nearly free when the answer is no (one opponent move that wins anything refutes
            // it), and when the answer is yes it ends the search before the look-ahead, which on
            // boards such as Dakon 9x9 costs more than the whole proof.
            let look_ahead = pos.stake() >= cfg.guess_min_stake;
            let mut top_tested = !look_ahead;
            let mut med = if look_ahead {
                hi - 1
            } else {
                0.clamp(lo, hi - 1)
            };
            let mut run = 0;
            let mut last_high = None;
            loop {
                // A test after one that failed high is expected to fail low: there every move
                // of the side to move must be refuted (see `SearchConfig::defer_first_ply`).
                let high = match s.test(&pos, med, last_high == Some(true)) {
                    Ok(r) => {
                        if r > med {
                            lo = r.min(hi);
                        } else {
                            hi = r.max(lo);
                        }
                        s.prove(lo, hi);
                        r > med
                    }
                    // Another thread answered this test: go on from its bounds.
                    Err(TestEnd::Moot) => s.proven().0 > med,
                    Err(TestEnd::Stopped) => return None,
                };
                let (l, h) = s.proven();
                (lo, hi) = (lo.max(l), hi.min(h));
                if lo >= hi {
                    break;
                }
                if !top_tested {
                    // A heuristic look-ahead next (`SearchConfig::guess_depth`): move hints for
                    // the top of the tree, and a guess to test instead of 0.
                    top_tested = true;
                    med = (s.shared_guess(&pos, cfg.guess_depth)? - 1).clamp(lo, hi - 1);
                    continue;
                }
                if floor && high {
                    return Some(lo);
                }
                run = if last_high == Some(high) { run + 1 } else { 0 };
                last_high = Some(high);
                med = if run >= cfg.bisect_after {
                    lo + (hi - lo).div_euclid(2)
                } else if high {
                    lo
                } else {
                    hi - 1
                };
            }
            Some(lo)
        }
    }
}
