//! The one JSON format of every `--json` output (`docs/json.md`), as types: each command's
//! object is a struct here, printed with serde and described by the JSON Schema that
//! [`schema`] generates from the same structs (`mancala json-schema`, committed as
//! `docs/json.schema.json`), so the documented shape and the printed one cannot drift apart.
//!
//! Every object starts with the same head, `format` (this version), `command`, `game`,
//! `options`, and where a position is involved `holes`, `position` and `to_move` ("S", "N" or
//! null); values are final South-minus-North scores, winners "S", "N" or "draw", `best` always
//! a list of moves. The two `tables` commands that look at a whole directory (`info`, `verify`)
//! are about no one game: their head is `format` and `command`, and each table names its game.
//!
//! One file per command family: the vocabulary and heads every object shares (`base.rs`),
//! `play`/`moves`/`match` (`play.rs`), `solve`/`analyze` and their batches (`solve.rs`),
//! `tables` (`tables.rs`), `verify` (`verify.rs`), and the schema (`schema.rs`).

mod base;
mod play;
mod review;
mod schema;
mod solve;
mod tables;
mod verify;

pub use base::*;
pub use play::*;
pub use review::*;
pub use schema::schema;
pub use solve::*;
pub use tables::*;
pub use verify::*;
