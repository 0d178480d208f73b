//! Table manifests are read like table files (issue 56, finding 7): a FIFO, a link to
//! `/dev/zero` or a huge sparse file in a manifest's place is refused at once, never read;
//! `tables verify --quick` fails on a layer file its manifest does not list and on a manifest
//! that lists nothing.

use crate::hardening::{build_kalah4, run_bounded};
use crate::util::temp_dir;
use mancala::endgame::table_id;
use mancala::rules::Kalah;
use std::path::{Path, PathBuf};

/// Kalah on 4 holes built into a fresh directory, and its manifest's path.
fn built(name: &str) -> (PathBuf, PathBuf) {
    let dir = temp_dir(name);
    build_kalah4(&dir);
    let manifest = dir.join(tables::manifest::file_name(&table_id(&Kalah::default(), 4)));
    assert!(manifest.is_file(), "the build writes the manifest");
    (dir, manifest)
}

/// `tables info` and `tables verify --quick` on `dir`: both fail within 10 s, saying `says`.
fn both_refuse(dir: &Path, says: &str) {
    let d = dir.to_str().unwrap();
    for args in [
        vec!["tables", "info", "--dir", d],
        vec!["tables", "verify", "--quick", "--dir", d],
    ] {
        let o = run_bounded(&args, 10);
        let out = String::from_utf8_lossy(&o.stdout);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {out}{err}");
        assert!(
            out.contains(says) || err.contains(says),
            "{args:?}: {out}{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn special_and_huge_manifests_are_refused_unread() {
    let (dir, manifest) = built("h56-manifest-special");
    std::fs::remove_file(&manifest).unwrap();
    assert!(std::process::Command::new("mkfifo")
        .arg(&manifest)
        .status()
        .unwrap()
        .success());
    both_refuse(&dir, "not a regular file (a FIFO)");
    std::fs::remove_file(&manifest).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &manifest).unwrap();
    both_refuse(&dir, "not a regular file (a device)");
    std::fs::remove_file(&manifest).unwrap();
    let f = std::fs::File::create(&manifest).unwrap();
    f.set_len(2 << 30).unwrap();
    drop(f);
    both_refuse(&dir, "larger than any manifest");
}

#[test]
fn quick_verify_fails_on_a_file_its_manifest_does_not_list_and_on_an_empty_manifest() {
    let (dir, manifest) = built("h56-manifest-unlisted");
    let d = dir.to_str().unwrap();
    let text = std::fs::read_to_string(&manifest).unwrap();
    let layer5 = table_id(&Kalah::default(), 4).file_name(5);
    let without: String = text
        .lines()
        .filter(|l| !l.ends_with(&layer5))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(without.len() < text.len());
    std::fs::write(&manifest, without).unwrap();
    let o = run_bounded(&["tables", "verify", "--quick", "--dir", d], 60);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains(&format!("{layer5}: not listed in its set's manifest")),
        "{out}"
    );
    std::fs::write(
        &manifest,
        "# mancala table manifest\n# sha256  bytes  file\n",
    )
    .unwrap();
    both_refuse(&dir, "lists no file");
}
