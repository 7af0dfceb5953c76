"""Targi at the terminal: the board as text, the end screen, one line per event, and a console
where people choose from a numbered menu (hot seat: the hand card is shown only to its owner)."""

from __future__ import annotations

from typing import Any, Callable

from targui_dsl.games.targi.record import GOODS_DECK
from targui_dsl.games.targi.texts import centre_text, decision_prompt, tribe_text

# A board drawn here is a TargiState (state.py), named `Any`: state.py draws its str() with this module.
_ANSI = {"red": "31", "green": "32", "yellow": "33", "blue": "34", "cyan": "36"}
SEAT_COLOURS = ("blue", "red")


class Style:
    """Paints with ANSI codes, or leaves text alone."""

    def __init__(self, colour: bool = False) -> None:
        self._colour = colour

    @property
    def colour(self) -> bool:
        return self._colour

    def paint(self, text: str, colour: str | None = None, bold: bool = False, dim: bool = False) -> str:
        if not self._colour:
            return text
        codes = [c for c in (_ANSI.get(colour or ""), "1" if bold else "", "2" if dim else "") if c]
        return f"\x1b[{';'.join(codes)}m{text}\x1b[0m" if codes else text


def _goods(rs: Any, goods: list[int]) -> str:
    return " ".join(f"{n} {name}" for name, n in zip(rs.goods, goods, strict=True))


def ring_square(rs: Any) -> dict[int, tuple[int, int]] | None:
    """Where each border card lies on the printed square (ring index -> (column, row)), the centre
    inside it, card 1 next to the top left corner and clockwise: 5 cards a side for a ring of 16,
    the raids in the corners. None when the ring and the centre do not make such a square."""
    n = len(rs.ring)
    side = n // 4 + 1
    if n % 4 or len(rs.centre) != side - 2 or any(len(row) != side - 2 for row in rs.centre):
        return None
    places = [(c, 0) for c in range(1, side)] + [(side - 1, r) for r in range(1, side)] \
        + [(c, side - 1) for c in range(side - 2, -1, -1)] + [(0, r) for r in range(side - 2, -1, -1)]
    # the opposite pairs that set the centre's columns and rows must face each other across it
    for k, (a, b) in enumerate(rs.columns):
        if {places[a], places[b]} != {(k + 1, 0), (k + 1, side - 1)}:
            return None
    for k, (a, b) in enumerate(rs.rows):
        if {places[a], places[b]} != {(0, k + 1), (side - 1, k + 1)}:
            return None
    return dict(enumerate(places))


CELL = 16  # a square's cell, in characters


def _ring_cell(state: Any, i: int, style: Style) -> tuple[str, str]:
    rs, rec = state.rs, state.record
    border = rs.ring[i]
    top = f"{border.number:>2} {border.name}"[:CELL - 1].ljust(CELL)
    marks = []
    if i == rec.robber:
        marks.append(style.paint("robber", bold=True))
    owner = rec.figures[i]
    if owner >= 0:
        marks.append(style.paint(f"Targi P{owner + 1}", SEAT_COLOURS[owner], bold=True))
    plain = len(" ".join(m for m in ("robber" if i == rec.robber else "",
                                     f"Targi P{owner + 1}" if owner >= 0 else "") if m))
    return top, "   " + " ".join(marks) + " " * max(0, CELL - 3 - plain)


def _centre_cell(state: Any, space: int, style: Style) -> tuple[str, str]:
    rs, rec = state.rs, state.record
    card = rec.centre[space]
    if card < 0:
        what = "empty"
    elif not rec.centre_up[space]:
        what = "face down"
    elif rec.centre_kind[space] == GOODS_DECK:
        what = f"goods {rs.goods_cards[card].id}"
    else:
        what = f"{rs.symbols[rs.tribe_cards[card].symbol]} {rs.tribe_cards[card].id}"
    top = f"c{space + 1} {what}"[:CELL - 1].ljust(CELL)
    owner = rec.markers[space]
    if owner < 0:
        return top, " " * CELL
    mark = f"marker P{owner + 1}"
    return top, "   " + style.paint(mark, SEAT_COLOURS[owner]) + " " * (CELL - 3 - len(mark))


def _square(state: Any, places: dict[int, tuple[int, int]], style: Style) -> list[str]:
    rs = state.rs
    side = len(rs.ring) // 4 + 1
    grid: list[list[tuple[str, str]]] = [[(" " * CELL, " " * CELL)] * side for _ in range(side)]
    for i, (c, r) in places.items():
        grid[r][c] = _ring_cell(state, i, style)
    columns = side - 2
    for space in range(columns * columns):
        grid[1 + space // columns][1 + space % columns] = _centre_cell(state, space, style)
    lines = []
    for r, row in enumerate(grid):
        for part in (0, 1):
            lines.append("".join(cell[part] for cell in row).rstrip())
        if r in (0, side - 2):
            lines.append("")
    return lines


def _display_row(rs: Any, row: list[int]) -> str:
    cards = [f"{rs.tribe_cards[c].id} {rs.symbols[rs.tribe_cards[c].symbol]}" for c in row]
    return ", ".join(cards + ["-"] * (rs.display_columns - len(row)))


def render_board(state: Any, record: Any = None, *, style: Style | None = None, viewer: int | None = None,
                 width: int = 80) -> str:
    """The ring as the printed square with the robber and the Targi, the centre inside it with the
    tribe markers and face-down cards, each face-up centre card spelled out, both players'
    supplies, stored gold, hand and display row by row with symbols, the piles.
    ``viewer``: the seat whose hand card may be shown (None: neither hand card is shown)."""
    style = style or Style(False)
    rs, rec = state.rs, state.record
    head = style.paint(f"Round {rec.round}", bold=True)
    if rec.robber >= 0:
        robber = rs.ring[rec.robber]
        head += f"  robber on {robber.number} {robber.name}"
    head += f"  amulet: player {rec.amulet + 1} (places first)"
    if rec.last_round and not rec.over:
        head += "  " + style.paint("last round", "yellow", bold=True)
    lines = [head]
    places = ring_square(rs)
    if places is not None:
        lines += _square(state, places, style)
    else:  # a ring of another shape: a list, four to a line
        ring = []
        for i, border in enumerate(rs.ring):
            owner = rec.figures[i]
            mark = ("R" if i == rec.robber else " ") + (str(owner + 1) if owner >= 0 else ".")
            ring.append(f"{border.number:>2}{mark} {border.name[:12]:<12}")
        lines += ["  ".join(ring[k:k + 4]) for k in range(0, len(ring), 4)]
        lines += [f"  {_centre_cell(state, s, style)[0].rstrip()}{_centre_cell(state, s, style)[1].rstrip()}"
                  for s in range(len(rec.centre))]
    up = [s for s, card in enumerate(rec.centre) if card >= 0 and rec.centre_up[s]]
    if up:
        lines.append("Centre cards:")
        lines += [f"  {centre_text(rs, rec, s)}" for s in up]
    for seat, side in enumerate(rec.sides):
        who = f"Player {seat + 1}" + (" (you)" if viewer == seat else "")
        name = style.paint(who, SEAT_COLOURS[seat], bold=True)
        hand = "no card"
        if side.hand >= 0:
            hand = tribe_text(rs, side.hand) if viewer == seat else "1 card"
        stored = f" (+{side.stored_gold} stored on a card)" if side.stored_gold else ""
        lines.append(f"{name}: {_goods(rs, side.goods)}, {side.gold} gold{stored}, {side.points} points;"
                     f" score now {state.scores()[seat]}")
        lines.append(f"  hand: {hand}; displayed {len(side.cards)} of {rs.display_size}")
        for r, row in enumerate(side.display):
            lines.append(f"  row {r + 1}: {_display_row(rs, row)}")
    lines.append(f"Piles: {len(rec.piles[0])} goods, {len(rec.piles[1])} tribe cards;"
                 f" discarded {len(rec.discards[0])} goods, {len(rec.discards[1])} tribe cards")
    return "\n".join(lines)


def render_end(state: Any, *, style: Style | None = None) -> str:
    style = style or Style(False)
    winners = state.winners()
    result = "a draw" if len(winners) != 1 else f"player {winners[0] + 1} wins"
    lines = [style.paint(f"Game over after round {state.round} ({state.end_reason}): {result}", bold=True)]
    for seat in range(2):
        parts = state.score_parts(seat)
        side = state.record.sides[seat]
        lines.append(f"Player {seat + 1}: {sum(parts.values())} points ("
                     + ", ".join(f"{k} {v}" for k, v in parts.items())
                     + f"); gold {side.gold}, goods {sum(side.goods)}")
    return "\n".join(lines)


class TableRecord:
    """What the table saw that a state does not keep: nothing for Targi."""

    def __init__(self, game: Any) -> None:
        self.game = game

    def observe(self, event: dict[str, Any]) -> None:
        """Targi's state keeps all a board needs."""


def narrate_event(event: dict[str, Any], hidden: frozenset[int] = frozenset(), rs: Any = None) -> str | None:
    """One line for an event (``rs``, the ruleset, names the border cards and symbols)."""
    kind = event["type"]
    if kind == "decision":
        return f"round {event['round']}: player {event['player'] + 1}: {event['action']}"
    if kind == "chance":
        return None if hidden else f"draw: {event['action']}"
    if kind == "display":
        card = f"card {event['card']}"
        if rs is not None:
            symbols = {c.id: rs.symbols[c.symbol] for c in rs.tribe_cards}
            card += f" ({symbols[event['card']]})" if event["card"] in symbols else ""
        return f"player {event['player'] + 1} displays {card}"
    if kind == "raid":
        number = event["border"]
        if rs is not None and 0 < number <= len(rs.ring):
            border = rs.ring[number - 1]
            return f"raid: {border.name} ({number}): {border.text}"
        return f"raid on border card {number}"
    if kind == "end":
        scores = " to ".join(str(n) for n in event["scores"].values())
        return f"the game ends ({event['reason']}): scores {scores}"
    return None


def narrator(game: Any) -> Callable[[dict[str, Any]], str | None]:
    rs = game.ruleset
    return lambda event: narrate_event(event, rs=rs)


class TableNarrator:
    """Events told at a table of people: draws are not told (a drawn card may go face down or to a hand)."""

    def __init__(self, game: Any, humans: frozenset[int]) -> None:
        self.game, self.humans = game, humans
        self.state: Any = None

    def __call__(self, event: dict[str, Any]) -> str | None:
        return narrate_event(event, frozenset({1}), self.game.ruleset)


HELP_ACTIONS = """ACTIONS (Targi)
A numbered menu lists the legal actions, each saying what it does; type
its number or its text. A border card by its name and number (`Dates (2)`:
place a Targi there, or act with it); a centre card by its space
(`centre 5: tribe card 213 (...)`: act with your tribe marker there);
`pay 1 date 1 gold` (a cost), `give 2 goods` (a raid), `give 3 goods for
1 gold` (an exchange), `row 2 (3 cards)`, `give salt`, `take salt`,
`leave out salt` (a discount), `keep in hand`, `discard`, `display my hand
card 213`, `pay 1 gold stored on a card`, `card 223 (oasis, row 1)`,
`choose 2` and `end my turn`. The older spellings (`border 2`, `space 5`,
`option 1`, `good salt`, `stop`) are read too. `board` draws the board
again, `menu` lists the actions again, `quit` leaves."""


class LeaveGame(Exception):
    """A person left the game."""


class Console:
    """People at a terminal: a numbered menu of the legal actions; the board as its seat may see it."""

    def __init__(self, game: Any, humans: frozenset[int], *, style: Style, record: Any,
                 echo: Callable[[str], None], read: Callable[[str], str | None], board: bool = True,
                 clear: Callable[[], None] | None = None) -> None:
        self.game, self.humans, self.style, self.echo, self.read = game, humans, style, echo, read
        self.board, self.clear = board, clear
        self.last_seat: int | None = None

    def observe(self, event: dict[str, Any]) -> None:
        """The console draws from the state."""

    def tell(self, line: str) -> None:
        self.echo(line)

    def decide(self, state: Any) -> str:
        seat = state.current_player()
        if len(self.humans) > 1 and self.last_seat is not None and self.last_seat != seat:
            # hot seat: the next player must not see this one's hand card
            if self.clear is not None:
                self.clear()
            self.read(f"Hand the keyboard to player {seat + 1} and press Enter ")
            if self.clear is not None:
                self.clear()
        self.last_seat = seat
        if self.board:
            self.echo(render_board(state, style=self.style, viewer=seat))
        legal = state.legal_actions()
        texts = [state.action_to_string(seat, a) for a in legal]
        self.echo(self.menu(state, seat, texts))
        while True:
            answer = self.read("> ")
            if answer is None or answer.strip() in ("quit", "q"):
                raise LeaveGame(f"player {seat + 1} left")
            answer = " ".join(answer.split())
            if answer.isdigit() and 1 <= int(answer) <= len(texts):
                return texts[int(answer) - 1]
            if answer in texts:
                return answer
            if answer == "board":
                self.echo(render_board(state, style=self.style, viewer=seat))
                continue
            if answer == "menu":
                self.echo(self.menu(state, seat, texts))
                continue
            if answer == "help":
                self.echo(HELP_ACTIONS)
                continue
            try:  # an action in the spelling of older logs (`border 2`, `option 1`)
                return texts[legal.index(state.actions_from_text(answer)[0])]
            except ValueError:
                self.echo("Type a number from the menu, an action as shown, `board`, `menu`, `help` or `quit`.")

    def menu(self, state: Any, seat: int, texts: list[str]) -> str:
        """What the decision is about, and its actions numbered, one a line."""
        head = self.style.paint(f"Player {seat + 1}", SEAT_COLOURS[seat], bold=True)
        lines = [f"{head}, {decision_prompt(state.rs, state.record)}:"]
        lines += [f"  {i + 1:>2}) {t}" for i, t in enumerate(texts)]
        return "\n".join(lines)

    def finish(self, state: Any) -> None:
        self.echo(render_end(state, style=self.style))
