"""The kinds of events Targui tells a sink, and which of them a sink reads.

A sink says what it reads (``EventSink.wants``, ``None``: everything); the
engine builds only those events (no dict, no text for the rest): a study's
counter reads a fifth of a game's events. The kinds are the event types of
``docs/engine.md``; a ``decision`` is also told by its verb, the action's first
word (``decision:buy``), so that a sink reading only purchases is not built
every move. ``decision`` stands for every verb.
"""

from __future__ import annotations

from typing import Any, Callable, Final, Iterable

from targui_dsl.engine.per_ruleset import per_ruleset
from targui_dsl.engine.told import EventKind, by_flag
from targui_dsl.games.targui.phases import ATTACK_DIE, DEAL, DEFEND_DIE, EFFECT_ROLL, LABELS, REVEAL, ROUND_DIE

__all__ = ["BIT", "DECISION_VERBS", "EVENT_TYPES", "EVERYTHING", "KINDS", "RulesetKinds", "SeatKinds",
           "bits_of", "chance", "kind_of", "ruleset_kinds", "seat_kinds", "tells_for", "untold"]

#: The event types a game tells, as its log writes them (the header is the log's own).
EVENT_TYPES = ("chance", "decision", "round", "turn", "fight", "attack_end", "card", "hook", "memory", "round_end",
               "eliminated", "end")
#: The first word of each decision's action text.
DECISION_VERBS = ("sector", "settle", "deposit", "move", "attack", "pass", "buy", "again", "give", "enter",
                  "choose")

_DECISIONS = frozenset(f"decision:{verb}" for verb in DECISION_VERBS)
#: What a sink that reads everything is told: every type, and every decision by its verb.
EVERYTHING = frozenset(EVENT_TYPES) | _DECISIONS
#: Each kind's bit in a state's ``tell_bits`` (:func:`bits_of` of :func:`tells_for`): the rules test a
#: bit where a kind's string looked up in a frozenset of the kinds cost 1.7% of a later compiled game. Literals,
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
    """The emit of a state with no sink: it tells nothing (its ``tell_bits`` are 0, so never called)."""


def kind_of(event: dict[str, Any]) -> str:
    """The kind an event is told under: its type, and a decision's verb."""
    kind = event["type"]
    return f"decision:{event['action'].split()[0]}" if kind == "decision" else kind


# ----------------------------------------------------------------------------------------
# Each event as the engine tells it: a tuple, its kind first (targui_dsl.engine.told), the
# values in the order of the kind's slots. The fields are those of docs/engine.md.
# ----------------------------------------------------------------------------------------
def chance(phase: int, action: str) -> EventKind:
    """An outcome of the chance node ``phase`` (its label the event's ``node``), read as ``action``."""
    return EventKind("chance", {"round": "{int}", "node": LABELS[phase], "action": action})


CHANCE_CARD = chance(REVEAL, "card {text}")  # a card's id
#: A die thrown, by the chance node that throws it.
CHANCE_DIE = {phase: chance(phase, "die {int}") for phase in (ROUND_DIE, ATTACK_DIE, DEFEND_DIE, EFFECT_ROLL)}
# by their double_turn: ROUND[double_turn]
ROUND = by_flag("round", {"round": "{int}", "die": "{int}", "double_turn": "{flag}", "tribal_cards": "{int}",
                          "fortune_cards": "{int}"})
#: A fight's throw, by its thrower: ``(FIGHT[thrower], round, die, loss, source, target, camels, camels)``.
FIGHT = {thrower: EventKind("fight", {"round": "{int}", "thrower": thrower, "die": "{int}", "loss": "{int}",
                                      "source": "{int}", "target": "{int}", "camels": ["{int}", "{int}"]})
         for thrower in ("attacker", "defender")}
#: An attack's end, by its result: ``(ATTACK_END[result], round, source, target)``.
ATTACK_END = {result: EventKind("attack_end", {"round": "{int}", "result": result, "source": "{int}",
                                               "target": "{int}"})
              for result in ("won", "failed", "given up")}
CARD = EventKind("card", {"round": "{int}", "card": "{text}", "number": "{int}", "title": "{text}",
                          "changes": "{json}"})
HOOK = EventKind("hook", {"round": "{int}", "moment": "{text}", "hook": "{int}", "changes": "{json}"})
MEMORY = EventKind("memory", {"round": "{int}", "name": "{text}", "value": "{json}"})  # the game's
MEMORY_TRIBE = EventKind("memory", {"round": "{int}", "name": "{text}", "tribe": "{text}", "value": "{json}"})
MEMORY_POSITION = EventKind("memory", {"round": "{int}", "name": "{text}", "position": "{int}", "value": "{json}"})
END = EventKind("end", {"reason": "{text}", "rounds": "{int}", "scores": "{json}", "tie_breaks": "{json}",
                        "winners": "{json}", "draw": "{flag}"})


class SeatKinds:
    """The kinds of the events that name a seat, made for one seating (``game.tribe_ids``): a kind
    per seat, the seat's number and tribe written in the kind (as Targi's decisions), so that the
    game tells and the log formats two values fewer at each decision and turn, and one at each
    turn's reveal. A decision's kinds are by whether it was forced, then by seat:
    ``(kinds.move[forced][seat], round, source, target, camels)``; a turn's by its double_turn:
    ``(kinds.turn[double][seat], round)``; ``(kinds.reveal[seat], round)`` is the chance outcome
    that turns the seat's tribal card, ``(kinds.eliminated[seat], round)`` the seat's end; a round's
    end has a dict by tribe of each seat's numbers (its keys the seating's tribes). (A
    tribe's id is lower-case letters, digits and ``_``, as the ruleset's schema says: written in a
    kind's text it is never read as a slot.)"""

    def __init__(self, tribe_ids: tuple[str, ...]) -> None:
        seats = tuple(enumerate(tribe_ids))

        def decision(action: str) -> tuple[tuple[EventKind, ...], tuple[EventKind, ...]]:
            """A decision whose readable action is ``action`` (words and slots: ``move {int} {int} {int}``),
            by whether it was forced, then by seat."""
            forced_false, forced_true = (tuple(EventKind("decision", {"round": "{int}", "player": seat, "tribe": tribe,
                                                                      "action": action, "forced": forced})
                                               for seat, tribe in seats) for forced in (False, True))
            return forced_false, forced_true

        self.pass_ = decision("pass")
        self.attack = decision("attack {int} {int}")  # source, target
        self.move = decision("move {int} {int} {int}")  # source, target, camels
        self.buy = decision("buy {int} on {int}")  # camels, position
        self.enter = decision("enter {int}")
        self.deposit = decision("deposit {int}")
        self.again = decision("again")
        self.give_up = decision("give up")
        self.choose = decision("choose {text}")  # an effect's answer as a player writes it
        self.sector = decision("sector {text}")
        self.settle = decision("settle {int}")
        single, double = (tuple(EventKind("turn", {"round": "{int}", "player": seat, "tribe": tribe,
                                                   "double_turn": flag}) for seat, tribe in seats)
                          for flag in (False, True))
        self.turn = (single, double)
        self.reveal = tuple(chance(REVEAL, f"turn {tribe}") for _, tribe in seats)
        self.eliminated = tuple(EventKind("eliminated", {"round": "{int}", "player": seat, "tribe": tribe})
                                for seat, tribe in seats)
        #: A round's end: each seat's cash lost, levy, cash and treasury, a dict by tribe (its keys in the kind):
        #: ``(kinds.round_end, round, *cash_lost, *levy, *cash, *treasury)``, each by seat.
        self.round_end = EventKind("round_end", {"round": "{int}", **{field: {tribe: "{int}" for _, tribe in seats}
                                                                      for field in ("cash_lost", "levy", "cash",
                                                                                    "treasury")}})
        decisions = (self.pass_, self.attack, self.move, self.buy, self.enter, self.deposit, self.again, self.give_up,
                     self.choose, self.sector, self.settle, self.turn)
        #: Every kind made here.
        self.every: tuple[EventKind, ...] = (*(kind for pair in decisions for kinds in pair for kind in kinds),
                                             *self.reveal, *self.eliminated, self.round_end)


class RulesetKinds:
    """The kinds of the chance events of one ruleset, by outcome: the outcome written in the kind (one
    value fewer to tell and to write). ``(kinds.deal[kind], round)`` deals a territory kind (by its
    index; its id written), ``(kinds.die[phase][outcome], round)`` throws the die of a round, an attack
    or a defence (``die outcome + 1``; an effect's roll, of any number of sides, is ``CHANCE_DIE``'s)."""

    def __init__(self, ruleset: Any) -> None:
        self.deal = tuple(chance(DEAL, f"deal {kind.id}") for kind in ruleset.kinds)
        self.die = {phase: tuple(chance(phase, f"die {face}") for face in range(1, ruleset.die_sides + 1))
                    for phase in (ROUND_DIE, ATTACK_DIE, DEFEND_DIE)}
        #: A (mis)fortune card's event, by the card's index: its id, number and title written in the kind,
        #: ``(kinds.card[card], round, changes)`` (two texts and a number fewer to tell and to write); None
        #: for a card whose texts a kind cannot hold as they are (a brace), told by ``CARD``.
        self.card = tuple(card_kind(card_id, card.number, card.title) for card_id, card in ruleset.cards.items())
        #: Every kind made here.
        self.every: tuple[EventKind, ...] = (*self.deal, *(kind for kinds in self.die.values() for kind in kinds),
                                             *(kind for kind in self.card if kind is not None))


def card_kind(card_id: Any, number: Any, title: Any) -> EventKind | None:
    """The kind of one card's event, its id, number and title constants (:data:`CARD`'s fields); None
    when a text holds a brace (a kind would read it as a slot) or a value is not of its slot's type."""
    if type(card_id) is not str or type(number) is not int or type(title) is not str or \
            any(brace in text for text in (card_id, title) for brace in "{}"):
        return None
    return EventKind("card", {**CARD.fields, "card": card_id, "number": number, "title": title})


#: The kinds of a ruleset's chance events by outcome, made once per ruleset (``ruleset_kinds(game.ruleset)``).
ruleset_kinds: Callable[[Any], RulesetKinds] = per_ruleset(RulesetKinds)
#: The kinds of a seating's events by seat, made once per seating (``seat_kinds(game.tribe_ids)``: the
#: games of one ruleset and seating share their tables, that tuple too).
seat_kinds: Callable[[tuple[str, ...]], SeatKinds] = per_ruleset(SeatKinds)

#: Every kind of event told but those made per seating and per ruleset (:class:`SeatKinds`, :class:`RulesetKinds`).
KINDS = (CHANCE_CARD, *CHANCE_DIE.values(), *ROUND, *FIGHT.values(), *ATTACK_END.values(), CARD, HOOK, MEMORY,
         MEMORY_TRIBE, MEMORY_POSITION, END)
