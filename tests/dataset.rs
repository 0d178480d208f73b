//! `mancala dataset` (issue 55): every line's values are `mancala analyze`'s, the positions are
//! distinct, and the file depends on the seed only (not on the threads).

use crate::util::{fails, mancala, ok};
use serde_json::Value;
use std::collections::HashSet;

/// The lines of `mancala dataset ARGS --out -`.
fn dataset(args: &[&str]) -> Vec<Value> {
    let out = ok(&[&["dataset"][..], args, &["--out", "-"]].concat());
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Each line against `analyze --batch` of its position: the value, the best moves, every move's
/// value; `future` is the value less the stores' difference from the mover's side.
fn check(game: &[&str], lines: &[Value]) {
    let dir = crate::util::temp_dir(&format!("dataset-analyze-{}", game[0]));
    let file = dir.join("positions.txt");
    let positions: Vec<&str> = lines
        .iter()
        .map(|l| l["position"].as_str().unwrap())
        .collect();
    assert_eq!(
        positions.iter().collect::<HashSet<_>>().len(),
        positions.len(),
        "distinct"
    );
    std::fs::write(&file, positions.join("\n")).unwrap();
    // `--batch` reads whole positions: the board's flags but `--seeds`.
    let board: Vec<&str> = game[..3].to_vec();
    assert_eq!(board[1], "--holes");
    let args = [
        &["analyze"][..],
        &board,
        &["--batch", file.to_str().unwrap()],
    ]
    .concat();
    let analysed: Vec<Value> = ok(&args)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for (l, a) in lines.iter().zip(&analysed) {
        assert_eq!(
            (&l["value"], &l["best"], &l["moves"]),
            (&a["value"], &a["best"], &a["moves"]),
            "{l}"
        );
        let stores: Vec<i64> = l["position"]
            .as_str()
            .unwrap()
            .split('/')
            .nth(2)
            .unwrap()
            .split(',')
            .map(|x| x.parse().unwrap())
            .collect();
        let sign = if l["to_move"] == "S" { 1 } else { -1 };
        assert_eq!(
            l["future"].as_i64().unwrap(),
            sign * (l["value"].as_i64().unwrap() - (stores[0] - stores[1])),
            "{l}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn random_positions_have_analyze_values_whatever_the_threads() {
    let game = ["kalah", "--holes", "4", "--seeds", "3"];
    let args = [
        &game[..],
        &["--positions", "40", "--from", "random", "--seed", "3"],
    ]
    .concat();
    let one = dataset(&[&args[..], &["--threads", "1"]].concat());
    let two = dataset(&[&args[..], &["--threads", "2"]].concat());
    assert_eq!(one.len(), 40);
    assert_eq!(one, two, "the file depends on the seed, not the threads");
    assert_ne!(
        one,
        dataset(
            &[
                &game[..],
                &["--positions", "40", "--from", "random", "--seed", "4"]
            ]
            .concat()
        )
    );
    check(&game, &one);
}

#[test]
fn perfect_play_moves_only_by_best_moves() {
    let game = ["dakon", "--holes", "3", "--seeds", "2"];
    let lines = dataset(
        &[
            &game[..],
            &["--positions", "12", "--from", "perfect", "--seed", "5"],
        ]
        .concat(),
    );
    check(&game, &lines);
    // Along each sampled game (ply 0 starts one), the next position is the one of a best move.
    for w in lines.windows(2) {
        let (a, b) = (&w[0], &w[1]);
        if b["ply"].as_u64() != Some(a["ply"].as_u64().unwrap() + 1) {
            continue;
        }
        let children: Value = serde_json::from_str(&ok(&[
            "moves",
            "dakon",
            "--position",
            a["position"].as_str().unwrap(),
            "--json",
        ]))
        .unwrap();
        let next = children["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["position"] == b["position"]);
        let mv = next.expect("the next position is a child")["move"].clone();
        assert!(a["best"].as_array().unwrap().contains(&mv), "{a} then {b}");
    }
}

#[test]
fn too_few_positions_is_a_warning_and_bad_flags_are_errors() {
    // Kalah(3,1) has few positions on its perfect lines.
    let out = mancala(&[
        "dataset",
        "kalah",
        "--holes",
        "3",
        "--seeds",
        "1",
        "--positions",
        "1000",
        "--from",
        "perfect",
        "--out",
        "-",
    ]);
    assert!(out.status.success());
    let n = String::from_utf8(out.stdout).unwrap().lines().count();
    assert!((1..1000).contains(&n), "{n}");
    assert!(String::from_utf8_lossy(&out.stderr).contains(&format!("only {n} distinct positions")));
    let e = fails(&[
        "dataset",
        "kalah",
        "--positions",
        "0",
        "--from",
        "random",
        "--out",
        "-",
    ]);
    assert!(e.contains("--positions must be at least 1"), "{e}");
    let e = fails(&[
        "dataset",
        "kalah",
        "--positions",
        "3",
        "--from",
        "random",
        "--out",
        "-",
        "--time-limit",
        "1",
    ]);
    assert!(e.contains("--time-limit does not apply"), "{e}");
    let e = fails(&[
        "dataset",
        "kalah",
        "--positions",
        "3",
        "--from",
        "random",
        "--out",
        "/nonexistent/dir/x.jsonl",
        "--holes",
        "3",
    ]);
    assert!(e.contains("--out /nonexistent/dir/x.jsonl"), "{e}");
}

#[test]
fn an_out_that_is_no_regular_file_is_written_in_place() {
    // Renaming a finished temporary file over `/dev/null` would replace the device with a file.
    use std::os::unix::fs::FileTypeExt;
    ok(&[
        "dataset",
        "kalah",
        "--holes",
        "3",
        "--seeds",
        "1",
        "--positions",
        "2",
        "--from",
        "random",
        "--out",
        "/dev/null",
    ]);
    let kind = std::fs::metadata("/dev/null").unwrap().file_type();
    assert!(kind.is_char_device(), "/dev/null is still the device");
    assert!(!std::path::Path::new("/dev/null.tmp").exists());
    let dir = crate::util::temp_dir("dataset-out");
    let e = fails(&[
        "dataset",
        "kalah",
        "--holes",
        "3",
        "--positions",
        "2",
        "--from",
        "random",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(e.contains("a directory"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_books_positions_have_the_searchs_values() {
    // Kalah(6,4): the book holds every move of the start, so its line needs no search; its
    // value is the published +8 (docs/reference-values.md), its moves analyze's.
    let kalah = dataset(&[
        "kalah",
        "--from",
        "book",
        "--positions",
        "1",
        "--threads",
        "1",
    ]);
    assert_eq!(kalah.len(), 1);
    assert_eq!(kalah[0]["position"], "4,4,4,4,4,4/4,4,4,4,4,4/0,0/S");
    assert_eq!(
        (&kalah[0]["value"], &kalah[0]["ply"]),
        (&8.into(), &0.into())
    );
    let a: Value = serde_json::from_str(&ok(&["analyze", "kalah", "--json"])).unwrap();
    assert_eq!(a["source"], "book", "{a}");
    assert_eq!(
        (&kalah[0]["best"], &kalah[0]["moves"]),
        (&a["best"], &a["moves"])
    );

    // Walak-pussa 7x4, shallowest first: the start, the seven positions after its moves, then
    // the first at ply 2. A sample is checked against the search without the book: one ply-1
    // position (each move's value a search of a ply-2 position) and the ply-2 one.
    let game = ["walak-pussa", "--holes", "7", "--seeds", "4"];
    let args = [&game[..], &["--from", "book", "--positions", "9"]].concat();
    let lines = dataset(&[&args[..], &["--threads", "1"]].concat());
    let plies: Vec<i64> = lines.iter().map(|l| l["ply"].as_i64().unwrap()).collect();
    assert_eq!(plies, [0, 1, 1, 1, 1, 1, 1, 1, 2]);
    for l in [&lines[1], &lines[8]] {
        let a: Value = serde_json::from_str(&ok(&[
            "analyze",
            "walak-pussa",
            "--holes",
            "7",
            "--position",
            l["position"].as_str().unwrap(),
            "--no-book",
            "--json",
            "--threads",
            "1",
        ]))
        .unwrap();
        assert_eq!(a["source"], "search", "{a}");
        assert_eq!(
            (&l["value"], &l["best"], &l["moves"]),
            (&a["value"], &a["best"], &a["moves"]),
            "{l}"
        );
    }
    // The same file whatever the threads.
    let two = dataset(&[&args[..], &["--threads", "2"]].concat());
    assert_eq!(two, lines);

    // A board the book does not cover is an error that says which it covers.
    let e = fails(&[
        "dataset",
        "kalah",
        "--holes",
        "4",
        "--from",
        "book",
        "--positions",
        "3",
        "--out",
        "-",
    ]);
    assert!(e.contains("the opening book holds no position"), "{e}");
    assert!(e.contains("walak-pussa/7"), "{e}");
}
