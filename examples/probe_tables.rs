//! Build small endgame tables, then look positions up in them.
//!
//! `cargo run --release --example probe_tables`

use mancala::endgame::{open, table_id, Hold, MancalaIndexer};
use mancala::rules::Kalah;
use mancala::Position;
use tables::BuildOptions;

fn main() {
    let rules = Kalah::default();
    let holes = 4;
    let dir = std::env::temp_dir().join(format!("mancala-example-{}", std::process::id()));
    // Every position with 0..=8 seeds on a 4-hole board, one file per seed count.
    let opts = BuildOptions {
        threads: 2,
        cyclic_by_graph: false,
        stop: None,
    };
    let ix = MancalaIndexer::new(rules, holes);
    tables::build(
        &ix,
        &table_id(&rules, holes),
        &dir,
        8,
        &opts,
        &tables::Silent,
        |_| {},
    )
    .expect("built");

    let tb = open(&dir, rules, holes, 8, Hold::Mapped).expect("opened");
    let p: Position<Kalah> =
        Position::from_setup(rules, &"1,2,0,1/0,1,1,2/10,14/N".parse().unwrap())
            .expect("a valid position");
    let (future, best) = tb.best_moves(&p).expect("8 seeds: in the tables");
    let best: Vec<u8> = best.iter().map(|m| m.0).collect();
    println!(
        "{p}: value {:+} (final South minus North), best {best:?}",
        p.final_value(future)
    );
    for (m, v) in tb.move_values(&p).expect("in the tables") {
        println!("  move {}: {:+}", m.0, p.final_value(v));
    }
    // The tables agree with a search from scratch.
    let cfg = solver::search::SearchConfig {
        threads: 1,
        tt_bytes: 1 << 20,
        ..Default::default()
    };
    let searched = solver::search::solve(&p, &cfg, None).expect("solved");
    assert_eq!(searched.value, future);
    std::fs::remove_dir_all(&dir).ok();
}
