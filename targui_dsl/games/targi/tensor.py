"""Targi's observation tensor: a seat's view (:meth:`TargiState.view`) as a flat list of numbers,
and :class:`SeatTensor`, which keeps it in an array for the adapters, rewriting only the parts
whose record fields changed since it was last read (with the same functions as the list)."""

from __future__ import annotations

from array import array
from operator import itemgetter
from typing import Any, Callable

from targui_dsl.engine.kept_tensor import KeptTensor, changed, changed_items
from targui_dsl.engine.per_ruleset import per_ruleset
from targui_dsl.games.targi.record import shown_robber


def tensor(state: Any, seat: int) -> list[float]:
    """Fixed length for a ruleset: figures and markers one-hot by seat, the centre's cards, both
    sides' supplies, display symbol counts and hand, the round, the robber, the piles."""
    rs, view = state.rs, state.view(seat)
    out = ring_values(view, seat) + centre_values(rs, view)
    for s in (seat, 1 - seat):
        out += side_values(rs, view, s)
    out += tail_values(view, seat)
    return out


_Numbers = tuple["array[float]", list[float]]


def _ruleset_tables(rs: Any) -> tuple[dict[str, int], dict[str, int], dict[tuple[int, int, bool], _Numbers]]:
    """What the kept tensors work out once per ruleset: each goods card's and tribe card's place in
    its deck by id, and the centre spaces' numbers by (card, deck, side up), filled as they are met
    (public: every seat sees the centre alike), as an array and as a list of floats."""
    return {c.id: i for i, c in enumerate(rs.goods_cards)}, {c.id: i for i, c in enumerate(rs.tribe_cards)}, {}


_of_ruleset: Callable[[Any], tuple[dict[str, int], dict[str, int], dict[tuple[int, int, bool], _Numbers]]] = \
    per_ruleset(_ruleset_tables, cap=64)


def _card_places(rs: Any) -> tuple[dict[str, int], dict[str, int]]:
    """Each goods card's and tribe card's place in its deck, by id."""
    entry = _of_ruleset(rs)
    return entry[0], entry[1]


def _space_numbers(rs: Any) -> dict[tuple[int, int, bool], _Numbers]:
    """The centre space numbers worked out so far for this ruleset, shared by every keeper and game."""
    return _of_ruleset(rs)[2]


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
    """Seat ``s``'s side in the view, as :func:`side_numbers` gives it."""
    tribe_ids = _card_places(rs)[1]
    side = view["sides"][s]
    hand: Any = side["hand"]  # (the seat's own card's id, or whether the other seat holds one)
    return side_numbers(rs, side["goods"], side["gold"], side["points"], side["stored_gold"],
                        [[tribe_ids[card] for card in row] for row in side["display"]],
                        hand is not None and hand is not False)


def side_numbers(rs: Any, goods: list[int], gold: int, points: int, stored_gold: int, rows: list[list[int]],
                 holds: bool) -> list[float]:
    """A side: goods, gold, points, stored gold, its display's symbols and row lengths (``rows``:
    the tribe cards' places in their deck, row by row), whether it holds a hand card (all public:
    the kept tensor makes it from the record's side, and writes the three after the goods by
    themselves, as they are)."""
    out = goods_values(goods) + [float(gold), float(points), float(stored_gold)]
    symbols = [0.0] * len(rs.symbols)
    for row in rows:
        for card in row:
            symbols[rs.tribe_cards[card].symbol] += 1.0
    out += symbols + [float(len(row)) for row in rows]
    out.append(float(holds))
    return out


def goods_values(goods: list[int]) -> list[float]:
    """A side's first numbers in :func:`side_values`: its goods, good by good."""
    return [float(n) for n in goods]


def tail_values(view: dict[str, Any], seat: int) -> list[float]:
    """The round, the robber, whether this seat holds the amulet, the piles' sizes (the kept tensor
    writes these last ones by themselves, as they are)."""
    return tail_numbers(view["round"], view["robber"], view["amulet"] == seat, view["piles"])


def tail_numbers(round_: int, robber: int, amulet: bool, piles: list[int]) -> list[float]:
    """:func:`tail_values` from its fields (the kept tensor gives them from the record, as the view
    has them: a view made for them cost ~20k instructions, at one reading in six)."""
    return [float(round_), float(robber), float(amulet)] + [float(n) for n in piles]


class SeatTensor(KeptTensor):
    """``seat``'s observation tensor in ``out`` (a float32 NumPy vector of its length), brought
    up to date by :meth:`update`: each part is compared with the record fields it is made of,
    and only what changed is written again: a border card's or a space's two numbers where a
    figure or a marker moved, a side's goods, a centre space, with the functions above (a side
    or the tail from the seat's view, made of just the parts asked for)."""

    __slots__ = ("_at", "_figures", "_markers", "_cards", "_kinds", "_ups", "_sides", "_tail",
                 "_space_numbers", "_rs", "_pairs", "_whose", "_other")

    def __init__(self, game: Any, seat: int, out: Any, listed: bool = False) -> None:
        # exact: every number is a count, a flag or a small amount (a whole number float32 holds exactly)
        super().__init__(seat, out, listed, exact=True)
        self._other = 1 - seat
        # where each part starts (ring, centre, this side, the other's, tail, the markers in the ring), once known
        self._at: list[int] = []
        # the record fields each part was last written from (copies: the record's lists change in place)
        self._figures: list[int] = []
        self._markers: list[int] = []
        self._cards: list[int] = []  # the centre's cards, decks and sides up
        self._kinds: list[int] = []
        self._ups: list[bool] = []
        # per side (this seat's, the other's): goods, gold, points, stored gold, a hand card held, the display
        self._sides: list[list[Any]] = [[], []]
        self._tail: list[int] = []  # the round, the robber, the amulet, the piles' sizes
        # a centre space's numbers by its fields, for the ruleset read (shared by every keeper of it)
        self._space_numbers: dict[tuple[int, int, bool], _Numbers] = {}
        self._rs: Any = None  # the ruleset of the state last read (None: nothing read yet)
        # a place's two numbers as float32 bytes, by owner: this seat's and the other's at 0 and 1,
        # nobody's (-1) last; None between (a seat beyond two: never in a game of two) makes the join fail
        pairs: list[bytes | None] = [None] * 64
        for owner in (-1, 0, 1):
            pairs[owner] = array("f", whose(owner, seat)).tobytes()
        self._pairs: list[Any] = pairs
        # the same two numbers as floats, by owner alike, for the list (a keeper with ``listed`` keeps no array)
        numbers: list[tuple[float, float] | None] = [None] * 64
        for owner in (-1, 0, 1):
            numbers[owner] = whose(owner, seat)
        self._whose: list[Any] = numbers

    def update(self, state: Any) -> Any:
        """Make ``out`` (with ``listed``: the list) hold ``state.observation_tensor(seat)``, and
        return it (the array itself, or the list)."""
        record = state.read_record
        if state.rs is not self._rs:  # (a centre space's numbers are kept per ruleset)
            self._fill(state)
            return self.kept
        # each part's fields compared inline (most readings change one or two parts): a call only for those
        if record.figures != self._figures:
            self._places(record.figures, self._figures, 0)
        if record.markers != self._markers:
            self._places(record.markers, self._markers, self._at[5])
        if record.centre != self._cards or record.centre_up != self._ups or record.centre_kind != self._kinds:
            self._spaces(state, record)
        # the two sides written out, not looped over: a loop cost 1% of a PettingZoo step (callgrind)
        sides = record.sides
        side, kept = sides[self.seat], self._sides[0]
        if side.goods != kept[0] or side.gold != kept[1] or side.points != kept[2] \
                or side.stored_gold != kept[3] or (side.hand >= 0) != kept[4] or side.display != kept[5]:
            self._side(state, 0, side)
        side, kept = sides[self._other], self._sides[1]
        if side.goods != kept[0] or side.gold != kept[1] or side.points != kept[2] \
                or side.stored_gold != kept[3] or (side.hand >= 0) != kept[4] or side.display != kept[5]:
            self._side(state, 1, side)
        piles, tail = record.piles, self._tail  # (two piles: the goods deck's, the tribe deck's)
        if record.round != tail[0] or record.robber != tail[1] or record.amulet != tail[2] \
                or len(piles[0]) != tail[3] or len(piles[1]) != tail[4]:
            self._tail_of(state, record)
        return self.kept

    def _fill(self, state: Any) -> None:
        """Everything from one whole view of the seat, where each part starts, and every field kept."""
        seat, rs, record = self.seat, state.rs, state.read_record
        if len(record.piles) != 2:
            raise ValueError(f"a Targi record has two piles, not {len(record.piles)}")
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
        self._at.append(2 * len(record.figures))  # the markers' first number (ring_values: figures, then markers)
        self._figures, self._markers = record.figures[:], record.markers[:]
        self._cards, self._kinds, self._ups = record.centre[:], record.centre_kind[:], record.centre_up[:]
        self._sides = [_side_key(record.sides[seat]), _side_key(record.sides[1 - seat])]
        self._tail = _tail_key(record)

    def _places(self, now: list[int], kept: list[int], at: int) -> None:
        """The border cards' (or centre spaces') numbers where a figure (or marker) moved: into the
        array all of them, each place's two from its owner's bytes, joined in C (finding the one or
        two places that changed would cost more); into the list only the places that changed."""
        listed = self.listed
        if listed is not None:
            numbers = self._whose
            try:
                for place in changed(now, kept):
                    listed[at + 2 * place:at + 2 * place + 2] = numbers[now[place]]
            except (TypeError, IndexError):  # (an owner that is not a seat: its None, or beyond the list)
                listed[at:at + 2 * len(now)] = [n for owner in now for n in whose(owner, self.seat)]
            kept[:] = now
            return
        pairs = self._pairs
        try:  # (itemgetter looks every owner up in C, with no call per place; it gives a tuple for two or more)
            data = b"".join(itemgetter(*now)(pairs) if len(now) > 1 else [pairs[owner] for owner in now])
        except (TypeError, IndexError):  # (an owner that is not a seat)
            data = array("f", [n for owner in now for n in whose(owner, self.seat)]).tobytes()
        self._write_bytes(at, data)
        kept[:] = now

    def _spaces(self, state: Any, record: Any) -> None:
        """The centre spaces whose card, deck or side up changed. A space's numbers are those of
        its entry in the seat's view, made of just these three fields: each (card, deck, side up)
        is worked out once, from the view, and kept."""
        rs, known = state.rs, self._space_numbers
        cards, kinds, ups = record.centre, record.centre_kind, record.centre_up
        # mostly a card taken or dealt, its deck and side up with it: the places where the card
        # changed are found, and the other two fields compared at once past them (copies, kept below)
        places = changed(cards, self._cards) if cards != self._cards else []
        was_kinds, was_ups = self._kinds, self._ups
        for space in places:
            was_kinds[space], was_ups[space] = kinds[space], ups[space]
        if kinds != was_kinds:
            places += changed(kinds, was_kinds)
        if ups != was_ups:
            places += changed_items(ups, was_ups)
        width = 3 + len(rs.goods_cards) + len(rs.tribe_cards)
        view = None
        for space in set(places):
            key = (cards[space], kinds[space], ups[space])
            numbers = known.get(key)
            if numbers is None:
                view = view or state.view(self.seat, _CENTRE)
                floats = space_values(rs, view["centre"][space])
                numbers = known[key] = (array("f", floats), floats)
            self._write(self._at[1] + space * width, numbers[0], numbers[1])
        self._cards, self._kinds, self._ups = cards[:], kinds[:], ups[:]

    def _side(self, state: Any, index: int, side: Any) -> None:
        """A side (``index`` 0: this seat's, 1: the other's) whose fields changed."""
        kept, at = self._sides[index], self._at[2 + index]
        if (side.hand >= 0) != kept[4] or side.display != kept[5]:  # a card came or went: the side whole
            self._write(at, side_numbers(state.rs, side.goods, side.gold, side.points, side.stored_gold,
                                         side.display, side.hand >= 0))
            self._sides[index] = _side_key(side)
            return
        # only goods, gold, points or stored gold: written as they are, in side_values' order
        if side.goods != kept[0]:
            self._write(at, array("f", side.goods))  # (goods_values' numbers: the counts as they are)
            kept[0] = side.goods[:]
        if side.gold != kept[1] or side.points != kept[2] or side.stored_gold != kept[3]:
            self._write(at + len(side.goods), [float(side.gold), float(side.points), float(side.stored_gold)])
            kept[1:4] = side.gold, side.points, side.stored_gold

    def _tail_of(self, state: Any, record: Any) -> None:
        """The round, the robber, the amulet or a pile's size changed."""
        tail, now = self._tail, _tail_key(record)
        if now[:3] == tail[:3]:  # only the piles' sizes, tail_values' last numbers: written as they are
            put, at = self._put, self._at[4]
            for place in (3, 4):
                if now[place] != tail[place]:
                    put(at + place, float(now[place]))
        else:  # (the view's robber, shown_robber: one past the record's)
            self._write(self._at[4], tail_numbers(now[0], shown_robber(now[1]), now[2] == self.seat, now[3:]))
        self._tail = now


# the parts of a view a reading asks for beyond its cheap public fields
_CENTRE = frozenset({"centre"})


def _side_key(side: Any) -> list[Any]:
    """What a side's numbers are made of (copies: the record's lists change in place)."""
    return [side.goods[:], side.gold, side.points, side.stored_gold, side.hand >= 0, [row[:] for row in side.display]]


def _tail_key(record: Any) -> list[int]:
    """What the tail's numbers are made of: the round, the robber, the amulet, the two piles' sizes."""
    return [record.round, record.robber, record.amulet, len(record.piles[0]), len(record.piles[1])]
