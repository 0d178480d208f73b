//! `mancala review` (issue 55): every loss it prints is the difference of two exact values
//! computed another way, on random games of every game: `mancala analyze` (every move's value,
//! one search per move), the independent reference engine's brute force on small boards, and
//! its own alpha-beta search on Kalah(6,4) endgames.

use crate::reference::{self, RefGame};
use crate::util::{fails, json, ok, xorshift, Move, Pair, Position};
use mancala::rules::{Dakon, DjenonAboure, Kalah, Rules, SanYao, WalakPussa};
use serde_json::Value;

/// A game of uniformly random moves from `start` (xorshift from `seed`), until it ends or
/// `max` moves.
fn random_game<R: Rules>(start: &Position<R>, seed: u64, max: usize) -> Vec<Move> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut p = *start;
    let mut moves = Vec::new();
    while !p.is_over() && moves.len() < max {
        let legal = p.legal_moves();
        let mv = legal.as_slice()[(xorshift(&mut state) % legal.len() as u64) as usize];
        p = p.play_unchecked(mv);
        moves.push(mv);
    }
    moves
}

/// The move line of `moves`, as `--moves` reads it.
fn line(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| m.0.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// `mancala review` of the game `moves` from `position` (docs/rules.md notation) as JSON.
fn review(game: &str, position: &str, moves: &[Move], extra: &[&str]) -> Value {
    let moves = line(moves);
    let mut args = vec!["review", game, "--position", position, "--moves", &moves];
    args.extend_from_slice(&["--json", "--threads", "1"]);
    args.extend_from_slice(extra);
    json(&args)
}

/// The position after each move of a review: the next move's position, and the end.
fn after(r: &Value) -> Vec<String> {
    let moves = r["moves"].as_array().unwrap();
    let mut out: Vec<String> = moves[1..]
        .iter()
        .map(|m| m["position"].as_str().unwrap().to_string())
        .collect();
    out.push(r["end"].as_str().unwrap().to_string());
    out
}

/// Checks each move's numbers against `value_of` (an independent final value of a position,
/// South minus North): the best value is the position's, the move's value the next one's, and
/// the loss their difference from the mover's side, classed by the default thresholds.
fn check(r: &Value, mut value_of: impl FnMut(&str) -> i32) {
    assert_eq!(r["complete"], true, "{r}");
    let afters = after(r);
    let mut lost = [0, 0];
    for (m, next) in r["moves"].as_array().unwrap().iter().zip(&afters) {
        let sign = if m["side"] == "S" { 1 } else { -1 };
        let best = value_of(m["position"].as_str().unwrap());
        let played = value_of(next);
        let loss = sign * (best - played);
        assert_eq!(m["best_value"], best, "{m}");
        assert_eq!(m["value"], played, "{m}");
        assert_eq!(m["loss"], loss, "{m}");
        assert_eq!(
            (m["loss_lower"].clone(), m["loss_upper"].clone()),
            (loss.into(), loss.into())
        );
        let class = match loss {
            0 => "best",
            1 => "inaccuracy",
            2..=5 => "mistake",
            _ => "blunder",
        };
        assert_eq!(m["class"], class, "{m}");
        // Best moves are searched where seeds were lost.
        assert_eq!(m["best_complete"], loss > 0, "{m}");
        lost[usize::from(sign < 0)] += loss;
    }
    assert_eq!(r["south"]["total_loss"], lost[0], "{r}");
    assert_eq!(r["north"]["total_loss"], lost[1], "{r}");
}

/// `mancala analyze --batch` of every position before a move of review `r`: each position's
/// value and its moves' values, by line.
fn analyses(game: &str, r: &Value) -> Vec<Value> {
    let dir = crate::util::temp_dir("review-analyze");
    let file = dir.join("positions.txt");
    let positions: Vec<&str> = r["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["position"].as_str().unwrap())
        .collect();
    std::fs::write(&file, positions.join("\n")).unwrap();
    let mut args: Vec<&str> = game.split_whitespace().collect();
    let f = file.to_str().unwrap();
    args.splice(0..0, ["analyze"]);
    args.extend_from_slice(&["--batch", f, "--threads", "1"]);
    let out = ok(&args);
    std::fs::remove_dir_all(&dir).ok();
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Reviews `games` random games of `game` (its command-line words) on `start` and checks every
/// loss against `analyze`: best value and best moves from the position's analysis, the move's
/// value from the played move's line of it.
fn against_analyze<R: Rules>(game: &str, start: &Position<R>, seeds: &[u64]) {
    for &seed in seeds {
        let moves = random_game(start, seed, 60);
        let mut extra: Vec<&str> = game.split_whitespace().skip(1).collect();
        extra.push("--all-best");
        let r = review(
            game.split_whitespace().next().unwrap(),
            &start.to_string(),
            &moves,
            &extra,
        );
        let analysed = analyses(game, &r);
        let mut values = std::collections::HashMap::new();
        for (m, a) in r["moves"].as_array().unwrap().iter().zip(&analysed) {
            let p = m["position"].as_str().unwrap().to_string();
            values.insert(p, a["value"].as_i64().unwrap() as i32);
            let played = a["moves"]
                .as_array()
                .unwrap()
                .iter()
                .find(|x| x["move"] == m["move"])
                .unwrap_or_else(|| panic!("{m} not in {a}"));
            assert_eq!(
                m["value"], played["value"],
                "{game} seed {seed}: {m} against {a}"
            );
            assert_eq!(m["best"], a["best"], "{game} seed {seed}: {m} against {a}");
            assert_eq!(m["best_complete"], true);
        }
        let end = r["end"].as_str().unwrap();
        let end_value = r["end_value"].as_i64().unwrap() as i32;
        // The end's value: analyze says it too (the game may stop mid-way at `max` moves).
        let e = json(
            &[
                &["analyze"][..],
                &game.split_whitespace().collect::<Vec<_>>(),
                &["--position", end, "--json"],
            ]
            .concat(),
        );
        assert_eq!(e["value"], end_value, "{game}: the end's value");
        values.insert(end.to_string(), end_value);
        let mut check_best = r.clone();
        // `--all-best` searched every position's best moves; `check` expects them only where
        // seeds were lost, so compare on a copy without that flag's mark.
        for m in check_best["moves"].as_array_mut().unwrap() {
            let lost = m["loss"].as_i64().unwrap() > 0;
            m["best_complete"] = lost.into();
        }
        check(&check_best, |p| values[p]);
    }
}

#[test]
fn losses_are_differences_of_analyze_values_in_every_game() {
    // 20 random games: four per game, on small boards.
    let k = Position::start(Kalah::default(), 4, 3).unwrap();
    against_analyze("kalah --holes 4", &k, &[1, 2, 3, 4]);
    let d = Position::start(Dakon::default(), 3, 2).unwrap();
    against_analyze("dakon --holes 3", &d, &[5, 6, 7, 8]);
    let j = Position::start(DjenonAboure, 3, 2).unwrap();
    against_analyze("djenon --holes 3", &j, &[9, 10, 11, 12]);
    let w = Position::start(WalakPussa::default(), 3, 2).unwrap();
    against_analyze("walak --holes 3", &w, &[13, 14, 15, 16]);
    let s = Position::start(SanYao, 3, 2).unwrap();
    against_analyze("sanyao --holes 3", &s, &[17, 18, 19, 20]);
}

/// Reviews random games of `game` on `start` and checks every value against the reference
/// engine's brute force (its own rules code and whole-graph solver).
fn against_reference<R: Pair>(name: &str, start: &Position<R>, seeds: &[u64]) {
    let g: RefGame = start.rules().reference();
    for &seed in seeds {
        let moves = random_game(start, seed, 60);
        let r = review(name, &start.to_string(), &moves, &[]);
        check(&r, |p| reference::value(g, &reference::parse(p).unwrap()));
    }
}

#[test]
fn values_agree_with_the_reference_engine_on_small_boards() {
    against_reference(
        "kalah",
        &Position::start(Kalah::default(), 3, 3).unwrap(),
        &[21, 22],
    );
    against_reference(
        "dakon",
        &Position::start(Dakon::default(), 3, 2).unwrap(),
        &[23, 24],
    );
    let j = Position::start(DjenonAboure, 3, 2).unwrap();
    against_reference("djenon", &j, &[25, 26]);
    let w = Position::start(WalakPussa::default(), 3, 2).unwrap();
    against_reference("walak", &w, &[27, 28]);
    against_reference("sanyao", &Position::start(SanYao, 3, 2).unwrap(), &[29, 30]);
}

#[test]
fn kalah_6x4_endgames_agree_with_the_reference_search() {
    // Five random Kalah(6,4) games, reviewed from the first position with at most 20 seeds on
    // the board (the reference alpha-beta search is plain: the whole game is beyond a test).
    let rules = Kalah::default();
    let start = Position::start(rules, 6, 4).unwrap();
    let mut search = reference::Search::new(rules.reference());
    for seed in 31..36 {
        let moves = random_game(&start, seed, 400);
        let mut p = start;
        let mut i = 0;
        while !p.is_over() && p.board().seeds_on_board() > 20 {
            p = p.play_unchecked(moves[i]);
            i += 1;
        }
        if p.is_over() {
            continue;
        }
        let r = review("kalah", &p.to_string(), &moves[i..], &[]);
        check(&r, |q| search.value(&reference::parse(q).unwrap()));
    }
}

#[test]
fn extra_turns_keep_the_mover() {
    // Kalah(4,3): South's 2 ends in the store (another move); North's 1 and 2 then follow.
    let r = review(
        "kalah",
        "3,3,3,3/3,3,3,3/0,0/S",
        &[Move(2), Move(1), Move(1)],
        &[],
    );
    let sides: Vec<&str> = r["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["side"].as_str().unwrap())
        .collect();
    assert_eq!(sides, ["S", "S", "N"], "{r}");
}

#[test]
fn batch_lines_are_records_or_move_lines_and_errors_are_per_line() {
    let dir = crate::util::temp_dir("review-batch");
    let rec = dir.join("game.json");
    ok(&[
        "play",
        "kalah",
        "--holes",
        "4",
        "--seeds",
        "3",
        "--moves",
        "3,1",
        "--record",
        rec.to_str().unwrap(),
    ]);
    let record = std::fs::read_to_string(&rec).unwrap();
    let batch = dir.join("games.txt");
    std::fs::write(&batch, format!("# games\n3 1 2\n\n9\n{record}")).unwrap();
    let b = batch.to_str().unwrap();
    let out = crate::util::mancala(&[
        "review",
        "kalah",
        "--holes",
        "4",
        "--seeds",
        "3",
        "--batch",
        b,
        "--json",
        "--threads",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(1), "a failed line fails the batch");
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(
        (
            lines[0]["line"].clone(),
            lines[0]["moves"].as_array().unwrap().len()
        ),
        (2.into(), 3)
    );
    assert_eq!(lines[1]["line"], 4);
    assert!(
        lines[1]["error"].as_str().unwrap().contains("out of range"),
        "{}",
        lines[1]
    );
    assert_eq!(lines[2]["line"], 5);
    // The record's game is the same as `--moves 3,1`.
    let single = json(&["review", "kalah", "--load", rec.to_str().unwrap(), "--json"]);
    assert_eq!(lines[2]["moves"], single["moves"]);
    let csv = ok(&[
        "review", "kalah", "--holes", "4", "--seeds", "3", "--moves", "3 1 2", "--csv",
    ]);
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows.len(), 4);
    assert!(rows[0].starts_with("line,ply,side,position,move,value"));
    assert!(
        rows[1].starts_with(",1,S,\"3,3,3,3/3,3,3,3/0,0/S\",3,"),
        "{}",
        rows[1]
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_input_is_a_message() {
    let e = fails(&["review", "kalah", "--moves", "3 9"]);
    assert!(e.contains("move #2 (9) is illegal"), "{e}");
    let e = fails(&[
        "review",
        "kalah",
        "--moves",
        "3",
        "--mistake",
        "4",
        "--blunder",
        "2",
    ]);
    assert!(e.contains("1 <= mistake <= blunder"), "{e}");
    let e = fails(&["review", "kalah", "--batch", "/nonexistent/games.txt"]);
    assert!(e.contains("--batch /nonexistent/games.txt"), "{e}");
}

#[test]
fn a_time_limit_gives_bounds_never_guesses() {
    // Kalah(6,4) from the start: a millisecond per search cannot solve the first positions.
    let start = Position::start(Kalah::default(), 6, 4).unwrap();
    let moves = random_game(&start, 41, 6);
    // Without the book, which would answer the first positions at once.
    let out = crate::util::mancala(&[
        "review",
        "kalah",
        "--moves",
        &line(&moves),
        "--json",
        "--time-limit",
        "0.001",
        "--threads",
        "1",
        "--no-book",
    ]);
    assert_eq!(out.status.code(), Some(124));
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["complete"], false);
    let first = &r["moves"][0];
    assert!(first["best_value"].is_null(), "{first}");
    let (lo, hi) = (
        first["best_lower"].as_i64().unwrap(),
        first["best_upper"].as_i64().unwrap(),
    );
    // Kalah(6,4) is worth +8 to South (docs/reference-values.md).
    assert!(lo <= 8 && 8 <= hi && lo < hi, "{first}");
    for m in r["moves"].as_array().unwrap() {
        let (a, b) = (
            m["loss_lower"].as_i64().unwrap(),
            m["loss_upper"].as_i64().unwrap(),
        );
        assert!(0 <= a && a <= b, "{m}");
        assert_eq!(m["loss"].is_null(), a != b, "{m}");
    }
}

#[test]
fn kalah_6x4_first_move_is_graded_from_the_book() {
    // The opening book holds every move of Kalah(6,4)'s start (src/answers/book.txt): the
    // review asks the analyzer, which answers without a search.
    let began = std::time::Instant::now();
    let r = json(&[
        "review",
        "kalah",
        "--moves",
        "1",
        "--json",
        "--threads",
        "1",
    ]);
    assert!(
        began.elapsed() < std::time::Duration::from_secs(1),
        "{:?}",
        began.elapsed()
    );
    let m = &r["moves"][0];
    assert_eq!(m["source"], "book", "{m}");
    // analyze answers from the same sources: the review's numbers are its differences.
    let a = json(&["analyze", "kalah", "--json", "--threads", "1"]);
    assert_eq!(a["source"], "book", "{a}");
    let move_1 = a["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["move"] == 1)
        .unwrap();
    assert_eq!(m["best_value"], a["value"], "{m}");
    assert_eq!(m["value"], move_1["value"], "{m}");
    assert_eq!(m["best"], a["best"], "{m}");
    let loss = a["value"].as_i64().unwrap() - move_1["value"].as_i64().unwrap();
    assert_eq!(m["loss"], loss, "{m}");
    // Kalah(6,4) is worth +8 to South (docs/reference-values.md); 1 leaves North +14.
    assert_eq!(
        (m["best_value"].clone(), m["loss"].clone()),
        (8.into(), 22.into())
    );
    assert_eq!(m["class"], "blunder");
    // Without the book the same question needs a search, which a millisecond cannot finish.
    let out = crate::util::mancala(&[
        "review",
        "kalah",
        "--moves",
        "1",
        "--json",
        "--threads",
        "1",
        "--no-book",
        "--time-limit",
        "0.001",
    ]);
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["moves"][0]["source"], "search", "{r}");
    assert_eq!(r["complete"], false, "{r}");
}

/// The errors of `v` against the committed schema's definition `def`.
fn schema_errors(v: &Value, def: &str) -> Vec<String> {
    let text = std::fs::read_to_string(crate::util::repo().join("docs/json.schema.json")).unwrap();
    let root: Value = serde_json::from_str(&text).unwrap();
    let schema = serde_json::json!({
        "$schema": root["$schema"],
        "$ref": format!("#/$defs/{def}"),
        "$defs": root["$defs"],
    });
    let validator = jsonschema::validator_for(&schema).expect("a valid schema");
    validator
        .iter_errors(v)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect()
}

#[test]
fn review_and_dataset_objects_follow_the_schema() {
    let r = json(&[
        "review", "kalah", "--holes", "4", "--seeds", "3", "--moves", "3 1 2 4", "--json",
    ]);
    assert_eq!(schema_errors(&r, "review"), Vec::<String>::new(), "{r}");
    let out = crate::util::mancala(&["review", "kalah", "--holes", "4", "--batch", "-", "--json"]);
    // No input at all: one error line, for line 0.
    let e: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        schema_errors(&e, "review_error"),
        Vec::<String>::new(),
        "{e}"
    );
    let d = ok(&[
        "dataset",
        "walak",
        "--holes",
        "3",
        "--seeds",
        "2",
        "--positions",
        "5",
        "--from",
        "perfect",
        "--out",
        "-",
    ]);
    for line in d.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        assert_eq!(
            schema_errors(&v, "dataset_position"),
            Vec::<String>::new(),
            "{v}"
        );
    }
}

#[test]
fn a_batch_keeps_one_pattern_of_burnt_pits() {
    // Two Dakon rounds with a different burnt pit: their positions' keys leave the statuses
    // out, so one search for both would mix their values. The second is refused, per line.
    let dir = crate::util::temp_dir("review-burnt");
    let mut records = String::new();
    for (i, (start, mv)) in [
        ("x,4,4,4/4,4,4,4/2,2/S", "2"),
        ("4,x,4,4/4,4,4,4/2,2/S", "1"),
    ]
    .into_iter()
    .enumerate()
    {
        let rec = dir.join(format!("round{i}.json"));
        ok(&[
            "play",
            "dakon",
            "--holes",
            "4",
            "--position",
            start,
            "--moves",
            mv,
            "--record",
            rec.to_str().unwrap(),
        ]);
        records.push_str(std::fs::read_to_string(&rec).unwrap().trim());
        records.push('\n');
    }
    let batch = dir.join("rounds.txt");
    std::fs::write(&batch, records).unwrap();
    let out = crate::util::mancala(&[
        "review",
        "dakon",
        "--holes",
        "4",
        "--batch",
        batch.to_str().unwrap(),
        "--json",
        "--threads",
        "1",
    ]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "the refused line fails the batch"
    );
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(
        lines[0]["moves"].as_array().map(Vec::len),
        Some(1),
        "{}",
        lines[0]
    );
    let error = lines[1]["error"].as_str().unwrap_or_default();
    assert!(error.contains("burnt pits or sons differ"), "{}", lines[1]);
}
