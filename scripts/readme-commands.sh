#!/usr/bin/env bash
# Prints the README's two fresh-machine commands, verbatim, one per line: the first two command lines
# of its first ```sh block, without their trailing `# ...` comments. .ci/run runs exactly these, so
# the README and CI cannot drift apart.
#
# Usage: scripts/readme-commands.sh [run|test|value]     (no argument: both lines)
#   value: the value the first command's comment promises, e.g. +10 from "exact value (+10)"
set -euo pipefail
cd "$(dirname "$0")/.."
which="${1:-both}"
case "$which" in
  run|test|value|both) ;;
  *) echo "usage: scripts/readme-commands.sh [run|test|value]" >&2; exit 2 ;;
esac
python3 - "$which" <<'PY'
import re, sys
text = open("README.md", encoding="utf-8").read()
block = re.search(r"^```sh\n(.*?)^```", text, re.S | re.M)
if not block:
    sys.exit("README.md: no ```sh block with the two fresh-machine commands")
lines = [l for l in block.group(1).splitlines() if l.strip() and not l.lstrip().startswith("#")]
if len(lines) < 2:
    sys.exit("README.md: the first ```sh block must hold two commands (run the main job, run the tests)")
cmds = [re.sub(r"\s+#.*$", "", l).strip() for l in lines[:2]]
if sys.argv[1] == "value":
    promised = re.search(r"#.*?\(([+-]\d+)\)", lines[0])
    if not promised:
        sys.exit("README.md: the first command's comment names no value like (+10)")
    print(promised.group(1))
    sys.exit(0)
pick = {"run": cmds[:1], "test": cmds[1:2], "both": cmds}[sys.argv[1]]
print("\n".join(pick))
PY
