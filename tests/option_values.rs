//! Kalah start values under all eight option sets (`tests/data/kalah_option_values.csv`,
//! docs/reference-values.md §1.5), each row computed twice when the data were made
//! (`scripts/reference-values.sh`): by the search, and by the method of the `check` column (the
//! endgame tables of the whole board, or the reference engine's own search on (6,3)). The tests
//! check every row by the search again, the rows of at most 16 seeds by the independent
//! reference engine's brute force as well, and (ignored: minutes) the larger boards by the
//! reference engine's search.

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

/// The rows of `tests/data/kalah_option_values.csv`, or of the file `$MANCALA_OPTION_VALUES_CSV`
/// names: `scripts/reference-values.sh` checks its new file that way before it replaces the old.
fn rows() -> Vec<Row> {
    let path = match std::env::var_os("MANCALA_OPTION_VALUES_CSV") {
        Some(path) => std::path::PathBuf::from(path),
        None => crate::util::repo().join("tests/data/kalah_option_values.csv"),
    };
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
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
/// every row says how it was checked a second time: by tables, or by the reference search on
/// exactly the board that `option_values_6x3_by_the_reference_search` checks.
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
        let want = if (r.holes, r.seeds) == (6, 3) {
            "reference search"
        } else {
            "tables"
        };
        assert_eq!(
            r.check, want,
            "Kalah({},{}) {:?}",
            r.holes, r.seeds, r.options
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

/// Checks the rows of `boards` by the reference engine's alpha-beta search
/// (`tests/reference/search.rs`), printing each row's time and search size.
fn check_by_reference_search(boards: &[(u8, u8)]) {
    let mut checked = 0;
    for r in rows() {
        if !boards.contains(&(r.holes, r.seeds)) {
            continue;
        }
        let g = reference_game(r.options);
        let clock = std::time::Instant::now();
        let mut search = refe::Search::new(g);
        let v = search.value(&refe::start(g, r.holes as usize, r.seeds as u32));
        eprintln!(
            "Kalah({},{}) {:?}: {v} by the reference search, {} positions, {:.1} s",
            r.holes,
            r.seeds,
            r.options,
            search.nodes,
            clock.elapsed().as_secs_f64()
        );
        assert_eq!(v, r.value, "Kalah({},{}) {:?}", r.holes, r.seeds, r.options);
        checked += 1;
    }
    assert_eq!(checked, boards.len() * 8);
}

/// The (6,3) rows by the reference engine's own search: the second method of
/// `scripts/reference-values.sh` for that board (`check` = reference search).
#[test]
#[ignore = "slow: minutes per row in release"]
fn option_values_6x3_by_the_reference_search() {
    check_by_reference_search(&[(6, 3)]);
}

/// The (5,3) and (6,2) rows by the reference engine's own search (their `check` is the whole
/// board's endgame tables; this is a third method). About 15 s in release.
#[test]
#[ignore = "slow: 15 s in release"]
fn option_values_5x3_6x2_by_the_reference_search() {
    check_by_reference_search(&[(5, 3), (6, 2)]);
}
