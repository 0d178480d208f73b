#!/usr/bin/env bash
# Checks that the workspace's `rust-version` (Cargo.toml) is the highest `rust-version` of the
# locked dependencies, so that a `cargo update` which raises a dependency's MSRV fails CI instead
# of a user's build. Exits 1, naming the dependency, when they disagree.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo metadata --format-version 1 --locked | python3 -c '
import json, sys
m = json.load(sys.stdin)
ver = lambda s: tuple(int(x) for x in s.split("."))[:2]
resolved = {n["id"] for n in m["resolve"]["nodes"]}
ours = {p["id"]: p for p in m["packages"] if p["id"] in m["workspace_members"]}
deps = [p for p in m["packages"] if p["id"] in resolved and p["id"] not in ours and p.get("rust_version")]
top = max(deps, key=lambda p: ver(p["rust_version"]))
need = "%d.%d" % ver(top["rust_version"])
culprit = "%s %s" % (top["name"], top["version"])
bad = 0
for p in ours.values():
    have = p.get("rust_version")
    if have is None or ver(have) != ver(need):
        print("%s: rust-version %s, but %s needs %s: set rust-version = \"%s\"" % (p["name"], have, culprit, top["rust_version"], need), file=sys.stderr)
        bad = 1
if not bad:
    print("MSRV %s agrees with the locked dependencies (highest: %s)" % (need, culprit))
sys.exit(bad)
'
