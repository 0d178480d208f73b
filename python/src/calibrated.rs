//! `mancala.Calibrated`: the calibrated player of [`mancala::calibrated`] for Python, so that
//! `ExactBot(epsilon=..., temperature=..., seed=...)` draws exactly the moves the engine and
//! `play --engine-epsilon` draw from the same seed and values.

use crate::errors::value_error;
use mancala::calibrated::{Calibrated, Calibration, Pick};
use pyo3::prelude::*;
use std::sync::Mutex;

/// A perfect player weakened by a known amount: with probability `epsilon` a uniformly random
/// legal move, otherwise a draw from the softmax of the exact values at `temperature` (in
/// seeds; 0: the perfect move). Seeded: the same seed and values give the same moves.
#[pyclass(module = "mancala", name = "Calibrated")]
pub struct PyCalibrated {
    player: Mutex<Calibrated>,
}

/// `values` as the library takes them: `(move, value)` pairs in the given order.
fn pairs(values: Vec<(u32, i32)>) -> PyResult<Vec<(u32, i32)>> {
    if values.is_empty() {
        return Err(value_error("values: at least one move is needed"));
    }
    Ok(values)
}

#[pymethods]
impl PyCalibrated {
    #[new]
    #[pyo3(signature = (epsilon=0.0, temperature=0.0, seed=0))]
    fn new(epsilon: f64, temperature: f64, seed: u64) -> PyResult<Self> {
        let c = Calibration::new(epsilon, temperature).map_err(|e| value_error(e.to_string()))?;
        Ok(Self {
            player: Mutex::new(Calibrated::new(c, seed)),
        })
    }

    /// The probability of a uniformly random move.
    #[getter]
    fn epsilon(&self) -> f64 {
        self.lock().calibration().epsilon()
    }

    /// The softmax temperature in seeds (0: none).
    #[getter]
    fn temperature(&self) -> f64 {
        self.lock().calibration().temperature()
    }

    /// Picks a move among `values`, a list of `(move, value)` with every legal move's exact
    /// value **from the mover's side** (higher is better for the mover); `perfect` is the
    /// perfect player's move. Returns `(move, how)`, `how` one of `"perfect"`, `"random"`,
    /// `"softmax"`.
    fn choose(&self, values: Vec<(u32, i32)>, perfect: u32) -> PyResult<(u32, &'static str)> {
        let values = pairs(values)?;
        if !values.iter().any(|v| v.0 == perfect) {
            return Err(value_error(format!(
                "perfect: move {perfect} is not among the values' moves"
            )));
        }
        let (mv, pick) = self.lock().choose(&values, perfect);
        let how = match pick {
            Pick::Perfect => "perfect",
            Pick::Random => "random",
            Pick::Softmax => "softmax",
        };
        Ok((mv, how))
    }

    /// The probability of each move of `values` (as for `choose`), in their order.
    fn probabilities(&self, values: Vec<(u32, i32)>, perfect: u32) -> PyResult<Vec<f64>> {
        let values = pairs(values)?;
        Ok(self.lock().calibration().probabilities(&values, perfect))
    }

    fn __repr__(&self) -> String {
        let c = self.lock().calibration();
        format!(
            "Calibrated(epsilon={}, temperature={})",
            c.epsilon(),
            c.temperature()
        )
    }
}

impl PyCalibrated {
    fn lock(&self) -> std::sync::MutexGuard<'_, Calibrated> {
        self.player.lock().unwrap_or_else(|e| e.into_inner())
    }
}
