#!/usr/bin/env python3
"""The search side by side with the two public peers, on one machine, runs taken in turns.

Kalah(6,SEEDS) from the start, no endgame tables, each solver solving the start exactly:
  - Irving's `kalah-s` (Irving, Donkers, Uiterwijk 2000; empty-capture rules: a last seed in an
    own empty pit is banked even when the opposite pit is empty) against `mancala solve kalah
    --empty-capture`;
  - CMancala (standard rules) against `mancala solve kalah`.
Ours runs with 1 and 2 threads (`--threads`), both peers are single-threaded. Every round runs
every command once, in a fixed order, so slow phases of a shared machine hit all of them; the
table gives medians of wall seconds and CPU seconds (user + system of the child), the values
(which must agree: the script stops otherwise) and the ratios ours / peer, of wall and of CPU
time (on a busy machine the CPU ratio is the steadier).

Building the peers (outside the repository; they are not ours to vendor):

    git clone https://github.com/girving/kalah && cd kalah
    make serial CFLAGS="-O3 -funroll-loops -w -fcommon -fgnu89-inline"   # 2009 C, gnu89 inlines
    printf '4\\nq\\n' | ./generator eg0.dat         # an empty endgame database: -e 0, no tables

    git clone https://github.com/LifesLight/CMancala && cd CMancala
    gcc -std=c2x -O3 -march=native -fno-stack-protector -flto=auto -Iinclude \\
        -DMANCALA_VERSION='"12.2"' -DEGDB_BACKEND_NAME='"RAM"' src/main.c src/logic/*.c \\
        src/logic/solver/*.c src/logic/solver/egdb/core.c src/logic/solver/egdb/memory/direct.c \\
        src/user/*.c -lm -o Mancala                  # the flags of its CMakeLists.txt, no cmake

    scripts/bench-peers.py --irving ../kalah --cmancala ../CMancala/Mancala [--rounds 3]

Irving's table is `-t 24` (12 * 2^24 bytes, 201 MB), CMancala's its default `cache 24`, ours its
default (a table that grows with the search) unless `--extra` says otherwise.
"""
import argparse, os, re, resource, statistics, subprocess, sys, time

ap = argparse.ArgumentParser()
ap.add_argument("--bin", default="target/release/mancala")
ap.add_argument("--irving", help="directory of Irving's kalah-s and eg0.dat")
ap.add_argument("--cmancala", help="CMancala's binary")
ap.add_argument("--seeds", type=int, default=4)
ap.add_argument("--rounds", type=int, default=3)
ap.add_argument("--extra", default="", help="more options for every `mancala solve`")
args = ap.parse_args()


def run(cmd, stdin=None, cwd=None):
    """Runs cmd; returns (stdout, wall seconds, CPU seconds of the child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    try:
        p = subprocess.run(cmd, input=stdin, capture_output=True, text=True, cwd=cwd)
    except OSError as e:
        sys.exit(f"cannot run {cmd[0]}: {e}")
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if p.returncode != 0:
        sys.exit(f"{cmd} failed: {p.stderr}")
    return p.stdout, wall, cpu


def ours(ec, threads):
    def go():
        cmd = [args.bin, "solve", "kalah", "--holes", "6", "--seeds", str(args.seeds),
               "--threads", str(threads), "--json"] + (["--empty-capture"] if ec else [])
        out, wall, cpu = run(cmd + args.extra.split())
        v = re.search(r'"value":(-?\d+)', out).group(1)
        nodes = re.search(r'"nodes":(\d+)', out).group(1)
        return int(v), int(nodes), wall, cpu
    return go


def irving():
    out, wall, cpu = run(["./kalah-s", "-t", "24", "-e", "0", "-E", "eg0.dat", "s", str(args.seeds)],
                         cwd=args.irving)
    v = int(re.search(r"Move: s 0, m \d+, r (-?\d+)", out).group(1))
    nodes = int(re.search(r"Nodes searched:\s+(\d+)", out).group(1))
    return v, nodes, wall, cpu


def cmancala():
    script = (f"stones {args.seeds}\ndepth 0\ntime 0\nbook false\nplayer 1 ai\nplayer 2 human\n"
              "autoplay false\nprogress false\nstart\nmenu\nstep\nlast\nquit\n")
    out, wall, cpu = run([args.cmancala], stdin=script)
    v = int(re.search(r"Evaluation: (-?\d+)", out).group(1))
    nodes = round(float(re.search(r"Total nodes: ([\d.]+) million", out).group(1)) * 1e6)
    return v, nodes, wall, cpu


commands = []
if args.irving:
    commands += [("ours empty-capture, 1 thread", ours(True, 1)),
                 ("ours empty-capture, 2 threads", ours(True, 2)),
                 ("Irving kalah-s (empty-capture)", irving)]
if args.cmancala:
    commands += [("ours standard, 1 thread", ours(False, 1)),
                 ("ours standard, 2 threads", ours(False, 2)),
                 ("CMancala (standard)", cmancala)]
if not commands:
    sys.exit("give --irving and/or --cmancala")
# Checked before the first (long) run, not after it.
for path in [args.bin, args.cmancala, args.irving and os.path.join(args.irving, "kalah-s"),
             args.irving and os.path.join(args.irving, "eg0.dat")]:
    if path and not os.path.isfile(path):
        sys.exit(f"{path}: no such file (see the header of {sys.argv[0]} for building the peers)")

results = {name: [] for name, _ in commands}
for r in range(args.rounds):
    for name, go in commands:
        res = go()
        results[name].append(res)
        print(f"round {r + 1}: {name}: value {res[0]:+d}, {res[1]} nodes, "
              f"{res[2]:.2f} s wall, {res[3]:.2f} s CPU", file=sys.stderr, flush=True)

med = {n: (statistics.median(x[2] for x in rs), statistics.median(x[3] for x in rs))
       for n, rs in results.items()}
print(f"Kalah(6,{args.seeds}), {args.rounds} rounds in turns; medians"
      + (f"; ours with `{args.extra}`" if args.extra else ""))
print()
print("| solver | value | nodes | wall s | CPU s | ours / peer (wall) | ours / peer (CPU) |")
print("| --- | --- | --- | --- | --- | --- | --- |")
for i in range(0, len(commands), 3):
    group = commands[i:i + 3]
    peer = group[2][0]
    values = {x[0] for n, _ in group for x in results[n]}
    if len(values) != 1:
        sys.exit(f"values disagree: {values}")
    for n, _ in group:
        nodes = statistics.median(x[1] for x in results[n])
        ratio = "" if n == peer else f"{med[n][0] / med[peer][0]:.2f}"
        cpu = "" if n == peer else f"{med[n][1] / med[peer][1]:.2f}"
        print(f"| {n} | {results[n][0][0]:+d} | {nodes / 1e6:.1f} M | {med[n][0]:.2f} | "
              f"{med[n][1]:.2f} | {ratio} | {cpu} |")
