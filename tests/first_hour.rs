//! What a new user meets first (issue 34): table sizes that fit the problem, a stopped solve
//! that still names a move, closed pipes, man pages.

use crate::util::{json, mancala, ok, temp_dir};

#[test]
fn a_small_board_takes_a_small_table_and_a_larger_one_grows_it() {
    let small = json(&["solve", "kalah", "--holes", "4", "--seeds", "3", "--json"]);
    assert_eq!(small["value"], 6);
    assert!(small["tt_bytes"].as_u64().unwrap() <= 32 << 20, "{small}");
    // Kalah(5,4) searches millions of nodes: the 8 MiB start table grows, the value stays.
    let grown = json(&["solve", "kalah", "--holes", "5", "--seeds", "4", "--json"]);
    let fixed = json(&[
        "solve",
        "kalah",
        "--holes",
        "5",
        "--seeds",
        "4",
        "--hash-mb",
        "8",
        "--json",
    ]);
    assert_eq!(grown["value"], 10);
    assert_eq!(fixed["value"], 10);
    assert_eq!(grown["best"], fixed["best"]);
    assert_eq!(fixed["tt_bytes"].as_u64().unwrap(), 8 << 20);
    assert!(grown["tt_bytes"].as_u64().unwrap() > 8 << 20, "{grown}");
}

#[test]
fn a_stopped_solve_names_a_move_to_play() {
    let out = mancala(&[
        "solve",
        "kalah",
        "--holes",
        "6",
        "--seeds",
        "6",
        "--time-limit",
        "0.2",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(124));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["complete"], false);
    let best = v["best"].as_array().unwrap();
    assert!(!best.is_empty(), "{v}");
    let m = best[0].as_u64().unwrap();
    assert!((1..=6).contains(&m));
    if v["best_proven"] == false {
        let worse: Vec<u64> = v["worse"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w.as_u64().unwrap())
            .collect();
        assert!(
            !worse.contains(&m),
            "the pick is not a move proven worse: {v}"
        );
    }
    let text = mancala(&[
        "solve",
        "kalah",
        "--holes",
        "6",
        "--seeds",
        "6",
        "--time-limit",
        "0.2",
    ]);
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(
        text.contains("move:     ") || text.contains("best:     "),
        "{text}"
    );
}

#[test]
fn a_closed_stdout_ends_commands_quietly() {
    use std::io::Read;
    use std::process::Stdio;
    for args in [
        &["completions", "bash"][..],
        &["man"],
        &["perft", "kalah", "--depth", "7"],
    ] {
        let mut child = crate::util::mancala_command()
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Read one byte and close the pipe, as `| head -c1` does.
        let mut stdout = child.stdout.take().unwrap();
        let mut one = [0u8; 1];
        let _ = stdout.read(&mut one);
        drop(stdout);
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(!err.contains("Broken pipe"), "{args:?}: {err}");
    }
}

#[test]
fn every_man_page_the_main_page_names_can_be_written() {
    let dir = temp_dir("man");
    ok(&["man", "--dir", dir.to_str().unwrap()]);
    let main = std::fs::read_to_string(dir.join("mancala.1")).unwrap();
    for page in [
        "mancala-solve",
        "mancala-tables",
        "mancala-perft",
        "mancala-engine",
    ] {
        assert!(
            main.contains(&page.replace('-', "\\-")),
            "the main page names {page}"
        );
        assert!(dir.join(format!("{page}.1")).is_file(), "{page}.1 written");
    }
    assert!(dir.join("mancala-tables-build.1").is_file());
    assert!(ok(&["man", "solve"]).contains("mancala\\-solve"));
    assert!(ok(&["man", "tables", "build"]).contains("build"));
    let err = crate::util::fails(&["man", "nope"]);
    assert!(err.contains("is not a command"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
