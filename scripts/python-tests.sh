#!/usr/bin/env bash
# The Python package's tests (issue 29): creates a virtual environment, installs the package
# from python/ the way a user does (`pip install ./python`, which builds the Rust extension
# with maturin), installs pytest, open_spiel and mypy from the package index, checks the type
# stubs with mypy, and runs the suite.
#
# Usage: scripts/python-tests.sh [--venv DIR] [pytest arguments...]
#   --venv DIR   the environment to use or create (default: .venv at the repository root);
#                an existing one is reused, so a second run only rebuilds the extension.
# Environment: PYTHON (the interpreter to make the venv from; default python3), MANCALA_BIN
# (the CLI binary the suite compares with; default target/release/mancala, built if missing).
#
# On a fresh Debian machine python3 may lack the venv module (package python3-venv): then, as
# root, it is installed with apt-get; otherwise the error says what to install. Takes about
# 3 minutes on 2 cores for the tests, plus the build (a few minutes the first time).
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.venv
if [ "${1:-}" = "--venv" ]; then
  venv="${2:?--venv needs a directory}"
  shift 2
fi
python="${PYTHON:-python3}"
command -v "$python" >/dev/null || { echo "error: $python not found (set PYTHON)" >&2; exit 2; }

if [ ! -x "$venv/bin/python" ]; then
  if ! "$python" -m venv "$venv" 2>/dev/null; then
    rm -rf "$venv"
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
      # Debian splits venv (and ensurepip) out of python3: install the one for this version.
      ver=$("$python" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
      apt-get update -qq
      apt-get install -y -qq "python$ver-venv" >/dev/null || apt-get install -y -qq python3-venv >/dev/null
      "$python" -m venv "$venv"
    else
      echo "error: '$python -m venv' failed; install python3-venv (Debian/Ubuntu) or set PYTHON to an interpreter with venv" >&2
      exit 2
    fi
  fi
fi
venv=$(cd "$venv" && pwd)
pip() { "$venv/bin/python" -m pip --disable-pip-version-check -q "$@"; }
pip install --upgrade pip
pip install pytest open_spiel mypy
# The stubs (`_mancala.pyi`) type-check strictly, and the package's Python code against them
# (OpenSpiel ships no stubs).
"$venv/bin/python" -m mypy --cache-dir "$venv/mypy-cache" --strict python/mancala/_mancala.pyi
"$venv/bin/python" -m mypy --cache-dir "$venv/mypy-cache" --ignore-missing-imports python/mancala
# The package as a user installs it: pip fetches maturin and builds the wheel from python/.
pip install --force-reinstall --no-deps ./python

if [ -z "${MANCALA_BIN:-}" ]; then
  [ -x target/release/mancala ] || cargo build --release --quiet --bin mancala
  export MANCALA_BIN="$PWD/target/release/mancala"
fi
# Run from python/tests, so that `import mancala` finds the installed package, not the sources
# in python/mancala (`python -m pytest` puts the working directory first on sys.path).
cd python/tests
exec "$venv/bin/python" -m pytest -q -p no:cacheprovider . "$@"
