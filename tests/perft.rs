//! `mancala perft` against the committed counts of `tests/data/perft.csv`, and those counts
//! against the independent reference engine (tests/reference): two move generators, one table.

use crate::reference::{self as refe, RefGame, RefPos};
use crate::util::{csv_rows, fails, json, ok};

/// One row of tests/data/perft.csv.
struct Row {
    game: &'static str,
    options: Vec<&'static str>,
    holes: u8,
    seeds: u8,
    depth: u32,
    nodes: Vec<u64>,
    ends: Vec<u64>,
}

fn rows() -> Vec<Row> {
    let numbers = |s: &str| -> Vec<u64> { s.split(' ').map(|n| n.parse().unwrap()).collect() };
    csv_rows(include_str!("data/perft.csv"))
        .into_iter()
        .map(|r| Row {
            game: r["game"],
            options: match r["options"] {
                "-" => Vec::new(),
                o => o.split('+').collect(),
            },
            holes: r["holes"].parse().unwrap(),
            seeds: r["seeds"].parse().unwrap(),
            depth: r["depth"].parse().unwrap(),
            nodes: numbers(r["nodes"]),
            ends: numbers(r["ends"]),
        })
        .collect()
}

fn reference_game(game: &str, options: &[&str]) -> RefGame {
    let on = |o: &str| options.contains(&o);
    match game {
        "kalah" => RefGame::Kalah {
            empty_capture: on("empty-capture"),
            end_when_mover_empty: on("end-when-mover-empty"),
            leftovers_unscored: on("leftovers-unscored"),
        },
        "dakon" => RefGame::Dakon {
            nembak_takes_landing_seed: on("nembak-takes-landing-seed"),
            no_mikul: on("no-mikul"),
        },
        "djenon-aboure" => RefGame::DjenonAboure,
        "walak-pussa" => RefGame::WalakPussa {
            singleton_restriction: on("singleton-restriction"),
        },
        "san-yao" => RefGame::SanYao,
        other => panic!("unknown game {other}"),
    }
}

/// The reference engine's perft: every legal move played, one position at a time.
fn reference_counts(g: RefGame, p: &RefPos, ply: usize, nodes: &mut [u64], ends: &mut [u64]) {
    nodes[ply - 1] += 1;
    if p.to_move.is_none() {
        ends[ply - 1] += 1;
        return;
    }
    if ply == nodes.len() {
        return;
    }
    for m in refe::legal_moves(g, p) {
        let q = refe::play(g, p, m).unwrap();
        reference_counts(g, &q, ply + 1, nodes, ends);
    }
}

#[test]
fn the_reference_engine_agrees_with_the_committed_counts() {
    for r in rows() {
        let g = reference_game(r.game, &r.options);
        let start = refe::start(g, r.holes as usize, r.seeds as u32);
        let mut nodes = vec![0; r.depth as usize];
        let mut ends = vec![0; r.depth as usize];
        for m in refe::legal_moves(g, &start) {
            let q = refe::play(g, &start, m).unwrap();
            reference_counts(g, &q, 1, &mut nodes, &mut ends);
        }
        assert_eq!(
            nodes, r.nodes,
            "{} {:?} {}x{}",
            r.game, r.options, r.holes, r.seeds
        );
        assert_eq!(
            ends, r.ends,
            "{} {:?} {}x{}",
            r.game, r.options, r.holes, r.seeds
        );
    }
}

#[test]
fn the_cli_agrees_with_the_committed_counts() {
    for r in rows() {
        let (holes, seeds, depth) = (
            r.holes.to_string(),
            r.seeds.to_string(),
            r.depth.to_string(),
        );
        let flags: Vec<String> = r.options.iter().map(|o| format!("--{o}")).collect();
        let mut args = vec![
            "perft", r.game, "--holes", &holes, "--seeds", &seeds, "--depth", &depth, "--json",
        ];
        args.extend(flags.iter().map(String::as_str));
        let v = json(&args);
        let field = |k: &str| -> Vec<u64> {
            v["depths"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| d[k].as_u64().unwrap())
                .collect()
        };
        assert_eq!(field("nodes"), r.nodes, "{args:?}");
        assert_eq!(field("ends"), r.ends, "{args:?}");
        let divided: u64 = v["divide"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["nodes"].as_u64().unwrap())
            .sum();
        assert_eq!(
            divided,
            *r.nodes.last().unwrap(),
            "{args:?}: the first moves' counts add up"
        );
    }
}

#[test]
fn counts_do_not_depend_on_threads() {
    let one = json(&[
        "perft",
        "walak-pussa",
        "--depth",
        "5",
        "--threads",
        "1",
        "--json",
    ]);
    let two = json(&[
        "perft",
        "walak-pussa",
        "--depth",
        "5",
        "--threads",
        "2",
        "--json",
    ]);
    assert_eq!(one["depths"], two["depths"]);
    assert_eq!(one["divide"], two["divide"]);
}

#[test]
fn the_text_output_lists_depths_and_first_moves() {
    let out = ok(&["perft", "kalah", "--depth", "6"]);
    assert!(
        out.contains("    6                 23233                 0"),
        "{out}"
    );
    assert!(out.contains("by first move, at depth 6:"), "{out}");
    assert!(out.contains("   3  3596"), "{out}");
    let over = ok(&[
        "perft",
        "kalah",
        "--position",
        "0,0/0,1/5,2/N",
        "--depth",
        "3",
    ]);
    assert!(over.contains("the game is over"), "{over}");
}

#[test]
fn bad_perft_arguments_are_refused() {
    assert!(fails(&["perft", "kalah"]).contains("--depth"));
    assert!(fails(&["perft", "kalah", "--depth", "65"]).contains("at most 64"));
    assert!(fails(&["perft", "kalah", "--depth", "x"]).contains("invalid value"));
    assert!(fails(&["perft", "kalah", "--depth", "2", "--threads", "0"]).contains("--threads"));
}
