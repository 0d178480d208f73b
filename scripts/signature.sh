#!/usr/bin/env bash
# The project's signature, like Stockfish's `bench`: what must not change when code is only moved
# or refactored. It prints
#   - the 1-thread node count and value of a fixed set of solves (one line each), and
#   - the CRC-32 of every endgame-table set it builds (one line per set: the CRC-32 of the
#     layers' files, concatenated in layer order), Kalah 6 holes K=16 in both rules and a small
#     table of each cyclic game (and of Dakon).
# Node counts are deterministic on 1 thread for a fixed --hash-mb; table files are byte-identical
# for any thread count. A refactor that claims "no behaviour change" must print the same lines.
#
# Usage: scripts/signature.sh [--bin PATH]     (about 10 s on 2 cores, plus the build)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=""
while [ $# -gt 0 ]; do
  case "$1" in
    --bin) bin="${2:?--bin needs a path}"; shift ;;
    *) echo "unknown argument $1 (usage: scripts/signature.sh [--bin PATH])" >&2; exit 2 ;;
  esac
  shift
done
if [ -z "$bin" ]; then
  cargo build --release --quiet
  bin=target/release/mancala
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

solve() {
  local label="$1"; shift
  "$bin" solve "$@" --threads 1 --hash-mb 64 --no-memory --no-book --json |
    python3 -c 'import json,sys; r=json.load(sys.stdin); print(f"solve  %-32s value %+d nodes %d" % (sys.argv[1], r["value"], r["nodes"]))' "$label"
}

solve "kalah 5x4" kalah --holes 5 --seeds 4
solve "kalah 5x4 empty-capture" kalah --holes 5 --seeds 4 --empty-capture
solve "kalah 6x3" kalah --holes 6 --seeds 3
solve "kalah 6x3 empty-capture" kalah --holes 6 --seeds 3 --empty-capture
solve "dakon 5x5" dakon --holes 5 --seeds 5
solve "walak-pussa 5x3" walak-pussa --holes 5 --seeds 3
solve "san-yao 4x4" san-yao --holes 4 --seeds 4
solve "djenon-aboure 6x4" djenon-aboure --holes 6 --seeds 4

table() {
  local label="$1" sub="$2"; shift 2
  mkdir -p "$dir/$sub"
  "$bin" tables build "$@" --dir "$dir/$sub" --threads 2 >/dev/null 2>&1
  python3 - "$label" "$dir/$sub" <<'EOF'
import sys, zlib, pathlib
label, d = sys.argv[1], pathlib.Path(sys.argv[2])
files = sorted(d.glob("*.mtb"))
crc = 0
for f in files:
    crc = zlib.crc32(f.read_bytes(), crc)
print("tables %-32s %d files, %d bytes, crc32 %08x" % (label, len(files), sum(f.stat().st_size for f in files), crc))
EOF
}

table "kalah 6h K=16" k kalah --holes 6 --max-seeds 16
table "kalah 6h K=16 empty-capture" ke kalah --holes 6 --max-seeds 16 --empty-capture
table "dakon 5h K=12" d dakon --holes 5 --max-seeds 12
table "djenon-aboure 5h K=12" j djenon-aboure --holes 5 --max-seeds 12
table "walak-pussa 5h K=12" w walak-pussa --holes 5 --max-seeds 12
table "san-yao 5h K=12" s san-yao --holes 5 --max-seeds 12
