"""Positions of Targi for rule tests: a state at a chosen decision, built through the record."""

from __future__ import annotations

from typing import Any

from targui_dsl import load_ruleset
from targui_dsl.games.targi.record import GOODS_DECK, TRIBE_DECK
from targui_dsl.games.targi.state import Game, TargiState

RS = load_ruleset("targi")
DATE, SALT, PEPPER = 0, 1, 2


def tribe(card_id: int) -> int:
    return next(i for i, c in enumerate(RS.tribe_cards) if c.id == card_id)


def goods_card(card_id: int) -> int:
    return next(i for i, c in enumerate(RS.goods_cards) if c.id == card_id)


def new(seed: int = 0, rs: Any = RS) -> TargiState:
    """A game at its first decision: seat 0 (the amulet) places in round 1."""
    return Game(rs, seed=seed).new_initial_state()


def texts(state: TargiState) -> list[str]:
    return [state.action_to_string(state.current_player(), a) for a in state.legal_actions()]


def do(state: TargiState, *actions: str) -> None:
    for action in actions:
        state.apply_action(action)


def give(state: TargiState, seat: int, goods: tuple[int, int, int] | None = None, gold: int | None = None,
         points: int | None = None) -> None:
    side = state.record.sides[seat]
    if goods is not None:
        side.goods = list(goods)
    if gold is not None:
        side.gold = gold
    if points is not None:
        side.points = points


def display(state: TargiState, seat: int, *card_ids: int, row: int = 0) -> None:
    """Cards put straight into a display row (set-up, not a purchase)."""
    for card_id in card_ids:
        index = tribe(card_id)
        _take_out(state, TRIBE_DECK, index)
        state.record.sides[seat].display[row].append(index)


def _take_out(state: TargiState, deck: int, index: int) -> None:
    record = state.record
    if index in record.piles[deck]:
        record.piles[deck].remove(index)
    for space, card in enumerate(record.centre):
        if card == index and record.centre_kind[space] == deck:
            record.centre[space] = -1


def centre(state: TargiState, space: int, card_id: int, deck: str = "tribe") -> None:
    """Space ``space`` (0-based) holds the card face up."""
    kind = TRIBE_DECK if deck == "tribe" else GOODS_DECK
    index = tribe(card_id) if deck == "tribe" else goods_card(card_id)
    _take_out(state, kind, index)
    record = state.record
    old = record.centre[space]
    if old >= 0:
        record.piles[record.centre_kind[space]].append(old)
    record.centre[space], record.centre_kind[space], record.centre_up[space] = index, kind, True


def turn(state: TargiState, seat: int, border: tuple[int, ...] = (), spaces: tuple[int, ...] = ()) -> None:
    """``seat`` is about to take its actions with Targi on border cards ``border`` (numbers) and
    markers on centre spaces ``spaces`` (0-based); the round then ends."""
    record = state.record
    record.figures = [-1] * len(record.figures)
    record.markers = [-1] * len(record.markers)
    for number in border:
        record.figures[number - 1] = seat
    for space in spaces:
        record.markers[space] = seat
    record.stack = [{"k": "round", "step": "end"}, {"k": "turn", "seat": seat}]
    state._advance()


def placing(state: TargiState, seat: int, robber: int = 1, left: tuple[int, int] = (3, 3)) -> None:
    """``seat`` places next; the robber stands on border card ``robber``."""
    record = state.record
    record.figures = [-1] * len(record.figures)
    record.robber = robber - 1
    record.stack = [{"k": "round", "step": "markers"}, {"k": "place", "seat": seat, "left": list(left)}]


def run_frames(state: TargiState, *frames: dict[str, Any]) -> None:
    """Work through these frames (the last first) on top of the current stack."""
    state.record.stack.extend(frames)
    state._advance()
