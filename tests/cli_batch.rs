//! `solve --batch` and `analyze --batch`: JSON Lines in input order, error records with line
//! numbers, one transposition table for the whole batch.

use crate::util::{json, legal, mancala, temp_dir, xorshift, Move, Position};
use mancala::rules::Kalah;
use serde_json::Value;
use std::collections::HashSet;
use std::io::Write;
use std::process::Stdio;

/// Runs `mancala args...` with `input` on stdin; returns the exit code and the JSON lines.
fn with_stdin(args: &[&str], input: &str) -> (Option<i32>, Vec<Value>) {
    let mut child = crate::util::mancala_command()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!err.contains("panicked"), "{err}");
    let lines = String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (o.status.code(), lines)
}

/// `n` distinct unfinished Kalah(6,3) positions, from random playouts of 6 to 25 moves.
fn kalah_6x3_positions(n: usize) -> Vec<String> {
    let start = Position::start(Kalah::default(), 6, 3).unwrap();
    let mut seen = HashSet::new();
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    while seen.len() < n {
        let mut p = start;
        let len = 6 + xorshift(&mut state) % 20;
        for _ in 0..len {
            let moves = legal(&p);
            if moves.is_empty() {
                break;
            }
            p = p.play_unchecked(Move(
                moves[(xorshift(&mut state) % moves.len() as u64) as usize],
            ));
        }
        if !p.is_over() {
            seen.insert(p.to_string());
        }
    }
    let mut v: Vec<String> = seen.into_iter().collect();
    v.sort();
    v
}

#[test]
fn a_batch_equals_separate_solves() {
    // 1,000 positions take minutes either way on this machine (the batch is not yet faster than
    // separate solves: see the report of issue 18), so the suite checks 40.
    let positions = kalah_6x3_positions(40);
    let dir = temp_dir("batch-40");
    let file = dir.join("positions.txt");
    std::fs::write(&file, positions.join("\n") + "\n").unwrap();
    let common = ["--threads", "1", "--hash-mb", "16"];
    let o = mancala(
        &[
            &["solve", "kalah", "--batch", file.to_str().unwrap()][..],
            &common,
        ]
        .concat(),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let lines: Vec<Value> = String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), positions.len());
    for (i, (p, line)) in positions.iter().zip(&lines).enumerate() {
        let one = json(&[&["solve", "kalah", "--position", p, "--json"][..], &common].concat());
        assert_eq!(line["line"], i + 1);
        assert_eq!(line["position"], one["position"]);
        assert_eq!(line["value"], one["value"], "{p}");
        assert_eq!(line["best"], one["best"], "{p}");
    }
}

#[test]
fn bad_lines_become_error_records_and_the_batch_goes_on() {
    let input = "# a comment\n\n1,1,1/1,1,1/0,0/S\n1,1/1,1/0,0/S\nnot a position\n2,0,0/0,0,1/3,3/N\n1,1,1,1/1,1,1,1/0,0/S\n";
    let (code, lines) = with_stdin(&["solve", "kalah", "--batch", "-", "--threads", "1"], input);
    assert_eq!(code, Some(1));
    let kinds: Vec<(u64, bool)> = lines
        .iter()
        .map(|l| (l["line"].as_u64().unwrap(), l["error"].is_string()))
        .collect();
    assert_eq!(
        kinds,
        [(3, false), (4, true), (5, true), (6, false), (7, true)]
    );
    assert!(
        lines[1]["error"].as_str().unwrap().contains("pits per row"),
        "{}",
        lines[1]
    );
    assert!(
        lines[2]["error"]
            .as_str()
            .unwrap()
            .contains("invalid position"),
        "{}",
        lines[2]
    );
    assert!(
        lines[4]["error"]
            .as_str()
            .unwrap()
            .contains("the batch is on 3"),
        "{}",
        lines[4]
    );
    for l in [&lines[0], &lines[3]] {
        let one = json(&[
            "solve",
            "kalah",
            "--position",
            l["position"].as_str().unwrap(),
            "--json",
        ]);
        assert_eq!(l["value"], one["value"]);
        assert_eq!(l["format"], 1);
    }
    // analyze: every move's value, as `analyze --json` gives them.
    let (code, lines) = with_stdin(&["analyze", "kalah", "--batch", "-"], "1,1,1/1,1,1/0,0/S\n");
    assert_eq!(code, Some(0));
    let one = json(&[
        "analyze",
        "kalah",
        "--position",
        "1,1,1/1,1,1/0,0/S",
        "--json",
    ]);
    assert_eq!(lines[0]["moves"], one["moves"]);
    assert_eq!(lines[0]["best"], one["best"]);
    // An empty input: an error record, exit 1.
    let (code, lines) = with_stdin(&["solve", "kalah", "--batch", "-"], "# nothing\n\n");
    assert_eq!(code, Some(1));
    assert_eq!(lines.len(), 1);
    assert!(lines[0]["error"].as_str().unwrap().contains("no positions"));
    let e = crate::util::fails(&["solve", "kalah", "--batch", "/no/such/file"]);
    assert!(e.contains("--batch /no/such/file"), "{e}");
}
