#!/usr/bin/env python3
"""Measures how fast exact answers come (issue 54) and prints docs/performance.md's table.

Each row runs `mancala analyze ... --json` as a fresh process (the CLI, as a user runs it) and
times it end to end:

- the start of every standard board (the book's, or a search's when it has none);
- every position of the book within one ply of a start (`book`);
- the same question asked twice with a memory file: the second answer (`memory`);
- positions from uniformly random games of Kalah(6,4), both rules, with the default table
  directory's tables when it holds them (`--random N`, default 20);
- positions reached in play against the engine (`--engine N` games a rule, default 2): the
  engine plays a best move of every position it is to move in (the question timed), the other
  side a uniformly random move; the engine is South in even games, North in odd ones.

Usage: scripts/bench-answers.py [--mancala target/release/mancala] [--random 20] [--engine 2]
       [--tables DIR] [--time-limit 60] [--seed 1]

`--tables DIR` sets the default table directory (`MANCALA_TABLES`) for every run: the issue's
targets are with the recommended tables (`mancala tables build kalah --recommended`, both rules).
"""

import argparse
import json
import os
import random
import statistics
import subprocess
import tempfile
import time

STANDARD = [
    ("kalah", []),
    ("kalah", ["--empty-capture"]),
    ("dakon", []),
    ("djenon-aboure", []),
    ("walak-pussa", []),
    ("san-yao", []),
]


def run(mancala, args, env=None):
    """`mancala ARGS --json`: (seconds, parsed output or None)."""
    started = time.time()
    out = subprocess.run([mancala, *args, "--json"], capture_output=True, text=True, env=env)
    took = time.time() - started
    try:
        return took, json.loads(out.stdout)
    except json.JSONDecodeError:
        raise SystemExit(f"{args}: {out.stderr.strip()}")


def quantiles(xs):
    xs = sorted(xs)
    q = lambda f: xs[min(len(xs) - 1, int(f * len(xs)))]
    return q(0.5), q(0.9), xs[-1]


def random_position(mancala, game, opts, rng):
    """A uniformly random position of a uniformly random game, among those with a move to make:
    the game is played to its end by uniformly random moves, then one of its positions where a
    side is still to move is drawn (a finished game is the rules' answer, not a question)."""
    moves, seen = [], []
    while True:
        args = ["moves", game, *opts] + (["--moves", " ".join(moves)] if moves else [])
        _, v = run(mancala, args)
        if not v["moves"]:
            break
        seen.append(v["position"])
        m = rng.choice(v["moves"])
        moves.append(f"{v['to_move']}{m['move']}")
    return rng.choice(seen)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mancala", default="target/release/mancala")
    ap.add_argument("--random", type=int, default=20)
    ap.add_argument("--time-limit", default="60")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--engine", type=int, default=2)
    ap.add_argument("--tables", help="the default table directory for every run")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    m = a.mancala
    if a.tables:
        if not os.path.isdir(a.tables):
            raise SystemExit(f"{a.tables}: no such directory")
        os.environ["MANCALA_TABLES"] = a.tables
    # No memory for the timings of the book and the search: the memory rows use their own file.
    env = dict(os.environ, MANCALA_MEMORY="off")
    rows = []

    for game, opts in STANDARD:
        took, v = run(m, ["analyze", game, *opts, "--time-limit", a.time_limit], env)
        name = " ".join([game, *opts])
        rows.append((f"start of {name}: every move's value", f"{took:.3f} s", v.get("source", "?") if v["complete"] else "stopped"))

    book = []
    for game, opts in STANDARD[:2] + STANDARD[4:5]:
        _, start = run(m, ["moves", game, *opts], env)
        for child in start["moves"]:
            took, v = run(m, ["analyze", game, *opts, "--position", child["position"], "--time-limit", a.time_limit], env)
            if v.get("source") == "book":
                book.append(took)
    if book:
        p50, p90, mx = quantiles(book)
        rows.append((f"book positions one ply deep ({len(book)})", f"p50 {p50:.3f} s, p90 {p90:.3f} s, max {mx:.3f} s", "book"))

    with tempfile.TemporaryDirectory() as d:
        mem = dict(os.environ, MANCALA_MEMORY=os.path.join(d, "memory.sqlite"))
        args = ["analyze", "kalah", "--holes", "5", "--seeds", "4", "--no-book"]
        first, _ = run(m, args, mem)
        second, v = run(m, args, mem)
        rows.append(("the same question twice (Kalah(5,4) start): first, second", f"{first:.3f} s, {second:.3f} s", v.get("source")))

    for game, opts in STANDARD[:2]:
        times = []
        stopped = 0
        for _ in range(a.random):
            p = random_position(m, game, opts, rng)
            if p is None:
                continue
            took, v = run(m, ["analyze", game, *opts, "--position", p, "--time-limit", a.time_limit], env)
            times.append(took)
            stopped += not v["complete"]
        if times:
            p50, p90, mx = quantiles(times)
            name = " ".join([game, *opts])
            rows.append((f"{name}: {len(times)} positions of random games", f"p50 {p50:.2f} s, p90 {p90:.2f} s, max {mx:.2f} s", f"{stopped} stopped at {a.time_limit} s"))

    for game, opts in STANDARD[:2]:
        times, sources, stopped = [], {}, 0
        for g in range(a.engine):
            engine_side = "S" if g % 2 == 0 else "N"
            moves = []
            while True:
                margs = ["moves", game, *opts] + (["--moves", " ".join(moves)] if moves else [])
                _, v = run(m, margs, env)
                if not v["moves"]:
                    break
                if v["to_move"] == engine_side:
                    pargs = ["analyze", game, *opts, "--time-limit", a.time_limit]
                    pargs += ["--moves", " ".join(moves)] if moves else []
                    took, an = run(m, pargs, env)
                    times.append(took)
                    src = an.get("source", "?") if an["complete"] else "stopped"
                    sources[src] = sources.get(src, 0) + 1
                    stopped += not an["complete"]
                    # A stopped analysis may name no best move: then any proven-best or the
                    # first listed move (the benchmark times questions; the game goes on).
                    best = (an.get("best") or [v["moves"][0]["move"]])[0]
                else:
                    best = rng.choice(v["moves"])["move"]
                moves.append(f"{v['to_move']}{best}")
        if times:
            p50, p90, mx = quantiles(times)
            name = " ".join([game, *opts])
            srcs = ", ".join(f"{k} {n}" for k, n in sorted(sources.items()))
            rows.append((f"{name}: {len(times)} engine moves of {a.engine} games against a random player", f"p50 {p50:.2f} s, p90 {p90:.2f} s, max {mx:.2f} s", srcs))

    print("| question | time (fresh process, wall) | answered from |")
    print("|---|---|---|")
    for r in rows:
        print(f"| {r[0]} | {r[1]} | {r[2]} |")


if __name__ == "__main__":
    main()
