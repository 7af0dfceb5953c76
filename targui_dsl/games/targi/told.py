"""The kinds of events Targi tells a sink, and which of them a sink reads.

A sink says what it reads (``EventSink.wants``, ``None``: everything); the engine builds only
those events: a study's counter reads the displays and the end, a tenth of a game's events.
The kinds are the event types of a Targi log.
"""

from __future__ import annotations

from typing import Iterable

from targui_dsl.engine.told import EventKind
from targui_dsl.games.targi.record import SEATS

#: The event types Targi tells, as its log writes them (the header is the log's own).
EVENT_TYPES = ("chance", "decision", "placed", "raid", "display", "end")
EVERYTHING = frozenset(EVENT_TYPES)
NOTHING: frozenset[str] = frozenset()


def tells_for(wants: Iterable[str] | None) -> frozenset[str]:
    """The kinds a state tells a sink that reads ``wants`` (``None``: everything). ``ValueError``
    names a kind Targi never tells (a typo would otherwise silence a figure)."""
    if wants is None:
        return EVERYTHING
    told = frozenset(wants)
    for kind in sorted(told - EVERYTHING):
        raise ValueError(f"no event kind {kind!r}: Targi tells {', '.join(EVENT_TYPES)}")
    return told


# Each event as the engine tells it: a tuple, its kind first (targui_dsl.engine.told), the values
# in the order of the kind's slots.
CHANCE = EventKind("chance", {"round": "{int}", "node": "draw", "action": "card {int}"})  # the card's number
#: A decision's kind by its seat: the seat's number and tribe written in the kind (two values fewer to
#: tell and to write at each decision). Targi forces no decision it logs.
DECISION = tuple(EventKind("decision", {"round": "{int}", "player": seat, "tribe": tribe, "action": "{text}",
                                        "forced": False}) for seat, tribe in enumerate(SEATS))
PLACED = EventKind("placed", {"round": "{int}", "figures": "{json}", "markers": "{json}"})
RAID = EventKind("raid", {"round": "{int}", "border": "{int}"})
DISPLAY = EventKind("display", {"round": "{int}", "player": "{int}", "card": "{int}", "src": "{text}"})
END = EventKind("end", {"reason": "{text}", "rounds": "{int}", "scores": "{json}", "tie_breaks": "{json}",
                        "winners": "{json}", "draw": "{flag}", "parts": "{json}"})
#: Every kind of event told.
KINDS = (CHANCE, *DECISION, PLACED, RAID, DISPLAY, END)
