//! `mancala.game_info`: what each game allows (board sizes, seeds, rule options), from the
//! games' own declarations, so that Python front ends (the OpenSpiel games) never restate them.

use crate::errors::value_error;
use mancala::rules::{GameKind, Rules};
use mancala::variant::Variant;
use pyo3::prelude::*;
use pyo3::types::PyDict;

fn can_cycle<R: Rules>(_: &R) -> bool {
    R::CAN_CYCLE
}

/// A dict about `game` on `holes` holes (its default board when `None`): `name`, `title`,
/// `holes`, `holes_range`, `seeds` (the default), `seeds_range`, `options` (each rule option's
/// name and help) and `can_cycle` (whether play can repeat a position, docs/rules.md §2.10).
#[pyfunction]
#[pyo3(signature = (game, holes=None))]
pub fn game_info<'py>(
    py: Python<'py>,
    game: &str,
    holes: Option<i64>,
) -> PyResult<Bound<'py, PyDict>> {
    let kind: GameKind = game
        .trim()
        .parse()
        .map_err(|e| value_error(format!("game: {e}")))?;
    // Checked before anything is computed from it: 0 holes divided by zero (a panic Python's
    // `except Exception` does not catch), and a size out of range had seed ranges invented.
    let holes = match holes {
        None => kind.default_holes(),
        Some(h) => match u32::try_from(h) {
            Ok(h) => kind
                .check_holes(h)
                .map_err(|e| value_error(format!("holes: {e}")))?,
            Err(_) => {
                let (min, max) = kind.holes_range();
                return Err(value_error(format!(
                    "holes: {h} is not a board size ({} takes {min} to {max} holes per row)",
                    kind.title()
                )));
            }
        },
    };
    let d = PyDict::new(py);
    d.set_item("name", kind.name())?;
    d.set_item("title", kind.title())?;
    d.set_item("holes", holes)?;
    d.set_item("holes_range", kind.holes_range())?;
    d.set_item("seeds", kind.default_seeds(holes))?;
    d.set_item("seeds_range", kind.seeds_range(holes))?;
    let options: Vec<(&str, &str)> = kind.options().iter().map(|o| (o.name, o.help)).collect();
    d.set_item("options", options)?;
    d.set_item(
        "can_cycle",
        mancala::with_rules!(Variant::standard(kind), r => can_cycle(&r)),
    )?;
    d.set_item("has_stores", kind.has_stores())?;
    Ok(d)
}
