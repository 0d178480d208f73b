//! Stopping as a value ([`crate::stop`]) through the whole library: the position code and two
//! searches in one process.

use crate::rules::WalakPussa;
use crate::stop::{Abandoned, StopToken};
use crate::{Position, SearchConfig, SearchError};
use std::time::{Duration, Instant};

/// A Walak-pussa position one of whose moves sows for billions of laps (docs/cli.md
/// "Limits"): a search of it sits inside one sowing, where only the sowing can see a stop.
const LONG: &str = "35,29,33,29/35,35,30,29/0,0/N";

fn position(text: &str) -> Position<WalakPussa> {
    Position::from_setup(WalakPussa::default(), &text.parse().unwrap()).unwrap()
}

fn config(token: &StopToken) -> SearchConfig {
    SearchConfig {
        threads: 1,
        tt_bytes: 16 << 20,
        stop: Some(token.clone()),
        ..SearchConfig::default()
    }
}

/// Two searches in one process, each with its own token: the one stuck in an endless-looking
/// sowing is stopped and says so, as a value, soon after; the other, never stopped, finishes
/// with the right value (Walak-pussa 5x3 is +12, scripts/signature.sh) while the first is
/// still sowing, and then too.
#[test]
fn two_searches_stop_independently() {
    let (stuck, free) = (StopToken::new(), StopToken::new());
    let (long, start) = (
        position(LONG),
        Position::start(WalakPussa::default(), 5, 3).unwrap(),
    );
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(|| {
            let r = crate::solve(&long, &config(&stuck));
            (r, Instant::now())
        });
        let b = s.spawn(|| crate::solve(&start, &config(&free)));
        // Long enough for the first search to be deep inside its sowing.
        std::thread::sleep(Duration::from_millis(300));
        let asked = Instant::now();
        stuck.stop();
        let (a, stopped_at) = a.join().unwrap();
        assert!(
            stopped_at.duration_since(asked) < Duration::from_secs(5),
            "the stopped search took {:?} to notice",
            stopped_at.duration_since(asked)
        );
        (a, b.join().unwrap())
    });
    assert_eq!(a.unwrap_err(), SearchError::Interrupted);
    assert_eq!(b.unwrap().value, 12);
    assert!(!free.is_stopped());
}

/// The position code gives up the same way: listing the moves of the long position sows
/// every candidate, and a raised token ends that with `Abandoned`; a token never raised
/// would let it run for hours.
#[test]
fn a_long_move_listing_is_abandoned() {
    let token = StopToken::new();
    let p = position(LONG);
    let r = std::thread::scope(|s| {
        let r = s.spawn(|| p.legal_moves_until(token.as_stop()));
        std::thread::sleep(Duration::from_millis(100));
        token.stop();
        r.join().unwrap()
    });
    assert_eq!(r, Err(Abandoned));
}
