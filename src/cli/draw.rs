//! Drawing a board as a player sees it.

use mancala::rules::Rules;
use mancala::Position;
use std::fmt::Write;

/// The board as South sees it: North's row on top, right to left (so `p[n]` faces `p[n-1]`);
/// South's row below, left to right; North's store on the left, South's on the right (where
/// each row ends); move numbers along both rows; then the notation and who is to move.
///
/// ```text
///        6   5   4   3   2   1     North
///      +---+---+---+---+---+---+
///      | 4 | 4 | 4 | 4 | 4 | 4 |
///   0  +---+---+---+---+---+---+  0
///      | 4 | 4 | 4 | 4 | 4 | 4 |
///      +---+---+---+---+---+---+
///        1   2   3   4   5   6     South
/// ```
pub fn draw<R: Rules>(p: &Position<R>) -> String {
    let b = p.board();
    let n = b.holes as usize;
    // A round's statuses (docs/rules.md §13.2): a burnt pit as `x`, a son with its count and `s`.
    let pits: Vec<String> = (0..2 * n)
        .map(|i| {
            let c = b.pits.get(i);
            if b.is_burnt(i) {
                "x".to_string()
            } else if b.is_son(i) {
                format!("{c}s")
            } else {
                c.to_string()
            }
        })
        .collect();
    let score = p.score();
    let cell = pits
        .iter()
        .map(|c| c.len())
        .max()
        .unwrap_or(1)
        .max(n.to_string().len())
        + 2;
    let store_w = score.iter().map(|s| s.to_string().len()).max().unwrap_or(1) + 2;
    let pad = " ".repeat(store_w);
    let border = format!("{pad}+{}", format!("{}+", "-".repeat(cell)).repeat(n));
    let row = |idx: &mut dyn Iterator<Item = usize>| -> String {
        let mut s = format!("{pad}|");
        for i in idx {
            let _ = write!(s, "{:^cell$}|", pits[i]);
        }
        s
    };
    let labels = |nums: &mut dyn Iterator<Item = usize>, who: &str| -> String {
        let mut s = format!("{pad} ");
        for k in nums {
            let _ = write!(s, "{k:^cell$} ");
        }
        format!("{s}   {who}")
    };
    let store_word = if R::KIND.has_stores() {
        "stores"
    } else {
        "tallies"
    };
    let mut out = String::new();
    let _ = writeln!(out, "{}", labels(&mut (1..=n).rev(), "North (moves)"));
    let _ = writeln!(out, "{border}");
    let _ = writeln!(out, "{}", row(&mut (n..2 * n).rev()));
    let middle = format!("{:^store_w$}{}", score[1], &border[store_w..]);
    let _ = writeln!(out, "{middle}{:^store_w$}", score[0]);
    let _ = writeln!(out, "{}", row(&mut (0..n)));
    let _ = writeln!(out, "{border}");
    let _ = writeln!(out, "{}", labels(&mut (1..=n), "South (moves)"));
    let _ = writeln!(out, "{store_word}: South {} North {}", score[0], score[1]);
    if b.has_statuses() {
        let _ = writeln!(
            out,
            "x: burnt pit (out of the ring); Ns: a son holding N, owned by the player opposite its row"
        );
    }
    let _ = writeln!(out, "position: {p}");
    match p.to_move() {
        Some(s) => {
            let _ = writeln!(out, "{s} to move");
        }
        None => {
            let verdict = match score[0].cmp(&score[1]) {
                std::cmp::Ordering::Greater => "South wins",
                std::cmp::Ordering::Less => "North wins",
                std::cmp::Ordering::Equal => "a draw",
            };
            let _ = writeln!(out, "game over: {verdict} {}-{}", score[0], score[1]);
        }
    }
    out
}
