//! The published and independently agreed Kalah values of `REFERENCE.md`, built into the binary
//! so that `mancala verify published` can check them.
//!
//! Every value is the final South-minus-North score under perfect play from the standard start,
//! South moving first, with the default end rule (the game ends as soon as either row is empty).
//! The rows follow the two Kalah tables of `REFERENCE.md` in order; a board listed in both
//! tables appears twice, once per source.

/// What a source says about a start position's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expected {
    /// The exact value.
    Exact(i32),
    /// Only a lower bound is published (the exact value is open).
    AtLeast(i32),
}

impl Expected {
    /// Whether a computed exact value agrees with the claim.
    pub fn agrees(self, value: i32) -> bool {
        match self {
            Expected::Exact(v) => value == v,
            Expected::AtLeast(v) => value >= v,
        }
    }
}

impl std::fmt::Display for Expected {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Expected::Exact(v) => write!(f, "{v:+}"),
            Expected::AtLeast(v) => write!(f, ">= {v:+} (open)"),
        }
    }
}

/// One row of `REFERENCE.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReferenceRow {
    /// Holes per row (the literature's m in Kalah(m,n)).
    pub holes: u8,
    /// Seeds per hole (n).
    pub seeds: u8,
    /// The capture rule: `empty-capture` (true) or standard (false).
    pub empty_capture: bool,
    /// The published value.
    pub value: Expected,
    /// Every best first move, in increasing order, when the source gives them (else empty).
    pub best: &'static [u8],
    /// Where the value comes from.
    pub source: &'static str,
}

const fn row(
    holes: u8,
    seeds: u8,
    empty_capture: bool,
    value: Expected,
    best: &'static [u8],
    source: &'static str,
) -> ReferenceRow {
    ReferenceRow {
        holes,
        seeds,
        empty_capture,
        value,
        best,
        source,
    }
}

use Expected::{AtLeast, Exact};

const IRVING: &str = "Irving, Donkers, Uiterwijk 2000";
const RAWLINGS: &str = "Rawlings 2015";
const AGREED: &str = "independent public solvers";

/// The Kalah rows of `REFERENCE.md`: first "Kalah, published", then "Kalah, agreed by
/// independent public solvers" (standard column, then empty-capture column, per board).
pub const KALAH: &[ReferenceRow] = &[
    // Kalah, published.
    row(6, 4, true, Exact(10), &[], IRVING),
    row(6, 5, true, Exact(12), &[], IRVING),
    row(
        6,
        6,
        true,
        Exact(2),
        &[],
        "Rawlings 2015; Carstensen 2011 (first-player win)",
    ),
    row(6, 1, true, Exact(2), &[], IRVING),
    row(6, 2, true, Exact(10), &[], IRVING),
    row(6, 3, true, Exact(2), &[], IRVING),
    row(
        6,
        4,
        false,
        Exact(8),
        &[],
        "Rawlings 2015; three public solvers",
    ),
    row(6, 5, false, Exact(10), &[], RAWLINGS),
    row(
        6,
        6,
        false,
        AtLeast(4),
        &[],
        "Rawlings, Dec 2015 (bound; no exact value published)",
    ),
    // Kalah, agreed by independent public solvers.
    row(2, 2, false, Exact(-2), &[], AGREED),
    row(4, 2, false, Exact(6), &[], AGREED),
    row(4, 3, false, Exact(6), &[2], AGREED),
    row(4, 3, true, Exact(8), &[2], AGREED),
    row(4, 4, false, Exact(2), &[1], AGREED),
    row(4, 4, true, Exact(2), &[1, 3], AGREED),
    row(5, 2, false, Exact(2), &[], AGREED),
    row(5, 3, false, Exact(6), &[3], AGREED),
    row(5, 3, true, Exact(8), &[3], AGREED),
    row(5, 4, false, Exact(10), &[2], AGREED),
    row(5, 4, true, Exact(12), &[2], AGREED),
    row(6, 2, false, Exact(6), &[], AGREED),
    row(6, 2, true, Exact(10), &[], AGREED),
    row(6, 3, false, Exact(2), &[5], AGREED),
    row(6, 3, true, Exact(2), &[5], AGREED),
    row(6, 4, false, Exact(8), &[3], AGREED),
    row(6, 4, true, Exact(10), &[3], AGREED),
];
