//! The one JSON format (`docs/json.md`): every `--json` object carries the same head, winners
//! are "S", "N", "draw" or null, and `best` is a list of moves.

use crate::util::json;
use serde_json::Value;

/// Checks the head of one object and the conventions of its fields; `position` says whether a
/// position is involved (then `holes`, `position` and `to_move` are there).
fn check(v: &Value, command: &str, game: &str, position: bool) {
    assert_eq!(v["format"], 1, "{v}");
    assert_eq!(v["command"], command, "{v}");
    assert_eq!(v["game"], game, "{v}");
    assert!(v["options"].is_array(), "{v}");
    if position {
        assert!(v["holes"].as_u64().is_some(), "{v}");
        let p = v["position"].as_str().expect("position");
        let side = p.rsplit('/').next().unwrap();
        match side {
            "-" => assert!(v["to_move"].is_null(), "{v}"),
            s => assert_eq!(v["to_move"], s, "{v}"),
        }
    }
    walk(v);
}

/// Every `winner` anywhere is "S", "N", "draw" or null; every `best` is a list.
fn walk(v: &Value) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                match k.as_str() {
                    "winner" => assert!(
                        x.is_null() || ["S", "N", "draw"].contains(&x.as_str().unwrap_or("?")),
                        "winner {x}"
                    ),
                    "best" => assert!(x.is_array(), "best {x}"),
                    "mover" => panic!("'mover' is called to_move"),
                    _ => {}
                }
                walk(x);
            }
        }
        Value::Array(a) => a.iter().for_each(walk),
        _ => {}
    }
}

#[test]
fn every_position_command_has_the_same_head() {
    let k33 = ["kalah", "--holes", "3", "--seeds", "3"];
    for cmd in ["play", "moves", "solve", "analyze"] {
        let v = json(&[&[cmd][..], &k33, &["--json"]].concat());
        check(&v, cmd, "kalah", true);
    }
    let v = json(&["solve", "djenon", "--holes", "3", "--seeds", "2", "--json"]);
    check(&v, "solve", "djenon-aboure", true);
    let v = json(&["analyze", "kalah", "--holes", "3", "--seeds", "3", "--json"]);
    assert_eq!(
        v["value"],
        json(&["solve", "kalah", "--holes", "3", "--seeds", "3", "--json"])["value"]
    );
    assert!(!v["best"].as_array().unwrap().is_empty());
    let v = json(&["verify", "opening", "dakon", "--holes", "3", "--json"]);
    check(&v, "verify opening", "dakon", true);
    assert!(v["best_turn"].is_array());
    let over = "0,0,0/0,0,0/5,4/-";
    let v = json(&["play", "kalah", "--position", over, "--json"]);
    check(&v, "play", "kalah", true);
    assert_eq!(v["winner"], "S");
    let v = json(&["analyze", "kalah", "--position", over, "--json"]);
    check(&v, "analyze", "kalah", true);
    assert_eq!(v["value"], 1);
}

#[test]
fn first_player_and_table_queries_share_the_head() {
    let v = json(&[
        "verify",
        "first-player",
        "kalah",
        "--holes",
        "2..3",
        "--seeds",
        "1..2",
        "--json",
    ]);
    check(&v, "verify first-player", "kalah", false);
    assert_eq!(v["results"].as_array().unwrap().len(), 4);
    let dir = crate::util::temp_dir("json-tables");
    let d = dir.to_str().unwrap();
    crate::util::ok(&[
        "tables",
        "build",
        "kalah",
        "--holes",
        "3",
        "--max-seeds",
        "6",
        "--dir",
        d,
    ]);
    let v = json(&[
        "tables",
        "query",
        "kalah",
        "--position",
        "1,1,1/1,1,1/0,0/S",
        "--dir",
        d,
        "--json",
    ]);
    check(&v, "tables query", "kalah", true);
}

// ---------------------------------------------------------------------------------------------
// The committed JSON Schema (docs/json.schema.json): up to date with the output types, and
// every command's output valid against its definition.

use crate::util::{mancala, ok, temp_dir};
use std::path::PathBuf;

fn schema_path() -> PathBuf {
    crate::util::repo().join("docs/json.schema.json")
}

/// The committed schema (read at run time, so that an `UPDATE_SCHEMA=1` run validates against
/// what it wrote).
fn committed_schema() -> Value {
    let text = std::fs::read_to_string(schema_path()).expect("docs/json.schema.json");
    serde_json::from_str(&text).expect("the schema is JSON")
}

/// The committed schema's definition `def`, as a schema of its own.
fn definition(def: &str) -> Value {
    let root = committed_schema();
    assert!(root["$defs"][def].is_object(), "no definition {def}");
    serde_json::json!({
        "$schema": root["$schema"],
        "$ref": format!("#/$defs/{def}"),
        "$defs": root["$defs"],
    })
}

/// The errors of `v` against definition `def` and against the whole schema (any definition).
fn errors(v: &Value, def: &str) -> Vec<String> {
    let mut out = Vec::new();
    for schema in [definition(def), committed_schema()] {
        let validator = jsonschema::validator_for(&schema).expect("a valid schema");
        out.extend(
            validator
                .iter_errors(v)
                .map(|e| format!("{} at {}", e, e.instance_path())),
        );
    }
    out
}

/// Asserts that `v` is valid as a `def` object; returns it.
fn valid(v: Value, def: &str) -> Value {
    let e = errors(&v, def);
    assert!(e.is_empty(), "{v}\nis not a valid {def}: {e:?}");
    v
}

/// Runs the command, expects success and one JSON object valid as `def`.
fn run_valid(args: &[&str], def: &str) -> Value {
    valid(json(args), def)
}

/// Every JSON line of `text`, each valid as `def`.
fn lines_valid(text: &str, def: &str) -> Vec<Value> {
    text.lines()
        .map(|l| valid(serde_json::from_str(l).expect("a JSON line"), def))
        .collect()
}

#[test]
fn schema_is_up_to_date_with_the_output_types() {
    let generated = ok(&["json-schema"]);
    let path = schema_path();
    if std::env::var_os("UPDATE_SCHEMA").is_some() {
        std::fs::write(&path, &generated).expect("write docs/json.schema.json");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed != generated {
        let first = committed
            .lines()
            .zip(generated.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(committed.lines().count().min(generated.lines().count()));
        let show = |t: &str| t.lines().skip(first).take(5).collect::<Vec<_>>().join("\n");
        panic!(
            "docs/json.schema.json is stale (first difference at line {}):\n--- committed\n{}\n+++ generated\n{}\n\
             Update it with: UPDATE_SCHEMA=1 cargo test --release --test integration json_format::schema",
            first + 1,
            show(&committed),
            show(&generated)
        );
    }
    // Each definition pins `command`, and the root accepts them all.
    let s: Value = serde_json::from_str(&generated).unwrap();
    assert_eq!(
        s["$defs"]["solve"]["properties"]["command"]["const"],
        "solve"
    );
    assert_eq!(s["$defs"]["solve"]["additionalProperties"], false);
    assert!(s["anyOf"].as_array().unwrap().len() >= 18);
}

/// A change to a valid object that makes it invalid.
type Mutation = Box<dyn Fn(&mut Value)>;

#[test]
fn the_validator_rejects_objects_the_schema_does_not_allow() {
    let good = run_valid(
        &["solve", "kalah", "--holes", "3", "--seeds", "2", "--json"],
        "solve",
    );
    let mutations: Vec<(&str, Mutation)> = vec![
        ("a long winner", Box::new(|v| v["winner"] = "South".into())),
        ("best as one move", Box::new(|v| v["best"] = 2.into())),
        (
            "no value",
            Box::new(|v| {
                v.as_object_mut().unwrap().remove("value");
            }),
        ),
        ("an unknown field", Box::new(|v| v["mover"] = "S".into())),
        ("another format", Box::new(|v| v["format"] = 2.into())),
        (
            "another command",
            Box::new(|v| v["command"] = "analyze".into()),
        ),
        (
            "to_move spelled out",
            Box::new(|v| v["to_move"] = "South".into()),
        ),
        (
            "a pv of words",
            Box::new(|v| v["pv"] = serde_json::json!(["S2"])),
        ),
    ];
    for (what, mutate) in mutations {
        let mut bad = good.clone();
        mutate(&mut bad);
        let e = errors(&bad, "solve");
        assert!(!e.is_empty(), "{what}: the validator accepted {bad}");
    }
}

#[test]
fn show_play_moves_and_match_validate() {
    let v = run_valid(
        &[
            "play", "kalah", "--holes", "3", "--seeds", "3", "--moves", "1", "--json",
        ],
        "play",
    );
    assert_eq!(v["position"], "0,4,4/3,3,3/1,0/S");
    assert_eq!(v["to_move"], "S");
    assert!(v["winner"].is_null());
    let v = run_valid(
        &["play", "kalah", "--position", "0,0,0/0,0,0/5,4/-", "--json"],
        "play",
    );
    assert_eq!(v["winner"], "S");
    assert_eq!(v["score"], serde_json::json!([5, 4]));
    let v = run_valid(
        &["moves", "kalah", "--holes", "3", "--seeds", "3", "--json"],
        "moves",
    );
    assert_eq!(v["moves"].as_array().unwrap().len(), 3);
    assert_eq!(v["moves"][0]["position"], "0,4,4/3,3,3/1,0/S");
    let v = run_valid(
        &[
            "moves",
            "kalah",
            "--position",
            "0,0,0/0,0,0/5,4/-",
            "--json",
        ],
        "moves",
    );
    assert!(v["to_move"].is_null() && v["moves"].as_array().unwrap().is_empty());
    let v = run_valid(
        &["match", "dakon", "--holes", "3", "--moves", "1,2", "--json"],
        "match",
    );
    assert_eq!(v["round"], 1);
    assert_eq!(v["rounds"][0]["moves"], serde_json::json!([1, 2]));
    assert_eq!(v["match_over"], false);
}

#[test]
fn solve_and_analyze_validate() {
    // Kalah(4,3), standard rules: +6, best move 2 (docs/reference-values.md).
    let v = run_valid(
        &["solve", "kalah", "--holes", "4", "--seeds", "3", "--json"],
        "solve",
    );
    assert_eq!(
        (v["value"].as_i64(), v["winner"].as_str()),
        (Some(6), Some("S"))
    );
    assert_eq!(v["best"], serde_json::json!([2]));
    let v = run_valid(
        &[
            "solve",
            "kalah",
            "--holes",
            "4",
            "--seeds",
            "3",
            "--empty-capture",
            "--json",
        ],
        "solve",
    );
    assert_eq!(v["value"], 8);
    assert_eq!(v["options"], serde_json::json!(["empty-capture"]));
    let v = run_valid(
        &["analyze", "kalah", "--holes", "4", "--seeds", "3", "--json"],
        "analyze",
    );
    assert_eq!(v["value"], 6);
    let two = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["move"] == 2);
    assert_eq!(two.unwrap()["value"], 6);
    // A search cut off by its time limit: bounds, exit status 124.
    let o = mancala(&[
        "solve",
        "kalah",
        "--holes",
        "6",
        "--seeds",
        "6",
        "--time-limit",
        "0.05",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(124));
    let v = valid(serde_json::from_slice(&o.stdout).unwrap(), "solve_stopped");
    assert_eq!(
        (v["complete"].as_bool(), v["stopped"].as_str()),
        (Some(false), Some("time-limit"))
    );
    assert!(v["lower"].as_i64().unwrap() <= v["upper"].as_i64().unwrap());
    // An analysis cut off the same way: every move with its bounds.
    let o = mancala(&[
        "analyze",
        "kalah",
        "--holes",
        "6",
        "--seeds",
        "6",
        "--time-limit",
        "0.05",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(124));
    let v = valid(
        serde_json::from_slice(&o.stdout).unwrap(),
        "analyze_stopped",
    );
    assert_eq!(v["moves"].as_array().unwrap().len(), 6);
    assert!(v["lower"].as_i64().unwrap() <= v["upper"].as_i64().unwrap());
}

#[test]
fn batch_lines_and_error_records_validate() {
    let dir = temp_dir("json-batch");
    let file = dir.join("b.txt");
    std::fs::write(
        &file,
        "# two positions and a bad line\n2,2,2/2,2,2/0,0/S\nnonsense\n0,0,0/0,0,0/5,4/-\n",
    )
    .unwrap();
    let f = file.to_str().unwrap();
    let o = mancala(&["solve", "kalah", "--batch", f]);
    assert_eq!(o.status.code(), Some(1), "a bad line fails the batch");
    let text = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3);
    let v = lines_valid(lines[0], "solve_batch_line").remove(0);
    assert_eq!(
        (v["line"].as_u64(), v["value"].as_i64()),
        (Some(2), Some(4))
    );
    let v = lines_valid(lines[1], "batch_error").remove(0);
    assert_eq!(v["line"], 3);
    assert!(v["error"].as_str().unwrap().contains("nonsense"));
    let v = lines_valid(lines[2], "solve_batch_line").remove(0);
    assert_eq!(
        (v["value"].as_i64(), v["winner"].as_str()),
        (Some(1), Some("S"))
    );
    let o = mancala(&["analyze", "kalah", "--batch", f]);
    let text = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let v = lines_valid(lines[0], "analyze_batch_line").remove(0);
    assert_eq!(v["value"], 4);
    lines_valid(lines[1], "batch_error");
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, "# nothing\n").unwrap();
    let o = mancala(&["solve", "kalah", "--batch", empty.to_str().unwrap()]);
    let v = lines_valid(&String::from_utf8(o.stdout).unwrap(), "batch_error").remove(0);
    assert_eq!(v["line"], 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tables_commands_validate() {
    let dir = temp_dir("json-tables-schema");
    let d = dir.to_str().unwrap();
    let v = run_valid(&["tables", "info", "--dir", d, "--json"], "tables_info");
    assert!(v["files"].as_array().unwrap().is_empty());
    assert!(v["message"].as_str().unwrap().contains("tables build"));
    let v = run_valid(
        &[
            "tables",
            "build",
            "kalah",
            "--holes",
            "3",
            "--max-seeds",
            "6",
            "--dir",
            d,
            "--json",
        ],
        "tables_build",
    );
    assert_eq!(v["layers"].as_array().unwrap().len(), 7);
    assert_eq!(v["layers"][0]["resumed"], false);
    // Built again: every layer is kept.
    let v = run_valid(
        &[
            "tables",
            "build",
            "kalah",
            "--holes",
            "3",
            "--max-seeds",
            "6",
            "--dir",
            d,
            "--json",
        ],
        "tables_build",
    );
    assert!(v["layers"]
        .as_array()
        .unwrap()
        .iter()
        .all(|l| l["resumed"] == true));
    let v = run_valid(&["tables", "info", "--dir", d, "--json"], "tables_info");
    assert_eq!(v["files"].as_array().unwrap().len(), 7);
    assert_eq!(v["sets"][0]["complete_to"], 6);
    assert_eq!(v["files"][0]["table"]["checksum_ok"], true);
    // 1,1,1/1,1,1/0,0/S against solve.
    let pos = "1,1,1/1,1,1/0,0/S";
    let q = run_valid(
        &[
            "tables",
            "query",
            "kalah",
            "--position",
            pos,
            "--dir",
            d,
            "--json",
        ],
        "tables_query",
    );
    let s = json(&["solve", "kalah", "--position", pos, "--json"]);
    assert_eq!(q["value"], s["value"]);
    assert_eq!(q["best"], s["best"]);
    let dump = ok(&[
        "tables",
        "dump",
        "kalah",
        "--holes",
        "3",
        "--seeds-on-board",
        "2",
        "--dir",
        d,
        "--format",
        "jsonl",
    ]);
    let csv = ok(&[
        "tables",
        "dump",
        "kalah",
        "--holes",
        "3",
        "--seeds-on-board",
        "2",
        "--dir",
        d,
    ]);
    let dumped = lines_valid(&dump, "tables_dump_line");
    assert!(!dumped.is_empty());
    assert_eq!(
        dumped.len(),
        csv.lines().count() - 1,
        "one line per CSV row"
    );
    let first = csv.lines().nth(1).unwrap();
    assert!(
        first.starts_with(&format!(
            "\"{}\",{},",
            dumped[0]["position"].as_str().unwrap(),
            dumped[0]["value"]
        )),
        "{first}"
    );
    let v = run_valid(&["tables", "verify", "--dir", d, "--json"], "tables_verify");
    assert_eq!(
        (v["ok"].as_bool(), v["problems"].as_u64()),
        (Some(true), Some(0))
    );
    assert_eq!(v["sets"][0]["layers_verified"], 7);
    // A corrupted layer: reported in both, exit status 1.
    let layer = dir.join("kalah_3h_k004.mtb");
    let mut bytes = std::fs::read(&layer).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    std::fs::write(&layer, bytes).unwrap();
    let o = mancala(&["tables", "verify", "--dir", d, "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let v = valid(serde_json::from_slice(&o.stdout).unwrap(), "tables_verify");
    assert_eq!(v["ok"], false);
    assert!(!v["bad_files"].as_array().unwrap().is_empty(), "{v}");
    let v = run_valid(&["tables", "info", "--dir", d, "--json"], "tables_info");
    let k4 = &v["files"][4];
    assert_eq!(k4["file"], "kalah_3h_k004.mtb");
    assert!(
        k4["error"].is_string() || k4["table"]["checksum_ok"] == false,
        "{k4}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn verify_commands_validate() {
    let v = run_valid(
        &[
            "verify",
            "first-player",
            "kalah",
            "--holes",
            "2..3",
            "--seeds",
            "1..2",
            "--json",
        ],
        "verify_first_player",
    );
    assert_eq!(v["complete"], true);
    let rows = v["results"].as_array().unwrap();
    assert!(rows.iter().all(|r| r["status"] == "solved"));
    assert_eq!(
        (rows[0]["value"].as_i64(), rows[0]["winner"].as_str()),
        (Some(2), Some("S"))
    );
    let v = run_valid(
        &[
            "verify", "opening", "dakon", "--holes", "3", "--solve", "--json",
        ],
        "verify_opening",
    );
    assert_eq!(
        (v["winning"].as_bool(), v["count"].as_u64()),
        (Some(true), Some(3))
    );
    assert!(v["value"].is_i64() && v["winner"].is_string(), "{v}");
    let v = run_valid(
        &[
            "verify", "match", "dakon", "--holes", "3", "--seeds", "2", "--json",
        ],
        "verify_match",
    );
    let size = &v["sizes"][0];
    assert_eq!(
        (size["result"].as_str(), size["winner"].as_str()),
        (Some("decided"), Some("S"))
    );
    assert_eq!(size["rounds"][0]["value"], 6);
    // The pie rule: a solved board, and in a range one the game ends at once (Djenon-aboure
    // with one seed a pit), which has no first turn and so no pie value.
    let v = run_valid(
        &[
            "verify", "pie", "kalah", "--holes", "3", "--seeds", "3", "--json",
        ],
        "verify_pie",
    );
    let b = &v["boards"][0];
    assert_eq!(
        (b["status"].as_str(), b["pie_value"].as_i64()),
        (Some("solved"), Some(-2))
    );
    assert_eq!(b["fairest"], serde_json::json!([[1, 2], [2]]));
    assert!(b["turns"]
        .as_array()
        .unwrap()
        .iter()
        .all(|t| t["value"].is_i64()));
    let v = run_valid(
        &[
            "verify", "pie", "djenon", "--holes", "3", "--seeds", "1..2", "--json",
        ],
        "verify_pie",
    );
    let b = v["boards"].as_array().unwrap();
    assert_eq!(b[0]["status"], "unsolvable");
    assert!(b[0]["pie_value"].is_null() && b[0]["note"].is_string());
    assert_eq!(b[1]["status"], "solved");
}

#[test]
fn verify_published_validates_and_solves_each_board_once() {
    // Tables for Kalah on 2 holes cover Kalah(2,2) (8 seeds); the other boards go without.
    let dir = temp_dir("json-published");
    let d = dir.to_str().unwrap();
    ok(&[
        "tables",
        "build",
        "kalah",
        "--holes",
        "2",
        "--max-seeds",
        "8",
        "--dir",
        d,
    ]);
    let tables = format!("--tables={d}");
    let o = mancala(&[
        "verify",
        "published",
        "--time-limit",
        "0.5",
        "--threads",
        "1",
        &tables,
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v = valid(
        serde_json::from_slice(&o.stdout).unwrap(),
        "verify_published",
    );
    assert_eq!(v["tables"], true);
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(v["disagree"], 0);
    let row = |h: u64, s: u64, ec: bool| -> Vec<&Value> {
        rows.iter()
            .filter(|r| {
                r["holes"] == h
                    && r["seeds"] == s
                    && (r["options"].as_array().unwrap().is_empty() != ec)
            })
            .collect()
    };
    let k22 = row(2, 2, false);
    assert_eq!(
        (k22[0]["result"].as_str(), k22[0]["value"].as_i64()),
        (Some("agree"), Some(-2))
    );
    // Kalah(6,4) is cited twice per rule: both rows share one attempt (the same seconds and
    // nodes; two solves would not time alike).
    for ec in [false, true] {
        let k64 = row(6, 4, ec);
        assert_eq!(k64.len(), 2);
        assert_eq!(k64[0]["seconds"], k64[1]["seconds"]);
        assert_eq!(k64[0]["nodes"], k64[1]["nodes"]);
    }
    let distinct = {
        let mut b: Vec<String> = rows
            .iter()
            .map(|r| format!("{}{}{}", r["holes"], r["seeds"], r["options"]))
            .collect();
        b.sort();
        b.dedup();
        b.len()
    };
    assert!(v["boards_solved"].as_u64().unwrap() as usize <= distinct);
    assert!(distinct < rows.len());
    std::fs::remove_dir_all(&dir).unwrap();
}
