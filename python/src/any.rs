//! One position of any of the five games: the library's `Position<R>` is generic over the
//! rules, Python's `Position` is one class, so this enum carries the rules chosen at run time.
//! Every game-specific operation is a generic function called through [`with_pos!`].

use mancala::rules::{Dakon, DjenonAboure, Kalah, Rules, SanYao, WalakPussa};
use mancala::variant::{Variant, VariantError};
use mancala::Position;

/// A position of one of the five games (its rules and options inside).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum AnyPos {
    Kalah(Position<Kalah>),
    Dakon(Position<Dakon>),
    DjenonAboure(Position<DjenonAboure>),
    WalakPussa(Position<WalakPussa>),
    SanYao(Position<SanYao>),
}

/// Evaluates `$body` with `$q` bound to the concrete `Position<R>` inside `$p`.
#[macro_export]
macro_rules! with_pos {
    ($p:expr, $q:ident => $body:expr) => {
        match $p {
            $crate::any::AnyPos::Kalah($q) => $body,
            $crate::any::AnyPos::Dakon($q) => $body,
            $crate::any::AnyPos::DjenonAboure($q) => $body,
            $crate::any::AnyPos::WalakPussa($q) => $body,
            $crate::any::AnyPos::SanYao($q) => $body,
        }
    };
}

/// Rules whose positions [`AnyPos`] can hold: the five games.
pub trait Wrap: Rules + Send + Sync + 'static {
    /// `p` as an [`AnyPos`].
    fn wrap(p: Position<Self>) -> AnyPos;
    /// These rules as a [`Variant`].
    fn to_variant(self) -> Variant;
}

macro_rules! wrap {
    ($($r:ident),*) => {$(
        impl Wrap for $r {
            fn wrap(p: Position<Self>) -> AnyPos {
                AnyPos::$r(p)
            }
            fn to_variant(self) -> Variant {
                Variant::$r(self)
            }
        }
    )*};
}
wrap!(Kalah, Dakon, DjenonAboure, WalakPussa, SanYao);

impl AnyPos {
    /// The game with its options.
    pub fn variant(&self) -> Variant {
        with_pos!(self, p => p.rules().to_variant())
    }
}

/// The game named `game` (`"kalah"`, an alias such as `"djenon"`, or a variant written with its
/// options, `"kalah+empty-capture"`) with `options` also switched on. Option names may be
/// written with `_` for `-` (`empty_capture`), as Python keyword-style names are.
pub fn variant(game: &str, options: &[String]) -> Result<Variant, VariantError> {
    let base: Variant = game.trim().parse()?;
    let mut names: Vec<String> = base.option_names().iter().map(|s| s.to_string()).collect();
    for o in options {
        let name = o.trim().trim_start_matches("--").replace('_', "-");
        if !names.contains(&name) {
            names.push(name);
        }
    }
    Variant::new(base.kind(), &names)
}
