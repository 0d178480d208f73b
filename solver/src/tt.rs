//! The exact lock-free transposition table (not written yet).
