//! The engine's settings: set from the command line (`--threads`, `--hash-mb`, `--tables`) and
//! changed by UCI's `setoption name NAME value VALUE`. Each option is listed once, in
//! [`Options::declarations`], which `uci` prints; names are matched without regard to case, as
//! UCI asks.

use super::super::setup;
use anyhow::{anyhow, bail, Result};
use mancala::calibrated::{Calibrated, Calibration};
use mancala::variant::Variant;
use std::path::PathBuf;

/// The most analysis lines `MultiPV` can ask for: more than any game has legal moves.
pub(super) const MAX_MULTIPV: u32 = 32;

/// The largest `Hash`, in MiB (64 GiB; the machine's free memory is checked as for `--hash-mb`).
const MAX_HASH_MB: u64 = 64 << 10;

/// Everything a `go` needs besides the position and its limits.
#[derive(Clone, Debug)]
pub(super) struct Options {
    /// Search threads.
    pub threads: usize,
    /// The transposition table's size.
    pub hash: setup::HashSize,
    /// `Hash` as set (0: the growing default), for `uci`'s listing.
    pub hash_mb: u64,
    /// The endgame table directory, if any.
    pub tables: Option<PathBuf>,
    /// The game of `position startpos` and `position fen`.
    pub variant: Variant,
    /// Holes per row of `startpos` (`None`: the game's standard board).
    pub holes: Option<u32>,
    /// Seeds per hole of `startpos` (`None`: the game's standard).
    pub seeds: Option<u32>,
    /// How many moves `go` reports with their exact values (1: the best one only).
    pub multipv: u32,
    /// How far from perfect the engine plays.
    pub calibration: Calibration,
    /// The seed of the calibrated player's draws.
    pub seed: u64,
}

impl Options {
    /// The settings of `mancala engine`'s command line.
    pub(super) fn new(
        threads: usize,
        hash_mb: Option<u64>,
        tables: Option<PathBuf>,
    ) -> Result<Self> {
        Ok(Self {
            threads,
            hash: setup::hash_bytes(hash_mb)?,
            hash_mb: hash_mb.unwrap_or(0),
            tables,
            variant: Variant::standard(mancala::rules::GameKind::Kalah),
            holes: None,
            seeds: None,
            multipv: 1,
            calibration: Calibration::PERFECT,
            seed: 0,
        })
    }

    /// A fresh calibrated player: at `ucinewgame`, and whenever its settings change, so that a
    /// game replays from its seed.
    pub(super) fn player(&self) -> Calibrated {
        Calibrated::new(self.calibration, self.seed)
    }

    /// The `option` lines of UCI's `uci` reply, showing the current settings as defaults.
    pub(super) fn declarations(&self) -> Vec<String> {
        let max_threads = mancala_cli::args::MAX_THREADS;
        let tables = self
            .tables
            .as_ref()
            .map_or("<empty>".to_string(), |d| d.display().to_string());
        vec![
            format!(
                "option name Threads type spin default {} min 1 max {max_threads}",
                self.threads
            ),
            format!(
                "option name Hash type spin default {} min 0 max {MAX_HASH_MB}",
                self.hash_mb
            ),
            format!("option name Tables type string default {tables}"),
            format!(
                "option name UCI_Variant type string default {}",
                self.variant
            ),
            format!(
                "option name Holes type spin default {} min 0 max 255",
                self.holes.unwrap_or(0)
            ),
            format!(
                "option name Seeds type spin default {} min 0 max 255",
                self.seeds.unwrap_or(0)
            ),
            format!(
                "option name MultiPV type spin default {} min 1 max {MAX_MULTIPV}",
                self.multipv
            ),
            format!(
                "option name Epsilon type string default {}",
                self.calibration.epsilon()
            ),
            format!(
                "option name Temperature type string default {}",
                self.calibration.temperature()
            ),
            format!(
                "option name Seed type spin default {} min 0 max {}",
                self.seed,
                i64::MAX
            ),
        ]
    }

    /// `setoption name NAME [value VALUE]` (the words after `setoption`); `Ok(true)` when the
    /// calibrated player must be made anew.
    pub(super) fn set(&mut self, words: &[&str]) -> Result<bool> {
        let (name, value) = split_setoption(words)?;
        let number = |what: &str| -> Result<u64> {
            value
                .parse()
                .map_err(|_| anyhow!("option {what} takes a whole number, not '{value}'"))
        };
        let fraction = |what: &str| -> Result<f64> {
            value
                .parse()
                .map_err(|_| anyhow!("option {what} takes a number, not '{value}'"))
        };
        match name.to_ascii_lowercase().as_str() {
            "threads" => {
                let t = usize::try_from(number("Threads")?).unwrap_or(usize::MAX);
                self.threads = setup::threads(Some(t)).map_err(|e| anyhow!("option {e}"))?;
            }
            "hash" => {
                let mb = number("Hash")?;
                if mb > MAX_HASH_MB {
                    bail!("option Hash takes 0 to {MAX_HASH_MB} MiB, not {mb}");
                }
                self.hash = setup::hash_bytes((mb > 0).then_some(mb))?;
                self.hash_mb = mb;
            }
            "tables" => {
                self.tables = match value.as_str() {
                    "" | "<empty>" => None,
                    "<default>" => Some(mancala::endgame::default_dir()),
                    dir => {
                        let dir = PathBuf::from(dir);
                        setup::tables_dir_exists(&dir)?;
                        Some(dir)
                    }
                }
            }
            "uci_variant" | "game" => {
                self.variant = value
                    .parse()
                    .map_err(|e| anyhow!("option UCI_Variant: {e}"))?;
            }
            "holes" => self.holes = Some(number("Holes")?).filter(|&h| h > 0).map(clamp),
            "seeds" => self.seeds = Some(number("Seeds")?).filter(|&s| s > 0).map(clamp),
            "multipv" => {
                let n = number("MultiPV")?;
                if !(1..=u64::from(MAX_MULTIPV)).contains(&n) {
                    bail!("option MultiPV takes 1 to {MAX_MULTIPV}, not {n}");
                }
                self.multipv = n as u32;
            }
            "epsilon" => {
                let e = fraction("Epsilon")?;
                self.calibration = Calibration::new(e, self.calibration.temperature())
                    .map_err(|e| anyhow!("option Epsilon: {e}"))?;
                return Ok(true);
            }
            "temperature" => {
                let t = fraction("Temperature")?;
                self.calibration = Calibration::new(self.calibration.epsilon(), t)
                    .map_err(|e| anyhow!("option Temperature: {e}"))?;
                return Ok(true);
            }
            "seed" => {
                self.seed = number("Seed")?;
                return Ok(true);
            }
            _ => bail!("unknown option '{name}' (uci lists the options)"),
        }
        Ok(false)
    }
}

/// A size that does not fit a byte is out of every game's range: the board's own check says so.
fn clamp(n: u64) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// `name NAME WORDS [value VALUE WORDS]`: the name and the value (empty when none), each with
/// its inner spaces kept.
fn split_setoption(words: &[&str]) -> Result<(String, String)> {
    let ["name", rest @ ..] = words else {
        bail!("setoption takes 'name NAME value VALUE'");
    };
    let at = rest.iter().position(|w| *w == "value");
    let (name, value) = match at {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &[][..]),
    };
    if name.is_empty() {
        bail!("setoption takes 'name NAME value VALUE': the name is missing");
    }
    Ok((name.join(" "), value.join(" ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options() -> Options {
        Options::new(1, None, None).unwrap()
    }

    #[test]
    fn options_are_set_by_name_in_any_case() {
        let mut o = options();
        o.set(&["name", "threads", "value", "2"]).unwrap();
        assert_eq!(o.threads, 2);
        o.set(&["name", "UCI_Variant", "value", "kalah+empty-capture"])
            .unwrap();
        assert_eq!(o.variant.to_string(), "kalah+empty-capture");
        o.set(&["name", "Holes", "value", "4"]).unwrap();
        assert_eq!(o.holes, Some(4));
        o.set(&["name", "Holes", "value", "0"]).unwrap();
        assert_eq!(o.holes, None, "0: the game's standard board");
        assert!(o.set(&["name", "Epsilon", "value", "0.25"]).unwrap());
        assert_eq!(o.calibration.epsilon(), 0.25);
        o.set(&["name", "MultiPV", "value", "6"]).unwrap();
        assert_eq!(o.multipv, 6);
    }

    #[test]
    fn bad_options_are_refused_with_their_name() {
        let mut o = options();
        let e = o.set(&["name", "Epsilon", "value", "2"]).unwrap_err();
        assert!(e.to_string().contains("Epsilon"), "{e}");
        assert!(o.set(&["name", "MultiPV", "value", "0"]).is_err());
        assert!(o.set(&["name", "Threads", "value", "0"]).is_err());
        assert!(o.set(&["name", "UCI_Variant", "value", "chess"]).is_err());
        assert!(o.set(&["name", "Colour", "value", "red"]).is_err());
        assert!(o.set(&["value", "3"]).is_err());
        assert!(o.set(&["name", "Tables", "value", "/no/such/dir"]).is_err());
    }
}
