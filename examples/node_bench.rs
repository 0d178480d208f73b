//! Solves a Kalah start on one thread through [`Position`] or through the prototype
//! [`KalahNode`] (docs/performance.md, "The Kalah node as its own word, a prototype"), with a
//! fixed 64 MiB table and no book, tables or oracle, and prints the value and the nodes: the two
//! must search the same tree.
//!
//! `cargo run --release --example node_bench -- position|node HOLES SEEDS [--empty-capture] [--hash-mb MB]`

use mancala::rules::{Kalah, KalahNode};
use mancala::Position;
use solver::search::{SearchConfig, Solver};
use solver::Game;

fn solve<G: Game>(root: &G, cfg: SearchConfig) -> (i32, u64) {
    let r = Solver::new(root, cfg, None)
        .and_then(|mut s| s.solve(root))
        .expect("the search finishes");
    (r.value, r.nodes)
}

fn solve_node<const N: usize>(p: &Position<Kalah>, cfg: SearchConfig) -> (i32, u64) {
    let node = KalahNode::<N>::from_position(p).expect("a Kalah board of at most 7 holes");
    solve(&node, cfg)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: node_bench position|node HOLES SEEDS [--empty-capture] [--hash-mb MB]";
    let kind = args.first().expect(usage).as_str();
    let holes: u8 = args.get(1).and_then(|a| a.parse().ok()).expect(usage);
    let seeds: u8 = args.get(2).and_then(|a| a.parse().ok()).expect(usage);
    let rules = Kalah {
        empty_capture: args.iter().any(|a| a == "--empty-capture"),
        ..Kalah::default()
    };
    let mb: usize = args
        .iter()
        .position(|a| a == "--hash-mb")
        .map_or(64, |i| args[i + 1].parse().expect(usage));
    let cfg = SearchConfig {
        threads: 1,
        tt_bytes: mb << 20,
        tt_max_bytes: 0,
        ..SearchConfig::default()
    };
    let p = Position::start(rules, holes, seeds).expect("a valid board");
    let (value, nodes) = match kind {
        "position" => solve(&p, cfg),
        "node" => match holes {
            1 => solve_node::<1>(&p, cfg),
            2 => solve_node::<2>(&p, cfg),
            3 => solve_node::<3>(&p, cfg),
            4 => solve_node::<4>(&p, cfg),
            5 => solve_node::<5>(&p, cfg),
            6 => solve_node::<6>(&p, cfg),
            7 => solve_node::<7>(&p, cfg),
            _ => panic!("the node takes 1 to 7 holes"),
        },
        _ => panic!("{usage}"),
    };
    println!(
        "{kind} kalah({holes},{seeds}){}: future value {value:+}, final {:+}, {nodes} nodes",
        if rules.empty_capture {
            " empty-capture"
        } else {
            ""
        },
        p.final_value(value)
    );
}
