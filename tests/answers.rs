//! Instant answers (issue 54): the opening book against fresh searches, the start of Kalah(6,4)
//! answered at once by a fresh process, and the memory of proven positions: answered again from
//! it, a damaged store refused and rebuilt, two processes writing it at once.

use crate::util::{mancala, mancala_command, temp_dir};
use mancala::answers::book;
use mancala::answers::memory::Memory;
use mancala::rules::{Kalah, WalakPussa};
use mancala::SearchConfig;
use std::time::{Duration, Instant};

#[test]
fn book_entries_equal_fresh_searches() {
    // A sample: Walak-pussa's entries take a second each, Kalah's minutes (scripts/verify-book.sh
    // re-solves every entry).
    let b = book::embedded().unwrap();
    let entries = b.positions(WalakPussa::default(), 7).unwrap();
    assert!(
        !entries.is_empty(),
        "the book has Walak-pussa 7x4's opening"
    );
    let cfg = SearchConfig {
        threads: 2,
        tt_bytes: 64 << 20,
        ..SearchConfig::default()
    };
    for (p, future) in entries.iter().step_by(12) {
        let s = mancala::solve(p, &cfg).unwrap();
        assert_eq!(s.future, *future, "{p}");
    }
}

#[test]
fn kalah_book_entries_equal_fresh_searches_without_tables() {
    // The Kalah entries were built with endgame tables (scripts/build-book.sh); here a sample is
    // solved by the search alone. The two entries of each rule with the fewest seeds on the board
    // take seconds; the rest take minutes without tables (scripts/verify-book.sh has them all).
    let b = book::embedded().unwrap();
    let cfg = SearchConfig {
        threads: 2,
        tt_bytes: 64 << 20,
        ..SearchConfig::default()
    };
    for empty_capture in [false, true] {
        let rules = Kalah {
            empty_capture,
            ..Kalah::default()
        };
        let mut entries = b.positions(rules, 6).unwrap();
        assert!(
            entries.len() > 200,
            "the book has Kalah(6,4)'s opening to depth 2 at least ({} entries, empty capture {empty_capture})",
            entries.len()
        );
        entries.sort_by_key(|(p, _)| p.board().seeds_on_board());
        for (p, future) in &entries[..2] {
            let s = mancala::solve(p, &cfg).unwrap();
            assert_eq!(s.future, *future, "{p}");
        }
    }
}

#[test]
fn the_start_of_kalah_is_answered_at_once_by_a_fresh_process() {
    let started = Instant::now();
    let o = mancala(&["analyze", "kalah", "--json"]);
    let took = started.elapsed();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["complete"], true, "{v}");
    assert_eq!(v["source"], "book", "{v}");
    // The values of docs/reference-values.md: +8 by move 3 (the search's, 282 s on one thread).
    let values: Vec<i64> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["value"].as_i64().unwrap())
        .collect();
    assert_eq!(values, [-14, -10, 8, -2, -8, 4]);
    assert!(took < Duration::from_secs(1), "took {took:?}");
    let text = String::from_utf8(mancala(&["solve", "kalah"]).stdout).unwrap();
    assert!(
        text.contains("value:    +8") && text.contains("source:   book"),
        "{text}"
    );
}

/// `analyze` of a small board with the memory in `file`, as JSON.
fn analyze_with_memory(file: &std::path::Path, holes: &str) -> (serde_json::Value, String) {
    let o = mancala_command()
        .args([
            "analyze",
            "kalah",
            "--holes",
            holes,
            "--seeds",
            "3",
            "--json",
            "--no-book",
        ])
        .arg("--memory")
        .arg(file)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    (
        serde_json::from_slice(&o.stdout).unwrap(),
        String::from_utf8(o.stderr).unwrap(),
    )
}

#[test]
fn the_same_question_is_answered_again_from_the_memory() {
    let file = temp_dir("answers-memory").join("memory.sqlite");
    let (first, _) = analyze_with_memory(&file, "4");
    assert_eq!(first["source"], "search");
    let (again, _) = analyze_with_memory(&file, "4");
    assert_eq!(again["source"], "memory");
    assert_eq!(again["moves"], first["moves"]);
    assert_eq!(again["value"], 6);
}

#[test]
fn a_second_solve_is_answered_from_the_memory() {
    // A solve keeps its value, its best moves' results exactly and every other move's result
    // bounded below them: enough to answer the same solve again without a search.
    let file = temp_dir("answers-solve-memory").join("memory.sqlite");
    let solve = |moves: &str| {
        let o = mancala_command()
            .args([
                "solve", "kalah", "--holes", "4", "--seeds", "3", "--moves", moves,
            ])
            .args(["--json", "--no-book"])
            .arg("--memory")
            .arg(&file)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap()
    };
    for moves in ["2", "1,4"] {
        let first = solve(moves);
        assert_eq!(first["source"], "search", "{first}");
        let again = solve(moves);
        assert_eq!(again["source"], "memory", "{again}");
        assert_eq!(again["nodes"], 0, "{again}");
        for field in ["value", "future", "best"] {
            assert_eq!(
                again[field], first[field],
                "{field}: {again} against {first}"
            );
        }
        // The same answer as every move's value by the search, asked without the memory.
        let o = mancala(&[
            "analyze",
            "kalah",
            "--holes",
            "4",
            "--seeds",
            "3",
            "--moves",
            moves,
            "--json",
            "--no-book",
            "--no-memory",
        ]);
        let every: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(again["value"], every["value"]);
        let best: Vec<&serde_json::Value> = every["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["value"] == every["value"])
            .map(|m| &m["move"])
            .collect();
        assert_eq!(
            again["best"].as_array().unwrap().iter().collect::<Vec<_>>(),
            best
        );
    }
}

#[test]
fn a_damaged_memory_is_refused_and_rebuilt() {
    let dir = temp_dir("answers-damaged");
    let file = dir.join("memory.sqlite");
    std::fs::write(&file, vec![0x5a; 8192]).unwrap();
    let (v, err) = analyze_with_memory(&file, "4");
    assert_eq!(
        v["source"], "search",
        "nothing was served from the damaged file"
    );
    assert_eq!(v["value"], 6);
    assert!(err.contains("refused"), "{err}");
    assert!(dir.join("memory.sqlite.refused").exists());
    // The new store is whole, and answers the next time.
    let m = Memory::open(&file, 1000).unwrap();
    assert!(m.refused.is_none());
    assert!(m.memory.check().unwrap() > 0);
    assert_eq!(analyze_with_memory(&file, "4").0["source"], "memory");
}

#[test]
fn two_processes_writing_the_memory_at_once_leave_it_valid() {
    let file = temp_dir("answers-two").join("memory.sqlite");
    // Four boards, each analysed by two processes at once: the same records written twice
    // over, and others beside them.
    let children: Vec<_> = ["3", "3", "4", "4", "5", "5"]
        .iter()
        .map(|holes| {
            mancala_command()
                .args([
                    "analyze", "kalah", "--holes", holes, "--seeds", "3", "--json",
                ])
                .args(["--no-book", "--threads", "1", "--memory"])
                .arg(&file)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for c in children {
        let o = c.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(
            o.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let m = Memory::open(&file, 1_000_000).unwrap();
    assert!(m.refused.is_none());
    let n = m.memory.check().unwrap();
    assert!(n >= 3 * 4, "{n} records");
    for holes in ["3", "4", "5"] {
        assert_eq!(analyze_with_memory(&file, holes).0["source"], "memory");
    }
}

/// Issue 54, must-have 5: a stopped analysis never leaves bounds alone. It names the moves it
/// proved best or, when it proved none, a move to play (the look-ahead's pick among the moves
/// not proven worse); checked against the whole analysis's values.
#[test]
fn a_stopped_analysis_names_a_move_to_play() {
    let board = ["kalah", "--holes", "6", "--seeds", "3", "--threads", "1"];
    let run = |extra: &[&str]| {
        let o = mancala(&[&["analyze"], &board[..], extra].concat());
        serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap()
    };
    let whole = run(&["--json"]);
    assert_eq!(whole["complete"], true, "{whole}");
    let value = |m: u64| {
        whole["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["move"] == m)
            .unwrap()["value"]
            .as_i64()
            .unwrap()
    };
    let best = whole["value"].as_i64().unwrap();
    for limit in ["0.02", "0.3", "1"] {
        let v = run(&["--time-limit", limit, "--json"]);
        if v["complete"] == true {
            continue;
        }
        let named: Vec<u64> = v["best"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_u64().unwrap())
            .collect();
        assert!(!named.is_empty(), "no move to play: {v}");
        if v["best_proven"] == true {
            assert!(named.iter().all(|&m| value(m) == best), "{v}");
        } else {
            assert_eq!(named.len(), 1, "{v}");
            // Not a move the analysis proved worse than another.
            let floor = v["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["lower"].as_i64().unwrap())
                .max()
                .unwrap();
            let pick = v["moves"]
                .as_array()
                .unwrap()
                .iter()
                .find(|m| m["move"] == named[0])
                .unwrap();
            assert!(pick["upper"].as_i64().unwrap() >= floor, "{v}");
        }
        let text = mancala(&[&["analyze"], &board[..], &["--time-limit", limit]].concat());
        let text = String::from_utf8_lossy(&text.stdout);
        assert!(
            text.contains("\nmove:     ") || text.contains("\nbest:     "),
            "{text}"
        );
    }
}
