//! Drawing a board as a player sees it: the library's [`mancala::diagram::Diagram`].

use mancala::rules::Rules;
use mancala::Position;

/// The board as South sees it (see [`mancala::diagram::Diagram`]).
pub fn draw<R: Rules>(p: &Position<R>) -> String {
    p.diagram().to_string()
}
