"""How Targi is shown to people: the :class:`~targui_dsl.engine.drawing.Drawing` of its package."""

from __future__ import annotations

from typing import Any

from targui_dsl.effects.code import CompiledCode
from targui_dsl.engine.drawing import Drawing
from targui_dsl.games.targi.terminal import (
    HELP_ACTIONS,
    Console,
    LeaveGame,
    Style,
    TableNarrator,
    TableRecord,
    narrator,
    render_board,
    render_end,
)

HELP_BOARD = """THE BOARD (Targi)
The ring of border cards as the printed square, each with its number and
name, `robber` where the robber stands and `Targi PN` where seat N's Targi
stands; inside it the centre's 3 x 3 spaces `c1`..`c9` (a goods card, a
tribe card with its symbol, `face down` or `empty`; `marker PN` for seat
N's tribe marker), then every face-up centre card spelled out (what a goods
card gives; a tribe card's symbol, points and cost). Then each player's
goods, gold (and gold stored on a card), points, score so far, hand and
display row by row with symbols. A player sees their own hand card; the
other hand shows as `1 card`. The first line: the round, the robber, the
amulet holder (who places first) and `last round` once a display is full."""

HELP_END = """THE END (Targi)
The result, then each player's points by source (tokens, printed, END
abilities, rows), gold and goods (the tie-breaks)."""


def picture(state: Any, caption: str | None = None) -> str:
    from targui_dsl.games.targi.svg import board_svg

    return board_svg(state, caption=caption)


def snippets(rs: Any) -> list[tuple[str, CompiledCode]]:
    out: list[tuple[str, CompiledCode]] = []
    for card in rs.tribe_cards:
        if card.end is not None:
            out.append((f"tribe_cards.{card.id}.end", card.end))
        if card.once is not None:
            out.append((f"tribe_cards.{card.id}.once", card.once))
        out += [(f"tribe_cards.{card.id}.modifiers.{name}", code) for name, code in card.modifiers.items()]
        out += [(f"tribe_cards.{card.id}.hooks.{name}", code) for name, code in card.hooks.items()]
    return out


DRAWING = Drawing(
    board=render_board,
    end_screen=render_end,
    picture=picture,
    style=Style,
    table_record=TableRecord,
    narrator=TableNarrator,
    narrate=narrator,
    console=Console,
    left_table=LeaveGame,
    help_board=HELP_BOARD,
    help_actions=HELP_ACTIONS,
    help_end=HELP_END,
    help_picture="the ring, the centre, figures,\nmarkers and both displays",
    snippets=snippets,
)
