"""The kinds of events Targui tells a sink, and which of them a sink reads.

A sink says what it reads (``EventSink.wants``, ``None``: everything); the
engine builds only those events (no dict, no text for the rest): a study's
counter reads a fifth of a game's events. The kinds are the event types of
``docs/engine.md``; a ``decision`` is also told by its verb, the action's first
word (``decision:buy``), so that a sink reading only purchases is not built
every move. ``decision`` stands for every verb.
"""

from __future__ import annotations

from typing import Any, Iterable

__all__ = ["DECISION_VERBS", "EVENT_TYPES", "EVERYTHING", "NOTHING", "kind_of", "tells_for", "untold"]

#: The event types a game tells, as its log writes them (the header is the log's own).
EVENT_TYPES = ("chance", "decision", "round", "turn", "fight", "attack_end", "card", "hook", "memory", "round_end",
               "eliminated", "end")
#: The first word of each decision's action text.
DECISION_VERBS = ("sector", "settle", "deposit", "move", "attack", "pass", "buy", "again", "give", "enter",
                  "choose")

_DECISIONS = frozenset(f"decision:{verb}" for verb in DECISION_VERBS)
#: What a sink that reads everything is told: every type, and every decision by its verb.
EVERYTHING = frozenset(EVENT_TYPES) | _DECISIONS
#: What a state with no sink tells.
NOTHING: frozenset[str] = frozenset()


def tells_for(wants: Iterable[str] | None) -> frozenset[str]:
    """The kinds a state tells a sink that reads ``wants`` (``None``: everything). ``ValueError``
    names a kind Targui never tells (a typo would otherwise silence a figure)."""
    if wants is None:
        return EVERYTHING
    told = set()
    for kind in wants:
        if kind not in EVERYTHING:
            raise ValueError(f"no event kind {kind!r}: Targui tells {', '.join(sorted(EVERYTHING))}")
        told.add(kind)
        if kind == "decision":
            told |= _DECISIONS
    if told & _DECISIONS:
        told.add("decision")
    return frozenset(told)


def untold(event: dict[str, Any]) -> None:
    """The emit of a state with no sink: it tells nothing (its ``tells`` is empty, so never called)."""


def kind_of(event: dict[str, Any]) -> str:
    """The kind an event is told under: its type, and a decision's verb."""
    kind = event["type"]
    return f"decision:{event['action'].split()[0]}" if kind == "decision" else kind
