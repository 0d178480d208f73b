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
use crate::rules::{Dakon, DjenonAboure, GameKind, Kalah, Rules, SanYao, WalakPussa};
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
    pub fn new<S: AsRef<str>>(kind: GameKind, options: &[S]) -> Result<Variant, String> {
        let mut v = Variant::standard(kind);
        for name in options {
            let name = name.as_ref();
            let found = with_rules!(&mut v, r => set_named(r, name));
            if !found {
                let owner = GameKind::ALL
                    .into_iter()
                    .find(|g| g.options().iter().any(|o| o.name == name));
                return Err(match owner {
                    Some(owner) => format!(
                        "option --{name} applies to {} only, not to {}",
                        owner.name(),
                        kind.name()
                    ),
                    None => format!("unknown rule option '{name}'"),
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
    type Err = String;

    /// `game[+option]...`, as [`Variant`]'s `Display` writes it (options in any order).
    fn from_str(s: &str) -> Result<Variant, String> {
        let mut parts = s.split('+');
        let kind: GameKind = parts.next().unwrap_or("").parse()?;
        let options: Vec<&str> = parts.collect();
        if options.iter().any(|o| o.is_empty()) {
            return Err(format!("invalid variant '{s}': an empty option name"));
        }
        Variant::new(kind, &options)
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
        assert_eq!(
            "dakon+empty-capture".parse::<Variant>(),
            Err("option --empty-capture applies to kalah only, not to dakon".to_string())
        );
        assert_eq!(
            Variant::new(GameKind::SanYao, &["lending"]),
            Err("unknown rule option 'lending'".to_string())
        );
        assert!("kalah+".parse::<Variant>().is_err());
        assert!("chess".parse::<Variant>().is_err());
    }
}
