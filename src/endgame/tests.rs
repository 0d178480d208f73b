//! Kalah's fast paths against the general rules, and the stages' order.

use super::kalah_plan::word_moves;
use super::kalah_stages::KalahStages;
use super::*;
use crate::board::Side;
use crate::rank;
use crate::rules::Kalah;
use crate::rules::{with_word_size, Rules};
use crate::Position;
use solver::{Children, Game};
use solver::{FixedVec, Indexer, Placed, OVER};

/// The moves of `pos` (a live board with South to move) by the general rules, placed: the
/// children by the general position code, each live one indexed.
fn general_moves<R: Rules>(ix: &MancalaIndexer<R>, pos: &Position<R>) -> Vec<Placed> {
    let mut kids = Children::new();
    pos.general_children(&mut kids);
    kids.as_slice()
        .iter()
        .map(|c| Placed {
            gain: c.gain,
            turn_passed: c.turn_passed,
            layer: if c.next.is_over() {
                OVER
            } else {
                c.next.layer()
            },
            slot: if c.next.is_over() {
                0
            } else {
                ix.index(&c.next)
            },
        })
        .collect()
}

/// The moves of `pos` by the schedule's generator, [`word_moves`].
fn fast_moves<R: Rules>(ix: &MancalaIndexer<R>, pos: &Position<R>) -> Vec<Placed> {
    let word = ix.word.expect("Kalah on at most 7 holes");
    let (w, k) = (pos.board().pits.low_word(), pos.layer());
    let mut out = FixedVec::new();
    with_word_size!(ix.holes(), |N, M| word_moves::<N, M>(&word, w, k, &mut out));
    out.as_slice().to_vec()
}

/// The fast and the general moves of `pos` agree, and so do its `Game::children`.
fn check_children<R: Rules>(ix: &MancalaIndexer<R>, pos: &Position<R>) {
    assert_eq!(fast_moves(ix, pos), general_moves(ix, pos), "{pos}");
    let (mut fast, mut general) = (Children::new(), Children::new());
    pos.children(&mut fast);
    pos.general_children(&mut general);
    assert_eq!(fast.as_slice(), general.as_slice(), "{pos}");
}

/// A fixed-start xorshift generator: `next(bound)` is in `0..bound`.
fn below(seed: u64) -> impl FnMut(u64) -> u64 {
    let mut state = seed;
    move |bound| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % bound
    }
}

/// Kalah under all eight option sets (bit 0: empty-capture, 1: end-when-mover-empty, 2:
/// leftovers-unscored).
const KALAHS: [Kalah; 8] = {
    let mut out = [Kalah {
        empty_capture: false,
        end_when_mover_empty: false,
        leftovers_unscored: false,
    }; 8];
    let mut i = 0;
    while i < 8 {
        out[i] = Kalah {
            empty_capture: i & 1 != 0,
            end_when_mover_empty: i & 2 != 0,
            leftovers_unscored: i & 4 != 0,
        };
        i += 1;
    }
    out
};

/// Kalah's one-word generator against the general rules, under all eight option sets, on
/// every layout of the small layers of every board it handles (laps of a whole circuit
/// included on the boards of up to 3 holes): the same live boards, the same children.
#[test]
fn kalah_word_agrees_with_the_rules_on_small_layers() {
    for holes in 1..=7u8 {
        let top = match holes {
            1..=3 => 14,
            4 => 9,
            5 => 7,
            6 => 6,
            _ => 5,
        };
        let m = 2 * holes as usize;
        for rules in KALAHS {
            let ix = MancalaIndexer::new(rules, holes);
            assert!(ix.word.is_some());
            for k in 0..=top {
                let mut pits = [0u8; 32];
                for slot in 0..ix.layer_len(k) {
                    rank::unrank_in_layer(k, m, slot as u128, &mut pits[..m]);
                    let live = ix.live(&pits[..m]);
                    assert_eq!(live, ix.general_live(&pits[..m]), "{:?}", &pits[..m]);
                    if let Some(pos) = live {
                        check_children(&ix, &pos);
                    }
                }
            }
        }
    }
}

/// The search's Kalah children and keys (from the one-word generator) against the general
/// rules: random positions of 1 to 7 holes, either side to move, stores not empty, every
/// option set. Whole positions are compared: pits, stores, side to move.
#[test]
fn kalah_word_children_and_keys_match_the_general_code() {
    let mut next = below(0x2545_f491_4f6c_dd1du64);
    for holes in 1..=7u8 {
        let m = 2 * holes as usize;
        for rules in KALAHS {
            for _ in 0..5_000 {
                let k = next(rank::KEY64_MAX_SEEDS[m].min(120) as u64 + 1) as u32;
                let mut pits = [0u8; 32];
                let slot = next(u64::MAX) % (rank::layer_len(k, m) as u64);
                rank::unrank_in_layer(k, m, slot as u128, &mut pits[..m]);
                let setup = crate::notation::Setup {
                    south: pits[..holes as usize].iter().map(|&x| x as u32).collect(),
                    north: pits[holes as usize..m].iter().map(|&x| x as u32).collect(),
                    stores: [next(40) as u32, next(40) as u32],
                    to_move: Some(if next(2) == 0 {
                        Side::South
                    } else {
                        Side::North
                    }),
                };
                let pos = Position::from_setup(rules, &setup).expect("a valid setup");
                assert_eq!(pos.key(), pos.general_key(), "{pos}");
                let (mut fast, mut general) = (Children::new(), Children::new());
                pos.children(&mut fast);
                pos.general_children(&mut general);
                assert_eq!(fast.as_slice(), general.as_slice(), "{pos}");
            }
        }
    }
}

/// The build's memory estimate counts the schedule: Kalah's holds 16 words for each row of
/// at most `k` seeds (the row, its 3 + 2n rank terms, for 6 holes) besides its stages; the
/// other games have none.
#[test]
fn schedule_bytes_count_every_row() {
    let ix = MancalaIndexer::new(KALAHS[0], 6);
    assert_eq!(
        ix.schedule_bytes(0),
        KalahStages::new(ix.word.unwrap(), 0).unwrap().heap_bytes()
    );
    for k in [1u32, 6, 12] {
        let rows = rank::layers_below(k + 1, 6) as u64;
        assert_eq!(KalahStages::row_count(6, k), u128::from(rows));
        assert_eq!(KalahStages::row_table_bytes(6, k), rows * 128);
        let bytes = ix.schedule_bytes(k);
        assert!(
            bytes >= rows * 128,
            "layer {k}: {bytes} bytes for {rows} rows"
        );
        // The stages add little: a piece per few thousand positions or per pair of groups.
        assert!(bytes < rows * 256 + 4096, "layer {k}: {bytes} bytes");
    }
    // Past the measured size the row tables are counted, not made: 25.8 M rows at 6 holes and
    // 48 seeds (3.3 GB, made in seconds), an estimate for a layer of 2.8e11 slots.
    let rows = KalahStages::row_count(6, 48);
    assert_eq!(rows, 25_827_165);
    assert_eq!(ix.schedule_bytes(48), rows as u64 * 128);
    let dakon = MancalaIndexer::new(crate::rules::Dakon::default(), 7);
    assert_eq!(dakon.schedule_bytes(10), 0);
}

/// Kalah's stages visit every slot of a layer once, with the moves of the position `position`
/// gives (as the general rules place them), and every move inside the layer leads to an
/// earlier stage.
#[test]
fn kalah_stages_cover_each_slot_once_children_first() {
    for holes in 1..=7u8 {
        let top = match holes {
            1..=3 => 12,
            4 => 8,
            5 => 6,
            6 => 5,
            _ => 4,
        };
        for rules in KALAHS {
            let ix = MancalaIndexer::new(rules, holes);
            for k in 0..=top {
                let schedule = ix.schedule(k).unwrap().expect("Kalah has stages");
                let mut stage_of = vec![usize::MAX; ix.layer_len(k) as usize];
                for stage in 0..schedule.stages() {
                    for unit in 0..schedule.units(stage) {
                        schedule.for_each(stage, unit, &mut |slot, moves| {
                            assert_eq!(stage_of[slot as usize], usize::MAX, "slot {slot} twice");
                            stage_of[slot as usize] = stage;
                            let pos = ix.position(k, slot);
                            assert_eq!(moves.is_some(), pos.is_some(), "slot {slot}");
                            if let (Some(moves), Some(pos)) = (moves, pos) {
                                assert_eq!(moves, general_moves(&ix, &pos), "{pos}");
                            }
                        });
                    }
                }
                for (slot, &stage) in stage_of.iter().enumerate() {
                    assert_ne!(stage, usize::MAX, "slot {slot} of layer {k} never visited");
                    let Some(pos) = ix.position(k, slot as u64) else {
                        continue;
                    };
                    for m in general_moves(&ix, &pos) {
                        if m.layer == k {
                            assert!(stage_of[m.slot as usize] < stage, "{pos}");
                        }
                    }
                }
            }
        }
    }
}

/// The same on random boards of 6 and 7 holes with up to 200 seeds, as far as slots fit in
/// 64 bits (long laps, big pits).
#[test]
fn kalah_word_agrees_with_the_rules_on_random_boards() {
    let mut next = below(0x9e37_79b9_7f4a_7c15u64);
    for holes in [6u8, 7] {
        let m = 2 * holes as usize;
        for rules in KALAHS {
            let ix = MancalaIndexer::new(rules, holes);
            // Slots are u64: the layers whose length fits.
            let most = rank::KEY64_MAX_SEEDS[m].min(200);
            for _ in 0..20_000 {
                let k = next(most as u64 + 1) as u32;
                let slot = next(u64::MAX) % ix.layer_len(k);
                let mut pits = [0u8; 32];
                rank::unrank_in_layer(k, m, slot as u128, &mut pits[..m]);
                let live = ix.live(&pits[..m]);
                assert_eq!(live, ix.general_live(&pits[..m]), "{:?}", &pits[..m]);
                if let Some(pos) = live {
                    check_children(&ix, &pos);
                }
            }
        }
    }
}

/// A table file is named by its variant as `Variant` writes it (`kalah+empty-capture_6h_...`),
/// so the file name, the table identity and the command line agree on option names.
#[test]
fn table_files_are_named_by_their_variant() {
    use crate::rules::GameKind;
    use crate::variant::Variant;
    for kind in GameKind::ALL {
        let names: Vec<&str> = kind.options().iter().map(|o| o.name).collect();
        for v in [Variant::standard(kind), Variant::new(kind, &names).unwrap()] {
            let id = crate::with_rules!(v, r => table_id(&r, 5));
            assert_eq!(id.file_name(3), format!("{v}_5h_k003.mtb"));
            assert_eq!(Variant::new(kind, &id.options), Ok(v));
        }
    }
}
