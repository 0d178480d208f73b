//! Which tables are which: their identity (game, options, holes) and where they live by default.

use std::path::PathBuf;

use tables::TableId;

use crate::rules::Rules;

/// The environment variable naming the default table directory.
pub const TABLES_ENV: &str = "MANCALA_TABLES";

/// The default table directory: `$MANCALA_TABLES`, else `$XDG_CACHE_HOME/mancala/tables`, else
/// `$HOME/.cache/mancala/tables`, else `mancala-tables` in the current directory.
pub fn default_dir() -> PathBuf {
    let var = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(d) = var(TABLES_ENV) {
        return d;
    }
    if let Some(c) = var("XDG_CACHE_HOME") {
        return c.join("mancala").join("tables");
    }
    if let Some(h) = var("HOME") {
        return h.join(".cache").join("mancala").join("tables");
    }
    PathBuf::from("mancala-tables")
}

/// The identity of the tables of `rules` on `holes` holes: game name, options, holes.
pub fn table_id<R: Rules>(rules: &R, holes: u8) -> TableId {
    TableId {
        game: R::KIND.name().to_string(),
        options: rules.option_names().into_iter().map(String::from).collect(),
        holes: holes as u32,
    }
}
