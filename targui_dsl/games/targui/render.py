"""A compact text picture of a game state (``str(state)``).

Each cell shows ``position kind owner camels``, e.g. `` 12gu2 15``: position
12, a guelta, owned by seat 2, 15 camels (``.`` = nobody, ``##`` a chott).
"""

from __future__ import annotations

from typing import Any

from targui_dsl.games.targui.labels import kind_labels
from targui_dsl.games.targui.observation import StateView


def kind_abbreviations(kind_ids: tuple[str, ...]) -> list[str]:
    """Two-letter names for kinds, unique within the ruleset (the one maker of kind labels)."""
    return kind_labels(kind_ids, 2, capitalize=False, pad="_")


def render_cell(state: "StateView[Any]", cell: int, abbreviations: list[str]) -> str:
    game = state.game
    position = game.position_of_cell[cell]
    kind = state.kind(cell)
    if kind < 0:
        return f"{position:>3}  ?    "
    if not game.kind_passable[kind]:
        return f"{position:>3}{abbreviations[kind]}##  "
    owner = state.owner(cell)
    mark = "." if owner < 0 else str(owner + 1)
    camels = state.camels(cell)
    if camels or owner >= 0:
        return f"{position:>3}{abbreviations[kind]}{mark}{camels:>3}"
    return f"{position:>3}{abbreviations[kind]}.   "


def render_state(state: "StateView[Any]") -> str:
    game = state.game
    ruleset = game.ruleset
    abbreviations = kind_abbreviations(game.kind_ids)
    lines = [f"{ruleset.id}: round {state.round}/{ruleset.rounds}, {state.phase_name}"
             + (", double turns" if state.double_turn and state.round else "")
             + f", deck {state.deck_left()}, box {state.camels_in_box}"]
    columns = ruleset.board.columns
    for row in range(ruleset.board.rows):
        lines.append(" ".join(render_cell(state, row * columns + col, abbreviations) for col in range(columns)))
    for seat in range(game.players):
        holds = state.holds_own_settlement(seat)
        marker = ">" if seat == state.current_player() else " "
        out = "" if state.in_game(seat) else " (out)"
        settlement = state.settlement(seat)
        where = game.position_of_cell[settlement] if settlement >= 0 else "-"
        treasury = f" treasury {state.treasury(seat)}" if ruleset.treasury else ""
        lines.append(
            f"{marker}{seat + 1} {game.tribe_name(seat)}: cash {state.cash(seat)}{treasury},"
            f" camels {state.player_camels(seat)}, territories {len(state.cells_of(seat))},"
            f" settlement {where}{'' if holds or settlement < 0 else ' lost'}{out}"
        )
    key = ", ".join(f"{a}={k}" for a, k in zip(abbreviations, game.kind_ids, strict=True))
    lines.append(f"kinds: {key}")
    if state.is_terminal():
        winners = ", ".join(game.tribe_name(s) for s in state.winners())
        lines.append(f"game over ({state.end_reason}): {'draw between ' if state.is_draw() else 'won by '}{winners};"
                     f" scores {state.scores()}")
    return "\n".join(lines)
