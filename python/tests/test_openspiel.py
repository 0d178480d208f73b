"""The OpenSpiel side: our Kalah against OpenSpiel's, the registered games under OpenSpiel's own
checks and algorithms, and the exact bot."""

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import mancala
from mancala import openspiel as mos

mos.register()


def test_our_kalah_equals_openspiels_on_random_games():
    """At least 1,000 states from random games: board, stores, player to move, terminal returns."""
    game = pyspiel.load_game("mancala")
    rng = random.Random(11)
    states = 0
    games = 0
    while states < 1500 or games < 30:
        games += 1
        s = game.new_initial_state()
        p = mancala.Position("kalah", holes=6, seeds=4)
        while True:
            assert mos.from_openspiel(s) == p
            states += 1
            if s.is_terminal():
                assert p.is_over
                margin = p.score[0] - p.score[1]
                assert s.returns() == [float(np.sign(margin)), -float(np.sign(margin))]
                break
            os_moves = s.legal_actions()
            ours = p.legal_moves()
            assert os_moves == [mos.openspiel_action(p, m) for m in ours]
            m = rng.choice(ours)
            s.apply_action(mos.openspiel_action(p, m))
            p = p.play(m)
    assert states >= 1000


def test_to_openspiel_replays():
    p = mancala.Position("kalah")
    moves = ["S3", "S6", "N2"]
    q = p
    for m in moves:
        q = q.play(m)
    s = mos.to_openspiel(q, moves)
    assert mos.from_openspiel(s) == q
    with pytest.raises(ValueError, match="only be reached by play"):
        mos.to_openspiel(q)
    with pytest.raises(ValueError, match="6 holes"):
        mos.to_openspiel(mancala.Position("kalah", holes=4))


SIZES = {
    "kalah": [(4, 3), (6, 4)],
    "dakon": [(4, 4), (5, 5)],
    "djenon-aboure": [(4, 3), (5, 4)],
    "walak-pussa": [(4, 3), (5, 4)],
    "san-yao": [(4, 3), (5, 4)],
}


@pytest.mark.parametrize("game", list(SIZES))
def test_random_sim_consistency(game):
    for holes, seeds in SIZES[game]:
        g = pyspiel.load_game(f"{mos.GAME_NAMES[game]}(holes={holes},seeds={seeds})")
        assert g.num_distinct_actions() == holes
        pyspiel.random_sim_test(g, num_sims=10, serialize=False, verbose=False)


def test_parameters():
    g = pyspiel.load_game("mancala_kalah(holes=4,seeds=3,empty_capture=True,returns=win)")
    s = g.new_initial_state()
    assert s.position.variant == "kalah+empty-capture"
    assert g.max_utility() == 1.0
    g = pyspiel.load_game("mancala_dakon(holes=5,seeds=5)")
    assert str(g.new_initial_state()) == str(mancala.Position("dakon", holes=5, seeds=5))
    assert g.max_utility() == 50.0
    with pytest.raises(Exception):
        pyspiel.load_game("mancala_dakon(empty_capture=True)")


def test_observation_tensor():
    g = pyspiel.load_game("mancala_kalah(holes=4,seeds=3)")
    s = g.new_initial_state()
    s.apply_action(2)  # S3: three seeds to pit 4, the store, North's pit 1
    t = np.array(s.observation_tensor(0))
    # side (2), pits (2 x 4), stores (2), burnt (2 x 4), sons (2 x 4)
    assert len(t) == 2 + 8 + 2 + 8 + 8
    assert list(t[:2]) == [0, 1]
    assert list(t[2:10]) == [3, 3, 0, 4, 4, 3, 3, 3]
    assert list(t[10:12]) == [1, 0]
    assert s.observation_string(0) == str(s.position)


def test_san_yao_random_games_end():
    g = pyspiel.load_game("mancala_san_yao")
    rng = np.random.default_rng(2)
    for _ in range(5):
        s = g.new_initial_state()
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
        assert sum(s.returns()) == 0


def test_exact_bot_attains_the_value_against_itself():
    g = pyspiel.load_game("mancala_kalah(holes=4,seeds=3)")
    bot = mos.ExactBot(g)
    returns = pyspiel.evaluate_bots(g.new_initial_state(), [bot, bot], 0)
    assert returns == [6.0, -6.0]
    for game, (holes, seeds) in [("dakon", (4, 3)), ("walak-pussa", (4, 3)), ("san-yao", (4, 3)), ("djenon-aboure", (4, 3))]:
        g = pyspiel.load_game(f"{mos.GAME_NAMES[game]}(holes={holes},seeds={seeds})")
        value = mancala.solve(mancala.Position(game, holes=holes, seeds=seeds)).value
        returns = pyspiel.evaluate_bots(g.new_initial_state(), [bot, bot], 0)
        assert returns == [value, -value], game


def test_exact_bot_never_loses_to_random():
    from open_spiel.python.bots.uniform_random import UniformRandomBot

    for game in mos.GAME_NAMES.values():
        g = pyspiel.load_game(f"{game}(holes=4,seeds=3)")
        exact = mos.ExactBot(g)
        value = mancala.solve(g.new_initial_state().position).value
        for seed in range(4):
            rnd = UniformRandomBot(1, np.random.RandomState(seed))
            r = pyspiel.evaluate_bots(g.new_initial_state(), [exact, rnd], seed)
            assert r[0] >= value, game  # South can always get the value; a weaker North gives more
            rnd = UniformRandomBot(0, np.random.RandomState(seed))
            r = pyspiel.evaluate_bots(g.new_initial_state(), [rnd, exact], seed)
            assert r[0] <= value, game


def test_exact_bot_on_openspiels_mancala():
    g = pyspiel.load_game("mancala")
    bot = mos.ExactBot(g, threads=2)
    rng = random.Random(4)
    checked = 0
    while checked < 5:
        s = g.new_initial_state()
        # Random play down to a middle game that solves in well under a second.
        while not s.is_terminal() and mos.from_openspiel(s).seeds_on_board > 22:
            s.apply_action(rng.choice(s.legal_actions()))
        if s.is_terminal():
            continue
        a = bot.step(s)
        values = mos.move_values(s)
        best = max(values.values()) if s.current_player() == 0 else min(values.values())
        assert values[a] == best
        assert a == min(x for x, v in values.items() if v == best)  # the first best move
        checked += 1


def test_mcts_runs():
    from open_spiel.python.algorithms import mcts

    g = pyspiel.load_game("mancala_dakon(holes=4,seeds=3)")
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = mcts.MCTSBot(g, 1.4, 30, evaluator, random_state=np.random.RandomState(0))
    r = pyspiel.evaluate_bots(g.new_initial_state(), [bot, mos.ExactBot(g)], 0)
    assert len(r) == 2 and sum(r) == 0
