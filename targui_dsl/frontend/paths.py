"""Paths into ruleset data, and values as an author writes them.

A path is a tuple of mapping keys and list indices: ``("seating", 1,
"positions")`` names ``data["seating"][1]["positions"]``; every stage uses
these paths to find a value and the span it was written at.
"""

from __future__ import annotations

import json
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


def format_value(value: Any) -> str:
    """A value as a ruleset author would write it in YAML flow style."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        plain = value and value.strip() == value and "\n" not in value and not any(c in value for c in ",[]{}#\"'")
        return value if plain else json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(format_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {format_value(v)}" for k, v in value.items()) + "}"
    return str(value)
