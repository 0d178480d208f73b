//! Endgame tables: tables against the search on every position of small boards of every game,
//! damaged files, `verify` catching a wrong entry, and the `tables` commands end to end.

use crate::reference::{self, RefGame};
use crate::util::{
    cfg, fails, json, mancala, mancala_command, ok, temp_dir, Position, Setup, Side,
};
use mancala::endgame::{table_id, MancalaIndexer};
use mancala::rules::{Dakon, DjenonAboure, Kalah, Rules, SanYao, WalakPussa};
use solver::search::solve;
use solver::Indexer;
use std::path::Path;
use tables::{BuildOptions, Check, Tablebase};

/// Builds layers `0..=k` of `rules` on `holes` holes and checks every position of every layer
/// against the search without tables; then checks the search *with* the tables as its oracle on
/// the positions of the top layer plus one seed.
fn tables_equal_search<R: Rules>(rules: R, holes: u8, k: u32) {
    let dir = temp_dir(&format!(
        "{}-{holes}-{k}-{}",
        R::KIND.name(),
        rules.option_names().join("+")
    ));
    let ix = MancalaIndexer::new(rules, holes);
    let id = table_id(&rules, holes);
    let opts = BuildOptions {
        threads: 2,
        cyclic_by_graph: false,
        stop: None,
    };
    tables::build(&ix, &id, &dir, k, &opts, &tables::Silent, |_| {}).unwrap();
    let tb = Tablebase::open(ix, id, &dir, Check::Checksums).unwrap();
    let mut checked = 0;
    for layer in 0..=k {
        for i in 0..ix.layer_len(layer) {
            let Some(p) = ix.position(layer, i) else {
                continue;
            };
            let want = solve(&p, &cfg(1), None).unwrap().value;
            assert_eq!(tb.probe_value(&p), Some(want), "{} {p}", R::KIND.name());
            // The same board with North to move (rotated) reads the same slot.
            let s = p.setup();
            let rotated = Setup {
                south: s.north.clone(),
                north: s.south.clone(),
                stores: [0, 0],
                to_move: Some(Side::North),
            };
            let q = Position::from_setup(rules, &rotated).unwrap();
            assert_eq!(ix.index(&q), i);
            checked += 1;
        }
        assert_eq!(
            tables::verify_layer(&ix, tb.tables(), layer, &tables::Silent).wrong,
            0
        );
    }
    assert!(checked > 0);
    // One layer above the tables: the search probes them at the leaves and must agree.
    for i in (0..ix.layer_len(k + 1)).step_by(7) {
        let Some(p) = ix.position(k + 1, i) else {
            continue;
        };
        let with = solve(&p, &cfg(1), Some(&tb)).unwrap();
        let without = solve(&p, &cfg(1), None).unwrap();
        assert_eq!(
            (with.value, &with.best),
            (without.value, &without.best),
            "{p}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn kalah_tables_equal_the_search() {
    tables_equal_search(Kalah::default(), 3, 6);
    tables_equal_search(
        Kalah {
            empty_capture: true,
            end_when_mover_empty: false,
            leftovers_unscored: false,
        },
        2,
        7,
    );
    tables_equal_search(
        Kalah {
            empty_capture: false,
            end_when_mover_empty: true,
            leftovers_unscored: false,
        },
        2,
        7,
    );
    tables_equal_search(
        Kalah {
            empty_capture: false,
            end_when_mover_empty: false,
            leftovers_unscored: true,
        },
        3,
        6,
    );
    tables_equal_search(
        Kalah {
            empty_capture: true,
            end_when_mover_empty: true,
            leftovers_unscored: true,
        },
        2,
        7,
    );
}

#[test]
fn dakon_tables_equal_the_search() {
    tables_equal_search(Dakon::default(), 3, 5);
    tables_equal_search(
        Dakon {
            nembak_takes_landing_seed: true,
            no_mikul: true,
        },
        3,
        4,
    );
}

#[test]
fn djenon_aboure_tables_equal_the_search() {
    tables_equal_search(DjenonAboure, 2, 7);
    tables_equal_search(DjenonAboure, 3, 4);
}

#[test]
fn walak_pussa_tables_equal_the_search() {
    tables_equal_search(WalakPussa::default(), 2, 7);
    tables_equal_search(
        WalakPussa {
            singleton_restriction: true,
        },
        3,
        4,
    );
}

#[test]
fn san_yao_tables_equal_the_search() {
    tables_equal_search(SanYao, 2, 7);
    tables_equal_search(SanYao, 3, 4);
}

/// Builds layers `0..=k` of a cyclic game with the lean passes (2 threads) and with the former
/// explicit-graph algorithm (1 thread): the files must be equal byte for byte. Then every
/// position of the `brute` top layers is checked against the reference engine's brute-force
/// §8.5 solver.
fn lean_cyclic_build_equals_graph_and_brute_force<R: Rules>(
    rules: R,
    holes: u8,
    k: u32,
    brute: u32,
    game: RefGame,
) {
    let name = format!(
        "{}-{holes}-{k}-{}",
        R::KIND.name(),
        rules.option_names().join("+")
    );
    let (lean_dir, graph_dir) = (
        temp_dir(&format!("lean-{name}")),
        temp_dir(&format!("graph-{name}")),
    );
    let ix = MancalaIndexer::new(rules, holes);
    let id = table_id(&rules, holes);
    let opts = |threads, cyclic_by_graph| BuildOptions {
        threads,
        cyclic_by_graph,
        stop: None,
    };
    tables::build(
        &ix,
        &id,
        &lean_dir,
        k,
        &opts(2, false),
        &tables::Silent,
        |_| {},
    )
    .unwrap();
    tables::build(
        &ix,
        &id,
        &graph_dir,
        k,
        &opts(1, true),
        &tables::Silent,
        |_| {},
    )
    .unwrap();
    for layer in 0..=k {
        let file = id.file_name(layer);
        let lean = std::fs::read(lean_dir.join(&file)).unwrap();
        assert!(
            lean == std::fs::read(graph_dir.join(&file)).unwrap(),
            "{file}: the lean build differs from the graph build"
        );
    }
    let tb = Tablebase::open(ix, id, &lean_dir, Check::Checksums).unwrap();
    let (mut checked, mut nonzero) = (0, 0);
    for layer in k.saturating_sub(brute)..=k {
        for i in 0..ix.layer_len(layer) {
            let Some(p) = ix.position(layer, i) else {
                continue;
            };
            // The reference's value is South's final margin; the tables' is the mover's.
            let q = reference::parse(&p.to_string()).unwrap();
            let south = reference::value(game, &q);
            let want = if q.to_move == Some(1) { -south } else { south };
            assert_eq!(tb.probe_value(&p), Some(want), "{name}: {p}");
            checked += 1;
            nonzero += usize::from(want != 0);
        }
    }
    assert!(
        checked > 0 && nonzero > 0,
        "{name}: {checked} positions, {nonzero} not 0"
    );
    std::fs::remove_dir_all(&lean_dir).unwrap();
    std::fs::remove_dir_all(&graph_dir).unwrap();
}

#[test]
fn lean_cyclic_tables_equal_the_graph_algorithm_and_brute_force() {
    lean_cyclic_build_equals_graph_and_brute_force(DjenonAboure, 3, 9, 1, RefGame::DjenonAboure);
    lean_cyclic_build_equals_graph_and_brute_force(DjenonAboure, 4, 7, 0, RefGame::DjenonAboure);
    for singleton_restriction in [false, true] {
        let rules = WalakPussa {
            singleton_restriction,
        };
        let reference = RefGame::WalakPussa {
            singleton_restriction,
        };
        lean_cyclic_build_equals_graph_and_brute_force(rules, 3, 9, 1, reference);
        lean_cyclic_build_equals_graph_and_brute_force(rules, 4, 7, 0, reference);
    }
    lean_cyclic_build_equals_graph_and_brute_force(SanYao, 3, 9, 1, RefGame::SanYao);
    lean_cyclic_build_equals_graph_and_brute_force(SanYao, 4, 7, 0, RefGame::SanYao);
}

// ---------------------------------------------------------------------------------------------
// The command line

fn build_kalah(dir: &Path, k: u32) {
    let out = ok(&[
        "tables",
        "build",
        "kalah",
        "--holes",
        "3",
        "--max-seeds",
        &k.to_string(),
        "--dir",
        dir.to_str().unwrap(),
        "--threads",
        "2",
    ]);
    assert!(
        out.contains(&format!("built kalah, 3 holes: layers 0 to {k}")),
        "{out}"
    );
}

#[test]
fn cli_build_info_query_dump_verify_solve() {
    let dir = temp_dir("cli");
    let d = dir.to_str().unwrap();
    build_kalah(&dir, 8);
    // A second build resumes: every layer is kept.
    let again = ok(&[
        "tables",
        "build",
        "kalah",
        "--holes",
        "3",
        "--max-seeds",
        "8",
        "--dir",
        d,
    ]);
    assert_eq!(again.matches("kept").count(), 9, "{again}");

    let info = ok(&["tables", "info", "--dir", d]);
    assert!(info.contains("kalah_3h_k008.mtb"), "{info}");
    assert!(info.contains("kalah, 3 holes: layers 0 to 8"), "{info}");
    assert_eq!(info.matches("  ok").count(), 9, "{info}");

    // query = solve, for both sides to move and with stores.
    for pos in [
        "2,0,1/1,2,0/3,4/S",
        "2,0,1/1,2,0/3,4/N",
        "0,3,3/1,0,1/10,2/N",
        "0,0,0/0,0,0/5,7/-",
    ] {
        let q = json(&[
            "tables",
            "query",
            "kalah",
            "--position",
            pos,
            "--dir",
            d,
            "--json",
        ]);
        let s = json(&[
            "solve",
            "kalah",
            "--position",
            pos,
            "--json",
            "--threads",
            "1",
        ]);
        assert_eq!(q["value"], s["value"], "{pos}");
        assert_eq!(q["best"], s["best"], "{pos}");
        let t = json(&[
            "solve",
            "kalah",
            "--position",
            pos,
            "--json",
            "--threads",
            "1",
            "--tables",
            d,
        ]);
        assert_eq!(t["value"], s["value"], "{pos}");
        assert_eq!(t["best"], s["best"], "{pos}");
    }
    // The whole game fits in the tables: answered from them.
    let t = json(&[
        "solve",
        "kalah",
        "--holes",
        "3",
        "--seeds",
        "1",
        "--json",
        "--threads",
        "1",
        "--tables",
        d,
    ]);
    let s = json(&[
        "solve",
        "kalah",
        "--holes",
        "3",
        "--seeds",
        "1",
        "--json",
        "--threads",
        "1",
    ]);
    assert_eq!(t["value"], s["value"]);
    // Beyond the tables, the search probes them at the leaves.
    let t = json(&[
        "solve",
        "kalah",
        "--holes",
        "3",
        "--seeds",
        "3",
        "--json",
        "--threads",
        "1",
        "--tables",
        d,
    ]);
    let s = json(&[
        "solve",
        "kalah",
        "--holes",
        "3",
        "--seeds",
        "3",
        "--json",
        "--threads",
        "1",
    ]);
    assert_eq!(t["value"], s["value"]);
    assert!(t["nodes"].as_u64() < s["nodes"].as_u64(), "{t} vs {s}");

    // dump: every position of a layer, both formats, values agreeing with query.
    let csv = ok(&[
        "tables",
        "dump",
        "kalah",
        "--holes",
        "3",
        "--seeds-on-board",
        "4",
        "--dir",
        d,
    ]);
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("position,value,best"));
    let rows: Vec<&str> = lines.collect();
    let jsonl = ok(&[
        "tables",
        "dump",
        "kalah",
        "--holes",
        "3",
        "--seeds-on-board",
        "4",
        "--dir",
        d,
        "--format",
        "jsonl",
    ]);
    assert_eq!(jsonl.lines().count(), rows.len());
    assert!(rows.len() > 50 && rows.len() < 126, "{}", rows.len());
    for line in jsonl.lines().step_by(9) {
        let row: serde_json::Value = serde_json::from_str(line).unwrap();
        let pos = row["position"].as_str().unwrap();
        let s = json(&[
            "solve",
            "kalah",
            "--position",
            pos,
            "--json",
            "--threads",
            "1",
        ]);
        assert_eq!(row["value"], s["value"], "{pos}");
        assert_eq!(row["best"], s["best"], "{pos}");
    }

    let v = ok(&["tables", "verify", "--dir", d]);
    assert!(v.contains("all tables verified"), "{v}");

    // Out of range.
    let e = fails(&[
        "tables", "query", "kalah", "--holes", "3", "--seeds", "3", "--dir", d,
    ]);
    assert!(e.contains("cover 0 to 8 seeds"), "{e}");
    let e = fails(&["tables", "query", "kalah", "--dir", d]);
    assert!(e.contains("no tables for kalah, 6 holes"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn damaged_files_are_detected_with_clear_errors() {
    let dir = temp_dir("damage");
    let d = dir.to_str().unwrap();
    build_kalah(&dir, 5);
    let file = dir.join("kalah_3h_k004.mtb");
    let good = std::fs::read(&file).unwrap();
    let query = [
        "tables",
        "query",
        "kalah",
        "--position",
        "2,0,1/1,2,0/0,0/S",
        "--dir",
        d,
    ];

    std::fs::write(&file, &good[..good.len() - 5]).unwrap();
    let e = fails(&query);
    assert!(
        e.contains("kalah_3h_k004.mtb") && e.contains("truncated"),
        "{e}"
    );
    let v = mancala(&["tables", "verify", "--dir", d]);
    assert!(!v.status.success());
    assert!(String::from_utf8_lossy(&v.stdout).contains("truncated"));

    let mut b = good.clone();
    let at = b.len() - 7;
    b[at] ^= 0x20;
    std::fs::write(&file, &b).unwrap();
    let e = fails(&query);
    assert!(e.contains("payload checksum mismatch"), "{e}");
    let info = ok(&["tables", "info", "--dir", d]);
    assert!(info.contains("BAD"), "{info}");

    // A valid file of another layer in its place: the header says so.
    std::fs::copy(dir.join("kalah_3h_k003.mtb"), &file).unwrap();
    let e = fails(&query);
    assert!(e.contains("wrong table: it holds layer 3, not 4"), "{e}");
    // A damaged header.
    let mut b = good.clone();
    b[20] ^= 1;
    std::fs::write(&file, &b).unwrap();
    let e = fails(&query);
    assert!(e.contains("header checksum mismatch"), "{e}");
    // Not a table at all.
    std::fs::write(&file, b"hello").unwrap();
    let e = fails(&query);
    assert!(e.contains("not a mancala table file"), "{e}");

    // A rebuild repairs the layer.
    std::fs::write(&file, &good[..100]).unwrap();
    let out = ok(&[
        "tables",
        "build",
        "kalah",
        "--holes",
        "3",
        "--max-seeds",
        "5",
        "--dir",
        d,
    ]);
    assert_eq!(out.matches("kept").count(), 5, "{out}");
    assert_eq!(std::fs::read(&file).unwrap(), good);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn verify_catches_a_wrong_entry() {
    let dir = temp_dir("wrong");
    let d = dir.to_str().unwrap();
    build_kalah(&dir, 6);
    // Rewrite layer 5 with one entry changed, under a valid checksum.
    let ix = MancalaIndexer::new(Kalah::default(), 3);
    let id = table_id(&Kalah::default(), 3);
    let file = dir.join(id.file_name(5));
    let t = tables::Table::read(&file).unwrap();
    let mut values: Vec<i16> = (0..t.len()).map(|i| t.get(i) as i16).collect();
    let slot = (0..t.len()).find(|&i| ix.position(5, i).is_some()).unwrap();
    values[slot as usize] -= 2;
    std::fs::write(&file, tables::format::encode_file(&id, 5, &values)).unwrap();
    assert!(ok(&["tables", "info", "--dir", d]).matches("  ok").count() == 7);
    let o = mancala(&["tables", "verify", "--dir", d]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(!o.status.success(), "{out}");
    // The changed entry, and perhaps parents in its layer that read it.
    assert!(
        out.contains("layer 5: ") && out.contains(" wrong entr"),
        "{out}"
    );
    assert!(out.contains(&format!("slot {slot} ")), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The memory a build says it needs before it starts (and is refused by) is within 10 % of the
/// peak it then uses, on mid-size builds of an acyclic and a cyclic game.
#[test]
fn the_memory_estimate_is_within_ten_percent_of_the_peak() {
    for (game, holes, k) in [("kalah", "6", "18"), ("djenon-aboure", "6", "14")] {
        let dir = temp_dir(&format!("estimate-{game}"));
        let d = dir.to_str().unwrap();
        let v = json(&[
            "tables",
            "build",
            game,
            "--holes",
            holes,
            "--max-seeds",
            k,
            "--dir",
            d,
            "--json",
        ]);
        let estimate = v["memory_estimate"].as_f64().unwrap();
        // The peak is read from /proc/self/status; without it there is nothing to compare.
        let Some(peak) = v["peak_memory"].as_f64() else {
            continue;
        };
        let ratio = peak / estimate;
        assert!(
            (0.9..=1.1).contains(&ratio),
            "{game} {holes} holes K={k}: estimate {estimate} bytes, peak {peak} ({ratio:.3})"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// Issue 33's file: Kalah on 4 holes up to 3 seeds, two 8-byte blocks of layer 3's payload
/// swapped and the checksums recomputed. It opens cleanly; every command that answers from it
/// position by position refuses, naming the file, and prints nothing on stdout.
#[test]
fn a_table_that_contradicts_itself_is_refused() {
    use tables::format::{encode_head, parse, Header};
    let dir = temp_dir("contradiction");
    let d = dir.to_str().unwrap();
    ok(&[
        "tables",
        "build",
        "kalah",
        "--holes",
        "4",
        "--max-seeds",
        "3",
        "--dir",
        d,
    ]);
    let id = table_id(&Kalah::default(), 4);
    let ix = MancalaIndexer::new(Kalah::default(), 4);
    let path = dir.join(id.file_name(3));
    let file = std::fs::read(&path).unwrap();
    let (h, at) = parse(&path, &file).unwrap();
    let position = "0,0,0,1/0,0,0,2/0,0/S";
    let p: Position<Kalah> =
        Position::from_setup(Kalah::default(), &position.parse().unwrap()).unwrap();
    // The 8-byte block holding the position's nibble, swapped with its neighbour.
    let a = ix.index(&p) as usize / 16;
    let b = if a > 0 { a - 1 } else { a + 1 };
    let mut payload = file[at..].to_vec();
    for i in 0..8 {
        payload.swap(8 * a + i, 8 * b + i);
    }
    let h = Header {
        payload_crc: tables::checksum::crc32(&payload),
        ..h
    };
    std::fs::write(&path, [encode_head(&h), payload].concat()).unwrap();
    // The file opens: only the values are wrong, and the one of the position has changed.
    let tb = Tablebase::open(ix, id.clone(), &dir, Check::Checksums).unwrap();
    let truth = solve(&p, &cfg(1), None).unwrap().value;
    assert_ne!(
        tb.probe_value(&p),
        Some(truth),
        "the swap left the value alone"
    );
    let name = id.file_name(3);
    for args in [
        vec![
            "tables",
            "query",
            "kalah",
            "--position",
            position,
            "--dir",
            d,
        ],
        vec![
            "tables",
            "query",
            "kalah",
            "--position",
            position,
            "--dir",
            d,
            "--json",
        ],
        vec![
            "tables",
            "dump",
            "kalah",
            "--holes",
            "4",
            "--seeds-on-board",
            "3",
            "--dir",
            d,
        ],
    ] {
        let err = fails(&args);
        assert!(
            err.contains(&name) && err.contains("contradicts itself"),
            "{args:?}: {err}"
        );
    }
    let tables_arg = format!("--tables={d}");
    let err = fails(&["solve", &tables_arg, "kalah", "--position", position]);
    assert!(
        err.contains(&name) && err.contains("contradicts itself"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `tables verify`'s text, JSON and exit status agree on a set with a gap and on a set with a
/// damaged layer: the layers below are verified and correct, the gap or the damage is the
/// problem; and `--quick` and `info` find a layer whose bytes differ from the build's manifest.
#[test]
fn verify_words_match_its_verdict() {
    use crate::util::mancala;
    let run = |args: &[&str]| {
        let o = mancala(args);
        let out = String::from_utf8(o.stdout).unwrap();
        let err = String::from_utf8_lossy(&o.stderr).to_string();
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        (o.status.code(), out)
    };
    let fresh = |name: &str| {
        let dir = temp_dir(name);
        let d = dir.to_str().unwrap().to_string();
        ok(&[
            "tables",
            "build",
            "kalah",
            "--holes",
            "3",
            "--max-seeds",
            "6",
            "--dir",
            &d,
        ]);
        (dir, d)
    };
    let id = table_id(&Kalah::default(), 3);
    let manifest = tables::manifest::file_name(&id);
    // A gap: layer 3 removed (and so listed by the manifest but missing).
    let (dir, d) = fresh("verify-gap");
    assert!(dir.join(&manifest).exists());
    std::fs::remove_file(dir.join(id.file_name(3))).unwrap();
    let (code, text) = run(&["tables", "verify", "--dir", &d]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("layers 0 to 2,") && text.contains(": ok"),
        "{text}"
    );
    assert!(
        text.contains("layer 3 is missing or bad") && !text.contains("WRONG"),
        "{text}"
    );
    assert!(text.contains("FAILED"), "{text}");
    let (code, out) = run(&["tables", "verify", "--dir", &d, "--json"]);
    assert_eq!(code, Some(1));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["ok"], false);
    assert_eq!(v["sets"][0]["wrong_count"], 0);
    assert_eq!(v["sets"][0]["layers_verified"], 3);
    assert!(!v["sets"][0]["problems"].as_array().unwrap().is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
    // A damaged layer: a payload byte of layer 4 changed, its CRC left as it was.
    let (dir, d) = fresh("verify-damage");
    let path = dir.join(id.file_name(4));
    let mut b = std::fs::read(&path).unwrap();
    let last = b.len() - 1;
    b[last] ^= 0x10;
    std::fs::write(&path, &b).unwrap();
    let (code, text) = run(&["tables", "verify", "--dir", &d]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("BAD") && text.contains(&id.file_name(4)),
        "{text}"
    );
    assert!(
        text.contains("layers 0 to 3,") && !text.contains("WRONG"),
        "{text}"
    );
    let (code, out) = run(&["tables", "verify", "--dir", &d, "--json"]);
    assert_eq!(code, Some(1));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (v["ok"].clone(), v["sets"][0]["wrong_count"].clone()),
        (false.into(), 0.into())
    );
    assert!(!v["bad_files"].as_array().unwrap().is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
    // A layer altered with its CRCs recomputed: only the manifest (and the full verify) see it.
    let (dir, d) = fresh("verify-manifest");
    let (code, text) = run(&["tables", "verify", "--quick", "--dir", &d]);
    assert_eq!(code, Some(0), "{text}");
    let path = dir.join(id.file_name(5));
    let file = std::fs::read(&path).unwrap();
    let (h, at) = tables::format::parse(&path, &file).unwrap();
    let mut payload = file[at..].to_vec();
    // Two different bytes of the codes swapped: the values move, the structure stays sound.
    let codes = h.entries.div_ceil(2) as usize;
    let j = (1..codes).find(|&j| payload[j] != payload[0]).unwrap();
    payload.swap(0, j);
    let h = tables::format::Header {
        payload_crc: tables::checksum::crc32(&payload),
        ..h
    };
    std::fs::write(&path, [tables::format::encode_head(&h), payload].concat()).unwrap();
    let (code, text) = run(&["tables", "verify", "--quick", "--dir", &d]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("SHA-256 differs") && text.contains(&id.file_name(5)),
        "{text}"
    );
    let info = ok(&["tables", "info", "--dir", &d]);
    assert!(info.contains("MANIFEST: its SHA-256 differs"), "{info}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A search reads only the layers its position can reach (its own and those below: sowing never
/// adds seeds), through `--tables` and the default directory alike: a layer above the position
/// that is damaged cannot change its answer and is not read, and a position that reaches it is
/// refused with the layer's file named.
#[test]
fn a_search_reads_only_the_layers_its_position_can_reach() {
    let dir = temp_dir("reachable");
    let d = dir.to_str().unwrap();
    ok(&[
        "tables",
        "build",
        "kalah",
        "--holes",
        "4",
        "--max-seeds",
        "8",
        "--dir",
        d,
    ]);
    let name = table_id(&Kalah::default(), 4).file_name(7);
    let path = dir.join(&name);
    let file = std::fs::read(&path).unwrap();
    std::fs::write(&path, &file[..file.len() / 2]).unwrap();
    let value = |out: &str| {
        out.lines()
            .find(|l| l.starts_with("value:"))
            .unwrap_or_else(|| panic!("no value line: {out}"))
            .to_string()
    };
    let tables_arg = format!("--tables={d}");
    // Three and four seeds on the board: layers 0-4, a small part of the set, are whole.
    for position in ["0,0,0,1/0,0,0,2/0,0/S", "1,0,2,0/0,1,0,0/3,4/N"] {
        let searched = ok(&["solve", "--no-tables", "kalah", "--position", position]);
        let with = ok(&["solve", &tables_arg, "kalah", "--position", position]);
        assert_eq!(value(&with), value(&searched), "{position}");
        let defaulted = mancala_command()
            .env("MANCALA_TABLES", &dir)
            .args(["analyze", "kalah", "--position", position])
            .output()
            .unwrap();
        assert!(
            defaulted.status.success(),
            "{position}: {}",
            String::from_utf8_lossy(&defaulted.stderr)
        );
    }
    // Eight seeds: the search may meet layer 7, so it is read and refused.
    for args in [
        vec![
            "solve",
            &tables_arg,
            "kalah",
            "--position",
            "1,1,1,1/1,1,1,1/0,0/S",
        ],
        vec![
            "analyze",
            &tables_arg,
            "kalah",
            "--position",
            "1,1,1,1/1,1,1,1/0,0/S",
        ],
    ] {
        let err = fails(&args);
        assert!(err.contains(&name), "{args:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
