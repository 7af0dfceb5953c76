"""A picture of a game: :func:`board_svg` turns a ``GameState`` into an SVG document.

Pure: a state in, a string out, nothing read or written. The picture is
self-contained (no fonts, images or style sheets from elsewhere) and every
text from a ruleset is escaped, so a house rule's names cannot break it.

* the board, as the ruleset lays it out (rows x columns): each cell coloured
  by its territory kind, with its printed position, the kind's name and the
  camels on it; an owned cell has a frame and a badge in the owner's tribe
  colour; a settlement shows a tent in the colour of the tribe it belongs to;
  cards not dealt yet are face down, impassable kinds (chotts) hatched;
  each cell is a ``<g class="cell">`` whose ``data-position``, ``data-kind``,
  ``data-owner`` (a tribe id) and ``data-camels`` say the same for programs;
* a legend: the round, the players (cash, treasury where the ruleset has
  one, camels, territories, settlement, winners at the end) and the
  territory kinds with their values now (changed ones marked).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape, quoteattr

from targui_dsl.games.targui.colours import TRIBE_COLOURS as TRIBE_COLOURS_TABLE
from targui_dsl.games.targui.labels import short_name

if TYPE_CHECKING:  # pragma: no cover
    from targui_dsl.games.targui.state import GameState

__all__ = ["board_svg", "kind_colour", "tribe_colour"]

CELL = 96  # cell size in px
GAP = 4
MARGIN = 24
HEADER = 64
LEGEND_WIDTH = 330
FONT = "DejaVu Sans, Verdana, Helvetica, Arial, sans-serif"
INK = "#2b2118"
MUTED = "#7a6a58"
BACKGROUND = "#faf6ee"

# Kinds of the built-in rulesets; any other kind gets a colour from FALLBACK.
KIND_COLOURS = {
    "settlement": "#d99a6c",
    "salt_mine": "#f7f5f0",
    "guelta": "#8fd0bd",
    "reg": "#c8b59a",
    "erg": "#f3d58e",
    "fesh_fesh": "#ecdfc0",
    "mountain": "#a89482",
    "chott": "#dcebef",
}
FALLBACK = ("#b9c99a", "#e2b4a0", "#c3b3d6", "#9fc3d9", "#e8c9a0", "#b8d8c8", "#d9b8c9", "#c9c9a0")

# The tribe colours' shades come from the one colour table.
TRIBE_COLOURS = {name: colour.svg for name, colour in TRIBE_COLOURS_TABLE.items()}
_CSS_COLOUR = re.compile(r"^(#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6}|[a-zA-Z]{3,20})$")
_LIGHT = {key for name, c in TRIBE_COLOURS_TABLE.items() if c.light for key in (name, c.svg)}


def kind_colour(kind_id: str, index: int) -> str:
    return KIND_COLOURS.get(kind_id, FALLBACK[index % len(FALLBACK)])


def tribe_colour(colour: str) -> str:
    """A ruleset's tribe colour as an SVG colour (unknown spellings become grey)."""
    colour = colour.strip()
    key = colour.lower()
    if key in TRIBE_COLOURS:
        return TRIBE_COLOURS[key]
    return colour if _CSS_COLOUR.match(colour) else "#7d7d7d"


def _text_on(colour: str, raw: str) -> str:
    return INK if raw.strip().lower() in _LIGHT or colour in _LIGHT else "#ffffff"


def _attrs(**attrs: Any) -> str:
    return " ".join(f"{k.rstrip('_').replace('_', '-')}={quoteattr(str(v))}" for k, v in attrs.items() if v is not None)


def _text(x: float, y: float, text: Any, size: float = 12, **attrs: Any) -> str:
    attrs.setdefault("fill", INK)
    return f"<text {_attrs(x=round(x, 1), y=round(y, 1), font_size=size, **attrs)}>{escape(str(text))}</text>"


def _fit(text: str, size: float, width: float) -> float:
    """The font size, at most ``size``, at which ``text`` fits into ``width`` (about 0.6 em a letter)."""
    return round(min(size, width / (max(len(text), 1) * 0.6)), 1)


def board_svg(state: "GameState", caption: str | None = None) -> str:
    """The board and a legend of ``state`` as an SVG document (a string).

    The state's game carries the ruleset: board size, kinds, tribes and
    their colours come from it. ``caption`` is added to the line under the
    title, after the round (e.g. ``"after event 300 of 1386"``).
    """
    game = state.game
    ruleset = game.ruleset
    board = ruleset.board
    board_w = board.columns * CELL + (board.columns - 1) * GAP
    board_h = board.rows * CELL + (board.rows - 1) * GAP
    seat_colours = [ruleset.tribes[t].colour for t in game.seat_tribes]
    colours = [tribe_colour(c) for c in seat_colours]
    tribe_of_seat = [ruleset.tribes[t] for t in game.seat_tribes]

    legend, legend_h = _legend(state, colours, seat_colours, tribe_of_seat)
    width = MARGIN * 3 + board_w + LEGEND_WIDTH
    height = MARGIN * 2 + HEADER + max(board_h, legend_h)

    out: list[str] = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" {_attrs(width=width, height=height, viewBox=f"0 0 {width} {height}")}'
        f' font-family={quoteattr(FONT)}>',
        f"<title>{escape(f'{ruleset.title}: {_round_text(state)}')}</title>",
        "<defs>",
        '<pattern id="hatch" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
        '<rect width="8" height="8" fill="#dcebef"/>'
        '<line x1="0" y1="0" x2="0" y2="8" stroke="#a9c6cf" stroke-width="3"/>'
        "</pattern>",
        '<pattern id="back" width="10" height="10" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
        '<rect width="10" height="10" fill="#7b6552"/>'
        '<line x1="0" y1="0" x2="0" y2="10" stroke="#8d7761" stroke-width="4"/>'
        "</pattern>",
        "</defs>",
        f'<rect {_attrs(width=width, height=height, fill=BACKGROUND)}/>',
        _text(MARGIN, MARGIN + 22, ruleset.title, 22, font_weight="bold"),
        _text(MARGIN, MARGIN + 46, _round_text(state) + (f" · {caption}" if caption else ""), 14, fill=MUTED),
    ]

    top = MARGIN + HEADER
    frame = _attrs(x=MARGIN - 8, y=top - 8, width=board_w + 16, height=board_h + 16, rx=10, fill="#e9dcc4")
    out.append(f'<rect {frame}/>')
    for cell in range(board.cells):
        row, col = board.row_col(cell)
        x = MARGIN + col * (CELL + GAP)
        y = top + row * (CELL + GAP)
        out.extend(_cell(state, cell, x, y, colours))
    out.append(f'<g transform="translate({MARGIN * 2 + board_w},{top})">')
    out.extend(legend)
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _round_text(state: "GameState") -> str:
    ruleset = state.game.ruleset
    if state.is_terminal():
        return f"game over after round {state.round} of {ruleset.rounds}"
    if state.round == 0:
        return "setup: choosing sectors, dealing and settling"
    double = ", double turns" if state.double_turn else ""
    return f"round {state.round} of {ruleset.rounds} (die {state.round_die}{double})"


def _cell(state: "GameState", cell: int, x: float, y: float, colours: list[str]) -> list[str]:
    game = state.game
    ruleset = game.ruleset
    position = game.position_of_cell[cell]
    kind = state.kind(cell)
    owner = state.owner(cell)
    data = {"id": f"cell-{position}", "class": "cell", "data-position": position,
            "data-kind": game.kind_ids[kind] if kind >= 0 else None,
            "data-owner": game.tribe_ids[owner] if owner >= 0 else None, "data-camels": state.camels(cell)}
    out: list[str] = ["<g " + " ".join(f"{k}={quoteattr(str(v))}" for k, v in data.items() if v is not None) + ">"]
    if kind < 0:  # not dealt yet: a card face down
        out.append(f'<rect {_attrs(x=x, y=y, width=CELL, height=CELL, rx=7, fill="url(#back)", stroke="#5e4b3b")}/>')
        out.append(_text(x + 8, y + 18, position, 13, font_weight="bold", fill="#f3e6d3"))
        out.append(_text(x + CELL / 2, y + CELL / 2 + 10, "?", 28, text_anchor="middle", fill="#f3e6d3", opacity="0.6"))
        out.append("</g>")
        return out
    spec = ruleset.kinds[kind]
    passable = game.kind_passable[kind]
    fill = kind_colour(spec.id, kind) if passable else "url(#hatch)"
    out.append(f'<rect {_attrs(x=x, y=y, width=CELL, height=CELL, rx=7, fill=fill, stroke="#00000030")}/>')
    if owner >= 0:
        ring = _attrs(x=x + 3, y=y + 3, width=CELL - 6, height=CELL - 6, rx=5, fill="none", stroke=colours[owner],
                      stroke_width=5)
        out.append(f'<rect {ring}/>')
        bx, by = x + CELL - 17, y + 17
        text_colour = _text_on(colours[owner], ruleset.tribes[game.seat_tribes[owner]].colour)
        out.append(f'<circle {_attrs(cx=bx, cy=by, r=10, fill=colours[owner], stroke="#ffffff", stroke_width=1.5)}/>')
        out.append(_text(bx, by + 4.5, owner + 1, 12, text_anchor="middle", font_weight="bold", fill=text_colour))
    out.append(_text(x + 10, y + 22, position, 14, font_weight="bold"))
    label = short_name(spec.name)
    out.append(_text(x + CELL / 2, y + CELL - 12, label, _fit(label, 11, CELL - 12), text_anchor="middle"))
    settled_by = [s for s in range(game.players) if state.settlement(s) == cell]
    if settled_by:  # whose settlement it is (the owner may be someone else now)
        out.append(_tent(x + CELL / 2 - 9, y + 7, colours[settled_by[0]]))
    camels = state.camels(cell)
    if passable and (camels or owner >= 0):
        out.append(_text(x + CELL / 2, y + CELL / 2 + 9, camels, 26, text_anchor="middle", font_weight="bold",
                         fill=INK if camels else MUTED))
    out.append("</g>")
    return out


def _tent(x: float, y: float, colour: str) -> str:
    """A small tent (the settlement) with its base at (x, y + 16)."""
    points = f"{x},{y + 16} {x + 9},{y} {x + 18},{y + 16}"
    door = f"{x + 6.5},{y + 16} {x + 9},{y + 9} {x + 11.5},{y + 16}"
    return (f'<polygon {_attrs(points=points, fill=colour, stroke=INK, stroke_width=1.2, stroke_linejoin="round")}/>'
            f'<polygon {_attrs(points=door, fill=INK, opacity=0.55)}/>')


def _legend(state: "GameState", colours: list[str], raw_colours: list[str], tribes: list) -> tuple[list[str], int]:
    game = state.game
    ruleset = game.ruleset
    out: list[str] = []
    y = 4
    out.append(_text(0, y + 14, "Players", 15, font_weight="bold"))
    y += 26
    winners = set(state.winners()) if state.is_terminal() else set()
    to_move = state.current_player()
    for seat in range(game.players):
        colour = colours[seat]
        out.append(f'<rect {_attrs(x=0, y=y, width=24, height=24, rx=5, fill=colour, stroke="#00000040")}/>')
        out.append(_text(12, y + 17, seat + 1, 13, text_anchor="middle", font_weight="bold",
                         fill=_text_on(colour, raw_colours[seat])))
        name = tribes[seat].name
        marks = []
        if seat in winners:
            marks.append("winner" if len(winners) == 1 else "draw")
        elif seat == to_move and not state.is_terminal():
            marks.append("to move")
        title = name + (f"  ({', '.join(marks)})" if marks else "")
        out.append(_text(34, y + 11, title, 13, font_weight="bold"))
        money = f"cash {state.cash(seat)}"
        if ruleset.treasury:
            money += f", treasury {state.treasury(seat)}"
        settlement = state.settlement(seat)
        if settlement < 0:
            sector = state.sector(seat)
            home = f"sector {game.sector_ids[sector].replace('_', '-')}, not settled" if sector >= 0 else "not settled"
        elif state.round > 0 and not state.in_game(seat):
            home = "out of the game"
        elif state.holds_own_settlement(seat):
            home = f"settlement {game.position_of_cell[settlement]}"
        else:
            home = f"settlement {game.position_of_cell[settlement]} lost"
        out.append(_text(34, y + 27, f"{money}; {state.player_camels(seat)} camels", 12, fill=MUTED))
        held = len(state.cells_of(seat))
        out.append(_text(34, y + 42, f"{held} {'territory' if held == 1 else 'territories'}; {home}", 12, fill=MUTED))
        y += 56
    if state.is_terminal():
        scores = state.scores()
        out.append(_text(0, y + 8, "Scores: " + ", ".join(f"{s + 1}: {scores[s]}" for s in range(game.players)), 12))
        y += 22

    y += 8
    out.append(_text(0, y + 14, "Territories", 15, font_weight="bold"))
    out.append(_text(LEGEND_WIDTH - 10, y + 14, "econ. / strat.", 11, text_anchor="end", fill=MUTED))
    y += 24
    for kind in ruleset.kinds:
        if kind.count <= 0:
            continue
        fill = kind_colour(kind.id, kind.index) if kind.passable else "url(#hatch)"
        out.append(f'<rect {_attrs(x=0, y=y, width=24, height=18, rx=4, fill=fill, stroke="#00000040")}/>')
        out.append(_text(34, y + 13, kind.name, _fit(kind.name, 12, LEGEND_WIDTH - 130)))
        economic, strategic = state.kind_economic(kind.index), state.kind_strategic(kind.index)
        changed = economic != kind.economic or strategic != kind.strategic
        values = f"{economic} / {strategic}" + (" *" if changed else "")
        out.append(_text(LEGEND_WIDTH - 10, y + 13, values, 12, text_anchor="end",
                         font_weight="bold" if changed else None))
        y += 24
    if any(state.kind_economic(k.index) != k.economic or state.kind_strategic(k.index) != k.strategic
           for k in ruleset.kinds):
        out.append(_text(0, y + 10, "* changed by a card this round", 11, fill=MUTED))
        y += 18

    y += 10
    out.append(_text(0, y + 12, f"Camels in the box: {state.camels_in_box}", 12, fill=MUTED))
    y += 18
    out.append(_text(0, y + 12, f"(Mis)fortune cards left: {state.deck_left()} of {len(ruleset.deck)}", 12, fill=MUTED))
    y += 18
    out.append(_text(0, y + 12, "Numbers: printed positions and camels", 11, fill=MUTED))
    y += 16
    return out, y + 4
