//! The rules of the five games, and the sowing machinery they share.
//!
//! Each game lives in its own file and implements [`Rules`]: which pits may be sown, how a turn
//! sows and captures, and how the game ends or passes when the side to move cannot move. What the
//! games share is written once here:
//!
//! - `lap_with_store`: one lap round the pits *and the mover's own store* (Kalah, Dakon);
//! - `lap_ring`: one lap round the `2n` pits only (Djenon-aboure, Walak-pussa, San-Yao);
//! - `relay`: a chain of laps with exact endless-sowing detection (Brent's cycle finding, no
//!   cap on laps, docs/rules.md §2.9);
//! - the end-of-game settlements (each side takes its own row; one side takes everything).

mod dakon;
mod djenon_aboure;
mod kalah;
mod names;
mod san_yao;
mod walak_pussa;

pub use names::ALIASES;

pub use dakon::Dakon;
pub use djenon_aboure::DjenonAboure;
pub use kalah::Kalah;
pub use kalah::KalahWord;
pub(crate) use kalah::{rotate, with_word_size, WordMove};
pub use san_yao::SanYao;
pub use walak_pussa::WalakPussa;

use crate::board::Board;
use crate::board::{Pits, Ring, Side};
use std::fmt::Debug;
use std::hash::Hash;
use std::sync::atomic::{AtomicBool, Ordering};

/// The five games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// Kalah (§3).
    Kalah,
    /// Dakon (§4).
    Dakon,
    /// Djenon-aboure (§5).
    DjenonAboure,
    /// Walak-pussa (§6).
    WalakPussa,
    /// San-Yao (§7).
    SanYao,
}

impl GameKind {
    /// All games, in docs/rules.md order.
    pub const ALL: [GameKind; 5] = [
        GameKind::Kalah,
        GameKind::Dakon,
        GameKind::DjenonAboure,
        GameKind::WalakPussa,
        GameKind::SanYao,
    ];

    /// The command-line name (`kalah`, `dakon`, `djenon-aboure`, `walak-pussa`, `san-yao`).
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Kalah => "kalah",
            GameKind::Dakon => "dakon",
            GameKind::DjenonAboure => "djenon-aboure",
            GameKind::WalakPussa => "walak-pussa",
            GameKind::SanYao => "san-yao",
        }
    }

    /// The allowed holes per row (docs/rules.md §2.11).
    pub const fn holes_range(self) -> (u8, u8) {
        match self {
            GameKind::Kalah => (1, 8),
            GameKind::Dakon => (3, 10),
            GameKind::DjenonAboure | GameKind::WalakPussa | GameKind::SanYao => (2, 9),
        }
    }

    /// The default holes per row.
    pub const fn default_holes(self) -> u8 {
        match self {
            GameKind::Kalah | GameKind::DjenonAboure => 6,
            GameKind::Dakon | GameKind::WalakPussa => 7,
            GameKind::SanYao => 5,
        }
    }

    /// The default seeds per hole for a board of `holes` holes.
    pub const fn default_seeds(self, holes: u8) -> u8 {
        match self {
            GameKind::Kalah | GameKind::DjenonAboure | GameKind::WalakPussa => 4,
            GameKind::Dakon => holes,
            GameKind::SanYao => 5,
        }
    }

    /// The allowed seeds per hole for a board of `holes` holes. docs/rules.md allows Kalah more than
    /// 8; we allow as many as keep the board within [`crate::board::MAX_BOARD_SEEDS`].
    pub const fn seeds_range(self, holes: u8) -> (u8, u8) {
        match self {
            GameKind::Kalah => {
                let most = crate::board::MAX_BOARD_SEEDS / (2 * holes as u32);
                (1, if most > 8 { most as u8 } else { 8 })
            }
            GameKind::Dakon => (1, 10),
            GameKind::DjenonAboure | GameKind::WalakPussa | GameKind::SanYao => (1, 8),
        }
    }

    /// The game's rule options ([`Rules::OPTIONS`]).
    pub const fn options(self) -> &'static [RuleOption] {
        match self {
            GameKind::Kalah => Kalah::OPTIONS,
            GameKind::Dakon => Dakon::OPTIONS,
            GameKind::DjenonAboure => DjenonAboure::OPTIONS,
            GameKind::WalakPussa => WalakPussa::OPTIONS,
            GameKind::SanYao => SanYao::OPTIONS,
        }
    }

    /// The name as a title: `Kalah`, `Djenon-aboure`, ...
    pub const fn title(self) -> &'static str {
        match self {
            GameKind::Kalah => "Kalah",
            GameKind::Dakon => "Dakon",
            GameKind::DjenonAboure => "Djenon-aboure",
            GameKind::WalakPussa => "Walak-pussa",
            GameKind::SanYao => "San-Yao",
        }
    }

    /// Whether the game has sown stores (Kalah, Dakon) rather than capture tallies.
    pub const fn has_stores(self) -> bool {
        matches!(self, GameKind::Kalah | GameKind::Dakon)
    }
}

/// A rule option of one game (docs/rules.md §2.12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RuleOption {
    /// Its name: the command-line flag without the dashes (`--empty-capture`), and the word in a
    /// variant's name (`kalah+empty-capture`) and in table identities.
    pub name: &'static str,
    /// What it changes, in one line (the flag's help).
    pub help: &'static str,
}

/// How a sowing ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnEnd {
    /// The turn passes to the opponent.
    Passes,
    /// The last seed landed in the mover's store: the mover moves again.
    ExtraTurn,
}

/// A sowing that never ends (docs/rules.md §2.9): the move is illegal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Endless;

/// Why a candidate pit may not be sown (besides an endless sowing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotCandidate {
    /// The pit is empty.
    Empty,
    /// Djenon-aboure: the pit holds a single seed.
    Single,
    /// Walak-pussa with `singleton-restriction`: a singleton while a pit holds two or more.
    SingletonRestricted,
}

/// One game's rules, with its options as fields.
///
/// The contract between the position code and a game:
/// - [`Rules::candidate`] says whether the side to move may sow a pit;
/// - [`Rules::sow`] plays the sowing and its captures on a copy of the board, or reports it as
///   endless (the copy is then thrown away);
/// - [`Rules::settle`] applies the end-of-game checks and the no-move rule after every move and
///   to every position read from the user, so that every position handed out is normalised
///   (docs/rules.md §2.5–§2.7).
pub trait Rules: Copy + Eq + Hash + Debug + Send + Sync + 'static {
    /// Which game this is.
    const KIND: GameKind;
    /// Whether positions can recur across turns or a sowing can be endless (docs/rules.md §8.1).
    const CAN_CYCLE: bool;

    /// Whether `side` may sow `pit` (one of its own pits) on `board`, endlessness aside.
    fn candidate(&self, board: &Board, side: Side, pit: usize) -> Result<(), NotCandidate>;

    /// Sows `pit` for `side`, with all relays and captures. Stores/tallies are updated; `to_move`
    /// is not touched.
    fn sow(&self, board: &mut Board, side: Side, pit: usize) -> Result<TurnEnd, Endless>;

    /// Applies the game's end and no-move rules to a board whose `to_move` is the player due to
    /// move next (docs/rules.md §2.7 steps 3–4).
    fn settle(&self, board: &mut Board);

    /// The game's rule options (docs/rules.md §2.12), in a fixed order: the one place their names
    /// are spelled. The command line makes a flag of each, the run-time variants parse
    /// and print them, and table identities list them.
    const OPTIONS: &'static [RuleOption];

    /// Whether option `OPTIONS[i]` is on. A game without options keeps the default.
    fn option(&self, i: usize) -> bool {
        let _ = i;
        false
    }

    /// Switches option `OPTIONS[i]` on or off. A game without options keeps the default (there
    /// is no `i` to call it with).
    fn set_option(&mut self, i: usize, on: bool) {
        let _ = (i, on);
    }

    /// The options that are switched on, by name, in [`Rules::OPTIONS`] order.
    fn option_names(&self) -> Vec<&'static str> {
        let on = Self::OPTIONS.iter().enumerate();
        on.filter(|&(i, _)| self.option(i))
            .map(|(_, o)| o.name)
            .collect()
    }

    /// A one-word move generator for these rules on `holes` holes, when the game has one (Kalah
    /// on up to 7 holes: [`KalahWord`]). The search and the table builder then sow whole boards
    /// as one 128-bit word; the tests check it against [`Rules::sow`].
    fn word_generator(&self, holes: u8) -> Option<KalahWord> {
        let _ = holes;
        None
    }

    /// A guess at the future value for the side to move, from its row `mine` and the opponent's
    /// row `theirs` (each in sowing order): the search's heuristic look-ahead scores its horizon
    /// with it ([`solver::Game::estimate`]). Only a guess, so any answer is safe; the default 0
    /// means "no idea".
    fn estimate(&self, mine: &[u8], theirs: &[u8]) -> i32 {
        let _ = (mine, theirs);
        0
    }
}

/// The usual candidate rule: any non-empty own pit (Kalah, Dakon, San-Yao).
#[inline]
pub(crate) fn any_seeds(board: &Board, pit: usize) -> Result<(), NotCandidate> {
    if board.pits.get(pit) == 0 {
        Err(NotCandidate::Empty)
    } else {
        Ok(())
    }
}

/// Where a lap of a store game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Landing {
    /// In the mover's own store.
    Store,
    /// In pit `L`.
    Pit(usize),
}

/// The pits a sowing steps through: the whole ring ([`Ring`], every pit open), or the ring
/// without its burnt pits ([`OpenRing`], a later round of a match, docs/rules.md §13.1). The sowing
/// code is written once over this trait; a game picks the track once per turn, so a board with
/// every pit open runs the same code as before there were statuses.
pub(crate) trait Track: Copy {
    /// Whether no pit is ever burnt (the plain [`Ring`]), so its laps may use [`lap_ring`].
    const ALL_OPEN: bool;
    /// The physical ring (for `opposite`, rows and owners, which stay physical).
    fn ring(self) -> Ring;
    /// Whether pit `i` is out of the ring.
    fn is_burnt(self, i: usize) -> bool;
    /// The number of pits in the ring (open pits).
    fn open_len(self) -> usize;
    /// The next open pit after `i` in sowing order.
    fn next(self, i: usize) -> usize;
    /// Adds `v` to every open pit (whole circuits of a long lap).
    fn add_all(self, pits: &mut Pits, v: u8);
}

impl Track for Ring {
    const ALL_OPEN: bool = true;
    #[inline(always)]
    fn ring(self) -> Ring {
        self
    }
    #[inline(always)]
    fn is_burnt(self, _i: usize) -> bool {
        false
    }
    #[inline(always)]
    fn open_len(self) -> usize {
        self.len()
    }
    #[inline(always)]
    fn next(self, i: usize) -> usize {
        Ring::next(self, i)
    }
    #[inline(always)]
    fn add_all(self, pits: &mut Pits, v: u8) {
        pits.add_all(self.len(), v);
    }
}

/// The ring without its burnt pits (bit `i` of `burnt`: pit `i` is out). At least one pit is
/// open whenever anything is sown: the pit sown from.
#[derive(Clone, Copy, Debug)]
pub(crate) struct OpenRing {
    ring: Ring,
    burnt: u32,
}

impl OpenRing {
    /// The open ring of `board`.
    #[inline]
    pub(crate) fn of(board: &Board) -> OpenRing {
        OpenRing {
            ring: board.ring(),
            burnt: board.burnt,
        }
    }
}

impl Track for OpenRing {
    const ALL_OPEN: bool = false;
    #[inline(always)]
    fn ring(self) -> Ring {
        self.ring
    }
    #[inline(always)]
    fn is_burnt(self, i: usize) -> bool {
        self.burnt >> i & 1 == 1
    }
    #[inline]
    fn open_len(self) -> usize {
        self.ring.len() - self.burnt.count_ones() as usize
    }
    #[inline]
    fn next(self, i: usize) -> usize {
        let mut j = self.ring.next(i);
        while self.is_burnt(j) {
            j = self.ring.next(j);
        }
        j
    }
    #[inline]
    fn add_all(self, pits: &mut Pits, v: u8) {
        for i in 0..self.ring.len() {
            if !self.is_burnt(i) {
                pits.add(i, v);
            }
        }
    }
}

/// Sows `count` seeds one per position, starting at the position after pit `from`, round the
/// `2n` pits and `side`'s own store (the opponent's store is skipped: it is not a step).
///
/// ```text
///        North's store                      South's store
///   ... p[2n-1] |SN| p[0] p[1] ... p[n-1] |SS| p[n] ...     (South sows SS, skips SN)
/// ```
///
/// Whole circuits of `2n + 1` positions are added at once; the origin is not skipped.
#[inline]
pub(crate) fn lap_with_store(board: &mut Board, side: Side, from: usize, count: u32) -> Landing {
    let ring = board.ring();
    lap_with_store_on(ring, board, side, from, count)
}

/// [`lap_with_store`] on `track`: burnt pits are passed over, and the own store keeps its place
/// after the last pit of the mover's row, burnt or not (docs/rules.md §13.1).
#[inline]
pub(crate) fn lap_with_store_on<T: Track>(
    track: T,
    board: &mut Board,
    side: Side,
    from: usize,
    count: u32,
) -> Landing {
    let ring = track.ring();
    let len = ring.len();
    let store_after = ring.row(side).end - 1;
    let circuit = track.open_len() as u32 + 1;
    let mut left = count;
    if left >= circuit {
        let q = left / circuit;
        track.add_all(&mut board.pits, q as u8);
        board.stores[side.index()] += q as u16;
        left -= q * circuit;
        if left == 0 {
            return Landing::Pit(from);
        }
    }
    // The cursor is a pit index, or `len` standing for the own store.
    let mut at = from;
    loop {
        at = if at == store_after {
            len
        } else if at == len {
            ring.next(store_after)
        } else {
            ring.next(at)
        };
        if at != len && track.is_burnt(at) {
            continue;
        }
        if at == len {
            board.stores[side.index()] += 1;
        } else {
            board.pits.add(at, 1);
        }
        left -= 1;
        if left == 0 {
            return if at == len {
                Landing::Store
            } else {
                Landing::Pit(at)
            };
        }
    }
}

/// Sows `count >= 1` seeds one per pit round the `2n` pits, the first into pit `start`, and
/// returns the pit of the last seed. Whole circuits are added at once; nothing is skipped.
#[inline]
pub(crate) fn lap_ring(pits: &mut Pits, ring: Ring, start: usize, count: u32) -> usize {
    debug_assert!(count >= 1);
    let len = ring.len();
    let q = count / len as u32;
    let r = (count % len as u32) as usize;
    if q > 0 {
        pits.add_all(len, q as u8);
    }
    let mut at = start;
    for _ in 0..r {
        pits.add(at, 1);
        at = ring.next(at);
    }
    // The last seed went into the pit before `at` (r > 0), or into the pit before `start` after
    // whole circuits only (r == 0): both are `start + count - 1` modulo the ring.
    (start + count as usize - 1) % len
}

/// [`lap_ring`] on `track`: sows `count >= 1` seeds one per open pit, the first into the open
/// pit `start`, and returns the pit of the last seed.
#[inline]
pub(crate) fn lap_track<T: Track>(pits: &mut Pits, track: T, start: usize, count: u32) -> usize {
    debug_assert!(count >= 1 && !track.is_burnt(start));
    let len = track.open_len() as u32;
    let q = count / len;
    let mut r = count % len;
    if q > 0 {
        track.add_all(pits, q as u8);
    }
    if r == 0 {
        // Whole circuits only: the last seed went into the open pit before `start`.
        let mut last = start;
        while track.next(last) != start {
            last = track.next(last);
        }
        return last;
    }
    let mut at = start;
    loop {
        pits.add(at, 1);
        r -= 1;
        if r == 0 {
            return at;
        }
        at = track.next(at);
    }
}

/// What a lap of a relay game decided at its end.
pub(crate) enum LapEnd {
    /// Lift this pit and sow another lap.
    Relay(usize),
    /// The sowing is over (the payload is whatever the game needs: the last pit, usually).
    Stop(usize),
}

/// Runs laps from the lap-boundary state (`pits`, lifting `lift`) until one stops, or proves the
/// sowing endless.
///
/// Sowing is deterministic and its lap-boundary state is (board, pit to lift), so it is endless
/// exactly when that state repeats (docs/rules.md §2.9). Brent's algorithm finds a repetition with
/// O(1) memory: keep a saved state, compare every new state with it, and move it to the current
/// state whenever the count since the last move reaches the next power of two. Once the saved
/// state lies on the cycle and the power exceeds the cycle length, the next circuit meets it.
/// No cap on laps: a finite sowing always stops before any state repeats.
#[inline]
pub(crate) fn relay(
    pits: &mut Pits,
    lift: usize,
    lap: impl FnMut(&mut Pits, usize) -> LapEnd,
) -> Result<usize, Endless> {
    relay_from(Brent::new(), pits, lift, lap)
}

/// Raised to make the relay sowings in progress give up (see [`give_up_sowings`]).
static GIVE_UP: AtomicBool = AtomicBool::new(false);

/// The unwinding payload of a relay sowing that gave up because [`give_up_sowings`] asked it to.
#[derive(Debug)]
pub struct SowingAbandoned;

/// Asks every relay sowing in progress, and every one started until this is called again with
/// `false`, to give up after at most about a million more laps, by unwinding with a
/// [`SowingAbandoned`] payload (`std::panic::resume_unwind`: no panic message). A sowing of a
/// cyclic game can run billions of laps before it ends or repeats (docs/rules.md §2.9), longer
/// than any time limit, and has no other way out; so a caller that abandons a whole computation
/// (past a deadline) raises this and catches the unwind. Nothing wrong is ever computed: the
/// sowing and whatever was waiting on it are dropped, and what finished before stays valid.
/// Process-wide, for one abandoned computation at a time.
pub fn give_up_sowings(on: bool) {
    GIVE_UP.store(on, Ordering::Relaxed);
}

/// [`relay`] with Brent's counters as `brent` says (the saved state is the one given): so that a
/// test can run the real loop, on a synthetic lap, from where the counters stand after billions
/// of laps (a relay that long takes hours). `relay` passes fresh counters; inlined, that costs
/// nothing measurable (a Walak-pussa build and solve: the same time within the 3 % noise).
#[inline(always)]
fn relay_from(
    mut brent: Brent,
    pits: &mut Pits,
    mut lift: usize,
    mut lap: impl FnMut(&mut Pits, usize) -> LapEnd,
) -> Result<usize, Endless> {
    let mut saved = (*pits, lift);
    loop {
        match lap(pits, lift) {
            LapEnd::Stop(l) => return Ok(l),
            LapEnd::Relay(next) => lift = next,
        }
        if lift == saved.1 && *pits == saved.0 {
            return Err(Endless);
        }
        if brent.tick() {
            saved = (*pits, lift);
        } else if brent.at_checkpoint() && GIVE_UP.load(Ordering::Relaxed) {
            std::panic::resume_unwind(Box::new(SowingAbandoned));
        }
    }
}

/// The lap counters of Brent's algorithm in [`relay`]: when to move the saved state.
///
/// They are `u64`. With 255 seeds the lap-boundary states of a relay game far exceed 2^32, so a
/// sowing can run more than 2^32 laps before its state repeats; 32-bit counters would overflow
/// there (in release builds `power` would wrap to 0, the saved state would never move again,
/// and a cycle not through it would never be found). A `u64` `power` doubles from 1, so it
/// overflows only after more than 2^63 laps: centuries at a nanosecond a lap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Brent {
    /// The current power of two: the saved state moves after this many laps.
    power: u64,
    /// Laps since the saved state last moved.
    steps: u64,
}

impl Brent {
    pub(crate) fn new() -> Self {
        Brent { power: 1, steps: 0 }
    }

    /// Whether the count since the saved state moved is a whole number of 2^20 laps: where a long
    /// sowing looks whether it was asked to give up.
    #[inline]
    pub(crate) fn at_checkpoint(&self) -> bool {
        self.steps & ((1 << 20) - 1) == 0
    }

    /// Counts a lap; true when the saved state must move to the current one.
    #[inline]
    pub(crate) fn tick(&mut self) -> bool {
        self.steps += 1;
        if self.steps == self.power {
            self.power *= 2;
            self.steps = 0;
            true
        } else {
            false
        }
    }
}

/// Each player adds the seeds left in their own row to their store (the common final sweep).
pub(crate) fn each_takes_own_row(board: &mut Board) {
    let ring = board.ring();
    for side in Side::ALL {
        let s = board.pits.take_all(ring.row(side));
        board.stores[side.index()] += s as u16;
    }
    board.to_move = None;
}

/// Each player adds the seeds left in the pits they own to their store: San-Yao's sweep, which
/// goes by the owner of a pit (docs/rules.md §13.1); with no sons, [`each_takes_own_row`].
pub(crate) fn each_takes_owned(board: &mut Board) {
    if board.sons == 0 {
        return each_takes_own_row(board);
    }
    for i in 0..board.ring().len() {
        let s = board.pits.take(i);
        board.stores[board.owner(i).index()] += s as u16;
    }
    board.to_move = None;
}

/// `side` takes every seed left on the board, and the game is over.
pub(crate) fn one_takes_all(board: &mut Board, side: Side) {
    let len = board.ring().len();
    let s = board.pits.take_all(0..len);
    board.stores[side.index()] += s as u16;
    board.to_move = None;
}

/// Whether `side` has a legal move: a candidate (among the pits it owns) whose sowing ends.
pub(crate) fn has_legal_move<R: Rules>(rules: &R, board: &Board, side: Side) -> bool {
    board.owned(side).any(|pit| {
        rules.candidate(board, side, pit).is_ok()
            && (!R::CAN_CYCLE || rules.sow(&mut board.clone(), side, pit).is_ok())
    })
}

/// The no-move rule shared by Djenon-aboure and San-Yao: a player with no legal move passes; if
/// neither player can move, each takes the seeds in the pits they own (their own row when there
/// are no sons; Djenon-aboure never has any).
pub(crate) fn pass_or_end<R: Rules>(rules: &R, board: &mut Board) {
    let Some(side) = board.to_move else { return };
    if has_legal_move(rules, board, side) {
        return;
    }
    if has_legal_move(rules, board, side.other()) {
        board.to_move = Some(side.other());
    } else {
        each_takes_owned(board);
    }
}

/// The sowing and capture of Walak-pussa and San-Yao (§6.3–§6.4, §7.3–§7.4).
///
/// Next-pit relay: after each lap, if the pit after the last one holds seeds, lift it and sow
/// from the pit after it. When that pit is empty the sowing stops, and the pit after the empty
/// one is captured if occupied, followed by the alternating chain (empty, occupied, empty, ...).
pub(crate) fn next_pit_relay_and_capture(
    board: &mut Board,
    side: Side,
    pit: usize,
) -> Result<TurnEnd, Endless> {
    if board.burnt == 0 {
        next_pit_relay_and_capture_on(board.ring(), board, side, pit)
    } else {
        next_pit_relay_and_capture_on(OpenRing::of(board), board, side, pit)
    }
}

/// [`next_pit_relay_and_capture`] on `track`: every "next pit" passes over burnt pits.
#[inline]
fn next_pit_relay_and_capture_on<T: Track>(
    ring: T,
    board: &mut Board,
    side: Side,
    pit: usize,
) -> Result<TurnEnd, Endless> {
    let last = relay(&mut board.pits, pit, |pits, lift| {
        let count = pits.take(lift) as u32;
        let last = if T::ALL_OPEN {
            lap_ring(pits, ring.ring(), ring.next(lift), count)
        } else {
            lap_track(pits, ring, ring.next(lift), count)
        };
        let after = ring.next(last);
        if pits.get(after) > 0 {
            LapEnd::Relay(after)
        } else {
            LapEnd::Stop(last)
        }
    })?;
    // `last + 1` is empty. Capture `last + 2`, then keep going while the pit after the captured
    // one is empty and the next is not. Captured pits become empty, so the chain ends.
    let mut taken: u16 = 0;
    let mut at = ring.next(ring.next(last));
    while board.pits.get(at) > 0 {
        taken += board.pits.take(at) as u16;
        let gap = ring.next(at);
        if board.pits.get(gap) > 0 {
            break;
        }
        at = ring.next(gap);
    }
    board.stores[side.index()] += taken;
    Ok(TurnEnd::Passes)
}

#[cfg(test)]
mod relay_tests;
