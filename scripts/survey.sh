#!/usr/bin/env bash
# Reproduces the survey tables of the README: the first player's advantage (exact value of the
# start position) over a range of board sizes for all five games, and the Dakon first-turn
# (winning opening) results for 3..10 holes. Writes CSV, SVG and Markdown into docs/survey/.
#
# Usage: scripts/survey.sh [time limit per size in seconds, default 10]
# Sizes not solved within the limit are reported as unknown, never guessed. With the default
# limit the whole script takes about 10 minutes on 2 cores; a larger limit fills in more cells.
set -euo pipefail
cd "$(dirname "$0")/.."
limit=${1:-10}
out=docs/survey
mkdir -p "$out"
# MANCALA_BIN: an already built binary to use instead of building one.
if [ -n "${MANCALA_BIN:-}" ]; then
  bin=$MANCALA_BIN
else
  cargo build --release --quiet
  bin=${CARGO_TARGET_DIR:-target}/release/mancala
fi

survey() { # name game holes seeds seconds-per-size [rule flags]
  local name=$1 game=$2 holes=$3 seeds=$4 secs=$5
  shift 5
  echo "== $name: holes $holes, seeds $seeds, $secs s per size" >&2
  "$bin" verify first-player "$game" --holes "$holes" --seeds "$seeds" "$@" --time-limit "$secs" \
    --csv "$out/$name.csv" --plot "$out/$name.svg" > "$out/$name.md"
}

survey kalah               kalah         1..6 1..4 "$limit"
survey kalah-empty-capture kalah         1..6 1..4 "$limit" --empty-capture
# Dakon 6x6 needs a little longer than the rest.
survey dakon               dakon         3..6 1..6 "$((limit * 3))"
survey djenon-aboure       djenon-aboure 2..7 1..5 "$limit"
survey walak-pussa         walak-pussa   2..7 1..5 "$limit"
survey san-yao             san-yao       2..6 1..5 "$limit"

# Dakon: the first player's whole first turn, 3..10 holes with seeds = holes, plus the full game
# value where it is found within the limit.
echo "== dakon openings 3..10" >&2
for n in 3 4 5 6 7 8 9 10; do
  "$bin" verify opening dakon --holes "$n" --solve --time-limit "$limit" --json
done > "$out/dakon-opening.jsonl.tmp"
mv "$out/dakon-opening.jsonl.tmp" "$out/dakon-opening.jsonl"
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
rows = [json.loads(l) for l in open(f"{out}/dakon-opening.jsonl")]
moves = lambda m: "" if m is None else " ".join(map(str, m))
csv = ["holes,seeds,total_seeds,complete,winning,count,total,shortest,best,max_store,value,nodes,seconds"]
md = ["| board | seeds | winning opening | winning first turns | first turns | shortest winning | largest store | full-game value | seconds |",
      "|:--|--:|:--|--:|--:|:--|--:|--:|--:|"]
for r in rows:
    n, exact = r["holes"], r["complete"]
    bound = "" if exact else ">="
    count = r["count"] if exact else r["count_at_least"]
    total = r["total"] if exact else r["total_at_least"]
    win = {True: "yes", False: "no", None: "unknown"}[r["winning"]]
    value = r.get("value")
    csv.append(",".join(str(x) for x in [n, n, r["total_seeds"], str(exact).lower(), win, bound + str(count),
               bound + str(total), moves(r["shortest"]), moves(r["best"]), bound + str(r["max_store"]),
               "" if value is None else value, r["nodes"], "%.1f" % r["seconds"]]))
    md.append(f"| {n}x{n} | {r['total_seeds']} | {win} | {bound}{count} | {bound}{total} | "
              f"{moves(r['shortest']).replace(' ', ',')} | {bound}{r['max_store']} | "
              f"{'unknown' if value is None else '%+d' % value} | {r['seconds']:.1f} |")
for name, lines in [("dakon-opening.csv", csv), ("dakon-opening.md", md)]:
    with open(f"{out}/{name}.tmp", "w") as f:
        f.write("\n".join(lines) + "\n")
    import os
    os.replace(f"{out}/{name}.tmp", f"{out}/{name}")
PY
echo "wrote $out/" >&2
