//! What a stopped search leaves: [`Bounds`] on a value, and the [`Limit`] that stops it.

use std::fmt;
use std::time::Duration;

/// Proven bounds `lower ..= upper` on a number (a final value, or a loss in seeds); exact when
/// they meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bounds {
    /// The least the number can be.
    pub lower: i32,
    /// The most the number can be.
    pub upper: i32,
}

impl Bounds {
    /// Bounds `a ..= b` in either order.
    pub fn new(a: i32, b: i32) -> Self {
        Self {
            lower: a.min(b),
            upper: a.max(b),
        }
    }

    /// The exact number `v`.
    pub fn exact(v: i32) -> Self {
        Self { lower: v, upper: v }
    }

    /// The number, when the bounds meet.
    pub fn exact_value(self) -> Option<i32> {
        (self.lower == self.upper).then_some(self.lower)
    }

    /// Whether `v` lies within the bounds.
    pub fn contains(self, v: i32) -> bool {
        self.lower <= v && v <= self.upper
    }
}

impl fmt::Display for Bounds {
    /// `+3` when exact, `[+1, +5]` otherwise (signed, as values are printed).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.exact_value() {
            Some(v) => write!(f, "{v:+}"),
            None => write!(f, "[{:+}, {:+}]", self.lower, self.upper),
        }
    }
}

/// How long one search may run before it answers with the bounds proven so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limit(Option<Duration>);

impl Limit {
    /// No limit: every answer is exact.
    pub const NONE: Limit = Limit(None);

    /// At most `d` per search.
    pub fn after(d: Duration) -> Self {
        Limit(Some(d))
    }

    /// At most `seconds` per search (`None` or a negative or non-finite number: no limit).
    pub fn seconds(seconds: Option<f64>) -> Self {
        Limit(seconds.and_then(|s| Duration::try_from_secs_f64(s).ok()))
    }

    /// The duration, when limited.
    pub fn duration(self) -> Option<Duration> {
        self.0
    }
}
