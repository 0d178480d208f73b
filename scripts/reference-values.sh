#!/usr/bin/env bash
# Kalah start values under all eight option sets (empty-capture, end-when-mover-empty,
# leftovers-unscored) for every board up to (4,4) and (6,3): tests/data/kalah_option_values.csv,
# the table of docs/reference-values.md §1.5. Each value is computed twice, by independent methods,
# and the script stops at the first disagreement:
#   1. the search: `mancala solve` (no tables);
#   2. where the whole board fits (at most 4 holes, and (5,1), (5,2), (6,1)): the endgame tables of
#      every layer up to all the board's seeds, built by retrograde analysis (no search at all),
#      queried at the start (`check` = tables). On (5,3), (6,2) and (6,3) the whole board's tables
#      are too big (0.8 to 69 billion entries) and the reference engine's brute force too slow
#      (minutes to hours per value): there a value published by independent solvers
#      (tests/data/kalah_start_values.csv, `check` = published) where one exists, else the search
#      over endgame tables of every position with at most 20 seeds (`check` = search with K=20
#      tables: the retrograde values below 20 seeds, the search above; a weaker check).
# The test suite (tests/option_values.rs) checks every row by the search again, and the rows of
# at most 16 seeds by the independent reference engine's brute force (tests/reference).
# Usage: scripts/reference-values.sh. About 10 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${MANCALA_BIN:-}" ]; then
  bin=$MANCALA_BIN
else
  cargo build --release --quiet
  bin=${CARGO_TARGET_DIR:-target}/release/mancala
fi
# Tables go to $MANCALA_TABLES (they are reused: a build checks and keeps the layers it finds),
# else to a temporary directory.
if [ -n "${MANCALA_TABLES:-}" ]; then
  tables=$MANCALA_TABLES
else
  tables=$(mktemp -d)
  trap 'rm -rf "$tables"' EXIT
fi
csv=tests/data/kalah_option_values.csv
value() { python3 -c 'import json,sys; print(json.load(sys.stdin)["value"])'; }
full_tables() { # holes seeds: whether the whole board's tables are built (small enough)
  [ "$1" -le 4 ] || [ "$1$2" = 51 ] || [ "$1$2" = 52 ] || [ "$1$2" = 61 ]
}
{
  echo "# Kalah start values under all eight option sets: docs/reference-values.md section 1.5."
  echo "# Written by scripts/reference-values.sh: value by the search, checked by 'check'."
  echo "holes,seeds,empty_capture,end_when_mover_empty,leftovers_unscored,value,check"
  for holes in 1 2 3 4 5 6; do
    top=3; [ "$holes" -le 4 ] && top=4
    for seeds in $(seq 1 "$top"); do
      for bits in 0 1 2 3 4 5 6 7; do
        flags=(); ec=false; me=false; lu=false
        (( bits & 1 )) && { flags+=(--empty-capture); ec=true; }
        (( bits & 2 )) && { flags+=(--end-when-mover-empty); me=true; }
        (( bits & 4 )) && { flags+=(--leftovers-unscored); lu=true; }
        v=$("$bin" solve kalah --holes "$holes" --seeds "$seeds" "${flags[@]}" --json | value)
        if full_tables "$holes" "$seeds"; then
          k=$((2 * holes * seeds))
          "$bin" tables build kalah --holes "$holes" "${flags[@]}" --max-seeds "$k" --dir "$tables" > /dev/null 2>&1
          start=$(printf "%s," $(yes "$seeds" | head -n "$holes") | sed 's/,$//')
          t=$("$bin" tables query kalah --holes "$holes" "${flags[@]}" --position "$start/$start/0,0/S" \
                --dir "$tables" --json | value)
          [ "$t" = "$v" ] || { echo "Kalah($holes,$seeds) ${flags[*]}: search $v, tables $t" >&2; exit 1; }
          check=tables
        elif published=$(grep -E "^$holes,$seeds,$ec,$me,-?[0-9]+," tests/data/kalah_start_values.csv \
                           | grep REFERENCE.md | cut -d, -f5) && [ "$lu" = false ] && [ -n "$published" ]; then
          [ "$published" = "$v" ] || { echo "Kalah($holes,$seeds) ${flags[*]}: search $v, published $published" >&2; exit 1; }
          check=published
        else
          "$bin" tables build kalah --holes "$holes" "${flags[@]}" --max-seeds 20 --dir "$tables" > /dev/null 2>&1
          t=$("$bin" solve kalah --holes "$holes" --seeds "$seeds" "${flags[@]}" --tables="$tables" --json | value)
          [ "$t" = "$v" ] || { echo "Kalah($holes,$seeds) ${flags[*]}: search $v, with tables $t" >&2; exit 1; }
          check="search with K=20 tables"
        fi
        echo "$holes,$seeds,$ec,$me,$lu,$v,$check"
        echo "Kalah($holes,$seeds) ${flags[*]}: $v ($check)" >&2
      done
    done
  done
} > "$csv.tmp"
mv "$csv.tmp" "$csv"
echo "wrote $csv" >&2
