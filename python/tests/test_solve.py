"""solve and analyze: published values, the CLI's values, time limits, Ctrl-C, the GIL."""

import json
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import mancala
from conftest import kalah_start_values

# Boards that solve in well under a second each (every row of the CSV with at most 30 seeds).
SMALL = [r for r in kalah_start_values() if 2 * r["holes"] * r["seeds"] <= 30]


def test_done_when_example():
    assert mancala.solve(mancala.Position("kalah", holes=4, seeds=3)).value == 6


@pytest.mark.parametrize("row", SMALL, ids=lambda r: f"{r['holes']}x{r['seeds']}{'+' + '+'.join(r['options']) if r['options'] else ''}")
def test_published_kalah_values(row):
    p = mancala.Position("kalah", holes=row["holes"], seeds=row["seeds"], options=row["options"])
    r = mancala.solve(p, threads=1, hash_mb=16)
    assert r.complete and r.bounds is None
    assert r.value == row["value"]
    if row["best"] is not None:
        assert r.best == row["best"]
    # The PV replays to the end with the value as the final margin.
    q = p
    for m in r.pv:
        q = q.play(m)
    assert q.is_over and q.score[0] - q.score[1] == r.value


def test_python_equals_cli(cli):
    cases = [
        ("kalah", ["--holes", "5", "--seeds", "3"], dict(holes=5, seeds=3)),
        ("kalah", ["--holes", "4", "--seeds", "4", "--empty-capture"], dict(holes=4, seeds=4, options=["empty-capture"])),
        ("dakon", ["--holes", "5", "--seeds", "5"], dict(holes=5, seeds=5)),
        ("walak-pussa", ["--holes", "5", "--seeds", "3"], dict(holes=5, seeds=3)),
        ("san-yao", ["--holes", "4", "--seeds", "4"], dict(holes=4, seeds=4)),
        ("djenon-aboure", ["--holes", "5", "--seeds", "3"], dict(holes=5, seeds=3)),
    ]
    for game, args, kw in cases:
        out = subprocess.run([cli, "solve", game, *args, "--json", "--threads", "1"], check=True, capture_output=True, text=True).stdout
        want = json.loads(out)
        got = mancala.solve(mancala.Position(game, **kw), threads=1)
        assert (got.value, got.best) == (want["value"], want["best"]), game
        out = subprocess.run([cli, "analyze", game, *args, "--json", "--threads", "1"], check=True, capture_output=True, text=True).stdout
        want = {m["move"]: m["value"] for m in json.loads(out)["moves"]}
        assert mancala.analyze(mancala.Position(game, **kw), threads=1) == want, game


def test_cli_error_messages_are_the_same(cli):
    # The same one-line reason as the CLI's, for the same mistake.
    err = subprocess.run([cli, "solve", "kalah", "--holes", "9"], capture_output=True, text=True).stderr
    with pytest.raises(ValueError) as e:
        mancala.Position("kalah", holes=9)
    assert str(e.value) in err


def test_analyze_agrees_with_solve():
    for game in mancala.GAMES:
        p = mancala.Position(game, holes=4, seeds=3)
        values = mancala.analyze(p, threads=1)
        r = mancala.solve(p, threads=1)
        assert sorted(values) == p.legal_moves()
        best = max(values.values()) if p.to_move == "S" else min(values.values())
        assert best == r.value
        assert sorted(m for m, v in values.items() if v == best) == r.best


def test_over_position():
    p = mancala.Position.parse("kalah", "0,0,0/0,0,0/10,8/-")
    r = mancala.solve(p)
    assert (r.value, r.best, r.pv) == (2, [], [])
    assert mancala.analyze(p) == {}


def test_time_limit_gives_bounds():
    p = mancala.Position("kalah", holes=6, seeds=6)
    t = time.monotonic()
    r = mancala.solve(p, threads=1, hash_mb=64, time_limit=0.3)
    assert time.monotonic() - t < 3
    assert not r.complete
    lo, hi = r.bounds
    assert -72 <= lo <= hi <= 72
    # Issue 54: what the analysis proved, not a bare TimeoutError.
    t = time.monotonic()
    r = mancala.analyze(p, threads=1, hash_mb=64, time_limit=0.3)
    assert time.monotonic() - t < 3
    assert isinstance(r, dict) and isinstance(r, mancala.MoveValues)
    assert not r.complete
    assert sorted(r.bounds) == [1, 2, 3, 4, 5, 6]
    for m, (lo, hi) in r.bounds.items():
        assert -72 <= lo <= hi <= 72
        assert (m in r) == (lo == hi) and r.get(m, lo) == lo
    lo, hi = r.value_bounds
    assert -72 <= lo <= hi <= 72


def test_a_stopped_analysis_keeps_the_moves_it_valued():
    # Kalah(6,3)'s every move takes a few seconds: limits that stop it before, during and (on a
    # fast machine) after the moves; what each proved holds the whole analysis's values.
    p = mancala.Position("kalah", holes=6, seeds=3)
    want = mancala.analyze(p, threads=1)
    assert want.complete and want.bounds == {m: (v, v) for m, v in want.items()}
    assert want.value_bounds == (max(want.values()),) * 2
    assert want.best == [m for m, v in want.items() if v == max(want.values())]
    for limit in (0.05, 1.0, 3.0):
        r = mancala.analyze(p, threads=1, time_limit=limit)
        for m, v in r.items():
            assert want[m] == v, (limit, m)
        for m, (lo, hi) in r.bounds.items():
            assert lo <= want[m] <= hi, (limit, m)
        assert r.value_bounds[0] <= max(want.values()) <= r.value_bounds[1]
        assert r.complete == (len(r) == len(want))
        if not r.complete:
            # What to play is among the moves not proven worse.
            assert all(r.bounds[m][1] >= r.value_bounds[0] for m in r.best)


@pytest.mark.parametrize(
    "kw, message",
    [
        (dict(threads=0), "threads must be at least 1"),
        (dict(hash_mb=0), "hash_mb must be at least 1"),
        (dict(hash_mb=1 << 60), "hash_mb"),
        (dict(time_limit=-1.0), "not a positive number of seconds"),
        (dict(tables="/nonexistent/dir"), "/nonexistent/dir"),
    ],
)
def test_bad_search_settings(kw, message):
    with pytest.raises((ValueError, OSError), match=message):
        mancala.solve(mancala.Position("kalah", holes=4, seeds=3), **kw)


def test_gil_released_during_search():
    ticks = 0
    done = threading.Event()

    def count():
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            time.sleep(0.001)

    t = threading.Thread(target=count)
    t.start()
    try:
        start = time.monotonic()
        mancala.solve(mancala.Position("kalah", holes=6, seeds=6), threads=1, hash_mb=64, time_limit=1.0)
        elapsed = time.monotonic() - start
    finally:
        done.set()
        t.join()
    # A thread sleeping 1 ms a turn gets hundreds of turns in a second when the GIL is free.
    assert elapsed >= 0.9 and ticks > 200


def test_two_searches_stop_independently():
    results = {}

    def run(name, **kw):
        results[name] = mancala.solve(mancala.Position("kalah", holes=6, seeds=6) if name == "long" else mancala.Position("kalah", holes=5, seeds=3), threads=1, hash_mb=32, **kw)

    a = threading.Thread(target=run, args=("long",), kwargs=dict(time_limit=0.5))
    b = threading.Thread(target=run, args=("short",))
    a.start(), b.start()
    a.join(), b.join()
    assert not results["long"].complete
    assert results["short"].complete and results["short"].value == mancala.solve(mancala.Position("kalah", holes=5, seeds=3)).value


def test_ctrl_c_stops_a_search_within_a_second():
    script = textwrap.dedent(
        """
        import os, signal, threading, time, mancala
        p = mancala.Position("kalah", holes=6, seeds=6)
        threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
        t = time.monotonic()
        try:
            mancala.solve(p, threads=2, hash_mb=64)
            print("finished")
        except KeyboardInterrupt:
            print("interrupted", time.monotonic() - t)
        """
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    word, seconds = out.stdout.split()
    assert word == "interrupted"
    assert float(seconds) < 1.5  # the signal at 0.5 s, the search stopped within a second


# A Walak-pussa position whose first candidate sows for billions of laps (the library's own
# test of its stop token): a search of it sits inside one sowing.
LONG_SOWING = "35,29,33,29/35,35,30,29/0,0/N"


def test_time_limit_ends_a_long_sowing_and_not_the_other_search():
    results = {}

    def stuck():
        t = time.monotonic()
        r = mancala.solve(mancala.Position.parse("walak-pussa", LONG_SOWING), threads=1, hash_mb=16, time_limit=0.5)
        results["stuck"] = (r, time.monotonic() - t)

    def free():
        results["free"] = mancala.solve(mancala.Position("walak-pussa", holes=5, seeds=3), threads=1, hash_mb=16)

    threads = [threading.Thread(target=stuck), threading.Thread(target=free)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    r, seconds = results["stuck"]
    assert not r.complete and r.value is None and seconds < 3
    assert results["free"].complete and results["free"].value == 12  # scripts/signature.sh


def test_ctrl_c_ends_a_long_sowing():
    script = textwrap.dedent(
        f"""
        import os, signal, threading, time, mancala
        p = mancala.Position.parse("walak-pussa", "{LONG_SOWING}")
        threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
        t = time.monotonic()
        try:
            mancala.solve(p, threads=1, hash_mb=16)
            print("finished")
        except KeyboardInterrupt:
            print("interrupted", time.monotonic() - t)
        """
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    word, seconds = out.stdout.split()
    assert word == "interrupted" and float(seconds) < 1.5, out
