//! Kalah start values under all eight option sets (`tests/data/kalah_option_values.csv`,
//! docs/reference-values.md §1.5), each row computed twice when the data were made
//! (`scripts/reference-values.sh`): by the search, and by the method of the `check` column (the
//! endgame tables of the whole board, a published value, or the search over K=20 tables). The
//! tests check every row by the search again, and the rows of at most 16 seeds by the
//! independent reference engine's brute force as well.

use crate::reference::{self as refe, RefGame};
use crate::util::{csv_rows, kalah_with, solve_start};

/// One row of the data file.
struct Row {
    holes: u8,
    seeds: u8,
    options: [bool; 3],
    value: i32,
    check: String,
}

fn rows() -> Vec<Row> {
    let text =
        std::fs::read_to_string(crate::util::repo().join("tests/data/kalah_option_values.csv"))
            .expect("tests/data/kalah_option_values.csv");
    let text: &'static str = Box::leak(text.into_boxed_str());
    let flag = |s: &str| match s {
        "true" => true,
        "false" => false,
        _ => panic!("not a bool: {s}"),
    };
    csv_rows(text)
        .into_iter()
        .map(|r| Row {
            holes: r["holes"].parse().unwrap(),
            seeds: r["seeds"].parse().unwrap(),
            options: [
                flag(r["empty_capture"]),
                flag(r["end_when_mover_empty"]),
                flag(r["leftovers_unscored"]),
            ],
            value: r["value"].parse().unwrap(),
            check: r["check"].to_string(),
        })
        .collect()
}

fn reference_game(o: [bool; 3]) -> RefGame {
    RefGame::Kalah {
        empty_capture: o[0],
        end_when_mover_empty: o[1],
        leftovers_unscored: o[2],
    }
}

/// The whole table is there: every board up to (4,4) and (6,3), eight option sets each, and
/// every row says how it was checked a second time.
#[test]
fn option_values_cover_the_boards() {
    let rows = rows();
    let mut boards: Vec<(u8, u8)> = rows.iter().map(|r| (r.holes, r.seeds)).collect();
    boards.dedup();
    let want: Vec<(u8, u8)> = (1..=6u8)
        .flat_map(|h| (1..=if h <= 4 { 4u8 } else { 3 }).map(move |s| (h, s)))
        .collect();
    assert_eq!(boards, want);
    assert_eq!(rows.len(), want.len() * 8);
    for r in &rows {
        assert!(
            ["tables", "published", "search with K=20 tables"].contains(&r.check.as_str()),
            "{}",
            r.check
        );
    }
    // The rows without leftovers-unscored agree with the older table where it has them.
    for old in crate::util::kalah_start_values() {
        let o = [
            old.rules.empty_capture,
            old.rules.end_when_mover_empty,
            false,
        ];
        if let Some(r) = rows
            .iter()
            .find(|r| (r.holes, r.seeds, r.options) == (old.holes, old.seeds, o))
        {
            assert_eq!(r.value, old.value, "Kalah({},{}) {o:?}", r.holes, r.seeds);
        }
    }
}

/// Every row by the search (about 10 s in release on 2 cores, most of it (6,3)).
#[test]
fn option_values_by_search() {
    for r in rows() {
        let [ec, me, lu] = r.options;
        let (got, _) = solve_start(kalah_with(ec, me, lu), r.holes, r.seeds, 2);
        assert_eq!(
            got, r.value,
            "Kalah({},{}) {:?}",
            r.holes, r.seeds, r.options
        );
    }
}

/// The small rows (at most 16 seeds) by the reference engine's brute force.
#[test]
fn option_values_by_brute_force_small() {
    let mut checked = 0;
    for r in rows() {
        if 2 * r.holes as u32 * r.seeds as u32 > 16 {
            continue;
        }
        let g = reference_game(r.options);
        let v = refe::value(g, &refe::start(g, r.holes as usize, r.seeds as u32));
        assert_eq!(v, r.value, "Kalah({},{}) {:?}", r.holes, r.seeds, r.options);
        checked += 1;
    }
    assert_eq!(checked, 14 * 8);
}
