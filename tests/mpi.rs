//! `mancala-mpi` under `mpirun` with 1, 2 and 4 local ranks (`--oversubscribe`): the table files
//! are those of `mancala tables build`, byte for byte; a build whose rank is killed stops every
//! rank with an error, leaves only complete layers, and resumes to the same files; ranks with
//! different arguments, and a start without `mpirun`, behave as docs/scale-out.md says.
//!
//! Needs the feature `mpi` (`cargo test --release --features mpi --test mpi`) and
//! `mpirun` on the PATH; without `mpirun` every test says so and passes without running.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

const MPI: &str = env!("CARGO_BIN_EXE_mancala-mpi");
const MANCALA: &str = env!("CARGO_BIN_EXE_mancala");

/// The `mancala` binary without the developer's memory of proven positions: its answers come
/// from the search these tests check, never from an earlier run.
fn mancala() -> Command {
    let mut c = Command::new(MANCALA);
    c.env("MANCALA_MEMORY", "off");
    c
}

/// One MPI job at a time: the tests' jobs oversubscribe the cores already, and jobs started
/// together would only make each other slow.
fn one_job_at_a_time() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

fn have_mpirun() -> bool {
    let found = Command::new("mpirun")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !found {
        eprintln!("mpirun not found: skipping the MPI tests");
    }
    found
}

/// `mpirun` for `ranks` local ranks of `mancala-mpi args`, allowed to run as root (CI runs as
/// root) and on more ranks than cores.
fn mpirun(ranks: usize, args: &[&str]) -> Command {
    let mut c = Command::new("mpirun");
    c.env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .args(["--oversubscribe", "-n", &ranks.to_string(), MPI])
        .args(args);
    c
}

fn ok(mut c: Command, what: &str) -> Output {
    let out = c.output().unwrap();
    assert!(
        out.status.success(),
        "{what}: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mancala-mpi-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Every file of a table directory, by name, with its bytes.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|n| {
            let bytes = std::fs::read(dir.join(&n)).unwrap();
            (n, bytes)
        })
        .collect()
}

/// The build arguments of a game, with `--dir`.
fn build_args<'a>(game: &'a [&'a str], dir: &'a Path) -> Vec<&'a str> {
    let mut a = vec!["tables", "build"];
    a.extend_from_slice(game);
    a.extend(["--dir", dir.to_str().unwrap()]);
    a
}

/// The files of the single-process build of `game` (`mancala tables build`).
fn reference(name: &str, game: &[&str]) -> Vec<(String, Vec<u8>)> {
    let dir = temp_dir(&format!("ref-{name}"));
    let mut c = mancala();
    c.args(build_args(game, &dir)).args(["--threads", "2"]);
    ok(c, &format!("mancala tables build {name}"));
    let f = files(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    f
}

/// Kalah, 6 holes, 16 seeds on the board, standard rule: built once, shared by the tests.
const KALAH: &[&str] = &["kalah", "--holes", "6", "--max-seeds", "16"];

fn kalah_reference() -> &'static [(String, Vec<u8>)] {
    static REF: OnceLock<Vec<(String, Vec<u8>)>> = OnceLock::new();
    REF.get_or_init(|| reference("kalah", KALAH))
}

/// `game` on 1, 2 and 4 ranks (of one thread each; the 4 ranks share 2 cores here) gives the
/// files of the single-process build.
fn same_files_on_1_2_4_ranks(name: &str, game: &[&str], want: &[(String, Vec<u8>)]) {
    for ranks in [1, 2, 4] {
        let dir = temp_dir(&format!("{name}-{ranks}"));
        let started = Instant::now();
        let mut args = build_args(game, &dir);
        args.extend(["--threads", "1"]);
        let out = ok(mpirun(ranks, &args), &format!("{name} on {ranks} ranks"));
        eprintln!(
            "{name}: {ranks} ranks in {:.1} s",
            started.elapsed().as_secs_f64()
        );
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains(&format!("on {ranks} rank")), "{text}");
        assert!(
            files(&dir) == want,
            "{name} on {ranks} ranks: the files differ from the single-process build"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn mpi_kalah_tables_equal_one_process_both_rules() {
    if !have_mpirun() {
        return;
    }
    let _job = one_job_at_a_time();
    same_files_on_1_2_4_ranks("kalah", KALAH, kalah_reference());
    let empty: Vec<&str> = KALAH.iter().copied().chain(["--empty-capture"]).collect();
    let want = reference("kalah-empty-capture", &empty);
    same_files_on_1_2_4_ranks("kalah-empty-capture", &empty, &want);
}

#[test]
fn mpi_cyclic_and_walked_tables_equal_one_process() {
    if !have_mpirun() {
        return;
    }
    let _job = one_job_at_a_time();
    // Walak-pussa: the lean cyclic passes, exchanged after every pass. Dakon: acyclic without a
    // schedule, the walk split by slot range.
    for game in ["walak-pussa", "dakon"] {
        let args = [game, "--holes", "5", "--max-seeds", "12"];
        let want = reference(game, &args);
        same_files_on_1_2_4_ranks(game, &args, &want);
    }
}

#[test]
fn mpi_exchanges_in_rounds_give_the_same_files() {
    if !have_mpirun() {
        return;
    }
    let _job = one_job_at_a_time();
    // Messages of at most 1000 bytes: every exchange of a layer goes in many rounds, as those
    // past 2 GiB do on a big build. Three ranks, so that the parts are uneven.
    let game = ["walak-pussa", "--holes", "5", "--max-seeds", "10"];
    let want = reference("walak-pussa-10", &game);
    let dir = temp_dir("rounds");
    let mut c = mpirun(3, &build_args(&game, &dir));
    c.env("MANCALA_MPI_MAX_MESSAGE", "1000");
    ok(c, "walak-pussa in rounds");
    assert!(
        files(&dir) == want,
        "the files differ when exchanged in rounds"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The processes whose parent is `pid` (the ranks that `mpirun` started).
fn children(pid: u32) -> Vec<u32> {
    let mut kids = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(p) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{p}/stat")) else {
            continue;
        };
        // The parent's pid is the second field after the parenthesised command name.
        let after = &stat[stat.rfind(')').unwrap() + 1..];
        if after.split_whitespace().nth(1) == Some(&pid.to_string()) {
            kids.push(p);
        }
    }
    kids
}

#[test]
fn mpi_a_killed_rank_stops_the_job_and_the_build_resumes() {
    if !have_mpirun() || !Path::new("/proc/self/stat").exists() {
        return;
    }
    let want = kalah_reference();
    let _job = one_job_at_a_time();
    let dir = temp_dir("killed");
    let mut args = build_args(KALAH, &dir);
    args.extend(["--threads", "1"]);
    let mut job = mpirun(2, &args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Kill rank 1 once layer 13 is written, while the larger layers are being solved.
    let mid = dir.join("kalah_6h_k013.mtb");
    let started = Instant::now();
    while !mid.exists() {
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "layer 13 never came"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // The job ends, with an error, in bounded time: never a hang.
    kill_the_second_rank(&mut job);
    // Every file that looks like a table is a complete, correct layer (temporaries aside).
    let left = files(&dir);
    let tables: Vec<_> = left.iter().filter(|(n, _)| n.ends_with(".mtb")).collect();
    assert!(
        tables.len() >= 14 && tables.len() < want.len(),
        "{}",
        tables.len()
    );
    for (n, b) in &tables {
        assert!(
            want.iter().any(|(m, c)| m == n && c == b),
            "{n} is not the layer it claims"
        );
    }
    // Restarted, it keeps those layers and finishes with the single-process files.
    let out = ok(mpirun(2, &args), "the resumed build");
    let text = String::from_utf8_lossy(&out.stdout);
    let kept = text.matches("kept (already built)").count();
    assert_eq!(kept, tables.len(), "{text}");
    assert!(files(&dir) == want, "the resumed build's files differ");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn mpi_bad_starts_are_clear() {
    if !have_mpirun() {
        return;
    }
    let _job = one_job_at_a_time();
    let dir = temp_dir("bad");
    let d = dir.to_str().unwrap();
    // Two ranks with different arguments (an MPMD start): both stop before any work.
    let out = Command::new("mpirun")
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .args([
            "--oversubscribe",
            "-n",
            "1",
            MPI,
            "tables",
            "build",
            "dakon",
        ])
        .args(["--max-seeds", "6", "--dir", d, ":", "-n", "1", MPI])
        .args(["tables", "build", "dakon", "--max-seeds", "7", "--dir", d])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("the ranks were started with different arguments: rank 1 differs from rank 0"),
        "{err}"
    );
    assert!(
        files(&dir).is_empty(),
        "a job with mismatched ranks wrote files"
    );
    // Without mpirun: one rank, said so, and the same files.
    let game = ["dakon", "--holes", "5", "--max-seeds", "8"];
    let want = reference("dakon-8", &game);
    let out = Command::new(MPI)
        .args(build_args(&game, &dir))
        .env_remove("OMPI_COMM_WORLD_SIZE")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("not started by mpirun"));
    assert!(files(&dir) == want);
    // A bad flag: every rank says it and stops, no hang.
    let out = mpirun(
        2,
        &[
            "tables",
            "build",
            "kalah",
            "--holes",
            "20",
            "--max-seeds",
            "3",
        ],
    )
    .output()
    .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("kalah is played with"), "{err}");
    // --dry-run: the memory per rank, nothing built.
    let dry = temp_dir("dry");
    let mut args = build_args(KALAH, &dry);
    args.push("--dry-run");
    let out = ok(mpirun(2, &args), "--dry-run");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("memory per rank about"), "{err}");
    assert!(files(&dry).is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&dry).unwrap();
}

/// `mancala solve --json`'s value and best moves.
fn single_solve(game: &[&str]) -> (i64, Vec<u64>) {
    let mut c = mancala();
    c.arg("solve").args(game).args(["--json", "--threads", "1"]);
    let out = ok(c, "mancala solve");
    let line = String::from_utf8(out.stdout).unwrap();
    let v: serde_json::Value = serde_json::from_str(line.lines().next().unwrap()).unwrap();
    let best = v["best"].as_array().unwrap().iter();
    (
        v["value"].as_i64().unwrap(),
        best.map(|m| m.as_u64().unwrap()).collect(),
    )
}

/// The counters of `mancala-mpi solve`'s last line: `F jobs (R from the journal), N nodes, T s
/// on P ranks; I issued, C cancelled`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stats {
    finished: u64,
    reused: u64,
    nodes: u64,
    issued: u64,
    cancelled: u64,
}

fn stats(line: &str) -> Stats {
    let words: Vec<&str> = line
        .split([' ', ',', ';', '(', ')'])
        .filter(|w| !w.is_empty())
        .collect();
    let before = |name: &str| -> u64 {
        let i = words.iter().position(|w| *w == name).unwrap();
        words[i - 1].parse().unwrap()
    };
    let st = Stats {
        finished: before("jobs"),
        reused: words[words.iter().position(|w| *w == "from").unwrap() - 1]
            .parse()
            .unwrap(),
        nodes: before("nodes"),
        issued: before("issued"),
        cancelled: before("cancelled"),
    };
    // Every job given out is answered once: with its result or as cancelled.
    assert_eq!(st.issued, st.finished + st.cancelled, "{line}");
    st
}

/// `mancala-mpi solve`'s value and best moves, and its last line.
fn mpi_solve(ranks: usize, game: &[&str], extra: &[&str]) -> (i64, Vec<u64>, String) {
    let mut args = vec!["solve"];
    args.extend_from_slice(game);
    args.extend_from_slice(&["--threads", "1", "--hash-mb", "64"]);
    args.extend_from_slice(extra);
    let out = ok(
        mpirun(ranks, &args),
        &format!("mancala-mpi solve on {ranks} ranks"),
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let value = lines[0].strip_prefix("value ").unwrap().parse().unwrap();
    let best = lines[1].strip_prefix("best ").unwrap();
    let best = best.split(' ').map(|m| m.parse().unwrap()).collect();
    stats(lines[2]);
    (value, best, lines[2].to_string())
}

/// The value and best moves of the single-process solve on 1, 2 and 4 ranks at each split
/// depth; returns the jobs cancelled over all runs.
fn same_solve_on_1_2_4_ranks(game: &[&str], depths: &[u32]) -> u64 {
    let (value, best) = single_solve(game);
    let mut cancelled = 0;
    for &d in depths {
        for ranks in [1, 2, 4] {
            let started = Instant::now();
            let depth = d.to_string();
            let (v, b, last) = mpi_solve(ranks, game, &["--split-depth", &depth]);
            eprintln!(
                "{game:?} depth {d} on {ranks} ranks: {last} ({:.1} s)",
                started.elapsed().as_secs_f64()
            );
            assert_eq!(
                (v, &b),
                (value, &best),
                "{game:?} at depth {d} on {ranks} ranks"
            );
            cancelled += stats(&last).cancelled;
        }
    }
    cancelled
}

#[test]
fn mpi_solve_equals_one_process() {
    if !have_mpirun() {
        return;
    }
    let _job = one_job_at_a_time();
    let mut cancelled = 0;
    for game in [
        &["kalah", "--holes", "4", "--seeds", "4"][..],
        &["kalah", "--holes", "4", "--seeds", "4", "--empty-capture"],
    ] {
        cancelled += same_solve_on_1_2_4_ranks(game, &[1, 2, 4]);
    }
    // The cyclic game's standard board (6 holes, 4 seeds).
    cancelled += same_solve_on_1_2_4_ranks(&["djenon-aboure"], &[2]);
    let (value, best) = single_solve(&["kalah", "--holes", "5", "--seeds", "4"]);
    assert_eq!((value, &best[..]), (10, &[2][..]));
    cancelled += same_solve_on_1_2_4_ranks(&["kalah", "--holes", "5", "--seeds", "4"], &[1, 3]);
    for game in [
        &["kalah", "--holes", "6", "--seeds", "3"][..],
        &["kalah", "--holes", "6", "--seeds", "3", "--empty-capture"],
    ] {
        cancelled += same_solve_on_1_2_4_ranks(game, &[2]);
    }
    // A job made useless by a sibling's result is cancelled (which ones depends on timing, so
    // only the total over all these runs is checked).
    assert!(cancelled > 0, "no job was ever cancelled");
}

#[test]
fn mpi_solve_restarts_from_its_journal() {
    if !have_mpirun() {
        return;
    }
    let _job = one_job_at_a_time();
    let game = ["kalah", "--holes", "4", "--seeds", "4"];
    let (value, best) = single_solve(&game);
    let dir = temp_dir("journal");
    let journal = dir.join("solve.journal");
    let j = journal.to_str().unwrap();
    let (v, b, last) = mpi_solve(2, &game, &["--journal", j]);
    assert_eq!((v, &b), (value, &best));
    let first = stats(&last);
    assert_eq!(first.reused, 0, "{last}");
    // Every finished job is journaled, `KEY BOUND RESULT`.
    let text = std::fs::read_to_string(&journal).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!((lines.len() - 1) as u64, first.finished);
    assert!(
        lines[1..].iter().all(|l| l.split(' ').count() == 3),
        "{text}"
    );
    // As if killed after 5 jobs, in the middle of writing the sixth.
    let torn = format!("{}\n{}", lines[..6].join("\n"), &lines[6][..2]);
    std::fs::write(&journal, torn).unwrap();
    let (v, b, last) = mpi_solve(4, &game, &["--journal", j]);
    assert_eq!((v, &b), (value, &best));
    assert_eq!(stats(&last).reused, 5, "{last}");
    // Complete now: nothing left to solve.
    let jobs = std::fs::read_to_string(&journal).unwrap().lines().count() - 1;
    let (v, b, last) = mpi_solve(1, &game, &["--journal", j]);
    assert_eq!((v, &b), (value, &best));
    let st = stats(&last);
    assert_eq!(
        (st.reused, st.issued, st.nodes),
        (jobs as u64, 0, 0),
        "{last}"
    );
    // A journal of another solve is refused.
    let other = ["kalah", "--holes", "4", "--seeds", "3", "--journal", j];
    let out = mpirun(2, &[&["solve"][..], &other[..]].concat())
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("the journal of another solve"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A solve whose worker rank is killed (`kill -9`) mid-way stops; started again with its
/// journal, it reuses the jobs journaled and ends with the single-process result.
#[test]
fn mpi_killed_solve_restarts_from_its_journal() {
    if !have_mpirun() || !Path::new("/proc/self/stat").exists() {
        return;
    }
    let _job = one_job_at_a_time();
    let game = ["kalah", "--holes", "5", "--seeds", "4"];
    let (value, best) = single_solve(&game);
    let dir = temp_dir("killed-solve");
    let journal = dir.join("solve.journal");
    let j = journal.to_str().unwrap();
    let extra = ["--split-depth", "3", "--journal", j];
    let mut args = vec!["solve"];
    args.extend_from_slice(&game);
    args.extend_from_slice(&["--threads", "1", "--hash-mb", "64"]);
    args.extend_from_slice(&extra);
    let mut job = mpirun(2, &args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let lines = || {
        std::fs::read_to_string(&journal)
            .map(|t| t.lines().count())
            .unwrap_or(0)
    };
    let started = Instant::now();
    while lines() < 1 + 8 {
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "8 jobs never finished"
        );
        assert!(job.try_wait().unwrap().is_none(), "the solve ended first");
        std::thread::sleep(Duration::from_millis(5));
    }
    kill_the_second_rank(&mut job);
    let kept = lines() - 1;
    let (v, b, last) = mpi_solve(2, &game, &extra);
    assert_eq!((v, &b), (value, &best));
    let st = stats(&last);
    assert!(kept >= 8 && st.reused >= 8, "{last}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Kills rank 1 of the 2-rank job `job` with SIGKILL and waits (at most 60 s: never a hang) for
/// the job to end, which it must with an error.
fn kill_the_second_rank(job: &mut std::process::Child) {
    let ranks = children(job.id());
    assert_eq!(ranks.len(), 2, "mpirun's children: {ranks:?}");
    let killed = Command::new("kill")
        .args(["-KILL", &ranks[1].to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let stopping = Instant::now();
    let status = loop {
        if let Some(s) = job.try_wait().unwrap() {
            break s;
        }
        assert!(
            stopping.elapsed() < Duration::from_secs(60),
            "the job did not end within 60 s of a rank's death"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(!status.success(), "a job with a dead rank succeeded");
}

/// `mancala-mpi solve --json`: one object on rank 0, valid against docs/json.schema.json (as a
/// `solve_mpi` and as any output), with `mancala solve`'s value and best moves and the same
/// counters as the text's last line.
#[test]
fn mpi_solve_json_validates_against_the_schema() {
    if !have_mpirun() {
        return;
    }
    let _job = one_job_at_a_time();
    let game = ["kalah", "--holes", "4", "--seeds", "3"];
    let (value, best) = single_solve(&game);
    let mut args = vec!["solve"];
    args.extend_from_slice(&game);
    args.extend_from_slice(&["--threads", "1", "--hash-mb", "64", "--json"]);
    let out = ok(mpirun(2, &args), "mancala-mpi solve --json on 2 ranks");
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text.lines().count(),
        1,
        "one object, from rank 0 alone:\n{text}"
    );
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/json.schema.json");
    let root: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let as_def = serde_json::json!({
        "$schema": root["$schema"],
        "$ref": "#/$defs/solve_mpi",
        "$defs": root["$defs"],
    });
    for schema in [&as_def, &root] {
        let validator = jsonschema::validator_for(schema).unwrap();
        let errors: Vec<String> = validator.iter_errors(&v).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{v}\n{errors:?}");
    }
    assert_eq!(v["command"], "solve");
    assert_eq!(v["game"], "kalah");
    assert_eq!(v["holes"], 4);
    assert_eq!(v["value"].as_i64(), Some(value));
    let got: Vec<u64> = v["best"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_u64().unwrap())
        .collect();
    assert_eq!(got, best);
    assert_eq!(v["ranks"], 2);
    let jobs = &v["jobs"];
    let n = |k: &str| jobs[k].as_u64().unwrap();
    assert_eq!(n("issued"), n("finished") + n("cancelled"), "{v}");
    assert!(v["nodes"].as_u64().unwrap() > 0, "{v}");
}

/// Kalah's tables on 4 holes up to `max` seeds, in `dir`, with the values of every block of
/// every layer from 2 up put in reverse order and the checksums recomputed: the files open
/// cleanly (every value stays within its block's window and its layer's range) but nearly every
/// entry contradicts its children, so a search with them finds a fault.
fn contradicting_tables(dir: &Path, max: u32) {
    use tables::format::{encode_head, parse, Encoding, Header};
    let d = dir.to_str().unwrap();
    let max_text = max.to_string();
    let args = [
        "tables",
        "build",
        "kalah",
        "--holes",
        "4",
        "--max-seeds",
        &max_text,
        "--dir",
        d,
    ];
    let mut build = mancala();
    build.args(args);
    ok(build, "the tables");
    let mut damaged = 0;
    for (name, file) in files(dir) {
        if !name.ends_with(".mtb") {
            continue;
        }
        let path = dir.join(&name);
        let (h, at) = parse(&path, &file).unwrap();
        // Bytes per block of 256 entries, when a byte holds whole entries and no escape can move.
        let per_block = match h.encoding {
            Encoding::Nibble { .. } if h.exceptions == 0 => 128,
            Encoding::Byte => 256,
            _ => continue,
        };
        if h.layer < 2 {
            continue;
        }
        // Whole bytes of entries only: a nibble layer's odd last entry shares its byte with
        // padding, which must stay last.
        let bytes = if per_block == 128 {
            h.entries / 2
        } else {
            h.entries
        } as usize;
        let mut payload = file[at..].to_vec();
        for block in payload[..bytes].chunks_mut(per_block) {
            block.reverse();
        }
        let h = Header {
            payload_crc: tables::checksum::crc32(&payload),
            ..h
        };
        std::fs::write(&path, [encode_head(&h), payload].concat()).unwrap();
        damaged += 1;
    }
    assert!(damaged >= 3, "only {damaged} layers could be damaged");
}

/// `mancala-mpi solve` with endgame tables that contradict themselves: the worker whose search
/// finds the fault says so, every rank stops, and the job exits non-zero with the tables' error,
/// on one rank (which is its own worker) and on two; never a panic or a hang.
#[test]
fn mpi_solve_with_contradicting_tables_fails_with_a_message() {
    if !have_mpirun() {
        return;
    }
    let _job = one_job_at_a_time();
    let dir = temp_dir("contradicting");
    // Up to 12 seeds: most of the search's probes land in damaged layers, so every rank's share
    // of the work meets the fault (with 6, a worker that ran few jobs could miss it).
    contradicting_tables(&dir, 12);
    let d = dir.to_str().unwrap();
    let game = ["kalah", "--holes", "4", "--seeds", "3"];
    // The single process finds the fault too: the damage is real.
    let single = mancala()
        .args(["solve", "--tables", d, "--threads", "1"])
        .args(game)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&single.stderr);
    assert!(
        !single.status.success() && err.contains("contradicts itself"),
        "{err}"
    );
    for ranks in [1, 2] {
        let mut args = vec!["solve"];
        args.extend_from_slice(&game);
        args.extend_from_slice(&["--threads", "1", "--hash-mb", "64", "--tables", d]);
        let started = Instant::now();
        let out = mpirun(ranks, &args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{ranks} ranks: {err}");
        assert!(err.contains("contradicts itself"), "{ranks} ranks: {err}");
        assert!(!err.contains("panicked"), "{ranks} ranks: {err}");
        assert!(out.stdout.is_empty(), "{ranks} ranks printed a value");
        assert!(started.elapsed() < Duration::from_secs(120));
        if ranks == 2 {
            // The ranks write stderr at once, so their prefixes may interleave.
            assert!(
                err.contains("rank 0: ")
                    && err.contains("the search on rank 1 failed (see its message)"),
                "{err}"
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
