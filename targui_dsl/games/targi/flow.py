"""Targi's one flow: the frames of the stack, each an automatic step, a chance draw or a decision.

:func:`advance` works through automatic frames until a decision or a draw is due; :func:`legal`
lists a decision's actions (the one list behind legality, forced moves and bots); :func:`apply`
applies one. A frame is a plain dict (``k`` its kind), so a state copies and serialises exactly.
"""

from __future__ import annotations

from typing import Any, Callable

from targui_dsl.effects.code import CompiledCode
from targui_dsl.effects.runtime import ChoiceRequest, EffectBudgetExceeded
from targui_dsl.games.targi import rules
from targui_dsl.games.targi.actions import (
    A_BORDER,
    A_CARD,
    A_DISCARD,
    A_GOOD,
    A_HAND,
    A_HAND_DISPLAY,
    A_NUMBER,
    A_OPTION,
    A_ROW,
    A_SPACE,
    A_STOP,
)
from targui_dsl.games.targi.compiled import GOLD, GOODS, POINTS, TargiRuleset
from targui_dsl.games.targi.effects import LiveRun, run_effect, run_through
from targui_dsl.games.targi.record import GOODS_DECK, SEATS, TRIBE_DECK, TargiRecord
from targui_dsl.games.targi.told import DISPLAY, END, EVERYTHING, NOTHING, PLACED, RAID

#: Frames that wait for a player's decision; "draw" waits for chance; every other frame is automatic.
DECISIONS = frozenset({"place", "turn", "tribe", "discount", "row", "give", "choose_good", "fata", "raid_pay",
                       "effect", "gold_choice"})
#: The frames worked through by themselves (each by its ``auto_`` method).
AUTOMATIC = frozenset({"round", "raid_end", "goods", "gain", "limit", "pay", "gold"})
#: The options of a `gold_choice`: the gold stored on a card (240's), or the supply's.
STORED_GOLD, SUPPLY_GOLD = 0, 1


class Flow:
    """The rules over one record: the ruleset, and where events go (``told``, and ``told_last`` for
    the game's end: :func:`targui_dsl.engine.told.tellers`)."""

    def __init__(self, rs: TargiRuleset, told: Any = None) -> None:
        self.rs = rs
        self.told = self.told_last = told
        # the kinds of event built (the state sets them from its sink's ``wants``)
        self.tells: frozenset[str] = EVERYTHING if told is not None else NOTHING
        # the legal list of the decision advance() stopped at on ``ready_for``, kept until the
        # record changes (apply, a draw, or the state handing its record out: forget())
        self.ready: list[int] | None = None
        self.ready_for: TargiRecord | None = None
        self.live: LiveRun | None = None  # the snippet's run paused at the top frame, kept going

    def forget(self) -> None:
        """Whatever was kept about the record (it may be changed from outside now)."""
        self.ready = self.ready_for = self.live = None

    def legal_now(self, record: TargiRecord) -> list[int]:
        """:meth:`legal` at the top frame, worked out once per node (the caller must not change it)."""
        if self.ready is None or self.ready_for is not record:
            self.ready, self.ready_for = self.legal(record), record
        return self.ready

    # --- the loop -------------------------------------------------------------------------

    def advance(self, record: TargiRecord, draw: Any, action: int = -1) -> None:
        """Apply ``action`` (a legal id of the decision on top, if any), then work through automatic
        frames until a decision, a draw (``draw(record, frame)`` returns the card drawn, or None to
        wait for chance) or the end."""
        self.ready = None
        stack, legal_of = record.stack, LEGAL_OF
        kind: str  # (typed: a compiled build compares it as a str)
        if action >= 0:
            frame = stack[-1]
            kind = frame["k"]
            if kind == "place":  # (the commonest, called directly: a compiled build calls them natively)
                self.apply_place(record, frame, action)
            elif kind == "turn":
                self.apply_turn(record, frame, action)
            else:
                APPLY_OF[kind](self, record, frame, action)
        while not record.over:
            if not stack:
                record.round += 1
                stack.append({"k": "round", "step": "robber"})
                continue
            frame = stack[-1]
            kind = frame["k"]
            # the commonest decisions called directly (a compiled build calls them natively)
            if kind == "place":
                actions = self.legal_place(record, frame)
            elif kind == "turn":
                actions = self.legal_turn(record, frame)
            else:
                legal = legal_of.get(kind)
                if legal is None:
                    if kind == "draw":
                        if self.draw_frame(record, frame, draw):
                            return
                    else:
                        AUTO_OF[kind](self, record, frame)
                    continue
                if kind == "effect" and not frame["asked"]:
                    self.run_effect_frame(record, frame)
                    continue
                actions = legal(self, record, frame)
            if kind == "discount" and len(actions) <= 1:
                if actions:  # one good to leave out: no choice
                    self.apply_discount(record, frame, actions[0])
                else:  # nothing (more) to leave out: pay
                    frame["k"] = "pay"
                continue
            if not actions:
                stack.pop()
                continue
            if kind == "turn" and len(actions) == 1 and actions[0] == A_STOP:
                self.apply_turn(record, frame, A_STOP)  # nothing left to do: the turn ends by itself
                continue
            self.ready, self.ready_for = actions, record
            return

    def draw_frame(self, record: TargiRecord, frame: dict[str, Any], draw: Any) -> bool:
        """The draw on top: the card drawn (False), or nothing to draw (False, the frame gone), or
        chance to wait for (True)."""
        pile = record.piles[frame["deck"]]
        if not pile and frame["deck"] == GOODS_DECK:  # a used-up goods pile is reshuffled
            pile.extend(sorted(record.discards[GOODS_DECK]))
            record.discards[GOODS_DECK].clear()
        if not pile:
            record.stack.pop()
            return False
        card = draw(record, frame)
        if card is None:
            return True
        self.drawn(record, card)
        return False

    def drawn(self, record: TargiRecord, card: int) -> None:
        """A drawn card (the top frame is its draw) goes where the draw was for."""
        self.ready = None
        frame = record.stack.pop()
        deck = frame["deck"]
        record.piles[deck].remove(card)
        then = frame["then"]
        if then == "fill":
            space = frame["space"]
            record.centre[space], record.centre_kind[space], record.centre_up[space] = card, deck, bool(frame["up"])
        elif then == "caravan":
            record.stack.append({"k": "goods", "seat": frame["seat"], "card": card, "space": -1})
        else:  # expansion
            record.stack.append({"k": "tribe", "seat": frame["seat"], "card": card, "src": "expansion", "space": -1})

    def seat_of(self, record: TargiRecord) -> int:
        return int(record.stack[-1]["seat"])

    # --- automatic frames ---------------------------------------------------------------------

    def auto_round(self, record: TargiRecord, frame: dict[str, Any]) -> None:
        """The round's steps, in order; a step that waits for nothing goes straight on to the next
        (as the loop would take it next), one that sets frames going returns to the loop."""
        rs = self.rs
        step: str = frame["step"]
        if step == "robber":
            if record.robber >= 0 and (record.robber + 1) % len(rs.ring) == rs.robber_start:
                self.finish(record, "ring")  # round the ring with no raid that ends the game: it ends
                return
            record.robber = rs.robber_start if record.robber < 0 else (record.robber + 1) % len(rs.ring)
            border = rs.ring[record.robber]
            if border.is_raid:
                self.raid(record, record.robber)
                return  # the robber moves straight on after the raid
            step = "place"
        if step == "place":
            left = []
            for side in record.sides:
                left.append(side.next_figures if side.next_figures >= 0 else rs.figures)
                side.next_figures = -1
            frame["step"] = "markers"
            record.stack.append({"k": "place", "seat": record.amulet, "left": left})
            return
        if step == "markers":
            for seat in range(2):
                for space in rules.crossings(rs, record, seat)[:rs.markers]:
                    if record.centre[space] >= 0 and record.centre_up[space]:
                        record.markers[space] = seat
            if "placed" in self.tells:
                self.event(record, (PLACED, record.round, record.figures[:], record.markers[:]))
            step = "actions"
        if step == "actions":
            frame["step"] = "end"
            record.stack.append({"k": "turn", "seat": 1 - record.amulet})
            record.stack.append({"k": "turn", "seat": record.amulet})
        elif step == "end":
            record.centre_up = [True] * len(record.centre_up)
            frame["step"] = "close"
            for seat in (1 - record.amulet, record.amulet):
                record.stack.append({"k": "limit", "seat": seat})
        else:  # close
            for side in record.sides:
                side.got = side.goods_from_cards = side.bonus = 0
            record.amulet = 1 - record.amulet
            record.stack.pop()
            if record.last_round:
                self.finish(record, "display")

    def raid(self, record: TargiRecord, ring: int) -> None:
        record.stack.append({"k": "raid_end", "ring": ring})
        hooked = self.rs.with_hook.get("after_raid", frozenset())
        for seat in (1 - record.amulet, record.amulet):  # the amulet holder pays first: pushed last
            if hooked:
                for card in reversed(record.sides[seat].cards):
                    if card in hooked:
                        record.stack.append(self.effect_frame(seat, card, "after_raid"))
            if not rules.modifier_any(self.rs, record, seat, "raid_exempt"):
                record.stack.append({"k": "raid_pay", "seat": seat, "ring": ring})

    def auto_raid_end(self, record: TargiRecord, frame: dict[str, Any]) -> None:
        record.stack.pop()
        if "raid" in self.tells:
            self.event(record, (RAID, record.round, frame["ring"] + 1))
        if self.rs.ring[frame["ring"]].ends_game:
            self.finish(record, "raid")

    def auto_goods(self, record: TargiRecord, frame: dict[str, Any]) -> None:
        """A goods card's goods: these count as taken from a goods card."""
        record.stack.pop()
        seat, card = frame["seat"], self.rs.goods_cards[frame["card"]]
        side = record.sides[seat]
        for g, amount in enumerate(card.goods):
            if amount:
                side.goods[g] += amount
                side.got |= 1 << g
                side.goods_from_cards += amount
        side.gold += card.gold
        side.points += card.points
        record.discards[GOODS_DECK].append(frame["card"])
        if frame["space"] >= 0:
            self.vacate(record, frame["space"], TRIBE_DECK)
        if card.choice:
            record.stack.append({"k": "choose_good", "seat": seat, "left": card.choice, "card": 1})
        rules.grant_extra_goods(self.rs, record, seat)

    def vacate(self, record: TargiRecord, space: int, other: int) -> None:
        """A used centre card leaves; a face-down card of the other kind takes its place."""
        record.centre[space] = -1
        record.stack.append({"k": "draw", "deck": other, "then": "fill", "space": space, "up": 0, "seat": -1})

    def auto_gain(self, record: TargiRecord, frame: dict[str, Any]) -> None:
        record.stack.pop()
        side = record.sides[frame["seat"]]
        side.gold += frame.get("gold", 0)
        side.points += frame.get("points", 0)

    def auto_limit(self, record: TargiRecord, frame: dict[str, Any]) -> None:
        record.stack.pop()
        side = record.sides[frame["seat"]]
        side.gold = min(side.gold, self.rs.limit_gold)
        excess = sum(side.goods) - self.rs.limit_goods
        if excess > 0:
            record.stack.append({"k": "give", "seat": frame["seat"], "left": excess})

    def auto_pay(self, record: TargiRecord, frame: dict[str, Any]) -> None:
        """A tribe card's cost, its discount chosen: goods, then gold (frame `gold`)."""
        record.stack.pop()
        side = record.sides[frame["seat"]]
        for g, amount in enumerate(frame["cost"]):
            side.goods[g] -= amount
        record.stack.append({"k": "row", "seat": frame["seat"], "card": frame["card"], "src": frame["src"]})
        if frame["extra"]:
            record.stack.append({"k": "give", "seat": frame["seat"], "left": frame["extra"]})
        if frame["gold"]:  # paid first: on top
            record.stack.append({"k": "gold", "seat": frame["seat"], "card": frame["card"], "left": frame["gold"]})

    def auto_gold(self, record: TargiRecord, frame: dict[str, Any]) -> None:
        """The gold of a cost, one at a time: stored gold (240's) may pay it, and so may the supply.
        Where only one can, it pays; where both can, the player chooses (frame `gold_choice`)."""
        side = record.sides[frame["seat"]]
        while frame["left"] > 0 and not (side.stored_gold > 0 and side.gold > 0):
            if side.stored_gold > 0:
                side.stored_gold -= 1
            else:
                side.gold -= 1
            frame["left"] -= 1
        if frame["left"] <= 0:
            record.stack.pop()
        else:
            frame["k"] = "gold_choice"

    def legal_gold_choice(self, record: TargiRecord, frame: dict[str, Any]) -> list[int]:
        return [A_OPTION + STORED_GOLD, A_OPTION + SUPPLY_GOLD]

    def apply_gold_choice(self, record: TargiRecord, frame: dict[str, Any], action: int) -> None:
        side = record.sides[frame["seat"]]
        if action - A_OPTION == STORED_GOLD:
            side.stored_gold -= 1
        else:
            side.gold -= 1
        frame["left"] -= 1
        frame["k"] = "gold"  # the next gold, if any, is looked at again

    def effect_frame(self, seat: int, card: int, what: str) -> dict[str, Any]:
        """A snippet to run for ``seat``: a tribe card's (``what``: once or a hook moment) or the
        action of the border card ``card`` (an index into the ring; ``what``: border)."""
        return {"k": "effect", "seat": seat, "card": card, "what": what, "answers": [], "asked": 0,
                "kind": "", "options": [], "base": None}

    def run_effect_frame(self, record: TargiRecord, frame: dict[str, Any]) -> None:
        what = frame["what"]
        if what == "border":
            code = self.rs.ring[frame["card"]].action
        else:
            card = self.rs.tribe_cards[frame["card"]]
            code = card.once if what == "once" else card.hooks[what]
        assert code is not None
        live, self.live = self.live, None
        if not code.pauses:
            record.stack.pop()
            self.run_now(record, frame["seat"], code)
            return
        scheduled: list[dict[str, Any]] = []
        try:
            request, self.live = run_effect(self.rs, record, frame["seat"], code, frame, scheduled, live)
        except EffectBudgetExceeded:  # a run past its steps or choices: stopped, and the game with it
            self.finish(record, "stopped")
            return
        if request is None:
            record.stack.pop()
            self.ran(record, frame["seat"], scheduled)
            return
        frame["asked"], frame["kind"], frame["options"] = 1, request.kind, self.options_of(record, request)

    def run_now(self, record: TargiRecord, seat: int, code: CompiledCode) -> None:
        """A snippet that cannot pause, run to its end at once: what its effect frame on top does."""
        try:
            scheduled = run_through(self.rs, record, seat, code)
        except EffectBudgetExceeded:  # a run past its steps: stopped, and the game with it
            self.finish(record, "stopped")
            return
        self.ran(record, seat, scheduled)

    def ran(self, record: TargiRecord, seat: int, scheduled: list[dict[str, Any]]) -> None:
        """After a snippet's run to its end (its frame gone): the frames its procedures set going,
        pushed last first (they run in the order written), and the extra goods of what it gave."""
        record.stack.extend(reversed(scheduled))
        rules.grant_extra_goods(self.rs, record, seat)

    def options_of(self, record: TargiRecord, request: ChoiceRequest) -> list[int]:
        return list(request.options)

    def finish(self, record: TargiRecord, reason: str) -> None:
        if reason == "raid" and record.stack and record.stack[0].get("step") == "robber" and record.round > 1:
            record.round -= 1  # the raid came before this round's placement: the rounds played
        record.over, record.end_reason = True, reason
        record.stack.clear()
        winners = rules.winners(self.rs, record)
        if "end" in self.tells:
            self.told_last((
                END, reason, record.round,
                {SEATS[s]: rules.score(self.rs, record, s) for s in range(2)},
                {SEATS[s]: list(rules.tie_key(self.rs, record, s)[1:]) for s in range(2)},
                [SEATS[s] for s in winners], len(winners) > 1,
                {SEATS[s]: rules.score_parts(self.rs, record, s) for s in range(2)},
            ))

    def event(self, record: TargiRecord, event: tuple[Any, ...]) -> None:
        if self.told is not None:
            self.told(event)

    # --- decisions ------------------------------------------------------------------------

    # Each ``legal_`` method lists its actions in increasing order (OpenSpiel's, which
    # apply_action's check and the adapters rely on), by building them in that order.

    def legal(self, record: TargiRecord, frame: dict[str, Any] | None = None) -> list[int]:
        frame = frame if frame is not None else record.stack[-1]
        return LEGAL_OF[frame["k"]](self, record, frame)


    def legal_place(self, record: TargiRecord, frame: dict[str, Any]) -> list[int]:
        # (typed: a compiled build then compares and indexes with machine ints)
        seat: int = frame["seat"]
        left: list[int] = frame["left"]
        while True:
            spots = rules.placeable(self.rs, record, seat) if left[seat] > 0 else []
            if spots:  # (the ids are the ring indices where A_BORDER is 0: no copy)
                return spots if A_BORDER == 0 else [A_BORDER + i for i in spots]
            left[seat] = 0  # nowhere to go: this seat places no more
            if left[1 - seat] <= 0:
                return []
            seat = frame["seat"] = 1 - seat

    def apply_place(self, record: TargiRecord, frame: dict[str, Any], action: int) -> None:
        seat: int = frame["seat"]
        left: list[int] = frame["left"]
        record.figures[action - A_BORDER] = seat
        left[seat] -= 1
        if left[1 - seat] > 0:
            frame["seat"] = 1 - seat
        if left[0] <= 0 and left[1] <= 0:
            record.stack.pop()

    def legal_turn(self, record: TargiRecord, frame: dict[str, Any]) -> list[int]:
        rs = self.rs
        seat: int = frame["seat"]
        figures, markers = record.figures, record.markers
        # (not the raids, in ring order; each list only where the seat has one at all)
        out = [A_BORDER + i for i in rs.standing if figures[i] == seat] if seat in figures else []
        if seat in markers:
            out += [A_SPACE + s for s, owner in enumerate(markers) if owner == seat]
        side = record.sides[seat]
        if side.hand >= 0 and rules.modifier_present(rs, record, seat, "hand_without_noble") \
                and not rules.display_full(rs, record, seat):  # (the rarer first)
            extra = rules.modifier_sum(rs, record, seat, "hand_without_noble")
            off = rules.discount(rs, record, seat, side.hand, False)
            out.append(A_STOP)
            if any(rules.affordable(rs, record, seat, cost, off, extra) for cost in rs.tribe_cards[side.hand].costs):
                out.append(A_HAND_DISPLAY)  # (after A_STOP: its id is larger)
            return out
        out.append(A_STOP)
        return out

    def apply_turn(self, record: TargiRecord, frame: dict[str, Any], action: int) -> None:
        rs = self.rs
        seat: int = frame["seat"]
        if action == A_STOP:
            record.stack.pop()
            record.figures = [-1 if owner == seat else owner for owner in record.figures]
            record.markers = [-1 if owner == seat else owner for owner in record.markers]
            hooked = rs.with_hook.get("actions_end")
            if hooked:
                for card in reversed(record.sides[seat].cards):
                    if card in hooked:
                        record.stack.append(self.effect_frame(seat, card, "actions_end"))
        elif action == A_HAND_DISPLAY:
            side = record.sides[seat]
            record.stack.append({"k": "tribe", "seat": seat, "card": side.hand, "src": "hand", "space": -1})
        elif action >= A_SPACE:
            space = action - A_SPACE
            record.markers[space] = -1
            card = record.centre[space]
            if record.centre_kind[space] == GOODS_DECK:
                record.stack.append({"k": "goods", "seat": seat, "card": card, "space": space})
            else:
                record.stack.append({"k": "tribe", "seat": seat, "card": card, "src": "centre", "space": space})
        else:
            ring = action - A_BORDER
            record.figures[ring] = -1
            code = rs.ring[ring].action
            if code is not None and not code.pauses:  # run now, as its frame would be next
                self.run_now(record, seat, code)
            else:
                record.stack.append(self.effect_frame(seat, ring, "border"))

    def legal_tribe(self, record: TargiRecord, frame: dict[str, Any]) -> list[int]:
        rs, seat, card, src = self.rs, frame["seat"], frame["card"], frame["src"]
        out = []  # in the ids' order: keep, discard, then the costs
        if src in ("centre", "expansion") and record.sides[seat].hand < 0 and rs.hand_limit > 0:
            out.append(A_HAND)
        if src != "hand":
            out.append(A_DISCARD)
        if not rules.display_full(rs, record, seat):
            noble = src == "noble"
            extra = rules.modifier_sum(rs, record, seat, "hand_without_noble") if src == "hand" else 0
            off = rules.discount(rs, record, seat, card, noble)
            out += [A_OPTION + k for k, cost in enumerate(rs.tribe_cards[card].costs)
                    if rules.affordable(rs, record, seat, cost, off, extra)]
        return out

    def apply_tribe(self, record: TargiRecord, frame: dict[str, Any], action: int) -> None:
        rs, seat, card, src = self.rs, frame["seat"], frame["card"], frame["src"]
        record.stack.pop()
        side = record.sides[seat]
        if src in ("noble", "hand", "offer"):  # the hand card, offered: it leaves the hand
            side.hand = -1
        if frame["space"] >= 0:
            self.vacate(record, frame["space"], GOODS_DECK)
        if action == A_HAND:
            side.hand = card
        elif action == A_DISCARD:
            record.discards[TRIBE_DECK].append(card)
        else:
            cost = rs.tribe_cards[card].costs[action - A_OPTION]
            extra = rules.modifier_sum(rs, record, seat, "hand_without_noble") if src == "hand" else 0
            off = rules.discount(rs, record, seat, card, src == "noble")
            record.stack.append({"k": "discount", "seat": seat, "card": card, "src": src, "cost": list(cost.goods),
                                 "gold": cost.gold, "left": off, "extra": extra})

    def legal_discount(self, record: TargiRecord, frame: dict[str, Any]) -> list[int]:
        cost, left = frame["cost"], frame["left"]
        if left <= 0 or not any(cost):
            return []
        held = record.sides[frame["seat"]].goods
        out = []
        for g, amount in enumerate(cost):
            if amount:
                rest = cost[:]
                rest[g] -= 1
                if rules.shortfall(rest, held) <= left - 1:
                    out.append(A_GOOD + g)
        return out

    def apply_discount(self, record: TargiRecord, frame: dict[str, Any], action: int) -> None:
        frame["cost"][action - A_GOOD] -= 1
        frame["left"] -= 1

    def legal_row(self, record: TargiRecord, frame: dict[str, Any]) -> list[int]:
        display = record.sides[frame["seat"]].display
        return [A_ROW + r for r, row in enumerate(display) if len(row) < self.rs.display_columns]

    def apply_row(self, record: TargiRecord, frame: dict[str, Any], action: int) -> None:
        rs, seat, card = self.rs, frame["seat"], frame["card"]
        record.stack.pop()
        side = record.sides[seat]
        side.display[action - A_ROW].append(card)
        if "display" in self.tells:
            self.event(record, (DISPLAY, record.round, seat, rs.tribe_cards[card].id, frame["src"]))
        if sum(len(row) for row in side.display) >= rs.end_display:
            record.last_round = True
        if rs.tribe_cards[card].once is not None:
            record.stack.append(self.effect_frame(seat, card, "once"))
        rules.grant_extra_goods(rs, record, seat)

    def legal_give(self, record: TargiRecord, frame: dict[str, Any]) -> list[int]:
        if frame["left"] <= 0:
            return []
        return [A_GOOD + g for g, n in enumerate(record.sides[frame["seat"]].goods) if n > 0]

    def apply_give(self, record: TargiRecord, frame: dict[str, Any], action: int) -> None:
        record.sides[frame["seat"]].goods[action - A_GOOD] -= 1
        frame["left"] -= 1
        if frame["left"] <= 0:
            record.stack.pop()

    def legal_choose_good(self, record: TargiRecord, frame: dict[str, Any]) -> list[int]:
        return [A_GOOD + g for g in range(len(self.rs.goods))] if frame["left"] > 0 else []

    def apply_choose_good(self, record: TargiRecord, frame: dict[str, Any], action: int) -> None:
        seat, g = frame["seat"], action - A_GOOD
        side = record.sides[seat]
        side.goods[g] += 1
        frame["left"] -= 1
        if frame["left"] <= 0:
            record.stack.pop()
        if frame["card"]:  # a good of choice from a goods card counts for the good chosen
            side.got |= 1 << g
            side.goods_from_cards += 1
            rules.grant_extra_goods(self.rs, record, seat)

    def legal_fata(self, record: TargiRecord, frame: dict[str, Any]) -> list[int]:
        seat = frame["seat"]
        if frame["source"] < 0:
            mine = [A_SPACE + s for s, owner in enumerate(record.markers) if owner == seat]
            return mine + [A_STOP] if mine else []
        return [A_SPACE + s for s, owner in enumerate(record.markers)
                if owner < 0 and record.centre[s] >= 0 and record.centre_up[s]]

    def apply_fata(self, record: TargiRecord, frame: dict[str, Any], action: int) -> None:
        if action == A_STOP:
            record.stack.pop()
        elif frame["source"] < 0:
            frame["source"] = action - A_SPACE
        else:
            record.stack.pop()
            record.markers[frame["source"]] = -1
            record.markers[action - A_SPACE] = frame["seat"]

    def legal_raid_pay(self, record: TargiRecord, frame: dict[str, Any]) -> list[int]:
        return [A_OPTION + k for k in range(len(self.rs.ring[frame["ring"]].raid))]

    def apply_raid_pay(self, record: TargiRecord, frame: dict[str, Any], action: int) -> None:
        record.stack.pop()
        what, amount = self.rs.ring[frame["ring"]].raid[action - A_OPTION]
        side = record.sides[frame["seat"]]
        if what == GOODS:
            record.stack.append({"k": "give", "seat": frame["seat"], "left": min(amount, sum(side.goods))})
        elif what == GOLD:
            side.gold -= min(amount, side.gold)
        elif what == POINTS:
            side.points -= min(amount, side.points)

    def legal_effect(self, record: TargiRecord, frame: dict[str, Any]) -> list[int]:
        kind, options = frame["kind"], frame["options"]
        if kind == "good":  # (a snippet offers them in the order it lists them)
            return sorted([A_GOOD + g for g in options])
        if kind == "card":
            cards = record.sides[frame["seat"]].cards
            return sorted([A_CARD + cards.index(c) for c in options if c in cards])
        return [A_NUMBER + i for i in range(len(options))]

    def apply_effect(self, record: TargiRecord, frame: dict[str, Any], action: int) -> None:
        kind = frame["kind"]
        if kind == "good":
            answer = action - A_GOOD
        elif kind == "card":
            answer = record.sides[frame["seat"]].cards[action - A_CARD]
        else:
            answer = frame["options"][action - A_NUMBER]
        frame["answers"].append(answer)
        frame["asked"] = 0


# each frame kind's methods, looked up once (not by name at every step)
LEGAL_OF: dict[str, Callable[[Flow, TargiRecord, dict[str, Any]], list[int]]] = {
    kind: getattr(Flow, "legal_" + kind) for kind in DECISIONS}
APPLY_OF: dict[str, Callable[[Flow, TargiRecord, dict[str, Any], int], None]] = {
    kind: getattr(Flow, "apply_" + kind) for kind in DECISIONS}
AUTO_OF: dict[str, Callable[[Flow, TargiRecord, dict[str, Any]], None]] = {
    kind: getattr(Flow, "auto_" + kind) for kind in AUTOMATIC}
