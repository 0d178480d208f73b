//! The analyzer against the plain search ([`crate::analyze`], [`crate::solve`]): the same values
//! from a kept table, and bounds that hold when a search is stopped.

use super::*;
use crate::rules::Kalah;
use crate::{Position, SearchConfig};

fn analyzer() -> Analyzer<Kalah> {
    Analyzer::new(AnalyzerConfig {
        threads: 1,
        tables: TablesChoice::Off,
        ..AnalyzerConfig::default()
    })
}

fn plain() -> SearchConfig {
    SearchConfig {
        threads: 1,
        tt_bytes: 4 << 20,
        ..SearchConfig::default()
    }
}

#[test]
fn one_analyzer_answers_a_game_move_by_move_as_fresh_searches_do() {
    let mut a = analyzer();
    let mut p = Position::start(Kalah::default(), 4, 3).unwrap();
    while !p.is_over() {
        let fresh = crate::analyze(&p, &plain()).unwrap();
        let kept = a.analyze(&p, &Limits::none()).unwrap();
        let got: Vec<_> = kept
            .moves
            .iter()
            .map(|m| (m.mv, m.value.value().unwrap()))
            .collect();
        assert_eq!(got, fresh, "{p}");
        let solved = a.solve(&p, &Limits::none()).unwrap();
        assert_eq!(solved.value, kept.value, "{p}");
        assert_eq!(solved.best, kept.best(), "{p}");
        assert!(solved.complete);
        // Play the last best move, so that the game goes somewhere other than the PV.
        p = p.play_unchecked(*solved.best.last().unwrap());
    }
    let over = a.solve(&p, &Limits::none()).unwrap();
    assert_eq!(over.source, Source::Rules);
    assert_eq!(over.value, Bounds::exact(p.final_value(0)));
}

#[test]
fn a_stopped_analysis_answers_with_bounds_that_hold() {
    let mut a = analyzer();
    let p = Position::start(Kalah::default(), 4, 4).unwrap();
    let stop = crate::StopToken::new();
    stop.stop();
    let limits = Limits {
        time: None,
        stop: Some(stop),
    };
    let stopped = a.analyze(&p, &limits).unwrap();
    assert!(!stopped.complete());
    let exact = a.analyze(&p, &Limits::none()).unwrap();
    for (s, e) in stopped.moves.iter().zip(&exact.moves) {
        let v = e.value.value().unwrap();
        assert!(
            s.value.lower <= v && v <= s.value.upper,
            "{s:?} against {v}"
        );
    }
    let v = exact.value.value().unwrap();
    assert!(stopped.value.lower <= v && v <= stopped.value.upper);
    let solved = a
        .solve(
            &p,
            &Limits {
                time: Some(std::time::Duration::ZERO),
                stop: None,
            },
        )
        .unwrap();
    assert!(solved.value.lower <= v && v <= solved.value.upper);
}

#[test]
fn named_tables_that_are_not_there_are_an_error_naming_the_directory() {
    let mut a: Analyzer<Kalah> = Analyzer::new(AnalyzerConfig {
        threads: 1,
        tables: TablesChoice::Dir("/nonexistent/mancala-tables".into()),
        ..AnalyzerConfig::default()
    });
    let p = Position::start(Kalah::default(), 4, 3).unwrap();
    let e = a.solve(&p, &Limits::none()).unwrap_err();
    assert!(e.to_string().contains("/nonexistent/mancala-tables"), "{e}");
}

#[test]
fn a_second_analyzer_answers_from_the_memory_what_the_first_proved() {
    let dir = std::env::temp_dir().join(format!("mancala-analyzer-memory-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let file = dir.join("memory.sqlite");
    let config = AnalyzerConfig {
        threads: 1,
        tables: TablesChoice::Off,
        memory: MemoryChoice::File(file.clone()),
        ..AnalyzerConfig::default()
    };
    let p = Position::start(Kalah::default(), 4, 4).unwrap();
    let first = Analyzer::new(config.clone())
        .analyze(&p, &Limits::none())
        .unwrap();
    assert_eq!(first.source(), Source::Search);
    let mut second = Analyzer::new(config);
    let again = second.analyze(&p, &Limits::none()).unwrap();
    assert_eq!(again.source(), Source::Memory);
    assert_eq!(
        again.moves.iter().map(|m| m.value).collect::<Vec<_>>(),
        first.moves.iter().map(|m| m.value).collect::<Vec<_>>()
    );
    let solved = second.solve(&p, &Limits::none()).unwrap();
    assert_eq!(solved.source, Source::Memory);
    assert_eq!(solved.value, first.value);
    assert!(second.take_notes().is_empty());
}

#[test]
fn round_positions_of_different_burnt_pits_are_not_answered_from_each_other() {
    use crate::notation::RoundSetup;
    use crate::rules::Dakon;
    let dir = std::env::temp_dir().join(format!("mancala-analyzer-rounds-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut a: Analyzer<Dakon> = Analyzer::new(AnalyzerConfig {
        threads: 1,
        tables: TablesChoice::Off,
        memory: MemoryChoice::File(dir.join("memory.sqlite")),
        ..AnalyzerConfig::default()
    });
    for text in [
        "x,4,4,4/4,4,4,4/2,2/S",
        "4,x,4,4/4,4,4,4/2,2/S",
        "x,4,4,4/4,4,4,4/2,2/S",
        "4,4,4,x/4,4,4,4/2,2/S",
    ] {
        let setup: RoundSetup = text.parse().unwrap();
        let p = Position::from_round_setup(Dakon::default(), &setup).unwrap();
        let fresh = crate::solve(&p, &plain()).unwrap();
        let solved = a.solve(&p, &Limits::none()).unwrap();
        assert_eq!(solved.future, Bounds::exact(fresh.future), "{text}");
        assert_eq!(solved.source, Source::Search, "{text}");
        let fresh_moves = crate::analyze(&p, &plain()).unwrap();
        let kept = a.analyze(&p, &Limits::none()).unwrap();
        let got: Vec<_> = kept
            .moves
            .iter()
            .map(|m| (m.mv, m.value.value().unwrap()))
            .collect();
        assert_eq!(got, fresh_moves, "{text}");
    }
    assert!(a.take_notes().is_empty());
}

#[test]
fn a_remembered_record_that_does_not_fit_its_position_is_deleted_not_served() {
    use super::memory::{Memory, Record};
    use solver::Game;
    let dir = std::env::temp_dir().join(format!("mancala-analyzer-unfit-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let file = dir.join("memory.sqlite");
    let p = Position::start(Kalah::default(), 4, 3).unwrap();
    let q = p.play_unchecked(p.legal_moves().as_slice()[0]);
    let id = rules_identity(p.rules(), 4);
    {
        let mut m = Memory::open(&file, 100).unwrap().memory;
        // Checksums right, values impossible: beyond the stake, a move that is not legal.
        let beyond = Record {
            future: Bounds::exact(1000),
            best: None,
        };
        let illegal = Record {
            future: Bounds::exact(0),
            best: Some(crate::board::Move(200)),
        };
        m.put(&id, p.key(), beyond).unwrap();
        m.put(&id, q.key(), illegal).unwrap();
    }
    let mut a: Analyzer<Kalah> = Analyzer::new(AnalyzerConfig {
        threads: 1,
        tables: TablesChoice::Off,
        book: false,
        memory: MemoryChoice::File(file.clone()),
        ..AnalyzerConfig::default()
    });
    let fresh = crate::solve(&p, &plain()).unwrap();
    let (value, source) = a.value(&p, &Limits::none()).unwrap();
    assert_eq!(source, Source::Search);
    assert_eq!(value, Bounds::exact(p.final_value(fresh.future)));
    let fresh = crate::solve(&q, &plain()).unwrap();
    let solved = a.solve(&q, &Limits::none()).unwrap();
    assert_eq!(solved.future, Bounds::exact(fresh.future));
    assert_eq!(a.take_notes().len(), 2);
}

#[test]
fn an_analysis_keeps_to_its_time_limit_across_its_moves() {
    // Kalah(6,3)'s moves take 0.1 to 0.7 s each on one thread (release): a limit per move let
    // the first ones finish and the next one run its own full limit.
    let mut a = analyzer();
    let p = Position::start(Kalah::default(), 6, 3).unwrap();
    let limit = std::time::Duration::from_millis(600);
    let started = std::time::Instant::now();
    let limited = a.analyze(&p, &Limits::time(limit)).unwrap();
    let took = started.elapsed();
    assert!(
        took < limit + std::time::Duration::from_millis(300),
        "took {took:?}"
    );
    let exact = crate::analyze(&p, &plain()).unwrap();
    for (m, (mv, v)) in limited.moves.iter().zip(exact) {
        assert_eq!(m.mv, mv);
        assert!(
            m.value.lower <= v && v <= m.value.upper,
            "{m:?} against {v}"
        );
    }
}
