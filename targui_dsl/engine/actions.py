"""Actions: small immutable values that print as a player would type them.

Positions in actions are the printed board numbers (1 = the centre), never
internal cell indices, so ``str(action)`` is what a human types and
``parse_action(str(action), state) == action``.

Decisions::

    sector north_west      pick a free sector (2 and 4 players)
    settle 47              put the settlement on position 47
    deposit 5              move 5 silver from hand into the treasury
    move 12 13 4           move 4 camels from 12 to 13 (own, unowned or undefended enemy cell)
    attack 12 13           attack the defended enemy cell 13 from 12
    again                  throw again in a running attack
    give up                end a running attack
    enter 3                after a conquest, move 3 camels into the taken cell
    buy 5 on 12            buy 5 camels and place them on 12
    pass                   end the movement or adding phase without acting

Chance outcomes (explicit chance nodes, forced outcomes, the log)::

    deal guelta            the next position of the deal gets a guelta
    die 4                  a throw of the die
    turn kel_ress          the next card of the round stack is Kel Ress's tribal card
    card sandstorm         the next card of the round stack is this (mis)fortune card
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState

SECTOR = "sector"
SETTLE = "settle"
DEPOSIT = "deposit"
MOVE = "move"
ATTACK = "attack"
AGAIN = "again"
GIVE_UP = "give up"
ENTER = "enter"
BUY = "buy"
PASS = "pass"
DEAL = "deal"
DIE = "die"
TURN = "turn"
CARD = "card"

CHANCE_VERBS = frozenset({DEAL, DIE, TURN, CARD})

# verb -> the types of its arguments ("int" or "name")
_SIGNATURES: dict[str, tuple[str, ...]] = {
    SECTOR: ("name",),
    SETTLE: ("int",),
    DEPOSIT: ("int",),
    MOVE: ("int", "int", "int"),
    ATTACK: ("int", "int"),
    AGAIN: (),
    GIVE_UP: (),
    ENTER: ("int",),
    BUY: ("int", "int"),
    PASS: (),
    DEAL: ("name",),
    DIE: ("int",),
    TURN: ("name",),
    CARD: ("name",),
}


class IllegalAction(ValueError):
    """An action that is malformed, or not legal in the state it is applied to."""


class Action(NamedTuple):
    verb: str
    args: tuple = ()

    def __str__(self) -> str:
        if self.verb == BUY:
            return f"buy {self.args[0]} on {self.args[1]}"
        if not self.args:
            return self.verb
        return self.verb + " " + " ".join(str(a) for a in self.args)

    def __repr__(self) -> str:
        return f"Action({str(self)!r})"

    @property
    def is_chance(self) -> bool:
        return self.verb in CHANCE_VERBS


# Shared instances of the argument-less actions.
AGAIN_ACTION = Action(AGAIN)
GIVE_UP_ACTION = Action(GIVE_UP)
PASS_ACTION = Action(PASS)


def move(source: int, target: int, count: int) -> Action:
    return Action(MOVE, (source, target, count))


def attack(source: int, target: int) -> Action:
    return Action(ATTACK, (source, target))


def buy(count: int, position: int) -> Action:
    return Action(BUY, (count, position))


def die(value: int) -> Action:
    return Action(DIE, (value,))


def parse_action(text: str, state: "GameState | None" = None) -> Action:
    """Read an action as printed by ``str(action)``.

    Raises :class:`IllegalAction` (a ``ValueError``) with a readable reason
    when the text is not an action, or, given a state, when the action is
    not legal in it.
    """
    words = text.strip().lower().split()
    if not words:
        raise IllegalAction("empty action")
    verb, rest = words[0], words[1:]
    if verb == "give" and rest[:1] == ["up"]:
        verb, rest = GIVE_UP, rest[1:]
    elif verb == BUY:
        # "buy 5 on 12"; "buy 5 12" is accepted too
        if len(rest) == 3 and rest[1] == "on":
            rest = [rest[0], rest[2]]
    signature = _SIGNATURES.get(verb)
    if signature is None:
        known = ", ".join(sorted(_SIGNATURES))
        raise IllegalAction(f"unknown action `{words[0]}` (actions: {known})")
    if len(rest) != len(signature):
        raise IllegalAction(f"`{verb}` takes {len(signature)} argument{'s' if len(signature) != 1 else ''}, "
                            f"got {len(rest)}: try `{_example(verb)}`")
    args: list = []
    for word, kind in zip(rest, signature):
        if kind == "int":
            # plain ASCII digits only: int() would also take "1_2", "+5" and other scripts' digits
            if not (word.isascii() and word.isdigit()):
                raise IllegalAction(f"`{word}` is not a number (in `{text.strip()}`)")
            args.append(int(word))
        else:
            args.append(word.replace("-", "_"))
    action = Action(verb, tuple(args))
    if state is not None:
        state.check_legal(action)
    return action


def _example(verb: str) -> str:
    return {
        SECTOR: "sector north_west", SETTLE: "settle 47", DEPOSIT: "deposit 5", MOVE: "move 12 13 4",
        ATTACK: "attack 12 13", ENTER: "enter 3", BUY: "buy 5 on 12", DEAL: "deal guelta", DIE: "die 4",
        TURN: "turn kel_ress", CARD: "card sandstorm",
    }.get(verb, verb)
