"""Targi's board as an SVG picture: the ring, the centre and both displays."""

from __future__ import annotations

from xml.sax.saxutils import escape

from targui_dsl.games.targi.state import TargiState

FILL = ("#4a78c2", "#c2504a")


def board_svg(state: TargiState, caption: str | None = None) -> str:
    rs, rec = state.rs, state.record
    cell, parts = 70, []
    side = 5  # the ring is drawn as the printed square: 5 cards a side
    places = [(c, 0) for c in range(1, side)] + [(side - 1, r) for r in range(1, side)] \
        + [(c, side - 1) for c in range(side - 2, -1, -1)] + [(0, r) for r in range(side - 2, -1, -1)]
    for i, border in enumerate(rs.ring[:len(places)]):
        x, y = places[i]
        owner = rec.figures[i]
        fill = "#e8d8b0" if not border.is_raid else "#d0a070"
        stroke = ("#000", 3) if i == rec.robber else ("#8a7a5a", 1)
        parts.append(f'<rect x="{x * cell}" y="{y * cell}" width="{cell - 2}" height="{cell - 2}" fill="{fill}"'
                     f' stroke="{stroke[0]}" stroke-width="{stroke[1]}"/>')
        parts.append(f'<text x="{x * cell + 4}" y="{y * cell + 14}" font-size="11">{border.number}'
                     f' {escape(border.name[:9])}</text>')
        if owner >= 0:
            parts.append(f'<circle cx="{x * cell + 35}" cy="{y * cell + 42}" r="10" fill="{FILL[owner]}"/>')
    columns = len(rs.centre[0])
    for space, card in enumerate(rec.centre):
        x, y = 1 + space % columns, 1 + space // columns
        if card < 0:
            label = "empty"
        elif not rec.centre_up[space]:
            label = "face down"
        elif rec.centre_kind[space] == 0:
            label = f"goods {rs.goods_cards[card].id}"
        else:
            label = f"{rs.symbols[rs.tribe_cards[card].symbol]} {rs.tribe_cards[card].id}"
        parts.append(f'<rect x="{x * cell}" y="{y * cell}" width="{cell - 2}" height="{cell - 2}" fill="#f4ecd8"'
                     ' stroke="#8a7a5a"/>')
        parts.append(f'<text x="{x * cell + 4}" y="{y * cell + 30}" font-size="10">{escape(label)}</text>')
        if rec.markers[space] >= 0:
            parts.append(f'<rect x="{x * cell + 25}" y="{y * cell + 40}" width="16" height="16"'
                         f' fill="{FILL[rec.markers[space]]}"/>')
    top = side * cell + 20
    for seat, s in enumerate(rec.sides):
        parts.append(f'<text x="0" y="{top}" font-size="13" fill="{FILL[seat]}">Player {seat + 1}: '
                     f'{escape(", ".join(f"{n} {g}" for g, n in zip(rs.goods, s.goods, strict=True)))}, {s.gold} gold,'
                     f' {s.points} points, score {state.scores()[seat]}</text>')
        for r, row in enumerate(s.display):
            text = ", ".join(f"{rs.tribe_cards[c].id} {rs.symbols[rs.tribe_cards[c].symbol]}" for c in row)
            parts.append(f'<text x="10" y="{top + 16 * (r + 1)}" font-size="11">row {r + 1}: {escape(text)}</text>')
        top += 16 * (len(s.display) + 2)
    if caption:
        parts.append(f'<text x="0" y="{top}" font-size="12">{escape(caption)}</text>')
    width, height = side * cell + 200, top + 20
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}"'
            f' viewBox="0 0 {width} {height}">' + "".join(parts) + "</svg>\n")
