//! The negamax core: one thread's alpha-beta search over the future value, a node in numbered
//! steps (`Searcher::search` and `Searcher::expand`).

use std::sync::atomic::Ordering;

use super::defer::{put_off, Place};
use super::oracle::OracleSlot;
use super::order::move_order;
use super::shared::{Shared, Stats};
use crate::game::{Child, Children, FixedVec, Game, MAX_MOVES};
use crate::tt::{Entry, Slot, Width};

/// "Not cut against any path position": the cut ply of a path-independent result.
const NO_CUT: u32 = u32::MAX;

/// Nodes between looks at the stop flags (and progress updates).
const POLL_INTERVAL: u64 = 1 << 12;

/// One position on the current search path (cyclic games only).
#[derive(Clone, Copy)]
struct PathEntry {
    key: u128,
    layer: u32,
}

/// What the enhanced transposition cutoff has learnt of one child: from its stake and the oracle
/// before any child is searched, then from its table entry (`Searcher::late_etc`).
#[derive(Clone, Copy)]
struct Known<Q: Copy> {
    /// The child's key and table slot (unset when the oracle answers: it is never searched).
    key: u128,
    slot: Slot<Q>,
    /// Where the oracle keeps this child's value, when it answers for it (the child is then
    /// settled from it, not from the table).
    oracle: Option<OracleSlot>,
    /// Bounds on the child's value for the mover (gain and turn applied).
    lo: i32,
    hi: i32,
}

/// The result of expanding a node.
struct Outcome {
    /// Fail-soft value: `<= alpha` an upper bound, `>= beta` a lower bound, else exact.
    value: i32,
    /// Move index of the best move found, for the table's move hint.
    best: Option<u8>,
    /// The smallest ply of a path position this result was cut against, or `NO_CUT`.
    cut: u32,
    /// Whether the result is worth a table entry (false for finished games: cheaper to redo).
    store: bool,
}

/// The set of a node's children searched so far, one bit per child: as wide as the most moves
/// a position can have.
type Searched = u32;
const _: () = assert!(Searched::BITS as usize >= MAX_MOVES);

/// Why a null-window test ([`Searcher::test`]) gave no bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TestEnd {
    /// Another thread answered the test first (see `Shared::proven`): its bounds stand.
    Moot,
    /// The search's stop flag was raised.
    Stopped,
}

/// One thread's search state. Created per job.
pub(super) struct Searcher<'s, 'a, G: Game, W: Width> {
    pub(super) sh: &'s Shared<'a, G, W>,
    pub(super) stats: Stats,
    pub(super) next_poll: u64,
    /// Nodes already reported to the shared progress counters.
    flushed: u64,
    pub(super) aborted: bool,
    /// The threshold `t` of the null-window test running now ("is `F >= t + 1`?") in a value job,
    /// which the thread gives up when another thread has already answered it.
    test: Option<i32>,
    /// Whether the search was given up for that reason (`aborted` is then set too).
    moot: bool,
    /// This thread's number in the job, from 0.
    pub(super) id: usize,
    /// The positions of the current search path, root first (cyclic games only).
    path: Vec<PathEntry>,
    /// The oracle's highest layer (`Oracle::max_layer`): it is not asked about positions above.
    oracle_top: u32,
}

impl<'s, 'a, G: Game, W: Width> Searcher<'s, 'a, G, W> {
    /// The searcher of thread `id` (from 0) of a job.
    pub(super) fn new(sh: &'s Shared<'a, G, W>, id: usize) -> Self {
        Self {
            sh,
            id,
            stats: Stats::default(),
            next_poll: 0, // look at the flags at the first node: a raised stop flag wins at once
            flushed: 0,
            aborted: false,
            test: None,
            moot: false,
            path: Vec::with_capacity(if G::CAN_CYCLE { 1024 } else { 0 }),
            oracle_top: sh.oracle.map_or(0, |o| o.max_layer()),
        }
    }

    /// Flushes the progress counters and returns this thread's statistics.
    pub(super) fn finish(mut self) -> Stats {
        self.flush();
        self.stats
    }

    /// Reports proven bounds on the job's value, to the other threads and the progress display.
    pub(super) fn prove(&self, lo: i32, hi: i32) {
        self.sh.prove(lo, hi);
        if let Some(p) = self.sh.progress {
            p.narrow(lo, hi);
        }
    }

    /// The bounds on the job's value proven so far by any thread.
    pub(super) fn proven(&self) -> (i32, i32) {
        self.sh.proven()
    }

    /// A search of `pos` as a fresh root with window `(alpha, beta)`, expected to fail low when
    /// `all`; `None` when stopped.
    pub(super) fn root(&mut self, pos: &G, alpha: i32, beta: i32, all: bool) -> Option<i32> {
        self.test = None;
        self.path.clear();
        let key = pos.key();
        let (v, _) = self.search(
            pos,
            key,
            self.sh.tt.slot(key),
            Place::root(all),
            alpha,
            beta,
        );
        (!self.aborted).then_some(v)
    }

    /// The null-window test of a value job: whether `F(pos) > t`, as a fail-soft bound, or why
    /// there is none ([`TestEnd`]). `all`: whether the test is expected to fail low.
    pub(super) fn test(&mut self, pos: &G, t: i32, all: bool) -> Result<i32, TestEnd> {
        self.path.clear();
        self.test = Some(t);
        self.moot = false;
        let key = pos.key();
        let (v, _) = self.search(pos, key, self.sh.tt.slot(key), Place::root(all), t, t + 1);
        self.test = None;
        if self.moot {
            self.aborted = false;
            self.moot = false;
            return Err(TestEnd::Moot);
        }
        if self.aborted {
            Err(TestEnd::Stopped)
        } else {
            Ok(v)
        }
    }

    fn flush(&mut self) {
        let fresh = self.stats.nodes - self.flushed;
        self.flushed = self.stats.nodes;
        if let Some(p) = self.sh.progress {
            p.add_nodes(fresh);
        }
        if self.sh.grow_after != u64::MAX
            && self.sh.nodes.fetch_add(fresh, Ordering::Relaxed) + fresh > self.sh.grow_after
        {
            self.sh.outgrown.store(true, Ordering::Relaxed);
        }
    }

    #[cold]
    pub(super) fn poll(&mut self) {
        self.next_poll = self.stats.nodes + POLL_INTERVAL;
        self.flush();
        if self.sh.done.load(Ordering::Relaxed)
            || self.sh.stop.is_raised()
            || self.sh.outgrown.load(Ordering::Relaxed)
            || self.sh.oracle.is_some_and(|o| o.fault().is_some())
        {
            self.aborted = true;
        } else if let Some(t) = self.test {
            let (lo, hi) = self.sh.proven();
            if lo > t || hi <= t {
                self.aborted = true;
                self.moot = true;
            }
        }
    }

    #[inline]
    pub(super) fn probe(&mut self, slot: Slot<W::Quotient>) -> Option<Entry> {
        self.stats.probes += 1;
        let e = self.sh.tt.probe_at(slot);
        self.stats.hits += u64::from(e.is_some());
        e
    }

    /// Fail-soft alpha-beta on the future value of `pos` (whose key is `key`, in table slot
    /// `slot`) at `at`. Returns the value and the cut ply (see the module docs of `search`).
    fn search(
        &mut self,
        pos: &G,
        key: u128,
        slot: Slot<W::Quotient>,
        at: Place,
        alpha: i32,
        beta: i32,
    ) -> (i32, u32) {
        // Step 1. Count the node; now and then, look at the stop flags.
        self.stats.nodes += 1;
        if self.stats.nodes >= self.next_poll {
            self.poll();
        }
        if self.aborted {
            return (0, NO_CUT);
        }

        // Step 2. Clamp the window to what the position can still reach (Pons): |F| <= stake.
        let stake = pos.stake();
        if alpha >= stake {
            return (stake, NO_CUT);
        }
        if beta <= -stake {
            return (-stake, NO_CUT);
        }
        let (mut alpha, mut beta) = (alpha.max(-stake), beta.min(stake));

        // Steps 6 and 7's first half, early (`Game::EARLY_CHILDREN`): the children, their oracle
        // slots and table entries prefetched before the node's own entry is read (step 3), so
        // that its wait overlaps theirs. (A node the oracle answers in step 4 has generated its
        // children for nothing; only a root can be one: a child in the tables is settled by its
        // parent and never searched.)
        let mut children = Children::new();
        let mut etc: FixedVec<Known<W::Quotient>> = FixedVec::new();
        if G::EARLY_CHILDREN && !self.generate(pos, &mut children, &mut etc) {
            return (0, NO_CUT);
        }

        // Step 3. Transposition table: a stored bound may settle the node. The bounds are true
        // bounds on F, so in acyclic games they also narrow the window; in cyclic games that could
        // blend F with a path-dependent value, so there they are used for cutoffs only.
        let mut tt_move = None;
        if let Some(e) = self.probe(slot) {
            tt_move = e.best;
            if e.lower >= beta || e.lower == e.upper {
                return (e.lower, NO_CUT);
            }
            if e.upper <= alpha {
                return (e.upper, NO_CUT);
            }
            if !G::CAN_CYCLE {
                alpha = alpha.max(e.lower);
                beta = beta.min(e.upper);
            }
        }

        // Step 4. Oracle (endgame tables): exact, so it settles the node whatever the window.
        if let Some(oracle) = self.sh.oracle.filter(|_| pos.layer() <= self.oracle_top) {
            let answer = oracle.probe(pos);
            self.stats.oracle_probes += 1;
            self.stats.oracle_hits += u64::from(answer.is_some());
            if let Some(v) = answer {
                debug_assert!(v.abs() <= stake, "oracle value {v} beyond stake {stake}");
                self.sh.tt.store_at(
                    slot,
                    Entry {
                        lower: v,
                        upper: v,
                        best: None,
                        work: 0,
                    },
                );
                return (v, NO_CUT);
            }
        }

        if !G::EARLY_CHILDREN && !self.generate(pos, &mut children, &mut etc) {
            return (0, NO_CUT);
        }

        // Step 5. Repetition: a position already on the path (necessarily in this layer) starts
        // an infinite play, worth 0, and makes every result above it depend on the path.
        if G::CAN_CYCLE {
            let layer = pos.layer();
            for (i, e) in self.path.iter().enumerate().rev() {
                if e.layer != layer {
                    break;
                }
                if e.key == key {
                    return (0, i as u32);
                }
            }
            debug_assert_eq!(self.path.len(), at.ply as usize);
            self.path.push(PathEntry { key, layer });
        }

        let nodes_before = self.stats.nodes;
        let out = self.expand(
            children.as_slice(),
            etc.as_mut_slice(),
            key,
            at,
            alpha,
            beta,
            tt_move,
        );
        if G::CAN_CYCLE {
            self.path.pop();
        }
        if self.aborted {
            return (0, NO_CUT);
        }
        let value = out.value.clamp(-stake, stake);
        // A cut against this very node (a cycle back to it) is a fresh-search result from here.
        let cut = if out.cut >= at.ply { NO_CUT } else { out.cut };

        // Step 10. Store. A path-dependent result only leaves its move as an ordering hint.
        if out.store {
            let e = if cut != NO_CUT {
                Entry {
                    lower: -stake,
                    upper: stake,
                    best: out.best,
                    work: 0,
                }
            } else {
                let work = Entry::work_of(self.stats.nodes - nodes_before);
                let (lower, upper) = if value <= alpha {
                    (-stake, value)
                } else if value >= beta {
                    (value, stake)
                } else {
                    (value, value)
                };
                Entry {
                    lower,
                    upper,
                    best: out.best,
                    work,
                }
            };
            self.sh.tt.store_at(slot, e);
        }
        (value, cut)
    }

    /// Step 6, and step 7's first half: generates the children of `pos` into `children` and
    /// fills `etc` with their oracle slots, keys and table slots, prefetching both. False when
    /// the stop flag was raised inside the move generation (`aborted` is then set).
    fn generate(
        &mut self,
        pos: &G,
        children: &mut Children<G>,
        etc: &mut FixedVec<Known<W::Quotient>>,
    ) -> bool {
        // Step 6. Generate the children.
        if pos.children_until(children, self.sh.stop).is_err() {
            self.aborted = true;
            return false;
        }
        let kids = children.as_slice();

        // Step 7, first half: the oracle's slots and the table's entries of the children are
        // only prefetched here; they are read in `expand`, the table's after the first child's
        // search (see `late_etc`).
        // Last child first: games list their moves so that the last ones are usually searched
        // first (`Game::order_hint`), and their entries get the longest head start.
        etc.fill_rev(kids.len(), |i| {
            let c = &kids[i];
            // A child the oracle answers is never probed or searched: no key, no slot.
            let top = self.oracle_top;
            let oracle = self
                .sh
                .oracle
                .filter(|_| c.next.layer() <= top)
                .and_then(|o| o.prefetch(&c.next));
            let (key, slot) = if oracle.is_some() {
                (0, Slot::default())
            } else {
                let key = c.next.key();
                let slot = self.sh.tt.slot(key);
                self.sh.tt.prefetch(slot);
                (key, slot)
            };
            Known {
                key,
                slot,
                oracle,
                lo: 0,
                hi: 0,
            }
        });
        true
    }

    /// Steps 7 to 9: the children of a node the table could not settle (`kids`, with what
    /// [`Searcher::generate`] found of them in `etc`).
    #[allow(clippy::too_many_arguments)]
    fn expand(
        &mut self,
        kids: &[Child<G>],
        etc: &mut [Known<W::Quotient>],
        key: u128,
        at: Place,
        mut alpha: i32,
        beta: i32,
        tt_move: Option<u8>,
    ) -> Outcome {
        let n = kids.len();
        if n == 0 {
            return Outcome {
                value: 0,
                best: None,
                cut: NO_CUT,
                store: false,
            };
        }

        // Step 7. Enhanced transposition cutoff, first half: bound every child's value (from the
        // mover's side) by its stake, or fix it by the oracle, before searching any. One child
        // proven >= beta settles the node, and so do children all proven <= alpha. Table and
        // oracle bounds are true bounds on F, so these results are path-independent even in
        // cyclic games.
        if self.sh.oracle.is_some() {
            // Counted here, not where the slots were found: a node the table settled after its
            // children were generated (`Game::EARLY_CHILDREN`) asked nothing, so both orders
            // report the same probes.
            let top = self.oracle_top;
            self.stats.oracle_probes +=
                kids.iter().filter(|c| c.next.layer() <= top).count() as u64;
            self.stats.oracle_hits += etc.iter().filter(|k| k.oracle.is_some()).count() as u64;
        }
        let mut max_hi = i32::MIN;
        for (c, k) in kids.iter().zip(etc.iter_mut()) {
            let s = c.next.stake();
            let (mut flo, mut fhi) = (-s, s);
            if let Some(v) = k
                .oracle
                .and_then(|at| self.sh.oracle.map(|o| o.probe_at(&c.next, at)))
            {
                (flo, fhi) = (v, v);
            }
            let (a, b) = if c.turn_passed {
                (c.gain - fhi, c.gain - flo)
            } else {
                (c.gain + flo, c.gain + fhi)
            };
            if a >= beta {
                let best = Some(G::move_index(c.mv));
                return Outcome {
                    value: a,
                    best,
                    cut: NO_CUT,
                    store: true,
                };
            }
            k.lo = a;
            k.hi = b;
            max_hi = max_hi.max(b);
        }
        if max_hi <= alpha {
            return Outcome {
                value: max_hi,
                best: tt_move,
                cut: NO_CUT,
                store: true,
            };
        }

        // Step 8. Order the moves: the table's move; then moves that keep the turn; then by
        // what is known of the children's values (which includes their gains); then by the
        // game's order hint; remaining ties keep `children()` order (see `order::move_order`).
        let order = move_order(kids, tt_move, |i, c| {
            // The child's gain pulled into what is known of its value (stake, oracle):
            // children proven good come early, proven bad late. (It beat the midpoint of the
            // known interval; the game's estimate on top of the gain, which helps the heuristic
            // look-ahead, made the exact tree larger.)
            c.gain.clamp(etc[i].lo, etc[i].hi)
        });

        // Step 9. Search the children. With several threads, a child another thread is searching
        // right now is put off until the others are done: by then its value is likely in the table.
        let defer = self.sh.threads > 1 && at.ply < self.sh.defer_ply;
        if defer {
            self.sh.busy.mark(key, true);
        }
        let mut best = i32::MIN;
        let mut best_i = None;
        let mut cut = NO_CUT;
        let mut deferred = [0u8; MAX_MOVES];
        let mut n_deferred = 0;
        // Bit i: child i has been searched.
        let mut searched: Searched = 0;
        let mut read_entries = false;
        for pass in 0..2 {
            let len = if pass == 0 { n } else { n_deferred };
            for j in 0..len {
                if !read_entries && (j > 0 || pass == 1) {
                    read_entries = true;
                    if let Some((v, i)) = self.late_etc(kids, etc, searched, beta) {
                        if defer {
                            self.sh.busy.mark(key, false);
                        }
                        return Outcome {
                            value: v,
                            best: Some(G::move_index(kids[i].mv)),
                            cut: NO_CUT,
                            store: true,
                        };
                    }
                }
                let i = usize::from(if pass == 0 { order[j] } else { deferred[j] });
                let k = etc[i];
                if k.hi <= alpha {
                    // Cannot raise alpha: its upper bound keeps the fail-soft value honest.
                    best = best.max(k.hi);
                    continue;
                }
                // A child another thread is in waits for the second pass (`defer::put_off`).
                if pass == 0
                    && defer
                    && put_off(
                        at,
                        j,
                        self.id,
                        self.sh.defer_first_ply,
                        self.sh.head_start_ply,
                        k.lo < k.hi,
                        || self.sh.busy.is_busy(k.key),
                    )
                {
                    deferred[n_deferred] = i as u8;
                    n_deferred += 1;
                    continue;
                }
                searched |= 1 << i;
                let (v, c) = self.child(&kids[i], k.key, k.slot, k.lo, k.hi, at, alpha, beta);
                if self.aborted {
                    break;
                }
                cut = cut.min(c);
                if v > best {
                    best = v;
                    best_i = Some(i);
                    if v > alpha {
                        alpha = v;
                        if alpha >= beta {
                            break;
                        }
                    }
                }
            }
            if alpha >= beta || self.aborted {
                break;
            }
        }
        if defer {
            self.sh.busy.mark(key, false);
        }
        let best_mv = best_i.map(|i| G::move_index(kids[i].mv)).or(tt_move);
        Outcome {
            value: best,
            best: best_mv,
            cut,
            store: true,
        }
    }

    /// Step 7, second half: narrows the bounds of every child not searched yet (bit `i` of
    /// `searched`) by its table entry, and returns the value and index of one proven `>= beta`,
    /// which settles the node.
    ///
    /// The entries were prefetched when the children were generated. Read there and then, each
    /// read would wait for memory with nothing else to do; read after the first child's search,
    /// they have mostly arrived, and most nodes never get here: a cut node is usually refuted by
    /// its first child, which probes its own entry when it is searched. A transposition that
    /// would have cut before the first child now costs that child's search, so the tree grows,
    /// but the search is faster (docs/performance.md).
    fn late_etc(
        &mut self,
        kids: &[Child<G>],
        etc: &mut [Known<W::Quotient>],
        searched: Searched,
        beta: i32,
    ) -> Option<(i32, usize)> {
        for (i, (c, k)) in kids.iter().zip(etc.iter_mut()).enumerate() {
            if k.oracle.is_some() || k.lo == k.hi || searched & (1 << i) != 0 {
                continue;
            }
            let Some(e) = self.probe(k.slot) else {
                continue;
            };
            let (a, b) = if c.turn_passed {
                (c.gain - e.upper, c.gain - e.lower)
            } else {
                (c.gain + e.lower, c.gain + e.upper)
            };
            k.lo = k.lo.max(a);
            k.hi = k.hi.min(b);
            if k.lo >= beta {
                return Some((k.lo, i));
            }
        }
        None
    }

    /// The value of one child from the mover's side, searched with the window `(alpha, beta)`
    /// translated through the child's gain and turn. `lo..=hi` are its known bounds.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn child(
        &mut self,
        c: &Child<G>,
        key: u128,
        slot: Slot<W::Quotient>,
        lo: i32,
        hi: i32,
        at: Place,
        alpha: i32,
        beta: i32,
    ) -> (i32, u32) {
        if lo == hi {
            return (lo, NO_CUT);
        }
        if c.turn_passed {
            let (r, cut) = self.search(
                &c.next,
                key,
                slot,
                at.child(true),
                c.gain - beta,
                c.gain - alpha,
            );
            (c.gain - r, cut)
        } else {
            let (r, cut) = self.search(
                &c.next,
                key,
                slot,
                at.child(false),
                alpha - c.gain,
                beta - c.gain,
            );
            (c.gain + r, cut)
        }
    }
}
