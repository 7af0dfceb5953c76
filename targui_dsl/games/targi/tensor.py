"""Targi's observation tensor: a seat's view (:meth:`TargiState.view`) as a flat list of numbers,
and :class:`SeatTensor`, which keeps it in an array for the adapters, rewriting only the parts
whose record fields changed since it was last read (with the same functions as the list)."""

from __future__ import annotations

from array import array
from typing import Any


def tensor(state: Any, seat: int) -> list[float]:
    """Fixed length for a ruleset: figures and markers one-hot by seat, the centre's cards, both
    sides' supplies, display symbol counts and hand, the round, the robber, the piles."""
    rs, view = state.rs, state.view(seat)
    out = ring_values(view, seat) + centre_values(rs, view)
    for s in (seat, 1 - seat):
        out += side_values(rs, view, s)
    out += tail_values(view, seat)
    return out


_PLACES: dict[int, tuple[Any, dict[str, int], dict[str, int]]] = {}  # id(ruleset) -> (ruleset, goods, tribe)


def _card_places(rs: Any) -> tuple[dict[str, int], dict[str, int]]:
    """Each goods card's and tribe card's place in its deck, by id (a compiled ruleset never
    changes: worked out once per ruleset, which the entry keeps alive so its id is not reused)."""
    entry = _PLACES.get(id(rs))
    if entry is None or entry[0] is not rs:
        if len(_PLACES) >= 64:
            _PLACES.clear()
        entry = _PLACES[id(rs)] = (rs, {c.id: i for i, c in enumerate(rs.goods_cards)},
                                   {c.id: i for i, c in enumerate(rs.tribe_cards)})
    return entry[1], entry[2]


def ring_values(view: dict[str, Any], seat: int) -> list[float]:
    """Per border card, then per centre space: whose Targi or tribe marker stands there (this seat, the other)."""
    out: list[float] = []
    for owner in view["figures"]:
        out += [float(owner == seat), float(owner == 1 - seat)]
    for owner in view["markers"]:
        out += [float(owner == seat), float(owner == 1 - seat)]
    return out


def centre_values(rs: Any, view: dict[str, Any]) -> list[float]:
    """Per centre space: its deck (goods, tribe), face down, the card one-hot when face up."""
    out: list[float] = []
    for space in view["centre"]:
        out += space_values(rs, space)
    return out


def space_values(rs: Any, space: dict[str, Any] | None) -> list[float]:
    """One centre space of the view (None: empty), as :func:`centre_values` gives it."""
    cell = [0.0] * (3 + len(rs.goods_cards) + len(rs.tribe_cards))
    if space is not None:
        goods_ids, tribe_ids = _card_places(rs)
        cell[0] = float(space["deck"] == "goods")
        cell[1] = float(space["deck"] == "tribe")
        if space["card"] is None:
            cell[2] = 1.0
        elif space["deck"] == "goods":
            cell[3 + goods_ids[space["card"]]] = 1.0
        else:
            cell[3 + len(rs.goods_cards) + tribe_ids[space["card"]]] = 1.0
    return cell


def side_values(rs: Any, view: dict[str, Any], s: int) -> list[float]:
    """Seat ``s``'s side: goods, gold, points, stored gold, its display's symbols and row
    lengths, whether it holds a hand card."""
    tribe_ids = _card_places(rs)[1]
    side = view["sides"][s]
    out = [float(n) for n in side["goods"]] + [float(side["gold"]), float(side["points"]), float(side["stored_gold"])]
    symbols = [0.0] * len(rs.symbols)
    for row in side["display"]:
        for card in row:
            symbols[rs.tribe_cards[tribe_ids[card]].symbol] += 1.0
    out += symbols + [float(len(row)) for row in side["display"]]
    hand: Any = side["hand"]
    out.append(float(hand is not None and hand is not False))
    return out


def tail_values(view: dict[str, Any], seat: int) -> list[float]:
    """The round, the robber, whether this seat holds the amulet, the piles' sizes."""
    return [float(view["round"]), float(view["robber"]), float(view["amulet"] == seat)] + \
        [float(n) for n in view["piles"]]


# what each part reads of the view beyond its cheap public fields
_VIEWED: tuple[frozenset[str], ...] = (frozenset(), frozenset({"centre"}), frozenset({"sides"}), frozenset({"sides"}),
                                      frozenset())


class SeatTensor:
    """``seat``'s observation tensor in ``out`` (a float32 NumPy vector of its length), brought
    up to date by :meth:`update`: each part is compared with the record fields it is made of,
    and only the parts that changed are written again (from one view of the seat)."""

    __slots__ = ("seat", "out", "listed", "_mv", "_at", "_keys")

    def __init__(self, game: Any, seat: int, out: Any, listed: bool = False) -> None:
        self.seat, self.out = seat, out
        self.listed: list[float] | None = [] if listed else None  # also as a list of floats (OpenSpiel's form)
        self._mv = memoryview(out).cast("B").cast("f")
        if len(self._mv) != len(out):
            raise ValueError("a SeatTensor writes into a float32 vector")
        self._at: list[int] = []  # where each part starts, once known
        self._keys: list[Any] = []  # the record fields each part was last written from

    def update(self, state: Any) -> Any:
        """Make ``out`` hold ``state.observation_tensor(seat)``, and return it (the array itself)."""
        seat, record = self.seat, state.record
        mine, theirs = record.sides[seat], record.sides[1 - seat]
        keys = [
            (record.figures, record.markers),
            (record.centre, record.centre_kind, record.centre_up),
            _side_key(mine), _side_key(theirs),
            (record.round, record.robber, record.amulet, [len(pile) for pile in record.piles]),
        ]
        if keys == self._keys:
            return self.out
        changed = [index for index, key in enumerate(keys) if not self._at or key != self._keys[index]]
        # the view's costly parts only when a part made of them changed
        view, rs = state.view(seat, frozenset().union(*(_VIEWED[index] for index in changed))), state.rs
        parts = (lambda: ring_values(view, seat), lambda: centre_values(rs, view),
                 lambda: side_values(rs, view, seat), lambda: side_values(rs, view, 1 - seat),
                 lambda: tail_values(view, seat))
        if not self._at:  # the first update: every part, and where each starts
            at = 0
            for part in parts:
                values = part()
                self._at.append(at)
                self._write(at, values)
                at += len(values)
            if at != len(self.out):
                raise ValueError(f"the tensor has {at} numbers, the array {len(self.out)}")
        else:
            for index in changed:
                if index == 1:  # the centre (most of the tensor): only the spaces that changed
                    self._spaces(rs, view, keys[1])
                else:
                    self._write(self._at[index], parts[index]())
        # kept as copies: the record's lists change in place
        self._keys = [
            (record.figures[:], record.markers[:]),
            (record.centre[:], record.centre_kind[:], record.centre_up[:]),
            _side_key(mine, copy=True), _side_key(theirs, copy=True), keys[4],
        ]
        return self.out

    def _spaces(self, rs: Any, view: dict[str, Any], now: tuple[list[int], list[int], list[bool]]) -> None:
        kept = self._keys[1]
        width = 3 + len(rs.goods_cards) + len(rs.tribe_cards)
        for space, card in enumerate(now[0]):
            if card != kept[0][space] or now[1][space] != kept[1][space] or now[2][space] != kept[2][space]:
                self._write(self._at[1] + space * width, space_values(rs, view["centre"][space]))

    def _write(self, at: int, values: list[float]) -> None:
        end, mv = at + len(values), self._mv
        mv[at:end] = array("f", values)
        if self.listed is not None:
            if len(self.listed) < len(mv):
                self.listed = [0.0] * len(mv)
            self.listed[at:end] = mv[at:end].tolist()  # the float32s read back: the numbers the array holds


def _side_key(side: Any, copy: bool = False) -> tuple[Any, ...]:
    display = [row[:] for row in side.display] if copy else side.display
    return (side.goods[:] if copy else side.goods, side.gold, side.points, side.stored_gold, side.hand >= 0, display)
