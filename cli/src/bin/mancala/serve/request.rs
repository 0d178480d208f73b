//! The body of every `POST /api/*` request: the command line's position flags as one JSON
//! object, `{"game", "holes", "seeds", "options", "position", "moves"}` (every field but `game`
//! optional, as on the command line), turned into the same [`PositionArgs`] the commands read,
//! worded with the body's fields ([`Wording::Fields`]): a bad field fails with the command
//! line's one-line message, naming `"position"` where the command line names `--position`.

use super::super::wording::Wording;
use super::super::PositionArgs;
use anyhow::{anyhow, bail, Result};
use mancala::rules::GameKind;
use mancala::variant::{Variant, VariantError};
use mancala_cli::args::{parse_game, parse_seconds, RuleArgs};
use serde::Deserialize;
use serde_json::Value;

/// A request body as sent. Unknown fields are refused, so a misspelt field is an error rather
/// than a silently ignored setting.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub(super) struct Body {
    /// The game, as on the command line (`kalah`, `djenon`, any case).
    game: String,
    holes: Option<u32>,
    seeds: Option<u32>,
    /// Rule options by name (`["empty-capture"]`).
    #[serde(default)]
    options: Vec<String>,
    position: Option<String>,
    /// `[3, 6]`, `["S3", "N1"]` or `"S3 S6 N1"`: the forms `--moves` reads.
    #[serde(default)]
    moves: Value,
    /// `/api/match`: `--fill-from-move-1`.
    #[serde(default)]
    fill_from_move_1: bool,
    /// `/api/solve`, `/api/analyze`: seconds, at most the server's `--time-limit`.
    time_limit: Option<f64>,
    /// `/api/solve`, `/api/analyze`: answer as NDJSON, progress lines then the answer
    /// ([`super::stream`]).
    #[serde(default)]
    stream: bool,
}

impl Body {
    /// Parses a request body; the error is one line.
    pub(super) fn parse(bytes: &[u8]) -> Result<Self> {
        serde_json::from_slice(bytes).map_err(|e| anyhow!("invalid request body: {e}"))
    }

    /// The position flags these fields stand for.
    pub(super) fn position_args(&self) -> Result<PositionArgs> {
        let game = parse_game(&self.game).map_err(anyhow::Error::msg)?;
        let on = options(game, &self.options)?;
        // Checked here, in the body's words: the command line's check names the option's flag.
        if let Err(e) = Variant::new(game, &on) {
            return Err(match e {
                VariantError::OtherGame {
                    option,
                    owner,
                    game,
                } => anyhow!(
                    "\"options\": '{option}' applies to {} only, not to {}",
                    owner.name(),
                    game.name()
                ),
                e => e.into(),
            });
        }
        Ok(PositionArgs {
            game,
            holes: self.holes,
            seeds: self.seeds,
            position: self.position.clone(),
            moves: moves(&self.moves)?,
            load: None,
            rules: RuleArgs { on },
            wording: Wording::Fields,
        })
    }

    /// `/api/match`'s `fill_from_move_1`.
    pub(super) fn fill_from_move_1(&self) -> bool {
        self.fill_from_move_1
    }

    /// Whether the answer is to be streamed, progress lines first ([`super::stream`]).
    pub(super) fn stream(&self) -> bool {
        self.stream
    }

    /// The time limit this request asks for, checked as `--time-limit` is.
    pub(super) fn time_limit(&self) -> Result<Option<f64>> {
        self.time_limit
            .map(|t| parse_seconds(&t.to_string()).map_err(|e| anyhow!("time_limit: {e}")))
            .transpose()
    }
}

/// The rule options by name, each one of some game's (an option of another game is left for
/// [`mancala::variant::Variant::new`] to refuse with the command line's message).
fn options(game: GameKind, names: &[String]) -> Result<Vec<&'static str>> {
    let all: Vec<&'static str> = GameKind::ALL
        .into_iter()
        .flat_map(|g| g.options())
        .map(|o| o.name)
        .collect();
    names
        .iter()
        .map(|n| {
            all.iter().copied().find(|o| o == n).ok_or_else(|| {
                let own: Vec<&str> = game.options().iter().map(|o| o.name).collect();
                anyhow!(
                    "unknown rule option '{n}': {}'s options are {}",
                    game.name(),
                    if own.is_empty() {
                        "none".to_string()
                    } else {
                        own.join(", ")
                    }
                )
            })
        })
        .collect()
}

/// `moves` as the entries of `--moves`: a list of pit numbers or marked moves, or one string.
fn moves(v: &Value) -> Result<Vec<String>> {
    let entry = |e: &Value| match e {
        Value::Number(n) => Ok(n.to_string()),
        Value::String(s) => Ok(s.clone()),
        _ => Err(()),
    };
    let list = match v {
        Value::Null => Ok(Vec::new()),
        Value::String(s) => Ok(vec![s.clone()]),
        Value::Array(a) => a.iter().map(entry).collect(),
        _ => Err(()),
    };
    match list {
        Ok(l) => Ok(l),
        Err(()) => bail!(
            "moves: write a list of moves ([3, 6] or [\"S3\", \"N1\"]) or one string (\"S3 S6 N1\")"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_move_form_of_the_command_line_reads() {
        let read = |text: &str| moves(&serde_json::from_str(text).unwrap());
        assert_eq!(read("null").unwrap(), Vec::<String>::new());
        assert_eq!(read("[3, \"N1\"]").unwrap(), ["3", "N1"]);
        assert_eq!(read("\"S3 S6\"").unwrap(), ["S3 S6"]);
        assert!(read("{}").is_err());
        assert!(read("[[1]]").is_err());
    }

    #[test]
    fn unknown_fields_and_options_are_refused_in_one_line() {
        let e = Body::parse(br#"{"game":"kalah","hole":4}"#).unwrap_err();
        assert!(e.to_string().contains("unknown field `hole`"), "{e}");
        let b = Body::parse(br#"{"game":"kalah","options":["no-such"]}"#).unwrap();
        let e = b.position_args().unwrap_err().to_string();
        assert_eq!(
            e,
            "unknown rule option 'no-such': kalah's options are empty-capture, end-when-mover-empty, leftovers-unscored"
        );
    }
}
