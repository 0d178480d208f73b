//! Game records: `play --record FILE` writes one, `--load FILE` replays it on every command.

use crate::util::{fails, json, ok, temp_dir};

#[test]
fn a_recorded_game_replays_on_every_command() {
    let dir = temp_dir("records");
    let file = dir.join("game.json");
    let f = file.to_str().unwrap();
    ok(&[
        "play", "kalah", "--holes", "4", "--seeds", "3", "--moves", "2,4,1", "--record", f,
    ]);
    let rec: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(rec["game"], "kalah");
    assert_eq!(rec["start"], "3,3,3,3/3,3,3,3/0,0/S");
    assert_eq!(rec["moves"], serde_json::json!(["S2", "S4", "N1"]));
    let played = json(&[
        "play", "kalah", "--holes", "4", "--seeds", "3", "--moves", "2,4,1", "--json",
    ]);
    assert_eq!(rec["end"], played["position"]);
    assert_eq!(rec["score"], played["score"]);
    // --load gives the record's end to any command, and --moves continue from it.
    let loaded = json(&["play", "kalah", "--load", f, "--json"]);
    assert_eq!(loaded["position"], played["position"]);
    let solved = json(&["solve", "kalah", "--load", f, "--json"]);
    let direct = json(&[
        "solve", "kalah", "--holes", "4", "--seeds", "3", "--moves", "2,4,1", "--json",
    ]);
    assert_eq!(solved["value"], direct["value"]);
    let more = json(&["play", "kalah", "--load", f, "--moves", "3", "--json"]);
    let direct = json(&[
        "play", "kalah", "--holes", "4", "--seeds", "3", "--moves", "2,4,1,3", "--json",
    ]);
    assert_eq!(more["position"], direct["position"]);
    // A record of a record: the moves accumulate.
    let again = dir.join("again.json");
    ok(&[
        "play",
        "kalah",
        "--load",
        f,
        "--moves",
        "3",
        "--record",
        again.to_str().unwrap(),
    ]);
    let rec2: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&again).unwrap()).unwrap();
    assert_eq!(rec2["moves"], serde_json::json!(["S2", "S4", "N1", "N3"]));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_record_is_only_read_under_its_own_rules_and_bad_files_are_refused() {
    let dir = temp_dir("records-bad");
    let file = dir.join("game.json");
    let f = file.to_str().unwrap();
    ok(&[
        "play", "kalah", "--holes", "4", "--seeds", "3", "--moves", "2", "--record", f,
    ]);
    assert!(
        fails(&["play", "kalah", "--load", f, "--empty-capture"]).contains("was played as kalah")
    );
    assert!(fails(&["play", "dakon", "--load", f]).contains("was played as kalah"));
    assert!(fails(&["play", "kalah", "--load", f, "--holes", "4"]).contains("cannot be used with"));
    let missing = dir.join("missing.json");
    assert!(fails(&["play", "kalah", "--load", missing.to_str().unwrap()]).contains("--load"));
    assert!(
        fails(&["play", "kalah", "--load", dir.to_str().unwrap()]).contains("not a regular file")
    );
    for (name, text) in [
        ("empty.json", ""),
        ("garbage.json", "not json"),
        ("two.json", "{}\n{}\n"),
        (
            "illegal.json",
            &std::fs::read_to_string(&file)
                .unwrap()
                .replace("\"S2\"", "\"S9\""),
        ),
        (
            "future.json",
            &std::fs::read_to_string(&file)
                .unwrap()
                .replace("\"format\":1", "\"format\":7"),
        ),
    ] {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        fails(&["play", "kalah", "--load", p.to_str().unwrap()]);
    }
    // --record into a directory that does not exist: an error, and no file.
    let nowhere = dir.join("no/such/dir/game.json");
    assert!(fails(&["play", "kalah", "--record", nowhere.to_str().unwrap()]).contains("--record"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_record_replaces_only_a_regular_file_and_never_follows_a_link() {
    // Finding 10 of issue 56: `--record FILE` renamed its temporary over whatever FILE was (a
    // FIFO or a device became a regular file), wrote through an existing `FILE.tmp` symbolic
    // link, and two writers shared that one temporary.
    let dir = temp_dir("records-safe");
    use std::os::unix::fs::FileTypeExt;
    let run = record_to;
    // A FIFO and a symbolic link at FILE are refused and left as they are.
    let fifo = dir.join("fifo");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let o = run(&fifo);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("not a regular file (a FIFO)"), "{err}");
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
    let target = dir.join("target.txt");
    std::fs::write(&target, "mine").unwrap();
    let link = dir.join("link.json");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let o = run(&link);
    assert!(String::from_utf8_lossy(&o.stderr).contains("(a symbolic link)"));
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "mine");
    // A `FILE.tmp` link planted beside FILE is never written through.
    let game = dir.join("game.json");
    std::os::unix::fs::symlink(&target, dir.join("game.json.tmp")).unwrap();
    let o = run(&game);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "mine");
    assert!(std::fs::read_to_string(&game)
        .unwrap()
        .contains("\"moves\":[\"S2\"]"));
    // Writers at once each write a whole record, and leave no temporary behind.
    let writers: Vec<_> = (0..8)
        .map(|_| {
            let game = game.clone();
            std::thread::spawn(move || run(&game).status.success())
        })
        .collect();
    assert!(writers.into_iter().all(|w| w.join().unwrap()));
    assert!(std::fs::read_to_string(&game).unwrap().ends_with("}\n"));
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".tmp") && n != "game.json.tmp")
        .collect();
    assert!(names.is_empty(), "{names:?}");
}

/// `play kalah --holes 4 --seeds 3 --moves 2 --record FILE`.
fn record_to(file: &std::path::Path) -> std::process::Output {
    crate::util::mancala(&[
        "play",
        "kalah",
        "--holes",
        "4",
        "--seeds",
        "3",
        "--moves",
        "2",
        "--record",
        file.to_str().unwrap(),
    ])
}
