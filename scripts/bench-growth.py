#!/usr/bin/env python3
"""The transposition table's growth rule against fixed table sizes (issue 57).

The default table starts small and grows (solver/src/search/threads.rs, `grow_after`). Every
board is solved from the start with 1 thread (deterministic nodes), without book, memory or
endgame tables, under each configuration in turns:

  - `default`: BIN's growing table;
  - `fixed N MiB`: BIN with `--hash-mb N`;
  - `--other LABEL=BIN[,ENV=VALUE...]` (repeatable): another binary's growing table, with an
    environment (e.g. the binary of 65ead50, whose rule read the last-level cache size from
    `MANCALA_CACHE_BYTES`, run as `--other "cache rule @ 32M=/tmp/old,MANCALA_CACHE_BYTES=32M"`
    to emulate a machine with a 32 MiB cache).

    scripts/bench-growth.py [--bin BIN] [--rounds 3] [--fixed 128,512,2048] [--other ...]
        [--boards kalah:6:4,...] [--threads 1]

It prints one markdown table per board (median wall seconds, nodes, peak RSS) and each growing
table's time over the best fixed size's.
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
ap.add_argument("--other", action="append", default=[], metavar="LABEL=BIN[,ENV=VALUE...]")
ap.add_argument("--fixed", default="128,512,2048")
ap.add_argument("--boards", default=",".join(BOARDS))
ap.add_argument("--threads", type=int, default=1)
args = ap.parse_args()

for b in args.boards.split(","):
    if b not in BOARDS:
        sys.exit(f"unknown board {b!r}: one of {', '.join(BOARDS)}")
if not os.path.isfile(args.bin):
    sys.exit(f"{args.bin}: no such file (cargo build --release)")

# (label, binary, environment, extra flags); a growing table's label does not start with "fixed".
configs = [("default", args.bin, {}, [])]
for o in args.other:
    label, _, rest = o.partition("=")
    binary, *envs = rest.split(",")
    if not label or not binary or not os.path.isfile(binary):
        sys.exit(f"--other {o!r}: want LABEL=BIN[,ENV=VALUE...] with an existing BIN")
    configs.append((label, binary, dict(e.split("=", 1) for e in envs), []))
configs += [(f"fixed {m} MiB", args.bin, {}, ["--hash-mb", m]) for m in args.fixed.split(",") if m]


def run(board, binary, env, extra):
    cmd = [binary, "solve", *BOARDS[board], "--threads", str(args.threads), "--json",
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
        for name, binary, env, extra in configs:
            res = run(b, binary, env, extra)
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
    for name, _, _, _ in configs:
        rs = results[(b, name)]
        med[name] = statistics.median(x[2] for x in rs)
        print(f"| {name} | {statistics.median(x[1] for x in rs) / 1e6:.1f} M | {med[name]:.2f} | "
              f"{statistics.median(x[3] for x in rs):.0f} |")
    fixed = [c[0] for c in configs if c[0].startswith("fixed")]
    if fixed:
        best = min(fixed, key=lambda n: med[n])
        for name, _, _, _ in configs:
            if not name.startswith("fixed"):
                print(f"\n{name}: {med[name] / med[best]:.2f} of the best fixed size ({best})")
