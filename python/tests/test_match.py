"""Multi-round matches."""

import random

import pytest

import mancala


@pytest.mark.parametrize("game", ["dakon", "walak-pussa", "san-yao"])
def test_random_matches_run_to_the_end(game):
    rng = random.Random(5)
    for _ in range(3):
        m = mancala.Match(game, holes=5, seeds=4)
        assert m.round == 1 and m.round_setup == str(mancala.Position(game, holes=5, seeds=4))
        moves = 0
        while not m.is_over and moves < 3000:
            m.play(rng.choice(m.position.legal_moves()))
            moves += 1
        rounds = m.rounds
        assert len(rounds) == m.round
        assert sum(len(r["moves"]) for r in rounds) == moves
        if m.is_over:
            assert m.winner in ("S", "N", None)
            with pytest.raises(ValueError, match="the match is over"):
                m.play(1)


def test_match_errors():
    with pytest.raises(ValueError, match="Kalah is not played in matches"):
        mancala.Match("kalah")
    m = mancala.Match("dakon", holes=5, seeds=5)
    with pytest.raises(ValueError, match="marked for North"):
        m.play("N1")
    with pytest.raises(ValueError, match="out of range"):
        m.play(9)
