"""Speed of the Python package against the CLI and against OpenSpiel's C++ mancala (issue 29).

    python python/bench.py [--cli target/release/mancala] [--threads 1] [--hash-mb 256] [--runs 2]

Prints one line per measurement; docs/performance.md quotes them. Not a test: the numbers
depend on the machine and its load, so the runs of each pair are interleaved.
"""

import argparse
import json
import random
import statistics
import subprocess
import time

import mancala


def solve_pair(cli, threads, hash_mb, runs):
    """Kalah(6,4) standard from the start: the CLI process (wall, and its own search time) and
    mancala.solve in this process, same threads and table size, runs interleaved."""
    pos = mancala.Position("kalah", holes=6, seeds=4)
    cli_wall, cli_search, py_wall, py_search, nodes = [], [], [], [], set()
    for _ in range(runs):
        t = time.perf_counter()
        out = subprocess.run(
            [cli, "solve", "kalah", "--threads", str(threads), "--hash-mb", str(hash_mb), "--json"],
            check=True, capture_output=True, text=True,
        ).stdout
        cli_wall.append(time.perf_counter() - t)
        r = json.loads(out)
        cli_search.append(r["seconds"])
        nodes.add(("cli", r["value"], r["nodes"]))
        t = time.perf_counter()
        p = mancala.solve(pos, threads=threads, hash_mb=hash_mb)
        py_wall.append(time.perf_counter() - t)
        py_search.append(p.seconds)
        nodes.add(("python", p.value, p.nodes))
    med = statistics.median
    print(f"solve kalah 6x4, {threads} thread(s), {hash_mb} MiB, {runs} runs each:")
    print(f"  cli    wall {', '.join(f'{x:.2f}' for x in cli_wall)} s (median {med(cli_wall):.2f}); search {med(cli_search):.2f} s")
    print(f"  python wall {', '.join(f'{x:.2f}' for x in py_wall)} s (median {med(py_wall):.2f}); search {med(py_search):.2f} s")
    print(f"  python/cli wall {med(py_wall) / med(cli_wall):.3f}; value and nodes {sorted(nodes)}")


def move_calls(n_games=2000):
    """legal_moves() + play(m) per call, over the positions of random Kalah(6,4) games."""
    rng = random.Random(1)
    pairs = []
    for _ in range(n_games):
        p = mancala.Position("kalah")
        while not p.is_over:
            m = rng.choice(p.legal_moves())
            pairs.append((p, m))
            p = p.play(m)
    t = time.perf_counter()
    for p, m in pairs:
        p.legal_moves()
        p.play(m)
    dt = time.perf_counter() - t
    t = time.perf_counter()
    for p, m in pairs:
        pass
    loop = time.perf_counter() - t
    print(f"legal_moves + play: {len(pairs)} calls, {(dt - loop) / len(pairs) * 1e6:.3f} us per pair (loop overhead {loop / len(pairs) * 1e6:.3f} us subtracted)")


def openspiel_games(n_games=300):
    """Random games of Kalah(6,4): our registered mancala_kalah vs OpenSpiel's C++ mancala,
    both driven through pyspiel (legal_actions, apply_action, is_terminal, returns)."""
    import pyspiel
    from mancala import openspiel

    openspiel.register()
    results = {}
    for name in ("mancala", "mancala_kalah", "mancala"):
        game = pyspiel.load_game(name)
        rng = random.Random(7)
        moves = 0
        t = time.perf_counter()
        for _ in range(n_games):
            s = game.new_initial_state()
            while not s.is_terminal():
                s.apply_action(rng.choice(s.legal_actions()))
                moves += 1
            s.returns()
        dt = time.perf_counter() - t
        results.setdefault(name, []).append((dt / n_games * 1e3, dt / moves * 1e6))
    # The same random games on mancala.Position directly, without OpenSpiel's Python-game
    # trampoline (every call into a Python game crosses pybind11 both ways).
    rng = random.Random(7)
    moves = 0
    t = time.perf_counter()
    for _ in range(n_games):
        p = mancala.Position("kalah")
        while not p.is_over:
            p = p.play(rng.choice(p.legal_moves()))
            moves += 1
    dt = time.perf_counter() - t
    results["Position"] = [(dt / n_games * 1e3, dt / moves * 1e6)]
    for name, rs in results.items():
        per_game = min(r[0] for r in rs)
        per_move = min(r[1] for r in rs)
        print(f"openspiel random game kalah 6x4, {name:>13}: {per_game:.3f} ms per game, {per_move:.2f} us per move (best of {len(rs)})")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default="target/release/mancala")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--hash-mb", type=int, default=256)
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--skip-solve", action="store_true")
    a = ap.parse_args()
    move_calls()
    openspiel_games()
    if not a.skip_solve:
        solve_pair(a.cli, a.threads, a.hash_mb, a.runs)


if __name__ == "__main__":
    main()
