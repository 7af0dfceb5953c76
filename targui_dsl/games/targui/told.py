"""The kinds of events Targui tells a sink, and which of them a sink reads.

A sink says what it reads (``EventSink.wants``, ``None``: everything); the
engine builds only those events (no dict, no text for the rest): a study's
counter reads a fifth of a game's events. The kinds are the event types of
``docs/engine.md``; a ``decision`` is also told by its verb, the action's first
word (``decision:buy``), so that a sink reading only purchases is not built
every move. ``decision`` stands for every verb.
"""

from __future__ import annotations

from typing import Any, Final, Iterable

from targui_dsl.engine.told import EventKind, by_flag
from targui_dsl.games.targui.phases import ATTACK_DIE, DEAL, DEFEND_DIE, EFFECT_ROLL, LABELS, REVEAL, ROUND_DIE

__all__ = ["BIT", "DECISION_VERBS", "EVENT_TYPES", "EVERYTHING", "KINDS", "NOTHING", "bits_of", "chance", "decision",
           "kind_of", "tells_for", "untold"]

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
#: Each kind's bit in a state's ``tell_bits`` (:func:`bits_of` of its ``tells``): the rules test a
#: bit where a kind's string looked up in ``tells`` cost 1.7% of a later compiled game. Literals,
#: which mypyc writes into the compiled rules (a name read from this module is a look-up by name).
TELLS_ATTACK_END: Final = 1
TELLS_CARD: Final = 2
TELLS_CHANCE: Final = 4
TELLS_DECISION: Final = 8
TELLS_DECISION_AGAIN: Final = 16
TELLS_DECISION_ATTACK: Final = 32
TELLS_DECISION_BUY: Final = 64
TELLS_DECISION_CHOOSE: Final = 128
TELLS_DECISION_DEPOSIT: Final = 256
TELLS_DECISION_ENTER: Final = 512
TELLS_DECISION_GIVE: Final = 1024
TELLS_DECISION_MOVE: Final = 2048
TELLS_DECISION_PASS: Final = 4096
TELLS_DECISION_SECTOR: Final = 8192
TELLS_DECISION_SETTLE: Final = 16384
TELLS_ELIMINATED: Final = 32768
TELLS_END: Final = 65536
TELLS_FIGHT: Final = 131072
TELLS_HOOK: Final = 262144
TELLS_MEMORY: Final = 524288
TELLS_ROUND: Final = 1048576
TELLS_ROUND_END: Final = 2097152
TELLS_TURN: Final = 4194304
BIT: Final[dict[str, int]] = {
    "attack_end": TELLS_ATTACK_END, "card": TELLS_CARD, "chance": TELLS_CHANCE, "decision": TELLS_DECISION,
    "decision:again": TELLS_DECISION_AGAIN, "decision:attack": TELLS_DECISION_ATTACK,
    "decision:buy": TELLS_DECISION_BUY, "decision:choose": TELLS_DECISION_CHOOSE,
    "decision:deposit": TELLS_DECISION_DEPOSIT, "decision:enter": TELLS_DECISION_ENTER,
    "decision:give": TELLS_DECISION_GIVE, "decision:move": TELLS_DECISION_MOVE, "decision:pass": TELLS_DECISION_PASS,
    "decision:sector": TELLS_DECISION_SECTOR, "decision:settle": TELLS_DECISION_SETTLE,
    "eliminated": TELLS_ELIMINATED, "end": TELLS_END, "fight": TELLS_FIGHT, "hook": TELLS_HOOK,
    "memory": TELLS_MEMORY, "round": TELLS_ROUND, "round_end": TELLS_ROUND_END, "turn": TELLS_TURN,
}


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


def bits_of(tells: frozenset[str]) -> int:
    """The bits (:data:`BIT`) of the kinds in ``tells``."""
    bits = 0
    for kind in tells:
        bits |= BIT[kind]
    return bits


def untold(event: tuple[Any, ...]) -> None:
    """The emit of a state with no sink: it tells nothing (its ``tells`` is empty, so never called)."""


def kind_of(event: dict[str, Any]) -> str:
    """The kind an event is told under: its type, and a decision's verb."""
    kind = event["type"]
    return f"decision:{event['action'].split()[0]}" if kind == "decision" else kind


# ----------------------------------------------------------------------------------------
# Each event as the engine tells it: a tuple, its kind first (targui_dsl.engine.told), the
# values in the order of the kind's slots. The fields are those of docs/engine.md.
# ----------------------------------------------------------------------------------------
def decision(action: str) -> tuple[EventKind, EventKind]:
    """A decision whose readable action is ``action`` (words and slots: ``move {int} {int} {int}``),
    by whether it was forced: ``(DECIDE_MOVE[forced], round, player, tribe, source, target, camels)``."""
    return by_flag("decision", {"round": "{int}", "player": "{int}", "tribe": "{text}", "action": action,
                                "forced": "{flag}"})


def chance(phase: int, action: str) -> EventKind:
    """An outcome of the chance node ``phase`` (its label the event's ``node``), read as ``action``."""
    return EventKind("chance", {"round": "{int}", "node": LABELS[phase], "action": action})


CHANCE_DEAL = chance(DEAL, "deal {text}")  # a kind's id
CHANCE_TURN = chance(REVEAL, "turn {text}")  # a tribe's id
CHANCE_CARD = chance(REVEAL, "card {text}")  # a card's id
#: A die thrown, by the chance node that throws it.
CHANCE_DIE = {phase: chance(phase, "die {int}") for phase in (ROUND_DIE, ATTACK_DIE, DEFEND_DIE, EFFECT_ROLL)}
DECIDE_PASS = decision("pass")
DECIDE_ATTACK = decision("attack {int} {int}")  # source, target
DECIDE_MOVE = decision("move {int} {int} {int}")  # source, target, camels
DECIDE_BUY = decision("buy {int} on {int}")  # camels, position
DECIDE_ENTER = decision("enter {int}")
DECIDE_DEPOSIT = decision("deposit {int}")
DECIDE_AGAIN = decision("again")
DECIDE_GIVE_UP = decision("give up")
DECIDE_CHOOSE = decision("choose {text}")  # an effect's answer as a player writes it
DECIDE_SECTOR = decision("sector {text}")
DECIDE_SETTLE = decision("settle {int}")
# by their double_turn: ROUND[double_turn], TURN[double_turn]
ROUND = by_flag("round", {"round": "{int}", "die": "{int}", "double_turn": "{flag}", "tribal_cards": "{int}",
                          "fortune_cards": "{int}"})
TURN = by_flag("turn", {"round": "{int}", "player": "{int}", "tribe": "{text}", "double_turn": "{flag}"})
FIGHT = EventKind("fight", {"round": "{int}", "thrower": "{text}", "die": "{int}", "loss": "{int}", "source": "{int}",
                            "target": "{int}", "camels": ["{int}", "{int}"]})
ATTACK_END = EventKind("attack_end", {"round": "{int}", "result": "{text}", "source": "{int}", "target": "{int}"})
CARD = EventKind("card", {"round": "{int}", "card": "{text}", "number": "{int}", "title": "{text}",
                          "changes": "{json}"})
HOOK = EventKind("hook", {"round": "{int}", "moment": "{text}", "hook": "{int}", "changes": "{json}"})
MEMORY = EventKind("memory", {"round": "{int}", "name": "{text}", "value": "{json}"})  # the game's
MEMORY_TRIBE = EventKind("memory", {"round": "{int}", "name": "{text}", "tribe": "{text}", "value": "{json}"})
MEMORY_POSITION = EventKind("memory", {"round": "{int}", "name": "{text}", "position": "{int}", "value": "{json}"})
ROUND_END = EventKind("round_end", {"round": "{int}", "cash_lost": "{json}", "levy": "{json}", "cash": "{json}",
                                    "treasury": "{json}"})
ELIMINATED = EventKind("eliminated", {"round": "{int}", "player": "{int}", "tribe": "{text}"})
END = EventKind("end", {"reason": "{text}", "rounds": "{int}", "scores": "{json}", "tie_breaks": "{json}",
                        "winners": "{json}", "draw": "{flag}"})

#: Every kind of event told.
KINDS = (CHANCE_DEAL, CHANCE_TURN, CHANCE_CARD, *CHANCE_DIE.values(), *DECIDE_PASS, *DECIDE_ATTACK, *DECIDE_MOVE,
         *DECIDE_BUY, *DECIDE_ENTER, *DECIDE_DEPOSIT, *DECIDE_AGAIN, *DECIDE_GIVE_UP, *DECIDE_CHOOSE, *DECIDE_SECTOR,
         *DECIDE_SETTLE, *ROUND, *TURN, FIGHT, ATTACK_END, CARD, HOOK, MEMORY, MEMORY_TRIBE, MEMORY_POSITION, ROUND_END,
         ELIMINATED, END)
