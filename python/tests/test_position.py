"""Positions: construction, notation, moves, immutability, hashing, pickling, errors."""

import copy
import pickle
import random

import pytest

import mancala


def test_start_and_notation():
    p = mancala.Position("kalah", holes=6, seeds=4)
    assert str(p) == "4,4,4,4,4,4/4,4,4,4,4,4/0,0/S"
    assert p.to_move == "S" and not p.is_over and p.score == (0, 0)
    assert p.legal_moves() == [1, 2, 3, 4, 5, 6]
    # The library's doc example: the last seed in the store gives another move.
    q = p.play(3)
    assert str(q) == "4,4,0,5,5,5/4,4,4,4,4,4/1,0/S"
    assert q.to_move == "S" and q.score == (1, 0)
    assert p.play("S3") == q == p.play("s3")
    assert mancala.Position.parse("kalah", str(q)) == q


def test_defaults_and_options():
    for game in mancala.GAMES:
        info = mancala.game_info(game)
        p = mancala.Position(game)
        assert p.holes == info["holes"]
        assert p.seeds_on_board == 2 * info["holes"] * info["seeds"]
        assert p.game == game
    p = mancala.Position("kalah", options=["empty_capture"])
    assert p.options == ["empty-capture"] and p.variant == "kalah+empty-capture"
    assert mancala.Position("kalah+empty-capture") == p


def test_game_over():
    p = mancala.Position.parse("kalah", "0,0,0,0/0,0,0,0/9,15/-")
    assert p.is_over and p.to_move is None and p.legal_moves() == []
    assert p.score == (9, 15)
    with pytest.raises(ValueError, match="the game is already over"):
        p.play(1)


def test_hash_pickle_copy():
    p = mancala.Position("dakon", holes=5, seeds=5).play(5)
    q = pickle.loads(pickle.dumps(p))
    assert q == p and hash(q) == hash(p)
    assert copy.deepcopy(p) is p
    assert len({p, q, mancala.Position("dakon", holes=5, seeds=5)}) == 2
    with pytest.raises(AttributeError):
        p.score = (1, 2)


def test_round_positions_keep_marks():
    text = "5,5,5,5,5/5s,5,5,5,5/0,0/S"
    p = mancala.Position.parse("san-yao", text)
    assert str(p) == text
    assert p.statuses[5] == "son"
    assert pickle.loads(pickle.dumps(p)) == p


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: mancala.Position("chess"), ValueError, "chess"),
        (lambda: mancala.Position("kalah", holes=0), ValueError, "kalah is played with 1 to 8 holes per row, not 0"),
        (lambda: mancala.Position("kalah", holes=6, seeds=0), ValueError, "seeds per hole, not 0"),
        (lambda: mancala.Position("dakon", options=["empty-capture"]), ValueError, "applies to kalah only"),
        (lambda: mancala.Position.parse("kalah", "1,2/3"), ValueError, "invalid position '1,2/3'"),
        (lambda: mancala.Position.parse("kalah", "4,x/4,4/0,0/S"), ValueError, "no burnt pits or sons"),
        (lambda: mancala.Position("kalah").play(7), ValueError, r"out of range \(moves are 1..=6\)"),
        (lambda: mancala.Position("kalah").play("N3"), ValueError, "marked for North, but South is to move"),
        (lambda: mancala.Position("kalah").play("x"), ValueError, "is not a move"),
        (lambda: mancala.Position("kalah").play(-1), ValueError, "out of range"),
        (lambda: mancala.Position("kalah").play(True), TypeError, "not bool"),
        (lambda: mancala.Position("kalah").play(None), TypeError, "pit number"),
        (lambda: mancala.Position.parse("kalah", "0,4/4,4/0,0/S").play(1), ValueError, "the pit is empty"),
    ],
)
def test_bad_input_raises(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_garbage_never_crashes():
    rng = random.Random(7)
    alphabet = "0123456789,/-SNsx \n+"
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(30)))
        for game in mancala.GAMES:
            try:
                p = mancala.Position.parse(game, text)
            except ValueError:
                continue
            assert mancala.Position.parse(game, str(p)) == p


def test_random_games_conserve_seeds_and_round_trip():
    rng = random.Random(1)
    for game in mancala.GAMES:
        for _ in range(20):
            p = mancala.Position(game)
            total = p.seeds_on_board
            while not p.is_over:
                moves = p.legal_moves()
                assert moves == [m for m, _ in p.children()]
                m = rng.choice(moves)
                p = p.play(m)
                assert mancala.Position.parse(p.variant, str(p)) == p
                assert p.seeds_on_board + sum(p.score) <= total
                if rng.random() < 0.002:
                    break  # the cyclic games' random plays can repeat for a long time


def test_diagram():
    d = mancala.Position("kalah", holes=4, seeds=3).diagram()
    assert "South to move" in d and "3,3,3,3/3,3,3,3/0,0/S" in d
