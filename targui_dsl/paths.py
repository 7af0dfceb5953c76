"""Paths into ruleset data: tuples of mapping keys and list indices.

``("seating", 1, "positions")`` names ``data["seating"][1]["positions"]``;
every stage uses these paths to find a value and the span it was written at.
"""

from __future__ import annotations

from typing import Any, Iterable


def dotted(path: Iterable) -> str:
    """``("seating", 1, "positions")`` -> ``seating[1].positions``, as an author reads it."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


def value_at(data: Any, path: Iterable) -> Any:
    """The value at ``path``, or None where the data has no such place."""
    for key in path:
        if isinstance(data, dict) and isinstance(key, str):
            data = data.get(key)
        elif isinstance(data, list) and isinstance(key, int) and 0 <= key < len(data):
            data = data[key]
        else:
            return None
    return data
