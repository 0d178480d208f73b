//! Trust nothing read from disk or the command line (issue 21): each finding of the reliability
//! run reproduced — damaged and crafted table files, huge and special files, output before an
//! error, leftovers of killed builds, signals, missing checks, endless-looking sowings — and now
//! answered with a clear error, a report, or a clean stop.

use crate::util::{fails, mancala, ok, temp_dir};
use mancala::endgame::{table_id, MancalaIndexer};
use mancala::rules::Kalah;
use solver::Indexer;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};
use tables::format::{encode_head, parse, Encoding, Header};

/// The command that builds Kalah on 4 holes, layers 0 to 12, into `d`.
fn build_kalah4_args(d: &str) -> [&str; 9] {
    [
        "tables",
        "build",
        "kalah",
        "--holes",
        "4",
        "--max-seeds",
        "12",
        "--dir",
        d,
    ]
}

/// Kalah on 4 holes, layers 0 to 12, built by the CLI into `dir`.
pub(crate) fn build_kalah4(dir: &Path) -> String {
    ok(&[
        &build_kalah4_args(dir.to_str().unwrap())[..],
        &["--threads", "2"],
    ]
    .concat())
}

/// Kalah on 4 holes built into a fresh directory, and what the tests of layer 8 damage: the
/// directory, layer 8's file and its good bytes, a live position of layer 8 (South to move) and
/// its slot.
fn layer8(name: &str) -> (PathBuf, PathBuf, Vec<u8>, String, u64) {
    let dir = temp_dir(name);
    build_kalah4(&dir);
    let file = layer_file(&dir, 8);
    let good = std::fs::read(&file).unwrap();
    let (position, slot) = position_of_layer(8);
    (dir, file, good, position, slot)
}

fn layer_file(dir: &Path, k: u32) -> PathBuf {
    dir.join(table_id(&Kalah::default(), 4).file_name(k))
}

/// A position of layer `k` (Kalah, 4 holes), South to move, and its slot.
fn position_of_layer(k: u32) -> (String, u64) {
    let ix = MancalaIndexer::new(Kalah::default(), 4);
    (0..ix.layer_len(k))
        .find_map(|i| {
            let p = ix.position(k, i)?;
            let s = p.to_string();
            (s.ends_with("/S") && solver::Game::is_over(&p).then_some(()).is_none())
                .then_some((s, i))
        })
        .unwrap()
}

/// Runs the binary, killing it after `secs` seconds: nothing may block forever.
pub(crate) fn run_bounded(args: &[&str], secs: u64) -> Output {
    let child = crate::util::mancala_command()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let started = Instant::now();
    let waiter = std::thread::spawn(move || child.wait_with_output().unwrap());
    while !waiter.is_finished() {
        if started.elapsed() > Duration::from_secs(secs) {
            let _ = Command::new("kill")
                .arg("-KILL")
                .arg(pid.to_string())
                .status();
            let _ = waiter.join();
            panic!("{args:?} still running after {secs} s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    waiter.join().unwrap()
}

/// As [`fails`], with a time bound.
fn fails_bounded(args: &[&str], secs: u64) -> String {
    let o = run_bounded(args, secs);
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
    assert!(o.stdout.is_empty(), "{args:?} printed to stdout");
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    err
}

/// The file with `header`'s fields and `payload`, both checksums recomputed.
fn crafted(header: &Header, payload: &[u8]) -> Vec<u8> {
    let h = Header {
        payload_len: payload.len() as u64,
        payload_crc: tables::checksum::crc32(payload),
        ..header.clone()
    };
    [encode_head(&h), payload.to_vec()].concat()
}

/// Every reader of layer 8, for the position `p` of that layer.
fn readers<'a>(d: &'a str, p: &'a str) -> Vec<Vec<&'a str>> {
    let q = ["kalah", "--holes", "4", "--position", p];
    vec![
        [&["tables", "query"][..], &q, &["--dir", d]].concat(),
        vec![
            "tables",
            "dump",
            "kalah",
            "--holes",
            "4",
            "--seeds-on-board",
            "8",
            "--dir",
            d,
        ],
        [&["solve"][..], &q, &["--tables", d, "--threads", "1"]].concat(),
        [&["analyze"][..], &q, &["--tables", d, "--threads", "1"]].concat(),
    ]
}

#[test]
fn finding_1_verify_reports_a_damaged_file_and_checks_the_others() {
    let (dir, file, good, p, _) = layer8("h-verify-damage");
    let d = dir.to_str().unwrap();
    let mut b = good;
    b[881] ^= 0x80;
    std::fs::write(&file, &b).unwrap();
    let o = run_bounded(&["tables", "verify", "--dir", d], 60);
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        out.contains("BAD ")
            && out.contains("kalah_4h_k008.mtb")
            && out.contains("checksum mismatch"),
        "{out}"
    );
    assert!(out.contains("checksums: 12 of 13 files ok"), "{out}");
    assert!(
        out.contains(
            "kalah, 4 holes: layer 8 is missing or bad, so layers 8 to 12 are not verified"
        ),
        "{out}"
    );
    assert!(out.contains("kalah, 4 holes: layers 0 to 7, "), "{out}");
    assert!(out.contains("FAILED: 2 problems"), "{out}");
    // The readers say so too.
    for args in readers(d, &p) {
        let e = fails_bounded(&args, 60);
        assert!(
            e.contains("kalah_4h_k008.mtb") && e.contains("checksum mismatch"),
            "{args:?}: {e}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn finding_2_valid_checksums_over_an_invalid_payload_are_refused_by_every_reader() {
    let (dir, file, good, p, slot) = layer8("h-crafted");
    let d = dir.to_str().unwrap();
    let (header, at) = parse(&file, &good).unwrap();
    assert!(matches!(header.encoding, Encoding::Nibble { .. }));
    let t = tables::Table::read(&file).unwrap();
    let values: Vec<i16> = (0..t.len()).map(|i| t.get(i) as i16).collect();
    drop(t);

    // The escape code on an entry that has no exception.
    let mut payload = good[at..].to_vec();
    let i = slot as usize;
    payload[i / 2] |= 0xf << ((i & 1) * 4);
    let escaped = crafted(&header, &payload);
    // 16-bit entries, one of them 32767: a value no position of layer 8 can have.
    let mut wide: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    wide[2 * i..2 * i + 2].copy_from_slice(&32767i16.to_le_bytes());
    let wide = crafted(
        &Header {
            encoding: Encoding::Wide,
            exceptions: 0,
            ..header.clone()
        },
        &wide,
    );
    for (bytes, says) in [
        (escaped, "escaped, but the exception list holds"),
        (
            wide,
            &format!("entry {slot} is 32767, outside -8..=8") as &str,
        ),
    ] {
        std::fs::write(&file, &bytes).unwrap();
        for args in readers(d, &p) {
            let e = fails_bounded(&args, 60);
            assert!(
                e.contains("kalah_4h_k008.mtb: invalid payload (its checksum matches)")
                    && e.contains(says),
                "{args:?}: {e}"
            );
        }
        let o = run_bounded(&["tables", "verify", "--dir", d], 60);
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(1), "{out}");
        assert!(
            out.contains("invalid payload") && out.contains(says),
            "{out}"
        );
        let info = ok(&["tables", "info", "--dir", d]);
        assert!(info.contains("ERROR: ") && info.contains(says), "{info}");
    }
    // A resumed build replaces the file with the right one.
    std::fs::write(&file, crafted(&header, &payload)).unwrap();
    let out = build_kalah4(&dir);
    assert_eq!(out.matches("kept").count(), 12, "{out}");
    assert_eq!(std::fs::read(&file).unwrap(), good);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn finding_3_huge_files_are_refused_before_anything_is_allocated() {
    let (dir, file, good, p, _) = layer8("h-huge");
    let d = dir.to_str().unwrap();
    let solve = [
        "solve",
        "kalah",
        "--holes",
        "4",
        "--position",
        &p,
        "--tables",
        d,
    ];
    // The real file made 64 GiB long (sparse): the header says how long it must be.
    let f = std::fs::OpenOptions::new().write(true).open(&file).unwrap();
    f.set_len(64 << 30).unwrap();
    drop(f);
    let e = fails_bounded(&solve, 60);
    assert!(
        e.contains("file is 68719476736 bytes but its header says"),
        "{e}"
    );
    // A crafted header that claims 64 Gi entries, on a file of exactly that length: the layer's
    // real size (known to the reader) refuses it before its payload is read.
    let (header, _) = parse(&file, &good[..good.len()]).unwrap();
    let huge = Header {
        entries: 64 << 30,
        encoding: Encoding::Byte,
        exceptions: 0,
        payload_len: 64 << 30,
        ..header.clone()
    };
    let head = encode_head(&huge);
    std::fs::write(&file, &head).unwrap();
    let f = std::fs::OpenOptions::new().write(true).open(&file).unwrap();
    f.set_len(head.len() as u64 + (64 << 30)).unwrap();
    drop(f);
    let e = fails_bounded(&solve, 60);
    assert!(
        e.contains("wrong table: it has 68719476736 entries, but layer 8 has"),
        "{e}"
    );
    // A resumed build rebuilds the layer instead of aborting.
    let o = run_bounded(&build_kalah4_args(d), 120);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("layer 8: rebuilt the existing file"), "{err}");
    assert_eq!(std::fs::read(&file).unwrap(), good);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn finding_4_special_files_are_refused_without_blocking() {
    let (dir, file, good, p, _) = layer8("h-special");
    let d = dir.to_str().unwrap();
    let build = build_kalah4_args(d);
    for (make, kind) in [("zero", "a device"), ("fifo", "a FIFO")] {
        std::fs::remove_file(&file).unwrap();
        if make == "zero" {
            std::os::unix::fs::symlink("/dev/zero", &file).unwrap();
        } else {
            assert!(Command::new("mkfifo")
                .arg(&file)
                .status()
                .unwrap()
                .success());
        }
        let not_a_file = format!("kalah_4h_k008.mtb: not a regular file ({kind})");
        for args in readers(d, &p) {
            let e = fails_bounded(&args, 60);
            assert!(e.contains(&not_a_file), "{args:?}: {e}");
        }
        let o = run_bounded(&["tables", "verify", "--dir", d], 60);
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(1), "{out}");
        assert!(out.contains(&not_a_file), "{out}");
        let info =
            String::from_utf8(run_bounded(&["tables", "info", "--dir", d], 60).stdout).unwrap();
        assert!(info.contains(&not_a_file), "{info}");
        // A build replaces the special file with the layer.
        let o = run_bounded(&build, 120);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{err}");
        assert!(
            err.contains("layer 8: rebuilt the existing file") && err.contains(&not_a_file),
            "{err}"
        );
        assert!(std::fs::symlink_metadata(&file).unwrap().is_file());
        assert_eq!(std::fs::read(&file).unwrap(), good);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn finding_5_nothing_reaches_stdout_before_a_usage_error() {
    let dir = temp_dir("h-stdout");
    let d = dir.to_str().unwrap();
    build_kalah4(&dir);
    let e = fails(&["tables", "verify", "--dir", d, "--threads", "0"]);
    assert!(e.contains("--threads must be at least 1"), "{e}");
    let e = fails(&[&build_kalah4_args(d)[..], &["--threads", "0"]].concat());
    assert!(e.contains("--threads must be at least 1"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn finding_6_stale_temporaries_of_dead_builds_are_removed() {
    let dir = temp_dir("h-stale");
    // A writer killed during its write (a PID no process can have), one still alive (this
    // test), and a file of another pattern.
    let dead = dir.join(".kalah_4h_k011.mtb.999999999.tmp");
    let live = dir.join(format!(".kalah_4h_k011.mtb.{}.tmp", std::process::id()));
    let other = dir.join(".kalah_4h_k011.mtb.tmp");
    for f in [&dead, &live, &other] {
        std::fs::write(f, vec![0u8; 4096]).unwrap();
    }
    build_kalah4(&dir);
    assert!(!dead.exists());
    assert!(live.exists() && other.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Starts `args`, sends `signal` after `after`, and returns the output: the command must be
/// still running then, and stop within 30 s.
pub(crate) fn signalled(args: &[&str], signal: &str, after: Duration) -> Output {
    let child = crate::util::mancala_command()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id().to_string();
    let waiter = std::thread::spawn(move || child.wait_with_output().unwrap());
    std::thread::sleep(after);
    assert!(!waiter.is_finished(), "{args:?} finished before the signal");
    assert!(Command::new("kill")
        .args([signal, &pid])
        .status()
        .unwrap()
        .success());
    let started = Instant::now();
    while !waiter.is_finished() {
        if started.elapsed() > Duration::from_secs(30) {
            let _ = Command::new("kill").args(["-KILL", &pid]).status();
            panic!("{args:?} did not stop on {signal}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    waiter.join().unwrap()
}

fn assert_interrupted(o: &Output, says: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert!(
        err.contains("error: interrupted: ") && err.contains(says),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn finding_6_signals_end_long_commands_with_a_message_and_status_130() {
    let dir = temp_dir("h-signals");
    let d = dir.to_str().unwrap();
    // A build long enough to be caught in a layer (Kalah's 6-hole layers past 16 take seconds).
    let o = signalled(
        &build_kalah6_args(d, "24", "1"),
        "-INT",
        Duration::from_millis(2500),
    );
    assert_interrupted(&o, "building kalah, 6 holes was stopped before it finished");
    // Nothing half-written: no temporary file, and every table file left is complete and sound.
    assert!(assert_nothing_half_written(&dir) > 0);
    // SIGTERM of a solve, SIGINT of a long sowing.
    let o = signalled(
        // --no-book: the book answers the start at once.
        &["solve", "kalah", "--no-book", "--threads", "1"],
        "-TERM",
        Duration::from_millis(1500),
    );
    // A stopped solve reports what it proved (on stdout: bounds, "not solved"), exit status 130.
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{out}{err}");
    assert!(
        out.contains("not solved") && out.contains("value:    in ["),
        "{out}"
    );
    assert!(!err.contains("panicked"), "{err}");
    let o = signalled(
        &[
            "moves",
            "walak-pussa",
            "--position",
            "35,29,33,29/35,35,30,29/0,0/N",
        ],
        "-INT",
        Duration::from_millis(1500),
    );
    assert_interrupted(&o, "sowing was stopped before it finished");
    assert!(o.stdout.is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn finding_7_missing_layers_and_names_that_disagree_are_reported() {
    let dir = temp_dir("h-checks");
    let d = dir.to_str().unwrap();
    build_kalah4(&dir);
    // A layer under another layer's name.
    let stray = dir.join("kalah_4h_k020.mtb");
    std::fs::copy(layer_file(&dir, 7), &stray).unwrap();
    let info = ok(&["tables", "info", "--dir", d]);
    assert!(
        info.contains("NAME MISMATCH: the header is layer 7 of kalah, 4 holes, whose file is named kalah_4h_k007.mtb"),
        "{info}"
    );
    let o = mancala(&["tables", "verify", "--dir", d]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("BAD ") && out.contains("kalah_4h_k020.mtb: the header is layer 7"),
        "{out}"
    );
    std::fs::remove_file(&stray).unwrap();
    // A middle layer missing.
    std::fs::remove_file(layer_file(&dir, 5)).unwrap();
    let o = mancala(&["tables", "verify", "--dir", d]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(!out.contains("all tables verified"), "{out}");
    assert!(
        out.contains(
            "kalah, 4 holes: layer 5 is missing or bad, so layers 5 to 12 are not verified"
        ),
        "{out}"
    );
    assert!(out.contains("checksums: 12 of 12 files ok"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn finding_7_every_hash_mb_gets_the_memory_check() {
    // 16 TiB: more than any machine running these tests; 2^44 MiB overflows a byte count.
    let huge = (1u64 << 24).to_string();
    let e = fails(&[
        "verify",
        "published",
        "--hash-mb",
        &(1u64 << 44).to_string(),
    ]);
    assert!(e.contains("--hash-mb 17592186044416 is too large"), "{e}");
    for args in [
        vec!["solve", "kalah", "--hash-mb", &huge],
        vec!["analyze", "kalah", "--hash-mb", &huge],
        vec![
            "verify",
            "first-player",
            "kalah",
            "--holes",
            "3",
            "--seeds",
            "2",
            "--hash-mb",
            &huge,
        ],
        vec![
            "verify",
            "opening",
            "kalah",
            "--holes",
            "3",
            "--seeds",
            "2",
            "--hash-mb",
            &huge,
        ],
        vec!["verify", "published", "--hash-mb", &huge],
    ] {
        let e = fails(&args);
        assert!(
            e.contains(&format!(
                "--hash-mb {huge} asks for more memory than this machine has available"
            )),
            "{args:?}: {e}"
        );
    }
}

/// Runs the binary under `ulimit -d kib` (the data limit: since Linux 4.7 it counts every private
/// writable mapping, so also the large `mmap`s of the allocator). Not `ulimit -v`: the address
/// space also counts what is only reserved (the allocator's per-thread arenas, 64 MiB each), so
/// the room left for the build would depend on the thread count and the C library.
///
/// Without `RUST_BACKTRACE`: should a small allocation (not one of those made fallible) fail
/// anyway, the standard library's out-of-memory hook, printing a backtrace, needs memory again
/// and deadlocks on its own lock; without it, it aborts, and the test says so.
fn under_data_limit(kib: u64, args: &[&str]) -> Output {
    Command::new("sh")
        .env_remove("RUST_BACKTRACE")
        .env("MANCALA_MEMORY", "off")
        .arg("-c")
        .arg(r#"ulimit -d "$1" && shift && exec "$@""#)
        .arg("sh")
        .arg(kib.to_string())
        .arg(env!("CARGO_BIN_EXE_mancala"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// Every file left in `dir` is a whole, sound table, and no temporary file is left.
fn assert_nothing_half_written(dir: &Path) -> usize {
    let mut layers = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        assert!(!name.ends_with(".tmp"), "{name} left behind");
        if name.ends_with(".manifest") {
            continue; // the set's digests, written whole by the build's end (tables::manifest)
        }
        let t = tables::Table::read(&path).unwrap();
        t.check_payload().unwrap();
        layers += 1;
    }
    layers
}

/// The command that builds Kalah on 6 holes, layers 0 to `k`, into `d` on `threads` threads.
fn build_kalah6_args<'a>(d: &'a str, k: &'a str, threads: &'a str) -> [&'a str; 9] {
    [
        "tables",
        "build",
        "kalah",
        "--max-seeds",
        k,
        "--dir",
        d,
        "--threads",
        threads,
    ]
}

/// Kalah on 6 holes, layers 0 to `k`, built by the CLI into `dir` on 2 threads.
fn build_kalah6(dir: &Path, k: &str) -> String {
    ok(&build_kalah6_args(dir.to_str().unwrap(), k, "2"))
}

#[test]
fn finding_6_an_allocation_that_fails_inside_a_build_is_an_error_with_its_amount() {
    let dir = temp_dir("h-alloc-build");
    let d = dir.to_str().unwrap();
    build_kalah6(&dir, "16");
    // Resuming layers 0 to 16 holds about 45 MB (a plain byte and half a byte per entry), and
    // layer 17's values need 43 MB more (2 bytes for each of its 21.5 M entries): measured, the
    // build stops at those values for limits from 60 to 100 MB, and finishes from about 140 MB.
    // The memory check passes: it reads the machine's available memory, not the limit.
    let o = under_data_limit(80_000, &build_kalah6_args(d, "17", "2"));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "not a clean exit: {err}");
    assert!(
        err.contains(
            "error: building the tables of kalah, 6 holes: cannot allocate 42948360 bytes \
             (41.0 MiB) for layer 17's values: not enough memory"
        ),
        "{err}"
    );
    assert!(!err.contains("memory allocation of"), "{err}");
    // The kept layers are untouched and nothing of layer 17 is left.
    assert_eq!(assert_nothing_half_written(&dir), 17);
    assert!(!dir.join("kalah_6h_k017.mtb").exists());
    // With less, reading back the kept layers fails: an error too, and no reason to rebuild
    // (and overwrite) a good file.
    let o = under_data_limit(40_000, &build_kalah6_args(d, "17", "2"));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "not a clean exit: {err}");
    assert!(
        err.contains("cannot allocate ") && err.contains("not enough memory"),
        "{err}"
    );
    assert!(!err.contains("rebuilt"), "{err}");
    assert_eq!(assert_nothing_half_written(&dir), 17);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn finding_6_a_transposition_table_that_cannot_be_allocated_is_an_error() {
    // 512 MiB passes the memory check on any machine with that much available, and cannot be
    // allocated under a 100 MB data limit.
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap();
    let kib: u64 = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemAvailable:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .expect("MemAvailable in /proc/meminfo");
    assert!(kib > 1 << 20, "this test needs 1 GiB of available memory");
    for cmd in ["solve", "analyze"] {
        let o = under_data_limit(
            100_000,
            &[
                cmd,
                "kalah",
                "--no-book",
                "--hash-mb",
                "512",
                "--threads",
                "1",
            ],
        );
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{cmd}: {err}");
        assert!(
            err.contains(
                "cannot allocate 536870912 bytes (512.0 MiB) for the transposition table: \
                 not enough memory"
            ),
            "{cmd}: {err}"
        );
        assert!(o.stdout.is_empty(), "{cmd} printed to stdout");
    }
}

#[test]
fn finding_6_signals_stop_table_verification_and_builds_leaving_whole_files() {
    let dir = temp_dir("h-signals-tables");
    let d = dir.to_str().unwrap();
    build_kalah6(&dir, "16");
    // Verifying layers 0 to 16 on one thread re-derives 30 M entries: many seconds.
    for signal in ["-INT", "-TERM"] {
        let o = signalled(
            &["tables", "verify", "--dir", d, "--threads", "1"],
            signal,
            Duration::from_millis(1500),
        );
        // "before it finished" inside a layer, "at layer k" when the flag is seen between two
        // (the watcher looks every 50 ms, the loop before each layer): both are the stop.
        assert_interrupted(&o, "verifying the tables was stopped ");
    }
    // SIGTERM of a build that resumes layers 0 to 16 and is in layer 17 or 18 by then.
    let o = signalled(
        &build_kalah6_args(d, "20", "1"),
        "-TERM",
        Duration::from_millis(2500),
    );
    assert_interrupted(&o, "building kalah, 6 holes was stopped before it finished");
    assert!(assert_nothing_half_written(&dir) >= 17);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn finding_6_signals_stop_verify_first_player_with_status_130() {
    // Kalah(6,4) takes minutes on one thread.
    for signal in ["-INT", "-TERM"] {
        let o = signalled(
            &[
                "verify",
                "first-player",
                "kalah",
                "--holes",
                "6",
                "--seeds",
                "4",
                "--threads",
                "1",
            ],
            signal,
            Duration::from_millis(1500),
        );
        // The survey keeps what it finished (none of one size here) and says so.
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(130), "{err}");
        assert!(
            err.contains("interrupted: 0 of 1 sizes finished; the others are marked unfinished"),
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
}
