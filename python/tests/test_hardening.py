"""Python raises Python's exceptions (issue 56, finding 8): no argument reaches a Rust panic
(PanicException, which `except Exception` does not catch), a table directory that does not exist
is an OSError, messages name the argument, and Ctrl-C stops a long relay."""

import os
import signal
import threading
import time

import pytest

import mancala

# Boundary and garbage values for every argument: each call must return or raise an Exception
# (ValueError, TypeError, OverflowError, OSError), never a PanicException (a BaseException).
GARBAGE = [0, 1, -1, 255, 256, 2**31, -(2**31), 2**63, 2**64, None, "", "x", 1.5, True, [], {}]

RELAY = open(os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "relay.txt")).read()
RELAY = next(l.strip() for l in RELAY.splitlines() if l.strip() and not l.startswith("#"))


def survives(call):
    """Calls `call`; an Exception is a fine answer, anything else propagates."""
    try:
        call()
    except Exception:
        pass


@pytest.mark.parametrize("value", GARBAGE)
def test_no_argument_reaches_a_panic(value, tmp_path):
    for game in list(mancala.GAMES) + [value]:
        survives(lambda: mancala.game_info(game, holes=value))
        survives(lambda: mancala.Position(game, holes=value))
        survives(lambda: mancala.Position(game, seeds=value))
        survives(lambda: mancala.Position(game, holes=4, seeds=value))
        survives(lambda: mancala.Position(game, options=value))
        survives(lambda: mancala.Position.parse(game, value))
        survives(lambda: mancala.Position(game if isinstance(game, str) else "kalah").play(value))
        survives(lambda: mancala.Match(game, holes=value))
        survives(lambda: mancala.Match(game, seeds=value))
    survives(lambda: mancala.Tables(value))
    # A tiny build at most: only one argument is garbage, the board is one hole.
    survives(lambda: mancala.build_tables("kalah", value, 2, dir=str(tmp_path)))
    survives(lambda: mancala.build_tables("kalah", 1, value, dir=str(tmp_path)) if value in (0, -1, 2**31, 2**64, None, "x") else None)
    survives(lambda: mancala.build_tables("kalah", 1, 2, dir=str(tmp_path), threads=value))
    small = mancala.Position("kalah", holes=2, seeds=1)
    for name in ("threads", "hash_mb", "time_limit"):
        survives(lambda: mancala.solve(small, **{name: value}))
        survives(lambda: mancala.analyze(small, **{name: value}))


def test_game_info_checks_holes_before_using_them():
    # holes=0 divided by zero inside (PanicException); out-of-range holes got invented seed ranges.
    for holes in (0, 99, -1, 2**40):
        with pytest.raises(ValueError, match="holes"):
            mancala.game_info("kalah", holes=holes)
    assert mancala.game_info("kalah", holes=6)["holes"] == 6


def test_a_table_directory_that_does_not_exist_is_an_oserror(tmp_path):
    # It made every probe answer None.
    with pytest.raises(OSError, match="no such directory"):
        mancala.Tables(str(tmp_path / "nonexistent"))
    f = tmp_path / "file"
    f.write_text("x")
    with pytest.raises(OSError, match="not a directory"):
        mancala.Tables(str(f))
    assert mancala.Tables(str(tmp_path)).probe(mancala.Position("kalah", holes=4, seeds=1)) is None


@pytest.mark.parametrize("method", ["legal_moves", "children"])
def test_ctrl_c_stops_a_long_relay(method):
    # legal_moves() and children() ignored Ctrl-C in RELAY's move 2, which relays for ever.
    p = mancala.Position.parse("walak-pussa", RELAY)
    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    started = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        getattr(p, method)()
    assert time.monotonic() - started < 2.0


@pytest.mark.parametrize("kind", ["position", "match"])
def test_ctrl_c_stops_a_move_into_a_long_relay(kind):
    # play(2) on RELAY sowed with no stop, in a position and in a match: Ctrl-C was ignored
    # until the relay ended (never).
    if kind == "position":
        p = mancala.Position.parse("walak-pussa", RELAY)
    else:
        p = mancala.Match("walak-pussa", position=RELAY)
    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    started = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        p.play(2)
    assert time.monotonic() - started < 2.0
    # The match is as it was; an ordinary move still plays, with the CLI's words for a bad one.
    if kind == "match":
        assert str(p.position) == RELAY
    with pytest.raises(ValueError, match="out of range"):
        p.play(9)
    p.play(1)


def test_searches_of_a_long_relay_end_within_their_time_limit():
    # Every search of RELAY sows move 2, which relays for ever: the time limit must end it.
    p = mancala.Position.parse("walak-pussa", RELAY)
    started = time.monotonic()
    solved = mancala.solve(p, threads=1, hash_mb=16, time_limit=1)
    assert not solved.complete and solved.bounds is not None
    assert time.monotonic() - started < 3.0
    started = time.monotonic()
    # What it proved, not a TimeoutError (mancala.analyze returns a MoveValues).
    values = mancala.analyze(p, threads=1, hash_mb=16, time_limit=1)
    assert not values.complete and 2 not in values
    assert time.monotonic() - started < 3.0
    started = time.monotonic()
    analysis = mancala.Analyzer(threads=1, hash_mb=16, memory=False).analyze(p, time_limit=1)
    assert not analysis.complete
    lower, upper = analysis.value_bounds
    assert lower <= upper
    assert time.monotonic() - started < 3.0
