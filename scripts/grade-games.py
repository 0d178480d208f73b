#!/usr/bin/env python3
"""Grades a directory of games against perfect play and prints a table per player.

Usage: scripts/grade-games.py DIR [--mancala BIN] [--threads N] [--tables[=DIR]]
                              [--time-limit SECS] [--mistake N] [--blunder N] [--json]

Every ``*.json`` file under DIR is one game: a game record as ``mancala play --record FILE``
writes it (one JSON line: ``game``, ``options``, ``start``, ``moves``, ...), with one optional
key more, ``"players": {"S": "alice", "N": "bob"}``, naming who played each side (without it
the players are the file's name with ``/S`` or ``/N``). The games are graded by
``mancala review --batch`` (docs/cli.md, "Reviewing a game"), one batch, so one search and one
transposition table, per game and board; then each player's moves are summed over all their
games: moves, seeds lost in all and per move, accuracy (the share of best moves), and the
inaccuracies, mistakes and blunders (by ``--mistake`` and ``--blunder``, in seeds lost).

A game that cannot be read or reviewed is reported on stderr and left out (exit status 1).
With a time limit, a search that runs out leaves bounds: the table then shows a loss's range.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]


def find_mancala(asked: str | None) -> str:
    for c in (asked, os.environ.get("MANCALA_BIN"), str(ROOT / "target" / "release" / "mancala"), shutil.which("mancala")):
        if c and os.access(c, os.X_OK):
            return c
    sys.exit("error: no mancala binary: build it with `cargo build --release`, or pass --mancala BIN")


def read_games(directory: pathlib.Path):
    """Every game under `directory`: (file, record without `players`, {side: player}), and the
    files that could not be read, with why."""
    games, bad = [], []
    for path in sorted(directory.rglob("*.json")):
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(record, dict) or "moves" not in record or "start" not in record:
                raise ValueError("not a game record (no 'start' and 'moves')")
            players = record.pop("players", None) or {}
            name = str(path.relative_to(directory))
            sides = {s: str(players.get(s, f"{name}/{s}")) for s in ("S", "N")}
            games.append((path, record, sides))
        except (OSError, ValueError) as e:
            bad.append((path, str(e)))
    return games, bad


def review(mancala: str, records, args) -> list:
    """`mancala review --batch` of records of one game and board: one JSON object per record."""
    first = records[0]
    holes = len(first["start"].split("/")[0].split(","))
    cmd = [mancala, "review", first["game"], "--holes", str(holes), "--json", "--mistake", str(args.mistake), "--blunder", str(args.blunder)]
    cmd += [f"--{o}" for o in first.get("options", [])]
    if args.threads:
        cmd += ["--threads", str(args.threads)]
    if args.tables is not None:
        cmd += ["--tables"] if args.tables == "" else [f"--tables={args.tables}"]
    if args.time_limit:
        cmd += ["--time-limit", str(args.time_limit)]
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        for r in records:
            f.write(json.dumps(r) + "\n")
        batch = f.name
    try:
        done = subprocess.run(cmd + ["--batch", batch], capture_output=True, text=True)
    finally:
        os.unlink(batch)
    if done.returncode not in (0, 1, 124):
        sys.exit(f"error: {' '.join(cmd)} failed: {done.stderr.strip()}")
    return [json.loads(line) for line in done.stdout.splitlines()]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir", type=pathlib.Path)
    ap.add_argument("--mancala", help="the mancala binary (default: $MANCALA_BIN, target/release/mancala, PATH)")
    ap.add_argument("--threads", type=int)
    ap.add_argument("--tables", nargs="?", const="", default=None, help="endgame tables (no DIR: the default directory)")
    ap.add_argument("--time-limit", type=float, help="seconds per search")
    ap.add_argument("--mistake", type=int, default=2)
    ap.add_argument("--blunder", type=int, default=6)
    ap.add_argument("--json", action="store_true", help="print the table as JSON")
    args = ap.parse_args()
    if not args.dir.is_dir():
        sys.exit(f"error: {args.dir}: not a directory")
    mancala = find_mancala(args.mancala)
    games, bad = read_games(args.dir)
    # One batch per game, options and board.
    groups = collections.defaultdict(list)
    for g in games:
        r = g[1]
        key = (r.get("game"), tuple(r.get("options", [])), len(r["start"].split("/")[0].split(",")))
        groups[key].append(g)
    totals = collections.defaultdict(lambda: collections.Counter())
    for key, members in sorted(groups.items(), key=lambda kv: str(kv[0])):
        results = review(mancala, [m[1] for m in members], args)
        for out in results:
            path, _record, sides = members[out["line"] - 1]
            if "error" in out:
                bad.append((path, out["error"]))
                continue
            for side in ("S", "N"):
                s = out["south" if side == "S" else "north"]
                t = totals[sides[side]]
                t["games"] += 1
                for k in ("moves", "best_moves", "inaccuracies", "mistakes", "blunders", "loss_lower", "loss_upper"):
                    t[k] += s[k]
    for path, why in bad:
        print(f"error: {path}: {why}", file=sys.stderr)
    rows = []
    for player, t in sorted(totals.items()):
        moves = t["moves"]
        exact = t["loss_lower"] == t["loss_upper"]
        rows.append({
            "player": player,
            "games": t["games"],
            "moves": moves,
            "loss": t["loss_lower"] if exact else [t["loss_lower"], t["loss_upper"]],
            "mean_loss": (t["loss_lower"] / moves if moves else 0.0) if exact else None,
            "accuracy": t["best_moves"] / moves if moves else 1.0,
            "inaccuracies": t["inaccuracies"],
            "mistakes": t["mistakes"],
            "blunders": t["blunders"],
        })
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        print(f"{'player':<24} {'games':>5} {'moves':>6} {'seeds lost':>10} {'per move':>8} {'accuracy':>8} {'inacc.':>6} {'mistakes':>8} {'blunders':>8}")
        for r in rows:
            loss = r["loss"] if not isinstance(r["loss"], list) else f"{r['loss'][0]}..{r['loss'][1]}"
            mean = "?" if r["mean_loss"] is None else f"{r['mean_loss']:.2f}"
            print(f"{r['player']:<24} {r['games']:>5} {r['moves']:>6} {loss!s:>10} {mean:>8} {100 * r['accuracy']:>7.1f}% {r['inaccuracies']:>6} {r['mistakes']:>8} {r['blunders']:>8}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
