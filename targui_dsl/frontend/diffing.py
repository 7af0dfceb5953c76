"""Differences between two rulesets.

A pure tool that answers "what is different?":

* :func:`diff_rulesets` compares two rulesets *after* ``extends:`` is merged
  (the data of :attr:`targui_dsl.frontend.build.Report.resolved`), rule by rule: values
  by dotted path, cards added, removed and changed (old and new effect),
  and the deck (cards added, removed, moved). Every change carries the
  place where each side's value was written.

A game log against the engine is :mod:`targui_dsl.gamelog.replay`'s to compare.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from targui_dsl.frontend.diagnostics import Span
from targui_dsl.frontend.paths import dotted
from targui_dsl.frontend.resolve import Resolved

__all__ = [
    "Change", "RulesetDiff", "diff_rulesets", "IDENTITY_KEYS",
]

# --- rulesets ----------------------------------------------------------------------------

# Top-level keys that name or describe a ruleset without changing how it plays
# (``language`` only says in which language the file's card texts are).
IDENTITY_KEYS = ("id", "title", "description", "source", "language")

# Sections of a diff, in the order they are shown.
RULES, CARDS, DECK, IDENTITY, TEXTS = "rules", "cards", "deck", "identity", "texts"

_ABSENT = object()

#: Where a value of one of the two rulesets was written: its path -> its span (None: not written).
SpanOf = Callable[[tuple], Span | None]


@dataclass(frozen=True)
class Change:
    """One difference. ``kind`` is ``changed``, ``added``, ``removed`` or ``moved``.

    ``path`` is where the value lives in the merged data (``("rounds",
    "double_turn_from")``; for a deck move ``("deck", card_id)``). ``old`` and
    ``new`` are the values (``None`` on the side that lacks one; for a move the
    1-based deck positions). ``old_at``/``new_at`` say where each was written.
    """

    section: str
    kind: str
    path: tuple
    old: Any = None
    new: Any = None
    old_at: Span | None = None
    new_at: Span | None = None

    @property
    def name(self) -> str:
        return dotted(self.path)

    def to_json(self) -> dict[str, Any]:
        return {
            "section": self.section, "kind": self.kind, "path": self.name,
            "old": self.old, "new": self.new,
            "old_at": _where(self.old_at), "new_at": _where(self.new_at),
        }


@dataclass
class RulesetDiff:
    a: str  # ruleset ids
    b: str
    a_files: list[str]
    b_files: list[str]
    changes: list[Change]
    hidden: dict[str, int] = field(default_factory=dict)  # section -> differences left out
    card_numbers: dict[str, int] = field(default_factory=dict)  # card id -> number (B's, else A's)

    @property
    def same(self) -> bool:
        return not self.changes

    def section(self, name: str) -> list[Change]:
        return [c for c in self.changes if c.section == name]

    def to_json(self) -> dict[str, Any]:
        return {
            "a": {"id": self.a, "files": self.a_files},
            "b": {"id": self.b, "files": self.b_files},
            "same": self.same,
            "changes": [c.to_json() for c in self.changes],
            "hidden": dict(self.hidden),
        }


def diff_rulesets(a: Resolved, b: Resolved, include_identity: bool = False) -> RulesetDiff:
    """Rule-by-rule differences from ``a`` to ``b`` (both resolved without errors).

    Identity keys (:data:`IDENTITY_KEYS`) and the rulebook texts of cards are
    compared too, but left out unless ``include_identity``; ``hidden`` counts
    what was left out.
    """
    if a.data is None or b.data is None:
        raise ValueError("diff_rulesets needs two rulesets resolved without errors")
    da, db = a.data, b.data
    changes: list[Change] = []
    span_a, span_b = a.spans.get, b.spans.get

    for key in _union(da, db):
        if key in ("cards", "deck"):
            continue
        section = IDENTITY if key in IDENTITY_KEYS else RULES
        _diff_value(da.get(key, _ABSENT), db.get(key, _ABSENT), (key,), section, span_a, span_b, changes)
    _diff_cards(_mapping(da.get("cards")), _mapping(db.get("cards")), span_a, span_b, changes)
    _diff_deck(_sequence(da.get("deck")), _sequence(db.get("deck")), span_a, span_b, changes)

    order = {RULES: 0, CARDS: 1, TEXTS: 2, DECK: 3, IDENTITY: 4}
    changes.sort(key=lambda c: order[c.section])  # stable: data order within a section
    hidden: dict[str, int] = {}
    if not include_identity:
        for section in (IDENTITY, TEXTS):
            count = sum(1 for c in changes if c.section == section)
            if count:
                hidden[section] = count
        changes = [c for c in changes if c.section not in (IDENTITY, TEXTS)]
    numbers = {card_id: _number(card) for cards in (_mapping(da.get("cards")), _mapping(db.get("cards")))
               for card_id, card in cards.items() if _number(card) < 10**9}
    return RulesetDiff(a=str(da.get("id")), b=str(db.get("id")), a_files=list(a.files), b_files=list(b.files),
                       changes=changes, hidden=hidden, card_numbers=numbers)


def _union(a: dict, b: dict) -> list:
    return list(a) + [k for k in b if k not in a]


def _mapping(value: Any) -> dict:
    return value if isinstance(value, dict) else {}


def _sequence(value: Any) -> list:
    return value if isinstance(value, list) else []


def _diff_value(
    old: Any, new: Any, path: tuple, section: str, span_a: SpanOf, span_b: SpanOf, out: list[Change]
) -> None:
    if old is _ABSENT and new is _ABSENT:
        return
    if old is _ABSENT:
        out.append(Change(section, "added", path, None, new, None, span_b(path)))
    elif new is _ABSENT:
        out.append(Change(section, "removed", path, old, None, span_a(path), None))
    elif isinstance(old, dict) and isinstance(new, dict):
        for key in _union(old, new):
            _diff_value(old.get(key, _ABSENT), new.get(key, _ABSENT), path + (key,), section, span_a, span_b, out)
    elif (isinstance(old, list) and isinstance(new, list) and len(old) == len(new)
          and any(isinstance(v, (list, dict)) for v in old + new)):
        # Tables (the board's numbering, seating): say which row changed.
        for i, (x, y) in enumerate(zip(old, new, strict=True)):
            _diff_value(x, y, path + (i,), section, span_a, span_b, out)
    elif old != new or type(old) is not type(new):
        out.append(Change(section, "changed", path, old, new, span_a(path), span_b(path)))


def _diff_cards(old: dict, new: dict, span_a: SpanOf, span_b: SpanOf, out: list[Change]) -> None:
    for card_id in sorted(_union(old, new), key=lambda c: (_number(new.get(c, old.get(c))), c)):
        path = ("cards", card_id)
        if card_id not in new:
            out.append(Change(CARDS, "removed", path, old[card_id], None, span_a(path), None))
        elif card_id not in old:
            out.append(Change(CARDS, "added", path, None, new[card_id], None, span_b(path)))
        else:
            a, b = _mapping(old[card_id]), _mapping(new[card_id])
            for key in _union(a, b):
                section = TEXTS if key == "text" else CARDS
                _diff_value(a.get(key, _ABSENT), b.get(key, _ABSENT), path + (key,), section, span_a, span_b, out)


def _number(card: Any) -> int:
    number = card.get("number") if isinstance(card, dict) else None
    return number if isinstance(number, int) else 10**9


def _diff_deck(old: list, new: list, span_a: SpanOf, span_b: SpanOf, out: list[Change]) -> None:
    for i, card in enumerate(old):
        if card not in new:
            out.append(Change(DECK, "removed", ("deck", card), i + 1, None, span_a(("deck", i)), None))
    for i, card in enumerate(new):
        if card not in old:
            out.append(Change(DECK, "added", ("deck", card), None, i + 1, None, span_b(("deck", i))))
    # Order: the cards in both decks that are not part of the longest run
    # kept in the same relative order have moved.
    common_old = [c for c in old if c in new]
    common_new = [c for c in new if c in old]
    if common_old == common_new:
        return
    kept = set(_longest_common_subsequence(common_old, common_new))
    for card in common_new:
        if card not in kept:
            i, j = old.index(card), new.index(card)
            out.append(Change(DECK, "moved", ("deck", card), i + 1, j + 1, span_a(("deck", i)), span_b(("deck", j))))


def _longest_common_subsequence(a: list, b: list) -> list:
    n, m = len(a), len(b)
    table = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            table[i][j] = table[i + 1][j + 1] + 1 if a[i] == b[j] else max(table[i + 1][j], table[i][j + 1])
    out, i, j = [], 0, 0
    while i < n and j < m:
        if a[i] == b[j]:
            out.append(a[i])
            i, j = i + 1, j + 1
        elif table[i + 1][j] >= table[i][j + 1]:
            i += 1
        else:
            j += 1
    return out


def _where(span: Span | None) -> str | None:
    return f"{span.file}:{span.line}" if span is not None else None

