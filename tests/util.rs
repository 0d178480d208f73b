//! Helpers shared by the test modules: running the binary, temp dirs, search configs, solving,
//! random numbers, the main engine's rules paired with the reference engine's, and the readers of
//! the golden data files in `tests/data/`.
//!
//! The library's module paths used by the tests are imported here (and in `tables.rs`) only, so
//! that a rename of a library module is a one-line change.

use crate::reference::RefGame;
use mancala::rules::{Dakon, DjenonAboure, Kalah, Rules, SanYao, WalakPussa};
use solver::search::{solve, SearchConfig};
use std::path::PathBuf;
use std::process::{Command, Output};

pub(crate) use mancala::board::{Move, Side};
pub(crate) use mancala::notation::Setup;
pub(crate) use mancala::Position;

// ---------------------------------------------------------------------------------------------
// The command line

/// Runs the `mancala` binary.
pub(crate) fn mancala(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(args)
        .output()
        .expect("run mancala")
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
    Kalah {
        empty_capture,
        end_when_mover_empty,
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
