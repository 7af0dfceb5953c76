"""Targui drawn as text, for `targui play` and `targui replay`: pure functions from a game
state to text, never touching a terminal (tested as strings).

:func:`render_board` (the round and its stack, the last (mis)fortune card, the
grid, the players, the legend), :func:`render_end` (the end screen: the result
and why), :func:`render_status` and :func:`render_fight` (one line each), and
:class:`TableRecord` (what the table has seen that the state does not keep).
The menu and the prompt are :mod:`targui_dsl.games.targui.console`'s.

What each person may know is the engine's business (docs/rules/targui.md section 8,
``state.observation(seat)``): the board of a human is drawn from their
seat's observation (hidden money reads `?`). With nobody to hide from (bots
only, or the end of the game) everything is shown.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from targui_dsl.frontend.text import visible
from targui_dsl.games.targui.colours import ANSI_COLOURS  # the one colour table (targui_dsl.games.targui.colours)
from targui_dsl.games.targui.labels import kind_labels
from targui_dsl.games.targui.observation import memory_shown
from targui_dsl.games.targui.ownership import how_it_ended

if TYPE_CHECKING:
    from targui_dsl.games.targui.game import Game
    from targui_dsl.games.targui.observation import Observation
    from targui_dsl.games.targui.state import GameState

# -- colour ------------------------------------------------------------------

def tribe_name(game: Game, seat: int) -> str:
    """A tribe's name as the ruleset wrote it, control characters made visible."""
    return visible(game.tribe_name(seat))


@dataclass(frozen=True)
class Style:
    """Paints text with ANSI codes, or leaves it alone (``colour=False``)."""

    colour: bool = False

    def paint(self, text: str, colour: str | None = None, bold: bool = False, dim: bool = False) -> str:
        if not self.colour:
            return text
        codes = ((["1"] if bold else []) + (["2"] if dim else [])
                 + ([str(ANSI_COLOURS.get(colour, 39))] if colour else []))
        return f"\x1b[{';'.join(codes)}m{text}\x1b[0m" if codes else text


PLAIN = Style(False)


# -- short names ---------------------------------------------------------------


def sector_labels(sector_ids: Sequence[str]) -> list[str]:
    """Two-letter sector tags: `north_west` -> `NW`, `east` -> `EA`; unique."""
    out: list[str] = []
    for i, sector_id in enumerate(sector_ids):
        words = [w for w in sector_id.replace("-", "_").split("_") if w]
        tag = "".join(w[0] for w in words[:2]) if len(words) > 1 else sector_id[:2]
        tag = tag.upper()
        if tag in out or not tag:
            tag = f"S{i + 1}"
        out.append(tag)
    return out


# -- what the table has seen ---------------------------------------------------


class TableRecord:
    """Public knowledge the state does not keep: the stack cards turned this round and the
    last (mis)fortune card. Feed it every log event (an ``EventLog`` listener)."""

    def __init__(self, game: Game) -> None:
        self.names = {t.id: visible(t.name) for t in game.ruleset.tribes}
        self.ruleset = game.ruleset
        self.turned: list[str] = []
        self.last_card: dict | None = None

    def observe(self, event: dict) -> None:
        kind = event["type"]
        if kind == "round":
            self.turned = []
        elif kind == "turn":
            self.turned.append(self.names.get(event["tribe"], event["tribe"]))
        elif kind == "card":
            self.turned.append(f"card {event['number']}")
            text = self.ruleset.card_text(event["card"])[1] or ""
            self.last_card = {"number": event["number"], "title": event["title"], "text": text}


# -- the board -----------------------------------------------------------------

CELL_WIDTH = 8


def phase_text(state: GameState) -> str:
    choice = state.choice()
    if choice is not None:  # the question as the ruleset wrote it (never a control character raw)
        return "a card or house rule asks you to " + visible(choice[1])
    return {
        "sector": "picking sectors", "deal": "dealing", "settle": "settling", "round_die": "the round die",
        "reveal": "revealing the stack", "move": "movement phase", "attack_die": "an attack",
        "defend_die": "an attack", "attack_choice": "an attack", "enter": "a conquest", "deposit": "movement phase",
        "move_count": "movement phase", "buy_cell": "adding phase", "buy_count": "adding phase", "over": "game over",
    }.get(state.phase_name, state.phase_name)


def _cell_text(state: GameState, cell: int, kinds: list[str], sectors: list[str], sector_of_cell: dict[int, int],
               settle_here: set[int], style: Style, width: int = CELL_WIDTH) -> tuple[str, str]:
    """The two lines (`width` wide, painted) of one board cell."""
    game = state.game
    position = game.position_of_cell[cell]
    kind = state.kind(cell)
    founder = next((s for s in range(game.players) if state.settlement(s) == cell), -1)
    label = "?  " if kind < 0 else kinds[kind]
    if founder >= 0:
        label = f"{label.strip()}#{founder + 1}"
    top = f"{position:>{width - 6}} {label}".ljust(width)[:width]
    owner = state.owner(cell)
    if kind >= 0 and not game.kind_passable[kind]:
        return top, style.paint("####".center(width), dim=True)
    if owner >= 0:
        bottom = f"[{owner + 1}]".ljust(width - 4) + f"{state.camels(cell):>4}"
        colour = game.ruleset.tribes[game.seat_tribes[owner]].colour
        return style.paint(top, colour), style.paint(bottom, colour, bold=True)
    if cell in settle_here:
        bottom = "*".center(width)
    elif state.round == 0 and cell in sector_of_cell:
        sector = sector_of_cell[cell]
        bottom = f"({sectors[sector]})".center(width)
        taker = next((s for s in range(game.players) if state.sector(s) == sector), -1)
        if taker >= 0:  # a sector picked by seat N shows as `(NE)N`, in N's colour
            bottom = style.paint(f"  ({sectors[sector]}){taker + 1}".ljust(width),
                                 game.ruleset.tribes[game.seat_tribes[taker]].colour)
    else:
        bottom = " " * width
    return top, bottom


def render_grid(state: GameState, style: Style = PLAIN, viewer: int | None = None) -> list[str]:
    """The board: one box per cell, position and kind on top, `[seat] camels` below."""
    game = state.game
    board = game.ruleset.board
    kinds = kind_labels(game.kind_ids)
    sectors = sector_labels(game.sector_ids)
    sector_of_cell: dict[int, int] = {}
    if game.picks_sectors:
        for i, cells in enumerate(game.sector_cells):
            for c in cells:
                sector_of_cell.setdefault(c, i)
    settle_here: set[int] = set()
    if state.phase_name == "settle" and (viewer is None or viewer == state.current_player()):
        settle_here = set(state.settle_cells())
    width = max(CELL_WIDTH, len(str(max(game.position_of_cell))) + 6)  # wider for 3-digit positions
    rule = "+" + "+".join("-" * width for _ in range(board.columns)) + "+"
    lines = [rule]
    for row in range(board.rows):
        tops, bottoms = [], []
        for col in range(board.columns):
            top, bottom = _cell_text(state, row * board.columns + col, kinds, sectors, sector_of_cell, settle_here,
                                     style, width)
            tops.append(top)
            bottoms.append(bottom)
        lines.append("|" + "|".join(tops) + "|")
        lines.append("|" + "|".join(bottoms) + "|")
        lines.append(rule)
    return lines


def render_board(state: GameState, record: TableRecord | None = None, *, style: Style = PLAIN,
                 viewer: int | None = None, width: int = 80) -> str:
    """The whole picture for one viewer: a seat, who sees what its observation shows
    (others' hidden money as `?`), or None for everybody (bots only, the end)."""
    game = state.game
    ruleset = game.ruleset
    out: list[str] = []
    # The round and the stack.
    if state.round == 0:
        head = f"{ruleset.id}: setup, {phase_text(state)}"
    else:
        head = f"{ruleset.id}: round {state.round} of {ruleset.rounds}"
        if state.round_die:
            head += f", die {state.round_die}" + (": double turns" if state.double_turn else "")
        head += f", {phase_text(state)}"
    out.append(style.paint(head, bold=True))
    deck = state.deck_left()
    facts = [f"deck {deck} card{'s' if deck != 1 else ''}", f"camels in the box {state.camels_in_box}"]
    for hook in ruleset.hooks["before_levy"]:
        # The rule as the ruleset wrote it (updated-treasury: all cash in hand is lost).
        text = " ".join(hook.source.split())
        facts.append(f"before the levy: {visible(text if len(text) <= 60 else text[:57] + '...')}")
    out.append("  " + ", ".join(facts))
    if state.round > 0 and not state.is_terminal():
        turns = [state.tribal_cards_left(s) for s in range(game.players)]
        left = sum(turns) + state.fortune_cards_left()
        parts = [f"{tribe_name(game, s)} {n}" for s, n in enumerate(turns) if n]
        if state.fortune_cards_left():
            parts.append(f"(mis)fortune {state.fortune_cards_left()}")
        stack = f"  stack: {left} card{'s' if left != 1 else ''} left" + (f" ({', '.join(parts)})" if parts else "")
        if record is not None and record.turned:
            stack += "; turned: " + ", ".join(record.turned)
        out.extend(textwrap.wrap(stack, width, subsequent_indent="    ") or [stack])
    if record is not None and record.last_card is not None:
        card = record.last_card
        text = (f"  last (mis)fortune card: {card['number']} {visible(card['title'])}"
                + (f": {visible(card['text'])}" if card["text"] else ""))
        out.extend(textwrap.wrap(text, width, subsequent_indent="    "))
    # The grid.
    out.extend(render_grid(state, style, viewer))
    # The players.
    out.extend(render_players(state, style=style, viewer=viewer))
    # The legend.
    kinds = kind_labels(game.kind_ids)
    legend = [f"{label.strip()}: {visible(k.name)} {state.kind_economic(k.index)}/{state.kind_strategic(k.index)}"
              + ("" if k.passable else " impassable") for label, k in zip(kinds, ruleset.kinds, strict=True)]
    out.extend(_wrap_items("kinds (economic/strategic now): ", legend, width))
    marks = ["[N] owner (seat N) and camels", "#N seat N's settlement", "#### impassable"]
    if any(state.kind(c) < 0 for c in range(game.cells)):
        marks.append("? not dealt yet")
    if state.round == 0 and game.picks_sectors:
        picked = {state.sector(seat): seat for seat in range(game.players) if state.sector(seat) >= 0}
        marks += [f"({t}) {s}" + (f" picked by {picked[i] + 1}" if i in picked else "")
                  for i, (t, s) in enumerate(zip(sector_labels(game.sector_ids), game.sector_ids, strict=True))]
    if state.phase_name == "settle" and (viewer is None or viewer == state.current_player()):
        marks.append("* where you may settle")
    out.extend(_wrap_items("", marks, width))
    return "\n".join(out)


# -- the end ---------------------------------------------------------------------


def _and(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def end_explanation(state: GameState) -> tuple[list[str], list[str]]:
    """Why the game ended as it did: (how the winners were decided, who could not win and why).

    The engine decides (``winners()``: the last player owning territory, else
    the highest score among those who may win, then the ruleset's tie-breaks
    in order); this retraces that decision from ``scores()`` and
    ``tie_break_values()`` to name the rule that settled it.
    """
    game = state.game
    ruleset = game.ruleset
    scores, ties, winners = state.scores(), state.tie_break_values(), state.winners()
    names = [tribe_name(game, s) for s in range(game.players)]
    rules = [visible(" ".join(tb.source.split())) for tb in ruleset.tie_breaks]
    barred: list[str] = []
    for seat in range(game.players):
        if seat in winners:
            continue
        if not state.in_game(seat):
            barred.append(f"{names[seat]} is out of the game (no territory left)")
        elif not state.may_win(seat) and state.end_reason != "last_standing":
            where = state.settlement(seat)
            at = f" ({game.position_of_cell[where]})" if where >= 0 else ""
            barred.append(f"{names[seat]} lost their own settlement{at}, and who does not hold it cannot win")
    how: list[str] = []
    if state.end_reason == "last_standing":
        who = _and([names[s] for s in winners])
        how.append(f"Only {who} still {'own' if len(winners) > 1 else 'owns'} territory: {who} "
                   f"{'win' if len(winners) > 1 else 'wins'}, whatever the scores.")
        return how, barred
    eligible = [s for s in range(game.players) if state.may_win(s)]
    if not eligible:
        how.append("Nobody holds their own settlement: a draw between the players still in the game.")
        return how, barred
    best = max(scores[s] for s in eligible)
    tied = [s for s in eligible if scores[s] == best]
    if len(tied) == 1:
        runner = max((scores[s] for s in eligible if s != tied[0]), default=None)
        how.append(f"Decided by the score: {names[tied[0]]} {best}"
                   + (f", the next {runner}." if runner is not None else "."))
    else:
        how.append(f"{_and([names[s] for s in tied])} scored {best} each: the ruleset's tie-breaks decide, "
                   f"in order." if rules else f"{_and([names[s] for s in tied])} scored {best} each.")
        for i, rule in enumerate(rules):
            top = max(ties[s][i] for s in tied)
            values = ", ".join(f"{names[s]} {ties[s][i]}" for s in tied)
            ahead = [s for s in tied if ties[s][i] == top]
            if len(ahead) < len(tied):
                how.append(f"Tie-break {i + 1}, {rule}: {values}; decided for {_and([names[s] for s in ahead])}.")
                tied = ahead
                if len(tied) == 1:
                    break
            else:
                how.append(f"Tie-break {i + 1}, {rule}: {values}; still equal.")
        if len(tied) > 1:
            how.append("Still equal after every tie-break: a draw.")
    return how, barred


def render_end(state: GameState, *, style: Style = PLAIN) -> str:
    """The end screen: the result once, each seat's score and tie-break values, which rule
    decided, and who could not win and why."""
    game = state.game
    winners = state.winners()
    names = [tribe_name(game, s) for s in range(game.players)]
    result = f"a draw between {_and([names[s] for s in winners])}" if state.is_draw() else f"{names[winners[0]]} wins"
    how = visible(how_it_ended(state.end_reason or ""))
    out = [style.paint(f"Game over after round {state.round} ({how}): {result}.", bold=True)]
    rules = [visible(" ".join(tb.source.split())) for tb in game.ruleset.tie_breaks]
    heads = ["score"] + [f"tie-break {i}: {rule}" for i, rule in enumerate(rules, 1)]
    name_width = max(len(n) for n in names) + 2
    out.append(style.paint(f"    {'':<{name_width}}  " + "  ".join(heads), dim=True))
    scores, ties = state.scores(), state.tie_break_values()
    for seat in range(game.players):
        values = [scores[seat], *ties[seat]]
        mark = "*" if seat in winners else " "
        colour = game.ruleset.tribes[game.seat_tribes[seat]].colour
        cells = "  ".join(f"{v:>{len(h)}}" for v, h in zip(values, heads, strict=True))
        out.append(f"  {mark} " + style.paint(f"{seat + 1} {names[seat]:<{name_width - 2}}", colour) + f"  {cells}")
    explained, barred = end_explanation(state)
    out.extend(explained)
    if barred:
        out.append("Could not win:")
        out.extend(f"  {why}" for why in barred)
    return "\n".join(out)


def _wrap_items(prefix: str, items: Sequence[str], width: int) -> list[str]:
    """`prefix` and the items joined by commas, wrapped between items where possible."""
    lines, line, fresh = [], prefix, True
    for i, item in enumerate(items):
        text = item + ("," if i < len(items) - 1 else "")
        if not fresh and len(line) + 1 + len(text) > width:
            lines.append(line)
            line, fresh = "  ", True
        line += ("" if fresh else " ") + text
        fresh = False
    lines.append(line)
    return lines


def seen_by(state: GameState, viewer: int | None) -> GameState | Observation:
    """What ``viewer`` sees of the state: its seat's observation (hidden money reads None),
    or the state itself for None (everybody: a game of bots)."""
    return state if viewer is None else state.observation(viewer)


def _money(value: int | None) -> str:
    return "?" if value is None else str(value)


def render_players(state: GameState, *, style: Style = PLAIN, viewer: int | None = None) -> list[str]:
    """One line per seat: cash and treasury (as the viewer observes them), camels, territories, settlement."""
    game = state.game
    view = seen_by(state, viewer)
    treasury = game.ruleset.treasury
    names = [tribe_name(game, s) for s in range(game.players)]
    name_width = max(len(n) for n in names) + (6 if viewer is not None else 0)
    current = state.current_player()
    wheres = []
    for seat in range(game.players):
        settlement = state.settlement(seat)
        where = "-" if settlement < 0 else str(game.position_of_cell[settlement])
        if settlement >= 0 and not state.holds_own_settlement(seat):
            where += " lost"
        if not state.in_game(seat):
            where += " (out)"
        wheres.append(where)
    # as wide as the longest entry (`29 lost (out)`), so the columns after it stay in line
    where_width = max(len("settlement"), *(len(w) for w in wheres))
    header = f"  {'seat':<{name_width + 2}} {'cash':>5}" + (f" {'treasury':>8}" if treasury else "") + \
        f" {'camels':>6} {'land':>4}  {'settlement':<{where_width}}  turns left"
    lines = [style.paint(header, dim=True)]
    for seat in range(game.players):
        colour = game.ruleset.tribes[game.seat_tribes[seat]].colour
        name = names[seat] + (" (you)" if seat == viewer else "")
        marker = ">" if seat == current else " "
        money = f" {_money(view.cash(seat)):>5}"
        if treasury:
            money += f" {_money(view.treasury(seat)):>8}"
        turns = str(state.tribal_cards_left(seat)) if state.round > 0 and not state.is_terminal() else "-"
        label = style.paint(f"{seat + 1} {name:<{name_width}}", colour, bold=seat == viewer)
        lines.append(f"{marker} {label}{money} {state.player_camels(seat):>6} {len(state.cells_of(seat)):>4}"
                     f"  {wheres[seat]:<{where_width}}  {turns:>10}")
    if game.memory:  # the ruleset's memory: public values and the viewer's own (`name[seat]=value`)
        lines.extend(_wrap_items("  memory: ", memory_shown(state.record, viewer), 80))
    return lines


def render_status(state: GameState, *, viewer: int | None = None) -> str:
    """One line instead of the board (`--no-board`): round, phase and the viewer's holdings."""
    game = state.game
    parts = [f"round {state.round}" if state.round else "setup", phase_text(state)]
    if viewer is not None:
        view = seen_by(state, viewer)
        parts.append(f"cash {_money(view.cash(viewer))}")
        if game.ruleset.treasury:
            parts.append(f"treasury {_money(view.treasury(viewer))}")
        parts.append(f"camels {state.player_camels(viewer)}, territories {len(state.cells_of(viewer))}")
    return "; ".join(parts)


def render_fight(state: GameState) -> str:
    """A running attack in one line (between throws, and when entering a taken cell)."""
    game = state.game
    fight = state.attack()
    if fight is None:
        return ""
    source, target = fight
    pos = game.position_of_cell
    if state.phase_name == "enter":
        return (f"  {pos[target]} is taken: move 1..{state.camels(source)} camels in from {pos[source]}"
                f" (`enter N`)")
    defender = state.owner(target)
    who = tribe_name(game, defender) if defender >= 0 else "nobody"
    return (f"  attack {pos[source]} -> {pos[target]}: your {state.camels(source)} camels against "
            f"{who}'s {state.camels(target)}; `again` throws again, `give up` ends the attack")
