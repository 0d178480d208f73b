//! Opening the tables of one game on one board for a search or for lookups.

use std::path::Path;

use rayon::prelude::*;
use tables::{Check, Table, TableError, Tablebase};

use super::{table_id, MancalaIndexer};
use crate::board::MAX_BOARD_SEEDS;
use crate::rules::Rules;
use crate::Position;

/// How [`open`] holds the files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hold {
    /// Memory-mapped: only the pages a few lookups touch are read.
    Mapped,
    /// Held on huge pages for a search, which reads every file for its checksum anyway and
    /// then makes millions of random lookups (on 4 KiB pages each one would also miss the TLB):
    /// mapped from the page cache where the kernel maps it on huge pages, else read into
    /// memory ([`Tablebase::open_resident_up_to`]).
    Resident,
}

/// Opens the tables of `rules` on `holes` holes in `dir`, with the checksums of layers
/// `0..=check_up_to` checked.
pub fn open<R: Rules>(
    dir: &Path,
    rules: R,
    holes: u8,
    check_up_to: u32,
    hold: Hold,
) -> Result<Tablebase<MancalaIndexer<R>>, TableError> {
    let ix = MancalaIndexer::new(rules, holes);
    let id = table_id(&rules, holes);
    // Only the layers up to `check_up_to` can be read (a position's children are in its layer
    // or below), so the files above are not opened (nor validated, which reads them whole).
    let tb = match hold {
        // SAFETY (both): table files are written once (temp file + rename) and never modified
        // in place; the program asks its users not to edit or truncate them while it runs
        // (README).
        Hold::Resident => {
            unsafe { Tablebase::open_resident_up_to(ix, id, dir, Check::Headers, check_up_to) }?
        }
        Hold::Mapped => {
            unsafe { Tablebase::open_mmap_up_to(ix, id, dir, Check::Headers, check_up_to) }?
        }
    };
    let top = (check_up_to as usize).min(tb.tables().len() - 1);
    tb.tables()[..=top]
        .par_iter()
        .try_for_each(Table::check_payload)?;
    Ok(tb)
}

/// The tables in `dir` for a search from `p`: the layers a search from `p` can reach (its own
/// and those below: sowing never adds seeds to the board), held on huge pages ([`Hold::Resident`]), every one's
/// checksum checked. A position with few seeds left is answered without reading the big upper
/// layers: a 10-seed Kalah(6,4) position opened 0.4 s and 677 MB of K=24 tables before this, and
/// reads a few hundred kilobytes now.
pub fn open_for_search<R: Rules>(
    dir: &Path,
    p: &Position<R>,
) -> Result<Tablebase<MancalaIndexer<R>>, TableError> {
    open_for_layers(dir, p, reachable_layer(p))
}

/// The highest layer a search from `p` can meet: its own (seeds on the board).
pub fn reachable_layer<R: Rules>(p: &Position<R>) -> u32 {
    p.board().seeds_on_board().min(MAX_BOARD_SEEDS)
}

/// The tables in `dir` for the game of `p`, layers `0..=up_to` at most, held on huge pages and
/// checked: for a holder of tables that will be asked about more than one position
/// ([`crate::answers`]'s shared tables), which may open every layer at once.
pub fn open_for_layers<R: Rules>(
    dir: &Path,
    p: &Position<R>,
    up_to: u32,
) -> Result<Tablebase<MancalaIndexer<R>>, TableError> {
    open(dir, *p.rules(), p.board().holes, up_to, Hold::Resident)
}
