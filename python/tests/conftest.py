"""Shared fixtures: the repository root, the golden data, and the CLI binary to compare with."""

import csv
import os
import pathlib
import shutil
import tempfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]

# As the Rust tests do (tests/util.rs): no answer may come from the machine's memory of proven
# positions or its default table directory, which earlier runs (or earlier tests of this run)
# filled; a test that wants a memory or tables names its own.
os.environ["MANCALA_MEMORY"] = "off"
os.environ["MANCALA_TABLES"] = tempfile.mkdtemp(prefix="mancala-no-tables-")


def kalah_start_values():
    """Rows of tests/data/kalah_start_values.csv (the published Kalah start values)."""
    path = ROOT / "tests" / "data" / "kalah_start_values.csv"
    lines = [l for l in path.read_text().splitlines() if not l.startswith("#")]
    rows = []
    for r in csv.DictReader(lines):
        rows.append(
            {
                "holes": int(r["holes"]),
                "seeds": int(r["seeds"]),
                "options": [o for o, on in (("empty-capture", r["empty_capture"]), ("end-when-mover-empty", r["end_when_mover_empty"])) if on == "true"],
                "value": int(r["value"]),
                "best": [int(b) for b in r["best"].split()] if r["best"] else None,
            }
        )
    return rows


@pytest.fixture(scope="session")
def cli():
    """The `mancala` binary: $MANCALA_BIN, else target/release/mancala, else on PATH."""
    candidates = [os.environ.get("MANCALA_BIN"), str(ROOT / "target" / "release" / "mancala"), shutil.which("mancala")]
    for c in candidates:
        if c and os.access(c, os.X_OK):
            return c
    pytest.skip("no mancala binary (build it with `cargo build --release` or set MANCALA_BIN)")
