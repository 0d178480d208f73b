//! Helpers shared by the test modules: running the binary, temp dirs, search configs, solving,
//! random numbers, the main engine's rules paired with the reference engine's, and the readers of
//! the golden data files in `tests/data/`.
//!
//! The library's module paths used by the tests are imported here (and in `tables.rs`) only, so
//! that a rename of a library module is a one-line change.

use crate::reference::RefGame;
use mancala::rules::{Dakon, DjenonAboure, GameKind, Kalah, Rules, SanYao, WalakPussa};
use mancala::variant::Variant;
use solver::search::{solve, SearchConfig};
use std::collections::HashMap;
use std::path::PathBuf;
use std::process::{Command, Output};

pub(crate) use mancala::board::{Move, Side};
pub(crate) use mancala::notation::Setup;
pub(crate) use mancala::Position;

// ---------------------------------------------------------------------------------------------
// The command line

/// The repository's root: these tests belong to `cli/` (package `mancala-cli`, which owns the
/// binaries), whose manifest directory is one below it.
pub(crate) fn repo() -> PathBuf {
    let cli = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    cli.parent().map_or(cli.clone(), |p| p.to_path_buf())
}

/// The `mancala` binary, isolated from the developer's files: an empty default table directory
/// and no memory of proven positions (tests that want them name them), so that no answer depends
/// on what this machine has built or proven before.
pub(crate) fn mancala_command() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_mancala"));
    let empty =
        std::env::temp_dir().join(format!("mancala-tests-{}-no-tables", std::process::id()));
    let _ = std::fs::create_dir_all(&empty);
    c.env("MANCALA_TABLES", &empty).env("MANCALA_MEMORY", "off");
    c
}

/// Runs the `mancala` binary ([`mancala_command`]).
pub(crate) fn mancala(args: &[&str]) -> Output {
    mancala_command().args(args).output().expect("run mancala")
}

/// Runs and expects success; returns stdout.
pub(crate) fn ok(args: &[&str]) -> String {
    let o = mancala(args);
    assert!(
        o.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// Runs and expects a clean failure (non-zero exit, message on stderr, nothing on stdout, no
/// panic); returns stderr.
pub(crate) fn fails(args: &[&str]) -> String {
    let o = mancala(args);
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(!o.status.success(), "{args:?} should fail");
    assert!(
        o.stdout.is_empty(),
        "{args:?} printed to stdout: {}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    assert!(!err.trim().is_empty(), "{args:?}: no message");
    err
}

/// Runs and expects success with one JSON object on stdout.
pub(crate) fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&ok(args)).expect("one JSON object")
}

/// A fresh empty directory under the system's temp dir, unique to this test run and `name`.
pub(crate) fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mancala-tests-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

// ---------------------------------------------------------------------------------------------
// Positions and the search

/// Parses and validates (normalises) a position of `rules`; panics with the text on error.
pub(crate) fn pos<R: Rules>(rules: R, text: &str) -> Position<R> {
    let setup: Setup = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
    Position::from_setup(rules, &setup).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The legal moves of `p` as pit numbers.
pub(crate) fn legal<R: Rules>(p: &Position<R>) -> Vec<u8> {
    p.legal_moves().as_slice().iter().map(|m| m.0).collect()
}

/// The search configuration of the tests: `threads` threads, a 4 MiB transposition table.
pub(crate) fn cfg(threads: usize) -> SearchConfig {
    SearchConfig {
        threads,
        tt_bytes: 4 << 20,
        ..SearchConfig::default()
    }
}

/// The exact value of `p` (final South minus North) by the search, without tables.
pub(crate) fn solve_value<R: Rules>(p: &Position<R>, threads: usize) -> i32 {
    p.final_value(solve(p, &cfg(threads), None).unwrap().value)
}

/// The value of the standard start (final South minus North) and the best first moves.
pub(crate) fn solve_start<R: Rules>(
    rules: R,
    holes: u8,
    seeds: u8,
    threads: usize,
) -> (i32, Vec<u8>) {
    let p = Position::start(rules, holes, seeds).unwrap();
    let cfg = SearchConfig {
        tt_bytes: 16 << 20,
        ..cfg(threads)
    };
    let r = solve(&p, &cfg, None).unwrap();
    (p.final_value(r.value), r.best.iter().map(|m| m.0).collect())
}

/// Kalah with the given options.
pub(crate) fn kalah(empty_capture: bool, end_when_mover_empty: bool) -> Kalah {
    kalah_with(empty_capture, end_when_mover_empty, false)
}

/// Kalah with all three options given.
pub(crate) fn kalah_with(
    empty_capture: bool,
    end_when_mover_empty: bool,
    leftovers_unscored: bool,
) -> Kalah {
    Kalah {
        empty_capture,
        end_when_mover_empty,
        leftovers_unscored,
    }
}

// ---------------------------------------------------------------------------------------------
// Random numbers (deterministic, so a failure replays)

/// One step of xorshift64 (`state` must not be 0): the playouts' move picker.
pub(crate) fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// A linear congruential generator of numbers below its argument, seeded with `seed`.
pub(crate) fn lcg(seed: u64) -> impl FnMut(u64) -> u64 {
    let mut state = seed;
    move |m: u64| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) % m
    }
}

// ---------------------------------------------------------------------------------------------
// The main engine's rules and the reference engine's

/// Both engines, for one game with options.
pub(crate) trait Pair: Rules {
    /// The same game with the same options in the reference engine.
    fn reference(&self) -> RefGame;
}
impl Pair for Kalah {
    fn reference(&self) -> RefGame {
        RefGame::Kalah {
            empty_capture: self.empty_capture,
            end_when_mover_empty: self.end_when_mover_empty,
            leftovers_unscored: self.leftovers_unscored,
        }
    }
}
impl Pair for Dakon {
    fn reference(&self) -> RefGame {
        RefGame::Dakon {
            nembak_takes_landing_seed: self.nembak_takes_landing_seed,
            no_mikul: self.no_mikul,
        }
    }
}
impl Pair for DjenonAboure {
    fn reference(&self) -> RefGame {
        RefGame::DjenonAboure
    }
}
impl Pair for WalakPussa {
    fn reference(&self) -> RefGame {
        RefGame::WalakPussa {
            singleton_restriction: self.singleton_restriction,
        }
    }
}
impl Pair for SanYao {
    fn reference(&self) -> RefGame {
        RefGame::SanYao
    }
}

// ---------------------------------------------------------------------------------------------
// Golden data (tests/data/, sources in tests/data/README.md)

/// The rows of a CSV data file: lines starting with `#` are comments, the first other line is
/// the header. Fields hold no commas, so no quoting.
pub(crate) fn csv_rows(text: &'static str) -> Vec<HashMap<&'static str, &'static str>> {
    let mut lines = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty());
    let header: Vec<&str> = lines.next().expect("a header").split(',').collect();
    lines
        .map(|l| {
            let fields: Vec<&str> = l.split(',').collect();
            assert_eq!(fields.len(), header.len(), "{l}");
            header.iter().copied().zip(fields).collect()
        })
        .collect()
}

/// One known value of a Kalah start position.
#[derive(Debug)]
pub(crate) struct StartValue {
    pub holes: u8,
    pub seeds: u8,
    pub rules: Kalah,
    /// Final South minus North under perfect play.
    pub value: i32,
    /// The best first moves, when published (empty otherwise).
    pub best: Vec<u8>,
    /// Where the value is published: `docs/rules.md 3.7`, `REFERENCE.md ...`, or both.
    pub source: &'static str,
}

/// `tests/data/kalah_start_values.csv`.
pub(crate) fn kalah_start_values() -> Vec<StartValue> {
    let flag = |s: &str| match s {
        "true" => true,
        "false" => false,
        _ => panic!("not a bool: {s}"),
    };
    let rows: Vec<StartValue> = csv_rows(include_str!("data/kalah_start_values.csv"))
        .into_iter()
        .map(|r| StartValue {
            holes: r["holes"].parse().unwrap(),
            seeds: r["seeds"].parse().unwrap(),
            rules: kalah(flag(r["empty_capture"]), flag(r["end_when_mover_empty"])),
            value: r["value"].parse().unwrap(),
            best: r["best"]
                .split_whitespace()
                .map(|m| m.parse().unwrap())
                .collect(),
            source: r["source"],
        })
        .collect();
    assert!(!rows.is_empty());
    rows
}

/// The row of `kalah_start_values.csv` for Kalah(`holes`,`seeds`) under `rules`.
pub(crate) fn kalah_start_value(holes: u8, seeds: u8, rules: Kalah) -> StartValue {
    kalah_start_values()
        .into_iter()
        .find(|r| (r.holes, r.seeds, r.rules) == (holes, seeds, rules))
        .unwrap_or_else(|| panic!("no value for Kalah({holes},{seeds}) {rules:?}"))
}

/// A game with options as the command line names it (`kalah --empty-capture`).
pub(crate) fn variant(spec: &str) -> Variant {
    let mut words = spec.split_whitespace();
    let kind: GameKind = words.next().expect("a game").parse().unwrap();
    let options: Vec<&str> = words
        .map(|w| {
            w.strip_prefix("--")
                .unwrap_or_else(|| panic!("not an option: {w} in {spec:?}"))
        })
        .collect();
    Variant::new(kind, &options).unwrap_or_else(|e| panic!("{spec:?}: {e}"))
}

/// What a worked example states about its position.
#[derive(Clone, Debug)]
pub(crate) enum Claim {
    /// Playing `mv` gives `after` (normalised).
    Play { mv: u8, after: String },
    /// The position normalises to this.
    Normalised(String),
    /// The legal moves of the normalised position.
    Legal(Vec<u8>),
    /// The exact value (final South minus North).
    Value(i32),
}

/// One row of `tests/data/rules_examples.jsonl`: a claim of docs/rules.md about a position, under
/// each of the listed games with options.
#[derive(Clone, Debug)]
pub(crate) struct Example {
    /// The example's name in docs/rules.md (`K1`, `W3`, ...); a prime marks an option variant.
    pub id: String,
    /// Each game with options the claim holds under, in both engines.
    pub games: Vec<(Variant, RefGame)>,
    pub position: String,
    pub claim: Claim,
}

/// Every row of `tests/data/rules_examples.jsonl`.
pub(crate) fn rules_examples() -> Vec<Example> {
    include_str!("data/rules_examples.jsonl")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value =
                serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}"));
            let text = |k: &str| {
                v[k].as_str()
                    .unwrap_or_else(|| panic!("{l}: {k}"))
                    .to_string()
            };
            let claim = if let Some(mv) = v["move"].as_u64() {
                Claim::Play {
                    mv: mv as u8,
                    after: text("after"),
                }
            } else if v["normalised"].is_string() {
                Claim::Normalised(text("normalised"))
            } else if let Some(l) = v["legal"].as_array() {
                Claim::Legal(l.iter().map(|m| m.as_u64().unwrap() as u8).collect())
            } else {
                Claim::Value(
                    v["value"]
                        .as_i64()
                        .unwrap_or_else(|| panic!("{l}: no claim")) as i32,
                )
            };
            let games = v["rules"]
                .as_array()
                .unwrap_or_else(|| panic!("{l}: rules"))
                .iter()
                .map(|s| {
                    let g = variant(s.as_str().unwrap());
                    (g, mancala::with_rules!(g, r => r.reference()))
                })
                .collect::<Vec<_>>();
            assert!(!games.is_empty(), "{l}");
            Example {
                id: text("id"),
                games,
                position: text("position"),
                claim,
            }
        })
        .collect()
}

/// The rows of the examples named `ids`, in file order; each name must have a row.
pub(crate) fn examples_named(ids: &[&str]) -> Vec<Example> {
    let all = rules_examples();
    for id in ids {
        assert!(
            all.iter().any(|e| e.id == *id),
            "no example {id} in the data"
        );
    }
    all.into_iter()
        .filter(|e| ids.contains(&e.id.as_str()))
        .collect()
}

/// The positions of the plays of example `id`, in order (the cycles W3 and Y3).
pub(crate) fn example_positions(id: &str) -> Vec<String> {
    examples_named(&[id])
        .into_iter()
        .filter(|e| matches!(e.claim, Claim::Play { .. }))
        .map(|e| e.position)
        .collect()
}

/// The documented value of example `id`'s position: (position, value).
pub(crate) fn example_value(id: &str) -> (String, i32) {
    examples_named(&[id])
        .into_iter()
        .find_map(|e| match e.claim {
            Claim::Value(v) => Some((e.position, v)),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no value for {id}"))
}
