"""Solved positions as NumPy arrays: ``mancala dataset`` writes JSON Lines, this reads them.

Each line of ``mancala dataset GAME --positions N --from random|perfect --out FILE`` is one
position with its exact value and every legal move's value (docs/cli.md, "Solved positions for
training"). ``load`` turns a file into arrays for training value and policy networks::

    from mancala import dataset
    data = dataset.load("kalah.jsonl")
    data["pits"].shape        # (N, 2 * holes): the mover's row first, then the opponent's
    data["future"]            # (N,): seeds the mover will still win minus the opponent's
    data["move_values"]       # (N, holes): each move's future value for the mover; 0 if illegal
    data["legal"]             # (N, holes): which moves are legal

``python -m mancala.dataset FILE.jsonl FILE.npz`` writes the arrays as a NumPy ``.npz``
(``numpy.savez_compressed``), which ``numpy.load`` reads back. Needs NumPy (it comes with
``open_spiel``; ``pip install numpy`` otherwise).

The arrays take the mover's view, as the engine's search does (docs/rules.md §2.8): the pits
from the mover's first pit in sowing order, and values as the mover's net future winnings, so
one network serves both sides. The notation, the side to move and the final South-minus-North
values are kept too (``position``, ``to_move``, ``value``, ``final_move_values``).
"""

from __future__ import annotations

import json
import sys
from typing import Any, Dict, Iterable, List


def _rows(path: str) -> Iterable[Dict[str, Any]]:
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.strip():
                row = json.loads(line)
                if row.get("command") != "dataset":
                    raise ValueError(f"{path}:{n}: not a line of `mancala dataset`")
                yield row


def load(path: str) -> Dict[str, Any]:
    """The positions of a ``mancala dataset`` file as NumPy arrays (see the module's doc)."""
    import numpy as np

    rows: List[Dict[str, Any]] = list(_rows(path))
    if not rows:
        raise ValueError(f"{path}: no positions")
    holes = rows[0]["holes"]
    n = len(rows)
    pits = np.zeros((n, 2 * holes), dtype=np.int16)
    stores = np.zeros((n, 2), dtype=np.int16)
    to_move = np.zeros(n, dtype=np.int8)
    value = np.zeros(n, dtype=np.int16)
    future = np.zeros(n, dtype=np.int16)
    legal = np.zeros((n, holes), dtype=bool)
    move_values = np.zeros((n, holes), dtype=np.int16)
    final_move_values = np.zeros((n, holes), dtype=np.int16)
    for i, r in enumerate(rows):
        if r["holes"] != holes:
            raise ValueError(f"{path}: positions of {holes} and {r['holes']} holes")
        south_row, north_row, store_text, side = r["position"].split("/")
        south = [int(x) for x in south_row.split(",")]
        north = [int(x) for x in north_row.split(",")]
        s, nn = (int(x) for x in store_text.split(","))
        north_moves = side == "N"
        sign = -1 if north_moves else 1
        pits[i] = (north + south) if north_moves else (south + north)
        stores[i] = (s, nn)
        to_move[i] = 1 if north_moves else 0
        value[i] = r["value"]
        future[i] = r["future"]
        for m in r["moves"]:
            k = m["move"] - 1
            legal[i, k] = True
            final_move_values[i, k] = m["value"]
            # The final value less the stores' difference, from the mover's side.
            move_values[i, k] = sign * (m["value"] - (s - nn))
    return {
        "position": np.array([r["position"] for r in rows]),
        "pits": pits,
        "stores": stores,
        "to_move": to_move,
        "value": value,
        "future": future,
        "legal": legal,
        "move_values": move_values,
        "final_move_values": final_move_values,
    }


def save_npz(jsonl: str, npz: str) -> None:
    """Writes the arrays of ``load(jsonl)`` to ``npz`` (``numpy.savez_compressed``)."""
    import numpy as np

    np.savez_compressed(npz, **load(jsonl))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python -m mancala.dataset FILE.jsonl FILE.npz")
    save_npz(sys.argv[1], sys.argv[2])
