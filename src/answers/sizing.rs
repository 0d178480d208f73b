//! The transposition table's size for a search: the one rule the command line, the server and
//! the Python package share, so that a small position gets a small table everywhere.
//!
//! A table starts at [`START_BYTES`] (or the size asked for) and the search grows it fourfold
//! whenever a job outgrows it ([`solver::search::GROW_AFTER`]), up to a cap: [`MAX_BYTES`] and
//! at most half the memory available. Neither size goes past what the position can use: 16
//! bytes a position below its key bound ([`solver::Game::key_bound`]).

/// Where a growing table starts, in bytes: small boards never need more (Kalah(4,3) searches
/// 51 k nodes), and a table is faulted in as it is touched.
pub const START_BYTES: u64 = 8 << 20;

/// The most a growing table grows to, in bytes (and at most half the memory available).
pub const MAX_BYTES: u64 = 4096 << 20;

/// MemAvailable from /proc/meminfo, in bytes, when the system says.
pub fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// The transposition table's size: fixed, or growing from [`START_BYTES`] up to a cap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableSize {
    /// The fixed size in bytes, when one was asked for.
    fixed: Option<u64>,
    /// The growing table's largest size in bytes.
    cap: u64,
}

impl TableSize {
    /// A table that grows with the search, up to [`MAX_BYTES`] and half the available memory.
    pub fn growing() -> Self {
        let cap = available_memory().map_or(MAX_BYTES, |a| (a / 2).min(MAX_BYTES));
        Self {
            fixed: None,
            cap: cap.max(START_BYTES),
        }
    }

    /// A table of `bytes` that keeps its size.
    pub fn fixed(bytes: u64) -> Self {
        Self {
            fixed: Some(bytes),
            cap: bytes,
        }
    }

    /// The table's first size for a search from `root`.
    pub fn first_bytes<G: solver::Game>(&self, root: &G) -> usize {
        let start = self.fixed.unwrap_or(START_BYTES);
        usize::try_from(u128::from(start).min(useful_bytes(root))).unwrap_or(usize::MAX)
    }

    /// The largest the table may grow to for a search from `root` (no more than
    /// [`TableSize::first_bytes`] when the size is fixed).
    pub fn max_bytes<G: solver::Game>(&self, root: &G) -> usize {
        usize::try_from(u128::from(self.cap).min(useful_bytes(root))).unwrap_or(usize::MAX)
    }
}

/// The most entries a search from `root` could use, in bytes: 16 bytes a position below its
/// key bound, at least 1 MiB. A table with more slots than there are positions is wasted.
fn useful_bytes<G: solver::Game>(root: &G) -> u128 {
    root.key_bound().saturating_mul(16).max(1 << 20)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Kalah;
    use crate::Position;

    #[test]
    fn a_small_board_gets_a_small_table() {
        let small = Position::start(Kalah::default(), 4, 3).unwrap();
        let size = TableSize::growing();
        // Kalah(4,3): C(24 + 8, 8) keys, about 10.5 M: 16 bytes each is well under the start.
        assert_eq!(size.first_bytes(&small), START_BYTES as usize);
        assert!(size.max_bytes(&small) <= (small_bound(&small) * 16).max(1 << 20) as usize);
        let fixed = TableSize::fixed(1 << 20);
        assert_eq!(fixed.first_bytes(&small), 1 << 20);
        assert_eq!(fixed.max_bytes(&small), 1 << 20);
    }

    fn small_bound(p: &Position<Kalah>) -> u128 {
        solver::Game::key_bound(p)
    }
}
