//! Solves a Kalah start on one thread through [`Position`] or through the prototype
//! [`KalahNode`] (docs/performance.md, "The Kalah node as its own word, a prototype"), with a
//! fixed 64 MiB table and no book or memory, and prints the value and the nodes: the two must
//! search the same tree. With `--tables DIR` the endgame tables there answer as the oracle (read
//! by `MancalaIndexer` for the position, by `KalahNodeIndexer` for the node: the same files).
//!
//! ```text
//! cargo run --release --example node_bench -- position|node HOLES SEEDS [--empty-capture] [--hash-mb MB] [--tables DIR]
//! cargo run --release --example node_bench -- build HOLES MAX_SEEDS DIR [--empty-capture]
//! ```

use std::path::Path;

use mancala::endgame::{table_id, MancalaIndexer};
use mancala::rules::{Kalah, KalahNode, KalahNodeIndexer};
use mancala::Position;
use solver::search::{Oracle, SearchConfig, Solver};
use solver::{Game, Indexer};
use tables::{BuildOptions, Check, Tablebase};

const USAGE: &str = "usage: node_bench position|node HOLES SEEDS [--empty-capture] [--hash-mb MB] [--tables DIR]\n       node_bench build HOLES MAX_SEEDS DIR [--empty-capture]";

/// Solves `root` and prints what it found.
fn solve<G: Game>(root: &G, cfg: SearchConfig, oracle: Option<&dyn Oracle<G>>) -> (i32, u64) {
    let r = Solver::new(root, cfg, oracle)
        .and_then(|mut s| s.solve(root))
        .expect("the search finishes");
    if oracle.is_some() {
        println!(
            "oracle: {} asked, {} answered",
            r.oracle_probes, r.oracle_hits
        );
    }
    (r.value, r.nodes)
}

/// Opens the tables in `dir` for the index `ix` (all layers, headers checked).
fn open<I: Indexer>(ix: I, rules: &Kalah, holes: u8, dir: &Path) -> Tablebase<I> {
    Tablebase::open_up_to(ix, table_id(rules, holes), dir, Check::Headers, u32::MAX)
        .expect("the tables open")
}

fn solve_node<const N: usize>(
    p: &Position<Kalah>,
    cfg: SearchConfig,
    tables: Option<&Path>,
) -> (i32, u64) {
    let node = KalahNode::<N>::from_position(p).expect("a Kalah board of at most 7 holes");
    let tb = tables.map(|dir| {
        open(
            KalahNodeIndexer::<N>::new(*p.rules()),
            p.rules(),
            N as u8,
            dir,
        )
    });
    solve(
        &node,
        cfg,
        tb.as_ref().map(|t| t as &dyn Oracle<KalahNode<N>>),
    )
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let kind = args.first().expect(USAGE).as_str();
    let holes: u8 = args.get(1).and_then(|a| a.parse().ok()).expect(USAGE);
    let seeds: u8 = args.get(2).and_then(|a| a.parse().ok()).expect(USAGE);
    let rules = Kalah {
        empty_capture: args.iter().any(|a| a == "--empty-capture"),
        ..Kalah::default()
    };
    let value_of = |flag: &str| args.iter().position(|a| a == flag).map(|i| &args[i + 1]);
    if kind == "build" {
        let dir = Path::new(args.get(3).expect(USAGE));
        std::fs::create_dir_all(dir).expect("the tables' directory");
        let opts = BuildOptions {
            threads: 2,
            cyclic_by_graph: false,
            stop: None,
        };
        let ix = MancalaIndexer::new(rules, holes);
        let id = table_id(&rules, holes);
        tables::build(
            &ix,
            &id,
            dir,
            u32::from(seeds),
            &opts,
            &tables::Silent,
            |_| {},
        )
        .expect("built");
        return;
    }
    let mb: usize = value_of("--hash-mb").map_or(64, |v| v.parse().expect(USAGE));
    let tables = value_of("--tables").map(Path::new);
    let cfg = SearchConfig {
        threads: 1,
        tt_bytes: mb << 20,
        tt_max_bytes: 0,
        ..SearchConfig::default()
    };
    let p = Position::start(rules, holes, seeds).expect("a valid board");
    let (value, nodes) = match kind {
        "position" => {
            let tb = tables.map(|dir| open(MancalaIndexer::new(rules, holes), &rules, holes, dir));
            solve(
                &p,
                cfg,
                tb.as_ref().map(|t| t as &dyn Oracle<Position<Kalah>>),
            )
        }
        "node" => match holes {
            1 => solve_node::<1>(&p, cfg, tables),
            2 => solve_node::<2>(&p, cfg, tables),
            3 => solve_node::<3>(&p, cfg, tables),
            4 => solve_node::<4>(&p, cfg, tables),
            5 => solve_node::<5>(&p, cfg, tables),
            6 => solve_node::<6>(&p, cfg, tables),
            7 => solve_node::<7>(&p, cfg, tables),
            _ => panic!("the node takes 1 to 7 holes"),
        },
        _ => panic!("{USAGE}"),
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
