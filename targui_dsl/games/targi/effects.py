"""The runtime Targi's snippets call (the methods :mod:`.names` lists), and how a snippet is run.

A paused effect keeps its answers and the sides as they were when it began (in its frame),
so a state with a choice pending copies and serialises as plain data: the run is made again
from that start with the same answers, and its changes so far are what the record shows.
What its procedures set going (a draw, an offer) is scheduled, and happens only once the run
has finished.
"""

from __future__ import annotations

from typing import Any

from targui_dsl.effects.code import CompiledCode
from targui_dsl.effects.runtime import MAX_VALUE, ChoiceRequest, check_choices, clamp
from targui_dsl.games.targi.compiled import TargiRuleset
from targui_dsl.games.targi.record import GOODS_DECK, TRIBE_DECK, Side, TargiRecord


class TargiRuntime:
    """``rt`` for a snippet on a card of seat ``seat``. With ``undo`` (a list), every change is
    also written down there first, so that :meth:`undo_all` can take the run back."""

    def __init__(self, rs: TargiRuleset, sides: list[Side], seat: int, round_number: int,
                 undo: list[tuple[Any, Any, Any]] | None = None) -> None:
        self.rs, self.sides, self.seat, self._round = rs, sides, seat, round_number
        #: The frames the snippet's procedures set going, in the order written: pushed by the flow
        #: once the run has finished (a run may be replayed; only a finished one counts).
        self.scheduled: list[dict[str, Any]] = []
        #: (side, field, value before) or (goods list, good, value before), as changed: newest last
        self.undo = undo

    def undo_all(self) -> None:
        """Every change written down, taken back (newest first)."""
        undo = self.undo
        while undo:
            target, key, before = undo.pop()
            if isinstance(target, Side):
                setattr(target, key, before)  # (``key``: one of this module's own field names)
            else:
                target[key] = before

    # globals
    def me(self) -> int:
        return self.seat

    def opponent(self) -> int:
        return 1 - self.seat

    def all_goods(self) -> tuple[int, ...]:
        return tuple(range(len(self.rs.goods)))

    def round_number(self) -> int:
        return self._round

    def move_nothing(self, a: Any, b: Any, n: int) -> None:  # Targi names nothing `move` could take
        """Never called: the compiler lets `move` take territories only, which Targi has none of."""

    def add_nothing(self, element: Any, name: str, delta: int, this_round: bool) -> None:
        """Never called: Targi has no field kept for one round."""

    # players
    def points(self, p: int) -> int:
        return self.sides[p].points

    def set_points(self, p: int, value: int) -> None:
        side = self.sides[p]
        if self.undo is not None:
            self.undo.append((side, "points", side.points))
        side.points = value if type(value) is int and 0 <= value <= MAX_VALUE else clamp(value)

    def gold(self, p: int) -> int:
        return self.sides[p].gold

    def set_gold(self, p: int, value: int) -> None:
        side = self.sides[p]
        if self.undo is not None:
            self.undo.append((side, "gold", side.gold))
        side.gold = value if type(value) is int and 0 <= value <= MAX_VALUE else clamp(value)

    def goods_total(self, p: int) -> int:
        return sum(self.sides[p].goods)

    def stored_gold(self, p: int) -> int:
        return self.sides[p].stored_gold

    def set_stored_gold(self, p: int, value: int) -> None:
        side = self.sides[p]
        if self.undo is not None:
            self.undo.append((side, "stored_gold", side.stored_gold))
        side.stored_gold = value if type(value) is int and 0 <= value <= MAX_VALUE else clamp(value)

    def display(self, p: int) -> tuple[int, ...]:
        return tuple(self.sides[p].cards)

    def displayed(self, p: int) -> int:
        return sum(len(row) for row in self.sides[p].display)

    def empty_spaces(self, p: int) -> int:
        return self.rs.display_size - self.displayed(p)

    def different_rows(self, p: int) -> int:
        return sum(1 for row in self.sides[p].display if _different(self.rs, row))

    def goods_from_cards(self, p: int) -> int:
        return self.sides[p].goods_from_cards

    def next_figures(self, p: int) -> int:
        side = self.sides[p]
        return side.next_figures if side.next_figures >= 0 else self.rs.figures

    def set_next_figures(self, p: int, value: int) -> None:
        side = self.sides[p]
        if self.undo is not None:
            self.undo.append((side, "next_figures", side.next_figures))
        side.next_figures = min(clamp(value), self.rs.figures)

    def merchant_good_rate(self, p: int) -> int:
        total = 0
        for card in self.sides[p].cards:
            code = self.rs.tribe_cards[card].modifiers.get("merchant_good_rate")
            if code is not None:
                total += int(code.function(TargiRuntime(self.rs, self.sides, p, self._round)))
        return total

    # procedures: each schedules its frame
    def draw_goods_card(self) -> None:
        self.scheduled.append({"k": "draw", "deck": GOODS_DECK, "then": "caravan", "space": -1, "up": 1,
                               "seat": self.seat})

    def draw_tribe_card(self) -> None:
        self.scheduled.append({"k": "draw", "deck": TRIBE_DECK, "then": "expansion", "space": -1, "up": 1,
                               "seat": self.seat})

    def offer_hand_card(self, noble: bool) -> None:
        hand = self.sides[self.seat].hand
        if hand >= 0:  # an empty hand offers nothing
            self.scheduled.append({"k": "tribe", "seat": self.seat, "card": hand,
                                   "src": "noble" if noble else "offer", "space": -1})

    def move_tribe_marker(self) -> None:
        self.scheduled.append({"k": "fata", "seat": self.seat, "source": -1})

    # goods: the card owner's
    def held(self, g: int) -> int:
        return self.sides[self.seat].goods[g]

    def set_held(self, g: int, value: int) -> None:
        goods = self.sides[self.seat].goods
        if self.undo is not None:
            self.undo.append((goods, g, goods[g]))
        goods[g] = value if type(value) is int and 0 <= value <= MAX_VALUE else clamp(value)

    # cards of a display
    def _where(self, c: int) -> tuple[Side | None, int, int]:
        for side in self.sides:
            for r, row in enumerate(side.display):
                if c in row:
                    return side, r, row.index(c)
        return None, -1, -1

    def symbol(self, c: int) -> int:
        return self.rs.tribe_cards[c].symbol

    def card_points(self, c: int) -> int:
        return self.rs.tribe_cards[c].points

    def row(self, c: int) -> int:
        return self._where(c)[1] + 1

    def column(self, c: int) -> int:
        return self._where(c)[2] + 1

    def row_complete(self, c: int) -> bool:
        side, r, _ = self._where(c)
        return side is not None and len(side.display[r]) == self.rs.display_columns

    def set_row(self, c: int, r: int) -> None:
        """The card moves to the end of row ``r`` (1 first); a full other row, or no such row, refuses it."""
        side, now, _ = self._where(c)
        if side is None or not 1 <= r <= self.rs.display_rows:
            return
        if r - 1 != now and len(side.display[r - 1]) >= self.rs.display_columns:
            return
        if self.undo is not None:
            self.undo.append((side, "display", [row[:] for row in side.display]))
        side.display[now].remove(c)
        side.display[r - 1].append(c)


def _different(rs: TargiRuleset, row: list[int]) -> bool:
    symbols = {rs.tribe_cards[c].symbol for c in row}
    return len(row) == rs.display_columns and len(symbols) == len(row)


def formula(rs: TargiRuleset, record: TargiRecord, seat: int, code: CompiledCode, *params: Any) -> Any:
    """The value of a formula on a card of ``seat`` (formulas change nothing)."""
    return code.function(TargiRuntime(rs, record.sides, seat, record.round), *params)


class LiveRun:
    """A snippet's run paused at a choice and kept going, so that the next answer resumes it
    where it stopped (a Merchant's twenty exchanges are not run again from the start at each
    answer). Not part of the record: a copy, a loaded state, or a record handed out to be
    changed (the flow forgets its run then) runs the snippet again from its start, which
    reaches the same place (snippets are deterministic)."""

    __slots__ = ("frame", "sides", "generator", "rt", "sent")

    def __init__(self, frame: dict[str, Any], sides: list[Side], generator: Any, rt: TargiRuntime) -> None:
        self.frame, self.sides, self.generator, self.rt = frame, sides, generator, rt
        self.sent = len(frame["answers"])  # the answers the generator has been given

    def resumes(self, record: TargiRecord, frame: dict[str, Any]) -> bool:
        """Whether this run is the one paused at ``frame``, on the record's own sides, with one
        answer given since."""
        return self.frame is frame and self.sides is record.sides and self.sent == len(frame["answers"]) - 1


def run_through(rs: TargiRuleset, record: TargiRecord, seat: int, code: CompiledCode) -> list[dict[str, Any]]:
    """Run a snippet that cannot pause (``code.pauses`` false) to its end, on the record's sides:
    the frames its procedures set going, in the order written. Each change is written down first,
    so that a run stopped midway (an exception) changes nothing."""
    rt = TargiRuntime(rs, record.sides, seat, record.round, [])
    try:
        code.function(rt)
    except BaseException:
        rt.undo_all()
        raise
    return rt.scheduled


def run_effect(rs: TargiRuleset, record: TargiRecord, seat: int, code: CompiledCode,
               frame: dict[str, Any], scheduled: list[dict[str, Any]],
               live: LiveRun | None = None) -> tuple[ChoiceRequest | None, LiveRun | None]:
    """Run an effect of ``seat``'s card (or of the border card ``seat`` acts on) with the answers
    its frame holds: the next choice it asks, or None when it has finished (the frames its
    procedures set going then added to ``scheduled``, in the order written); and the run kept
    going when it paused (``live``: the run paused at this frame, resumed with its new answer).

    A run starts from the sides as they were when the effect began (the frame's ``base``, kept
    once it first pauses) and leaves its changes so far on the record, so a state paused inside
    an exchange shows the goods already paid. The hand cards are never in ``base`` (a snippet
    cannot change them; a dealt-again state has its own): they come from the record.
    """
    if live is not None and live.resumes(record, frame):
        return _resume(rs, record, seat, code, frame, scheduled, live)
    if not code.pauses:
        scheduled.extend(run_through(rs, record, seat, code))
        return None, None
    base = frame.get("base")
    if base is None:  # the run's first: on copies, the record's sides as they were when it began
        sides = [side.copy() for side in record.sides]
    else:
        sides = [Side.from_json(data).copy() for data in base]
        for side, now in zip(sides, record.sides, strict=True):
            side.hand = now.hand
    rt = TargiRuntime(rs, sides, seat, record.round)
    generator = code.function(rt)
    request = None
    try:
        request = generator.send(None)
        for answer in frame["answers"]:
            request = generator.send(answer)
    except StopIteration:
        request = None
    if request is not None:
        check_choices(code, len(frame["answers"]) + 1)  # past MAX_CHOICES a run is stopped
        if base is None:  # (the record's sides are still those the run began from)
            frame["base"] = [_hidden_hand(side.to_json()) for side in record.sides]
    record.sides = sides
    if request is None:
        scheduled.extend(rt.scheduled)
        return None, None
    return request, LiveRun(frame, sides, generator, rt)


def _resume(rs: TargiRuleset, record: TargiRecord, seat: int, code: CompiledCode, frame: dict[str, Any],
            scheduled: list[dict[str, Any]], live: LiveRun) -> tuple[ChoiceRequest | None, LiveRun | None]:
    answers = frame["answers"]
    live.sent = len(answers)
    try:
        try:
            request = live.generator.send(answers[-1])
        except StopIteration:
            scheduled.extend(live.rt.scheduled)
            return None, None
        check_choices(code, len(answers) + 1)
    except BaseException:
        # stopped midway: the record shows the run's changes up to its last pause, as a run from
        # the start, stopped at the same place, leaves it (that run is made to say so)
        run_effect(rs, record, seat, code, {**frame, "answers": answers[:-1]}, [])
        raise
    return request, live


def _hidden_hand(side: dict[str, Any]) -> dict[str, Any]:
    return {**side, "hand": -1}
