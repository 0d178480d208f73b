//! `mancala engine` driven through a pipe, as a tournament harness drives it (docs/protocol.md).

use crate::util::json;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// An engine process with its pipes; replies are read on a thread so that a test can wait
/// with a timeout instead of hanging.
struct Engine {
    child: Child,
    input: ChildStdin,
    lines: mpsc::Receiver<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mancala"))
            .arg("engine")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start the engine");
        let input = child.stdin.take().unwrap();
        let out: ChildStdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Self {
            child,
            input,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").unwrap();
        self.input.flush().unwrap();
    }

    /// The next reply line, within `secs` seconds.
    fn next(&self, secs: u64) -> String {
        self.lines
            .recv_timeout(Duration::from_secs(secs))
            .expect("a reply in time")
    }

    /// Reads lines until one starts with `prefix` (skipping `info` lines), and returns it.
    fn until(&self, prefix: &str, secs: u64) -> String {
        loop {
            let l = self.next(secs);
            if l.starts_with(prefix) {
                return l;
            }
            assert!(
                l.starts_with("info"),
                "unexpected reply {l:?} while waiting for {prefix}"
            );
        }
    }

    fn quit(mut self) {
        self.send("quit");
        let status = self.child.wait().unwrap();
        assert!(status.success());
    }
}

#[test]
fn handshake_and_an_exact_bestmove() {
    let mut e = Engine::start(&["--threads", "1"]);
    e.send("protocol");
    assert!(e.next(10).starts_with("id name mancala"));
    assert_eq!(e.next(10), "id protocol 1");
    assert_eq!(e.next(10), "protocolok");
    e.send("isready");
    assert_eq!(e.next(10), "readyok");
    e.send("position kalah --holes 4 --seeds 3");
    e.send("go");
    // Kalah(4,3): +6, best first move 2 (REFERENCE.md).
    assert_eq!(e.until("bestmove", 60), "bestmove 2 value +6");
    // The same value as `mancala solve` after a move, in the protocol's `moves` form.
    e.send("position kalah --holes 4 --seeds 3 moves 2 S4");
    e.send("go infinite");
    let want = json(&[
        "solve", "kalah", "--holes", "4", "--seeds", "3", "--moves", "2,4", "--json",
    ]);
    let line = e.until("bestmove", 60);
    let words: Vec<&str> = line.split(' ').collect();
    assert_eq!(words[2], "value");
    assert_eq!(
        words[3].parse::<i64>().unwrap(),
        want["value"].as_i64().unwrap()
    );
    let best: Vec<i64> = want["best"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_i64().unwrap())
        .collect();
    assert_eq!(
        words[1].parse::<i64>().unwrap(),
        best[0],
        "the lowest-numbered best move"
    );
    e.quit();
}

#[test]
fn depth_searches_give_estimates_and_errors_keep_the_engine_alive() {
    let mut e = Engine::start(&["--threads", "1"]);
    e.send("go");
    assert_eq!(e.next(10), "error no position: send position first");
    e.send("position kalah --holes 9");
    assert!(e.next(10).starts_with("error "), "holes out of range");
    e.send("position kalah --holes 4 --seeds 3 moves 9");
    assert!(e.next(10).starts_with("error move #1"));
    e.send("position chess");
    assert!(e.next(10).starts_with("error "));
    e.send("go sometime");
    assert!(e.next(10).starts_with("error go takes"));
    e.send("dance");
    assert_eq!(e.next(10), "error unknown command 'dance'");
    e.send("position san-yao --holes 4 --seeds 2");
    e.send("go depth 3");
    assert!(e.until("info depth 3 estimate", 30).contains("estimate"));
    let best = e.until("bestmove", 30);
    assert!(best.contains(" estimate "), "{best}");
    // A finished game: no move, its final score.
    e.send("position kalah --position 0,0/0,1/5,2/N");
    e.send("go");
    assert_eq!(e.until("bestmove", 10), "bestmove none value +2");
    e.quit();
}

#[test]
fn stop_and_movetime_end_a_long_search_with_a_move_and_proven_bounds() {
    let mut e = Engine::start(&["--threads", "1", "--hash-mb", "16"]);
    // Kalah(6,6) is far beyond a fraction of a second.
    e.send("position kalah --holes 6 --seeds 6");
    e.send("go movetime 300");
    let line = e.until("bestmove", 60);
    let w: Vec<&str> = line.split(' ').collect();
    assert_eq!(w[2], "bounds", "{line}");
    let (lo, hi): (i32, i32) = (w[3].parse().unwrap(), w[4].parse().unwrap());
    assert!(lo <= hi && lo >= -72 && hi <= 72, "{line}");
    let m: u8 = w[1].parse().unwrap();
    assert!((1..=6).contains(&m), "{line}");
    e.send("go");
    e.send("isready");
    assert_eq!(
        e.until("readyok", 10),
        "readyok",
        "isready answered during a search"
    );
    e.send("position kalah");
    assert_eq!(
        e.until("error", 10),
        "error a search is running: send stop first"
    );
    e.send("stop");
    assert!(e.until("bestmove", 30).starts_with("bestmove "));
    e.quit();
}

#[test]
fn the_end_of_input_ends_the_engine() {
    let mut e = Engine::start(&[]);
    e.send("isready");
    assert_eq!(e.next(10), "readyok");
    drop(e.input);
    assert!(e.child.wait().unwrap().success());
}
