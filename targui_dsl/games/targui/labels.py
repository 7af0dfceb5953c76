"""Short names for territory kinds on a board: the one place that makes them.

The terminal's grid labels cells with three letters (`Gue`), ``str(state)``
with two (`gu`), the SVG board with the kind's name without its gloss
(`Guelta (oasis)` -> `Guelta`).
"""

from __future__ import annotations

from itertools import combinations
from typing import Sequence


def kind_labels(kind_ids: Sequence[str], width: int = 3, capitalize: bool = True, pad: str = " ") -> list[str]:
    """Labels of ``width`` letters for territory kinds, unique within the ruleset
    (`guelta` -> `Gue`), padded to ``width`` with ``pad``.

    From the id's letters and digits: its first ``width``; on a clash, the first
    letter with later ones in order; then the first letter and a number.
    """
    shape = str.capitalize if capitalize else str
    taken: list[str] = []
    for kind_id in kind_ids:
        letters = [c for c in kind_id if c.isalnum()] or ["?"]
        candidates = ["".join(letters[:width])]
        candidates += ["".join((letters[0], *later)) for later in combinations(letters[1:], width - 1)]
        label = next((shape(c) for c in candidates if shape(c) not in taken), None)
        if label is None:
            first = letters[0].upper() if capitalize else letters[0]
            label = f"{first}{len(taken):0{max(width - 1, 1)}d}"[:max(width, 2)]
        taken.append(label)
    return [label.ljust(width, pad) for label in taken]


def short_name(name: str) -> str:
    """`Guelta (oasis)` -> `Guelta`: a kind's name without its gloss."""
    return name.split(" (")[0].strip() or name
