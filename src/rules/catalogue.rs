//! The catalogue of games: the five games with their names, board-size ranges and defaults, and
//! the declaration of a rule option.

use super::{Dakon, DjenonAboure, Kalah, Rules, SanYao, WalakPussa};

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
