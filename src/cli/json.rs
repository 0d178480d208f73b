//! The one JSON format of every `--json` output (`docs/json.md`): each object starts with the
//! same head, `format` (this version), `command`, `game`, `options`, and where a position is
//! involved `holes`, `position` and `to_move` ("S", "N" or null); values are final
//! South-minus-North scores, winners "S", "N" or "draw", `best` always a list of moves.

use mancala::rules::Rules;
use mancala::Position;
use serde::Serialize;
use serde_json::{Map, Value};

/// The format version: raised when a field changes meaning or goes away (adding one does not).
pub const FORMAT: u32 = 1;

/// The fields every object starts with.
#[derive(Serialize)]
struct Head<'a> {
    format: u32,
    command: &'a str,
    game: &'static str,
    options: Vec<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    holes: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    position: Option<String>,
    /// `Some(None)` is a finished game (null); `None` leaves the field out (no position).
    #[serde(skip_serializing_if = "Option::is_none")]
    to_move: Option<Option<String>>,
}

/// `body` (an object) behind the head of `command` about the position `p`.
pub fn about_position<R: Rules>(command: &str, p: &Position<R>, body: Value) -> Value {
    let head = Head {
        format: FORMAT,
        command,
        game: R::KIND.name(),
        options: p.rules().option_names(),
        holes: Some(p.board().holes),
        position: Some(p.to_string()),
        to_move: Some(p.to_move().map(|s| s.letter().to_string())),
    };
    join(&head, body)
}

/// `body` behind the head of `command` about a game (`game` empty: several games or none).
pub fn about_game(
    command: &str,
    game: &'static str,
    options: Vec<&'static str>,
    body: Value,
) -> Value {
    let head = Head {
        format: FORMAT,
        command,
        game,
        options,
        holes: None,
        position: None,
        to_move: None,
    };
    join(&head, body)
}

fn join(head: &Head<'_>, body: Value) -> Value {
    let mut out: Map<String, Value> = match serde_json::to_value(head) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    };
    if let Value::Object(b) = body {
        out.extend(b);
    }
    Value::Object(out)
}

/// A final South-minus-North value's winner: "S", "N" or "draw"; null when not known.
pub fn winner(value: Option<i32>) -> Value {
    match value.map(|v| v.cmp(&0)) {
        Some(std::cmp::Ordering::Greater) => "S".into(),
        Some(std::cmp::Ordering::Less) => "N".into(),
        Some(std::cmp::Ordering::Equal) => "draw".into(),
        None => Value::Null,
    }
}
