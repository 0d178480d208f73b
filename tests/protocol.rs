//! `mancala engine` driven through a pipe, as a tournament harness drives it (docs/protocol.md).

use crate::util::json;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;
use std::time::Instant;

/// An engine process with its pipes; replies are read on a thread so that a test can wait
/// with a timeout instead of hanging.
struct Engine {
    child: Child,
    input: ChildStdin,
    lines: mpsc::Receiver<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Self {
        let mut child = crate::util::mancala_command()
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

    /// Writes raw bytes (not UTF-8, or a huge line) as they are.
    fn send_bytes(&mut self, bytes: &[u8]) {
        self.input.write_all(bytes).unwrap();
        self.input.flush().unwrap();
    }

    /// Sends the engine a signal (`INT`, `TERM`).
    fn signal(&self, name: &str) {
        let sent = Command::new("kill")
            .args([&format!("-{name}"), &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
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
    assert_eq!(e.next(10), "id protocol 2");
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
    assert!(e.until("info depth 3 ", 30).contains(" estimate "));
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

/// Walak-pussa's RELAY (issue 56): North's move 2 relays without end.
const RELAY: &str = "35,29,33,29/35,35,30,29/0,0/N";

/// The exact UCI exchange of a python-chess-style driver (`SimpleEngine.popen_uci`, then
/// `configure`, `play` and `analyse` with `multipv`), checked against `mancala solve` and
/// `mancala analyze`.
#[test]
fn a_uci_driver_needs_no_adapter() {
    let mut e = Engine::start(&[]);
    e.send("uci");
    assert!(e.next(10).starts_with("id name mancala "));
    assert!(e.next(10).starts_with("id author "));
    let mut options = Vec::new();
    loop {
        let l = e.next(10);
        if l == "uciok" {
            break;
        }
        assert!(l.starts_with("option name "), "{l}");
        options.push(l);
    }
    for name in [
        "Threads",
        "Hash",
        "UCI_Variant",
        "MultiPV",
        "Epsilon",
        "Temperature",
        "Seed",
    ] {
        assert!(
            options
                .iter()
                .any(|o| o.starts_with(&format!("option name {name} type "))),
            "{name} is declared: {options:?}"
        );
    }
    for option in [
        "Threads value 1",
        "UCI_Variant value kalah",
        "Holes value 4",
        "Seeds value 3",
    ] {
        e.send(&format!("setoption name {option}"));
    }
    e.send("isready");
    assert_eq!(e.next(10), "readyok", "setoption answers nothing");
    e.send("ucinewgame");
    e.send("position startpos");
    e.send("go movetime 60000");
    // Kalah(4,3): +6 for South, who moves; best first move 2 (REFERENCE.md).
    let info = e.until("info depth", 60);
    assert!(info.contains(" score cp 600 "), "{info}");
    assert!(info.contains(" pv 2"), "{info}");
    assert_eq!(e.until("bestmove", 60), "bestmove 2", "a bare bestmove");
    // After S2 S4 (an extra turn, then North): the score is from North's side.
    e.send("position startpos moves 2 4");
    e.send("go infinite");
    let want = json(&[
        "solve", "kalah", "--holes", "4", "--seeds", "3", "--moves", "2,4", "--json",
    ]);
    let info = e.until("info depth", 60);
    let cp = -100 * want["value"].as_i64().unwrap();
    assert!(
        info.contains(&format!(" score cp {cp} ")),
        "{info} vs {want}"
    );
    let best = want["best"][0].as_i64().unwrap();
    assert_eq!(e.until("bestmove", 60), format!("bestmove {best}"));
    // MultiPV: one line per move, each with its exact value, best first.
    e.send("setoption name MultiPV value 8");
    e.send("position startpos");
    e.send("go");
    let all = json(&["analyze", "kalah", "--holes", "4", "--seeds", "3", "--json"]);
    let mut want: Vec<(i64, i64)> = all["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["value"].as_i64().unwrap() * 100,
                m["move"].as_i64().unwrap(),
            )
        })
        .collect();
    want.sort_by_key(|&(cp, mv)| (-cp, mv));
    for (k, (cp, mv)) in want.iter().enumerate() {
        let l = e.until("info multipv", 60);
        assert!(l.starts_with(&format!("info multipv {} ", k + 1)), "{l}");
        assert!(l.contains(&format!(" score cp {cp} ")), "{l}, want {cp}");
        assert!(l.contains(&format!(" pv {mv}")), "{l}, want {mv}");
    }
    assert_eq!(e.until("bestmove", 60), format!("bestmove {}", want[0].1));
    // A finished game: no move.
    e.send("setoption name Holes value 0");
    e.send("position fen 0,0/0,1/5,2/N");
    e.send("go");
    assert_eq!(e.until("bestmove", 10), "bestmove (none)");
    // Errors are info strings, which drivers show and do not choke on.
    e.send("setoption name Colour value red");
    assert!(e.next(10).starts_with("info string error unknown option"));
    e.quit();
}

/// Issue 55: `go movetime 2000` from Kalah(6,4)'s start played 6 (+4), a 6-ply look-ahead's
/// choice, where `go depth 12` finds 3 (+8) in a quarter of a second.
#[test]
fn a_timed_search_plays_what_a_quick_deeper_look_ahead_prefers() {
    let mut e = Engine::start(&["--threads", "1", "--hash-mb", "64"]);
    e.send("position kalah --holes 6 --seeds 4");
    e.send("go depth 12");
    let quick = e.until("bestmove", 60);
    assert!(quick.starts_with("bestmove 3 estimate "), "{quick}");
    e.send("go movetime 2000");
    let started = Instant::now();
    let timed = e.until("bestmove", 60);
    let took = started.elapsed();
    assert!(timed.starts_with("bestmove 3 bounds "), "{timed}");
    assert!(
        took < Duration::from_millis(3000),
        "movetime 2000 took {took:?}"
    );
    e.quit();
}

/// Issue 56, finding 3: a signal stops the running search only; the next `go` runs normally; a
/// signal to an idle engine ends it cleanly.
#[test]
fn a_signal_stops_one_search_and_ends_an_idle_engine() {
    let mut e = Engine::start(&["--threads", "1", "--hash-mb", "16"]);
    e.send("position kalah --holes 6 --seeds 6");
    e.send("go");
    e.send("isready");
    assert_eq!(e.until("readyok", 10), "readyok");
    e.signal("INT");
    assert!(e.until("bestmove", 30).contains(" bounds "));
    // Before the fix every later `go` answered at once with the whole range as bounds.
    e.send("position kalah --holes 4 --seeds 3");
    e.send("go");
    assert_eq!(e.until("bestmove", 60), "bestmove 2 value +6");
    e.signal("TERM");
    let started = Instant::now();
    let status = loop {
        if let Some(s) = e.child.try_wait().unwrap() {
            break s;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the idle engine did not exit"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "{status:?}");
}

/// Issue 56, finding 3: a line that is not UTF-8 and a 10 MB line each get an error line, and
/// the engine goes on (before: the first ended it, the second was read whole).
#[test]
fn bad_bytes_and_huge_lines_are_refused_and_the_loop_goes_on() {
    let mut e = Engine::start(&["--threads", "1"]);
    e.send_bytes(b"isready \xff\xfe\n");
    assert_eq!(e.next(10), "error line 1 is not UTF-8: ignored");
    let mut huge = vec![b'x'; 10 << 20];
    huge.push(b'\n');
    e.send_bytes(&huge);
    assert_eq!(
        e.next(30),
        "error line 2 is longer than 65536 bytes: ignored"
    );
    e.send("position kalah --holes 3 --seeds 2");
    e.send("go");
    assert!(e.until("bestmove", 30).contains(" value "));
    e.quit();
}

/// Issue 56, finding 4: a `position` whose move relays without end no longer blocks the loop:
/// `isready` raises its stop, the move is refused, and `quit` ends the engine.
#[test]
fn a_move_that_relays_without_end_does_not_block_the_engine() {
    let mut e = Engine::start(&["--threads", "1"]);
    e.send(&format!("position walak-pussa --position {RELAY} moves 2"));
    e.send("isready");
    let refused = e.next(30);
    assert!(
        refused.starts_with("error move #1 (2) was still sowing")
            && refused.contains("when the next command came"),
        "{refused}"
    );
    assert_eq!(e.next(10), "readyok");
    // The previous position (none) stays.
    e.send("go");
    assert_eq!(e.next(10), "error no position: send position first");
    // The end of input raises it too.
    e.send(&format!("position walak-pussa --position {RELAY} moves 2"));
    drop(e.input);
    let started = Instant::now();
    while e.child.try_wait().unwrap().is_none() {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the engine did not end"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(e.child.wait().unwrap().success());
}

/// The calibrated player through `setoption`: its moves are the library's draws from the same
/// seed and exact values, and `ucinewgame` replays them.
#[test]
fn the_calibrated_engine_draws_the_librarys_moves_from_its_seed() {
    use mancala::board::Move;
    use mancala::calibrated::{Calibrated, Calibration};
    let all = json(&["analyze", "kalah", "--holes", "4", "--seeds", "3", "--json"]);
    // South moves: the values are already from the mover's side; in move order, as the engine
    // generates them.
    let values: Vec<(Move, i32)> = all["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                Move(m["move"].as_u64().unwrap() as u8),
                m["value"].as_i64().unwrap() as i32,
            )
        })
        .collect();
    let mut library = Calibrated::new(Calibration::new(0.5, 1.0).unwrap(), 7);
    let want: Vec<String> = (0..12)
        .map(|_| format!("bestmove {}", library.choose(&values, Move(2)).0 .0))
        .collect();
    let mut e = Engine::start(&["--threads", "1"]);
    e.send("uci");
    while e.next(10) != "uciok" {}
    for option in [
        "Holes value 4",
        "Seeds value 3",
        "Epsilon value 0.5",
        "Temperature value 1",
        "Seed value 7",
    ] {
        e.send(&format!("setoption name {option}"));
    }
    let game = |e: &mut Engine| -> Vec<String> {
        e.send("ucinewgame");
        e.send("position startpos");
        (0..12)
            .map(|_| {
                e.send("go");
                e.until("bestmove", 60)
            })
            .collect()
    };
    let first = game(&mut e);
    assert_eq!(first, want);
    assert_eq!(game(&mut e), first, "ucinewgame replays from the seed");
    let distinct: std::collections::BTreeSet<&String> = first.iter().collect();
    assert!(distinct.len() > 1, "{first:?}");
    e.quit();
}

/// Issue 54: the engine keeps its analyzer (its transposition table, its tables) from one `go`
/// to the next, so the same position searched again costs a fraction of the first search, with
/// the same answer; `setoption` of the table makes a new one.
#[test]
fn the_next_go_answers_from_the_kept_search() {
    let mut e = Engine::start(&["--threads", "1", "--hash-mb", "64"]);
    let nodes = |line: &str| -> u64 {
        let w: Vec<&str> = line.split(' ').collect();
        let at = w.iter().position(|&x| x == "nodes").expect("a node count");
        w[at + 1].parse().unwrap()
    };
    e.send("position kalah --holes 6 --seeds 3");
    let mut searched = Vec::new();
    for _ in 0..2 {
        e.send("go");
        let info = e.until("info depth", 60);
        assert_eq!(e.until("bestmove", 60), "bestmove 5 value +2", "{info}");
        searched.push(nodes(&info));
    }
    assert!(
        searched[1] * 10 < searched[0],
        "nodes of the two searches: {searched:?}"
    );
    // A new table: searched from nothing again.
    e.send("setoption name Hash value 32");
    e.send("go");
    let info = e.until("info depth", 60);
    assert_eq!(e.until("bestmove", 60), "bestmove 5 value +2");
    assert!(nodes(&info) * 10 > searched[0], "{info} vs {searched:?}");
    e.quit();
}
