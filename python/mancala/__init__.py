"""Exact values, endgame tables and OpenSpiel games for five two-row mancala games.

Kalah, Dakon, Djenon-aboure, Walak-pussa and San-Yao, with the rules of the ``mancala``
engine (docs/rules.md). The engine is Rust (``mancala._mancala``); this package re-exports it::

    >>> import mancala
    >>> pos = mancala.Position("kalah", holes=4, seeds=3)
    >>> mancala.solve(pos).value
    6
    >>> pos.play(3).to_move        # the last seed in the store: South moves again
    'S'

``mancala.openspiel`` makes the five games OpenSpiel games (it needs ``open_spiel``).
"""

from ._mancala import (
    GAMES,
    Analysis,
    Analyzer,
    Answer,
    Calibrated,
    Match,
    MoveReview,
    MoveValues,
    Position,
    SolveResult,
    Tables,
    __version__,
    analyze,
    build_tables,
    game_info,
    perfect_move,
    review,
    solve,
)

__all__ = [
    "GAMES",
    "Analysis",
    "Analyzer",
    "Answer",
    "Calibrated",
    "Match",
    "MoveReview",
    "MoveValues",
    "Position",
    "SolveResult",
    "Tables",
    "__version__",
    "analyze",
    "build_tables",
    "game_info",
    "perfect_move",
    "review",
    "solve",
]
