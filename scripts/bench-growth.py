#!/usr/bin/env python3
"""The transposition table's growth rule against fixed table sizes, on emulated caches.

The default table starts small and grows (solver/src/search/threads.rs, `grow_after`); its rule
reads the processor's last-level cache size, which `MANCALA_CACHE_BYTES` overrides, so one
machine can show what the rule does on another (the nodes are those of that machine; the times
are this machine's). Every board is solved from the start with 1 thread (deterministic nodes),
without book, memory or endgame tables, under each configuration in turns:

  - `default @ SIZE`: the growing table, the rule told the cache is SIZE;
  - `fixed N MiB`: `--hash-mb N`.

    scripts/bench-growth.py [--bin BIN] [--rounds 3] [--caches 32M,480M] [--fixed 128,512,2048]
        [--boards kalah:6:4,...]

It prints one markdown table per board (median wall seconds, nodes, peak RSS) and, per cache,
the default's time over the best fixed size's.
"""
import argparse, os, re, resource, statistics, subprocess, sys, time

BOARDS = {
    "kalah:6:4": ["kalah", "--holes", "6", "--seeds", "4"],
    "kalah-ec:6:4": ["kalah", "--holes", "6", "--seeds", "4", "--empty-capture"],
    "kalah:5:5": ["kalah", "--holes", "5", "--seeds", "5"],
    "san-yao:8:4": ["san-yao", "--holes", "8", "--seeds", "4"],
    "walak-pussa:7:4": ["walak-pussa", "--holes", "7", "--seeds", "4"],
}

ap = argparse.ArgumentParser()
ap.add_argument("--bin", default="target/release/mancala")
ap.add_argument("--rounds", type=int, default=3)
ap.add_argument("--caches", default="32M,480M")
ap.add_argument("--fixed", default="128,512,2048")
ap.add_argument("--boards", default=",".join(BOARDS))
ap.add_argument("--threads", type=int, default=1)
args = ap.parse_args()

for b in args.boards.split(","):
    if b not in BOARDS:
        sys.exit(f"unknown board {b!r}: one of {', '.join(BOARDS)}")
if not os.path.isfile(args.bin):
    sys.exit(f"{args.bin}: no such file (cargo build --release)")

configs = [(f"default @ {c}", {"MANCALA_CACHE_BYTES": c}, []) for c in args.caches.split(",")]
configs += [(f"fixed {m} MiB", {}, ["--hash-mb", m]) for m in args.fixed.split(",") if m]


def run(board, env, extra):
    cmd = [args.bin, "solve", *BOARDS[board], "--threads", str(args.threads), "--json",
           "--no-book", "--no-tables", "--no-memory", *extra]
    e = dict(os.environ, **env)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-f", "%M", *cmd], capture_output=True, text=True, env=e)
    wall = time.perf_counter() - t
    if p.returncode != 0:
        sys.exit(f"{cmd} failed: {p.stderr}")
    rss_kib = int(p.stderr.strip().splitlines()[-1])
    value = int(re.search(r'"value":(-?\d+)', p.stdout).group(1))
    nodes = int(re.search(r'"nodes":(\d+)', p.stdout).group(1))
    return value, nodes, wall, rss_kib / 1024


boards = args.boards.split(",")
results = {(b, c[0]): [] for b in boards for c in configs}
for r in range(args.rounds):
    for b in boards:
        for name, env, extra in configs:
            res = run(b, env, extra)
            results[(b, name)].append(res)
            print(f"round {r + 1}: {b} {name}: value {res[0]:+d}, {res[1]} nodes, "
                  f"{res[2]:.2f} s, {res[3]:.0f} MiB", file=sys.stderr, flush=True)

print(f"{args.rounds} rounds in turns, {args.threads} thread(s), medians of wall time")
for b in boards:
    values = {x[0] for c in configs for x in results[(b, c[0])]}
    if len(values) != 1:
        sys.exit(f"{b}: values disagree: {values}")
    print(f"\n{b} (value {values.pop():+d})\n")
    print("| table | nodes | wall s | peak RSS MiB |")
    print("| --- | --- | --- | --- |")
    med = {}
    for name, _, _ in configs:
        rs = results[(b, name)]
        med[name] = statistics.median(x[2] for x in rs)
        print(f"| {name} | {statistics.median(x[1] for x in rs) / 1e6:.1f} M | {med[name]:.2f} | "
              f"{statistics.median(x[3] for x in rs):.0f} |")
    fixed = [n for n, _, _ in configs if n.startswith("fixed")]
    if fixed:
        best = min(fixed, key=lambda n: med[n])
        for name, _, _ in configs:
            if name.startswith("default"):
                print(f"\n{name}: {med[name] / med[best]:.2f} of the best fixed size ({best})")
