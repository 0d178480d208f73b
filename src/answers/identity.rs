//! The stable name of a game's rules on a board: what the opening book and the memory of proven
//! positions file values under, next to the position's key ([`solver::Game::key`]).
//!
//! A position's key is exact only among positions of the same rules and the same number of
//! holes (it ranks the pits, and leaves out the stores, so that the value it names is the
//! *future* value: the net seeds the side to move will still win). The identity names both, so
//! that one store can hold several games without ever mixing their values. Neither names the
//! burnt pits or sons of a match's round, so the [`Analyzer`](super::Analyzer) neither asks
//! the book or the memory about such a position nor keeps it in the memory.

use crate::rules::Rules;

/// The identity of `rules` on `holes` holes: the game's name, each option that is on (as
/// `+option`, in the rules' own order), then `/` and the holes: `kalah+empty-capture/6`.
///
/// ```
/// use mancala::{answers::rules_identity, rules::Kalah};
/// assert_eq!(rules_identity(&Kalah::default(), 6), "kalah/6");
/// ```
pub fn rules_identity<R: Rules>(rules: &R, holes: u8) -> String {
    let mut id = R::KIND.name().to_string();
    for o in rules.option_names() {
        id.push('+');
        id.push_str(o);
    }
    id.push('/');
    id.push_str(&holes.to_string());
    id
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Kalah, WalakPussa};
    use crate::variant::Variant;

    #[test]
    fn options_and_holes_tell_identities_apart() {
        let empty: Variant = "kalah+empty-capture".parse().unwrap();
        let Variant::Kalah(k) = empty else {
            panic!("kalah+empty-capture is a Kalah variant")
        };
        assert_eq!(rules_identity(&k, 6), "kalah+empty-capture/6");
        assert_ne!(rules_identity(&k, 6), rules_identity(&Kalah::default(), 6));
        assert_ne!(
            rules_identity(&Kalah::default(), 6),
            rules_identity(&Kalah::default(), 5)
        );
        assert_eq!(rules_identity(&WalakPussa::default(), 7), "walak-pussa/7");
    }
}
