//! Solve a position exactly: the value under perfect play and every best move.
//!
//! `cargo run --release --example solve`

use mancala::rules::Kalah;
use mancala::Position;
use solver::search::{solve, SearchConfig};

fn main() {
    // Kalah with 4 holes and 3 seeds per hole, South to move.
    let start = Position::start(Kalah::default(), 4, 3).expect("a valid board");
    let cfg = SearchConfig {
        threads: 1,
        tt_bytes: 16 << 20,
        ..SearchConfig::default()
    };
    let result = solve(&start, &cfg, None).expect("the search finishes");
    // The search works on the future value (seeds still to be won); `final_value` adds the
    // stores: final South minus North.
    let value = start.final_value(result.value);
    let best: Vec<u8> = result.best.iter().map(|m| m.0).collect();
    println!(
        "{start}: value {value:+}, best moves {best:?}, {} nodes",
        result.nodes
    );
    assert_eq!(
        value, 6,
        "Kalah(4,3) is +6 under perfect play (docs/rules.md §3.7)"
    );
}
