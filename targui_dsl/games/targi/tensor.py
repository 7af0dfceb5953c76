"""Targi's observation tensor: a seat's view (:meth:`TargiState.view`) as a flat list of numbers,
and :class:`SeatTensor`, which keeps it in an array for the adapters, rewriting only the parts
whose record fields changed since it was last read (with the same functions as the list)."""

from __future__ import annotations

from array import array
from typing import Any

from targui_dsl.engine.kept_tensor import KeptTensor, changed, changed_items


def tensor(state: Any, seat: int) -> list[float]:
    """Fixed length for a ruleset: figures and markers one-hot by seat, the centre's cards, both
    sides' supplies, display symbol counts and hand, the round, the robber, the piles."""
    rs, view = state.rs, state.view(seat)
    out = ring_values(view, seat) + centre_values(rs, view)
    for s in (seat, 1 - seat):
        out += side_values(rs, view, s)
    out += tail_values(view, seat)
    return out


#: What the kept tensors work out once per compiled ruleset (which never changes), by id(ruleset):
#: the ruleset itself (kept alive, so that its id is not reused), each goods card's and tribe
#: card's place in its deck by id, and the centre spaces' numbers by (card, deck, side up), filled
#: as they are met (public: every seat sees the centre alike).
_RULESETS: dict[int, tuple[Any, dict[str, int], dict[str, int], dict[tuple[int, int, bool], "array[float]"]]] = {}


def _of_ruleset(rs: Any) -> tuple[Any, dict[str, int], dict[str, int], dict[tuple[int, int, bool], "array[float]"]]:
    entry = _RULESETS.get(id(rs))
    if entry is None or entry[0] is not rs:
        if len(_RULESETS) >= 64:
            _RULESETS.clear()
        entry = _RULESETS[id(rs)] = (rs, {c.id: i for i, c in enumerate(rs.goods_cards)},
                                     {c.id: i for i, c in enumerate(rs.tribe_cards)}, {})
    return entry


def _card_places(rs: Any) -> tuple[dict[str, int], dict[str, int]]:
    """Each goods card's and tribe card's place in its deck, by id."""
    entry = _of_ruleset(rs)
    return entry[1], entry[2]


def _space_numbers(rs: Any) -> dict[tuple[int, int, bool], "array[float]"]:
    """The centre space numbers worked out so far for this ruleset, shared by every keeper and game."""
    return _of_ruleset(rs)[3]


def ring_values(view: dict[str, Any], seat: int) -> list[float]:
    """Per border card, then per centre space: whose Targi or tribe marker stands there (this seat, the other)."""
    out: list[float] = []
    for owner in view["figures"]:
        out += whose(owner, seat)
    for owner in view["markers"]:
        out += whose(owner, seat)
    return out


def whose(owner: int, seat: int) -> tuple[float, float]:
    """A place's two numbers in :func:`ring_values`: held by this seat, held by the other (-1: by nobody)."""
    return float(owner == seat), float(owner == 1 - seat)


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
    lengths, whether it holds a hand card (the kept tensor writes the three after the goods by
    themselves, as they are)."""
    tribe_ids = _card_places(rs)[1]
    side = view["sides"][s]
    out = goods_values(side["goods"]) + [float(side["gold"]), float(side["points"]), float(side["stored_gold"])]
    symbols = [0.0] * len(rs.symbols)
    for row in side["display"]:
        for card in row:
            symbols[rs.tribe_cards[tribe_ids[card]].symbol] += 1.0
    out += symbols + [float(len(row)) for row in side["display"]]
    hand: Any = side["hand"]
    out.append(float(hand is not None and hand is not False))
    return out


def goods_values(goods: list[int]) -> list[float]:
    """A side's first numbers in :func:`side_values`: its goods, good by good."""
    return [float(n) for n in goods]


def tail_values(view: dict[str, Any], seat: int) -> list[float]:
    """The round, the robber, whether this seat holds the amulet, the piles' sizes (the kept tensor
    writes these last ones by themselves, as they are)."""
    return [float(view["round"]), float(view["robber"]), float(view["amulet"] == seat)] + \
        [float(n) for n in view["piles"]]


class SeatTensor(KeptTensor):
    """``seat``'s observation tensor in ``out`` (a float32 NumPy vector of its length), brought
    up to date by :meth:`update`: each part is compared with the record fields it is made of,
    and only what changed is written again: a border card's or a space's two numbers where a
    figure or a marker moved, a side's goods, a centre space, with the functions above (a side
    or the tail from the seat's view, made of just the parts asked for)."""

    __slots__ = ("_at", "_figures", "_markers", "_centre", "_goods",
                 "_sides", "_tail", "_space_numbers", "_rs", "_pairs")

    def __init__(self, game: Any, seat: int, out: Any, listed: bool = False) -> None:
        super().__init__(seat, out, listed)
        self._at: list[int] = []  # where each part starts (ring, centre, this side, the other's, tail), once known
        # the record fields each part was last written from (copies: the record's lists change in place)
        self._figures: list[int] = []
        self._markers: list[int] = []
        self._centre: tuple[list[int], list[int], list[bool]] = ([], [], [])
        self._goods: list[list[int]] = [[], []]  # per side (this seat's, the other's)
        self._sides: list[tuple[Any, ...]] = [(), ()]  # per side: the rest of what it is made of
        self._tail: tuple[Any, ...] = ()
        # a centre space's numbers by its fields, for the ruleset read (shared by every keeper of it)
        self._space_numbers: dict[tuple[int, int, bool], array[float]] = {}
        self._rs: Any = None  # the ruleset of the state last read
        # a place's two numbers for nobody and for either seat, worked out once
        self._pairs = {owner: whose(owner, seat) for owner in (-1, 0, 1)}

    def update(self, state: Any) -> Any:
        """Make ``out`` hold ``state.observation_tensor(seat)``, and return it (the array itself)."""
        record, seat = state.read_record, self.seat
        if not self._at or state.rs is not self._rs:  # (a centre space's numbers are kept per ruleset)
            self._fill(state)
            return self.out
        put = self._put
        if record.figures != self._figures:
            self._places(record.figures, self._figures, 0)
        if record.markers != self._markers:
            self._places(record.markers, self._markers, 2 * len(self._figures))
        kept = self._centre
        if record.centre != kept[0] or record.centre_kind != kept[1] or record.centre_up != kept[2]:
            self._spaces(state)
        view: dict[str, Any] | None = None  # the sides' view, made once for both when either needs it
        for index, s in enumerate((seat, 1 - seat)):
            side = record.sides[s]
            if side.goods != self._goods[index]:  # (the commonest change of a side)
                at = self._at[2 + index]
                for good, number in enumerate(goods_values(side.goods)):
                    put(at + good, number)
                self._goods[index] = side.goods[:]
            was = self._sides[index]
            if (side.hand >= 0) != was[3] or side.display != was[4]:  # a card came or went: the side whole
                if view is None:
                    view = state.view(seat, _SIDES)
                self._write(self._at[2 + index], side_values(state.rs, view, s))
                self._sides[index] = _side_key(side)
            elif side.gold != was[0] or side.points != was[1] or side.stored_gold != was[2]:
                # only the three numbers after the goods (side_values' order): written as they are
                at = self._at[2 + index] + len(side.goods)
                put(at, float(side.gold))
                put(at + 1, float(side.points))
                put(at + 2, float(side.stored_gold))
                self._sides[index] = (side.gold, side.points, side.stored_gold, was[3], was[4])
        tail = (record.round, record.robber, record.amulet, *map(len, record.piles))
        was_tail = self._tail
        if tail != was_tail:
            if tail[:3] == was_tail[:3]:  # only the piles' sizes, tail_values' last numbers: written as they are
                at = self._at[4]
                for place in range(3, len(tail)):
                    if tail[place] != was_tail[place]:
                        put(at + place, float(tail[place]))
            else:
                self._write(self._at[4], tail_values(state.view(seat, _PUBLIC), seat))
            self._tail = tail
        return self.out

    def _fill(self, state: Any) -> None:
        """Everything from one whole view of the seat, where each part starts, and every field kept."""
        seat, rs, record = self.seat, state.rs, state.read_record
        view = state.view(seat)
        self._rs, self._at = rs, []
        self._space_numbers = _space_numbers(rs)
        at = 0
        for values in (ring_values(view, seat), centre_values(rs, view), side_values(rs, view, seat),
                       side_values(rs, view, 1 - seat), tail_values(view, seat)):
            self._at.append(at)
            at += len(values)
            self._write(self._at[-1], values)
        if at != len(self.out):
            raise ValueError(f"the tensor has {at} numbers, the array {len(self.out)}")
        self._figures, self._markers = record.figures[:], record.markers[:]
        self._centre = (record.centre[:], record.centre_kind[:], record.centre_up[:])
        for index, s in enumerate((seat, 1 - seat)):
            self._goods[index] = record.sides[s].goods[:]
            self._sides[index] = _side_key(record.sides[s])
        self._tail = (record.round, record.robber, record.amulet, *map(len, record.piles))

    def _places(self, now: list[int], kept: list[int], at: int) -> None:
        """Border cards' (or centre spaces') two numbers where their figure (or marker) changed."""
        put, pairs = self._put, self._pairs
        for place in changed(now, kept):
            owner = kept[place] = now[place]
            mine, theirs = pairs[owner] if owner in pairs else whose(owner, self.seat)
            put(at + 2 * place, mine)
            put(at + 2 * place + 1, theirs)

    def _spaces(self, state: Any) -> None:
        """The centre spaces whose card, deck or side up changed. A space's numbers are those of
        its entry in the seat's view, made of just these three fields: each (card, deck, side up)
        is worked out once, from the view, and kept."""
        record, rs, known = state.read_record, state.rs, self._space_numbers
        kept = self._centre
        width = 3 + len(rs.goods_cards) + len(rs.tribe_cards)
        view = None
        now = list(zip(record.centre, record.centre_kind, record.centre_up, strict=True))
        for space in changed_items(now, list(zip(*kept, strict=True))):
            key = now[space]
            numbers = known.get(key)
            if numbers is None:
                view = view or state.view(self.seat, _CENTRE)
                numbers = known[key] = array("f", space_values(rs, view["centre"][space]))
            self._write(self._at[1] + space * width, numbers)
        self._centre = (record.centre[:], record.centre_kind[:], record.centre_up[:])


# the parts of a view a reading asks for beyond its cheap public fields
_PUBLIC: frozenset[str] = frozenset()
_CENTRE = frozenset({"centre"})
_SIDES = frozenset({"sides"})


def _side_key(side: Any) -> tuple[Any, ...]:
    """What a side's numbers are made of beyond its goods (a copy: the record's lists change in place)."""
    return (side.gold, side.points, side.stored_gold, side.hand >= 0, [row[:] for row in side.display])
