//! The review against `analyze` (every move's exact value, an independent computation of the
//! same numbers), the classes, and bounds under a time limit.

use super::*;
use crate::rules::{Kalah, WalakPussa};
use crate::SearchConfig;
use std::time::Duration;

fn cfg() -> SearchConfig {
    SearchConfig {
        threads: 1,
        tt_bytes: 4 << 20,
        ..SearchConfig::default()
    }
}

/// A game of uniformly random moves from `start` (xorshift from `seed`), at most `max` moves.
fn random_game<R: Rules>(start: &Position<R>, seed: u64, max: usize) -> Vec<Move> {
    let mut state = seed.max(1);
    let mut p = *start;
    let mut moves = Vec::new();
    while !p.is_over() && moves.len() < max {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let legal = p.legal_moves();
        let mv = legal.as_slice()[(state % legal.len() as u64) as usize];
        p = p.play_unchecked(mv);
        moves.push(mv);
    }
    moves
}

/// Every move's loss is the best of `analyze`'s values minus the played move's, from the
/// mover's side; the best moves are those `analyze` values best.
fn check_against_analyze<R: Rules>(start: &Position<R>, seed: u64) {
    let moves = random_game(start, seed, 200);
    let mut source = SolverSource::new(start, cfg(), None, None).unwrap();
    let options = ReviewOptions {
        all_best: true,
        ..ReviewOptions::default()
    };
    let game = review(&mut source, start, &moves, &options).unwrap();
    assert!(game.is_exact());
    for m in &game.moves {
        let values = crate::analyze(&m.before, &cfg()).unwrap();
        let sign = m.side.sign();
        let best = values.iter().map(|v| sign * v.1).max().unwrap();
        let played = values.iter().find(|v| v.0 == m.mv).unwrap().1;
        assert_eq!(m.played, Bounds::exact(played), "{m:?}");
        assert_eq!(m.best, Bounds::exact(sign * best), "{m:?}");
        assert_eq!(m.loss, Bounds::exact(best - sign * played), "{m:?}");
        let every_best: Vec<Move> = values
            .iter()
            .filter(|v| sign * v.1 == best)
            .map(|v| v.0)
            .collect();
        assert_eq!(m.best_moves.as_ref(), Some(&every_best), "{m:?}");
    }
    let lost: i32 = game
        .moves
        .iter()
        .filter(|m| m.side == Side::South)
        .map(|m| m.loss.lower)
        .sum();
    assert_eq!(game.south.loss, Bounds::exact(lost));
    assert_eq!(game.south.moves + game.north.moves, moves.len());
}

#[test]
fn losses_are_analyze_differences() {
    let kalah = Position::start(Kalah::default(), 4, 3).unwrap();
    for seed in 1..=4 {
        check_against_analyze(&kalah, seed);
    }
    let walak = Position::start(WalakPussa::default(), 3, 2).unwrap();
    check_against_analyze(&walak, 7);
}

#[test]
fn best_moves_are_searched_only_where_seeds_were_lost() {
    let start = Position::start(Kalah::default(), 4, 3).unwrap();
    let moves = random_game(&start, 11, 200);
    let mut source = SolverSource::new(&start, cfg(), None, None).unwrap();
    let game = review(&mut source, &start, &moves, &ReviewOptions::default()).unwrap();
    for m in &game.moves {
        let lost = m.loss.exact_value().unwrap() > 0;
        assert_eq!(m.best_moves.is_some(), lost, "{m:?}");
        assert_eq!(m.class == Some(Class::Best), !lost);
    }
}

#[test]
fn a_stopped_search_leaves_bounds_around_the_exact_values() {
    let start = Position::start(Kalah::default(), 6, 3).unwrap();
    let moves = random_game(&start, 5, 12);
    let exact = review(
        &mut SolverSource::new(&start, cfg(), None, None).unwrap(),
        &start,
        &moves,
        &ReviewOptions::default(),
    )
    .unwrap();
    let options = ReviewOptions {
        limit: Limit::after(Duration::ZERO),
        ..ReviewOptions::default()
    };
    let fresh = SolverSource::new(&start, cfg(), None, None);
    let bounded = review(&mut fresh.unwrap(), &start, &moves, &options).unwrap();
    for (e, b) in exact.moves.iter().zip(&bounded.moves) {
        let (p, v, l) = (e.played.lower, e.best.lower, e.loss.lower);
        assert!(
            b.played.contains(p) && b.best.contains(v) && b.loss.contains(l),
            "{e:?} {b:?}"
        );
        assert!(b.loss.lower >= 0);
    }
    assert!(bounded.south.loss.contains(exact.south.loss.lower));
}

#[test]
fn an_illegal_move_names_its_ply() {
    let start = Position::start(Kalah::default(), 3, 3).unwrap();
    let err = line(&start, &[Move(1), Move(9)]).unwrap_err();
    assert!(
        matches!(
            err,
            ReviewError::Illegal {
                ply: 2,
                mv: Move(9),
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn classes_follow_the_thresholds() {
    let t = Thresholds::new(2, 5).unwrap();
    let classes: Vec<Class> = (0..7).map(|l| t.class_of(l)).collect();
    use Class::*;
    assert_eq!(
        classes,
        [Best, Inaccuracy, Mistake, Mistake, Mistake, Blunder, Blunder]
    );
    assert_eq!(t.class(Bounds::new(2, 4)), Some(Mistake));
    assert_eq!(t.class(Bounds::new(0, 1)), None);
    assert!(Thresholds::new(0, 3).is_err());
    assert!(Thresholds::new(4, 3).is_err());
}

/// An analyzer with no book, memory or tables: every value from its one search.
fn bare_analyzer<R: Rules>() -> crate::answers::Analyzer<R> {
    use crate::answers::{Analyzer, AnalyzerConfig, MemoryChoice, TableSize, TablesChoice};
    Analyzer::new(AnalyzerConfig {
        threads: 1,
        table_size: TableSize::fixed(4 << 20),
        tables: TablesChoice::Off,
        book: false,
        memory: MemoryChoice::Off,
        ..AnalyzerConfig::default()
    })
}

/// `g` with every source named "search": the bare search says so of every move, where the
/// analyzer names the rules alone for a position whose every move ends the game.
fn numbers<R: Rules>(mut g: GameReview<R>) -> GameReview<R> {
    for m in &mut g.moves {
        assert!(matches!(m.source, Source::Rules | Source::Search), "{m:?}");
        m.source = Source::Search;
    }
    g
}

#[test]
fn the_analyzer_grades_as_the_bare_search_does() {
    // Two value sources that share no code past the solver: the analyzer's (its own kept
    // search, its PV and best-move bookkeeping) and SolverSource's null-window tests.
    let kalah = Position::start(Kalah::default(), 4, 3).unwrap();
    let walak = Position::start(WalakPussa::default(), 3, 2).unwrap();
    for seed in 1..=2 {
        for all_best in [false, true] {
            let options = ReviewOptions {
                all_best,
                ..ReviewOptions::default()
            };
            let moves = random_game(&kalah, seed, 200);
            let mut bare = SolverSource::new(&kalah, cfg(), None, None).unwrap();
            let want = review(&mut bare, &kalah, &moves, &options).unwrap();
            let mut analyzer = bare_analyzer();
            let mut source = AnalyzerSource::new(&mut analyzer, None);
            let got = review(&mut source, &kalah, &moves, &options).unwrap();
            assert_eq!(numbers(got), numbers(want), "kalah seed {seed}");

            let moves = random_game(&walak, seed, 200);
            let mut bare = SolverSource::new(&walak, cfg(), None, None).unwrap();
            let want = review(&mut bare, &walak, &moves, &options).unwrap();
            let mut analyzer = bare_analyzer();
            let mut source = AnalyzerSource::new(&mut analyzer, None);
            let got = review(&mut source, &walak, &moves, &options).unwrap();
            assert_eq!(numbers(got), numbers(want), "walak-pussa seed {seed}");
        }
    }
}

#[test]
fn the_kalah_node_grades_as_the_position_does() {
    // SolverSource searches a Kalah board of at most 7 holes over the node: the same grades,
    // values, best moves and (1 thread) nodes as the same source over `Position`.
    let ec = Kalah {
        empty_capture: true,
        ..Kalah::default()
    };
    for (rules, holes, seeds) in [
        (Kalah::default(), 4, 3),
        (ec, 3, 4),
        (Kalah::default(), 5, 2),
    ] {
        let start = Position::start(rules, holes, seeds).unwrap();
        for seed in 1..=2 {
            let options = ReviewOptions {
                all_best: seed == 2,
                ..ReviewOptions::default()
            };
            let moves = random_game(&start, seed, 200);
            let mut node = SolverSource::new(&start, cfg(), None, None).unwrap();
            assert!(node.is_node());
            let got = review(&mut node, &start, &moves, &options).unwrap();
            let mut position = SolverSource::over_position(&start, cfg(), None, None).unwrap();
            assert!(!position.is_node());
            let want = review(&mut position, &start, &moves, &options).unwrap();
            assert!(got.is_exact());
            assert_eq!(got, want, "{start} seed {seed}");
            assert_eq!(node.nodes(), position.nodes(), "{start} seed {seed}");
        }
    }
}

#[test]
fn the_book_answers_kalah_6x4s_first_move() {
    // Every move of Kalah(6,4)'s start is in the opening book: graded with no search at all.
    use crate::answers::{Analyzer, AnalyzerConfig, MemoryChoice, TablesChoice};
    let start = Position::start(Kalah::default(), 6, 4).unwrap();
    let mut analyzer = Analyzer::new(AnalyzerConfig {
        threads: 1,
        tables: TablesChoice::Off,
        memory: MemoryChoice::Off,
        ..AnalyzerConfig::default()
    });
    let mut source = AnalyzerSource::new(&mut analyzer, None);
    let g = review(&mut source, &start, &[Move(6)], &ReviewOptions::default()).unwrap();
    let m = &g.moves[0];
    assert_eq!(m.source, Source::Book);
    // +8 from the start (docs/reference-values.md), +4 after 6: the book's best is 3 alone.
    assert_eq!((m.best, m.played), (Bounds::exact(8), Bounds::exact(4)));
    assert_eq!(m.loss, Bounds::exact(4));
    assert_eq!(m.best_moves.as_deref(), Some(&[Move(3)][..]));
    // An abort raised before the review stops it before any answer.
    let flag = crate::stop::StopToken::new();
    flag.stop();
    let mut source = AnalyzerSource::new(&mut analyzer, Some(flag));
    let e = review(&mut source, &start, &[Move(6)], &ReviewOptions::default()).unwrap_err();
    assert!(matches!(e, ReviewError::Interrupted), "{e}");
}
