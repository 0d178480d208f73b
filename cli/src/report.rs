//! How the command line words values and moves, the same in every subcommand.

use mancala::board::Side;

/// "South wins by 8", "North wins by 2", "a draw": a final South-minus-North score in words.
pub fn verdict(value: i32) -> String {
    match value.cmp(&0) {
        std::cmp::Ordering::Greater => format!("South wins by {value}"),
        std::cmp::Ordering::Less => format!("North wins by {}", -value),
        std::cmp::Ordering::Equal => "a draw".to_string(),
    }
}

/// Move numbers joined by `sep`: `3, 6` or `3 6`.
pub fn moves_text(moves: &[u8], sep: &str) -> String {
    moves
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(sep)
}

/// The `best:` line of `solve` and `tables query`.
pub fn best_line(best: &[u8], side: Side) -> String {
    format!("best:     {} (for {side})", moves_text(best, ", "))
}
