#!/usr/bin/env bash
# The browser tests of `mancala serve` (issue 30): a venv with Selenium (from PyPI), Debian's
# chromium and chromedriver (installed by .ci/run when missing), the release binary serving on a
# free port, then scripts/web-tests.py. Screenshots go to target/web-screenshots/.
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in /usr/bin/chromium /usr/bin/chromedriver; do
  if [ ! -x "$tool" ]; then
    echo "$tool is missing: apt-get install chromium chromium-driver" >&2
    exit 1
  fi
done
cargo build --release --quiet -p mancala-cli --bin mancala
venv=target/web-venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import selenium" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet selenium
fi
out=$(mktemp)
target/release/mancala serve --port 0 --threads 1 --time-limit 30 >"$out" &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -f "$out"' EXIT
for _ in $(seq 100); do
  [ -s "$out" ] && break
  sleep 0.1
done
url=$(head -n 1 "$out")
echo "mancala serve at $url"
"$venv/bin/python" scripts/web-tests.py "$url" target/release/mancala target/web-screenshots
