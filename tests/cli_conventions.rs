//! Conventions every command shares: game names, completions, the man page, `--version`,
//! messages said once, `tables info` on a fresh machine.

use crate::util::{fails, mancala, ok, temp_dir};

#[test]
fn game_names_ignore_case_and_take_aliases() {
    let want = ok(&["show", "djenon-aboure"]);
    for name in ["Djenon-Aboure", "djenon", "DJENON"] {
        assert_eq!(ok(&["show", name]), want, "{name}");
    }
    assert_eq!(ok(&["show", "walak"]), ok(&["show", "walak-pussa"]));
    assert_eq!(ok(&["show", "SanYao"]), ok(&["show", "san-yao"]));
    assert_eq!(ok(&["show", "Kalah"]), ok(&["show", "kalah"]));
    let e = fails(&["show", "kalha"]);
    assert!(e.contains("did you mean 'kalah'?"), "{e}");
    let e = fails(&["show", "chess"]);
    assert!(
        e.contains("unknown game 'chess'") && !e.contains("did you mean"),
        "{e}"
    );
}

#[test]
fn completions_and_man_page_come_from_the_parser() {
    let bash = ok(&["completions", "bash"]);
    assert!(
        bash.contains("mancala") && bash.contains("--hash-mb"),
        "{bash}"
    );
    // The games are offered by name; hidden flags and commands are not.
    for name in ["kalah", "djenon-aboure", "san-yao"] {
        assert!(bash.contains(name), "{name}: {bash}");
    }
    assert!(!bash.contains("--wide-table") && !bash.contains("json-schema"));
    let zsh = ok(&["completions", "zsh"]);
    assert!(zsh.contains("#compdef mancala"), "{zsh}");
    let man = ok(&["man"]);
    assert!(
        man.starts_with(".ie") || man.contains(".TH mancala 1"),
        "{man}"
    );
    assert!(man.contains("solve"), "{man}");
    assert!(fails(&["completions", "cmd.exe"]).contains("cmd.exe"));
}

#[test]
fn version_names_the_crate_version() {
    let v = ok(&["--version"]);
    assert!(
        v.starts_with(&format!("mancala {}", env!("CARGO_PKG_VERSION"))),
        "{v}"
    );
    // Built from this checkout (tests run from one), so the commit is there too.
    if std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.git")).exists() {
        assert!(v.contains("(git "), "{v}");
    }
}

#[test]
fn messages_are_said_once() {
    let dir = temp_dir("no-such-parent").join("missing");
    let d = dir.to_str().unwrap();
    let e = fails(&["tables", "verify", "--dir", d]);
    assert_eq!(e.matches("os error 2").count(), 1, "{e}");
    let e = fails(&["show", "kalah", "--position", "1/2/3"]);
    assert_eq!(e.matches("expected").count(), 1, "{e}");
    let out = ok(&["show", "san-yao"]);
    assert!(out.contains("tallies: South 0 North 0"), "{out}");
    assert!(!out.contains("tallys"));
    assert!(ok(&["show", "kalah"]).contains("stores: South 0 North 0"));
}

#[test]
fn tables_info_on_a_fresh_machine_says_how_to_build() {
    let empty = temp_dir("info-empty");
    for dir in [empty.clone(), empty.join("not-yet")] {
        let o = mancala(&["tables", "info", "--dir", dir.to_str().unwrap()]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let out = String::from_utf8(o.stdout).unwrap();
        assert!(
            out.contains("no tables yet: build them with `mancala tables build"),
            "{out}"
        );
    }
}

#[test]
fn solve_tables_without_dir_reads_the_default_directory() {
    let dir = temp_dir("default-dir");
    let d = dir.to_str().unwrap();
    ok(&[
        "tables",
        "build",
        "kalah",
        "--holes",
        "3",
        "--max-seeds",
        "18",
        "--dir",
        d,
    ]);
    let run = |args: &[&str]| {
        let o = crate::util::mancala_command()
            .args(args)
            .env("MANCALA_TABLES", d)
            .output()
            .unwrap();
        (
            o.status.success(),
            String::from_utf8_lossy(&o.stdout).to_string(),
            String::from_utf8_lossy(&o.stderr).to_string(),
        )
    };
    let (okay, with, err) = run(&[
        "solve", "kalah", "--holes", "3", "--seeds", "3", "--tables", "--json",
    ]);
    assert!(okay, "{err}");
    let plain = crate::util::json(&["solve", "kalah", "--holes", "3", "--seeds", "3", "--json"]);
    let with: serde_json::Value = serde_json::from_str(&with).unwrap();
    assert_eq!(with["value"], plain["value"]);
    // The whole game is in the tables: the root is answered without a search below it.
    assert!(with["nodes"].as_u64().unwrap() < plain["nodes"].as_u64().unwrap());
    let (okay, _, err) = run(&["solve", "kalah", "--holes", "4", "--tables"]);
    assert!(!okay && err.contains("--tables"), "{err}");
}
