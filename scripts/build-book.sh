#!/usr/bin/env bash
# Builds the opening book built into the program (src/answers/book.txt, issue 54): for each
# standard board whose opening takes more than a second, the exact future value of every position
# within DEPTH plies of the start and of each of their moves' results. Resumable: entries already
# in the book are kept, so a killed run goes on where it stopped. Every search uses all cores
# (THREADS to choose). Afterwards: `cargo build --release` to embed it, and
# `scripts/verify-book.sh` to re-solve every entry.
#
#   scripts/build-book.sh            # DEPTH=0: the start position's moves
#   DEPTH=1 scripts/build-book.sh    # and every move's moves (36-49 more searches per board)
set -euo pipefail
cd "$(dirname "$0")/.."
DEPTH=${DEPTH:-0}
BOOK=${BOOK:-src/answers/book.txt}
MANCALA=${MANCALA:-target/release/mancala}
THREADS_FLAG=()
if [[ -n "${THREADS:-}" ]]; then THREADS_FLAG=(--threads "$THREADS"); fi
[[ -x $MANCALA ]] || cargo build --release -p mancala-cli
# The standard boards whose start takes more than a tenth of a second to analyse, the target of a
# hint (docs/performance.md: Kalah(6,4) 46-48 s with tables, Walak-pussa 7x4 10 s, Dakon 7x7
# 0.18 s, Djenon-aboure 6x4 0.13 s; San-Yao 6x4 answers in 0.05 s).
BOARDS=(
  "walak-pussa"
  "kalah"
  "kalah --empty-capture"
  "dakon"
  "djenon-aboure"
)
for board in "${BOARDS[@]}"; do
  # shellcheck disable=SC2086 # a board is a game and its option flags
  "$MANCALA" book build $board --depth "$DEPTH" --file "$BOOK" "${THREADS_FLAG[@]}"
done
