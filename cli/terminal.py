"""The terminal side of `targui play` with people at the table.

Two halves:

* pure functions from a game state to text: :func:`render_board` (the
  grid, the players, the round and its stack, the last (mis)fortune card),
  :func:`group_actions` and :func:`render_menu` (the legal actions as a
  numbered, compact menu), :func:`interpret` (what a line typed at the
  prompt means). They never touch a terminal and are tested as strings;
* :class:`Console`, which reads a human's input and writes the board and
  menus, with its reader and writer injectable.

What each person may know is the engine's business (docs/rules/targui.md section 8,
``state.observation(seat)``): the board of a human is drawn from their
seat's :class:`~targui_dsl.engine.Observation` (hidden money reads `?`),
and :class:`TableNarrator` leaves out of the told lines whatever one of the
humans at the table may not see (a deposit's amount, cash a card or the
round's end takes). With nobody to hide from (bots only, or the end of the
game) everything is shown. In hot-seat play the :class:`Console` clears the
screen and asks for the keyboard to be handed over between two humans.
"""

from __future__ import annotations

import shutil
import textwrap
from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence

from targui_cli.common import COLOUR_MODES, want_colour  # noqa: F401 - the one colour policy, used by play
from targui_cli.syntax import ACTION_VERBS, action_syntax_lines
from targui_dsl.frontend.text import visible
from targui_dsl.gamelog.events import Narrator
from targui_dsl.games.targui.actions import IllegalAction
from targui_dsl.games.targui.colours import ANSI_COLOURS  # the one colour table (targui_dsl.games.targui.colours)
from targui_dsl.games.targui.labels import kind_labels  # noqa: F401 - the one home of kind labels
from targui_dsl.games.targui.phases import Phase

# -- colour ------------------------------------------------------------------

#: Home, clear the screen, clear the scrollback: what one human saw and typed is gone.
CLEAR_SCREEN = "\x1b[H\x1b[2J\x1b[3J"


def _tribe(game, seat: int) -> str:
    """A tribe's name as the ruleset wrote it, control characters made visible."""
    return visible(game.tribe_name(seat))


@dataclass(frozen=True)
class Style:
    """Paints text with ANSI codes, or leaves it alone (``colour=False``)."""

    colour: bool = False

    def paint(self, text: str, colour: str | None = None, bold: bool = False, dim: bool = False) -> str:
        if not self.colour:
            return text
        codes = (["1"] if bold else []) + (["2"] if dim else []) + ([str(ANSI_COLOURS.get(colour, 39))] if colour else [])
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

    def __init__(self, game):
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


class TableNarrator:
    """The engine's :class:`Narrator`, minus what a human at the table may not see.

    Every told line is read by every human at the keyboard, so an amount is
    told only when each of them observes it (``state.observation(h)``, docs/rules/targui.md
    section 8): otherwise a deposit is told without its amount, and a card's
    or the round's end's change to hidden cash or treasury is left out. Set
    ``state`` once the game exists (events of the setup hold no money).
    """

    def __init__(self, game, humans: Iterable[int], state=None):
        self.narrator = Narrator(game)
        self.game = game
        self.names = {t.id: visible(t.name) for t in game.ruleset.tribes}
        self.humans = frozenset(humans)
        self.state = state

    def _hidden(self, tribe: str, what: str) -> bool:
        """Whether some human may not see ``what`` (`cash` or `treasury`) of the seat of ``tribe``."""
        if not self.humans:
            return False
        seat = self.game.tribe_ids.index(tribe) if tribe in self.game.tribe_ids else -1
        if self.state is None or seat < 0:
            return True
        return any(getattr(self.state.observation(h), what)(seat) is None for h in self.humans)

    def __call__(self, event: dict) -> str | None:
        kind = event["type"]
        if kind == "end":
            return None  # the end screen (render_end) tells the result, once
        if kind == "decision" and event["action"].split()[0] == "deposit" and self._hidden(event["tribe"], "treasury"):
            return f"    {self.names.get(event['tribe'], event['tribe'])}: puts silver into the treasury"
        if kind == "card":
            changes = dict(event["changes"])
            hidden = []  # the card changed these, by amounts not everyone at the keyboard may know
            for what in ("cash", "treasury"):
                told = changes.get(what, {})
                hidden += [f"{self.names.get(t, t)} {what} ?" for t in told if self._hidden(t, what)]
                changes[what] = {t: v for t, v in told.items() if not self._hidden(t, what)}
            line = self.narrator({**event, "changes": changes})
            if hidden and line is not None:
                line = (line[:-len("no effect")] if line.endswith(": no effect") else line + "; ") + "; ".join(hidden)
            return line
        if kind == "round_end":
            event = {**event, "cash_lost": {t: n for t, n in event["cash_lost"].items() if not self._hidden(t, "cash")}}
        return self.narrator(event)


# -- the board -----------------------------------------------------------------

CELL_WIDTH = 8


def _phase_text(state) -> str:
    return {
        "sector": "picking sectors", "deal": "dealing", "settle": "settling", "round_die": "the round die",
        "reveal": "revealing the stack", "move": "movement phase", "attack_die": "an attack",
        "defend_die": "an attack", "attack_choice": "an attack", "enter": "a conquest", "deposit": "movement phase",
        "move_count": "movement phase", "buy_cell": "adding phase", "buy_count": "adding phase", "over": "game over",
    }.get(state.phase_name, state.phase_name)


def _cell_text(state, cell: int, kinds: list[str], sectors: list[str], sector_of_cell: dict[int, int],
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


def render_grid(state, style: Style = PLAIN, viewer: int | None = None) -> list[str]:
    """The board: one box per cell, position and kind on top, `[seat] camels` below."""
    game = state.game
    board = game.ruleset.board
    kinds = kind_labels(game.kind_ids)
    sectors = sector_labels(game.sector_ids)
    sector_of_cell = {}
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


def render_board(state, record: TableRecord | None = None, *, style: Style = PLAIN, viewer: int | None = None,
                 width: int = 80) -> str:
    """The whole picture for one viewer: a seat, who sees what its observation shows
    (others' hidden money as `?`), or None for everybody (bots only, the end)."""
    game = state.game
    ruleset = game.ruleset
    out: list[str] = []
    # The round and the stack.
    if state.round == 0:
        head = f"{ruleset.id}: setup, {_phase_text(state)}"
    else:
        head = f"{ruleset.id}: round {state.round} of {ruleset.rounds}"
        if state.round_die:
            head += f", die {state.round_die}" + (": double turns" if state.double_turn else "")
        head += f", {_phase_text(state)}"
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
        parts = [f"{_tribe(game, s)} {n}" for s, n in enumerate(turns) if n]
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
              + ("" if k.passable else " impassable") for label, k in zip(kinds, ruleset.kinds)]
    out.extend(_wrap_items("kinds (economic/strategic now): ", legend, width))
    marks = ["[N] owner (seat N) and camels", "#N seat N's settlement", "#### impassable"]
    if any(state.kind(c) < 0 for c in range(game.cells)):
        marks.append("? not dealt yet")
    if state.round == 0 and game.picks_sectors:
        picked = {state.sector(seat): seat for seat in range(game.players) if state.sector(seat) >= 0}
        marks += [f"({t}) {s}" + (f" picked by {picked[i] + 1}" if i in picked else "")
                  for i, (t, s) in enumerate(zip(sector_labels(game.sector_ids), game.sector_ids))]
    if state.phase_name == "settle" and (viewer is None or viewer == state.current_player()):
        marks.append("* where you may settle")
    out.extend(_wrap_items("", marks, width))
    return "\n".join(out)


# -- the end ---------------------------------------------------------------------


def _and(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def end_explanation(state) -> tuple[list[str], list[str]]:
    """Why the game ended as it did: (how the winners were decided, who could not win and why).

    The engine decides (``winners()``: the last player owning territory, else
    the highest score among those who may win, then the ruleset's tie-breaks
    in order); this retraces that decision from ``scores()`` and
    ``tie_break_values()`` to name the rule that settled it.
    """
    game = state.game
    ruleset = game.ruleset
    scores, ties, winners = state.scores(), state.tie_break_values(), state.winners()
    names = [_tribe(game, s) for s in range(game.players)]
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


def render_end(state, *, style: Style = PLAIN) -> str:
    """The end screen: the result once, each seat's score and tie-break values, which rule
    decided, and who could not win and why."""
    game = state.game
    winners = state.winners()
    names = [_tribe(game, s) for s in range(game.players)]
    result = f"a draw between {_and([names[s] for s in winners])}" if state.is_draw() else f"{names[winners[0]]} wins"
    how = "only one player owns territory" if state.end_reason == "last_standing" else "the deck ran out"
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
        cells = "  ".join(f"{v:>{len(h)}}" for v, h in zip(values, heads))
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


def seen_by(state, viewer: int | None):
    """What ``viewer`` sees of the state: its seat's observation (hidden money reads None),
    or the state itself for None (everybody: a game of bots)."""
    return state if viewer is None else state.observation(viewer)


def _money(value: int | None) -> str:
    return "?" if value is None else str(value)


def render_players(state, *, style: Style = PLAIN, viewer: int | None = None) -> list[str]:
    """One line per seat: cash and treasury (as the viewer observes them), camels, territories, settlement."""
    game = state.game
    view = seen_by(state, viewer)
    treasury = game.ruleset.treasury
    names = [_tribe(game, s) for s in range(game.players)]
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
    return lines


def render_status(state, *, viewer: int | None = None) -> str:
    """One line instead of the board (`--no-board`): round, phase and the viewer's holdings."""
    game = state.game
    parts = [f"round {state.round}" if state.round else "setup", _phase_text(state)]
    if viewer is not None:
        view = seen_by(state, viewer)
        parts.append(f"cash {_money(view.cash(viewer))}")
        if game.ruleset.treasury:
            parts.append(f"treasury {_money(view.treasury(viewer))}")
        parts.append(f"camels {state.player_camels(viewer)}, territories {len(state.cells_of(viewer))}")
    return "; ".join(parts)


def render_fight(state) -> str:
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
    who = _tribe(game, defender) if defender >= 0 else "nobody"
    return (f"  attack {pos[source]} -> {pos[target]}: your {state.camels(source)} camels against "
            f"{who}'s {state.camels(target)}; `again` throws again, `give up` ends the attack")


# -- the menu --------------------------------------------------------------------


@dataclass(frozen=True)
class MenuItem:
    """A numbered menu entry: a readable action, with ``{n}`` where a count goes when the
    action takes one (`move 12 13 {n}` for 1..7)."""

    text: str
    low: int = 0
    high: int = 0

    @property
    def ranged(self) -> bool:
        return "{n}" in self.text and self.low < self.high

    @property
    def counts(self) -> range:
        return range(self.low, self.high + 1)

    def with_count(self, count: int) -> str | None:
        if "{n}" not in self.text or not self.low <= count <= self.high:
            return None
        return self.text.replace("{n}", str(count))

    @property
    def action(self) -> str:
        """The action of an entry that is not ranged."""
        return self.text.replace("{n}", str(self.low))

    @property
    def label(self) -> str:
        return self.text.replace("{n}", f"{self.low}..{self.high}") if self.ranged else self.action


def group_actions(state) -> list[MenuItem]:
    """The current decision's legal actions as menu items, whole decisions rather than
    steps: a move pair with its count range (`move 12 13 1..7`), a cell to buy on with
    what may be bought (`buy 1..9 on 12`). The engine's order, but places to settle by
    position number and `pass` last, as a person reads a menu."""
    game = state.game
    pos = game.position_of_cell
    space = game.actions
    phase = state.phase
    items: list[MenuItem] = []
    if phase == Phase.DEPOSIT:
        low, high = state.count_range()
        items.append(MenuItem("deposit {n}", max(1, low), high))
        after = state.clone()
        after.apply_action("deposit 0")  # what follows depositing nothing: the movement phase
        return items + group_actions(after)
    if phase == Phase.SETTLE:
        cells = sorted(state.settle_cells(), key=pos.__getitem__)
        return [MenuItem(f"settle {pos[cell]}") for cell in cells]
    if phase in (Phase.MOVE_COUNT, Phase.ENTER, Phase.BUY_COUNT):
        low, high = state.count_range()
        verb = "enter" if phase == Phase.ENTER else "count"
        return [MenuItem(verb + " {n}", low, high)]
    for action in state.legal_actions():
        if space.is_pair(action):
            source, target = space.pair_of(action)
            if state.defended(target):
                items.append(MenuItem(f"attack {pos[source]} {pos[target]}"))
            else:
                items.append(MenuItem(f"move {pos[source]} {pos[target]} {{n}}", 1, state.camels(source)))
        elif phase == Phase.BUY_CELL and space.is_cell(action):
            items.append(MenuItem(f"buy {{n}} on {pos[space.cell_of(action)]}", 1, state.buy_limit()))
        else:
            items.append(MenuItem(state.action_to_string(action)))
    return [item for item in items if item.text != "pass"] + [item for item in items if item.text == "pass"]


def render_menu(items: Sequence[MenuItem], width: int = 80) -> str:
    """The items numbered from 1, in as many columns as fit."""
    cells = [f"{i:>3}) {item.label}" for i, item in enumerate(items, 1)]
    if not cells:
        return ""
    column = max(len(c) for c in cells) + 2
    per_row = max(1, min(len(cells), width // column))
    rows = -(-len(cells) // per_row)
    lines = []
    for r in range(rows):
        row = [cells[c * rows + r] for c in range(per_row) if c * rows + r < len(cells)]  # column-major
        lines.append("".join(text.ljust(column) for text in row).rstrip())
    return "\n".join(lines)


# -- reading the prompt ------------------------------------------------------------

HELP_TEXT = "\n".join([
    "Type the number of a menu entry, or an action as text:",
    *action_syntax_lines(),
    "A menu entry with a range (`move 12 13 1..7`): type its number and then how many, or",
    "both at once (`4 7`), or the action itself (`move 12 13 7`).",
    "Positions are the numbers on the board. Also:",
    "  board                 draw the board again",
    "  menu                  show the choices again",
    "  help                  this text",
    "  quit                  leave the game (Ctrl-D too; Ctrl-C interrupts); the log is kept",
])


@dataclass(frozen=True)
class Reply:
    """What a line typed at the prompt asks for: an action, a command, a count for an
    item (`ask`), or nothing but a message (why the input was not taken)."""

    action: str | None = None  # a readable action, checked against the state
    command: str | None = None  # "help", "board", "menu", "quit"
    ask: MenuItem | None = None
    message: str | None = None


COMMANDS = {"help": "help", "?": "help", "h": "help", "board": "board", "b": "board", "menu": "menu",
            "m": "menu", "list": "menu", "quit": "quit", "q": "quit", "exit": "quit"}


def interpret(text: str, state, menu: Sequence[MenuItem]) -> Reply:
    """Read one line typed at a decision: a menu number (`3`, `3 5`), a command, or an action."""
    text = text.strip()
    if not text:
        return Reply(command="menu")
    command = COMMANDS.get(text.lower())
    if command:
        return Reply(command=command)
    words = text.split()
    if len(menu) == 1 and menu[0].ranged and len(words) == 1 and words[0].isdigit():
        return interpret_count(words[0], menu[0])  # a count is all there is to choose: the number is it
    if words[0].isdigit():
        number = int(words[0])
        if not 1 <= number <= len(menu):
            return Reply(message=f"there is no choice {number}: pick 1..{len(menu)}, or type an action (`help`)")
        item = menu[number - 1]
        if len(words) == 1:
            return Reply(ask=item) if item.ranged else Reply(action=item.action)
        if len(words) == 2 and item.ranged:
            return interpret_count(words[1], item)
        return Reply(message=f"`{text}`: type {number} alone" + (f", or {number} and how many" if item.ranged else ""))
    verb = "give up" if [w.lower() for w in words[:2]] == ["give", "up"] else words[0].lower()
    if verb not in ACTION_VERBS:
        here = list(dict.fromkeys(item.text.split()[0] for item in menu))  # the verbs of this decision
        return Reply(message=f"`{text}`: unknown action `{words[0]}`"
                             + (f"; here: {', '.join(here)}" if here else "") + " (`help` shows every action)")
    try:
        state.actions_from_text(text)  # checks every step without taking any
    except IllegalAction as err:
        return Reply(message=f"`{text}`: {err}")
    return Reply(action=text)


def interpret_count(text: str, item: MenuItem) -> Reply:
    """The answer to `how many?` for a ranged menu item."""
    text = text.strip()
    span = f"{item.low}..{item.high}"
    if not text:
        return Reply(command="menu")
    if text.lower() in ("all", "max"):
        return Reply(action=item.with_count(item.high))
    try:
        count = int(text)
    except ValueError:
        return Reply(message=f"`{text}` is not a number: {item.label} takes {span}")
    action = item.with_count(count)
    if action is None:
        return Reply(message=f"{count} is out of range: {item.label} takes {span}")
    return Reply(action=action)


class LeaveGame(Exception):
    """A human left the game: end of input or `quit`."""


@dataclass
class Console:
    """Humans at the terminal: draws what they may see and reads their decisions.

    ``echo`` writes a line, ``read`` reads one with a prompt (``input`` by default:
    raises EOFError at end of input, KeyboardInterrupt on Ctrl-C). Register
    :meth:`observe` as a log listener so the board is redrawn only when something
    happened since it was last drawn.
    """

    game: object
    humans: frozenset
    style: Style = PLAIN
    record: TableRecord | None = None
    echo: Callable[[str], None] = print
    read: Callable[[str], str] = input
    board: bool = True
    width: int | None = None
    #: clears the screen and its scrollback (hot seat on a terminal; None: it cannot be cleared)
    clear: Callable[[], None] | None = None
    dirty: bool = field(default=True, init=False)
    last_human: int | None = field(default=None, init=False)  # the seat of the last human who decided
    told: list = field(default_factory=list, init=False)  # lines told since the last hand-over

    def tell(self, line: str) -> None:
        """A told line (already free of what any human may not see): shown now, and again
        to the next human after a hand-over cleared the screen."""
        self.echo(line)
        if len(self.humans) > 1:
            self.told.append(line)

    def hand_over(self, seat: int) -> None:
        """Hot seat: clear what the last human saw and typed, wait for the next one, then
        tell them what happened since."""
        if self.clear is not None:
            self.clear()
        self._ask(f"Pass the keyboard to {_tribe(self.game, seat)} (seat {seat + 1}), then press Enter ")
        if self.clear is not None:
            self.clear()
        if self.told:  # what the last screen showed, since the keyboard came to the last human
            self.echo(f"Since {_tribe(self.game, self.last_human)} took the keyboard:")  # type: ignore[arg-type]
            for line in self.told:
                self.echo(line)
        self.told = []
        self.dirty = True  # this human has not seen the board yet

    def _width(self) -> int:
        return self.width or max(60, min(120, shutil.get_terminal_size((80, 24)).columns))

    def observe(self, event: dict) -> None:
        """Log listener: note that the board changed. A throw, or a human's own deposit, pass
        or choice in a fight, does not count: those are shown in a line, not a new board."""
        kind = event["type"]
        if kind in ("fight", "chance", "header"):
            return
        if (kind == "decision" and event["player"] in self.humans
                and event["action"].split()[0] in ("deposit", "pass", "again", "give")):
            return
        self.dirty = True

    def draw(self, state, viewer: int | None) -> None:
        self.echo(render_board(state, self.record, style=self.style, viewer=viewer, width=self._width()))
        self.dirty = False

    def decide(self, state) -> str:
        """Ask the human to play for the current seat until a legal action is given."""
        seat = state.current_player()
        if self.last_human is not None and seat != self.last_human:
            self.hand_over(seat)
        self.last_human = seat
        name = _tribe(self.game, seat)
        phase = state.phase_name
        in_fight = phase in ("attack_choice", "enter")
        if in_fight:
            self.echo(render_fight(state))
        elif self.board and self.dirty:
            self.draw(state, seat)
        else:
            self.echo("  " + render_status(state, viewer=seat))
        menu = group_actions(state)
        self.echo(self.style.paint(f"{name} (seat {seat + 1}), {_phase_text(state)}:", bold=True))
        self.echo(render_menu(menu, self._width()))
        prompt = f"{name} [{seat + 1}]> "
        while True:
            reply = interpret(self._ask(prompt), state, menu)
            while reply.ask is not None:  # a ranged entry: ask how many until answered or abandoned
                item = reply.ask
                reply = interpret_count(self._ask(f"{item.label}: how many? ({item.low}..{item.high}, "
                                                  f"empty to go back) "), item)
                if reply.message is not None:
                    self.echo(reply.message)
                    reply = Reply(ask=item)
            if reply.action is not None:
                return reply.action
            if reply.message is not None:
                self.echo(reply.message)
            elif reply.command == "help":
                self.echo(HELP_TEXT)
            elif reply.command == "board":
                self.draw(state, seat)
                if in_fight:
                    self.echo(render_fight(state))
                self.echo(render_menu(menu, self._width()))  # the board pushed the menu off the screen
            elif reply.command == "menu":
                self.echo(render_menu(menu, self._width()))
            elif reply.command == "quit":
                raise LeaveGame("quit")

    def _ask(self, prompt: str) -> str:
        try:
            return self.read(prompt)
        except EOFError:
            raise LeaveGame("end of input") from None

    def finish(self, state) -> None:
        """The end of the game: the board with everything revealed (unless boards are off),
        then the end screen."""
        if self.board:
            self.draw(state, None)
        self.echo(render_end(state, style=self.style))
