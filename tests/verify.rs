//! `mancala verify`: the survey against individual solves, opening certificates replayed with
//! `mancala play`, the memoised first-turn count against brute force, and bad input.

use crate::util::{
    fails, json, kalah, kalah_start_value, mancala, ok, solve_start, temp_dir, Position, Side,
};
use mancala::opening::{self, Limits};
use mancala::rules::{Dakon, DjenonAboure, Kalah, Rules};
use serde_json::Value;

fn moves_of(v: &Value) -> Vec<u8> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_u64().unwrap() as u8)
        .collect()
}

/// Survey rows against `solve` of each start, for an acyclic and a cyclic game.
#[test]
fn survey_equals_individual_solves() {
    let v = json(&[
        "verify",
        "first-player",
        "kalah",
        "--holes",
        "2..4",
        "--seeds",
        "1..3",
        "--threads",
        "1",
        "--json",
    ]);
    let rows = v["results"].as_array().unwrap();
    assert_eq!(rows.len(), 9);
    for r in rows {
        let (h, s) = (
            r["holes"].as_u64().unwrap() as u8,
            r["seeds"].as_u64().unwrap() as u8,
        );
        let (value, best) = solve_start(Kalah::default(), h, s, 1);
        assert_eq!(r["value"].as_i64(), Some(value as i64), "Kalah({h},{s})");
        assert_eq!(moves_of(&r["best"]), best, "Kalah({h},{s})");
    }
    let v = json(&[
        "verify",
        "first-player",
        "djenon-aboure",
        "--holes",
        "2..3",
        "--seeds",
        "1..3",
        "--json",
    ]);
    for r in v["results"].as_array().unwrap() {
        let (h, s) = (
            r["holes"].as_u64().unwrap() as u8,
            r["seeds"].as_u64().unwrap() as u8,
        );
        let (value, best) = solve_start(DjenonAboure, h, s, 2);
        assert_eq!(
            r["value"].as_i64(),
            Some(value as i64),
            "Djenon-aboure({h},{s})"
        );
        assert_eq!(moves_of(&r["best"]), best);
    }
    // And against the `solve` command itself, with a rule option.
    let v = json(&[
        "verify",
        "first-player",
        "dakon",
        "--holes",
        "3",
        "--seeds",
        "2..3",
        "--no-mikul",
        "--json",
    ]);
    for r in v["results"].as_array().unwrap() {
        let s = r["seeds"].to_string();
        let one = json(&[
            "solve",
            "dakon",
            "--holes",
            "3",
            "--seeds",
            &s,
            "--no-mikul",
            "--json",
        ]);
        assert_eq!(r["value"], one["value"]);
        assert_eq!(r["best"], one["best"]);
    }
}

#[test]
fn survey_writes_csv_and_svg_and_marks_time_outs_unknown() {
    let dir = temp_dir("verify");
    let (csv, svg) = (dir.join("k.csv"), dir.join("k.svg"));
    let out = ok(&[
        "verify",
        "first-player",
        "kalah",
        "--holes",
        "3..4",
        "--seeds",
        "1..2",
        "--csv",
        csv.to_str().unwrap(),
        "--plot",
        svg.to_str().unwrap(),
    ]);
    let k42 = kalah_start_value(4, 2, Kalah::default()).value;
    assert!(
        out.contains(&format!("| 4 | 2 | {k42:+} | South |")),
        "{out}"
    );
    let text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(
        text.lines().next(),
        Some("game,holes,seeds,value,winner,best,nodes,seconds,status")
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with(&format!("kalah,4,2,{k42},South,4,"))),
        "{text}"
    );
    let plot = std::fs::read_to_string(&svg).unwrap();
    assert!(
        plot.starts_with("<svg")
            && plot.contains("seeds per hole")
            && plot.contains("holes per row")
    );
    // A cyclic game far too large for half a second is cut off cleanly and reported unknown.
    let started = std::time::Instant::now();
    let v = json(&[
        "verify",
        "first-player",
        "walak-pussa",
        "--holes",
        "8",
        "--seeds",
        "5",
        "--time-limit",
        "0.5",
        "--json",
    ]);
    assert!(started.elapsed().as_secs_f64() < 20.0);
    assert_eq!(v["results"][0]["value"], Value::Null);
    assert!(v["results"][0]["winner"].is_null(), "{v}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every move sequence of the first turn, without memoisation: (turns, winning turns, largest
/// store, fewest moves of a winning turn).
fn brute_force<R: Rules>(
    p: &Position<R>,
    depth: u16,
    total: u32,
    acc: &mut (u64, u64, u32, Option<u16>),
) {
    p.for_each_child(|_, c| {
        if c.to_move() == Some(Side::South) {
            brute_force(&c, depth + 1, total, acc);
        } else {
            let store = c.score()[0];
            acc.0 += 1;
            acc.2 = acc.2.max(store);
            if 2 * store > total {
                acc.1 += 1;
                acc.3 = Some(acc.3.map_or(depth + 1, |d| d.min(depth + 1)));
            }
        }
    });
}

#[test]
fn memoised_first_turn_count_matches_brute_force() {
    for (holes, rules) in [
        (3, Dakon::default()),
        (4, Dakon::default()),
        (
            4,
            Dakon {
                no_mikul: true,
                nembak_takes_landing_seed: true,
            },
        ),
    ] {
        let p = Position::start(rules, holes, holes).unwrap();
        let total = 4 * holes as u32 * holes as u32 / 2;
        let mut acc = (0, 0, 0, None);
        brute_force(&p, 0, total, &mut acc);
        // A tiny cache, so that evictions and recomputation are exercised too.
        for cache_entries in [1 << 16, 7] {
            let r = opening::search(
                &p,
                &Limits {
                    cache_entries,
                    stop: None,
                },
            )
            .unwrap();
            assert!(r.complete);
            assert_eq!(r.total.to_u64(), Some(acc.0), "Dakon {holes} {rules:?}");
            assert_eq!(r.count.to_u64(), Some(acc.1));
            assert_eq!(r.max_store, acc.2);
            assert_eq!(r.shortest.as_ref().map(|m| m.len() as u16), acc.3);
            assert_eq!(r.winning, Some(acc.1 > 0));
        }
    }
    // Dakon 3x3: 13 first turns, 3 of them winning (docs/rules.md §9 checked by hand).
    let r = opening::search(
        &Position::start(Dakon::default(), 3, 3).unwrap(),
        &Limits::default(),
    )
    .unwrap();
    assert_eq!((r.total.to_u64(), r.count.to_u64()), (Some(13), Some(3)));
}

/// Replays a move list with `mancala play --json`: (to_move, [south, north]).
fn replay(game: &[&str], moves: &[u8]) -> (Value, [u64; 2]) {
    let list = moves
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let mut args = vec!["play"];
    args.extend_from_slice(game);
    args.extend_from_slice(&["--moves", &list, "--json"]);
    let v = json(&args);
    let score = v["score"].as_array().unwrap();
    (
        v["to_move"].clone(),
        [score[0].as_u64().unwrap(), score[1].as_u64().unwrap()],
    )
}

#[test]
fn opening_certificates_replay_with_play() {
    for holes in ["3", "4", "5"] {
        let game = ["dakon", "--holes", holes];
        let mut args = vec!["verify", "opening"];
        args.extend_from_slice(&game);
        args.push("--json");
        let v = json(&args);
        assert_eq!(v["winning"], true, "Dakon {holes}");
        assert_eq!(v["complete"], true);
        let total = v["total_seeds"].as_u64().unwrap();
        for key in ["shortest", "best_turn"] {
            let moves = moves_of(&v[key]);
            let (to_move, score) = replay(&game, &moves);
            // The first turn is over (North to move, or the game ended) and South holds more
            // than half of all seeds.
            assert!(
                to_move == "N" || to_move.is_null(),
                "{key} {moves:?}: {to_move}"
            );
            assert!(2 * score[0] > total, "{key} {moves:?}: {score:?}");
            // Every proper prefix is still inside the first turn.
            for k in 1..moves.len() {
                assert_eq!(replay(&game, &moves[..k]).0, "S", "{key} prefix {k}");
            }
        }
        assert_eq!(
            replay(&game, &moves_of(&v["best_turn"])).1[0],
            v["max_store"].as_u64().unwrap()
        );
    }
    // Kalah: no opening wins outright; the best first turn banks max_store and ends the turn.
    let v = json(&["verify", "opening", "kalah", "--json"]);
    assert_eq!(
        (
            v["winning"].clone(),
            v["count"].clone(),
            v["shortest"].clone()
        ),
        (Value::Bool(false), Value::from(0), Value::Null)
    );
    let (to_move, score) = replay(&["kalah"], &moves_of(&v["best_turn"]));
    assert_eq!(to_move, "N");
    assert_eq!(score[0], v["max_store"].as_u64().unwrap());
    // The text report states the verdict and a replayable certificate.
    let out = ok(&["verify", "opening", "dakon", "--holes", "4", "--solve"]);
    assert!(
        out.contains("verdict: South wins outright in the first turn"),
        "{out}"
    );
    assert!(
        out.contains("mancala play dakon --holes 4 --seeds 4 --moves 1,4,2,3,4,2"),
        "{out}"
    );
    assert!(out.contains("full game:"), "{out}");
}

#[test]
fn opening_stops_at_the_time_limit_with_lower_bounds() {
    let started = std::time::Instant::now();
    let v = json(&[
        "verify",
        "opening",
        "dakon",
        "--holes",
        "8",
        "--time-limit",
        "1",
        "--json",
    ]);
    assert!(started.elapsed().as_secs_f64() < 20.0);
    assert_eq!(v["complete"], false);
    assert_eq!(v["count"], Value::Null);
    assert!(v["count_at_least"].as_u64().is_some());
    // Whatever was found is a real first turn: it replays to the store reported.
    let (to_move, score) = replay(&["dakon", "--holes", "8"], &moves_of(&v["best_turn"]));
    assert_ne!(to_move, "S");
    assert_eq!(score[0], v["max_store"].as_u64().unwrap());
}

#[test]
fn published_rows_agree_within_a_short_time_limit() {
    // Small boards solve in well under a second; the larger ones may be skipped on a busy machine.
    let o = mancala(&["verify", "published", "--time-limit", "5"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!out.contains("DISAGREE"), "{out}");
    // Ours and the published value and best moves, both as in tests/data.
    let k44 = kalah_start_value(4, 4, kalah(true, false));
    let best = k44
        .best
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    let row = format!(
        "| Kalah(4,4) | empty-capture | {0:+} | {best} | {0:+} | {best} |",
        k44.value
    );
    assert!(out.contains(&row), "{out}");
    assert!(
        out.contains("| Kalah(6,6) | standard | >= +4 (open) |"),
        "{out}"
    );
    let agree = out.lines().filter(|l| l.contains("| agree |")).count();
    assert!(agree >= 8, "{out}");
}

#[test]
fn verify_rejects_bad_input() {
    let e = fails(&["verify", "first-player", "kalah", "--holes", "5..3"]);
    assert!(e.contains("empty range"), "{e}");
    let e = fails(&["verify", "first-player", "kalah", "--holes", "x"]);
    assert!(e.contains("not a number"), "{e}");
    let e = fails(&["verify", "first-player", "dakon", "--holes", "2..4"]);
    assert!(e.contains("3 to 10 holes"), "{e}");
    let e = fails(&[
        "verify",
        "first-player",
        "djenon-aboure",
        "--holes",
        "3",
        "--seeds",
        "1..9",
    ]);
    assert!(e.contains("1 to 8 seeds"), "{e}");
    for t in ["0", "-1", "abc", "inf"] {
        let e = fails(&[
            "verify",
            "first-player",
            "kalah",
            "--holes",
            "2",
            "--time-limit",
            t,
        ]);
        assert!(e.contains("positive number of seconds"), "{t}: {e}");
    }
    let e = fails(&[
        "verify",
        "first-player",
        "kalah",
        "--holes",
        "2",
        "--csv",
        "/nonexistent-dir/x.csv",
    ]);
    assert!(e.contains("--csv") && e.contains("cannot write"), "{e}");
    let e = fails(&[
        "verify",
        "first-player",
        "kalah",
        "--holes",
        "2",
        "--no-mikul",
    ]);
    assert!(e.contains("--no-mikul"), "{e}");
    fails(&["verify", "opening", "dakon", "--holes", "11"]);
    fails(&["verify", "opening", "kalah", "--position", "0,0/0,0/1,1/-"]);
    fails(&["verify", "published", "--time-limit", "0"]);
}

/// Ctrl-C in the middle of a survey: the sizes finished by then are kept in the CSV, the plot
/// and the table, the others marked, and the exit status is 130.
#[test]
fn an_interrupted_survey_keeps_its_finished_sizes() {
    let dir = temp_dir("verify-interrupt");
    let (csv, svg) = (dir.join("k.csv"), dir.join("k.svg"));
    // The 2-hole sizes take milliseconds; Kalah(6,6) would take hours: the signal lands between.
    let child = crate::util::mancala_command()
        .args([
            "verify",
            "first-player",
            "kalah",
            "--holes",
            "2..6",
            "--seeds",
            "1..6",
            "--threads",
            "1",
            "--csv",
            csv.to_str().unwrap(),
            "--plot",
            svg.to_str().unwrap(),
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run mancala");
    std::thread::sleep(std::time::Duration::from_secs(3));
    let killed = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill -INT");
    assert!(killed.success());
    let o = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{stderr}");
    let text = std::fs::read_to_string(&csv).expect("the CSV is written");
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("game,holes,seeds,value,winner,best,nodes,seconds,status")
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 30, "every size has a row: {text}");
    let solved: Vec<_> = rows.iter().filter(|r| r[8] == "solved").collect();
    assert!(!solved.is_empty(), "{text}");
    // Kalah(2,1) is +2 (and solved first).
    assert_eq!(
        (rows[0][1], rows[0][2], rows[0][3], rows[0][8]),
        ("2", "1", "2", "solved")
    );
    for r in &solved {
        let (h, s): (u8, u8) = (r[1].parse().unwrap(), r[2].parse().unwrap());
        let (want, _) = solve_start(Kalah::default(), h, s, 1);
        assert_eq!(r[3], want.to_string(), "Kalah({h},{s})");
    }
    assert_eq!(
        rows.iter().filter(|r| r[8] == "interrupted").count(),
        1,
        "{text}"
    );
    let unfinished = rows.iter().filter(|r| r[8] != "solved");
    assert!(unfinished.clone().all(|r| r[3].is_empty()), "{text}");
    assert!(rows.last().unwrap()[8] == "not-run", "{text}");
    let table = String::from_utf8_lossy(&o.stdout);
    assert!(table.contains("| 2 | 1 | +2 | South |"), "{table}");
    assert!(table.contains("| ? | interrupted |"), "{table}");
    let plot = std::fs::read_to_string(&svg).expect("the plot is written");
    assert!(plot.contains("interrupted"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `verify first-player --tables` without DIR probes the default table directory, as `solve
/// --tables` does: the same values, fewer nodes.
#[test]
fn survey_tables_default_to_the_default_directory() {
    let dir = temp_dir("survey-default-tables");
    ok(&[
        "tables",
        "build",
        "kalah",
        "--holes",
        "4",
        "--max-seeds",
        "12",
        "--dir",
        dir.to_str().unwrap(),
    ]);
    let survey = |tables: bool| -> Value {
        let mut args = vec![
            "verify",
            "first-player",
            "kalah",
            "--holes",
            "4",
            "--seeds",
            "2..3",
            "--threads",
            "1",
            "--json",
        ];
        if tables {
            args.push("--tables");
        }
        let o = crate::util::mancala_command()
            .args(&args)
            .env("MANCALA_TABLES", &dir)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        serde_json::from_slice(&o.stdout).unwrap()
    };
    let (plain, probed) = (survey(false), survey(true));
    let rows = |v: &Value| v["results"].as_array().unwrap().clone();
    for (a, b) in rows(&plain).iter().zip(rows(&probed).iter()) {
        assert_eq!(a["value"], b["value"], "{a} / {b}");
        assert_eq!(a["best"], b["best"], "{a} / {b}");
    }
    // Kalah(4,3) has 24 seeds: with every position of up to 12 on the board known, the search
    // stops far earlier.
    let nodes = |v: &Value| rows(v)[1]["nodes"].as_u64().unwrap();
    assert!(nodes(&probed) < nodes(&plain), "{plain} / {probed}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_tables_directory_that_does_not_exist_is_an_error() {
    let missing = "--tables=/nonexistent/mancala-tables";
    for args in [
        &[
            "verify",
            "first-player",
            "kalah",
            "--holes",
            "3",
            "--seeds",
            "1",
            missing,
        ][..],
        &["verify", "published", "--time-limit", "1", missing][..],
    ] {
        let err = fails(args);
        assert!(
            err.contains("--tables /nonexistent/mancala-tables: no such directory"),
            "{args:?}: {err}"
        );
        assert_eq!(err.matches("no such directory").count(), 1, "{err}");
    }
}
