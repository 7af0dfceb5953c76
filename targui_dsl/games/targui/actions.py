"""The integer action space: every decision is one small choice, OpenSpiel's way.

A compound move is split into steps by the same player, so that every
decision lists a few dozen actions and a uniformly random choice is uniform
at each step::

    movement phase (treasury)  how much to deposit:   count 0 .. cash
    movement phase             a pair or pass:        move 25 24 | attack 25 24 | pass
                               then how many (moves): count 1 .. camels on 25
    attack                     again | give up;  after a conquest: count 1 .. camels left
    adding phase               a cell or pass:        buy on 12 | pass
                               then how many:         count 1 .. what cash and box allow
    setup                      sector north_west;  settle 47

Ids (``game.num_distinct_actions()`` in all, fixed by the ruleset and the
number of players)::

    0                     pass
    1, 2                  again, give up
    3 .. 258              count 0 .. 255
    then one per sector   sector <id>
    then one per cell     settle <position> | buy on <position> | choose <position>
    then one per pair     move/attack <position> <position>: every ordered pair of adjacent cells
    then one per seat     choose <tribe>  (choices inside card effects)

Counts above 255 are chosen in base-256 digits, most significant first
(``count 256..511`` narrows the range, then ``count 300``), so no decision
ever lists more than 256 counts and nothing grows with a house rule's
camel box of 10**9. Up to 255 the choice is a single step.

Chance outcomes have their own small space (``game.max_chance_outcomes()``):
a die throw ``d`` is ``d - 1``; a dealt kind its kind index; the next card
of the round stack is a seat (its tribal card) or ``players + card index``.

Readable forms (``move 25 24 5``, ``buy 5 on 12``, ``deposit 4``, ``enter 3``)
stay what logs and the terminal show; ``state.apply_action(text)`` accepts
them and takes the steps they stand for.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Sequence

# Final: a compiled build inlines them
PASS: Final = 0
AGAIN: Final = 1
GIVE_UP: Final = 2
COUNT_BASE: Final = 3
#: One count step chooses among at most this many values (one base-256 digit).
COUNT_RADIX: Final = 256
SECTOR_BASE: Final = COUNT_BASE + COUNT_RADIX
#: Every count step's id, in order: a count's legal ids are a slice of it, a list copied in C
#: (three times as fast as listing a range afresh, at every count of a game). Never changed.
COUNT_IDS: Final = list(range(COUNT_BASE, COUNT_BASE + COUNT_RADIX))


class IllegalAction(ValueError):
    """An action that is malformed, or not legal in the state it is applied to."""


@dataclass(frozen=True)
class ActionSpace:
    """The id layout of one game: which range of ids means what."""

    sectors: int
    cells: int
    pairs: tuple[tuple[int, int], ...]  # pair index -> (source cell, target cell)
    players: int

    @property
    def cell_base(self) -> int:
        return SECTOR_BASE + self.sectors

    @property
    def pair_base(self) -> int:
        return self.cell_base + self.cells

    @property
    def seat_base(self) -> int:
        return self.pair_base + len(self.pairs)

    @property
    def size(self) -> int:
        return self.seat_base + self.players

    # Building ids -----------------------------------------------------------
    def count(self, value: int) -> int:
        """The id of count step value ``value`` (0..255)."""
        return COUNT_BASE + value

    def sector(self, index: int) -> int:
        return SECTOR_BASE + index

    def cell(self, cell: int) -> int:
        return self.cell_base + cell

    def seat(self, seat: int) -> int:
        return self.seat_base + seat

    # Reading ids ----------------------------------------------------------
    def is_count(self, action: int) -> bool:
        return COUNT_BASE <= action < SECTOR_BASE

    def count_value(self, action: int) -> int:
        return action - COUNT_BASE

    def sector_index(self, action: int) -> int:
        return action - SECTOR_BASE

    def is_cell(self, action: int) -> bool:
        return self.cell_base <= action < self.pair_base

    def cell_of(self, action: int) -> int:
        return action - self.cell_base

    def is_pair(self, action: int) -> bool:
        return self.pair_base <= action < self.seat_base

    def pair_of(self, action: int) -> tuple[int, int]:
        """(source cell, target cell) of a pair id."""
        return self.pairs[action - self.pair_base]

    def is_seat(self, action: int) -> bool:
        return self.seat_base <= action < self.size

    def seat_of(self, action: int) -> int:
        return action - self.seat_base


def make_action_space(cells: int, neighbours: Sequence[Sequence[int]], sectors: int,
                      players: int) -> tuple[ActionSpace, tuple[dict[int, int], ...]]:
    """The action space of a board (its cells and their neighbours, its sectors) and a number
    of players; and, per source cell, target cell -> pair id."""
    pairs = tuple((source, target) for source in range(cells) for target in sorted(neighbours[source]))
    space = ActionSpace(sectors=sectors, cells=cells, pairs=pairs, players=players)
    by_source: list[dict[int, int]] = [{} for _ in range(cells)]
    for index, (source, target) in enumerate(pairs):
        by_source[source][target] = space.pair_base + index
    return space, tuple(by_source)


def digit_range(lo: int, hi: int, prefix: int, digits_left: int) -> tuple[int, int]:
    """The digits allowed at a count step: the next base-256 digit after ``prefix``
    (``digits_left`` digits still to choose, this one included) such that some
    count in ``lo..hi`` starts with the chosen digits."""
    scale = COUNT_RADIX ** (digits_left - 1)
    base = prefix * COUNT_RADIX
    return max(0, lo // scale - base), min(COUNT_RADIX - 1, hi // scale - base)


def count_digits(hi: int) -> int:
    """How many count steps choosing a count up to ``hi`` takes (1 up to 255)."""
    digits = 1
    while hi >= COUNT_RADIX ** digits:
        digits += 1
    return digits


def words(text: str) -> list[str]:
    """An action text as lower-case words (``give up`` and ``buy 5 on 12`` included)."""
    return text.strip().lower().replace("-", "_").split()


def plain_number(word: str, text: str) -> int:
    # plain ASCII digits only: int() would also take "1_2", "+5" and other scripts' digits
    if not (word.isascii() and word.isdigit()) or len(word) > 12:
        raise IllegalAction(f"`{word}` is not a number (in `{text.strip()}`)")
    return int(word)
