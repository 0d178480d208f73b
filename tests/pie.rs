//! `--leftovers-unscored` (docs/rules.md §3.5) and `verify pie` (§3.9) from the command line: the
//! issue's KL1 commands, the pie rule against a brute force of the swap game in the reference
//! engine, and bad input.

use crate::reference as refe;
use crate::reference::RefGame;
use crate::util::{fails, json, ok, temp_dir};

/// The two commands of the issue, exactly as written there.
#[test]
fn kl1_draws_with_leftovers_unscored() {
    let out = ok(&[
        "solve",
        "kalah",
        "--position",
        "0,1/2,0/3,4/S",
        "--leftovers-unscored",
    ]);
    assert!(out.contains("value:    +0 (a draw"), "{out}");
    let out = ok(&[
        "play",
        "kalah",
        "--position",
        "0,1/2,0/3,4/S",
        "--moves",
        "2",
        "--leftovers-unscored",
    ]);
    assert!(out.contains("position: 0,0/0,0/4,4/-"), "{out}");
    assert!(out.trim_end().ends_with("game over: a draw 4-4"), "{out}");
    // Without the option North sweeps its two seeds: 4-6.
    let out = ok(&[
        "play",
        "kalah",
        "--position",
        "0,1/2,0/3,4/S",
        "--moves",
        "2",
    ]);
    assert!(
        out.trim_end().ends_with("game over: North wins 4-6"),
        "{out}"
    );
}

/// The option is one of the variant's: in JSON `options`, and tables built under it are a
/// variant of their own, refused for the standard rules.
#[test]
fn leftovers_unscored_is_a_variant_of_its_own() {
    let v = json(&[
        "solve",
        "kalah",
        "--holes",
        "3",
        "--seeds",
        "3",
        "--leftovers-unscored",
        "--empty-capture",
        "--json",
    ]);
    assert_eq!(
        v["options"],
        serde_json::json!(["empty-capture", "leftovers-unscored"])
    );
    let err = fails(&["solve", "dakon", "--leftovers-unscored"]);
    assert!(err.contains("applies to kalah only"), "{err}");
    // A table set built under the option, its files renamed as the standard rules' set: the
    // header says which rules it holds, and the query refuses it.
    let dir = temp_dir("leftovers-tables");
    let d = dir.to_str().unwrap();
    let build = [
        "tables",
        "build",
        "kalah",
        "--holes",
        "2",
        "--max-seeds",
        "4",
        "--dir",
        d,
    ];
    ok(&[&build[..], &["--leftovers-unscored"]].concat());
    let query = [
        "tables",
        "query",
        "kalah",
        "--position",
        "1,1/0,1/3,4/S",
        "--dir",
        d,
    ];
    let out = ok(&[&query[..], &["--leftovers-unscored"]].concat());
    assert!(out.contains("value:"), "{out}");
    for e in std::fs::read_dir(&dir).unwrap() {
        let path = e.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if let Some(rest) = name.strip_prefix("kalah+leftovers-unscored_") {
            std::fs::rename(&path, dir.join(format!("kalah_{rest}"))).unwrap();
        }
    }
    let err = fails(&query);
    assert!(
        err.contains("wrong table") && err.contains("leftovers-unscored"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The Kalah option sets as command-line flags and as the reference engine's game.
fn kalah_sets() -> Vec<(Vec<&'static str>, RefGame)> {
    let mut out = Vec::new();
    for bits in 0..8 {
        let (ec, me, lu) = (bits & 1 != 0, bits & 2 != 0, bits & 4 != 0);
        let flags = [
            (ec, "--empty-capture"),
            (me, "--end-when-mover-empty"),
            (lu, "--leftovers-unscored"),
        ];
        let flags = flags.iter().filter(|f| f.0).map(|f| f.1).collect();
        let g = RefGame::Kalah {
            empty_capture: ec,
            end_when_mover_empty: me,
            leftovers_unscored: lu,
        };
        out.push((flags, g));
    }
    out
}

/// `verify pie --json` on one board against the reference engine's swap game: every turn and
/// its value, the pie value, and the fairest turns.
fn check_pie(game: &str, flags: &[&str], g: RefGame, holes: u8, seeds: u8) {
    let (h, s) = (holes.to_string(), seeds.to_string());
    let mut args = vec![
        "verify", "pie", game, "--holes", &h, "--seeds", &s, "--json",
    ];
    args.extend_from_slice(flags);
    let v = json(&args);
    let board = &v["boards"][0];
    let want = refe::swap_game(g, &refe::start(g, holes as usize, seeds as u32));
    let what = format!("{game} {flags:?} {holes}x{seeds}");
    assert_eq!(board["status"], "solved", "{what}");
    let turns: Vec<(Vec<u8>, i32)> = board["turns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let moves = t["moves"].as_array().unwrap();
            let moves = moves.iter().map(|m| m.as_u64().unwrap() as u8).collect();
            (moves, t["value"].as_i64().unwrap() as i32)
        })
        .collect();
    assert_eq!(turns, want.turns, "{what}");
    assert_eq!(board["pie_value"], want.pie_value, "{what}");
    let least = -want.pie_value;
    let fairest: Vec<&Vec<u8>> = want
        .turns
        .iter()
        .filter(|t| t.1.abs() == least)
        .map(|t| &t.0)
        .collect();
    assert_eq!(board["fairest"], serde_json::json!(fairest), "{what}");
    assert_eq!(
        board["value"],
        want.turns.iter().map(|t| t.1).max().unwrap(),
        "{what}"
    );
}

/// Kalah under all eight option sets on the small boards, against the swap game solved in the
/// reference engine.
#[test]
fn pie_values_agree_with_the_swap_game_kalah() {
    for (flags, g) in kalah_sets() {
        for (holes, seeds) in [(1, 3), (2, 2), (2, 3), (3, 2), (3, 3), (4, 2)] {
            check_pie("kalah", &flags, g, holes, seeds);
        }
    }
}

/// Every Kalah board up to (4,4) under one option set by a second method: the first turns
/// enumerated by the reference engine, each valued by retrograde analysis (whole-board tables,
/// `tables query`; a turn that ends the game by its final score), against `verify pie --json`.
fn check_pie_by_tables(flags: &[&str], g: RefGame) {
    let dir = temp_dir(&format!("pie-tables{}", flags.concat()));
    let d = dir.to_str().unwrap();
    for holes in 1..=4u8 {
        // 8 seeds a hole: the (h,4) start's 2h*4 seeds in play.
        let (h, k) = (holes.to_string(), (8 * holes).to_string());
        let build = [
            "tables",
            "build",
            "kalah",
            "--holes",
            &h,
            "--max-seeds",
            &k,
            "--dir",
            d,
        ];
        ok(&[&build[..], flags].concat());
        for seeds in 1..=4u8 {
            let what = format!("kalah {flags:?} {holes}x{seeds}");
            let s = seeds.to_string();
            let pie = [
                "verify", "pie", "kalah", "--holes", &h, "--seeds", &s, "--json",
            ];
            let v = json(&[&pie[..], flags].concat());
            let board = &v["boards"][0];
            assert_eq!(board["status"], "solved", "{what}");
            let mut want = Vec::new();
            for (moves, q) in refe::first_turns(g, &refe::start(g, holes as usize, seeds as u32)) {
                let value = if q.to_move.is_none() {
                    refe::value(g, &q)
                } else {
                    let position = refe::format(&q);
                    let query = [
                        "tables",
                        "query",
                        "kalah",
                        "--position",
                        &position,
                        "--dir",
                        d,
                    ];
                    let t = json(&[&query[..], flags, &["--json"]].concat());
                    t["value"].as_i64().unwrap() as i32
                };
                want.push(serde_json::json!({"moves": moves, "value": value}));
            }
            let got: Vec<serde_json::Value> = board["turns"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| serde_json::json!({"moves": t["moves"], "value": t["value"]}))
                .collect();
            assert_eq!(got, want, "{what}");
            // South moves first: the second player leaves South min(v, -v) = -|v|.
            let values = want.iter().map(|t| t["value"].as_i64().unwrap());
            let pie_value = values.clone().map(|v| -v.abs()).max().unwrap();
            assert_eq!(board["pie_value"], pie_value, "{what}");
            let fairest: Vec<&serde_json::Value> = want
                .iter()
                .filter(|t| -t["value"].as_i64().unwrap().abs() == pie_value)
                .map(|t| &t["moves"])
                .collect();
            assert_eq!(board["fairest"], serde_json::json!(fairest), "{what}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The standard capture rule's four option sets up to (4,4), by the tables.
#[test]
fn pie_values_agree_with_the_tables_up_to_4x4() {
    for (flags, g) in kalah_sets()
        .into_iter()
        .filter(|s| !s.0.contains(&"--empty-capture"))
    {
        check_pie_by_tables(&flags, g);
    }
}

/// The empty-capture rule's four option sets up to (4,4), by the tables.
#[test]
fn pie_values_agree_with_the_tables_up_to_4x4_empty_capture() {
    for (flags, g) in kalah_sets()
        .into_iter()
        .filter(|s| s.0.contains(&"--empty-capture"))
    {
        check_pie_by_tables(&flags, g);
    }
}

/// The other four games on small boards (Dakon's first turns have extra turns; Djenon-aboure
/// and San-Yao may make the opponent pass inside the first turn).
#[test]
fn pie_values_agree_with_the_swap_game_other_games() {
    let dakon = RefGame::Dakon {
        nembak_takes_landing_seed: false,
        no_mikul: false,
    };
    check_pie("dakon", &[], dakon, 3, 2);
    check_pie("dakon", &[], dakon, 3, 3);
    check_pie("djenon-aboure", &[], RefGame::DjenonAboure, 3, 2);
    check_pie("djenon-aboure", &[], RefGame::DjenonAboure, 2, 3);
    let walak = RefGame::WalakPussa {
        singleton_restriction: false,
    };
    check_pie("walak-pussa", &[], walak, 3, 2);
    check_pie("walak-pussa", &[], walak, 2, 3);
    check_pie("san-yao", &[], RefGame::SanYao, 3, 2);
    check_pie("san-yao", &[], RefGame::SanYao, 2, 3);
}

/// A hand-checked board: Kalah(2,2), `2,2/2,2/0,0/S`. South has two first turns.
/// - `1 2`: pit 1's two seeds go to pit 2 and the store (1), an extra turn; then pit 2's three
///   seeds go to the store (2) and North's two pits (3 each), and South's row is empty: the game
///   ends, North sweeps 6, 2-6, v = -4.
/// - `2`: one seed to the store and one to North, the turn passes. The start is worth -2
///   (docs/rules.md §3.7) and the other turn only -4, so this one is worth -2.
///
/// Both leave North ahead, so North keeps its side after either; P = -min(4, 2) = -2, and the
/// fairest turn is `2`.
#[test]
fn pie_kalah_2x2_by_hand() {
    let out = ok(&["verify", "pie", "kalah", "--holes", "2", "--seeds", "2"]);
    let lines: Vec<&str> = out.lines().map(str::trim_end).collect();
    assert!(lines.contains(&"  1 2      -4  keep"), "{out}");
    assert!(lines.contains(&"  2        -2  keep  fairest"), "{out}");
    assert!(lines.contains(&"pie value:   -2"), "{out}");
    assert!(lines.contains(&"fairest:     2"), "{out}");
}

/// Bad input: a position that is not a standard start, a board where the game is over at once,
/// a board with more first turns than allowed: one line on stderr, a failing exit, no stdout.
#[test]
fn pie_bad_input() {
    let err = fails(&["verify", "pie", "kalah", "--position", "4,4,4/4,4,4/0,1/S"]);
    assert!(err.contains("needs a standard start"), "{err}");
    let err = fails(&["verify", "pie", "kalah", "--position", "4,4,4/4,4,3/0,0/S"]);
    assert!(err.contains("needs a standard start"), "{err}");
    let err = fails(&["verify", "pie", "kalah", "--position", "4,4,4/4,4,4/0,0/N"]);
    assert!(err.contains("needs a standard start"), "{err}");
    let err = fails(&["verify", "pie", "djenon", "--holes", "3", "--seeds", "1"]);
    assert!(err.contains("game is over at the start"), "{err}");
    let err = fails(&[
        "verify",
        "pie",
        "dakon",
        "--holes",
        "4",
        "--max-turns",
        "10",
    ]);
    assert!(err.contains("more than 10 first turns"), "{err}");
    let err = fails(&["verify", "pie", "kalah", "--holes", "9"]);
    assert_eq!(err.lines().count(), 1, "{err}");
    // A standard start given as a position is accepted.
    let out = ok(&["verify", "pie", "kalah", "--position", "2,2/2,2/0,0/S"]);
    assert!(out.contains("board 2x2"), "{out}");
}
