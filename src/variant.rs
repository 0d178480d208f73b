//! A game with its options, chosen at run time: the command line's view of the rules.
//!
//! Everything below the CLI is generic over [`Rules`]; [`with_rules!`](crate::with_rules) turns a [`Variant`] into
//! a call of such a generic function with the concrete rules. A variant is written as the game's
//! name with its options switched on, each after a `+`, in the game's [`GameOption::ALL`] order
//! (`kalah`, `kalah+empty-capture`, `dakon+no-mikul`): [`Variant`]'s `FromStr` and `Display`.
//!
//! ```
//! use mancala::variant::Variant;
//! let v: Variant = "kalah+empty-capture".parse().unwrap();
//! assert_eq!(v.to_string(), "kalah+empty-capture");
//! assert_eq!(v.describe(), "kalah --empty-capture");
//! assert!("kalah+no-mikul".parse::<Variant>().is_err()); // Dakon's option
//! ```

/// Evaluates `$body` with `$r` bound to the concrete rules of the variant `$v`.
#[macro_export]
macro_rules! with_rules {
    ($v:expr, $r:ident => $body:expr) => {
        match $v {
            $crate::variant::Variant::Kalah($r) => $body,
            $crate::variant::Variant::Dakon($r) => $body,
            $crate::variant::Variant::DjenonAboure($r) => $body,
            $crate::variant::Variant::WalakPussa($r) => $body,
            $crate::variant::Variant::SanYao($r) => $body,
        }
    };
}

#[cfg(doc)]
use crate::rules::GameOption;
use crate::rules::{Dakon, DjenonAboure, GameKind, Kalah, Rules, SanYao, UnknownGame, WalakPussa};
use std::fmt;
use std::str::FromStr;

/// One of the five games with its options set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Kalah.
    Kalah(Kalah),
    /// Dakon.
    Dakon(Dakon),
    /// Djenon-aboure.
    DjenonAboure(DjenonAboure),
    /// Walak-pussa.
    WalakPussa(WalakPussa),
    /// San-Yao.
    SanYao(SanYao),
}

impl Variant {
    /// The game with every option off: its standard rules.
    pub fn standard(kind: GameKind) -> Variant {
        match kind {
            GameKind::Kalah => Variant::Kalah(Kalah::default()),
            GameKind::Dakon => Variant::Dakon(Dakon::default()),
            GameKind::DjenonAboure => Variant::DjenonAboure(DjenonAboure),
            GameKind::WalakPussa => Variant::WalakPussa(WalakPussa::default()),
            GameKind::SanYao => Variant::SanYao(SanYao),
        }
    }

    /// The game with the named options on (names as in [`GameOption::declaration`]); an option of
    /// another game, or of none, is an error that says which.
    pub fn new<S: AsRef<str>>(kind: GameKind, options: &[S]) -> Result<Variant, VariantError> {
        let mut v = Variant::standard(kind);
        for name in options {
            let name = name.as_ref();
            let found = with_rules!(&mut v, r => set_named(r, name));
            if !found {
                let owner = GameKind::ALL.into_iter().find_map(|g| {
                    let o = g.options().into_iter().find(|o| o.name == name)?;
                    Some((o.name, g))
                });
                return Err(match owner {
                    Some((option, owner)) => VariantError::OtherGame {
                        option,
                        owner,
                        game: kind,
                    },
                    None => VariantError::UnknownOption {
                        name: name.to_string(),
                        game: kind,
                    },
                });
            }
        }
        Ok(v)
    }

    /// Which game.
    pub fn kind(&self) -> GameKind {
        with_rules!(*self, r => kind_of(&r))
    }

    /// The options switched on, by name.
    pub fn option_names(&self) -> Vec<&'static str> {
        with_rules!(*self, r => r.option_names())
    }

    /// `kalah`, or `kalah --empty-capture` etc.: the game as a user would type it.
    pub fn describe(&self) -> String {
        let mut s = self.kind().name().to_string();
        for o in self.option_names() {
            s.push_str(" --");
            s.push_str(o);
        }
        s
    }

    /// The options as one label: `standard` when none is on, else their names joined by `+`.
    pub fn rule_label(&self) -> String {
        let names = self.option_names();
        if names.is_empty() {
            "standard".to_string()
        } else {
            names.join("+")
        }
    }
}

/// Switches on the option of `rules` named `name`; false when they have none of that name.
fn set_named<R: Rules>(rules: &mut R, name: &str) -> bool {
    match R::option_named(name) {
        Some(o) => {
            rules.set_option(o, true);
            true
        }
        None => false,
    }
}

fn kind_of<R: Rules>(_: &R) -> GameKind {
    R::KIND
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind().name())?;
        for o in self.option_names() {
            write!(f, "+{o}")?;
        }
        Ok(())
    }
}

impl FromStr for Variant {
    type Err = VariantError;

    /// `game[+option]...`, as [`Variant`]'s `Display` writes it (options in any order).
    fn from_str(s: &str) -> Result<Variant, VariantError> {
        let mut parts = s.split('+');
        let kind: GameKind = parts.next().unwrap_or("").parse()?;
        let options: Vec<&str> = parts.collect();
        if options.iter().any(|o| o.is_empty()) {
            return Err(VariantError::EmptyOption {
                variant: s.to_string(),
            });
        }
        Variant::new(kind, &options)
    }
}

/// Why a game with options cannot be made from the names given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariantError {
    /// The game's name is none of the five games'.
    Game(UnknownGame),
    /// The option belongs to another game.
    OtherGame {
        /// The option's name.
        option: &'static str,
        /// The game it belongs to.
        owner: GameKind,
        /// The game it was asked for.
        game: GameKind,
    },
    /// No game has an option of this name.
    UnknownOption {
        /// The name as given.
        name: String,
        /// The game it was asked for.
        game: GameKind,
    },
    /// A variant written with an empty option name (`kalah+`, `kalah++empty-capture`).
    EmptyOption {
        /// The variant as written.
        variant: String,
    },
}

impl fmt::Display for VariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VariantError::Game(e) => e.fmt(f),
            VariantError::OtherGame {
                option,
                owner,
                game,
            } => write!(
                f,
                "the rule option {option} applies to {} only, not to {}",
                owner.name(),
                game.name()
            ),
            VariantError::UnknownOption { name, game } => {
                write!(
                    f,
                    "unknown rule option '{name}': {}'s options are ",
                    game.name()
                )?;
                let options = game.options();
                if options.is_empty() {
                    return f.write_str("none");
                }
                for (i, o) in options.iter().enumerate() {
                    let sep = if i == 0 { "" } else { ", " };
                    write!(f, "{sep}{}", o.name)?;
                }
                Ok(())
            }
            VariantError::EmptyOption { variant } => {
                write!(f, "invalid variant '{variant}': an empty option name")
            }
        }
    }
}

impl std::error::Error for VariantError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            VariantError::Game(e) => Some(e),
            _ => None,
        }
    }
}

impl From<UnknownGame> for VariantError {
    fn from(e: UnknownGame) -> Self {
        VariantError::Game(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every subset of every game's options prints and parses back to itself, and its options
    /// are the ones switched on.
    #[test]
    fn every_variant_round_trips() {
        for kind in GameKind::ALL {
            let options = kind.options();
            for mask in 0u32..1 << options.len() {
                let names: Vec<&str> = (0..options.len())
                    .filter(|i| mask >> i & 1 == 1)
                    .map(|i| options[i].name)
                    .collect();
                let v = Variant::new(kind, &names).unwrap();
                assert_eq!(v.kind(), kind);
                assert_eq!(v.option_names(), names);
                let text = v.to_string();
                assert_eq!(text.parse::<Variant>(), Ok(v), "{text}");
                assert_eq!(text.split('+').count(), names.len() + 1, "{text}");
            }
        }
        assert_eq!(
            "kalah+end-when-mover-empty+empty-capture"
                .parse::<Variant>()
                .unwrap()
                .to_string(),
            "kalah+empty-capture+end-when-mover-empty"
        );
    }

    /// Option names are unique across games (each is one command-line flag), and a name of
    /// another game or of none is refused with a message naming it.
    #[test]
    fn options_belong_to_one_game() {
        let mut all: Vec<&str> = GameKind::ALL
            .into_iter()
            .flat_map(|g| g.options().into_iter().map(|o| o.name))
            .collect();
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
        let e = "dakon+empty-capture".parse::<Variant>().unwrap_err();
        assert_eq!(
            e,
            VariantError::OtherGame {
                option: "empty-capture",
                owner: GameKind::Kalah,
                game: GameKind::Dakon
            }
        );
        assert_eq!(
            e.to_string(),
            "the rule option empty-capture applies to kalah only, not to dakon"
        );
        let e = Variant::new(GameKind::SanYao, &["lending"]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown rule option 'lending': san-yao's options are none"
        );
        let e = Variant::new(GameKind::Dakon, &["fast"]).unwrap_err();
        assert!(
            e.to_string()
                .ends_with("dakon's options are nembak-takes-landing-seed, no-mikul"),
            "{e}"
        );
        assert!(matches!(
            "kalah+".parse::<Variant>(),
            Err(VariantError::EmptyOption { .. })
        ));
        assert!(matches!(
            "chess".parse::<Variant>(),
            Err(VariantError::Game(UnknownGame { nearest: None, .. }))
        ));
    }
}
