//! Positions: the board state, validation into a normalised position, and playing moves.

use crate::board::{Board, Move, MoveList, Pits, Side, MAX_BOARD_SEEDS, MAX_STORE};
use crate::notation::{PitStatus, RoundSetup, Setup};
use crate::rules::{GameKind, SizeError};
use crate::rules::{NotCandidate, Rules, SowError, TurnEnd};
use crate::stop::{finished, Abandoned, Stop};
use std::fmt;

/// Why a move cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// The game is already over.
    GameOver,
    /// The move number is not in `1..=n`.
    OutOfRange {
        /// The move given.
        mv: u32,
        /// Holes per row.
        holes: u8,
    },
    /// The pit may not be sown.
    NotCandidate(NotCandidate),
    /// The sowing never ends (docs/rules.md §2.9).
    Endless,
    /// The move names a burnt pit (docs/rules.md §13.1).
    Burnt(u8),
    /// The move names a pit of the other row that the mover does not own as a son (§13.2).
    NotOwned(u8),
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::GameOver => write!(f, "the game is over"),
            IllegalMove::OutOfRange { mv, holes } => write!(f, "move {mv} is out of range (the pits are numbered 1 to {holes})"),
            IllegalMove::NotCandidate(NotCandidate::Empty) => write!(f, "the pit is empty"),
            IllegalMove::NotCandidate(NotCandidate::Single) => {
                write!(f, "the pit holds a single seed (only pits with 2 or more may be sown)")
            }
            IllegalMove::NotCandidate(NotCandidate::SingletonRestricted) => write!(
                f,
                "singleton not allowed: with singleton-restriction a single seed may be sown only when no own pit holds 2 or more"
            ),
            IllegalMove::Endless => write!(f, "endless sowing: the relay never ends, so the move is illegal"),
            IllegalMove::Burnt(mv) => write!(f, "move {mv} names a burnt pit, which nobody may sow"),
            IllegalMove::NotOwned(mv) => write!(f, "move {mv} names a pit the mover does not own (a move above the row's length must be one of the mover's sons)"),
        }
    }
}

impl std::error::Error for IllegalMove {}

/// Why [`Position::try_play_until`] has no position: the move is illegal, or its sowing was
/// abandoned because the stop was raised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The move is illegal.
    Illegal(IllegalMove),
    /// The sowing was abandoned (its stop was raised): whether it ends is not known.
    Abandoned {
        /// The laps its relay had run ([`SowError::Abandoned`]): more than
        /// [`LOOK_EVERY`](crate::rules::LOOK_EVERY).
        laps: u64,
    },
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Illegal(e) => e.fmt(f),
            PlayError::Abandoned { laps } => write!(
                f,
                "abandoned: the sowing was still relaying after {laps} laps when asked to stop"
            ),
        }
    }
}

impl std::error::Error for PlayError {}

impl From<IllegalMove> for PlayError {
    fn from(e: IllegalMove) -> Self {
        PlayError::Illegal(e)
    }
}

/// Why a setup is not a valid position of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The number of holes is outside the game's range.
    Holes(SizeError),
    /// The two rows differ in length.
    RowLengths(usize, usize),
    /// The row length does not match `--holes`.
    HolesMismatch {
        /// Holes per row in the position.
        given: usize,
        /// Holes asked for.
        expected: u8,
    },
    /// More seeds on the board than any position holds ([`MAX_BOARD_SEEDS`]).
    TooManySeeds {
        /// Seeds on the board.
        total: u64,
    },
    /// More seeds in a store than any position holds ([`MAX_STORE`]).
    StoreTooFull {
        /// Whose store.
        side: Side,
        /// Seeds in it.
        seeds: u32,
    },
    /// A finished-game marker with seeds still on the board.
    SeedsAfterEnd,
    /// Pit statuses the game does not allow (docs/rules.md §13.1–§13.2).
    Status(StatusError),
    /// Normalising was abandoned inside a long sowing because the stop was raised
    /// ([`Position::from_round_setup_until`]): whether the setup is valid is not known.
    Abandoned(Abandoned),
}

/// Pit statuses (docs/rules.md §13.1–§13.2) that a game or a board does not allow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatusError {
    /// Not one status per pit.
    Count {
        /// Statuses given.
        given: usize,
        /// Pits on the board.
        pits: usize,
    },
    /// Kalah and Djenon-aboure have no burnt pits or sons.
    NoStatuses(GameKind),
    /// Only San-Yao has sons.
    NoSons(GameKind),
    /// A burnt pit holds seeds (pit index in sowing order from South's first pit).
    BurntHoldsSeeds(usize),
}

impl fmt::Display for StatusError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StatusError::Count { given, pits } => write!(f, "{given} pit statuses for {pits} pits"),
            StatusError::NoStatuses(game) => write!(
                f,
                "{} has no burnt pits or sons: pit statuses ('x', 's') belong to the rounds of Dakon, Walak-pussa and San-Yao matches",
                game.title()
            ),
            StatusError::NoSons(game) => write!(
                f,
                "{} has no sons: a son ('s' mark) exists in San-Yao matches only",
                game.title()
            ),
            StatusError::BurntHoldsSeeds(i) => {
                write!(f, "pit p{i} is burnt but holds seeds: a burnt pit holds none")
            }
        }
    }
}

impl std::error::Error for StatusError {}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Holes(e) => e.fmt(f),
            PositionError::RowLengths(a, b) => {
                write!(f, "South's row has {a} pits but North's row has {b}")
            }
            PositionError::HolesMismatch { given, expected } => {
                write!(
                    f,
                    "the position has {given} pits per row but the board asked for has {expected}"
                )
            }
            PositionError::TooManySeeds { total } => write!(
                f,
                "the board holds {total} seeds; at most {MAX_BOARD_SEEDS} are supported"
            ),
            PositionError::StoreTooFull { side, seeds } => write!(
                f,
                "{side}'s store holds {seeds} seeds; at most {MAX_STORE} are supported"
            ),
            PositionError::Status(e) => e.fmt(f),
            PositionError::Abandoned(e) => e.fmt(f),
            PositionError::SeedsAfterEnd => {
                write!(
                    f,
                    "the side marker '-' (game over) requires every pit to be empty"
                )
            }
        }
    }
}

impl std::error::Error for PositionError {}

/// A valid, normalised position of a game with rules `R`: every position handed out has either
/// a side to move with at least one legal move, or the game over with all pits empty.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position<R: Rules> {
    board: Board,
    rules: R,
}

impl<R: Rules> Position<R> {
    /// The standard start: `seeds` in every pit, stores empty, South to move, normalised.
    pub fn start(rules: R, holes: u8, seeds: u8) -> Result<Self, PositionError> {
        let setup = Setup {
            south: vec![seeds as u32; holes as usize],
            north: vec![seeds as u32; holes as usize],
            stores: [0, 0],
            to_move: Some(Side::South),
        };
        Self::from_setup(rules, &setup)
    }

    /// Validates a setup against the game and normalises it (docs/rules.md §2.5).
    pub fn from_setup(rules: R, setup: &Setup) -> Result<Self, PositionError> {
        Self::from_masks(rules, setup, 0, 0, Stop::never())
    }

    /// Validates a round position (pit statuses included, docs/rules.md §13) against the game and
    /// normalises it. Burnt pits and sons belong to the match games: none in Kalah or
    /// Djenon-aboure, sons in San-Yao only; a burnt pit holds no seeds.
    pub fn from_round_setup(rules: R, round: &RoundSetup) -> Result<Self, PositionError> {
        Self::from_round_setup_until(rules, round, Stop::never())
    }

    /// [`Position::from_round_setup`] that gives up, with [`PositionError::Abandoned`], once
    /// `stop` is raised: normalising a position of a relay game sows its candidates to find one
    /// that ends (the no-move rule), and a sowing can take billions of laps ([`crate::stop`]). For
    /// a front end that validates what a user typed and must stay responsive.
    pub fn from_round_setup_until(
        rules: R,
        round: &RoundSetup,
        stop: Stop<'_>,
    ) -> Result<Self, PositionError> {
        let setup = &round.setup;
        let len = setup.south.len() + setup.north.len();
        if round.status.len() != len {
            return Err(PositionError::Status(StatusError::Count {
                given: round.status.len(),
                pits: len,
            }));
        }
        let (mut burnt, mut sons) = (0u32, 0u32);
        for (i, st) in round.status.iter().enumerate() {
            match st {
                PitStatus::Open => {}
                PitStatus::Burnt => burnt |= 1 << i,
                PitStatus::Son => sons |= 1 << i,
            }
        }
        if burnt | sons != 0 && matches!(R::KIND, GameKind::Kalah | GameKind::DjenonAboure) {
            return Err(PositionError::Status(StatusError::NoStatuses(R::KIND)));
        }
        if sons != 0 && R::KIND != GameKind::SanYao {
            return Err(PositionError::Status(StatusError::NoSons(R::KIND)));
        }
        let all = setup.south.iter().chain(&setup.north);
        if let Some(i) = all
            .enumerate()
            .position(|(i, &c)| burnt >> i & 1 == 1 && c > 0)
        {
            return Err(PositionError::Status(StatusError::BurntHoldsSeeds(i)));
        }
        Self::from_masks(rules, setup, burnt, sons, stop)
    }

    /// [`Position::from_setup`] with the status masks of a round ([`Board::burnt`], [`Board::sons`]).
    fn from_masks(
        rules: R,
        setup: &Setup,
        burnt: u32,
        sons: u32,
        stop: Stop<'_>,
    ) -> Result<Self, PositionError> {
        let (a, b) = (setup.south.len(), setup.north.len());
        if a != b {
            return Err(PositionError::RowLengths(a, b));
        }
        R::KIND
            .check_holes(u32::try_from(a).unwrap_or(u32::MAX))
            .map_err(PositionError::Holes)?;
        let total: u64 = setup
            .south
            .iter()
            .chain(&setup.north)
            .map(|&x| x as u64)
            .sum();
        if total > MAX_BOARD_SEEDS as u64 {
            return Err(PositionError::TooManySeeds { total });
        }
        for (side, &seeds) in Side::ALL.into_iter().zip(&setup.stores) {
            if seeds > MAX_STORE {
                return Err(PositionError::StoreTooFull { side, seeds });
            }
        }
        if setup.to_move.is_none() && total > 0 {
            return Err(PositionError::SeedsAfterEnd);
        }
        let mut pits = Pits::EMPTY;
        for (i, &c) in setup.south.iter().chain(&setup.north).enumerate() {
            pits.set(i, c as u8);
        }
        let mut board = Board {
            pits,
            stores: [setup.stores[0] as u16, setup.stores[1] as u16],
            holes: a as u8,
            to_move: setup.to_move,
            burnt,
            sons,
        };
        rules
            .settle(&mut board, stop)
            .map_err(PositionError::Abandoned)?;
        Ok(Position { board, rules })
    }

    /// The normalised position with `pits` (South's row, then North's: `2 * holes` counts), empty
    /// stores and `to_move` to move, with none of [`Position::from_setup`]'s checks: the caller
    /// guarantees a supported size and seed count (the table builder, which enumerates layers).
    pub(crate) fn from_pits_unchecked(rules: R, holes: u8, pits: &[u8], to_move: Side) -> Self {
        let mut board = Board {
            pits: Pits::from_slice(pits),
            stores: [0, 0],
            holes,
            to_move: Some(to_move),
            burnt: 0,
            sons: 0,
        };
        finished(rules.settle(&mut board, Stop::never()));
        Position { board, rules }
    }

    /// The position with `pits`, empty stores and South to move, taken as normalised as it is:
    /// the caller guarantees that South has a move and the game is not over (the table builder's
    /// Kalah generator, which checks exactly that on the whole board at once).
    #[inline(always)]
    pub(crate) fn south_to_move_unchecked(rules: R, holes: u8, pits: Pits) -> Self {
        Position {
            board: Board {
                pits,
                stores: [0, 0],
                holes,
                to_move: Some(Side::South),
                burnt: 0,
                sons: 0,
            },
            rules,
        }
    }

    /// The position of `board` as it is: the caller guarantees it is normalised (a move
    /// generator that applies the end rule itself, [`crate::rules::KalahWord`]).
    #[inline(always)]
    pub(crate) fn from_board_unchecked(rules: R, board: Board) -> Self {
        Position { board, rules }
    }

    /// The board.
    #[inline(always)]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The rules.
    #[inline(always)]
    pub fn rules(&self) -> &R {
        &self.rules
    }

    /// The player to move, or `None` when the game is over.
    #[inline(always)]
    pub fn to_move(&self) -> Option<Side> {
        self.board.to_move
    }

    /// Whether the game is over.
    #[inline(always)]
    pub fn is_over(&self) -> bool {
        self.board.to_move.is_none()
    }

    /// `[south, north]` stores (tallies).
    pub fn score(&self) -> [u32; 2] {
        [self.board.stores[0] as u32, self.board.stores[1] as u32]
    }

    /// The unvalidated setup of this position (for notation).
    pub fn setup(&self) -> Setup {
        let n = self.board.holes as usize;
        let pits = self.board.pit_slice();
        Setup {
            south: pits[..n].iter().map(|&x| x as u32).collect(),
            north: pits[n..].iter().map(|&x| x as u32).collect(),
            stores: [self.board.stores[0] as u32, self.board.stores[1] as u32],
            to_move: self.board.to_move,
        }
    }

    /// The round position: [`Position::setup`] with each pit's status.
    pub fn round_setup(&self) -> RoundSetup {
        let b = &self.board;
        let status = (0..b.ring().len())
            .map(|i| {
                if b.is_burnt(i) {
                    PitStatus::Burnt
                } else if b.is_son(i) {
                    PitStatus::Son
                } else {
                    PitStatus::Open
                }
            })
            .collect();
        RoundSetup {
            setup: self.setup(),
            status,
        }
    }

    /// Checks that `mv` is a candidate for the side to move (it may still be endless).
    fn check_candidate(&self, mv: Move) -> Result<(Side, usize), IllegalMove> {
        let side = self.board.to_move.ok_or(IllegalMove::GameOver)?;
        let holes = self.board.holes;
        // Moves above n name the other row's pits, which only sons make ownable (§13.2).
        let most = if self.board.sons == 0 {
            holes
        } else {
            2 * holes
        };
        if mv.0 == 0 || mv.0 > most {
            return Err(IllegalMove::OutOfRange {
                mv: mv.0 as u32,
                holes,
            });
        }
        let pit = mv.pit(side, holes).index();
        if self.board.is_burnt(pit) {
            return Err(IllegalMove::Burnt(mv.0));
        }
        if self.board.owner(pit) != side {
            return Err(IllegalMove::NotOwned(mv.0));
        }
        self.rules
            .candidate(&self.board, side, pit)
            .map_err(IllegalMove::NotCandidate)?;
        Ok((side, pit))
    }

    /// Sows `pit` for `side` and settles the result.
    #[inline]
    fn sow_and_settle(&self, side: Side, pit: usize, stop: Stop<'_>) -> Result<Self, SowError> {
        let mut next = *self;
        let end = self.rules.sow(&mut next.board, side, pit, stop)?;
        next.board.to_move = Some(match end {
            TurnEnd::ExtraTurn => side,
            TurnEnd::Passes => side.other(),
        });
        self.rules.settle(&mut next.board, stop)?;
        Ok(next)
    }

    /// Plays `mv` if it is legal, returning the normalised position after it (forced passes and
    /// the end of the game applied); otherwise says why it is illegal. A sowing of a cyclic game
    /// can take billions of laps (docs/rules.md §2.9); a caller that must be able to give up on
    /// it uses [`Position::try_play_until`].
    pub fn try_play(&self, mv: Move) -> Result<Self, IllegalMove> {
        self.try_play_until(mv, Stop::never()).map_err(|e| match e {
            PlayError::Illegal(e) => e,
            PlayError::Abandoned { .. } => unreachable!("a sowing nobody can stop was abandoned"),
        })
    }

    /// [`Position::try_play`] that gives up, with [`PlayError::Abandoned`], once `stop` is
    /// raised during a long sowing ([`crate::stop`]).
    pub fn try_play_until(&self, mv: Move, stop: Stop<'_>) -> Result<Self, PlayError> {
        let (side, pit) = self.check_candidate(mv)?;
        self.sow_and_settle(side, pit, stop).map_err(|e| match e {
            SowError::Endless => PlayError::Illegal(IllegalMove::Endless),
            SowError::Abandoned { laps } => PlayError::Abandoned { laps },
        })
    }

    /// Plays a move known to be legal (from [`Position::legal_moves`] or
    /// [`Position::for_each_child`]).
    ///
    /// # Panics
    /// May panic, or return a meaningless position, when `mv` is not legal; never undefined
    /// behaviour.
    #[inline]
    pub fn play_unchecked(&self, mv: Move) -> Self {
        let side = self
            .board
            .to_move
            .expect("play_unchecked on a finished game");
        let pit = mv.pit(side, self.board.holes).index();
        self.sow_and_settle(side, pit, Stop::never())
            .expect("play_unchecked: endless sowing")
    }

    /// Calls `f(move, position after it)` for every legal move, in increasing move number. For
    /// the games with relays each candidate is sown once, which both proves it legal and gives
    /// its result.
    #[inline]
    pub fn for_each_child(&self, f: impl FnMut(Move, Self)) {
        finished(self.for_each_child_until(Stop::never(), f));
    }

    /// [`Position::for_each_child`] that gives up once `stop` is raised during a long sowing
    /// ([`crate::stop`]); `f` has then seen some of the children. Always inlined: it is the
    /// search's move generation for every game but Kalah, and as a call of its own (it has two
    /// callers) the closure's state and each child pass through memory (docs/performance.md,
    /// "Figures behind comments").
    #[inline(always)]
    pub fn for_each_child_until(
        &self,
        stop: Stop<'_>,
        mut f: impl FnMut(Move, Self),
    ) -> Result<(), Abandoned> {
        let Some(side) = self.board.to_move else {
            return Ok(());
        };
        let holes = self.board.holes;
        for pit in self.board.owned(side) {
            if self.rules.candidate(&self.board, side, pit).is_ok() {
                match self.sow_and_settle(side, pit, stop) {
                    Ok(next) => f(
                        Move::from_pit(crate::board::Pit(pit as u8), side, holes),
                        next,
                    ),
                    Err(SowError::Endless) => {}
                    Err(SowError::Abandoned { .. }) => return Err(Abandoned),
                }
            }
        }
        Ok(())
    }

    /// The legal moves, in increasing move number.
    pub fn legal_moves(&self) -> MoveList {
        finished(self.legal_moves_until(Stop::never()))
    }

    /// [`Position::legal_moves`] that gives up once `stop` is raised during a long sowing
    /// ([`crate::stop`]).
    pub fn legal_moves_until(&self, stop: Stop<'_>) -> Result<MoveList, Abandoned> {
        let mut list = MoveList::default();
        let Some(side) = self.board.to_move else {
            return Ok(list);
        };
        let holes = self.board.holes;
        for pit in self.board.owned(side) {
            if self.rules.candidate(&self.board, side, pit).is_err() {
                continue;
            }
            if R::CAN_CYCLE {
                match self.rules.sow(&mut self.board.clone(), side, pit, stop) {
                    Ok(_) => {}
                    Err(SowError::Endless) => continue,
                    Err(SowError::Abandoned { .. }) => return Err(Abandoned),
                }
            }
            list.push(Move::from_pit(crate::board::Pit(pit as u8), side, holes));
        }
        Ok(list)
    }
}

impl<R: Rules> fmt::Display for Position<R> {
    /// The position in docs/rules.md §2.5 notation, with the pit marks of §13.2 in a later round.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.board.has_statuses() {
            self.round_setup().fmt(f)
        } else {
            self.setup().fmt(f)
        }
    }
}
