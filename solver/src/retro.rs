//! Retrograde analysis, layer by layer, over an indexable game (not written yet).
