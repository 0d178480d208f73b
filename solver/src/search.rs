//! Alpha-beta search with MTD(f) at the root (not written yet).
