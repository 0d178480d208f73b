#!/usr/bin/env bash
# Re-solves every entry of the opening book (src/answers/book.txt) with a fresh search that does
# not read the book, and fails on any difference (EVERY=N: only every N-th entry).
set -euo pipefail
cd "$(dirname "$0")/.."
MANCALA=${MANCALA:-target/release/mancala}
[[ -x $MANCALA ]] || cargo build --release -p mancala-cli
"$MANCALA" book verify --file "${BOOK:-src/answers/book.txt}" --every "${EVERY:-1}"
