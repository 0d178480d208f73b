"""Endgame tables: building with a progress callback, probing, and solving with them."""

import os
import random
import subprocess
import sys
import textwrap

import pytest

import mancala


@pytest.fixture(scope="module")
def kalah4(tmp_path_factory):
    d = tmp_path_factory.mktemp("tables")
    layers = []
    t = mancala.build_tables("kalah", 4, 10, dir=str(d), progress=layers.append, threads=2)
    return d, t, layers


def random_positions(game, holes, seeds, most, n, rng):
    """Positions with at most `most` seeds on the board met in random games."""
    out = []
    while len(out) < n:
        p = mancala.Position(game, holes=holes, seeds=seeds)
        while not p.is_over and len(out) < n:
            p = p.play(rng.choice(p.legal_moves()))
            if p.seeds_on_board <= most:
                out.append(p)
    return out


def test_progress_reports_every_layer(kalah4):
    _, _, layers = kalah4
    assert [l["layer"] for l in layers] == list(range(11))
    assert all(l["entries"] > 0 and l["bytes"] > 0 and not l["resumed"] for l in layers)


def test_probe_equals_search(kalah4):
    d, t, _ = kalah4
    rng = random.Random(3)
    for p in random_positions("kalah", 4, 4, 10, 150, rng):
        assert t.probe(p) == mancala.solve(p, threads=1, hash_mb=4).value, str(p)
    assert mancala.Tables(str(d)).probe(mancala.Position("kalah", holes=4, seeds=4)) is None  # 32 seeds


def test_no_tables_is_none(tmp_path):
    t = mancala.Tables(tmp_path)
    assert t.probe(mancala.Position.parse("kalah", "1,0,0,0/0,0,0,1/0,0/S")) is None
    assert t.probe(mancala.Position("dakon")) is None


def test_solve_with_tables(kalah4):
    d, t, _ = kalah4
    p = mancala.Position("kalah", holes=4, seeds=3)
    plain = mancala.solve(p, threads=1)
    for tables in (str(d), t):
        r = mancala.solve(p, threads=1, tables=tables)
        assert (r.value, r.best) == (plain.value, plain.best)
        assert r.nodes < plain.nodes


def test_resume_and_damaged_file(kalah4, tmp_path):
    d, _, _ = kalah4
    again = []
    mancala.build_tables("kalah", 4, 10, dir=d, progress=again.append)
    assert [l["resumed"] for l in again][:6] == [True] * 6
    # A damaged copy: opening it must fail with OSError, never crash or answer.
    import shutil

    bad = tmp_path / "bad"
    shutil.copytree(d, bad)
    f = max(bad.iterdir(), key=lambda x: x.stat().st_size)
    data = bytearray(f.read_bytes())
    data[-1] ^= 0xFF
    f.write_bytes(bytes(data))
    with pytest.raises(OSError):
        mancala.solve(mancala.Position("kalah", holes=4, seeds=3), tables=str(bad))
    with pytest.raises(OSError):
        mancala.Tables(bad).probe(mancala.Position.parse("kalah", "1,0,0,0/0,0,0,1/0,0/S"))


def test_callback_exception_stops_the_build(tmp_path):
    class Stop(Exception):
        pass

    def progress(layer):
        if layer["layer"] == 2:
            raise Stop

    with pytest.raises(Stop):
        mancala.build_tables("kalah", 4, 12, dir=tmp_path, progress=progress)
    # The layers written are complete: a resumed build keeps them.
    again = []
    mancala.build_tables("kalah", 4, 4, dir=tmp_path, progress=again.append)
    assert [l["resumed"] for l in again][:3] == [True, True, True]


def test_ctrl_c_stops_a_build_inside_a_layer(tmp_path):
    # Kalah's 6-hole layers past 18 seeds take seconds each on one thread: the interrupt must
    # not wait for the layer to end, and the layers written before it stay whole.
    script = textwrap.dedent(
        f"""
        import os, signal, threading, time, mancala
        sent = []
        def interrupt():
            sent.append(time.monotonic())
            os.kill(os.getpid(), signal.SIGINT)
        threading.Timer(3.0, interrupt).start()
        try:
            mancala.build_tables("kalah", 6, 24, dir={str(tmp_path)!r}, threads=1)
            print("finished")
        except KeyboardInterrupt:
            print("interrupted", time.monotonic() - sent[0])
        """
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    word, seconds = out.stdout.split()
    assert word == "interrupted" and float(seconds) < 0.8, out
    again = []
    mancala.build_tables("kalah", 6, 10, dir=tmp_path, progress=again.append)
    assert [l["resumed"] for l in again][:6] == [True] * 6


def test_bad_build_arguments(tmp_path):
    with pytest.raises(ValueError, match="holes per row, not 12"):
        mancala.build_tables("kalah", 12, 4, dir=tmp_path)
    with pytest.raises(ValueError, match="more than the board can hold"):
        mancala.build_tables("kalah", 4, 1000, dir=tmp_path)
