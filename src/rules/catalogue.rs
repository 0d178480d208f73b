//! The catalogue of games: the five games with their names, board-size ranges and defaults, and
//! the declaration of a rule option.

use super::{Dakon, DjenonAboure, GameOption, Kalah, Rules, SanYao, WalakPussa};
use std::fmt;

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

    /// `holes` as a board size of this game, or why not.
    pub fn check_holes(self, holes: u32) -> Result<u8, SizeError> {
        let (min, max) = self.holes_range();
        if holes < u32::from(min) || holes > u32::from(max) {
            return Err(SizeError::Holes {
                game: self,
                holes,
                min,
                max,
            });
        }
        Ok(holes as u8)
    }

    /// `seeds` per hole as a start of this game on `holes` holes, or why not.
    pub fn check_seeds(self, holes: u8, seeds: u32) -> Result<u8, SizeError> {
        let (min, max) = self.seeds_range(holes);
        if seeds < u32::from(min) || seeds > u32::from(max) {
            return Err(SizeError::Seeds {
                game: self,
                holes,
                seeds,
                min,
                max,
            });
        }
        Ok(seeds as u8)
    }

    /// The game's rule options ([`Rules::Opt`]), in [`GameOption::ALL`] order.
    pub fn options(self) -> Vec<RuleOption> {
        fn of<R: Rules>() -> Vec<RuleOption> {
            R::Opt::ALL.iter().map(|o| o.declaration()).collect()
        }
        match self {
            GameKind::Kalah => of::<Kalah>(),
            GameKind::Dakon => of::<Dakon>(),
            GameKind::DjenonAboure => of::<DjenonAboure>(),
            GameKind::WalakPussa => of::<WalakPussa>(),
            GameKind::SanYao => of::<SanYao>(),
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

/// A board size outside a game's range (docs/rules.md §2.11): [`GameKind::check_holes`],
/// [`GameKind::check_seeds`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SizeError {
    /// Holes per row out of range.
    Holes {
        /// The game.
        game: GameKind,
        /// Holes asked for.
        holes: u32,
        /// Smallest allowed.
        min: u8,
        /// Largest allowed.
        max: u8,
    },
    /// Seeds per hole out of range for the board.
    Seeds {
        /// The game.
        game: GameKind,
        /// Holes per row.
        holes: u8,
        /// Seeds per hole asked for.
        seeds: u32,
        /// Smallest allowed.
        min: u8,
        /// Largest allowed.
        max: u8,
    },
}

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SizeError::Holes {
                game,
                holes,
                min,
                max,
            } => write!(
                f,
                "{} is played with {min} to {max} holes per row, not {holes}",
                game.name()
            ),
            SizeError::Seeds {
                game,
                holes,
                seeds,
                min,
                max,
            } => write!(
                f,
                "{} on {holes} holes is played with {min} to {max} seeds per hole, not {seeds}",
                game.name()
            ),
        }
    }
}

impl std::error::Error for SizeError {}
