//! `mancala._mancala`: the Python extension. It only converts types and calls the `mancala`
//! library the way the CLI does; the Python package `mancala` (python/mancala/) re-exports it
//! and adds the OpenSpiel games. See docs/python.md.

mod analyzer;
mod any;
mod calibrated;
mod errors;
mod info;
mod matches;
mod position;
mod review;
mod search;
mod settings;
mod tables;
mod watch;

use pyo3::prelude::*;

/// Rules, exact values and endgame tables of five two-row mancala games (the Rust engine).
#[pymodule]
fn _mancala(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<position::PyPosition>()?;
    m.add_class::<search::SolveResult>()?;
    m.add_class::<analyzer::PyAnalyzer>()?;
    m.add_class::<analyzer::PyAnalysis>()?;
    m.add_class::<analyzer::PyAnswer>()?;
    m.add_class::<tables::PyTables>()?;
    m.add_class::<matches::PyMatch>()?;
    m.add_class::<calibrated::PyCalibrated>()?;
    m.add_function(wrap_pyfunction!(search::solve, m)?)?;
    m.add_function(wrap_pyfunction!(search::analyze, m)?)?;
    m.add("MoveValues", search::move_values_type(m.py())?)?;
    m.add_function(wrap_pyfunction!(search::perfect_move, m)?)?;
    m.add_class::<review::PyMoveReview>()?;
    m.add_function(wrap_pyfunction!(review::review, m)?)?;
    m.add_function(wrap_pyfunction!(tables::build_tables, m)?)?;
    m.add_function(wrap_pyfunction!(info::game_info, m)?)?;
    let games: Vec<&str> = mancala::rules::GameKind::ALL
        .iter()
        .map(|g| g.name())
        .collect();
    m.add("GAMES", games)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
