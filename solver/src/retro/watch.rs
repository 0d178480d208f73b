//! What a layer's solve tells its caller while it runs, and how the caller stops it: a
//! [`LayerWatch`], looked at between chunks of a few thousand slots.
//!
//! A stop is a value, not an unwinding: the solve stops starting chunks, lets the running ones
//! finish, and returns [`LayerError::Stopped`]. The half-solved values are dropped with it, so
//! nothing the caller could write (a table file) ever holds them.

use std::fmt;

use crate::stop::Stop;

use crate::memory::AllocError;

/// The caller's side of a running layer solve.
pub trait LayerWatch: Sync {
    /// `slots` more slots are done. Called from worker threads, once per chunk: keep it cheap.
    fn advance(&self, slots: u64);

    /// Whether the caller wants the solve abandoned. Called from worker threads before each
    /// chunk and between passes and stages.
    fn stopped(&self) -> bool {
        false
    }
}

/// A progress callback alone: a solve it watches never stops.
impl<F: Fn(u64) + Sync> LayerWatch for F {
    fn advance(&self, slots: u64) {
        self(slots)
    }
}

/// A progress callback (optional) and a stop: the watch of a build that can be cancelled.
pub struct Stoppable<'a> {
    /// Told of the slots done, when given.
    pub progress: Option<&'a (dyn Fn(u64) + Sync)>,
    /// Raised by the caller to stop the solve.
    pub stop: Stop<'a>,
}

impl LayerWatch for Stoppable<'_> {
    fn advance(&self, slots: u64) {
        if let Some(p) = self.progress {
            p(slots);
        }
    }

    fn stopped(&self) -> bool {
        self.stop.is_raised()
    }
}

/// Why a layer has no values.
#[derive(Debug)]
pub enum LayerError {
    /// Its arrays could not be allocated.
    Alloc(AllocError),
    /// Its watch asked it to stop.
    Stopped,
}

impl From<AllocError> for LayerError {
    fn from(e: AllocError) -> Self {
        LayerError::Alloc(e)
    }
}

impl fmt::Display for LayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LayerError::Alloc(e) => e.fmt(f),
            LayerError::Stopped => f.write_str("the layer's solve was stopped"),
        }
    }
}

impl std::error::Error for LayerError {}

/// Whether `watch` asks to stop.
#[inline]
pub(super) fn stopped(watch: Option<&dyn LayerWatch>) -> bool {
    watch.is_some_and(|w| w.stopped())
}

/// Tells `watch` that `slots` more slots are done.
#[inline]
pub(super) fn advance(watch: Option<&dyn LayerWatch>, slots: u64) {
    if let Some(w) = watch {
        w.advance(slots);
    }
}

/// The end of a solve: its values, unless its watch asked it to stop on the way (then some slots
/// may never have been solved).
pub(super) fn finished<T>(watch: Option<&dyn LayerWatch>, values: T) -> Result<T, LayerError> {
    if stopped(watch) {
        Err(LayerError::Stopped)
    } else {
        Ok(values)
    }
}
