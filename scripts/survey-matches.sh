#!/usr/bin/env bash
# Reproduces docs/survey/matches.md: the round-perfect match (docs/rules.md §13.5) of Dakon on
# 3..6 holes, Walak-pussa on 2..6 and San-Yao on 2..5, each at every seed count the game allows,
# plus each game's standard board. Every round is solved exactly within a per-round limit; a size
# whose round is not solved in time is reported unknown with the round and the limit, never
# guessed.
#
# Usage: scripts/survey-matches.sh [per-round limit in seconds, default 30] [GAME ...]
#   GAME: dakon, walak-pussa, san-yao (default: all three), or `-` for none (only assemble
#   matches.md from the record files). Each game's records go to
#   docs/survey/matches-GAME.txt; matches.md is then assembled from the three files, so one game
#   can be rerun alone. With a limit of 120 s the whole script took about 8 minutes on 2 cores
#   shared with other work (a minute of it in Dakon 6x10, the slowest size; none ended unknown).
set -euo pipefail
cd "$(dirname "$0")/.."
limit=${1:-30}
shift || true
games=("$@")
if [ ${#games[@]} -eq 0 ]; then
  games=(dakon walak-pussa san-yao)
fi
out=docs/survey
mkdir -p "$out"
# MANCALA_BIN: an already built binary to use instead of building one.
if [ -n "${MANCALA_BIN:-}" ]; then
  bin=$MANCALA_BIN
else
  cargo build --release --quiet
  bin=${CARGO_TARGET_DIR:-target}/release/mancala
fi

# One thread and a modest table: the survey shares its machine, and these boards are small.
flags=(--round-limit "$limit" --threads 1 --hash-mb 256)
ranges() { # game -> "holes seeds" lines: the survey's ranges, then the standard board
  case $1 in
    dakon) echo "3..6 1..10"; echo "7 7" ;;
    walak-pussa) echo "2..6 1..8"; echo "7 4" ;;
    san-yao) echo "2..5 1..8" ;; # the standard board, 5x5, is inside the range
    *) echo "unknown game $1" >&2; exit 2 ;;
  esac
}

for game in "${games[@]}"; do
  [ "$game" = - ] && continue
  echo "== $game: per-round limit $limit s" >&2
  {
    echo "# mancala verify match $game ${flags[*]}, $(date -u +%Y-%m-%d)"
    ranges "$game" | while read -r holes seeds; do
      "$bin" verify match "$game" --holes "$holes" --seeds "$seeds" "${flags[@]}"
    done
  } > "$out/matches-$game.txt.tmp"
  mv "$out/matches-$game.txt.tmp" "$out/matches-$game.txt"
done

# Assemble the page from the three record files.
section() { # game title
  local file=$out/matches-$1.txt
  echo
  echo "## $2"
  echo
  if [ -f "$file" ]; then
    echo "Run: \`$(head -1 "$file" | sed 's/^# //; s/, \([0-9-]*\)$/\` (\1)/')"
    echo
    echo '```text'
    grep -v '^#' "$file"
    echo '```'
  else
    echo "Not run."
  fi
}
grid() { # game: a holes x seeds table of the results (standard-board rows included)
  local file=$out/matches-$1.txt
  [ -f "$file" ] || return 0
  awk '/^[a-z-]+ [0-9]+x[0-9]+:$/ { split(substr($2, 1, length($2) - 1), hs, "x");
         h = hs[1] + 0; s = hs[2] + 0; rounds = 0;
         if (!(h in seen)) { seen[h] = 1; hl[++nh] = h }
         if (s > smax) smax = s }
       /^  round/ { rounds++ }
       /^  result:/ { r = $0
         if (r ~ /South wins/) v = "S"; else if (r ~ /North wins/) v = "N";
         else if (r ~ /drawn/) v = "="; else if (r ~ /repeat/) v = "∞"; else v = "?";
         cell[h, s] = (v == "?" && rounds == 0) ? "?" : v " " rounds }
       END { printf "| holes \\ seeds |"; for (s = 1; s <= smax; s++) printf " %d |", s; print "";
             printf "|--:|"; for (s = 1; s <= smax; s++) printf ":-:|"; print "";
             for (i = 1; i <= nh; i++) { h = hl[i]; printf "| %d |", h;
               for (s = 1; s <= smax; s++) printf " %s |", ((h, s) in cell) ? cell[h, s] : "";
               print "" } }' "$file"
}
{
  cat <<EOF
# Round-perfect matches (docs/rules.md §13.5)

Produced by \`scripts/survey-matches.sh [LIMIT] [GAME ...]\`, which runs
\`mancala verify match GAME --holes A..B --seeds C..D --round-limit LIMIT --threads 1 --hash-mb 256\`
for each game's ranges and standard board (standard rules, refill from move \`n\` down; 2 cores
shared with other work) and keeps the records in \`docs/survey/matches-GAME.txt\`; each section
below names its run and per-round limit. Each round is solved exactly and both sides play
round-perfectly: the first best move, except on a cycle of best play (below). A round line gives
the round's starter, its start position, its value (South minus North, §13.5), its final stores
and the number of moves played, and the line under it the moves (pit numbers; joined over the
rounds, a record replays with \`mancala match GAME --holes N --seeds S --moves "..."\`). "unknown"
means a round was not solved within the per-round limit: nothing is guessed, and the record stops
there.

**Cycles (§13.5).** In Walak-pussa and San-Yao a position can lie on a cycle of best play within its
seed-count layer. There the player the value favours (South if the remaining margin is positive,
North if negative) plays the first best move that leaves the cycle's strongly connected component,
or else the first best move that lowers the number of moves within which that player can force
leaving it by moves of that value; the other player plays the first best move. The graph is that
of best play: the positions of the layer with the same remaining margin, and the moves of that
value (the only moves round-perfect play makes). A round that repeats a position anyway (only
possible at a remaining margin of 0) ends there by endless play: the stores stand and the seeds on
the board leave the match ("endless" in the round line). The match ends when a player cannot fill a
pit, or never ends when a round start repeats: round-perfect play is deterministic, so the same
start gives the same round again.

Dakon is acyclic (§8.2, §13.1), so its records are plain first-best play.
EOF
  echo
  echo "## Summary"
  echo
  echo "Who wins the round-perfect match, and after how many rounds: S South, N North, = drawn,"
  echo "∞ the round starts repeat (the match never ends; the number is of distinct rounds), ? unknown"
  echo "(the number is of the rounds solved before the limit stopped one). Empty: not run."
  for game in dakon walak-pussa san-yao; do
    echo
    echo "$game:"
    echo
    grid "$game"
  done
  section dakon "Dakon, 3–6 holes, 1–10 seeds, and the standard 7×7"
  section walak-pussa "Walak-pussa, 2–6 holes, 1–8 seeds, and the standard 7×4"
  section san-yao "San-Yao, 2–5 holes, 1–8 seeds (the standard 5×5 included)"
} > "$out/matches.md.tmp"
mv "$out/matches.md.tmp" "$out/matches.md"
echo "wrote $out/matches.md" >&2
