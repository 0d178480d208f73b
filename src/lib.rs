//! mancala: rules engine (in progress).
