//! `--time-limit` and Ctrl-C: a stopped search prints the bounds it proved and exits 124 (time
//! limit) or 130 (interrupt).

use crate::util::mancala;
use mancala::reference_values::{Expected, KALAH};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Kalah(6,4): seconds of search on any machine, far past the limits below.
const LONG: [&str; 4] = ["kalah", "--threads", "1", "--no-book"];

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
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("(being valued)"), "{text}");
    assert!(text.contains("value:    in ["), "{text}");
    assert!(
        text.contains("stopped by the time limit of 0.3 s"),
        "{text}"
    );
}

#[test]
fn a_timed_out_analysis_keeps_the_moves_it_valued() {
    // Kalah(4,4): the full analysis first, then the same stopped at several limits. Whatever
    // the stop found, a valued move has its exact value, the others bounds around it, and the
    // position's bounds hold its value.
    let args = [
        "analyze",
        "kalah",
        "--holes",
        "4",
        "--threads",
        "1",
        "--json",
    ];
    let o = mancala(&args);
    assert!(o.status.success());
    let full: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let value = full["value"].as_i64().unwrap();
    // A limit may come after the analysis ended (then the output is the full one), but not all
    // of them: 1 ms is less than setting up the search takes, so that run at least was stopped.
    let mut stopped = 0;
    for limit in ["0.001", "0.02", "0.05", "0.1"] {
        let o = mancala(&[&args[..], &["--time-limit", limit]].concat());
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        if o.status.success() {
            assert_eq!(v, {
                let mut f = full.clone();
                f["seconds"] = v["seconds"].clone();
                f
            });
            continue;
        }
        assert_eq!(o.status.code(), Some(124));
        assert_eq!(v["complete"], false);
        assert_eq!(v["stopped"], "time-limit");
        stopped += 1;
        let (lo, hi) = (v["lower"].as_i64().unwrap(), v["upper"].as_i64().unwrap());
        assert!(lo <= value && value <= hi, "{value} not in [{lo}, {hi}]");
        let moves = v["moves"].as_array().unwrap();
        let exact = full["moves"].as_array().unwrap();
        assert_eq!(moves.len(), exact.len());
        for (m, e) in moves.iter().zip(exact) {
            assert_eq!(m["move"], e["move"]);
            let want = e["value"].as_i64().unwrap();
            let (a, b) = (m["lower"].as_i64().unwrap(), m["upper"].as_i64().unwrap());
            assert!(
                a <= want && want <= b,
                "move {}: {want} not in [{a}, {b}]",
                m["move"]
            );
            if !m["value"].is_null() {
                assert_eq!((m["value"].as_i64(), a, b), (Some(want), want, want));
            }
        }
    }
    assert!(stopped > 0, "no time limit stopped the analysis");
}

#[test]
fn ctrl_c_prints_proven_bounds_and_exits_130() {
    let child = crate::util::mancala_command()
        .args([&["solve"][..], &LONG, &["--json"]].concat())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The signal goes once the handler is installed (before that it would kill the process, and
    // the test would measure its start-up time): /proc says which signals a process catches.
    wait_until_it_catches_sigint(child.id());
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

/// Waits until process `pid` catches SIGINT (bit 1 of `SigCgt` in /proc/PID/status).
fn wait_until_it_catches_sigint(pid: u32) {
    let started = Instant::now();
    loop {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
        let caught = status
            .lines()
            .find_map(|l| l.strip_prefix("SigCgt:"))
            .and_then(|h| u64::from_str_radix(h.trim(), 16).ok())
            .unwrap();
        if caught & (1 << 1) != 0 {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "mancala never installed its SIGINT handler"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}
