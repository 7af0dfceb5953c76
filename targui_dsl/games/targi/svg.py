"""Targi's board as an SVG picture: the ring as the printed square (each border card by number and
name, the robber, the Targi), the centre inside it (cards, face-down cards, markers), both players'
supplies and displays. The same things as the terminal's board (:mod:`.terminal`), neither hand
card shown."""

from __future__ import annotations

from xml.sax.saxutils import escape

from targui_dsl.games.targi.record import GOODS_DECK
from targui_dsl.games.targi.state import TargiState
from targui_dsl.games.targi.terminal import ring_square
from targui_dsl.games.targi.texts import amounts

FILL = ("#4a78c2", "#c2504a")
CELL = 86


def _text(x: float, y: float, text: str, size: int = 11, **attrs: str) -> str:
    extra = "".join(f' {k.replace("_", "-")}="{escape(v)}"' for k, v in attrs.items())
    return f'<text x="{x}" y="{y}" font-size="{size}"{extra}>{escape(text)}</text>'


def _wrap(text: str, width: int) -> list[str]:
    """Words into lines of at most ``width`` characters."""
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def board_svg(state: TargiState, caption: str | None = None) -> str:
    rs, rec = state.rs, state.record
    parts: list[str] = []
    places = ring_square(rs)
    side = len(rs.ring) // 4 + 1
    if places is None:  # a ring of another shape: a row of cards above the centre
        side = max(len(rs.ring), len(rs.centre[0]) + 2)
        places = {i: (i, 0) for i in range(len(rs.ring))}
    head = f"Round {rec.round}"
    if rec.robber >= 0:
        head += f", robber on {rs.ring[rec.robber].number} {rs.ring[rec.robber].name}"
    head += f", amulet: player {rec.amulet + 1}" + (", last round" if rec.last_round and not rec.over else "")
    parts.append(_text(0, 14, head, 13, font_weight="bold"))
    top = 24
    for i, (x, y) in places.items():
        border = rs.ring[i]
        px, py = x * CELL, top + y * CELL
        fill = "#d0a070" if border.is_raid else "#e8d8b0"
        stroke = ("#000", 3) if i == rec.robber else ("#8a7a5a", 1)
        parts.append(f'<rect x="{px}" y="{py}" width="{CELL - 3}" height="{CELL - 3}" fill="{fill}"'
                     f' stroke="{stroke[0]}" stroke-width="{stroke[1]}"/>')
        parts.append(_text(px + 4, py + 14, f"{border.number}", 12, font_weight="bold"))
        for k, line in enumerate(_wrap(border.name, 13)[:2]):
            parts.append(_text(px + 4, py + 28 + 12 * k, line, 11))
        if i == rec.robber:
            parts.append(_text(px + 4, py + CELL - 8, "robber", 10, font_weight="bold"))
        owner = rec.figures[i]
        if owner >= 0:
            parts.append(f'<circle cx="{px + CELL - 20}" cy="{py + CELL - 20}" r="11" fill="{FILL[owner]}"/>')
            parts.append(_text(px + CELL - 28, py + CELL - 16, f"P{owner + 1}", 10, fill="#fff"))
    columns = len(rs.centre[0])
    for space, card in enumerate(rec.centre):
        x, y = 1 + space % columns, 1 + space // columns
        px, py = x * CELL, top + y * CELL
        lines: list[str]
        if card < 0:
            lines = ["empty"]
        elif not rec.centre_up[space]:
            lines = ["face down"]
        elif rec.centre_kind[space] == GOODS_DECK:
            g = rs.goods_cards[card]
            gift = amounts(rs, g.goods, g.gold, g.points)
            if g.choice:
                gift = (gift + " " if gift != "nothing" else "") + f"{g.choice} of choice"
            lines = [f"goods {g.id}", *_wrap(gift, 13)]
        else:
            t = rs.tribe_cards[card]
            cost = " or ".join(amounts(rs, c.goods, c.gold) for c in t.costs)
            lines = [f"{rs.symbols[t.symbol]} {t.id}", f"{t.points} pts", *_wrap(cost, 13)]
        fill = "#c8c0b0" if card >= 0 and not rec.centre_up[space] else "#f4ecd8"
        parts.append(f'<rect x="{px}" y="{py}" width="{CELL - 3}" height="{CELL - 3}" fill="{fill}"'
                     ' stroke="#8a7a5a"/>')
        parts.append(_text(px + 4, py + 12, f"c{space + 1}", 9, fill="#6a5a3a"))
        for k, line in enumerate(lines[:5]):
            parts.append(_text(px + 4, py + 25 + 11 * k, line, 10))
        if rec.markers[space] >= 0:
            parts.append(f'<rect x="{px + CELL - 24}" y="{py + 4}" width="16" height="16"'
                         f' fill="{FILL[rec.markers[space]]}"/>')
    y = top + side * CELL + 20
    scores = state.scores()
    for seat, s in enumerate(rec.sides):
        stored = f" (+{s.stored_gold} stored on a card)" if s.stored_gold else ""
        hand = "1 card in hand" if s.hand >= 0 else "no card in hand"
        parts.append(_text(0, y, f"Player {seat + 1}: {amounts(rs, s.goods)}, {s.gold} gold{stored},"
                                 f" {s.points} points, score {scores[seat]}; {hand}", 13, fill=FILL[seat]))
        for r, row in enumerate(s.display):
            cards = [f"{rs.tribe_cards[c].id} {rs.symbols[rs.tribe_cards[c].symbol]}" for c in row]
            text = ", ".join(cards + ["-"] * (rs.display_columns - len(row)))
            parts.append(_text(10, y + 16 * (r + 1), f"row {r + 1}: {text}", 11))
        y += 16 * (len(s.display) + 2)
    parts.append(_text(0, y, f"Piles: {len(rec.piles[0])} goods, {len(rec.piles[1])} tribe cards", 11))
    y += 18
    if caption:
        parts.append(_text(0, y, caption, 12))
        y += 18
    width, height = max(side * CELL, 560), y + 4
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}"'
            f' viewBox="0 0 {width} {height}">' + "".join(parts) + "</svg>\n")
