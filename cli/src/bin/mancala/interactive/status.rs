//! The words of the status line that `play --interactive` draws on a terminal while the engine
//! thinks or a hint runs: the best move so far and the proven bounds
//! ([`mancala::answers::live`]), so that a long search is never a silent wait.
//!
//! The line says only what is proven: a best move's value is exact or shown as bounds, and a
//! move picked before anything is proven is said to be a look-ahead's pick.

use mancala::answers::live::Leader;
use mancala::answers::Bounds;
use mancala::board::Move;

/// `+4`, or `+2..+10` for bounds.
fn value_words(b: Bounds) -> String {
    match b.value() {
        Some(v) => format!("{v:+}"),
        None => format!("{:+}..{:+}", b.lower, b.upper),
    }
}

/// "best so far 3 (+2..+10), value in [+2, +10]": the best move so far (the search's, or
/// else `look_ahead`, a look-ahead's pick) and the position's proven bounds, final values.
pub(super) fn words(best: Option<Leader>, look_ahead: Option<Move>, value: Bounds) -> String {
    let best = match (best, look_ahead) {
        (Some(l), _) if l.proven_best => {
            format!("best {} ({}, proven)", l.mv, value_words(l.value))
        }
        (Some(l), _) => format!("best so far {} ({})", l.mv, value_words(l.value)),
        (None, Some(m)) => format!("best so far {m} (a look-ahead's pick, not proven)"),
        (None, None) => "nothing proven yet".to_string(),
    };
    format!("{best}, {}", value_line(value))
}

/// "value in [+2, +10]", or "value +4" once exact.
pub(super) fn value_line(value: Bounds) -> String {
    match value.value() {
        Some(v) => format!("value {v:+}"),
        None => format!("value in [{:+}, {:+}]", value.lower, value.upper),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_status_line_says_what_is_proven() {
        let wide = Bounds::between(-10, 12);
        assert_eq!(
            words(None, None, wide),
            "nothing proven yet, value in [-10, +12]"
        );
        assert_eq!(
            words(None, Some(Move(3)), wide),
            "best so far 3 (a look-ahead's pick, not proven), value in [-10, +12]"
        );
        let leading = Leader {
            mv: Move(4),
            value: Bounds::between(2, 12),
            proven_best: false,
        };
        assert_eq!(
            words(Some(leading), Some(Move(3)), Bounds::between(2, 12)),
            "best so far 4 (+2..+12), value in [+2, +12]"
        );
        let proven = Leader {
            mv: Move(4),
            value: Bounds::exact(-6),
            proven_best: true,
        };
        assert_eq!(
            words(Some(proven), None, Bounds::exact(-6)),
            "best 4 (-6, proven), value -6"
        );
    }
}
