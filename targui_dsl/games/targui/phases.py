"""The phases of a game: whose node it is and what it decides."""

from __future__ import annotations

from enum import IntEnum

#: ``current_player()`` at a chance node and at the end (OpenSpiel's values).
CHANCE = -1
TERMINAL = -4


class Phase(IntEnum):
    """One node kind of the game tree. Names are what saved states and logs say."""

    SECTOR = 0  # a seat picks a free sector (2 and 4 players)
    DEAL = 1  # chance: the kind dealt to the next position
    SETTLE = 2  # a seat picks the cell for its settlement
    ROUND_DIE = 3  # chance: the round's die
    REVEAL = 4  # chance: the next card of the round stack
    DEPOSIT = 5  # treasury variants: how much to deposit (a count, 0 = none)
    MOVE = 6  # a pair of cells (move or attack) or pass
    MOVE_COUNT = 7  # how many camels move
    ATTACK_DIE = 8  # chance: the attacker's throw
    DEFEND_DIE = 9  # chance: the defender's throw
    ATTACK_CHOICE = 10  # again or give up
    ENTER = 11  # how many camels enter the taken cell
    BUY_CELL = 12  # the cell to buy camels on, or pass
    BUY_COUNT = 13  # how many camels to buy
    OVER = 14
    EFFECT_CHOICE = 15  # a card or hook asks a player to choose (a territory, a player, a number)
    EFFECT_ROLL = 16  # chance: a die thrown inside a card or hook (explicit chance)

    @property
    def label(self) -> str:
        return self.name.lower()


CHANCE_PHASES = frozenset({Phase.DEAL, Phase.ROUND_DIE, Phase.REVEAL, Phase.ATTACK_DIE, Phase.DEFEND_DIE,
                           Phase.EFFECT_ROLL})
#: Phases that choose a count (one base-256 digit at a time above 255).
COUNT_PHASES = frozenset({Phase.DEPOSIT, Phase.MOVE_COUNT, Phase.ENTER, Phase.BUY_COUNT})
IS_CHANCE = tuple(p in CHANCE_PHASES for p in Phase)
IS_COUNT = tuple(p in COUNT_PHASES for p in Phase)
PHASE_BY_LABEL = {p.label: p for p in Phase}

# The phases as plain ints, for the rules' hot paths (an enum member's lookup costs four
# times as much as a global int); declared here only, from the enum above.
(SECTOR, DEAL, SETTLE, ROUND_DIE, REVEAL, DEPOSIT, MOVE, MOVE_COUNT, ATTACK_DIE, DEFEND_DIE, ATTACK_CHOICE, ENTER,
 BUY_CELL, BUY_COUNT, OVER, EFFECT_CHOICE, EFFECT_ROLL) = (int(p) for p in Phase)
#: Each phase's label, by its int (what saved states and logs say).
LABELS = tuple(p.label for p in Phase)

# One history entry per step: the action id, the phase it was taken in and the actor
# (seat + 1; 0 for chance), packed in one int. The layout lives here only.
# (The rules' hot path packs with the two shifts itself, as encode_step does: a call per step
# costs more than the packing.)
PHASE_SHIFT, ACTION_SHIFT = 4, 9
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
