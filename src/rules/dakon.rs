//! Dakon (docs/rules.md §4): landing-pit relay through the own store, extra turn on a store landing,
//! nembak and mikul captures; the game ends when the player to move has no seeds.

use super::{
    each_takes_own_row, lap_with_store_on, GameKind, GameOption, Landing, NotCandidate, OpenRing,
    RuleOption, Rules, SowError, Track, TurnEnd,
};
use crate::board::Board;
use crate::board::Side;
use crate::stop::{Abandoned, Stop};

/// Dakon, with its two options (both off: the standard rules).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Dakon {
    /// The nembak capture also banks the landing seed (§4.3).
    pub nembak_takes_landing_seed: bool,
    /// No mikul capture (§4.3).
    pub no_mikul: bool,
}

impl Rules for Dakon {
    const KIND: GameKind = GameKind::Dakon;
    // Relays always end, and positions never repeat (§8.2).
    const CAN_CYCLE: bool = false;

    #[inline]
    fn candidate(&self, board: &Board, _side: Side, pit: usize) -> Result<(), NotCandidate> {
        super::any_seeds(board, pit)
    }

    /// Dakon's relays always end (see `sow_on`), so `stop` is not needed.
    fn sow(
        &self,
        board: &mut Board,
        side: Side,
        pit: usize,
        _stop: Stop<'_>,
    ) -> Result<TurnEnd, SowError> {
        if board.burnt == 0 {
            Ok(self.sow_on(board.ring(), board, side, pit))
        } else {
            Ok(self.sow_on(OpenRing::of(board), board, side, pit))
        }
    }

    fn settle(&self, board: &mut Board, _stop: Stop<'_>) -> Result<(), Abandoned> {
        let Some(side) = board.to_move else {
            return Ok(());
        };
        // No seeds for the player to move: the game ends, and the other player (who holds all
        // that is left) takes it.
        if board.pits.all_empty(board.ring().row(side)) {
            each_takes_own_row(board);
        }
        Ok(())
    }

    type Opt = DakonOption;

    fn option(&self, o: DakonOption) -> bool {
        match o {
            DakonOption::NembakTakesLandingSeed => self.nembak_takes_landing_seed,
            DakonOption::NoMikul => self.no_mikul,
        }
    }

    fn set_option(&mut self, o: DakonOption, on: bool) {
        match o {
            DakonOption::NembakTakesLandingSeed => self.nembak_takes_landing_seed = on,
            DakonOption::NoMikul => self.no_mikul = on,
        }
    }
}

/// Dakon's rule options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DakonOption {
    /// [`Dakon::nembak_takes_landing_seed`].
    NembakTakesLandingSeed,
    /// [`Dakon::no_mikul`].
    NoMikul,
}

impl GameOption for DakonOption {
    const ALL: &'static [Self] = &[DakonOption::NembakTakesLandingSeed, DakonOption::NoMikul];

    fn declaration(self) -> RuleOption {
        match self {
            DakonOption::NembakTakesLandingSeed => RuleOption {
                name: "nembak-takes-landing-seed",
                help: "the nembak capture also banks the landing seed",
            },
            DakonOption::NoMikul => RuleOption {
                name: "no-mikul",
                help: "no mikul capture",
            },
        }
    }
}

impl Dakon {
    /// The turn on `track` (the whole ring, or the ring without burnt pits, §13.1): landing-pit
    /// relay through the own store, then nembak or mikul on the physical board.
    #[inline]
    fn sow_on<T: Track>(&self, track: T, board: &mut Board, side: Side, pit: usize) -> TurnEnd {
        let ring = track.ring();
        let mut from = pit;
        // Every relay lifts at least 2 seeds and an endless relay would drop infinitely many
        // seeds into the store, so this loop ends (§8.2, §13.1); no cycle check is needed.
        loop {
            let count = board.pits.take(from) as u32;
            match lap_with_store_on(track, board, side, from, count) {
                Landing::Store => return TurnEnd::ExtraTurn,
                Landing::Pit(last) if board.pits.get(last) >= 2 => from = last,
                Landing::Pit(last) => {
                    // Dakon has no sons, so the owner of `last` is its row's player.
                    if ring.owner(last) == side {
                        self.nembak(board, side, last);
                    } else if !self.no_mikul {
                        self.mikul(board, side, last);
                    }
                    return TurnEnd::Passes;
                }
            }
        }
    }

    /// Nembak: the last seed landed in the mover's own empty pit `last`.
    fn nembak(&self, board: &mut Board, side: Side, last: usize) {
        let opposite = board.ring().opposite(last);
        let taken = board.pits.take(opposite) as u16;
        if taken > 0 {
            let landing = if self.nembak_takes_landing_seed {
                board.pits.take(last) as u16
            } else {
                0
            };
            board.stores[side.index()] += taken + landing;
        }
    }

    /// Mikul: the last seed landed in the empty pit `last` on the opponent's row; its two
    /// neighbours in that row (end pits have only one, so never qualify) hold the same non-zero
    /// count.
    fn mikul(&self, board: &mut Board, side: Side, last: usize) {
        let row = board.ring().row(side.other());
        if last == row.start || last == row.end - 1 {
            return;
        }
        let (left, right) = (board.pits.get(last - 1), board.pits.get(last + 1));
        if left == right && left > 0 {
            board.pits.set(last - 1, 0);
            board.pits.set(last + 1, 0);
            board.pits.set(last, 0);
            board.stores[side.index()] += 2 * left as u16 + 1;
        }
    }
}
