#!/usr/bin/env bash
# The pie rule's fairness table (docs/rules.md §3.9): docs/survey/pie.md, with a CSV of every first
# turn and an SVG heatmap of the pie values per Kalah rule set, for every Kalah board that the
# first-player survey (scripts/survey.sh, docs/survey/kalah.csv) solves, under four rule sets
# (standard, --empty-capture, --leftovers-unscored, both), and the standard boards of the other
# four games. Each first turn's value is an exact solve; one transposition table serves the turns
# of a board (`mancala verify pie`).
#
# Usage: scripts/pie-survey.sh [time limit per board in seconds, default 600]
# Kalah uses endgame tables for 5 and 6 holes (K=20, per rule set, built first in
# $MANCALA_TABLES, default target/tables). A board not finished within the limit is written as
# unknown, never guessed. Everything is recomputed from nothing but the binary and the
# first-player survey's CSV (which boards it solved).
set -euo pipefail
cd "$(dirname "$0")/.."
limit=${1:-600}
[[ "$limit" =~ ^[0-9]+([.][0-9]+)?$ ]] || { echo "pie-survey.sh: the time limit must be a number of seconds, not '$limit'" >&2; exit 2; }
out=docs/survey
tables="${MANCALA_TABLES:-target/tables}"
mkdir -p "$out" "$tables"
if [ -n "${MANCALA_BIN:-}" ]; then
  bin=$MANCALA_BIN
else
  cargo build --release --quiet
  bin=${CARGO_TARGET_DIR:-target}/release/mancala
fi

# The boards the first-player survey solved under the standard capture rule, as HxS,HxS,...
boards=$(python3 - "$out/kalah.csv" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["status"] == "solved"]
print(",".join(f"{r['holes']}x{r['seeds']}" for r in rows))
PY
)

rule_sets=("standard:" "empty-capture:--empty-capture" "leftovers-unscored:--leftovers-unscored"
           "empty-capture+leftovers-unscored:--empty-capture --leftovers-unscored")
echo "== Kalah endgame tables, 5 and 6 holes, K=20, four rule sets, in $tables" >&2
for holes in 5 6; do
  for rs in "${rule_sets[@]}"; do
    # shellcheck disable=SC2086 # the rule flags are words
    "$bin" tables build kalah --holes "$holes" ${rs#*:} --max-seeds 20 --dir "$tables" > /dev/null
  done
done

for rs in "${rule_sets[@]}"; do
  name=${rs%%:*}
  echo "== pie: kalah $name, boards $boards, $limit s per board" >&2
  # shellcheck disable=SC2086
  "$bin" verify pie kalah --boards "$boards" ${rs#*:} --tables="$tables" --time-limit "$limit" \
    --csv "$out/pie-kalah-$name.csv" --plot "$out/pie-kalah-$name.svg" --json > "$out/pie-kalah-$name.json"
done

# The other games' standard boards; a board whose first turns cannot be listed (too many) is
# reported with the command's message.
for game in dakon djenon-aboure walak-pussa san-yao; do
  echo "== pie: $game, standard board, $limit s" >&2
  if ! "$bin" verify pie "$game" --time-limit "$limit" --csv "$out/pie-$game.csv" --json \
       > "$out/pie-$game.json" 2> "$out/pie-$game.err"; then
    rm -f "$out/pie-$game.json" "$out/pie-$game.csv"
  else
    rm -f "$out/pie-$game.err"
  fi
done

python3 - "$out" "$limit" <<'PY'
import json, os, sys
out, limit = sys.argv[1], sys.argv[2]
turn = lambda t: " ".join(map(str, t))
def table(boards):
    md = ["| board | pie value | fairest first turns (second player after each) | first turns | value without swap | seconds |",
          "|:--|--:|:--|--:|--:|--:|"]
    for b in boards:
        if b["status"] == "solved":
            after = {turn(t["moves"]): t["second_player"] for t in b["turns"]}
            fair = "; ".join(f"`{turn(f)}` ({after[turn(f)]})" for f in b["fairest"])
            md.append(f"| {b['holes']}x{b['seeds']} | {b['pie_value']:+d} | {fair} | {len(b['turns'])} | "
                      f"{b['value']:+d} | {b['seconds']:.1f} |")
        else:
            why = b["note"] or b["status"]
            md.append(f"| {b['holes']}x{b['seeds']} | ? | ({why}) | | | {b['seconds']:.1f} |")
    return md
def value(b):
    if b is None:
        return ""
    return "%+d" % b["pie_value"] if b["status"] == "solved" else "?"
def grid(boards):
    holes = sorted({b["holes"] for b in boards}); seeds = sorted({b["seeds"] for b in boards})
    cell = {(b["holes"], b["seeds"]): b for b in boards}
    lines = ["```text", " h\\s " + "".join(f"{s:>6}" for s in seeds)]
    for h in holes:
        row = f"{h:>4} "
        for s in seeds:
            row += f"{value(cell.get((h, s))):>6}"
        lines.append(row)
    return lines + ["```"]
md = ["# The pie rule: a fairness table", "",
      "The pie rule of competitive play ([rules](../rules.md) §3.9): after South's whole first turn `t`",
      "(the first sowing and every extra turn it earns) North may swap sides, so South ends with",
      "`-|v(t)|`, where `v(t)` is the exact value (final South minus North under perfect play) after",
      "the turn. The **pie value** `P = -min |v(t)|` is the first player's result under the pie rule",
      "(0: a perfectly fair opening exists); the **fairest openings** are the turns with the least",
      "`|v(t)|`, each with what North does after it (`swap` when `v > 0`, `keep` when `v < 0`,",
      "`either` at a draw). Every first turn of every board is solved exactly by",
      "`mancala verify pie` (one transposition table per board); `pie-*.csv` lists every turn with",
      "its value. Written by `scripts/pie-survey.sh` (time limit " + limit + " s per board); the Kalah",
      "boards are those the first-player survey solves ([kalah.md](kalah.md)), under the standard",
      "and the empty-capture rule, each also with `--leftovers-unscored` (the default end rule).",
      "The test suite checks `verify pie` by second methods (`tests/pie.rs`): on every Kalah board",
      "up to (4,4) under all eight option sets, the first turns enumerated by the independent",
      "reference engine and valued by whole-board endgame tables; on small boards of all five",
      "games, the swap game itself brute-forced in the reference engine.", ""]
names = [("standard", "Kalah, standard rules"), ("empty-capture", "Kalah, `--empty-capture`"),
         ("leftovers-unscored", "Kalah, `--leftovers-unscored`"),
         ("empty-capture+leftovers-unscored", "Kalah, `--empty-capture --leftovers-unscored`")]
for name, title in names:
    path = f"{out}/pie-kalah-{name}.json"
    if not os.path.exists(path):
        continue
    boards = json.load(open(path))["boards"]
    solved = sum(b["status"] == "solved" for b in boards)
    md += [f"## {title}", "", f"{solved} of {len(boards)} boards solved. Heatmap: "
           f"[pie-kalah-{name}.svg](pie-kalah-{name}.svg); every turn: [pie-kalah-{name}.csv](pie-kalah-{name}.csv).", ""]
    md += grid(boards) + [""] + table(boards) + [""]
md += ["## The other games' standard boards", ""]
rows = []
for game in ["dakon", "djenon-aboure", "walak-pussa", "san-yao"]:
    path = f"{out}/pie-{game}.json"
    if os.path.exists(path):
        for line in table(json.load(open(path))["boards"])[2:]:
            rows.append(f"| {game} " + line)
    else:
        err = open(f"{out}/pie-{game}.err").read().strip().removeprefix("error: ")
        rows.append(f"| {game} | standard | ? | not computed: {err} | | | |")
md += ["| game | board | pie value | fairest first turns (second player after each) | first turns | value without swap | seconds |",
       "|:--|:--|--:|:--|--:|--:|--:|"] + rows + [""]
if any("not computed" in r for r in rows):
    md += ["A board marked *not computed* is missing from this table: `verify pie` lists every first turn",
           "and solves each one, and Dakon's first turns, with their chains of extra turns, number",
           "millions (7×7: more than 83 million, [dakon-opening.md](dakon-opening.md)), far beyond",
           "`--max-turns` and this machine's time.", ""]
with open(f"{out}/pie.md.tmp", "w") as f:
    f.write("\n".join(md))
os.replace(f"{out}/pie.md.tmp", f"{out}/pie.md")
PY
echo "wrote $out/pie.md" >&2
