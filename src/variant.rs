//! A game with its options, chosen at run time: the command line's view of the rules.
//!
//! Everything below the CLI is generic over [`Rules`]; [`with_rules!`] turns a [`Variant`] into
//! a call of such a generic function with the concrete rules.

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

use crate::rules::{Dakon, DjenonAboure, GameKind, Kalah, Rules, SanYao, WalakPussa};

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

/// The rule options of all games, as the command line collects them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RuleFlags {
    /// Kalah `--empty-capture`.
    pub empty_capture: bool,
    /// Kalah `--end-when-mover-empty`.
    pub end_when_mover_empty: bool,
    /// Dakon `--nembak-takes-landing-seed`.
    pub nembak_takes_landing_seed: bool,
    /// Dakon `--no-mikul`.
    pub no_mikul: bool,
    /// Walak-pussa `--singleton-restriction`.
    pub singleton_restriction: bool,
}

impl Variant {
    /// The game with the given options; an option of another game is an error.
    pub fn new(kind: GameKind, f: RuleFlags) -> Result<Variant, String> {
        let flags = [
            (f.empty_capture, "--empty-capture", GameKind::Kalah),
            (
                f.end_when_mover_empty,
                "--end-when-mover-empty",
                GameKind::Kalah,
            ),
            (
                f.nembak_takes_landing_seed,
                "--nembak-takes-landing-seed",
                GameKind::Dakon,
            ),
            (f.no_mikul, "--no-mikul", GameKind::Dakon),
            (
                f.singleton_restriction,
                "--singleton-restriction",
                GameKind::WalakPussa,
            ),
        ];
        if let Some((_, flag, owner)) = flags
            .into_iter()
            .find(|&(on, _, owner)| on && owner != kind)
        {
            return Err(format!(
                "option {flag} applies to {} only, not to {}",
                owner.name(),
                kind.name()
            ));
        }
        Ok(match kind {
            GameKind::Kalah => Variant::Kalah(Kalah {
                empty_capture: f.empty_capture,
                end_when_mover_empty: f.end_when_mover_empty,
            }),
            GameKind::Dakon => Variant::Dakon(Dakon {
                nembak_takes_landing_seed: f.nembak_takes_landing_seed,
                no_mikul: f.no_mikul,
            }),
            GameKind::DjenonAboure => Variant::DjenonAboure(DjenonAboure),
            GameKind::WalakPussa => Variant::WalakPussa(WalakPussa {
                singleton_restriction: f.singleton_restriction,
            }),
            GameKind::SanYao => Variant::SanYao(SanYao),
        })
    }

    /// Which game.
    pub fn kind(&self) -> GameKind {
        with_rules!(*self, r => kind_of(&r))
    }

    /// The options switched on, as flag names without dashes.
    pub fn option_names(&self) -> Vec<&'static str> {
        with_rules!(*self, r => r.option_names())
    }

    /// `kalah`, or `kalah --empty-capture` etc.: the game as a user would name it.
    pub fn describe(&self) -> String {
        let mut s = self.kind().name().to_string();
        for o in self.option_names() {
            s.push_str(" --");
            s.push_str(o);
        }
        s
    }
}

fn kind_of<R: Rules>(_: &R) -> GameKind {
    R::KIND
}
