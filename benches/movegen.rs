//! Legal-move generation + apply on random positions of each game (the search's inner loop).
//!
//! Positions come from random playouts from the standard start with a fixed seed, so every run
//! measures the same work. Throughput is reported per move generated and applied.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use mancala::rules::{Dakon, DjenonAboure, Kalah, Rules, SanYao, WalakPussa};
use mancala::Position;

/// xorshift64*: a tiny deterministic generator, enough to pick playout moves.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// Every position met on random playouts from the start until `want` are collected.
fn sample<R: Rules>(rules: R, holes: u8, seeds: u8, want: usize) -> Vec<Position<R>> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let start = Position::start(rules, holes, seeds).unwrap();
    let mut out = Vec::with_capacity(want);
    while out.len() < want {
        let mut p = start;
        // Cyclic games can play forever; a playout is cut after 200 moves.
        for _ in 0..200 {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            out.push(p);
            let m = moves.as_slice()[(rng.next() % moves.len() as u64) as usize];
            p = p.try_play(m).unwrap();
        }
    }
    out.truncate(want);
    out
}

/// Generates and applies every move of `positions`: how many children, and a checksum of the
/// moves and the children's South stores (so that the work cannot be optimised away).
fn children<R: Rules>(positions: &[Position<R>]) -> (usize, u32) {
    let (mut count, mut sum) = (0usize, 0u32);
    for p in positions {
        p.for_each_child(|m, q| {
            count += 1;
            sum = sum.wrapping_add(m.0 as u32 + q.score()[0]);
        });
    }
    (count, sum)
}

fn bench_game<R: Rules>(c: &mut Criterion, name: &str, rules: R, holes: u8, seeds: u8) {
    let positions = sample(rules, holes, seeds, 2000);
    let moves: usize = positions.iter().map(|p| p.legal_moves().len()).sum();
    // What is measured is right: one child per legal move (the two move generators agree), and
    // every iteration does the same work with the same result.
    let first = children(&positions);
    assert_eq!(
        first.0, moves,
        "{name}: for_each_child and legal_moves disagree"
    );
    let mut g = c.benchmark_group("movegen");
    g.throughput(Throughput::Elements(moves as u64));
    g.bench_function(name, |b| {
        b.iter(|| {
            let r = children(black_box(&positions));
            assert_eq!(r, first, "{name}: a run gave another result");
            r
        })
    });
    g.finish();
}

fn movegen(c: &mut Criterion) {
    bench_game(c, "kalah 6x4", Kalah::default(), 6, 4);
    bench_game(c, "dakon 7x7", Dakon::default(), 7, 7);
    bench_game(c, "djenon-aboure 6x4", DjenonAboure, 6, 4);
    bench_game(c, "walak-pussa 7x4", WalakPussa::default(), 7, 4);
    bench_game(c, "san-yao 5x5", SanYao, 5, 5);
}

criterion_group!(benches, movegen);
criterion_main!(benches);
