#!/usr/bin/env bash
# Reproduces the published Kalah(6,4) values in both capture rules:
#   standard +8 (Rawlings 2015), empty-capture +10 (Irving, Donkers & Uiterwijk 2000),
#   best first move 3 in both (REFERENCE.md).
# With --seeds 5, Kalah(6,5): standard +10 (Rawlings 2015), empty-capture +12 (Irving et al.
#   2000); REFERENCE.md gives no best move there, so only the values are checked. It then builds
#   K = 27 tables for the standard rule and K = 26 for empty-capture by default (the fastest
#   from nothing for each: docs/performance.md, "The tables' K for each rule of Kalah(6,5)")
#   and solves: about 7.7 minutes on 2 cores with the builds (the 2-thread solves vary);
#   about 7.5 GiB of memory to build.
#
# Usage: scripts/kalah-6x4.sh [--no-tables] [--max-seeds K] [--seeds 4|5] [extra solve flags, e.g. --threads 2]
#
# By default it first builds (or reuses, after checking) the endgame tables of both rules up to
# K = 20 seeds on the board (with --seeds 5: 27 standard, 26 empty-capture; --max-seeds K sets
# both) in $MANCALA_TABLES (default: target/tables), then solves with them.
# --no-tables solves by search alone. Prints one line per rule with the table build time, value,
# best moves, nodes, seconds of search, TT hit rate, peak memory and the end-to-end time (the
# build plus the whole solve process, which also opens and checks the tables), and exits non-zero
# if a value or the best move disagrees with the published one.
set -euo pipefail
self="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
cd "$(dirname "$0")/.."
tables=1
max_seeds=""
seeds=4
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --no-tables) tables=0 ;;
    --max-seeds) max_seeds="${2:?--max-seeds needs a number}"; shift ;;
    --seeds) seeds="${2:?--seeds needs 4 or 5}"; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$self" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) extra+=("$1") ;;
  esac
  shift
done
case "$seeds" in
  4) want_standard=8; want_empty=10; want_best="[3]"; k_standard=${max_seeds:-20}; k_empty=${max_seeds:-20} ;;
  5) want_standard=10; want_empty=12; want_best=""; k_standard=${max_seeds:-27}; k_empty=${max_seeds:-26} ;;
  *) echo "--seeds must be 4 or 5 (the published Kalah(6,n) values), not $seeds" >&2; exit 2 ;;
esac
dir="${MANCALA_TABLES:-target/tables}"
cargo build --release --quiet
bin=target/release/mancala
status=0
for rule in standard empty-capture; do
  flags=()
  want=$want_standard
  max_seeds=$k_standard
  if [ "$rule" = empty-capture ]; then flags=(--empty-capture); want=$want_empty; max_seeds=$k_empty; fi
  build_s=0
  solve_flags=()
  if [ "$tables" = 1 ]; then
    start=$(date +%s.%N)
    "$bin" tables build kalah --holes 6 "${flags[@]}" --max-seeds "$max_seeds" --dir "$dir" > /dev/null
    end=$(date +%s.%N)
    build_s=$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.2f}')" "$start" "$end")
    solve_flags=(--tables "$dir")
  else
    solve_flags=(--no-tables)
  fi
  start=$(date +%s.%N)
  # Neither the opening book nor the memory of proven positions: either would answer the start
  # at once (the book holds Kalah(6,4)'s, the memory whatever an earlier run proved).
  out=$(/usr/bin/time -f '%M' -o /tmp/kalah-6x4.mem "$bin" solve kalah --holes 6 --seeds "$seeds" \
    "${flags[@]}" "${solve_flags[@]}" --no-book --no-memory --json "${extra[@]}")
  # The whole solve process: opening and checking the tables, the search, the output.
  end=$(date +%s.%N)
  solve_wall=$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.2f}')" "$start" "$end")
  peak_kb=$(tail -n 1 /tmp/kalah-6x4.mem)
  python3 - "$rule" "$want" "$peak_kb" "$tables" "$max_seeds" "$build_s" "$out" "$seeds" "$want_best" "$solve_wall" <<'PY' || status=1
import json, sys
rule, want, peak_kb, tables, k, build_s, out, seeds, want_best, solve_wall = sys.argv[1:11]
want, out = int(want), json.loads(out)
ok = out["value"] == want and (want_best == "" or str(out["best"]).replace(" ", "") == want_best)
published = f"published {want:+d}" + (f", best {want_best}" if want_best else "")
src = f"tables K={k} built/checked in {build_s} s, then" if tables == "1" else "no tables,"
print(f"Kalah(6,{seeds}) {rule:13s} value {out['value']:+d} best {out['best']} "
      f"({published}: {'agree' if ok else 'DISAGREE'}); {src} "
      f"solve {out['seconds']:.1f} s, {out['nodes']} nodes, "
      f"{out['nodes'] / out['seconds'] / 1e6:.2f} M nodes/s, TT hit rate {100 * out['tt_hit_rate']:.1f}%, "
      f"{out['threads']} threads, peak RSS {int(peak_kb) / 1024:.0f} MiB; "
      f"end to end {float(build_s) + float(solve_wall):.1f} s (the build and the whole solve process)")
sys.exit(0 if ok else 1)
PY
done
exit $status
