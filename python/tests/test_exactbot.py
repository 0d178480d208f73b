"""Calibrated opponents (issue 55): ``ExactBot(epsilon=..., temperature=..., seed=...)``, its
``move_values``, and ``mancala.Calibrated``, the engine's own seeded chooser."""

import pytest

pyspiel = pytest.importorskip("pyspiel")

import mancala  # noqa: E402
from mancala import openspiel as mos  # noqa: E402
from mancala._mancala import Calibrated  # noqa: E402

mos.register()

#: Kalah(4,3): solved in a tenth of a second; its value is +6 (docs/rules.md §3.7).
SMALL = "mancala_kalah(holes=4,seeds=3)"


def play_game(game, bots):
    """One game; returns the returns and every (mover's loss, ...) per bot, from exact values."""
    state = game.new_initial_state()
    judge = mos.ExactBot(game)
    losses = [[], []]
    while not state.is_terminal():
        player = state.current_player()
        values = judge.move_values(state)
        sign = 1 if player == 0 else -1
        best = max(sign * v for v in values.values())
        action = bots[player].step(state)
        losses[player].append(best - sign * values[action])
        state.apply_action(action)
    return state.returns(), losses


def mean_loss(epsilon=0.0, temperature=0.0, games=12, seed=1):
    """The calibrated bot's mean loss per move (seeds) as South against a perfect North."""
    g = pyspiel.load_game(SMALL)
    bot = mos.ExactBot(g, epsilon=epsilon, temperature=temperature, seed=seed)
    perfect = mos.ExactBot(g)
    total = []
    for _ in range(games):
        _returns, losses = play_game(g, [bot, perfect])
        total.extend(losses[0])
    return sum(total) / len(total)


def test_epsilon_zero_attains_the_solved_value():
    g = pyspiel.load_game(SMALL)
    value = mancala.solve(mancala.Position("kalah", holes=4, seeds=3)).value
    assert value == 6
    bot = mos.ExactBot(g, epsilon=0.0, seed=5)
    returns, losses = play_game(g, [bot, bot])
    assert returns == [value, -value]
    assert all(loss == 0 for side in losses for loss in side)
    # Against a weakened North it gets at least the value.
    weak = mos.ExactBot(g, epsilon=0.5, seed=5)
    returns, _ = play_game(g, [bot, weak])
    assert returns[0] >= value


def test_mean_loss_per_move_grows_with_epsilon():
    ladder = [mean_loss(epsilon=e) for e in (0.0, 0.1, 0.3, 1.0)]
    assert ladder[0] == 0
    assert ladder == sorted(ladder) and len(set(ladder)) == len(ladder), ladder


def test_mean_loss_per_move_grows_with_temperature():
    ladder = [mean_loss(temperature=t) for t in (0.25, 1.0, 4.0)]
    assert ladder == sorted(ladder) and ladder[0] < ladder[-1], ladder


def test_a_seed_replays_the_same_game_and_move_values_are_exact():
    g = pyspiel.load_game(SMALL)

    def game(seed):
        bots = [mos.ExactBot(g, epsilon=0.3, temperature=1.0, seed=seed) for _ in range(2)]
        s = g.new_initial_state()
        while not s.is_terminal():
            s.apply_action(bots[s.current_player()].step(s))
        return s.history()

    assert game(11) == game(11)
    assert game(11) != game(12)
    # move_values: the same as the analysis, one value per legal action.
    bot = mos.ExactBot(g, time_limit=30)
    s = g.new_initial_state()
    values = bot.move_values(s)
    assert values == mos.move_values(s)
    assert sorted(values) == s.legal_actions()
    assert max(values.values()) == 6


def test_calibrated_checks_its_arguments_and_gives_its_distribution():
    with pytest.raises(ValueError, match="epsilon"):
        mos.ExactBot(None, epsilon=1.5)
    with pytest.raises(ValueError, match="temperature"):
        Calibrated(temperature=-1)
    c = Calibrated(epsilon=0.2, seed=3)
    values = [(1, -4), (2, 6), (3, 5)]
    p = c.probabilities(values, 2)
    assert p == pytest.approx([0.2 / 3, 0.8 + 0.2 / 3, 0.2 / 3])
    draws = [c.choose(values, 2)[0] for _ in range(3000)]
    assert abs(draws.count(2) / 3000 - p[1]) < 0.05
    with pytest.raises(ValueError, match="perfect"):
        c.choose(values, 4)
