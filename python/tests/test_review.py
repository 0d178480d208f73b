"""``mancala.review`` against ``mancala.analyze`` (every move's exact value), its bounds under a
time limit, ``mancala.openspiel.review`` on OpenSpiel's own ``mancala`` and on the registered
games, and ``mancala dataset`` loaded with the documented code."""

import json
import random
import subprocess

import pytest

import mancala


def random_moves(pos, rng, limit=200):
    moves = []
    while not pos.is_over and len(moves) < limit:
        m = rng.choice(pos.legal_moves())
        pos = pos.play(m)
        moves.append(m)
    return moves


def check_against_analyze(start, moves, records):
    """Each record's values and loss are those of ``analyze`` at its position."""
    assert len(records) == len(moves)
    pos = start
    for i, (m, r) in enumerate(zip(moves, records)):
        assert (r.ply, r.move, r.position) == (i + 1, m, pos)
        assert r.side == pos.to_move
        values = mancala.analyze(pos, threads=1)
        sign = 1 if r.side == "S" else -1
        best = max(sign * v for v in values.values()) * sign
        loss = sign * (best - values[m])
        assert (r.value, r.best_value, r.loss) == (values[m], best, loss)
        assert r.value_bounds == (values[m], values[m]) and r.loss_bounds == (loss, loss)
        assert r.grade == ("best" if loss == 0 else "inaccuracy" if loss < 2 else "mistake" if loss < 6 else "blunder")
        if loss > 0:
            assert r.best_complete and r.best == sorted(k for k, v in values.items() if v == best)
        else:
            assert m in r.best
        pos = pos.play(m)


@pytest.mark.parametrize("game,holes,seeds", [("kalah", 4, 3), ("dakon", 3, 2), ("walak-pussa", 3, 2)])
def test_losses_are_analyze_differences(game, holes, seeds):
    rng = random.Random(55)
    for _ in range(3):
        start = mancala.Position(game, holes=holes, seeds=seeds)
        moves = random_moves(start, rng)
        check_against_analyze(start, moves, mancala.review(start, moves, threads=1))


def test_moves_as_a_string_or_a_list():
    start = mancala.Position("kalah", holes=4, seeds=3)
    a = mancala.review(start, "3 1 2", threads=1)
    b = mancala.review(start, [3, "N1", 2], threads=1)
    assert [(r.move, r.loss, r.best) for r in a] == [(r.move, r.loss, r.best) for r in b]
    assert "MoveReview(ply=1, side='S', move=3" in repr(a[0])
    with pytest.raises(ValueError, match="move #2"):
        mancala.review(start, [3, 9])
    with pytest.raises(ValueError, match="mistake"):
        mancala.review(start, [3], mistake=5, blunder=2)


def test_a_time_limit_leaves_bounds_around_the_exact_values():
    start = mancala.Position("kalah", holes=6, seeds=3)
    moves = random_moves(start, random.Random(3), limit=10)
    exact = mancala.review(start, moves, threads=1)
    bounded = mancala.review(start, moves, threads=1, time_limit=0.001)
    for e, b in zip(exact, bounded):
        assert b.value_bounds[0] <= e.value <= b.value_bounds[1]
        assert b.best_bounds[0] <= e.best_value <= b.best_bounds[1]
        assert 0 <= b.loss_bounds[0] <= e.loss <= b.loss_bounds[1]
        assert (b.loss is None) == (b.loss_bounds[0] != b.loss_bounds[1])


def test_dataset_loads_with_the_documented_code(cli, tmp_path):
    np = pytest.importorskip("numpy")
    out = tmp_path / "kalah.jsonl"
    subprocess.run(
        [cli, "dataset", "kalah", "--holes", "4", "--seeds", "3", "--positions", "40", "--from", "random", "--seed", "7", "--out", str(out), "--threads", "1"],
        check=True,
    )
    from mancala import dataset

    data = dataset.load(str(out))
    assert data["pits"].shape == (40, 8) and data["legal"].shape == (40, 4)
    rows = [json.loads(l) for l in out.read_text().splitlines()]
    for i in (0, 17, 39):
        pos = mancala.Position.parse("kalah", rows[i]["position"])
        values = mancala.analyze(pos, threads=1)
        assert data["value"][i] == (max(values.values()) if pos.to_move == "S" else min(values.values()))
        assert sorted(np.flatnonzero(data["legal"][i]) + 1) == sorted(values)
        south, north = pos.score
        sign = 1 if pos.to_move == "S" else -1
        for m, v in values.items():
            assert data["move_values"][i][m - 1] == sign * (v - (south - north))
        assert data["future"][i] == data["move_values"][i][data["legal"][i]].max()
    npz = tmp_path / "kalah.npz"
    dataset.save_npz(str(out), str(npz))
    again = np.load(npz)
    assert (again["move_values"] == data["move_values"]).all()


def test_openspiel_review_of_openspiels_own_mancala():
    pyspiel = pytest.importorskip("pyspiel")
    from mancala import openspiel as mos

    game = pyspiel.load_game("mancala")
    state = game.new_initial_state()
    rng = random.Random(5)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    start, moves = mos.game_moves(state)
    assert start == mancala.Position("kalah", holes=6, seeds=4)
    assert len(moves) == len(state.history())
    # The whole game from the start is a few minutes' work without tables: a time limit per
    # search leaves bounds on the opening, exact values on the rest.
    records = mos.review(state, threads=1, time_limit=0.5)
    assert [r.move for r in records] == moves
    exact = [r for r in records if r.loss is not None]
    assert len(exact) >= len(records) // 2
    for r in exact[-5:]:
        values = mancala.analyze(r.position, threads=1)
        sign = 1 if r.side == "S" else -1
        assert r.loss == max(sign * v for v in values.values()) - sign * values[r.move]


def test_openspiel_review_of_a_registered_game():
    pyspiel = pytest.importorskip("pyspiel")
    from mancala import openspiel as mos

    mos.register()
    game = pyspiel.load_game("mancala_kalah(holes=4,seeds=3)")
    state = game.new_initial_state()
    rng = random.Random(9)
    for _ in range(12):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    start, moves = mos.game_moves(state)
    assert [m - 1 for m in moves] == state.history()
    records = mos.review(state, threads=1)
    check_against_analyze(start, moves, records)
