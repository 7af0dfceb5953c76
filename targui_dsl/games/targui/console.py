"""People at the terminal in a game of Targui (`targui play --human`): the menu, the prompt
and the hot seat.

:func:`group_actions` and :func:`render_menu` (the legal actions as a
numbered, compact menu) and :func:`interpret` (what a line typed at the
prompt means) are pure and tested as strings; :class:`Console` reads a
human's input and writes the board and menus, with its reader and writer
injectable. :class:`TableNarrator` leaves out of the told lines whatever one
of the humans at the table may not see (a deposit's amount, cash a card or
the round's end takes; docs/rules/targui.md section 8). In hot-seat play the
:class:`Console` clears the screen and asks for the keyboard to be handed
over between two humans.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

from targui_dsl.frontend.text import visible
from targui_dsl.games.targui.actions import IllegalAction
from targui_dsl.games.targui.narrate import Narrator
from targui_dsl.games.targui.observation import choice_told
from targui_dsl.games.targui.phases import Phase
from targui_dsl.games.targui.syntax import ACTION_VERBS, action_syntax_lines
from targui_dsl.games.targui.terminal import (
    PLAIN,
    Style,
    TableRecord,
    phase_text,
    render_board,
    render_end,
    render_fight,
    render_status,
    tribe_name,
)

if TYPE_CHECKING:
    from targui_dsl.games.targui.game import Game
    from targui_dsl.games.targui.state import GameState

class TableNarrator:
    """The engine's :class:`Narrator`, minus what a human at the table may not see.

    Every told line is read by every human at the keyboard, so an amount is
    told only when each of them observes it (``state.observation(h)``, docs/rules/targui.md
    section 8): otherwise a deposit is told without its amount, and a card's
    or the round's end's change to hidden cash or treasury is left out, and a number chosen
    in a card or hook, which may be an amount of silver, is told without it. Set
    ``state`` once the game exists (events of the setup hold no money).
    """

    def __init__(self, game: Game, humans: Iterable[int], state: GameState | None = None) -> None:
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

    def _secret_choice(self, event: dict) -> bool:
        """Whether ``event`` answers an effect's choice whose answer some human may not be told
        (:func:`choice_told`): told as it is made, so the state is still at that choice."""
        state = self.state
        choice = state.choice() if state is not None else None
        if state is None or choice is None or not event["action"].startswith("choose "):
            return False
        return any(not choice_told(state, h, event["player"], choice[0]) for h in self.humans)

    def __call__(self, event: dict) -> str | None:
        kind = event["type"]
        if kind == "end":
            return None  # the end screen (render_end) tells the result, once
        if kind == "decision" and event["action"].split()[0] == "deposit" and self._hidden(event["tribe"], "treasury"):
            # whether a seat deposited is public, never how much
            what = "puts nothing" if event["action"] == "deposit 0" else "puts silver"
            what += " into the treasury"
            return f"    {self.names.get(event['tribe'], event['tribe'])}: {what}"
        if kind == "decision" and self._secret_choice(event):
            return f"    {self.names.get(event['tribe'], event['tribe'])}: chooses a number"
        if kind in ("card", "hook"):
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


def _count_range(state: GameState) -> tuple[int, int]:
    """The range of the count being chosen (the state is at a count decision)."""
    span = state.count_range()
    assert span is not None, "not at a count decision"
    return span


def group_actions(state: GameState) -> list[MenuItem]:
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
        low, high = _count_range(state)
        items.append(MenuItem("deposit {n}", max(1, low), high))
        after = state.clone()
        after.apply_action("deposit 0")  # what follows depositing nothing: the movement phase
        return items + group_actions(after)
    if phase == Phase.SETTLE:
        cells = sorted(state.settle_cells(), key=pos.__getitem__)
        return [MenuItem(f"settle {pos[cell]}") for cell in cells]
    if phase in (Phase.MOVE_COUNT, Phase.ENTER, Phase.BUY_COUNT):
        low, high = _count_range(state)
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


def interpret(text: str, state: GameState, menu: Sequence[MenuItem]) -> Reply:
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

    game: Game
    humans: frozenset[int]
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
        self._ask(f"Pass the keyboard to {tribe_name(self.game, seat)} (seat {seat + 1}), then press Enter ")
        if self.clear is not None:
            self.clear()
        if self.told:  # what the last screen showed, since the keyboard came to the last human
            self.echo(f"Since {tribe_name(self.game, self.last_human)} took the keyboard:")  # type: ignore[arg-type]
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

    def draw(self, state: GameState, viewer: int | None) -> None:
        self.echo(render_board(state, self.record, style=self.style, viewer=viewer, width=self._width()))
        self.dirty = False

    def decide(self, state: GameState) -> str:
        """Ask the human to play for the current seat until a legal action is given."""
        seat = state.current_player()
        if self.last_human is not None and seat != self.last_human:
            self.hand_over(seat)
        self.last_human = seat
        name = tribe_name(self.game, seat)
        phase = state.phase_name
        in_fight = phase in ("attack_choice", "enter")
        if in_fight:
            self.echo(render_fight(state))
        elif self.board and self.dirty:
            self.draw(state, seat)
        else:
            self.echo("  " + render_status(state, viewer=seat))
        menu = group_actions(state)
        self.echo(self.style.paint(f"{name} (seat {seat + 1}), {phase_text(state)}:", bold=True))
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

    def finish(self, state: GameState) -> None:
        """The end of the game: the board with everything revealed (unless boards are off),
        then the end screen."""
        if self.board:
            self.draw(state, None)
        self.echo(render_end(state, style=self.style))
