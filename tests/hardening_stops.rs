//! Nothing hangs (issue 56, findings 1 and 4): every command that sows stops on its time limit
//! or the first Ctrl-C within a second, on RELAY too (tests/data/relay.txt: a Walak-pussa
//! position whose move 2 relays for longer than anyone waits), and says which sowing it gave
//! up on instead of waiting for it.

use crate::hardening::{run_bounded, signalled};
use crate::serve::relay;
use crate::util::temp_dir;
use std::process::Output;
use std::time::{Duration, Instant};

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).to_string(),
        String::from_utf8_lossy(&o.stderr).to_string(),
    )
}

/// Runs `args` and asserts it ended within `secs` seconds (a hang is killed at 30 s).
fn within(args: &[&str], secs: f64) -> Output {
    let started = Instant::now();
    let o = run_bounded(args, 30);
    let took = started.elapsed().as_secs_f64();
    assert!(took < secs, "{args:?} took {took:.1} s");
    o
}

#[test]
fn a_stopped_solve_of_relay_answers_bounds_and_a_move_within_two_seconds() {
    // It ran 649 s: the fallback move's look-ahead sowed move 2 with a stop nobody raised.
    let args = [
        "solve",
        "walak-pussa",
        "--position",
        relay(),
        "--time-limit",
        "1",
    ];
    let o = within(&args, 2.0);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(124), "{out}{err}");
    assert!(out.contains("value:    in [-255, +255]"), "{out}");
    assert!(
        out.contains("move:     1 ") || out.contains("cannot play now"),
        "{out}"
    );
    let o = within(&[&args[..], &["--json"]].concat(), 2.0);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["complete"], false);
    assert!(v["best"].as_array().is_some_and(|b| !b.is_empty()) || v["unfinished"].is_array());
}

#[test]
fn a_stopped_analysis_of_relay_ends_with_the_whole_range() {
    // It never ended: the analysis sowed the root's moves without its stop.
    let o = within(
        &[
            "analyze",
            "walak-pussa",
            "--position",
            relay(),
            "--time-limit",
            "1",
        ],
        2.0,
    );
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(124), "{out}{err}");
    assert!(out.contains("value:    in [-255, +255]"), "{out}");
}

#[test]
fn moves_that_reach_the_relay_are_reported_as_still_relaying() {
    // `--moves 2` and a record that plays move 2 hung `solve` and `analyze` past their limit.
    let dir = temp_dir("h56-relay-record");
    let record = dir.join("relay.json");
    std::fs::write(
        &record,
        serde_json::json!({
            "format": 1, "game": "walak-pussa", "options": [], "start": relay(),
            "moves": ["N2"], "values": [null], "end": relay(), "score": [0, 0], "over": false,
        })
        .to_string(),
    )
    .unwrap();
    let record = record.to_str().unwrap();
    for (command, how) in [
        ("solve", vec!["--position", relay(), "--moves", "2"]),
        ("analyze", vec!["--load", record]),
    ] {
        let args = [&[command, "walak-pussa"][..], &how, &["--time-limit", "1"]].concat();
        let o = within(&args, 2.0);
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(124), "{args:?}: {out}{err}");
        assert!(out.is_empty(), "{out}");
        assert!(
            err.contains("move #1 (")
                && err.contains("still relaying")
                && err.contains("not played"),
            "{err}"
        );
    }
    // Without a time limit, the first Ctrl-C ends them within a second, 130.
    for args in [
        vec!["show", "walak-pussa", "--load", record],
        vec!["moves", "walak-pussa", "--position", relay()],
        vec!["solve", "walak-pussa", "--load", record],
    ] {
        let o = signalled(&args, "-INT", Duration::from_millis(500));
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(130), "{args:?}: {out}{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

/// The laps in "move #1 (2) relays for more than N laps; ... not played" (issue 56 asks for
/// laps, not seconds).
fn laps_in(err: &str) -> u64 {
    let (_, rest) = err
        .split_once("relays for more than ")
        .unwrap_or_else(|| panic!("no lap count in {err}"));
    let n = rest.split(' ').next().unwrap();
    assert!(rest[n.len()..].starts_with(" laps"), "{err}");
    n.parse().unwrap()
}

#[test]
fn a_stopped_relay_says_how_many_laps_it_ran() {
    // The message said seconds ("after 1.0 s"); the sowing knows its laps. A relay gives up at a
    // look at its stop, every 2^20 laps, so it has run more than 2^20 of them.
    let args = [
        "solve",
        "walak-pussa",
        "--position",
        relay(),
        "--moves",
        "2",
        "--time-limit",
        "1",
    ];
    let o = within(&args, 2.0);
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(124), "{err}");
    assert!(
        err.starts_with("error: move #1 (2) relays for more than "),
        "{err}"
    );
    assert!(err.contains("not played"), "{err}");
    assert!(laps_in(&err) > 1 << 20, "{err}");
    // The same words for the move a stopped search could not play (its pick's budget).
    let o = within(
        &[
            "solve",
            "walak-pussa",
            "--position",
            relay(),
            "--time-limit",
            "1",
        ],
        2.0,
    );
    let (out, err) = text(&o);
    if out.contains("cannot play now") || out.contains("not played") {
        assert!(
            out.contains("relays for more than 1048576 laps; not played"),
            "{out}{err}"
        );
    }
}

#[test]
fn the_batch_honours_the_time_limit_per_line() {
    // Finding 9: `--time-limit` was ignored by `--batch` (26 lines took 74.7 s under 3 s).
    let dir = temp_dir("h56-batch-limit");
    let batch = dir.join("lines.txt");
    std::fs::write(
        &batch,
        "6,6,6,6,6,6/6,6,6,6,6,6/0,0/S\n0,0,0,0,0,1/0,0,0,0,0,1/0,0/S\n",
    )
    .unwrap();
    for command in ["solve", "analyze"] {
        let args = [
            command,
            "kalah",
            "--batch",
            batch.to_str().unwrap(),
            "--time-limit",
            "1",
            "--threads",
            "1",
        ];
        let o = within(&args, 4.0);
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(124), "{out}{err}");
        let lines: Vec<serde_json::Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 2, "{out}");
        assert_eq!(lines[0]["line"], 1);
        assert_eq!(lines[0]["complete"], false);
        assert_eq!(lines[0]["stopped"], "time-limit");
        let (lo, hi) = (
            lines[0]["lower"].as_i64().unwrap(),
            lines[0]["upper"].as_i64().unwrap(),
        );
        assert!(-72 <= lo && lo <= hi && hi <= 72, "{out}");
        assert_eq!(lines[1]["complete"], true, "{out}");
        assert_eq!(lines[1]["value"], 0, "{out}");
    }
}
