//! `play --interactive --engine-epsilon E --engine-temperature T --seed S`: the engine as a
//! calibrated opponent ([`mancala::calibrated`]), a perfect player weakened by a known amount,
//! its draws reproducible from the seed.

use super::think::Engine;
use anyhow::{anyhow, Result};
use clap::Args;
use mancala::board::Move;
use mancala::calibrated::{Calibrated, Calibration};
use mancala::rules::Rules;
use mancala::Position;

/// The calibration flags of interactive play.
#[derive(Args, Debug, Clone, Copy, Default)]
pub struct CalibrationArgs {
    /// With --interactive: the engine plays a uniformly random legal move with this
    /// probability (0 to 1), else its calibrated choice (default 0: never).
    #[arg(
        long,
        value_name = "P",
        default_value_t = 0.0,
        requires = "interactive"
    )]
    engine_epsilon: f64,
    /// With --interactive: the engine draws its moves from a softmax of their exact values at
    /// this temperature, in seeds (default 0: the best move).
    #[arg(
        long,
        value_name = "T",
        default_value_t = 0.0,
        requires = "interactive"
    )]
    engine_temperature: f64,
    /// With --interactive: the seed of the calibrated engine's draws (the same seed replays the
    /// same game).
    #[arg(long, default_value_t = 0, requires = "interactive")]
    seed: u64,
}

impl CalibrationArgs {
    /// The calibrated player, or `None` for the perfect one.
    pub(super) fn player(&self) -> Result<Option<Calibrated>> {
        let c = Calibration::new(self.engine_epsilon, self.engine_temperature)
            .map_err(|e| anyhow!("--engine-epsilon/--engine-temperature: {e}"))?;
        Ok((!c.is_perfect()).then(|| Calibrated::new(c, self.seed)))
    }
}

impl<R: Rules> Engine<R> {
    /// The calibrated engine's move in `p` and the value it leads to (final South minus North):
    /// every move valued exactly, then the calibrated choice, the first best move being the
    /// perfect one. `None` when Ctrl-C abandoned the valuing.
    pub(super) fn calibrated_move(
        &mut self,
        root: &Position<R>,
        p: &Position<R>,
    ) -> Result<Option<(Move, i32)>> {
        let Some(values) = self.analyze(root, p)? else {
            return Ok(None);
        };
        let sign = p.to_move().map_or(1, |s| s.sign());
        let best = values.iter().map(|v| sign * v.1).max();
        let perfect = values.iter().find(|v| Some(sign * v.1) == best);
        let (Some(player), Some(&(perfect, _))) = (self.calibrated.as_mut(), perfect) else {
            return Ok(None);
        };
        let mover: Vec<(Move, i32)> = values.iter().map(|&(m, v)| (m, sign * v)).collect();
        let (mv, _) = player.choose(&mover, perfect);
        Ok(values.into_iter().find(|v| v.0 == mv))
    }
}
