#!/usr/bin/env bash
# Reproduces the published Kalah(6,4) values without endgame tables, in both capture rules:
#   standard +8 (Rawlings 2015), empty-capture +10 (Irving, Donkers & Uiterwijk 2000),
#   best first move 3 in both.
# Usage: scripts/kalah-6x4.sh [extra solve flags, e.g. --threads 2 --hash-mb 1024]
# Prints one line per rule with value, best moves, nodes, seconds, TT hit rate, peak memory,
# and exits non-zero if a value disagrees with the published one.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/mancala
status=0
for rule in standard empty-capture; do
  flags=()
  want=8
  if [ "$rule" = empty-capture ]; then flags=(--empty-capture); want=10; fi
  out=$(/usr/bin/time -f '%M' -o /tmp/kalah-6x4.mem "$bin" solve kalah --holes 6 --seeds 4 "${flags[@]}" --json "$@")
  peak_kb=$(tail -n 1 /tmp/kalah-6x4.mem)
  python3 - "$rule" "$want" "$peak_kb" "$out" <<'PY' || status=1
import json, sys
rule, want, peak_kb, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), json.loads(sys.argv[4])
ok = out["value"] == want
print(f"Kalah(6,4) {rule:13s} value {out['value']:+d} (published {want:+d}: {'agree' if ok else 'DISAGREE'}) "
      f"best {out['best']} nodes {out['nodes']} seconds {out['seconds']:.1f} "
      f"TT hit rate {100*out['tt_hit_rate']:.1f}% threads {out['threads']} peak RSS {peak_kb/1024:.0f} MiB")
sys.exit(0 if ok else 1)
PY
done
exit $status
