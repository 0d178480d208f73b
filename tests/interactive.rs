//! `play --interactive` and `match --interactive`: driven through a pipe (one command per line, no
//! prompts) and through a pseudo-terminal (prompts, line editing, Ctrl-C).
//!
//! The games the human plays are worked out here first with the library and the search itself
//! (the human's moves from a rule, the engine's as first best moves), so the test knows what to
//! type; the engine's moves are then checked against `mancala analyze`, and the results against
//! `mancala play --moves`, `mancala match --moves` and `mancala solve`.

use crate::util::{cfg, json, legal, ok, Move, Position, Side};
use mancala::matches::{Match, MatchOptions};
use mancala::rules::{Dakon, Kalah, Rules, SanYao};
use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `mancala ARGS` with `input` on its stdin (a pipe).
fn session(args: &[&str], input: &str) -> Output {
    let mut child = crate::util::mancala_command()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run mancala");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    o
}

/// [`session`] expecting exit 0; stdout and stderr.
fn session_ok(args: &[&str], input: &str) -> (String, String) {
    let o = session(args, input);
    let (out, err) = (
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8(o.stderr).unwrap(),
    );
    assert!(o.status.success(), "{args:?} failed: {err}\n{out}");
    (out, err)
}

/// One move line of the output: `North plays 2 (engine, value North +8): 0,3,3/2,0,3/0,1/N`.
#[derive(Debug, Clone, PartialEq)]
struct Played {
    side: Side,
    mv: u8,
    /// The value the engine announced, for its moves.
    engine: Option<i32>,
    /// The position right after the move (in a match: in its round, before any next round's
    /// setup).
    after: String,
}

fn plays(out: &str) -> Vec<Played> {
    out.lines()
        .filter_map(|l| {
            let (side, rest) = if let Some(r) = l.strip_prefix("South plays ") {
                (Side::South, r)
            } else {
                (Side::North, l.strip_prefix("North plays ")?)
            };
            let (head, after) = rest.split_once(": ")?;
            // "North plays 2 (engine, value South +6)": the value labelled with the side it
            // favours.
            let (mv, engine) = match head.split_once(" (engine, value ") {
                Some((m, v)) => (m, Some(verdict_value(v.trim_end_matches(')')))),
                None => (head, None),
            };
            Some(Played {
                side,
                mv: mv.parse().unwrap(),
                engine,
                after: after.to_string(),
            })
        })
        .collect()
}

/// The line after `prefix`, which must be there.
fn line_after<'a>(out: &'a str, prefix: &str) -> &'a str {
    out.lines()
        .find_map(|l| l.strip_prefix(prefix))
        .unwrap_or_else(|| panic!("no '{prefix}' line in:\n{out}"))
}

/// The first best move of `p` by the search (the lowest-numbered move of the value), and the
/// value as a final South-minus-North score.
fn first_best<R: Rules>(p: &Position<R>) -> (u8, i32) {
    let values = solver::search::analyze(p, &cfg(1), None).unwrap();
    let side = p.to_move().unwrap();
    let finals: Vec<(u8, i32)> = values
        .iter()
        .map(|&(m, v)| (m.0, p.final_value(v)))
        .collect();
    let best = finals.iter().map(|f| side.sign() * f.1).max().unwrap();
    let mv = finals
        .iter()
        .filter(|f| side.sign() * f.1 == best)
        .map(|f| f.0)
        .min()
        .unwrap();
    (mv, side.sign() * best)
}

/// A whole game: the engine plays North's first best moves; South plays `pick` of its legal
/// moves. Returns South's moves and every move with its side.
fn plan_game<R: Rules>(
    mut p: Position<R>,
    pick: impl Fn(&[u8]) -> u8,
) -> (Vec<u8>, Vec<(Side, u8)>) {
    let (mut human, mut all) = (Vec::new(), Vec::new());
    while let Some(side) = p.to_move() {
        let mv = match side {
            Side::South => {
                let mv = pick(&legal(&p));
                human.push(mv);
                mv
            }
            Side::North => first_best(&p).0,
        };
        all.push((side, mv));
        p = p.try_play(Move(mv)).unwrap();
    }
    (human, all)
}

/// `analyze`'s JSON for a position of `game` (its name and rule flags): each move's value and the
/// best moves.
fn analyze(game: &[&str], position: &str) -> (Vec<(u8, i32)>, Vec<u8>) {
    let mut args = vec!["analyze"];
    args.extend_from_slice(game);
    args.extend(["--position", position, "--threads", "1", "--json"]);
    let v = json(&args);
    let moves = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["move"].as_u64().unwrap() as u8,
                m["value"].as_i64().unwrap() as i32,
            )
        })
        .collect();
    let best = v["best"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_u64().unwrap() as u8)
        .collect();
    (moves, best)
}

/// The game arguments of Kalah(4,3) and the interactive flags.
const K43: [&str; 5] = ["kalah", "--holes", "4", "--seeds", "3"];

fn interactive_args<'a>(game: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
    let mut a = vec!["play"];
    a.extend_from_slice(game);
    a.extend(["--interactive", "--threads", "1"]);
    a.extend_from_slice(extra);
    a
}

#[test]
fn a_whole_game_against_the_engine_through_a_pipe() {
    // South plays its last legal move each time (so not the engine's choices), in both
    // spellings of a move.
    let start = Position::start(Kalah::default(), 4, 3).unwrap();
    let (human, all) = plan_game(start, |l| *l.last().unwrap());
    let input: String = (human.iter().enumerate())
        .map(|(i, m)| {
            if i % 2 == 0 {
                format!("{m}\n")
            } else {
                format!("S{m}\n")
            }
        })
        .collect::<String>()
        + "history\n";
    let (out, err) = session_ok(&interactive_args(&K43, &[]), &input);
    assert!(
        !out.contains("> "),
        "a prompt on stdout from a pipe:\n{out}"
    );
    let played = plays(&out);
    let got: Vec<(Side, u8)> = played.iter().map(|p| (p.side, p.mv)).collect();
    assert_eq!(got, all, "{out}");
    // Each engine move is a best move of `analyze`, the first one, with its value announced.
    let mut before = start.to_string();
    for p in &played {
        if let Some(value) = p.engine {
            assert_eq!(p.side, Side::North);
            let (moves, best) = analyze(&["kalah"], &before);
            assert_eq!(Some(&p.mv), best.iter().min(), "engine at {before}");
            assert!(moves.contains(&(p.mv, value)), "{before}: {moves:?}");
        } else {
            assert_eq!(p.side, Side::South);
        }
        before = p.after.clone();
    }
    // The result equals `play --moves` over the whole game, and `history` gives that list.
    let marked: Vec<String> = all
        .iter()
        .map(|(s, m)| format!("{}{m}", s.letter()))
        .collect();
    let history = line_after(&out, "history: ");
    assert_eq!(history, marked.join(" "));
    let mut args = vec!["play"];
    args.extend_from_slice(&K43);
    args.extend(["--moves", history, "--json"]);
    let v = json(&args);
    assert_eq!(v["over"], true);
    let (s, n) = (
        v["score"][0].as_i64().unwrap(),
        v["score"][1].as_i64().unwrap(),
    );
    let verdict = match s.cmp(&n) {
        std::cmp::Ordering::Greater => format!("South wins by {}", s - n),
        std::cmp::Ordering::Less => format!("North wins by {}", n - s),
        std::cmp::Ordering::Equal => "a draw".to_string(),
    };
    assert_eq!(
        line_after(&out, "game over: "),
        format!("South {s}, North {n}: {verdict}")
    );
    assert_eq!(v["position"].as_str().unwrap(), before);
    assert!(err.contains("end of input: the game is over"), "{err}");
}

#[test]
fn hints_and_values_equal_analyze_and_solve() {
    // At the start, and after South's move 1 and the engine's replies.
    let (out, _) = session_ok(
        &interactive_args(&K43, &[]),
        "hint\nvalue\n1\nhint\nvalue\n",
    );
    let after = plays(&out).last().unwrap().after.clone();
    let hints: Vec<&str> = out.split("best first:\n").skip(1).collect();
    let values: Vec<i32> = out
        .lines()
        .filter_map(|l| l.strip_prefix("value: "))
        .map(|v| v.split(' ').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!((hints.len(), values.len()), (2, 2), "{out}");
    let start = "3,3,3,3/3,3,3,3/0,0/S";
    for (i, at) in [start, after.as_str()].into_iter().enumerate() {
        let (mut want, best) = analyze(&["kalah"], at);
        // Best first for South (the side to move at both), ties in move order.
        want.sort_by_key(|&(m, v)| (-v, m));
        let got: Vec<(u8, i32)> = hints[i]
            .lines()
            .take_while(|l| l.starts_with("  "))
            .map(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                (w[0].parse().unwrap(), w[1].parse().unwrap())
            })
            .collect();
        assert_eq!(got, want, "hint at {at}");
        let marked: Vec<u8> = (hints[i].lines())
            .take_while(|l| l.starts_with("  "))
            .filter(|l| l.ends_with("  best"))
            .map(|l| l.split_whitespace().next().unwrap().parse().unwrap())
            .collect();
        let mut best = best;
        best.sort_by_key(|&m| want.iter().position(|w| w.0 == m));
        assert_eq!(marked, best);
        let mut args = vec!["solve", "kalah"];
        args.extend(["--position", at, "--threads", "1", "--json"]);
        assert_eq!(json(&args)["value"].as_i64().unwrap() as i32, values[i]);
    }
}

#[test]
fn undo_goes_back_to_your_turn_and_redo_puts_it_back() {
    let game = ["kalah", "--holes", "3", "--seeds", "2"];
    // South 1, then North (the engine) moves twice (an extra turn): undo takes back all three.
    let (out, err) = session_ok(
        &interactive_args(&game, &[]),
        "1\nundo\nundo\nredo\nredo\nhistory\n",
    );
    assert_eq!(
        plays(&out)
            .iter()
            .map(|p| (p.side, p.mv))
            .collect::<Vec<_>>(),
        [(Side::South, 1), (Side::North, 2), (Side::North, 1)]
    );
    assert!(
        out.contains("undone: 3 moves taken back: 2,2,2/2,2,2/0,0/S"),
        "{out}"
    );
    assert!(out.contains("redone: 0,3,3/0,1,4/0,1/S"), "{out}");
    assert_eq!(err.matches("nothing to undo").count(), 1, "{err}");
    assert_eq!(err.matches("nothing to redo").count(), 1, "{err}");
    assert_eq!(line_after(&out, "history: "), "S1 N2 N1");
    // The engine does not move again after an undo: the three moves above were played once.
    assert_eq!(plays(&out).len(), 3);

    // With no engine, undo takes back one move; a new move drops what redo could restore.
    let (out, err) = session_ok(
        &interactive_args(&game, &["--engine", "none"]),
        "1\n2\nundo\n3\nredo\nhistory\n",
    );
    assert!(
        out.contains("undone: 1 move taken back: 0,3,3/2,2,2/0,0/N"),
        "{out}"
    );
    assert!(err.contains("nothing to redo"), "{err}");
    assert_eq!(line_after(&out, "history: "), "S1 N3");
}

#[test]
fn show_moves_and_help() {
    let game = ["kalah", "--holes", "3", "--seeds", "2"];
    let (out, _) = session_ok(&interactive_args(&game, &[]), "show\nmoves\nhelp\n");
    // The board is drawn at the start and again for `show`.
    assert_eq!(
        out.matches("position: 2,2,2/2,2,2/0,0/S").count(),
        2,
        "{out}"
    );
    let listed = ok(&["moves", "kalah", "--holes", "3", "--seeds", "2"]);
    // `moves` lists what the `moves` command lists, after its own first line.
    let body: String = listed.lines().skip(1).map(|l| format!("{l}\n")).collect();
    assert!(out.contains(&body), "{out}\nwant:\n{body}");
    for word in ["hint", "undo", "redo", "value", "history", "quit"] {
        assert!(
            out.contains(&format!("\n  {word}")),
            "help lacks {word}:\n{out}"
        );
    }
}

#[test]
fn bad_input_is_a_message_and_the_game_goes_on() {
    let game = ["kalah", "--holes", "3", "--seeds", "2"];
    let (out, err) = session_ok(
        &interactive_args(&game, &[]),
        "9\nN1\nfoo\n0\nS\n\u{00e9}t\u{00e9}\n1\nquit\n2\n",
    );
    assert!(
        err.contains("move 9 is illegal: out of range (the pits are numbered 1 to 3)"),
        "{err}"
    );
    assert!(
        err.contains("move N1 is marked for North, but South is to move"),
        "{err}"
    );
    assert!(err.contains("unknown command 'foo'"), "{err}");
    assert!(err.contains("move 0 is illegal"), "{err}");
    assert!(err.contains("unknown command 'S'"), "{err}");
    assert!(err.contains("unknown command 'été'"), "{err}");
    // The game went on with move 1 and stopped at `quit`: the 2 after it is never read.
    let p = plays(&out);
    assert_eq!((p[0].side, p[0].mv), (Side::South, 1));
    assert!(
        p.iter().all(|p| p.side == Side::North || p.mv == 1),
        "{out}"
    );

    // A line that is not UTF-8 is one unknown command, not the end.
    let o = session(&interactive_args(&game, &[]), "");
    assert!(o.status.success());
    let mut child = crate::util::mancala_command()
        .args(interactive_args(&game, &[]))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"\xff\xfe\n1\n")
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown command"));
    assert_eq!(plays(&String::from_utf8(o.stdout).unwrap())[0].mv, 1);
}

#[test]
fn end_of_input_mid_game_ends_cleanly() {
    let (out, err) = session_ok(&interactive_args(&K43, &[]), "2\n");
    assert!(!out.contains("game over"), "{out}");
    let last = plays(&out).last().unwrap().after.clone();
    assert_eq!(
        err.trim(),
        format!("end of input: leaving the game unfinished at {last}")
    );
    // No input at all.
    let (out, err) = session_ok(&interactive_args(&K43, &[]), "");
    assert!(plays(&out).is_empty());
    assert!(err.contains("end of input: leaving the game unfinished at 3,3,3,3/3,3,3,3/0,0/S"));
}

#[test]
fn the_engine_against_itself_attains_the_solved_value() {
    for game in [
        &K43[..],
        &["kalah", "--holes", "3", "--seeds", "3", "--empty-capture"],
        &["dakon", "--holes", "3", "--seeds", "2"],
        &["djenon-aboure", "--holes", "2", "--seeds", "2"],
    ] {
        let (out, _) = session_ok(&interactive_args(game, &["--engine", "both"]), "");
        let mut args = vec!["solve"];
        args.extend_from_slice(game);
        args.extend(["--threads", "1", "--json"]);
        let value = json(&args)["value"].as_i64().unwrap() as i32;
        let end = line_after(&out, "game over: ");
        let (s, rest) = end
            .strip_prefix("South ")
            .unwrap()
            .split_once(", North ")
            .unwrap();
        let n: i32 = rest.split(':').next().unwrap().parse().unwrap();
        assert_eq!(s.parse::<i32>().unwrap() - n, value, "{game:?}: {out}");
        // Every move was the engine's and announced that same value: perfect play keeps it.
        let p = plays(&out);
        assert!(
            !p.is_empty() && p.iter().all(|p| p.engine == Some(value)),
            "{out}"
        );
    }
}

#[test]
fn the_engine_can_play_south_or_nobody() {
    // --engine S: the engine opens with its first best move.
    let start = Position::start(Kalah::default(), 4, 3).unwrap();
    let (out, _) = session_ok(&interactive_args(&K43, &["--engine", "S"]), "");
    let p = plays(&out);
    let (mv, value) = first_best(&start);
    assert_eq!(
        (p[0].side, p[0].mv, p[0].engine),
        (Side::South, mv, Some(value))
    );
    assert!(out.contains("the engine plays South, you play North"));
    // --engine none: both sides typed; the result equals `play --moves`.
    let moves = "2 3 2 1 4 1 1 4 2 2 4 3 1 4";
    let input: String = moves.split(' ').map(|m| format!("{m}\n")).collect();
    let (out, _) = session_ok(&interactive_args(&K43, &["--engine", "none"]), &input);
    assert!(plays(&out).iter().all(|p| p.engine.is_none()));
    let mut args = vec!["play"];
    args.extend_from_slice(&K43);
    args.extend(["--moves", moves, "--json"]);
    let v = json(&args);
    assert_eq!(v["over"], true);
    assert_eq!(
        plays(&out).last().unwrap().after,
        v["position"].as_str().unwrap()
    );
    assert!(
        out.contains("game over: South 15, North 9: South wins by 6"),
        "{out}"
    );
}

#[test]
fn interactive_play_refuses_bad_options() {
    let e = crate::util::fails(&["play", "kalah", "--engine", "N"]);
    assert!(e.contains("--interactive"), "{e}");
    let e = crate::util::fails(&["play", "kalah", "--interactive", "--engine", "west"]);
    assert!(e.contains("'west' is not a side"), "{e}");
    let e = crate::util::fails(&["play", "kalah", "--interactive", "--json"]);
    assert!(e.contains("cannot be used with"), "{e}");
    let e = crate::util::fails(&["play", "kalah", "--interactive", "--moves", "9"]);
    assert!(e.contains("move #1 (9) is illegal"), "{e}");
}

/// A match in which South plays `pick` of its legal moves and the engine North's first best
/// moves; `None` when a round's play repeats a position before `limit` moves.
fn plan_match<R: Rules>(
    rules: R,
    holes: u8,
    seeds: u8,
    pick: impl Fn(&[u8]) -> u8,
    limit: usize,
) -> Option<Vec<u8>> {
    let start = Position::start(rules, holes, seeds).unwrap();
    let mut m = Match::new(rules, seeds, MatchOptions::default(), start, Side::South).unwrap();
    let mut human = Vec::new();
    let mut seen = std::collections::HashSet::new();
    while m.result().is_none() && human.len() < limit {
        let p = *m.position();
        if !seen.insert((m.rounds().len(), p)) {
            return None;
        }
        let mv = match p.to_move().unwrap() {
            Side::South => {
                let mv = pick(&legal(&p));
                human.push(mv);
                mv
            }
            Side::North => first_best(&p).0,
        };
        m.play(Move(mv)).unwrap();
    }
    m.result().map(|_| human)
}

/// Plays a match interactively (South by `pick`) and checks its round records against
/// `match --moves --json` on the moves played.
fn check_match(game: &[&str], human: &[u8]) {
    let input: String = human.iter().map(|m| format!("{m}\n")).collect::<String>() + "history\n";
    let mut args = vec!["match"];
    args.extend_from_slice(game);
    args.extend(["--interactive", "--threads", "1"]);
    let (out, _) = session_ok(&args, &input);
    let over = line_after(&out, "match over: ").to_string();
    let history = line_after(&out, "history: ").to_string();
    let mut args = vec!["match"];
    args.extend_from_slice(game);
    args.extend(["--moves", &history, "--json"]);
    let v = json(&args);
    assert_eq!(v["match_over"], true);
    let rounds = v["rounds"].as_array().unwrap();
    let records: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("round ") && l.contains(" starts ") && l.contains("; score "))
        .collect();
    assert_eq!(records.len(), rounds.len(), "{out}");
    assert!(rounds.len() >= 2, "a single round tests little: {out}");
    for (i, (line, r)) in records.iter().zip(rounds).enumerate() {
        let moves: Vec<String> = (r["moves"].as_array().unwrap().iter())
            .map(|m| m.to_string())
            .collect();
        let want = format!(
            "round {}: {} starts {}; moves {}; end {}; score {}-{}",
            i + 1,
            r["starter"].as_str().unwrap(),
            r["start"].as_str().unwrap(),
            if moves.is_empty() {
                "-".to_string()
            } else {
                moves.join(" ")
            },
            r["end"].as_str().unwrap(),
            r["score"][0],
            r["score"][1]
        );
        assert_eq!(*line, want);
        // A round's last move shows the round's end, before the next round's setup.
        let ended = format!(": {}\n", r["end"].as_str().unwrap());
        assert!(out.contains(&ended), "{ended}\n{out}");
        // The round's end and the next round's setup were announced as they happened.
        let [s, n] = [&r["score"][0], &r["score"][1]];
        assert!(
            out.contains(&format!("round {} over: South {s}, North {n}", i + 1)),
            "{out}"
        );
        if let Some(next) = rounds.get(i + 1) {
            let who = if next["starter"] == "S" {
                "South"
            } else {
                "North"
            };
            let announced = format!(
                "round {}: {who} starts at {}",
                i + 2,
                next["start"].as_str().unwrap()
            );
            assert!(out.contains(&announced), "{announced}\n{out}");
        }
    }
    let winner = match v["winner"].as_str() {
        Some("S") => "South wins the match",
        Some("N") => "North wins the match",
        _ => "the match is drawn",
    };
    assert_eq!(over, winner);
}

#[test]
fn a_san_yao_match_played_interactively_to_its_end() {
    let human = plan_match(SanYao, 3, 2, |l| l[0], 400).expect("a match that ends");
    check_match(&["san-yao", "--holes", "3", "--seeds", "2"], &human);
}

#[test]
fn a_dakon_match_played_interactively_to_its_end() {
    let rules = Dakon::default();
    let human = plan_match(rules, 4, 2, |l| *l.last().unwrap(), 400).expect("a match that ends");
    check_match(&["dakon", "--holes", "4", "--seeds", "2"], &human);
}

/// `mancala ARGS` on a pseudo-terminal (stdin, stdout and stderr all on it), as at a terminal.
fn on_terminal(args: &[&str]) -> rexpect::session::PtySession {
    let mut cmd = crate::util::mancala_command();
    cmd.args(args).env("TERM", "xterm");
    rexpect::session::spawn_command(cmd, Some(30_000)).expect("a pseudo-terminal")
}

/// The exit status of the session's process, as `Exited(pid, code)` prints.
fn exit_status(p: &rexpect::session::PtySession) -> String {
    format!("{:?}", p.process().wait().unwrap())
}

#[test]
fn on_a_terminal_the_prompt_shows_and_a_move_and_quit_work() {
    let game = ["kalah", "--holes", "3", "--seeds", "2"];
    let mut p = on_terminal(&interactive_args(&game, &[]));
    p.exp_string("Type a move (a pit number) or help.").unwrap();
    p.exp_string("South (you)> ").unwrap();
    p.send_line("1").unwrap();
    p.exp_string("South plays 1: 0,3,3/2,2,2/0,0/N").unwrap();
    p.exp_string("North plays 2 (engine, value North +8)")
        .unwrap();
    p.exp_string("North plays 1 (engine, value North +8): 0,3,3/0,1,4/0,1/S")
        .unwrap();
    p.exp_string("South (you)> ").unwrap();
    // An unknown command and then `undo` work at the prompt too.
    p.send_line("nonsense").unwrap();
    p.exp_string("unknown command 'nonsense'").unwrap();
    p.exp_string("South (you)> ").unwrap();
    p.send_line("undo").unwrap();
    p.exp_string("undone: 3 moves taken back: 2,2,2/2,2,2/0,0/S")
        .unwrap();
    p.exp_string("South (you)> ").unwrap();
    p.send_line("quit").unwrap();
    p.exp_eof().unwrap();
    assert!(exit_status(&p).ends_with(", 0)"), "{}", exit_status(&p));
}

#[test]
fn on_a_terminal_ctrl_c_abandons_the_engine_move_and_twice_leaves() {
    // The engine opens Kalah(6,6), a search of many minutes: Ctrl-C brings the prompt back
    // with the game as it was.
    let game = ["kalah", "--holes", "6", "--seeds", "6"];
    let mut p = on_terminal(&interactive_args(
        &game,
        &["--engine", "S", "--hash-mb", "16"],
    ));
    p.exp_string("South is thinking").unwrap();
    p.send_control('c').unwrap();
    p.exp_string("the engine's move was abandoned (Ctrl-C)")
        .unwrap();
    p.exp_string("position: 6,6,6,6,6,6/6,6,6,6,6,6/0,0/S")
        .unwrap();
    p.exp_string("South (engine)> ").unwrap();
    // The game goes on: a move typed for the engine's side is played, and the engine (which
    // waits after an interrupt) is not thinking: `moves` answers at once.
    p.send_line("moves").unwrap();
    p.exp_string("South to move, 6 legal moves:").unwrap();
    p.exp_string("South (engine)> ").unwrap();
    p.send_control('c').unwrap();
    p.exp_string("(Ctrl-C again, or quit, leaves)").unwrap();
    p.send_control('c').unwrap();
    p.exp_string("interrupted: leaving").unwrap();
    p.exp_eof().unwrap();
    assert!(exit_status(&p).ends_with(", 130)"), "{}", exit_status(&p));
}

/// Issue 54: while the engine thinks, the status line on the terminal says the best move so far
/// and the proven bounds (a look-ahead's pick, said to be one, before anything is proven).
#[test]
fn on_a_terminal_the_engine_shows_its_best_move_so_far() {
    let game = ["kalah", "--holes", "6", "--seeds", "6"];
    let mut p = on_terminal(&interactive_args(
        &game,
        &["--engine", "S", "--hash-mb", "16"],
    ));
    p.exp_string("South is thinking").unwrap();
    let (_, line) = p
        .exp_regex(r"M nodes, best so far [1-6] \([^)]*\), value in \[[-+]\d+, [-+]\d+\]")
        .unwrap();
    assert!(line.contains("best so far"), "{line}");
    p.send_control('c').unwrap();
    p.exp_string("the engine's move was abandoned (Ctrl-C)")
        .unwrap();
    p.exp_string("South (engine)> ").unwrap();
    p.send_line("quit").unwrap();
    p.exp_eof().unwrap();
}

#[test]
fn a_repeating_game_can_be_ended_by_agreement() {
    // docs/rules.md W3: fourteen moves bring the first position back; ending it by agreement
    // keeps the stores, 29-25.
    let w3 = "0,0,0,0,0,1,0/0,0,0,0,0,1,0/29,25/S";
    let args = [
        "play",
        "walak-pussa",
        "--position",
        w3,
        "--interactive",
        "--engine",
        "none",
    ];
    let cycle = "6 6 7 7 1 1 2 2 3 3 4 4 5 5";
    let input = format!(
        "6\nend\n{}\nend\nhistory\n",
        cycle.split(' ').skip(1).collect::<Vec<_>>().join("\n")
    );
    let (out, err) = session_ok(&args, &input);
    assert!(
        err.contains("end: only a position that occurred before in this round"),
        "{err}"
    );
    assert_eq!(plays(&out).last().unwrap().after, w3);
    assert!(
        out.contains("this position occurred before in this round"),
        "{out}"
    );
    assert!(
        out.contains("game over: South 29, North 25: South wins by 4"),
        "{out}"
    );
    assert_eq!(
        line_after(&out, "history: "),
        "S6 N6 S7 N7 S1 N1 S2 N2 S3 N3 S4 N4 S5 N5 (then ended by agreement)"
    );
    // After it, moves are refused: the game is over, at the position §2.10 gives.
    let (_, err) = session_ok(&args, &(input + "1\n"));
    assert!(
        err.contains("the game is already over in 0,0,0,0,0,0,0/0,0,0,0,0,0,0/29,25/-"),
        "{err}"
    );
}

#[test]
fn the_engine_waits_when_the_match_would_never_end() {
    // San-Yao 2x3 under round-perfect play: round 3 starts as round 1 did (docs/survey/matches.md).
    let args = [
        "match",
        "san-yao",
        "--holes",
        "2",
        "--seeds",
        "3",
        "--interactive",
        "--engine",
        "both",
        "--threads",
        "1",
    ];
    let (out, err) = session_ok(&args, "");
    assert!(
        out.contains("round 1 over: South 5, North 7: North wins by 2"),
        "{out}"
    );
    assert!(
        out.contains("round 2: North starts at 3,3/3,3/0,0/N"),
        "{out}"
    );
    assert!(
        out.contains("round 2 over: South 7, North 5: South wins by 2"),
        "{out}"
    );
    assert!(
        out.contains("round 3: South starts at 3,3/3,3/0,0/S"),
        "{out}"
    );
    assert!(
        out.contains("with first-best play the match never ends"),
        "{out}"
    );
    assert!(!out.contains("round 3 over"), "{out}");
    assert!(
        err.contains("end of input: leaving the match unfinished at 3,3/3,3/0,0/S"),
        "{err}"
    );
}

#[test]
fn a_signal_while_waiting_for_input_leaves_with_130() {
    use std::io::{BufRead, BufReader};
    let mut child = crate::util::mancala_command()
        .args(interactive_args(&K43, &[]))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The greeting is printed once the handler is installed.
    let mut first = String::new();
    BufReader::new(child.stdout.as_mut().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("Kalah on 4 holes"), "{first}");
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    // The game is not killed by the signal: the next line is read, and then it leaves.
    std::thread::sleep(std::time::Duration::from_millis(200));
    child.stdin.take().unwrap().write_all(b"1\n").unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130));
    assert!(String::from_utf8_lossy(&o.stderr).contains("interrupted: leaving"));
    assert!(plays(&String::from_utf8(o.stdout).unwrap()).is_empty());
}

#[test]
fn the_engine_uses_endgame_tables() {
    let dir = crate::util::temp_dir("interactive-tables");
    let d = dir.to_str().unwrap();
    ok(&[
        "tables",
        "build",
        "kalah",
        "--holes",
        "4",
        "--max-seeds",
        "10",
        "--dir",
        d,
        "--threads",
        "1",
    ]);
    let tables = format!("--tables={d}");
    let args = [
        "play",
        &tables,
        "kalah",
        "--holes",
        "4",
        "--seeds",
        "3",
        "--interactive",
        "--engine",
        "both",
        "--threads",
        "1",
    ];
    let (out, _) = session_ok(&args, "value\n");
    // Perfect play with the tables reaches the solved value, +6 (as without them).
    assert!(
        out.contains("game over: South 15, North 9: South wins by 6"),
        "{out}"
    );
    assert!(plays(&out).iter().all(|p| p.engine == Some(6)), "{out}");
    // No tables for the board: an error before the game starts.
    let e = crate::util::fails(&["play", &tables, "kalah", "--holes", "5", "--interactive"]);
    assert!(e.contains("no tables for kalah, 5 holes"), "{e}");
    // A round with statuses cannot use them: refused as `solve --tables` refuses it.
    let e = crate::util::fails(&[
        "play",
        &tables,
        "dakon",
        "--position",
        "2,2,2,2/x,x,2,2/4,0/S",
        "--interactive",
    ]);
    assert!(
        e.contains("endgame tables hold positions whose pits are all open"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_repeating_match_round_can_be_ended_by_agreement() {
    // W3 as a Walak-pussa round: ended by agreement at 29-25, the next round is what `match`
    // sets up after a round that ended 29-25.
    let w3 = "0,0,0,0,0,1,0/0,0,0,0,0,1,0/29,25/S";
    let args = [
        "match",
        "walak-pussa",
        "--position",
        w3,
        "--interactive",
        "--engine",
        "none",
    ];
    let input = "6\n6\n7\n7\n1\n1\n2\n2\n3\n3\n4\n4\n5\n5\nend\nhistory\n";
    let (out, _) = session_ok(&args, input);
    assert!(
        out.contains("round 1 over: South 29, North 25: South wins by 4"),
        "{out}"
    );
    let ended = "0,0,0,0,0,0,0/0,0,0,0,0,0,0/29,25/-";
    let v = json(&["match", "walak-pussa", "--position", ended, "--json"]);
    let next = &v["rounds"][1];
    assert_eq!(next["starter"], "N");
    let announced = format!(
        "round 2: North starts at {}",
        next["start"].as_str().unwrap()
    );
    assert!(out.contains(&announced), "{announced}\n{out}");
    assert_eq!(
        line_after(&out, "history: "),
        "6,6,7,7,1,1,2,2,3,3,4,4,5,5 (with a round ended by agreement)"
    );
}

/// The final South-minus-North score of "South +6", "North +2" or "a draw".
fn verdict_value(words: &str) -> i32 {
    if let Some(n) = words.strip_prefix("South +") {
        n.parse().unwrap()
    } else if let Some(n) = words.strip_prefix("North +") {
        -n.parse::<i32>().unwrap()
    } else {
        assert_eq!(words, "a draw");
        0
    }
}

/// A move into an endless-looking relay (RELAY, tests/data/relay.txt: North's move 2 relays
/// for ever) was sown with no stop: the game sat in it past Ctrl-C. Now the first Ctrl-C
/// abandons the sowing, says which move and how long it relayed, and the game goes on at the
/// prompt (here: the next line, `moves`, lists the moves that end, again under the stop).
#[test]
fn ctrl_c_abandons_a_move_that_relays_for_ever_and_the_game_goes_on() {
    use std::io::{BufRead, BufReader};
    use std::time::{Duration, Instant};
    let relay = crate::serve::relay();
    let mut child = crate::util::mancala_command()
        .args(interactive_args(
            &["walak-pussa", "--position", relay],
            &["--engine", "none"],
        ))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The greeting is printed once the handler is installed.
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    assert!(first.starts_with("Walak-pussa"), "{first}");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"2\n").unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let signalled = Instant::now();
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    // Back at the prompt: the next command is read and carried out.
    stdin.write_all(b"show\n").unwrap();
    drop(stdin);
    let pid = child.id().to_string();
    let waited = std::thread::spawn(move || {
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut rest).unwrap();
        (rest, child.wait_with_output().unwrap())
    });
    while !waited.is_finished() {
        if signalled.elapsed() > Duration::from_secs(10) {
            let _ = Command::new("kill").args(["-KILL", &pid]).status();
            panic!("still sowing 10 s after Ctrl-C");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let (rest, o) = waited.join().unwrap();
    assert!(
        signalled.elapsed() < Duration::from_secs(3),
        "{:?}",
        signalled.elapsed()
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("move 2 relays for more than ") && err.contains("not played"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    assert!(plays(&rest).is_empty(), "{rest}");
    assert!(
        rest.contains("35"),
        "show printed the board as it was: {rest}"
    );
}
