#!/usr/bin/env python3
"""Batch solving against separate solves: the same values, and the time of each.

Generates N distinct unfinished Kalah(HOLES,SEEDS) positions by seeded random playouts (each move
chosen from `mancala moves --json`): by default one position per playout, after 6 to 25 moves;
with `--games`, every position of each playout from its first move to its end (a file of game
records, as when analysing played games). Solves them once with
`mancala solve kalah --batch FILE` and once with one `mancala solve kalah --position P` per line,
checks that every value agrees, and prints both wall times, CPU times (user + system of the
child processes: steadier on a shared machine) and their ratios.

    scripts/bench-batch.py [--bin target/release/mancala] [-n 1000] [--holes 6] [--seeds 3]
                           [--threads 1] [--extra "--hash-mb 64"]
"""
import argparse, json, random, resource, subprocess, sys, tempfile, time, os

ap = argparse.ArgumentParser()
ap.add_argument("--bin", default="target/release/mancala")
ap.add_argument("-n", type=int, default=1000)
ap.add_argument("--holes", type=int, default=6)
ap.add_argument("--seeds", type=int, default=3)
ap.add_argument("--threads", default="1")
ap.add_argument("--extra", default="", help="more flags for both runs")
ap.add_argument("--seed", type=int, default=1)
ap.add_argument("--positions", help="read positions from this file instead of generating them")
ap.add_argument("--skip-separate", action="store_true")
ap.add_argument("--games", action="store_true", help="every position of each playout")
a = ap.parse_args()
extra = a.extra.split()

def run(args):
    return subprocess.run([a.bin] + args, check=True, capture_output=True, text=True).stdout

if a.positions:
    positions = [l.strip() for l in open(a.positions) if l.strip()]
else:
    rng = random.Random(a.seed)
    seen, positions = set(), []
    while len(positions) < a.n:
        length = 1000 if a.games else 6 + rng.randrange(20)
        pos = None
        for _ in range(length):
            args = ["moves", "kalah", "--holes", str(a.holes), "--seeds", str(a.seeds), "--json"]
            if pos:
                args = ["moves", "kalah", "--position", pos, "--json"]
            moves = json.loads(run(args))["moves"]
            if not moves:
                break
            pos = rng.choice(moves)["position"]
            if a.games and not pos.endswith("/-") and pos not in seen and len(positions) < a.n:
                seen.add(pos)
                positions.append(pos)
        if not a.games and pos and not pos.endswith("/-") and pos not in seen:
            seen.add(pos)
            positions.append(pos)

with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
    f.write("\n".join(positions) + "\n")
    path = f.name
print(f"{len(positions)} positions in {path}", file=sys.stderr)

def cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime

t, c = time.monotonic(), cpu()
out = run(["solve", "kalah", "--batch", path, "--threads", a.threads] + extra)
batch_s, batch_cpu = time.monotonic() - t, cpu() - c
batch = [json.loads(l)["value"] for l in out.splitlines()]
print(f"batch:    {batch_s:8.2f} s wall, {batch_cpu:8.2f} s CPU")
if a.skip_separate:
    sys.exit(0)
t, c = time.monotonic(), cpu()
sep = []
for p in positions:
    sep.append(json.loads(run(["solve", "kalah", "--position", p, "--json", "--threads", a.threads] + extra))["value"])
sep_s, sep_cpu = time.monotonic() - t, cpu() - c
print(f"separate: {sep_s:8.2f} s wall, {sep_cpu:8.2f} s CPU")
bad = [i for i, (x, y) in enumerate(zip(batch, sep)) if x != y]
print(f"ratio batch/separate: {batch_s / sep_s:.3f} wall, {batch_cpu / sep_cpu:.3f} CPU; "
      f"values differ on {len(bad)} lines")
sys.exit(1 if bad or len(batch) != len(sep) else 0)
