//! The progress bar of a table build or verification: one bar per layer on stderr, drawn by the
//! binaries (the `tables` crate only reports progress, through [`tables::Progress`]), both the same way.

use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Draws a bar per layer on stderr when shown, nothing otherwise.
pub struct LayerBars {
    show: bool,
    /// The current layer's bar. A lock per report is cheap: the workers report every few
    /// thousand entries.
    bar: Mutex<Option<ProgressBar>>,
}

impl LayerBars {
    /// Bars on stderr if `show`, else silence.
    pub fn new(show: bool) -> Self {
        Self {
            show,
            bar: Mutex::new(None),
        }
    }
}

impl tables::Progress for LayerBars {
    fn start(&self, layer: u32, entries: u64) {
        if !self.show {
            return;
        }
        let bar = ProgressBar::with_draw_target(Some(entries), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template(
                "layer {prefix:>3} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} ({per_sec}, ETA {eta})",
            )
            .expect("a valid template"),
        );
        bar.set_prefix(layer.to_string());
        *self.bar.lock().unwrap_or_else(|e| e.into_inner()) = Some(bar);
    }

    fn advance(&self, entries: u64) {
        if let Some(bar) = &*self.bar.lock().unwrap_or_else(|e| e.into_inner()) {
            bar.inc(entries);
        }
    }

    fn finish(&self) {
        if let Some(bar) = self.bar.lock().unwrap_or_else(|e| e.into_inner()).take() {
            bar.finish_and_clear();
        }
    }
}
