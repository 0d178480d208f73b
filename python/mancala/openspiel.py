"""The five games as OpenSpiel games, an exact-play bot, and OpenSpiel's own Kalah.

``register()`` registers ``mancala_kalah``, ``mancala_dakon``, ``mancala_djenon_aboure``,
``mancala_walak_pussa`` and ``mancala_san_yao`` as OpenSpiel (Python) games::

    import pyspiel
    from mancala import openspiel
    openspiel.register()
    game = pyspiel.load_game("mancala_dakon(holes=5,seeds=5)")

Game parameters: ``holes`` and ``seeds`` (the game's standard board by default), one boolean per
rule option (``empty_capture``, ...: the CLI's flag names with ``_`` for ``-``), ``returns``
(``"margin"``: the final South-minus-North margin for player 0, its negation for player 1;
``"win"``: +1/-1/0), and ``position`` (a start position in the notation; ``""``: the standard
start). Player 0 is South, player 1 North; action ``a`` sows pit ``a + 1`` of the mover's row.

Positions can repeat in Djenon-aboure, Walak-pussa and San-Yao (docs/rules.md §2.10). OpenSpiel
needs every game to end, so there a play ends when a position recurs, scored as the rules score
endless play: the stores stand and the seeds on the board belong to nobody. Play along optimal
strategies that depend on the position only is a path then a cycle that earns nothing, so exact
play still reaches the solved value.

``from_openspiel`` / ``to_openspiel`` convert to and from OpenSpiel's built-in ``mancala`` (Kalah
on 6 x 4). ``ExactBot`` is a ``pyspiel.Bot`` that plays the first best move by exact search.
"""

from __future__ import annotations

from typing import Any, Dict, Iterable, List, Optional, Sequence

import numpy as np
import pyspiel

from ._mancala import Calibrated, Position, analyze, game_info, perfect_move
from ._mancala import review as _review

__all__ = [
    "GAME_NAMES",
    "MancalaGame",
    "MancalaState",
    "ExactBot",
    "register",
    "from_openspiel",
    "to_openspiel",
    "openspiel_action",
    "game_moves",
    "review",
]

#: The registered short names, by our game name.
GAME_NAMES: Dict[str, str] = {
    "kalah": "mancala_kalah",
    "dakon": "mancala_dakon",
    "djenon-aboure": "mancala_djenon_aboure",
    "walak-pussa": "mancala_walak_pussa",
    "san-yao": "mancala_san_yao",
}

#: Moves after which any play ends as endless play (stores stand): OpenSpiel needs a bound on
#: a game's length, and no finite bound holds for the cyclic games' plays on its own. No
#: terminating play of the board sizes OpenSpiel users run comes near it.
MAX_GAME_LENGTH = 10_000


def _param_name(option: str) -> str:
    return option.replace("-", "_")


def _game_type(game: str) -> "pyspiel.GameType":
    info = game_info(game)
    params: Dict[str, Any] = {
        "holes": int(info["holes"]),
        "seeds": int(info["seeds"]),
        "returns": "margin",
        "position": "",
    }
    for name, _help in info["options"]:
        params[_param_name(name)] = False
    return pyspiel.GameType(
        short_name=GAME_NAMES[game],
        long_name=f"{info['title']} (mancala engine)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


class MancalaGame(pyspiel.Game):
    """One of the five games on one board, with its rule options, as an OpenSpiel game."""

    game_name = "kalah"

    def __init__(self, params: Optional[Dict[str, Any]] = None):
        game = self.game_name
        game_type = _game_type(game)
        merged = dict(game_type.parameter_specification)
        merged.update(params or {})
        unknown = set(merged) - set(game_type.parameter_specification)
        if unknown:
            raise ValueError(f"unknown parameter(s) of {game_type.short_name}: {sorted(unknown)}")
        info = game_info(game)
        options = [name for name, _ in info["options"] if merged[_param_name(name)]]
        if merged["returns"] not in ("margin", "win"):
            raise ValueError(f"returns must be 'margin' or 'win', not {merged['returns']!r}")
        if merged["position"]:
            start = Position.parse(game, merged["position"], options=options)
        else:
            start = Position(game, holes=int(merged["holes"]), seeds=int(merged["seeds"]), options=options)
        self.start = start
        self.holes = start.holes
        self.win_returns = merged["returns"] == "win"
        self.can_cycle = bool(info["can_cycle"])
        total = start.seeds_on_board + sum(start.score)
        bound = 1.0 if self.win_returns else float(total)
        game_info_ = pyspiel.GameInfo(
            num_distinct_actions=self.holes,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(game_type, game_info_, merged)

    def new_initial_state(self, position: Optional[Position] = None) -> "MancalaState":
        """The start, or the state at ``position`` (a position of this game and board)."""
        return MancalaState(self, position or self.start)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observer: pit counts, stores, side to move and pit statuses (see ``Observer``)."""
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return Observer(self.holes, params)
        from open_spiel.python.observation import IIGObserverForPublicInfoGame

        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class MancalaState(pyspiel.State):
    """A state: a ``mancala.Position`` (the rules stay in Rust), plus the positions met since
    the last seed left the board in a cyclic game (to end a play that repeats one)."""

    def __init__(self, game: MancalaGame, position: Position):
        super().__init__(game)
        if position.holes != game.holes or position.variant != game.start.variant:
            raise ValueError(f"{position!r} is not a position of {game}")
        # Plain values, not the game: OpenSpiel clones a Python state by deepcopy, and a copied
        # game object would lose its Python attributes.
        self._win_returns = game.win_returns
        self._seen = {position} if game.can_cycle else None
        self._moves = 0
        self._set(position, repeated=False)

    def _set(self, position: Position, repeated: bool) -> None:
        # Every question OpenSpiel asks between moves is answered from these fields: each call
        # into a Python game crosses pybind11 both ways, so the answers are computed once a move.
        self.position = position
        self._terminal = position.is_over or repeated or self._moves >= MAX_GAME_LENGTH
        side = position.to_move
        self._player = pyspiel.PlayerId.TERMINAL if self._terminal else (0 if side == "S" else 1)

    def current_player(self) -> int:
        return self._player

    def _legal_actions(self, player: int) -> List[int]:
        if self._terminal:
            return []
        return [m - 1 for m in self.position.legal_moves()]

    def _apply_action(self, action: int) -> None:
        self._moves += 1
        before = self.position
        after = before.play(action + 1)
        repeated = False
        if self._seen is not None:
            if after.seeds_on_board != before.seeds_on_board:
                # Seeds only leave the board, so no earlier position can recur.
                self._seen = set()
            repeated = after in self._seen
            self._seen.add(after)
        self._set(after, repeated)

    def _action_to_string(self, player: int, action: int) -> str:
        return f"{'SN'[player]}{action + 1}"

    def is_terminal(self) -> bool:
        return self._terminal

    def margin(self) -> int:
        """South's store minus North's: the final margin once the game is over."""
        south, north = self.position.score
        return south - north

    def returns(self) -> List[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        m = float(self.margin())
        if self._win_returns:
            m = float(np.sign(m))
        return [m, -m]

    def __str__(self) -> str:
        return str(self.position)


class Observer:
    """OpenSpiel observer: one float tensor with the views ``side`` (one-hot: South, North;
    zeros when over), ``pits`` (2 x holes: South's row then North's, in move order),
    ``stores`` (South, North), ``burnt`` and ``sons`` (2 x holes, 1 where a pit has that status)."""

    def __init__(self, holes: int, params: Optional[Dict[str, Any]] = None):
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        shapes = [
            ("side", (2,)),
            ("pits", (2, holes)),
            ("stores", (2,)),
            ("burnt", (2, holes)),
            ("sons", (2, holes)),
        ]
        size = sum(int(np.prod(s)) for _, s in shapes)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {}
        at = 0
        for name, shape in shapes:
            n = int(np.prod(shape))
            self.dict[name] = self.tensor[at : at + n].reshape(shape)
            at += n

    def set_from(self, state: MancalaState, player: int) -> None:
        del player  # perfect information: every player sees the same
        p = state.position
        self.tensor.fill(0)
        if not state.is_terminal():
            self.dict["side"][0 if p.to_move == "S" else 1] = 1
        south, north = p.pits
        self.dict["pits"][0, :] = south
        self.dict["pits"][1, :] = north
        self.dict["stores"][:] = p.score
        statuses = np.array(p.statuses).reshape(2, -1)
        self.dict["burnt"][:] = statuses == "burnt"
        self.dict["sons"][:] = statuses == "son"

    def string_from(self, state: MancalaState, player: int) -> str:
        del player
        return str(state.position)


def _game_class(game: str) -> type:
    name = "".join(w.capitalize() for w in game.split("-")) + "Game"
    return type(name, (MancalaGame,), {"game_name": game, "__doc__": f"{game} as an OpenSpiel game."})


_registered = False


def register() -> None:
    """Registers the five games with OpenSpiel (once; later calls do nothing)."""
    global _registered
    if _registered:
        return
    for game in GAME_NAMES:
        pyspiel.register_game(_game_type(game), _game_class(game))
    _registered = True


# OpenSpiel's own `mancala` (Kalah, 6 holes, 4 seeds) keeps a 14-pit board: index 0 is player
# 1's store, 1..6 player 0's pits in sowing order, 7 player 0's store, 8..13 player 1's pits.
_OS_HOLES = 6


def _os_board(state) -> List[int]:
    return [int(x) for x in state.observation_tensor(0)[:14]]


def from_openspiel(state) -> Position:
    """The position of an OpenSpiel state: one of our games' states, or a state of OpenSpiel's
    built-in ``mancala`` (as our Kalah 6 x 4; OpenSpiel leaves the last seeds in the pits at
    the end and counts them to their owner, which our notation writes into the stores)."""
    if isinstance(state, MancalaState):
        return state.position
    if state.get_game().get_type().short_name != "mancala":
        raise ValueError(f"not a state of OpenSpiel's mancala: {state.get_game()}")
    b = _os_board(state)
    south, north = b[1:7], b[8:14]
    stores = [b[7], b[0]]
    if state.is_terminal():
        stores = [stores[0] + sum(south), stores[1] + sum(north)]
        south, north, side = [0] * 6, [0] * 6, "-"
    else:
        side = "S" if state.current_player() == 0 else "N"
    text = f"{','.join(map(str, south))}/{','.join(map(str, north))}/{stores[0]},{stores[1]}/{side}"
    return Position.parse("kalah", text)


def openspiel_action(pos: Position, move: int) -> int:
    """OpenSpiel ``mancala``'s action for ``move`` (pit 1..6 of the side to move) in ``pos``."""
    if pos.to_move is None:
        raise ValueError(f"the game is over in {pos}: no move")
    return move if pos.to_move == "S" else move + _OS_HOLES + 1


def to_openspiel(pos: Position, moves: Optional[Iterable[Any]] = None):
    """A state of OpenSpiel's ``mancala`` at ``pos`` (standard Kalah 6 x 4).

    OpenSpiel's ``mancala`` cannot be set up at a given board (it implements neither
    ``NewInitialState`` from a state nor ``ToStruct``), so the state is reached by playing
    ``moves`` from the start; ``pos`` must be where they lead (checked). Without ``moves``,
    ``pos`` must be the start. For any position, ``MancalaGame.new_initial_state(pos)`` of the
    registered ``mancala_kalah`` gives a state of our Kalah instead.
    """
    if pos.variant != "kalah" or pos.holes != _OS_HOLES:
        raise ValueError(f"OpenSpiel's mancala is standard Kalah on 6 holes, not {pos.variant} on {pos.holes}")
    game = pyspiel.load_game("mancala")
    state = game.new_initial_state()
    at = Position("kalah", holes=_OS_HOLES, seeds=4)
    for m in moves or ():
        nxt = at.play(m)
        pit = int(str(m).lstrip("SNsn"))
        state.apply_action(openspiel_action(at, pit))
        at = nxt
    if at != pos:
        raise ValueError(
            f"the moves lead to {at}, not to {pos}: OpenSpiel's mancala can only be reached by play from the start"
        )
    return state


class ExactBot(pyspiel.Bot):
    """A ``pyspiel.Bot`` that plays from exact values: perfect play by default, or a calibrated
    opponent, a perfect player weakened by a known amount, to measure agents against a ladder of
    strengths. Works on the registered games and on OpenSpiel's ``mancala``.

    Perfect play (``epsilon=0``, ``temperature=0``) is the first best move; on a cycle of best
    play (Walak-pussa, San-Yao) the player the value favours takes the first best move towards
    leaving it (docs/rules.md §13.5, ``mancala.perfect_move``): the plain first best move could
    go round the cycle for ever and never collect the value.

    ``epsilon``: the probability of a uniformly random legal move instead. ``temperature``: in
    seeds; when above 0 the bot draws its moves from a softmax of their exact values
    (``exp(value / temperature)``, values from the mover's side) instead of the perfect move.
    ``seed``: the seed of the draws; one bot's moves over its games replay from the same seed
    (``mancala.Calibrated``, the engine's own generator: the CLI's ``play --engine-epsilon``
    and the engine protocol draw the same moves from the same seed and values).

    ``threads``, ``hash_mb`` and ``tables`` are ``mancala.solve``'s, ``time_limit`` (seconds)
    bounds each ``move_values`` search; the best move and the move values of each position met
    are remembered, so replaying the same positions costs no search.
    """

    def __init__(
        self,
        game=None,
        threads: Optional[int] = 1,
        hash_mb: Optional[int] = None,
        tables=None,
        epsilon: float = 0.0,
        temperature: float = 0.0,
        seed: int = 0,
        time_limit: Optional[float] = None,
    ):
        pyspiel.Bot.__init__(self)
        self._game = game
        self._threads = threads
        self._hash_mb = hash_mb
        self._tables = tables
        self._time_limit = time_limit
        # Checked here, so a bad ladder rung fails at once with the argument's name.
        self._player = Calibrated(epsilon=epsilon, temperature=temperature, seed=seed)
        self._perfect = epsilon == 0.0 and temperature == 0.0
        self._best: Dict[Position, int] = {}
        self._values: Dict[Position, Dict[int, int]] = {}

    def best_move(self, pos: Position) -> int:
        """The move perfect play makes in ``pos`` (a pit number): ``mancala.perfect_move``."""
        move = self._best.get(pos)
        if move is None:
            move, _value, _reason = perfect_move(
                pos, threads=self._threads, hash_mb=self._hash_mb, tables=self._tables
            )
            self._best[pos] = move
        return move

    def position_values(self, pos: Position) -> Dict[int, int]:
        """Every legal move of ``pos`` (pit numbers) with its exact value, the final
        South-minus-North score perfect play reaches after it. Raises ``TimeoutError`` when
        ``time_limit`` stops the search first."""
        values = self._values.get(pos)
        if values is None:
            values = analyze(
                pos,
                threads=self._threads,
                hash_mb=self._hash_mb,
                tables=self._tables,
                time_limit=self._time_limit,
            )
            if not values.complete:
                # A stopped analysis values some moves only: the bot needs them all.
                raise TimeoutError(
                    f"the analysis of {pos} was stopped by the time limit of "
                    f"{self._time_limit} s: {len(values)} of {len(values.bounds)} moves valued"
                )
            self._values[pos] = values
        return values

    def move_values(self, state) -> Dict[int, int]:
        """Every legal action of an OpenSpiel ``state`` with its exact value (the final
        South-minus-North score perfect play reaches after it), searched with the bot's
        ``threads``, ``hash_mb``, ``tables`` and ``time_limit``."""
        pos = from_openspiel(state)
        return _actions(state, pos, self.position_values(pos))

    def choose(self, pos: Position) -> int:
        """The bot's move in ``pos`` (a pit number): the perfect move, or the calibrated draw."""
        if self._perfect:
            return self.best_move(pos)
        values = self.position_values(pos)
        sign = 1 if pos.to_move == "S" else -1
        mover = [(m, sign * v) for m, v in sorted(values.items())]
        move, _how = self._player.choose(mover, self.best_move(pos))
        return move

    def step(self, state) -> int:
        pos = from_openspiel(state)
        move = self.choose(pos)
        if isinstance(state, MancalaState):
            return move - 1
        return openspiel_action(pos, move)

    def restart_at(self, state) -> None:
        # The draws go on from game to game: a fixed seed fixes the bot's whole series of games,
        # and two games in a row are not copies of each other.
        pass

    def inform_action(self, state, player_id, action) -> None:
        pass

    def provides_policy(self) -> bool:
        return False


def _actions(state, pos: Position, values: Dict[int, int]) -> Dict[int, int]:
    """Pit-numbered ``values`` of ``pos`` as the actions of ``state``."""
    if isinstance(state, MancalaState):
        return {m - 1: v for m, v in values.items()}
    return {openspiel_action(pos, m): v for m, v in values.items()}


def move_values(state) -> Dict[int, int]:
    """Every legal action's exact value (final South minus North) in an OpenSpiel state."""
    pos = from_openspiel(state)
    values = analyze(pos, threads=1)
    if isinstance(state, MancalaState):
        return {m - 1: v for m, v in values.items()}
    return {openspiel_action(pos, m): v for m, v in values.items()}


def game_moves(state) -> "tuple[Position, List[int]]":
    """The game that led to an OpenSpiel ``state``, from its history: the start position and
    the moves played (pit numbers of the mover's row). ``state`` is a state of OpenSpiel's own
    ``mancala`` (Kalah 6 x 4 from the start) or of a registered game (from the game's start)."""
    if isinstance(state, MancalaState):
        at = state.get_game().new_initial_state().position
        move_of = lambda action, pos: action + 1  # noqa: E731 (pit = action + 1 in both rows)
    elif state.get_game().get_type().short_name == "mancala":
        at = Position("kalah", holes=_OS_HOLES, seeds=4)
        # Player 0 sows pits 1..6 of the board, player 1 pits 8..13 (its store is index 0).
        move_of = lambda action, pos: action if pos.to_move == "S" else action - _OS_HOLES - 1  # noqa: E731
    else:
        raise ValueError(f"not a state of OpenSpiel's mancala or of a registered game: {state.get_game()}")
    start, moves = at, []
    for action in state.history():
        move = move_of(action, at)
        at = at.play(move)
        moves.append(move)
    if at != from_openspiel(state):
        raise ValueError(f"the history of {state} does not lead to it: {at} is not {from_openspiel(state)}")
    return start, moves


def review(state, **kwargs: Any) -> "List[Any]":
    """Grades the game that led to ``state`` against perfect play: ``mancala.review`` of its
    start and its history (``game_moves``), one ``mancala.MoveReview`` per move, with each
    move's value, the best value and moves, and the seeds lost from the mover's side. Keyword
    arguments (``threads``, ``tables``, ``time_limit``, ``mistake``, ``blunder``, ...) are
    ``mancala.review``'s."""
    start, moves = game_moves(state)
    return _review(start, moves, **kwargs)
