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

With endgame tables (`--tables DIR`: the rows above plus each solver with a K=20 database):

    mancala tables build kalah --holes 6 --max-seeds 20 --dir DIR            # and --empty-capture
    (cd ../kalah && printf '4\\nc 20\\nq\\n' | ./generator eg20.dat)      # Irving's, 4 bits
    (cd ../CMancala && printf 'egdb 20\\nquit\\n' | ./Mancala)              # EGDB/egdb_20.bin
    scripts/bench-peers.py --irving ../kalah --cmancala ../CMancala/Mancala --tables DIR

Each solver reads its database from disk in every run (ours `--tables`, Irving's `-E`, CMancala's
`egdb 20` from its EGDB/ folder), so the times include loading it.

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
ap.add_argument("--tables", metavar="DIR",
                help="also the rows with endgame tables: ours with `--tables=DIR` (K seeds), "
                     "Irving's with `-e K -E egK.dat`, CMancala's with `egdb K`")
ap.add_argument("--tables-seeds", type=int, default=20, metavar="K",
                help="the seeds the tables cover (default 20)")
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


def ours(ec, threads, tables=False):
    # No opening book (it answers the start at once), no memory of proven positions, and the
    # endgame tables only when asked: the search itself is measured.
    source = [f"--tables={args.tables}"] if tables else ["--no-tables"]
    def go():
        cmd = [args.bin, "solve", "kalah", "--holes", "6", "--seeds", str(args.seeds),
               "--threads", str(threads), "--json", "--no-book", "--no-memory", *source] + (
                   ["--empty-capture"] if ec else [])
        out, wall, cpu = run(cmd + args.extra.split())
        v = re.search(r'"value":(-?\d+)', out).group(1)
        nodes = re.search(r'"nodes":(\d+)', out).group(1)
        return int(v), int(nodes), wall, cpu
    return go


def irving(k=0):
    out, wall, cpu = run(["./kalah-s", "-t", "24", "-e", str(k), "-E", f"eg{k}.dat", "s",
                          str(args.seeds)], cwd=args.irving)
    v = int(re.search(r"Move: s 0, m \d+, r (-?\d+)", out).group(1))
    nodes = int(re.search(r"Nodes searched:\s+(\d+)", out).group(1))
    return v, nodes, wall, cpu


def cmancala(k=0):
    # `egdb K` loads the database from EGDB/egdb_K.bin in the working directory (generating
    # it the first time: run once beforehand so that no round pays for that).
    egdb = f"egdb {k}\n" if k else ""
    script = (f"stones {args.seeds}\ndepth 0\ntime 0\nbook false\n{egdb}player 1 ai\n"
              "player 2 human\nautoplay false\nprogress false\nstart\nmenu\nstep\nlast\nquit\n")
    out, wall, cpu = run([os.path.abspath(args.cmancala)], stdin=script,
                         cwd=os.path.dirname(os.path.abspath(args.cmancala)))
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
k = args.tables_seeds
if args.tables and args.irving:
    commands += [(f"ours empty-capture, K={k} tables, 1 thread", ours(True, 1, True)),
                 (f"ours empty-capture, K={k} tables, 2 threads", ours(True, 2, True)),
                 (f"Irving kalah-s -e {k} (empty-capture)", lambda: irving(k))]
if args.tables and args.cmancala:
    commands += [(f"ours standard, K={k} tables, 1 thread", ours(False, 1, True)),
                 (f"ours standard, K={k} tables, 2 threads", ours(False, 2, True)),
                 (f"CMancala egdb {k} (standard)", lambda: cmancala(k))]
if not commands:
    sys.exit("give --irving and/or --cmancala")
# Checked before the first (long) run, not after it.
for path in [args.bin, args.cmancala, args.irving and os.path.join(args.irving, "kalah-s"),
             args.irving and os.path.join(args.irving, "eg0.dat"),
             args.irving and args.tables and os.path.join(args.irving, f"eg{k}.dat"),
             args.cmancala and args.tables and os.path.join(
                 os.path.dirname(os.path.abspath(args.cmancala)), "EGDB", f"egdb_{k}.bin")]:
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
