"""The phases of a game: whose node it is and what it decides."""

from __future__ import annotations

from enum import IntEnum
from typing import Final

#: ``current_player()`` at a chance node and at the end (OpenSpiel's values).
CHANCE: Final = -1
TERMINAL: Final = -4


# The phases as plain ints, for the rules' hot paths (an enum member's lookup costs four
# times as much as a global int, and a compiled build inlines a Final int); the enum below
# is made of them.
SECTOR: Final = 0
DEAL: Final = 1
SETTLE: Final = 2
ROUND_DIE: Final = 3
REVEAL: Final = 4
DEPOSIT: Final = 5
MOVE: Final = 6
MOVE_COUNT: Final = 7
ATTACK_DIE: Final = 8
DEFEND_DIE: Final = 9
ATTACK_CHOICE: Final = 10
ENTER: Final = 11
BUY_CELL: Final = 12
BUY_COUNT: Final = 13
OVER: Final = 14
EFFECT_CHOICE: Final = 15
EFFECT_ROLL: Final = 16


class Phase(IntEnum):
    """One node kind of the game tree. Names are what saved states and logs say."""

    SECTOR = SECTOR  # a seat picks a free sector (2 and 4 players)
    DEAL = DEAL  # chance: the kind dealt to the next position
    SETTLE = SETTLE  # a seat picks the cell for its settlement
    ROUND_DIE = ROUND_DIE  # chance: the round's die
    REVEAL = REVEAL  # chance: the next card of the round stack
    DEPOSIT = DEPOSIT  # treasury variants: how much to deposit (a count, 0 = none)
    MOVE = MOVE  # a pair of cells (move or attack) or pass
    MOVE_COUNT = MOVE_COUNT  # how many camels move
    ATTACK_DIE = ATTACK_DIE  # chance: the attacker's throw
    DEFEND_DIE = DEFEND_DIE  # chance: the defender's throw
    ATTACK_CHOICE = ATTACK_CHOICE  # again or give up
    ENTER = ENTER  # how many camels enter the taken cell
    BUY_CELL = BUY_CELL  # the cell to buy camels on, or pass
    BUY_COUNT = BUY_COUNT  # how many camels to buy
    OVER = OVER
    EFFECT_CHOICE = EFFECT_CHOICE  # a card or hook asks a player to choose (a territory, a player, a number)
    EFFECT_ROLL = EFFECT_ROLL  # chance: a die thrown inside a card or hook (explicit chance)

    @property
    def label(self) -> str:
        return self.name.lower()


CHANCE_PHASES = frozenset({Phase.DEAL, Phase.ROUND_DIE, Phase.REVEAL, Phase.ATTACK_DIE, Phase.DEFEND_DIE,
                           Phase.EFFECT_ROLL})
#: Phases that choose a count (one base-256 digit at a time above 255).
COUNT_PHASES = frozenset({Phase.DEPOSIT, Phase.MOVE_COUNT, Phase.ENTER, Phase.BUY_COUNT})
#: Phases of a running attack (its source and target cells are the pending pair).
ATTACK_PHASES = frozenset({Phase.ATTACK_DIE, Phase.DEFEND_DIE, Phase.ATTACK_CHOICE, Phase.ENTER})
IS_CHANCE: Final = tuple(p in CHANCE_PHASES for p in Phase)
IS_COUNT: Final = tuple(p in COUNT_PHASES for p in Phase)
PHASE_BY_LABEL = {p.label: p for p in Phase}

#: Each phase's label, by its int (what saved states and logs say).
LABELS: Final = tuple(p.label for p in Phase)

# One history entry per step: the action id, the phase it was taken in and the actor
# (seat + 1; 0 for chance), packed in one int. The layout lives here only.
# (The rules' hot path packs with the two shifts itself, as encode_step does: a call per step
# costs more than the packing.)
PHASE_SHIFT: Final = 4
ACTION_SHIFT: Final = 9
_ACTOR_MASK, _PHASE_MASK = (1 << PHASE_SHIFT) - 1, (1 << (ACTION_SHIFT - PHASE_SHIFT)) - 1
#: The most seats a history entry can name (seat + 1 fits in the actor bits).
MAX_HISTORY_SEATS = _ACTOR_MASK


def encode_step(action: int, phase: int, actor: int) -> int:
    """A history entry: ``action`` taken in ``phase`` by seat ``actor`` (-1: chance)."""
    return (action << ACTION_SHIFT) | (phase << PHASE_SHIFT) | (actor + 1)


def step_action(entry: int) -> int:
    """The action id of a history entry."""
    return entry >> ACTION_SHIFT


def step_phase(entry: int) -> int:
    """The phase (as its int) a history entry's step was taken in."""
    return (entry >> PHASE_SHIFT) & _PHASE_MASK


def step_actor(entry: int) -> int:
    """The seat that took a history entry's step, -1 for chance."""
    return (entry & _ACTOR_MASK) - 1


def with_action(entry: int, action: int) -> int:
    """The same entry with another action id (to hide what a seat may not see)."""
    return (action << ACTION_SHIFT) | (entry & ((1 << ACTION_SHIFT) - 1))
