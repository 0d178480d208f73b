//! Game names as users type them: any case, `-`/`_`/space or none between words (`San-Yao`,
//! `san_yao`, `sanyao`), a short alias for the two-word names (`djenon`, `walak`, `sanyao`), and
//! a "did you mean" for a near miss.

use super::GameKind;
use std::fmt;

/// Short names accepted besides [`GameKind::name`], as (alias, game).
pub const ALIASES: [(&str, GameKind); 3] = [
    ("djenon", GameKind::DjenonAboure),
    ("walak", GameKind::WalakPussa),
    ("sanyao", GameKind::SanYao),
];

/// Lower case without word separators: the form names are compared in.
fn folded(s: &str) -> String {
    s.trim()
        .chars()
        .filter(|c| !matches!(c, '-' | '_' | ' '))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Edit distance (insertions, deletions, substitutions) between two short strings.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (diag + usize::from(ca != cb))
                .min(row[j] + 1)
                .min(row[j + 1] + 1);
            diag = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// A name that is none of the five games' nor an alias, with the game it is a near miss of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownGame {
    /// The name as given.
    pub name: String,
    /// The game whose name is at most two edits away (a swapped or doubled letter), if any.
    pub nearest: Option<GameKind>,
}

impl fmt::Display for UnknownGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown game '{}' (the games are ", self.name)?;
        for (i, g) in GameKind::ALL.into_iter().enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            write!(f, "{sep}{}", g.name())?;
        }
        f.write_str(")")?;
        match self.nearest {
            Some(g) => write!(f, "; did you mean '{}'?", g.name()),
            None => Ok(()),
        }
    }
}

impl std::error::Error for UnknownGame {}

impl std::str::FromStr for GameKind {
    type Err = UnknownGame;

    fn from_str(s: &str) -> Result<Self, UnknownGame> {
        let f = folded(s);
        let names = GameKind::ALL
            .into_iter()
            .map(|g| (folded(g.name()), g))
            .chain(ALIASES.into_iter().map(|(a, g)| (a.to_string(), g)));
        let mut nearest: Option<(usize, GameKind)> = None;
        for (name, g) in names {
            if name == f {
                return Ok(g);
            }
            let d = distance(&f, &name);
            if nearest.is_none_or(|(best, _)| d < best) {
                nearest = Some((d, g));
            }
        }
        Err(UnknownGame {
            name: s.to_string(),
            // Two edits: enough for a swapped or doubled letter, not for another word.
            nearest: nearest.filter(|&(d, _)| d <= 2).map(|(_, g)| g),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_fold_case_separators_and_aliases() {
        for (text, g) in [
            ("Kalah", GameKind::Kalah),
            ("KALAH", GameKind::Kalah),
            ("djenon", GameKind::DjenonAboure),
            ("Djenon-Aboure", GameKind::DjenonAboure),
            ("walak", GameKind::WalakPussa),
            ("walak_pussa", GameKind::WalakPussa),
            ("sanyao", GameKind::SanYao),
            ("San-Yao", GameKind::SanYao),
            ("dakon", GameKind::Dakon),
        ] {
            assert_eq!(text.parse::<GameKind>(), Ok(g), "{text}");
        }
        for g in GameKind::ALL {
            assert_eq!(g.name().parse::<GameKind>(), Ok(g));
        }
    }

    #[test]
    fn near_misses_get_a_suggestion_and_others_none() {
        let e = "kalha".parse::<GameKind>().unwrap_err();
        assert_eq!(e.nearest, Some(GameKind::Kalah));
        assert!(e.to_string().ends_with("did you mean 'kalah'?"), "{e}");
        let e = "dakkon".parse::<GameKind>().unwrap_err();
        assert_eq!(e.nearest, Some(GameKind::Dakon));
        let e = "sanyo".parse::<GameKind>().unwrap_err();
        assert!(e.to_string().ends_with("did you mean 'san-yao'?"), "{e}");
        let e = "chess".parse::<GameKind>().unwrap_err();
        assert_eq!(e.nearest, None);
        assert_eq!(
            e.to_string(),
            "unknown game 'chess' (the games are kalah, dakon, djenon-aboure, walak-pussa, san-yao)"
        );
        assert_eq!(distance("kitten", "sitting"), 3);
    }
}
