//! A position drawn as a player sees it ([`Diagram`], from [`Position::diagram`]).

use crate::position::Position;
use crate::rules::Rules;
use std::fmt::{self, Write};

/// A position drawn as South sees it: North's row on top, right to left (so `p[n]` faces
/// `p[n-1]`); South's row below, left to right; North's store on the left, South's on the right
/// (where each row ends); move numbers along both rows; then the notation and who is to move.
/// A round's burnt pit is drawn `x`, a son with its count and `s` (docs/rules.md §13.2).
///
/// ```
/// use mancala::{board::Move, rules::Kalah, Position};
/// let p = Position::start(Kalah::default(), 4, 3).unwrap();
/// let p = p.try_play(Move(2)).unwrap(); // the last seed lands in South's store: South again
/// assert_eq!(
///     p.diagram().to_string(),
///     "     4   3   2   1     North (moves)
///    +---+---+---+---+
///    | 3 | 3 | 3 | 3 |
///  0 +---+---+---+---+ 1
///    | 3 | 0 | 4 | 4 |
///    +---+---+---+---+
///      1   2   3   4     South (moves)
/// stores: South 1 North 0
/// position: 3,0,4,4/3,3,3,3/1,0/S
/// South to move
/// "
/// );
/// ```
pub struct Diagram<'a, R: Rules>(pub(crate) &'a Position<R>);

impl<R: Rules> fmt::Display for Diagram<'_, R> {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.0;
        let b = p.board();
        let n = b.holes as usize;
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
        writeln!(out, "{}", labels(&mut (1..=n).rev(), "North (moves)"))?;
        writeln!(out, "{border}")?;
        writeln!(out, "{}", row(&mut (n..2 * n).rev()))?;
        let middle = format!("{:^store_w$}{}", score[1], &border[store_w..]);
        // The stores centred in their columns, without the padding after South's.
        let line = format!("{middle}{:^store_w$}", score[0]);
        writeln!(out, "{}", line.trim_end())?;
        writeln!(out, "{}", row(&mut (0..n)))?;
        writeln!(out, "{border}")?;
        writeln!(out, "{}", labels(&mut (1..=n), "South (moves)"))?;
        writeln!(out, "{store_word}: South {} North {}", score[0], score[1])?;
        if b.has_statuses() {
            writeln!(
                out,
                "x: burnt pit (out of the ring); Ns: a son holding N, owned by the player opposite its row"
            )?;
        }
        writeln!(out, "position: {p}")?;
        match p.to_move() {
            Some(s) => writeln!(out, "{s} to move"),
            None => {
                let verdict = match score[0].cmp(&score[1]) {
                    std::cmp::Ordering::Greater => "South wins",
                    std::cmp::Ordering::Less => "North wins",
                    std::cmp::Ordering::Equal => "a draw",
                };
                writeln!(out, "game over: {verdict} {}-{}", score[0], score[1])
            }
        }
    }
}

// Here rather than in `position.rs`, so that the drawing depends on positions and not the other
// way round.
impl<R: Rules> Position<R> {
    /// The position drawn as a player sees it (a [`Diagram`], which
    /// `Display`s). A San-Yao round in which North owns South's first pit as a son:
    ///
    /// ```
    /// use mancala::{notation::RoundSetup, rules::SanYao, Position};
    /// let round: RoundSetup = "5,5,5,5,5/5s,5,5,5,5/0,0/S".parse().unwrap();
    /// let p = Position::from_round_setup(SanYao::default(), &round).unwrap();
    /// assert_eq!(
    ///     p.diagram().to_string(),
    ///     "     5    4    3    2    1      North (moves)
    ///    +----+----+----+----+----+
    ///    | 5  | 5  | 5  | 5  | 5s |
    ///  0 +----+----+----+----+----+ 0
    ///    | 5  | 5  | 5  | 5  | 5  |
    ///    +----+----+----+----+----+
    ///      1    2    3    4    5      South (moves)
    /// tallies: South 0 North 0
    /// x: burnt pit (out of the ring); Ns: a son holding N, owned by the player opposite its row
    /// position: 5,5,5,5,5/5s,5,5,5,5/0,0/S
    /// South to move
    /// "
    /// );
    /// ```
    pub fn diagram(&self) -> Diagram<'_, R> {
        Diagram(self)
    }
}
