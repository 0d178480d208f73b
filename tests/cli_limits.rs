//! `--time-limit` and Ctrl-C: a stopped search prints the bounds it proved and exits 124 (time
//! limit) or 130 (interrupt).

use crate::util::mancala;
use mancala::reference_values::{Expected, KALAH};
use std::process::{Command, Stdio};
use std::time::Duration;

/// Kalah(6,4): seconds of search on any machine, far past the limits below.
const LONG: [&str; 3] = ["kalah", "--threads", "1"];

#[test]
fn a_timed_out_solve_prints_proven_bounds_and_exits_124() {
    // The published value (REFERENCE.md), too slow to solve here.
    let known = KALAH
        .iter()
        .find_map(|r| match (r.holes, r.seeds, r.empty_capture, r.value) {
            (6, 4, false, Expected::Exact(v)) => Some(v as i64),
            _ => None,
        })
        .unwrap();
    let o = mancala(&[&["solve"][..], &LONG, &["--time-limit", "0.3", "--json"]].concat());
    assert_eq!(
        o.status.code(),
        Some(124),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["complete"], false);
    assert_eq!(v["stopped"], "time-limit");
    assert!(v["value"].is_null());
    let (lo, hi) = (v["lower"].as_i64().unwrap(), v["upper"].as_i64().unwrap());
    assert!(lo <= known && known <= hi, "{known} not in [{lo}, {hi}]");
    // The stake bounds every value: the bounds are never wider than the seeds in play.
    assert!(-48 <= lo && hi <= 48, "[{lo}, {hi}]");
    let o = mancala(&[&["solve"][..], &LONG, &["--time-limit", "0.3"]].concat());
    assert_eq!(o.status.code(), Some(124));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("value:    in ["), "{text}");
    assert!(
        text.contains("stopped by the time limit of 0.3 s"),
        "{text}"
    );
    let o = mancala(&[&["analyze"][..], &LONG, &["--time-limit", "0.3"]].concat());
    assert_eq!(o.status.code(), Some(124));
    assert!(String::from_utf8_lossy(&o.stderr).contains("time limit"));
}

#[test]
fn ctrl_c_prints_proven_bounds_and_exits_130() {
    let child = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args([&["solve"][..], &LONG, &["--json"]].concat())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(700));
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let o = child.wait_with_output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["complete"], false);
    assert_eq!(v["stopped"], "interrupt");
    assert!(v["lower"].as_i64().unwrap() <= v["upper"].as_i64().unwrap());
}
