#!/usr/bin/env bash
# Kalah start values under all eight option sets (empty-capture, end-when-mover-empty,
# leftovers-unscored) for every board up to (4,4) and (6,3): tests/data/kalah_option_values.csv,
# the table of docs/reference-values.md §1.5. Each value is computed twice, by independent methods,
# and the script stops at the first disagreement:
#   1. the search: `mancala solve` (no tables);
#   2. on every board but (6,3): the endgame tables of every layer up to all the board's seeds,
#      built by retrograde analysis (no search at all), queried at the start (`check` = tables).
#      The largest are (5,3) (0.85 billion entries, about 0.5 GB on disk, 1.5 minutes and 1.7 GB
#      of memory per option set on 2 cores) and (6,2) (1.25 billion entries, 0.8 GB on disk, 1-2
#      minutes and 2.6 GB of memory); the tables of a hole count are deleted once no larger board
#      of it needs them, unless they are kept in $MANCALA_TABLES.
#      On (6,3) the whole board's tables would be 69 billion entries: there the reference engine's
#      own alpha-beta search (tests/reference/search.rs, which shares no code with the `mancala`
#      crate) checks every row at the end, by the ignored test
#      option_values_6x3_by_the_reference_search run on the new file (`check` = reference search).
# The test suite (tests/option_values.rs) checks every row by the search again, and the rows of
# at most 16 seeds by the independent reference engine's brute force (tests/reference).
# Usage: scripts/reference-values.sh. About 40 minutes on 2 cores (of which 8 minutes for the
# (6,3) reference searches, and 11 and 13 for the (5,3) and (6,2) tables).
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
  [ "$1" -le 4 ] || [ "$1$2" = 51 ] || [ "$1$2" = 52 ] || [ "$1$2" = 53 ] || [ "$1$2" = 61 ] \
    || [ "$1$2" = 62 ]
}
reference_search() { # holes seeds: whether the reference engine's search is the second method
  [ "$1$2" = 63 ]
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
          clock=$(date +%s.%N)
          "$bin" tables build kalah --holes "$holes" "${flags[@]}" --max-seeds "$k" --dir "$tables" > /dev/null 2>&1
          built=$(printf %.1f "$(echo "$(date +%s.%N) - $clock" | bc)")
          start=$(printf "%s," $(yes "$seeds" | head -n "$holes") | sed 's/,$//')
          t=$("$bin" tables query kalah --holes "$holes" "${flags[@]}" --position "$start/$start/0,0/S" \
                --dir "$tables" --json | value)
          [ "$t" = "$v" ] || { echo "Kalah($holes,$seeds) ${flags[*]}: search $v, tables $t" >&2; exit 1; }
          check=tables
          echo "Kalah($holes,$seeds) ${flags[*]}: tables of layers 0 to $k built in ${built} s" >&2
          # The tables of this rule set and hole count are no longer needed once no larger board
          # of this hole count is checked by tables (other rule sets' tables are other files:
          # kalah[+option...]_{holes}h_k{layer}.mtb, options in the order of the flags).
          if [ -z "${MANCALA_TABLES:-}" ] && ! full_tables "$holes" $((seeds + 1)); then
            name=kalah
            for f in "${flags[@]}"; do name+="+${f#--}"; done
            # The layers and the manifest listing them (which would name deleted files).
            rm -f "$tables/${name}_${holes}h_k"*.mtb "$tables/${name}_${holes}h.manifest"
          fi
        elif reference_search "$holes" "$seeds"; then
          check="reference search" # every such row is checked after the loop, by one test run
        else
          echo "Kalah($holes,$seeds): no second method" >&2
          exit 1
        fi
        echo "$holes,$seeds,$ec,$me,$lu,$v,$check"
        echo "Kalah($holes,$seeds) ${flags[*]}: $v ($check)" >&2
      done
    done
  done
} > "$csv.tmp"
# The rows with check = reference search, by the reference engine's search (release build of the
# test binary; it prints each row's time), run on the new file before it replaces the old one.
MANCALA_OPTION_VALUES_CSV="$PWD/$csv.tmp" cargo test --release --quiet -p mancala-cli \
  --test integration option_values_6x3_by_the_reference_search -- --ignored --nocapture >&2
mv "$csv.tmp" "$csv"
echo "wrote $csv" >&2
