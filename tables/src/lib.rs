//! Endgame tables for the mancala games: the file format, build orchestration and probing.
//!
//! Not written yet. Its role: store, for one game, its options and board size, the exact future
//! value of every position with `k` seeds on the board (one file per layer `k`), computed by the
//! retrograde analysis of the `solver` crate; verify files by checksum and by re-deriving entries;
//! and answer probes from the search.
