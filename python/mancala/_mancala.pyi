"""Type stubs of the Rust extension ``mancala._mancala`` (re-exported by ``mancala``)."""

import os
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

Move = Union[int, str]
"""A pit number (``3``), or the number with the side that makes it (``"S3"``, ``"N3"``)."""

TablesArg = Union[None, bool, str, "os.PathLike[str]", "Tables"]

GAMES: List[str]
__version__: str

class Position:
    """A position of one of the five games, immutable, hashable and picklable.

    ``Position(game, holes=None, seeds=None, options=())`` is the start; ``str(pos)`` is its
    notation (``4,4,4,4,4,4/4,4,4,4,4,4/0,0/S``), which ``Position.parse`` reads back.
    """

    def __init__(
        self,
        game: str,
        holes: Optional[int] = None,
        seeds: Optional[int] = None,
        options: Sequence[str] = (),
    ) -> None: ...
    @classmethod
    def parse(cls, game: str, text: str, options: Sequence[str] = ()) -> "Position":
        """Any position of ``game`` in the notation (pit marks ``x``/``5s`` in match rounds)."""
    def legal_moves(self) -> List[int]:
        """The legal moves of the side to move, increasing (empty when the game is over)."""
    def play(self, move: Move) -> "Position":
        """The position after ``move``; ``ValueError`` when it is illegal."""
    def children(self) -> List[Tuple[int, "Position"]]:
        """Each legal move with the position after it."""
    @property
    def to_move(self) -> Optional[str]:
        """``"S"``, ``"N"``, or ``None`` when the game is over."""
    @property
    def is_over(self) -> bool:
        """Whether the game is over."""
    @property
    def score(self) -> Tuple[int, int]:
        """The stores: ``(south, north)``."""
    @property
    def pits(self) -> Tuple[List[int], List[int]]:
        """The pit counts, ``(south_row, north_row)``, each in move order."""
    @property
    def statuses(self) -> List[str]:
        """Each pit's status (``"open"``, ``"burnt"``, ``"son"``), South's row then North's."""
    @property
    def holes(self) -> int:
        """Holes per row."""
    @property
    def seeds_on_board(self) -> int:
        """Seeds still on the board."""
    @property
    def game(self) -> str:
        """The game's name (``"kalah"``)."""
    @property
    def options(self) -> List[str]:
        """The rule options switched on."""
    @property
    def variant(self) -> str:
        """The game with its options, ``"kalah+empty-capture"``."""
    def diagram(self) -> str:
        """The position drawn as a player sees it."""
    def __hash__(self) -> int: ...
    def __eq__(self, other: object) -> bool: ...

class SolveResult:
    """What ``solve`` found."""

    position: str
    value: Optional[int]
    """Final South-minus-North score under perfect play (``None``: stopped before known)."""
    best: List[int]
    pv: List[str]
    nodes: int
    complete: bool
    bounds: Optional[Tuple[int, int]]
    """``(lower, upper)`` on the value when stopped by the time limit, else ``None``."""
    seconds: float
    threads: int
    tt_bytes: int

class Analysis:
    """What ``Analyzer.analyze`` found: every move's exact value, or bounds when stopped."""

    position: str
    values: Dict[int, int]
    """``{move: value}`` of the moves valued exactly (final South minus North)."""
    bounds: Dict[int, Tuple[int, int]]
    """``{move: (lower, upper)}`` of every move (equal when exact)."""
    value: Optional[int]
    value_bounds: Tuple[int, int]
    best: List[int]
    complete: bool
    source: str
    """``rules``, ``book``, ``memory``, ``tables`` or ``search``."""
    nodes: int
    seconds: float

class MoveValues(Dict[int, int]):
    """What ``mancala.analyze`` returns: ``{move: value}`` of the moves valued exactly (final
    South minus North), and what a stopped analysis proved of the others."""

    complete: bool
    """Whether every legal move is valued (``False``: the time limit stopped the analysis)."""
    bounds: Dict[int, Tuple[int, int]]
    """``{move: (lower, upper)}`` of every legal move (equal when exact)."""
    value_bounds: Tuple[int, int]
    """``(lower, upper)`` on the position's value."""
    best: List[int]
    """The moves proven best."""

class Answer:
    """What ``Analyzer.solve`` found."""

    position: str
    value: Optional[int]
    bounds: Tuple[int, int]
    best: List[int]
    pv: List[str]
    complete: bool
    source: str
    nodes: int
    seconds: float

class Analyzer:
    """Holds the endgame tables, a transposition table and the memory of proven positions
    across calls; answers from the book, the memory, the tables, then the search."""

    def __init__(
        self,
        threads: Optional[int] = None,
        hash_mb: Optional[int] = None,
        tables: TablesArg = None,
        memory: Union[None, bool, str, "os.PathLike[str]"] = None,
        book: bool = True,
    ) -> None: ...
    def analyze(self, pos: Position, time_limit: Optional[float] = None) -> Analysis: ...
    def analyze_many(
        self, positions: Sequence[Position], time_limit: Optional[float] = None
    ) -> List[Analysis]: ...
    def solve(self, pos: Position, time_limit: Optional[float] = None) -> Answer: ...

def solve(
    pos: Position,
    threads: Optional[int] = None,
    hash_mb: Optional[int] = None,
    tables: TablesArg = None,
    time_limit: Optional[float] = None,
) -> SolveResult:
    """The exact value, best moves and a principal variation of ``pos`` (GIL released)."""

def analyze(
    pos: Position,
    threads: Optional[int] = None,
    hash_mb: Optional[int] = None,
    tables: TablesArg = None,
    time_limit: Optional[float] = None,
) -> MoveValues:
    """Every legal move's exact value; when the time limit runs out, the moves valued by then,
    with ``complete=False`` and every move's proven ``bounds``."""

def perfect_move(
    pos: Position,
    threads: Optional[int] = None,
    hash_mb: Optional[int] = None,
    tables: TablesArg = None,
    time_limit: Optional[float] = None,
) -> Tuple[int, int, str]:
    """``(move, value, reason)``: the first best move, or on a cycle of best play the favoured
    player's first best move towards leaving it (docs/rules.md §13.5)."""

class Tables:
    """A directory of endgame tables (default: the CLI's default directory)."""

    def __init__(self, dir: Union[None, str, "os.PathLike[str]"] = None) -> None: ...
    @property
    def dir(self) -> str: ...
    def probe(self, pos: Position) -> Optional[int]:
        """The exact final value of ``pos`` from the tables, or ``None`` when not held."""

def build_tables(
    game: str,
    holes: int,
    max_seeds: int,
    dir: Union[None, str, "os.PathLike[str]"] = None,
    options: Sequence[str] = (),
    progress: Optional[Callable[[Dict[str, Any]], Any]] = None,
    threads: Optional[int] = None,
) -> Tables:
    """Builds (or resumes) the tables of layers 0..=max_seeds; ``progress`` gets each layer."""

class Match:
    """A multi-round match of Dakon, Walak-pussa or San-Yao (docs/rules.md §13)."""

    def __init__(
        self,
        game: str,
        holes: Optional[int] = None,
        seeds: Optional[int] = None,
        options: Sequence[str] = (),
        position: Optional[str] = None,
        fill_from_move_1: bool = False,
    ) -> None: ...
    def play(self, move: Move) -> None:
        """Plays ``move`` in the current round; a finished round sets up the next."""
    @property
    def position(self) -> Position: ...
    @property
    def round_setup(self) -> str:
        """The current round's start in the notation, with pit marks."""
    @property
    def round(self) -> int: ...
    @property
    def rounds(self) -> List[Dict[str, Any]]:
        """Each round: ``starter``, ``start``, ``moves``, ``end``, ``score``."""
    @property
    def is_over(self) -> bool: ...
    @property
    def winner(self) -> Optional[str]: ...

def game_info(game: str, holes: Optional[int] = None) -> Dict[str, Any]:
    """A game's board sizes, seeds, rule options and whether its play can cycle."""

class MoveReview:
    """One move of a game graded against perfect play (``review``). Values are final
    South-minus-North scores, ``loss`` is in seeds from the mover's side; where the time limit
    stopped a search the exact field is ``None`` and its ``*_bounds`` pair bounds it."""

    ply: int
    """The move's number in the game, from 1."""
    side: str
    """``"S"`` or ``"N"``: the side that moved."""
    position: Position
    """The position the move was played in."""
    move: int
    value: Optional[int]
    """The move's value: the final value of the position after it."""
    value_bounds: Tuple[int, int]
    best_value: Optional[int]
    """The best value: the final value of ``position``."""
    best_bounds: Tuple[int, int]
    best: List[int]
    """Every best move when ``best_complete``; else the move played (known best) or none."""
    best_complete: bool
    loss: Optional[int]
    """Seeds lost by the mover: best minus played, from the mover's side (0: a best move)."""
    loss_bounds: Tuple[int, int]
    grade: Optional[str]
    """``"best"``, ``"inaccuracy"``, ``"mistake"`` or ``"blunder"``; ``None`` when open."""

def review(
    pos: Position,
    moves: Union[str, Sequence[Move]],
    threads: Optional[int] = None,
    hash_mb: Optional[int] = None,
    tables: TablesArg = None,
    time_limit: Optional[float] = None,
    mistake: int = 2,
    blunder: int = 6,
    all_best: bool = False,
) -> List[MoveReview]:
    """Grades the game from ``pos`` through ``moves`` against perfect play, one record per move
    (one search for the whole game; ``time_limit`` per search leaves bounds, never guesses)."""

class Calibrated:
    """A perfect player weakened by a known amount: with probability ``epsilon`` a uniformly
    random legal move, otherwise a draw from the softmax of the exact values at ``temperature``
    (in seeds; 0: the perfect move). Seeded: the same seed and values give the same moves."""

    def __init__(self, epsilon: float = 0.0, temperature: float = 0.0, seed: int = 0) -> None: ...
    @property
    def epsilon(self) -> float:
        """The probability of a uniformly random move."""
    @property
    def temperature(self) -> float:
        """The softmax temperature in seeds (0: none)."""
    def choose(self, values: Sequence[Tuple[int, int]], perfect: int) -> Tuple[int, str]:
        """Picks a move among ``(move, value)`` pairs valued from the mover's side;
        ``perfect`` is the perfect player's move. Returns ``(move, how)``, ``how`` one of
        ``"perfect"``, ``"random"``, ``"softmax"``."""
    def probabilities(self, values: Sequence[Tuple[int, int]], perfect: int) -> List[float]:
        """The probability of each move of ``values``, in their order."""
