//! The rules of the five games, and the sowing machinery they share.
//!
//! Each game lives in its own file and implements [`Rules`]: which pits may be sown, how a turn
//! sows and captures, and how the game ends or passes when the side to move cannot move. What the
//! games share is written once, one concept per file:
//!
//! - `catalogue.rs`: the five games ([`GameKind`]: names, board-size ranges, defaults);
//! - `options.rs`: how a game declares its rule options ([`GameOption`], [`RuleOption`]);
//! - `contract.rs`: the [`Rules`] trait, the contract between the position code and a game;
//! - `track.rs`: the pits a sowing steps through (with or without burnt pits) and the laps:
//!   `lap_with_store`, one lap round the pits *and the mover's own store* (Kalah, Dakon), and
//!   `lap_ring`, one lap round the `2n` pits only (Djenon-aboure, Walak-pussa, San-Yao);
//! - `relay/`: a chain of laps with exact endless-sowing detection (Brent's cycle finding, no
//!   cap on laps, docs/rules.md §2.9) that a [`crate::stop::Stop`] can abandon;
//! - `next_pit.rs`: the next-pit relay and alternating capture of Walak-pussa and San-Yao;
//! - `settle.rs`: the end-of-game settlements (each side takes its own row; one side takes
//!   everything) and the no-move rule.

mod catalogue;
mod contract;
mod next_pit;
mod options;
mod relay;
mod settle;
mod track;

mod dakon;
mod djenon_aboure;
mod kalah;
mod names;
mod san_yao;
mod walak_pussa;

pub use catalogue::{GameKind, SizeError};
pub use contract::{NotCandidate, Rules, SowError, TurnEnd, LOOK_EVERY};
pub use names::{UnknownGame, ALIASES};
pub use options::{GameOption, NoOption, RuleOption};

pub(crate) use contract::any_seeds;
pub(crate) use next_pit::{next_pit_first_lap_ends, next_pit_relay_and_capture};
pub(crate) use relay::{relay, LapEnd, Laps};
pub(crate) use settle::{
    each_takes_own_row, each_takes_owned, has_legal_move, one_takes_all, pass_or_end,
};
pub(crate) use track::{
    lap_ring, lap_track, lap_with_store, lap_with_store_on, Landing, OpenRing, Track,
};

pub use dakon::{Dakon, DakonOption};
pub use djenon_aboure::DjenonAboure;
pub(crate) use kalah::{rotate, with_word_size, WordMove};
pub use kalah::{Kalah, KalahOption};
pub use kalah::{KalahNode, KalahNodeIndexer, KalahWord};
pub use san_yao::SanYao;
pub use walak_pussa::{WalakPussa, WalakPussaOption};

// Here, where every game is in reach, so that neither the catalogue nor the trait needs the games.
impl GameKind {
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
}
