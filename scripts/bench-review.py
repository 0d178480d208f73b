#!/usr/bin/env python3
"""`mancala review` of uniformly random Kalah(6,4) standard games, with and without tables.

Plays GAMES uniformly random games from the start of Kalah(6,4) (each move chosen by a seeded
`random.Random` from `mancala moves --json`), then reviews each RUNS times with
`mancala review kalah --moves LINE --json` without tables and with each `--tables DIR` given,
checks that every run agrees on every value, and prints the wall time of each review and their
median per setting, with the machine's 1-minute load average before and after each run (other
work on the machine slows every run), and how many moves each source answered (`review` asks the
analyzer: the opening book, the memory, the tables, then the search).

Every run is given `--no-memory`, so that a run is not answered from what the run before it
proved (`--memory` keeps the default memory, for timing what a user's second review costs); the
runs "without tables" are given `--no-tables`, so that the default table directory is not used
behind them; `--no-book` leaves the opening book out too (it answers the first move or two).

    scripts/bench-review.py [--bin target/release/mancala] [--games 1] [--runs 3] [--seed 1]
                            [--threads 2] [--tables DIR ...] [--no-plain] [--memory] [--no-book]

The issue's targets (55): under 30 s median on 2 cores with the recommended tables, under 3
minutes without tables. Results: docs/performance.md, "Reviewing a game".
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time

ap = argparse.ArgumentParser()
ap.add_argument("--bin", default="target/release/mancala")
ap.add_argument("--games", type=int, default=1)
ap.add_argument("--runs", type=int, default=3)
ap.add_argument("--seed", type=int, default=1)
ap.add_argument("--threads", default="2")
ap.add_argument("--tables", action="append", default=[], help="a table directory (repeatable)")
ap.add_argument("--no-plain", action="store_true", help="skip the runs without tables")
ap.add_argument("--memory", action="store_true", help="use the default memory of proven positions")
ap.add_argument("--no-book", action="store_true", help="leave the opening book out")
a = ap.parse_args()


def run(args):
    return subprocess.run([a.bin] + args, check=True, capture_output=True, text=True).stdout


def random_game(rng):
    moves = []
    while True:
        legal = json.loads(run(["moves", "kalah", "--moves", " ".join(moves), "--json"]))["moves"]
        if not legal:
            return moves
        moves.append(str(rng.choice(legal)["move"]))


def review(line, tables):
    flags = ["--tables=" + tables] if tables else ["--no-tables"]
    flags += [] if a.memory else ["--no-memory"]
    flags += ["--no-book"] if a.no_book else []
    started = time.perf_counter()
    out = run(["review", "kalah", "--moves", line, "--json", "--threads", a.threads] + flags)
    seconds = time.perf_counter() - started
    r = json.loads(out)
    values = [(m["value"], m["best_value"], m["loss"]) for m in r["moves"]]
    return seconds, values, r


rng = random.Random(a.seed)
settings = ([None] if not a.no_plain else []) + a.tables
for g in range(a.games):
    line = " ".join(random_game(rng))
    print(f"game {g + 1}: {len(line.split())} moves: {line}")
    reference = None
    for tables in settings:
        times = []
        for _ in range(a.runs):
            load_before = os.getloadavg()[0]
            seconds, values, r = review(line, tables)
            load_after = os.getloadavg()[0]
            if reference is None:
                reference = values
            elif values != reference:
                sys.exit(f"error: the values differ between runs ({tables or 'no tables'})")
            times.append(seconds)
            sources = {}
            for m in r["moves"]:
                sources[m["source"]] = sources.get(m["source"], 0) + 1
            answered = ", ".join(f"{k} {v}" for k, v in sorted(sources.items()))
            print(f"  {tables or 'no tables'}: {seconds:.1f} s (load {load_before:.1f} -> {load_after:.1f}; moves from {answered})", flush=True)
        s, n = r["south"], r["north"]
        print(
            f"  {tables or 'no tables'}: median {statistics.median(times):.1f} s over {a.runs} runs; "
            f"mean loss S {s['mean_loss']:.2f} N {n['mean_loss']:.2f}, accuracy S {s['accuracy']:.2f} N {n['accuracy']:.2f}"
        )
