#!/usr/bin/env bash
# Reproduces the survey of docs/survey/: the first player's advantage (exact value of the start
# position) for every board size of every game over the whole ranges of docs/rules.md §2.11, and
# the Dakon first-turn (winning opening) results for 3..10 holes. Writes CSV, SVG and Markdown
# into docs/survey/, and grids.md, the five games' grids side by side.
#
# Usage: scripts/survey.sh [time limit per size in seconds, default 10] [PART...]
# SURVEY_FLAGS: more flags for every solve, e.g. "--threads 1 --hash-mb 1024" (default: all
# cores, 256 MiB); grids.md records the limit and these flags.
# PART: kalah, kalah-empty-capture, dakon, djenon-aboure, walak-pussa, san-yao, openings (the Dakon
# first turns), or none (only rewrite grids.md); default all of them. grids.md is always rewritten
# from the CSVs there are.
# A size not solved within the limit is reported as unknown with its reason (the CSV's status
# column: time-limit, or unsolvable when the board is too large for the search's exact keys),
# never guessed. Kalah uses endgame tables (both rules, built first in $MANCALA_TABLES, default
# target/tables): 5 holes K=36, 6 holes K=20 and 8 holes K=17, so that Kalah(5,6), (5,7), (6,4)
# and (8,3) fit in a 60 s limit: about 6 minutes on 2 cores, 6 GB of disk and up to 8 GB of
# memory (the 5-hole builds). Walak-pussa and San-Yao use them for 7 to 9 holes (K=12, about 13
# minutes on 2 cores, most of it the 9-hole tables), which divide the nodes of their 8x3 boards by
# 4 to 6.
# With the default limit the whole script takes about an hour on 2 cores, most of it the
# sizes that run out of time; a larger limit fills in more cells.
set -euo pipefail
cd "$(dirname "$0")/.."
limit=${1:-10}
[[ "$limit" =~ ^[0-9]+([.][0-9]+)?$ ]] || { echo "survey.sh: the time limit must be a number of seconds, not '$limit'" >&2; exit 2; }
shift || true
all_parts="kalah kalah-empty-capture dakon djenon-aboure walak-pussa san-yao openings"
parts=" ${*:-$all_parts} "
for p in "$@"; do
  [[ " $all_parts none " == *" $p "* ]] || { echo "survey.sh: unknown part '$p' (one of: $all_parts, none)" >&2; exit 2; }
done
wants() { [[ "$parts" == *" $1 "* ]]; }
out=docs/survey
read -r -a flags <<< "${SURVEY_FLAGS:-}"
tables="${MANCALA_TABLES:-target/tables}"
mkdir -p "$out" "$tables"
trap 'rm -f "$out"/*.tmp' EXIT # what a failed step leaves half written
# MANCALA_BIN: an already built binary to use instead of building one.
if [ -n "${MANCALA_BIN:-}" ]; then
  bin=$MANCALA_BIN
else
  cargo build --release --quiet
  bin=${CARGO_TARGET_DIR:-target}/release/mancala
fi

if wants kalah || wants kalah-empty-capture; then
  echo "== Kalah endgame tables, 5 holes K=36, 6 holes K=20, 8 holes K=17, both rules, in $tables" >&2
  for holes_k in 5:36 6:20 8:17; do
    for rule in "" --empty-capture; do
      "$bin" tables build kalah --holes "${holes_k%:*}" $rule --max-seeds "${holes_k#*:}" \
        --dir "$tables" > /dev/null
    done
  done
fi

for game in walak-pussa san-yao; do
  wants $game || continue
  echo "== $game endgame tables, 7 to 9 holes, K=12, in $tables" >&2
  for holes in 7 8 9; do
    "$bin" tables build "$game" --holes "$holes" --max-seeds 12 --dir "$tables" > /dev/null
  done
done

survey() { # name game holes seeds seconds-per-size [rule flags]
  local name=$1 game=$2 holes=$3 seeds=$4 secs=$5
  shift 5
  wants "$name" || return 0
  echo "== $name: holes $holes, seeds $seeds, $secs s per size" >&2
  "$bin" verify first-player "$game" --holes "$holes" --seeds "$seeds" "$@" ${flags[@]+"${flags[@]}"} --time-limit "$secs" \
    --csv "$out/$name.csv" --plot "$out/$name.svg" > "$out/$name.md.tmp"
  mv "$out/$name.md.tmp" "$out/$name.md" # a failed run (a bad SURVEY_FLAGS) keeps the old page
}

survey kalah               kalah         1..8  1..8  "$limit" --tables="$tables"
survey kalah-empty-capture kalah         1..8  1..8  "$limit" --empty-capture --tables="$tables"
survey dakon               dakon         3..10 1..10 "$limit"
survey djenon-aboure       djenon-aboure 2..9  1..8  "$limit"
survey walak-pussa         walak-pussa   2..9  1..8  "$limit" --tables="$tables"
survey san-yao             san-yao       2..9  1..8  "$limit" --tables="$tables"

# Dakon: the first player's whole first turn, 3..10 holes with seeds = holes, plus the full game
# value where it is found within the limit.
if wants openings; then
echo "== dakon openings 3..10" >&2
for n in 3 4 5 6 7 8 9 10; do
  "$bin" verify opening dakon --holes "$n" --solve ${flags[@]+"${flags[@]}"} --time-limit "$limit" --json
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
               bound + str(total), moves(r["shortest"]), moves(r["best_turn"]), bound + str(r["max_store"]),
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
fi
# The grids of all games in one file, with each game's coverage (sizes solved / unknown).
python3 - "$out" "$limit" "${SURVEY_FLAGS:-}" <<'PY'
import csv, os, sys
out, limit, flags = sys.argv[1], sys.argv[2], sys.argv[3]
games = [("kalah", "Kalah"), ("kalah-empty-capture", "Kalah, empty-capture"), ("dakon", "Dakon"),
         ("djenon-aboure", "Djenon-aboure"), ("walak-pussa", "Walak-pussa"), ("san-yao", "San-Yao")]
mark = {"time-limit": "?", "unsolvable": "x", "interrupted": "?", "not-run": "?"}
md = [f"Values of the standard start, final South (first player) minus North under perfect play.",
      f"Rows: holes per row; columns: seeds per hole. `?` = not solved within {limit} s (time);",
      "`x` = too large for the search's exact keys (memory). Written by "
      f"`{' '.join(x for x in ['SURVEY_FLAGS=' + repr(flags) if flags else '', 'scripts/survey.sh', limit] if x)}`.", ""]
coverage = ["| game | sizes | solved | unknown (time) | unknown (memory) |", "|:--|--:|--:|--:|--:|"]
for name, title in games:
    if not os.path.exists(f"{out}/{name}.csv"):
        continue
    rows = list(csv.DictReader(open(f"{out}/{name}.csv")))
    holes = sorted({int(r["holes"]) for r in rows})
    seeds = sorted({int(r["seeds"]) for r in rows})
    cell = {(int(r["holes"]), int(r["seeds"])): r for r in rows}
    md += [f"{title}:", "", "```text", " h\\s " + "".join(f"{s:>6}" for s in seeds)]
    for h in holes:
        line = f"{h:>4} "
        for sd in seeds:
            r = cell.get((h, sd))
            v = "" if r is None else (f"{int(r['value']):+d}" if r["status"] == "solved" else mark[r["status"]])
            line += f"{v:>6}"
        md.append(line)
    md += ["```", ""]
    st = [r["status"] for r in rows]
    coverage.append(f"| {title} | {len(rows)} | {st.count('solved')} | {st.count('time-limit')} | {st.count('unsolvable')} |")
with open(f"{out}/grids.md.tmp", "w") as f:
    f.write("\n".join(md + ["Coverage:", ""] + coverage) + "\n")
os.replace(f"{out}/grids.md.tmp", f"{out}/grids.md")
PY
echo "wrote $out/" >&2
