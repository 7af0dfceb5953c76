"""A small in-memory board implementing EffectRuntime, for the effect tests.

It follows the runtime contract (targui_dsl/games/targui/effect_api.py) literally:
clamping at 0, the camel box, no camels added to unowned or impassable
cells, kind values with round-long modifiers, land changing hands with the
rules' invariants. :func:`drive` runs a compiled snippet that pauses,
answering its requests from scripted dice and choices.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable

from targui_dsl.effects import INT, PLAYER
from targui_dsl.effects.runtime import ChoiceRequest, EffectRun, RollRequest
from targui_dsl.games.targui.names import TERRITORY, environment

# docs/rules/targui.md section 1: id -> (economic, strategic, passable)
KINDS = {
    "settlement": (4, 4, True),
    "salt_mine": (5, 5, True),
    "guelta": (3, 3, True),
    "reg": (2, 0, True),
    "erg": (1, 0, True),
    "fesh_fesh": (0, 2, True),
    "mountain": (0, 1, True),
    "chott": (0, 0, False),
}
KIND_INDEX = {name: i for i, name in enumerate(KINDS)}
TRIBES = ["kel_ahaggar", "kel_ajjer", "kel_ilbakan", "kel_ress"]
TRIBE_INDEX = {name: i for i, name in enumerate(TRIBES)}

EFFECT_ENV = environment(KIND_INDEX, TRIBE_INDEX, {})
COMBAT_ENV = environment(KIND_INDEX, TRIBE_INDEX, {"die": INT, "source": TERRITORY, "target": TERRITORY})
PLAYER_ENV = environment(KIND_INDEX, TRIBE_INDEX, {"player": PLAYER})


class _Column:
    """A field of every cell, read live by index (what ``territory_kinds`` promises)."""

    def __init__(self, cells, read):
        self.cells, self.read = cells, read

    def __getitem__(self, territory):
        return self.read(self.cells[territory])

    def __len__(self):
        return len(self.cells)


@dataclass
class Cell:
    kind: str
    owner: int | None
    camels: int


@dataclass
class Seat:
    tribe: str
    settlement: int | None
    cash: int
    treasury: int = 0


@dataclass
class FakeRuntime:
    cells: list[Cell]
    seats: list[Seat]
    columns: int = 4
    box_camels: int = 100
    round: int = 1
    die: int = 3
    price: int = 1
    turn_of: int | None = None
    lasting: dict[str, list[int]] = field(default_factory=dict)
    now: dict[str, list[int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.lasting = {
            "economic": [e for e, _, _ in KINDS.values()],
            "strategic": [s for _, s, _ in KINDS.values()],
        }
        self.now = {key: list(values) for key, values in self.lasting.items()}

    # test helpers -----------------------------------------------------------
    def end_round(self) -> None:
        """Round-long modifiers expire (after the levy)."""
        self.now = {key: list(values) for key, values in self.lasting.items()}

    def total_camels(self) -> int:
        return self.box_camels + sum(c.camels for c in self.cells)

    def state(self) -> tuple:
        return (
            [c.camels for c in self.cells],
            [(s.cash, s.treasury) for s in self.seats],
            self.box_camels,
            {k: list(v) for k, v in self.now.items()},
        )

    # collections ------------------------------------------------------------
    def all_territories(self):
        return range(len(self.cells))

    def all_players(self):
        return [p for p in range(len(self.seats)) if any(c.owner == p for c in self.cells)]

    def all_seats(self):
        return range(len(self.seats))

    def territories_of(self, player):
        if player is None:
            return []
        return [i for i, c in enumerate(self.cells) if c.owner == player]

    def all_kinds(self):
        return range(len(KINDS))

    def neighbours(self, territory):
        rows = len(self.cells) // self.columns
        r, c = divmod(territory, self.columns)
        return [
            rr * self.columns + cc
            for rr in range(r - 1, r + 2)
            for cc in range(c - 1, c + 2)
            if (rr, cc) != (r, c) and 0 <= rr < rows and 0 <= cc < self.columns
        ]

    # territory fields -------------------------------------------------------
    def kind(self, territory):
        return KIND_INDEX[self.cells[territory].kind]

    def camels(self, territory):
        return self.cells[territory].camels

    def territories_of_kind(self, kind):
        return [t for t, cell in enumerate(self.cells) if KIND_INDEX[cell.kind] == kind]

    def territory_kinds(self):
        return _Column(self.cells, lambda cell: KIND_INDEX[cell.kind])

    def territory_camels(self):
        return _Column(self.cells, lambda cell: cell.camels)

    def owner(self, territory):
        return self.cells[territory].owner

    def strategic(self, territory):
        return self.now["strategic"][self.kind(territory)]

    def economic(self, territory):
        return self.now["economic"][self.kind(territory)]

    def position(self, territory):
        return territory + 1

    def set_camels(self, territory, count):
        cell = self.cells[territory]
        count = max(0, count)
        if count < cell.camels:
            self.box_camels += cell.camels - count
            cell.camels = count
        elif count > cell.camels:
            if cell.owner is None or not KINDS[cell.kind][2]:
                return
            added = min(count - cell.camels, self.box_camels)
            cell.camels += added
            self.box_camels -= added

    def set_owner(self, territory, player):
        cell = self.cells[territory]
        if not KINDS[cell.kind][2]:
            return  # a chott is never owned
        if player is None and cell.camels:
            self.box_camels += cell.camels  # a cell with camels always has an owner
            cell.camels = 0
        cell.owner = player

    def move_camels(self, source, target, count):
        src, dst = self.cells[source], self.cells[target]
        if count < 1 or source == target or not KINDS[dst.kind][2]:
            return 0
        moved = min(count, src.camels)
        if moved and dst.owner is None:
            dst.owner = src.owner
        src.camels -= moved
        dst.camels += moved
        return moved

    # player fields ----------------------------------------------------------
    def tribe(self, player):
        return TRIBE_INDEX[self.seats[player].tribe]

    def seat(self, player):
        return player + 1

    def cash(self, player):
        return self.seats[player].cash

    def set_cash(self, player, amount):
        self.seats[player].cash = max(0, amount)

    def treasury(self, player):
        return self.seats[player].treasury

    def set_treasury(self, player, amount):
        self.seats[player].treasury = max(0, amount)

    def player_camels(self, player):
        return sum(c.camels for c in self.cells if c.owner == player)

    def settlement(self, player):
        return self.seats[player].settlement

    def holds_own_settlement(self, player):
        cell = self.seats[player].settlement
        return cell is not None and self.cells[cell].owner == player

    # kinds ------------------------------------------------------------------
    def kind_strategic(self, kind):
        return self.now["strategic"][kind]

    def kind_economic(self, kind):
        return self.now["economic"][kind]

    def set_kind_value(self, kind, field, value, this_round):
        self.now[field][kind] = value
        if not this_round:
            self.lasting[field][kind] = value

    def add_kind_value(self, kind, field, delta, this_round):
        self.now[field][kind] = max(0, self.now[field][kind] + delta)
        if not this_round:
            self.lasting[field][kind] = max(0, self.lasting[field][kind] + delta)

    # globals ----------------------------------------------------------------
    def round_number(self):
        return self.round

    def box(self):
        return self.box_camels

    def camel_price(self):
        return self.price

    def round_die(self):
        return self.die

    def current_player(self):
        return self.turn_of


@dataclass
class Driven:
    """What a run of a pausing snippet asked for, in order."""

    requests: list = field(default_factory=list)
    answers: list = field(default_factory=list)


def drive(
    code,
    rt: FakeRuntime,
    *args,
    rolls: Iterable[int] = (),
    choose: Callable[[ChoiceRequest], int] | Iterable[int] = (),
) -> Driven:
    """Run a compiled snippet to its end through EffectRun, as the engine will.

    Dice come from ``rolls`` in order; a choice is answered by ``choose``
    (a function of the request, or answers in order). EffectRun checks
    every answer against its request, as the engine checks an action.
    """
    driven = Driven()
    run = EffectRun(code, rt, *args)
    rolls = iter(rolls)
    answers = None if callable(choose) else iter(choose)
    while not run.done:
        request = run.request
        driven.requests.append(request)
        if isinstance(request, RollRequest):
            run.answer(next(rolls))
        else:
            assert isinstance(request, ChoiceRequest) and request.options
            run.answer(choose(request) if answers is None else next(answers))
    driven.answers = run.answers
    return driven


def board() -> FakeRuntime:
    """A 3 x 4 board with three players (Kel Ilbakan is not playing).

    cell  kind        owner  camels      cell  kind        owner  camels
    0     settlement  0      7           6     guelta      -      0
    1     guelta      0      20          7     chott       -      0
    2     erg         1      2           8     settlement  0 (player 2's, captured)  4
    3     settlement  1      10          9     mountain    2      3
    4     salt_mine   1      6           10    reg         0      8
    5     reg         -      0           11    guelta      1      9
    """
    cells = [
        Cell("settlement", 0, 7),
        Cell("guelta", 0, 20),
        Cell("erg", 1, 2),
        Cell("settlement", 1, 10),
        Cell("salt_mine", 1, 6),
        Cell("reg", None, 0),
        Cell("guelta", None, 0),
        Cell("chott", None, 0),
        Cell("settlement", 0, 4),
        Cell("mountain", 2, 3),
        Cell("reg", 0, 8),
        Cell("guelta", 1, 9),
    ]
    seats = [
        Seat("kel_ress", settlement=0, cash=12, treasury=5),
        Seat("kel_ahaggar", settlement=3, cash=7, treasury=0),
        Seat("kel_ajjer", settlement=8, cash=9, treasury=2),
    ]
    return FakeRuntime(cells, seats, box_camels=50)
