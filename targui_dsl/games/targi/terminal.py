"""Targi at the terminal: the board as text, the end screen, one line per event, and a console
where people choose from a numbered menu (hot seat: the hand card is shown only to its owner)."""

from __future__ import annotations

from typing import Any, Callable

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


def render_board(state: Any, record: Any = None, *, style: Style | None = None, viewer: int | None = None,
                 width: int = 80) -> str:
    """The ring with the robber and the figures, the centre, both displays in rows, the supplies.
    ``viewer``: the seat whose hand card may be shown (None: neither hand is shown)."""
    style = style or Style(False)
    rs, rec = state.rs, state.record
    lines = [style.paint(f"Round {rec.round}", bold=True) + f"  amulet: player {rec.amulet + 1}"
             + f"  robber on {rec.robber + 1}" if rec.robber >= 0 else f"Round {rec.round}"]
    ring = []
    for i, border in enumerate(rs.ring):
        mark = "R" if i == rec.robber else " "
        owner = rec.figures[i]
        who = style.paint(str(owner + 1), SEAT_COLOURS[owner]) if owner >= 0 else "."
        ring.append(f"{border.number:>2}{mark}{who} {border.name[:12]:<12}")
    for k in range(0, len(ring), 4):
        lines.append("  ".join(ring[k:k + 4]))
    lines.append("Centre:")
    columns = len(rs.centre[0])
    for r in range(len(rs.centre)):
        cells = []
        for c in range(columns):
            space = r * columns + c
            card = rec.centre[space]
            if card < 0:
                text = "(empty)"
            elif not rec.centre_up[space]:
                text = "(face down)"
            elif rec.centre_kind[space] == 0:
                g = rs.goods_cards[card]
                text = f"goods {g.id}"
            else:
                t = rs.tribe_cards[card]
                text = f"{rs.symbols[t.symbol]} {t.id}"
            marker = rec.markers[space]
            text += f" [{marker + 1}]" if marker >= 0 else ""
            cells.append(f"{space + 1}:{text:<22}")
        lines.append("  " + " ".join(cells))
    for seat, side in enumerate(rec.sides):
        head = style.paint(f"Player {seat + 1}", SEAT_COLOURS[seat], bold=True)
        hand = "none"
        if side.hand >= 0:
            hand = str(rs.tribe_cards[side.hand].id) if viewer == seat else "one card"
        lines.append(f"{head}: {_goods(rs, side.goods)}, {side.gold} gold"
                     + (f" (+{side.stored_gold} on a card)" if side.stored_gold else "")
                     + f", {side.points} points; hand: {hand}; score now {state.scores()[seat]}")
        for r, row in enumerate(side.display):
            cards = ", ".join(f"{rs.tribe_cards[c].id} {rs.symbols[rs.tribe_cards[c].symbol]}" for c in row)
            lines.append(f"  row {r + 1}: {cards or '-'}")
    lines.append(f"Piles: {len(rec.piles[0])} goods, {len(rec.piles[1])} tribe")
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


def narrate_event(event: dict[str, Any], hidden: frozenset[int] = frozenset()) -> str | None:
    kind = event["type"]
    if kind == "decision":
        return f"round {event['round']}: player {event['player'] + 1}: {event['action']}"
    if kind == "chance":
        return None if hidden else f"draw: {event['action']}"
    if kind == "display":
        return f"player {event['player'] + 1} displays card {event['card']}"
    if kind == "raid":
        return f"raid on border card {event['border']}"
    if kind == "end":
        scores = " to ".join(str(n) for n in event["scores"].values())
        return f"the game ends ({event['reason']}): scores {scores}"
    return None


def narrator(game: Any) -> Callable[[dict[str, Any]], str | None]:
    return narrate_event


class TableNarrator:
    """Events told at a table of people: draws are not told (a drawn card may go face down or to a hand)."""

    def __init__(self, game: Any, humans: frozenset[int]) -> None:
        self.game, self.humans = game, humans
        self.state: Any = None

    def __call__(self, event: dict[str, Any]) -> str | None:
        return narrate_event(event, frozenset({1}))


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
            if self.clear is not None:
                self.clear()
            self.read(f"Hand the keyboard to player {seat + 1} and press Enter ")
        self.last_seat = seat
        if self.board:
            self.echo(render_board(state, style=self.style, viewer=seat))
        legal = state.legal_actions()
        texts = [state.action_to_string(seat, a) for a in legal]
        frame = state.record.stack[-1]
        what = frame["k"].replace("_", " ")
        if frame["k"] == "effect" and frame.get("what") == "border":  # a border card's choice: its card says what
            border = state.rs.ring[frame["card"]]
            what = f"{border.name} ({border.text})"
        self.echo(f"Player {seat + 1}, {what}: " + "  ".join(f"{i + 1}) {t}" for i, t in enumerate(texts)))
        while True:
            answer = self.read("> ")
            if answer is None or answer.strip() in ("quit", "q"):
                raise LeaveGame(f"player {seat + 1} left")
            answer = answer.strip()
            if answer.isdigit() and 1 <= int(answer) <= len(texts):
                return texts[int(answer) - 1]
            if answer in texts:
                return answer
            if answer == "board":
                self.echo(render_board(state, style=self.style, viewer=seat))
                continue
            self.echo("Type a number from the menu, an action as shown, `board` or `quit`.")

    def finish(self, state: Any) -> None:
        self.echo(render_end(state, style=self.style))
