"""What each seat sees (docs/rules/targui.md section 8), for agents, learners and the terminal.

Targui is played in the open except where a rule makes something secret.
In a variant with a treasury, a seat sees its own cash in hand and treasury
but nobody else's (only that they deposited); without one, cash in hand is
public and there is no treasury. Nobody sees the order of the deck or of the
round stack, or dice not yet thrown (the generator). At the end everything
is revealed.

* :class:`Observation`: a read-only view of one seat's knowledge, which
  agents decide from (``agent.choose(observation, legal_actions)``).
* :func:`observation_string`, :func:`observation_tensor`: the same as text
  and as a flat list of floats (layout in :func:`tensor_size`'s docstring).
* :func:`information_state_string`: the seat's view of the whole history.
* :func:`resample_hidden`: a full state the seat cannot tell from the true
  one, for search (determinisation).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Generic, Protocol, Sequence, TypeVar

from targui_dsl.effects.runtime import ChoiceRequest
from targui_dsl.effects.types import Type
from targui_dsl.engine.chance import seed_state
from targui_dsl.games.targui.actions import COUNT_BASE, count_digits
from targui_dsl.games.targui.flow import buy_limit, choice_kind, current_player
from targui_dsl.games.targui.ownership import holds_own_settlement, in_game
from targui_dsl.games.targui.phases import (
    ATTACK_PHASES,
    BUY_CELL,
    BUY_COUNT,
    DEPOSIT,
    EFFECT_CHOICE,
    IS_COUNT,
    MOVE_COUNT,
    OVER,
    Phase,
    step_action,
    step_actor,
    step_phase,
    with_action,
)
from targui_dsl.games.targui.record import TarguiRecord, cells_of_kind
from targui_dsl.games.targui.rules_effects import copy_record, replay_paused
from targui_dsl.games.targui.runtime import runtime_of

if TYPE_CHECKING:  # pragma: no cover
    from targui_dsl.games.targui.tables import GameTables

# An observation is typed by the state it views (``Observation[Game, GameState]``), named by
# their shape: this module does not import the state module, which imports it.
_G = TypeVar("_G", bound="GameTables", covariant=True)
_S = TypeVar("_S", bound="StateView[Any]")


class StateView(Protocol[_G]):
    """What an observation and the text board read of a game state: the public read API of
    :class:`~targui_dsl.games.targui.state.GameState` (named by its shape, so that neither
    module imports the other)."""

    @property
    def game(self) -> _G: ...
    @property
    def record(self) -> TarguiRecord: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def phase_name(self) -> str: ...
    @property
    def round(self) -> int: ...
    @property
    def round_die(self) -> int: ...
    @property
    def double_turn(self) -> bool: ...
    @property
    def camels_in_box(self) -> int: ...
    @property
    def end_reason(self) -> str | None: ...
    def current_player(self) -> int: ...
    def is_terminal(self) -> bool: ...
    def is_draw(self) -> bool: ...
    def winners(self) -> list[int]: ...
    def scores(self) -> list[int]: ...
    def kind(self, cell: int) -> int: ...
    def owner(self, cell: int) -> int: ...
    def camels(self, cell: int) -> int: ...
    def strategic(self, cell: int) -> int: ...
    def economic(self, cell: int) -> int: ...
    def kind_strategic(self, kind: int) -> int: ...
    def kind_economic(self, kind: int) -> int: ...
    def cells_of(self, seat: int) -> tuple[int, ...]: ...
    def cash(self, seat: int) -> int: ...
    def treasury(self, seat: int) -> int: ...
    def player_camels(self, seat: int) -> int: ...
    def settlement(self, seat: int) -> int: ...
    def holds_own_settlement(self, seat: int) -> bool: ...
    def in_game(self, seat: int) -> bool: ...
    def defended(self, cell: int) -> bool: ...
    def may_buy_on(self, cell: int) -> bool: ...
    def settle_cells(self, seat: int | None = None) -> list[int]: ...
    def free_sectors(self) -> list[int]: ...
    def tribal_cards_left(self, seat: int) -> int: ...
    def fortune_cards_left(self) -> int: ...
    def deck_left(self) -> int: ...
    def cards_turned(self) -> list[str]: ...
    def attack(self) -> tuple[int, int] | None: ...
    def pending_move(self) -> tuple[int, int] | None: ...
    def buy_cell(self) -> int: ...
    def count_range(self) -> tuple[int, int] | None: ...
    def count_step(self, value: int) -> int: ...
    def buy_limit(self) -> int: ...
    def resample_from_infostate(self: _S, player: int, rng: random.Random) -> _S: ...

# the tensor's parts (tensor_size's docstring): a seat's numbers, the globals, the count's numbers
PER_SEAT = 12
# a seat's numbers, in the order seat_values writes them (the kept tensors write single ones)
(SEAT_IN_GAME, SEAT_OWN_SETTLEMENT, SEAT_CASH_KNOWN, SEAT_CASH, SEAT_TREASURY_KNOWN, SEAT_TREASURY, SEAT_STACK,
 SEAT_DEPOSITS, SEAT_LEVY, SEAT_SPENT, SEAT_OBSERVER, SEAT_TO_MOVE) = range(PER_SEAT)
GLOBALS = 6
COUNT_NUMBERS = 4


def memory_visible(visible: str, holder_kind: str, viewer: int | None, holder: int | None) -> bool:
    """Whether seat ``viewer`` may see a declared value held by ``holder`` (a seat, a cell or
    None): a public one always, an owner's one only its own player (and every onlooker of a
    game of bots, ``viewer`` None, as with cash), a hidden one never."""
    return visible == "public" or (visible == "owner" and holder_kind == "player"
                                   and (viewer is None or holder == viewer))


def memory_shown(record: TarguiRecord, viewer: int | None) -> list[str]:
    """The declared values ``viewer`` may see, as ``name=value`` (a player's `name[seat]`, a cell's
    `name@position`); nothing for a ruleset without memory."""
    game = record.game
    shown: list[str] = []
    for slot, spec in enumerate(game.memory):
        holder_kind, base = game.memory_holder[slot], game.memory_base[slot]
        holders: list[int | None] = (list(range(game.players)) if holder_kind == "player"
                                     else list(range(game.cells)) if holder_kind == "territory" else [None])
        for holder in holders:
            if not memory_visible(spec.visible, holder_kind, viewer, holder):
                continue
            value = record.memory[base + (holder or 0)]
            text = str(bool(value)).lower() if spec.type == Type.BOOL else str(value)
            where = "" if holder is None else f"[{holder + 1}]" if holder_kind == "player" else (
                f"@{game.position_of_cell[holder]}")
            shown.append(f"{spec.name}{where}={text}")
    return shown


def cash_visible(state: "StateView[Any]", viewer: int, seat: int) -> bool:
    """Whether ``viewer`` may see ``seat``'s cash in hand now."""
    return sees_cash(state.record, viewer, seat)


def sees_cash(r: TarguiRecord, viewer: int, seat: int) -> bool:
    """:func:`cash_visible` of a record."""
    return viewer == seat or not r.game.treasury or r.phase == OVER


def treasury_visible(state: "StateView[Any]", viewer: int, seat: int) -> bool:
    return viewer == seat or state.is_terminal()


def count_visible(state: "StateView[Any]", viewer: int) -> bool:
    """Whether ``viewer`` may see the range of the count being chosen: a deposit's or a
    purchase's range follows from the buyer's cash, which may be secret."""
    return sees_count(state.record, viewer)


def sees_count(r: TarguiRecord, viewer: int) -> bool:
    """:func:`count_visible` of a record."""
    phase = r.phase
    if phase != DEPOSIT and phase != BUY_COUNT:
        return True
    return sees_cash(r, viewer, current_player(r))


def choice_told(state: "StateView[Any]", viewer: int, chooser: int, kind: str) -> bool:
    """Whether ``viewer`` is told the answer ``chooser`` gives to an effect's choice of ``kind``
    (``territory``, ``player``, ``number``). A number may be an amount of silver (a house rule's
    stash or bribe), so it is told, like a deposit's amount, only to whoever sees the chooser's
    money; a territory or a player chosen is told to everybody."""
    return choice_told_in(state.record, viewer, chooser, kind)


def choice_told_in(r: TarguiRecord, viewer: int, chooser: int, kind: str) -> bool:
    """:func:`choice_told` read from a record: the one home of the rule (resampling reads it
    too). A kind or a yes/no is answered by its place and is hidden as a number is."""
    if kind not in ("territory", "player"):
        return viewer == chooser or not r.game.treasury or r.phase == OVER
    return True


class Observation(Generic[_G, _S]):
    """What one seat knows now: the board, the round, public counts and its own secrets.

    Hidden values read as ``None``. The view reads the live state: it stays
    current as the game goes on.
    """

    __slots__ = ("_state", "seat")

    def __init__(self, state: _S, seat: int) -> None:
        self._state = state
        self.seat = seat

    @property
    def game(self) -> _G:
        return self._state.game

    @property
    def phase(self) -> Phase:
        return self._state.phase

    @property
    def round(self) -> int:
        return self._state.round

    @property
    def round_die(self) -> int:
        return self._state.round_die

    @property
    def double_turn(self) -> bool:
        return self._state.double_turn

    @property
    def camels_in_box(self) -> int:
        return self._state.camels_in_box

    def current_player(self) -> int:
        return self._state.current_player()

    def is_terminal(self) -> bool:
        return self._state.is_terminal()

    # The board (public) -------------------------------------------------------------
    def kind(self, cell: int) -> int:
        return self._state.kind(cell)

    def owner(self, cell: int) -> int:
        return self._state.owner(cell)

    def camels(self, cell: int) -> int:
        return self._state.camels(cell)

    def strategic(self, cell: int) -> int:
        return self._state.strategic(cell)

    def economic(self, cell: int) -> int:
        return self._state.economic(cell)

    def cells_of(self, seat: int) -> tuple[int, ...]:
        return self._state.cells_of(seat)

    def player_camels(self, seat: int) -> int:
        return self._state.player_camels(seat)

    def settlement(self, seat: int) -> int:
        return self._state.settlement(seat)

    def holds_own_settlement(self, seat: int) -> bool:
        return self._state.holds_own_settlement(seat)

    def in_game(self, seat: int) -> bool:
        return self._state.in_game(seat)

    def defended(self, cell: int) -> bool:
        """Whether moving into ``cell`` is an attack for the player whose turn it is."""
        return self._state.defended(cell)

    def may_buy_on(self, cell: int) -> bool:
        return self._state.may_buy_on(cell)

    def settle_cells(self, seat: int | None = None) -> list[int]:
        return self._state.settle_cells(seat)

    def free_sectors(self) -> list[int]:
        return self._state.free_sectors()

    # Cards (public counts, never the order) -----------------------------------------
    def tribal_cards_left(self, seat: int) -> int:
        return self._state.tribal_cards_left(seat)

    def fortune_cards_left(self) -> int:
        return self._state.fortune_cards_left()

    def deck_left(self) -> int:
        return self._state.deck_left()

    def cards_turned(self) -> list[str]:
        return self._state.cards_turned()

    # The decision under way ---------------------------------------------------------
    def attack(self) -> tuple[int, int] | None:
        return self._state.attack()

    def pending_move(self) -> tuple[int, int] | None:
        return self._state.pending_move()

    def buy_cell(self) -> int:
        return self._state.buy_cell()

    def count_range(self) -> tuple[int, int] | None:
        """The whole range of the count being chosen, when this seat may see it."""
        return self._state.count_range() if count_visible(self._state, self.seat) else None

    def count_step(self, value: int) -> int:
        """At this seat's own count decision: the id of the next step towards ``value``."""
        return self._state.count_step(value)

    # Money: hidden values are None ---------------------------------------------------
    def cash(self, seat: int) -> int | None:
        return self._state.cash(seat) if cash_visible(self._state, self.seat, seat) else None

    def treasury(self, seat: int) -> int | None:
        return self._state.treasury(seat) if treasury_visible(self._state, self.seat, seat) else None

    def buy_limit(self) -> int | None:
        """How many camels the player whose turn it is can buy, when this seat may know."""
        turn = self._state.current_player()
        return self._state.buy_limit() if turn >= 0 and cash_visible(self._state, self.seat, turn) else None

    @property
    def runtime(self) -> "ObservedRuntime":
        """A read-only effect runtime over this view, for evaluating the ruleset's formulas
        (combat losses, the levy) as this seat can: hidden money reads as 0."""
        return ObservedRuntime(self)

    def resample(self, rng: random.Random) -> _S:
        """A full state consistent with this view (see :func:`resample_hidden`)."""
        return self._state.resample_from_infostate(self.seat, rng)

    def to_string(self) -> str:
        return observation_string(self._state, self.seat)


class ObservedRuntime:
    """The read side of the effect runtime over an :class:`Observation` (formulas only)."""

    __slots__ = ("_o",)

    def __init__(self, observation: Observation) -> None:
        self._o = observation

    def all_territories(self) -> range:
        return range(self._o.game.cells)

    def all_players(self) -> list[int]:
        return [s for s in range(self._o.game.players) if self._o.cells_of(s)]

    def territories_of(self, player: int | None) -> Sequence[int]:
        return () if player is None else self._o.cells_of(player)

    def neighbours(self, territory: int) -> Sequence[int]:
        return self._o.game.neighbours[territory]

    def kind(self, territory: int) -> int:
        return self._o.kind(territory)

    def camels(self, territory: int) -> int:
        return self._o.camels(territory)

    def territory_kinds(self) -> list[int]:  # public, as kind() is
        return self._o._state.record.kind

    def territories_of_kind(self, kind: int) -> tuple[int, ...]:  # public, as kind() is
        return cells_of_kind(self._o._state.record, kind)

    def territory_camels(self) -> list[int]:  # public, as camels() is
        return self._o._state.record.camels

    def passable(self, territory: int) -> bool:
        kind = self._o.kind(territory)
        return kind >= 0 and self._o.game.kind_passable[kind]

    def owner(self, territory: int) -> int | None:
        owner = self._o.owner(territory)
        return None if owner < 0 else owner

    def strategic(self, territory: int) -> int:
        return self._o.strategic(territory)

    def economic(self, territory: int) -> int:
        return self._o.economic(territory)

    def position(self, territory: int) -> int:
        return self._o.game.position_of_cell[territory]

    def tribe(self, player: int) -> int:
        return self._o.game.seat_tribes[player]

    def seat(self, player: int) -> int:
        return player + 1

    def cash(self, player: int | None) -> int:
        return 0 if player is None else (self._o.cash(player) or 0)

    def treasury(self, player: int | None) -> int:
        return 0 if player is None else (self._o.treasury(player) or 0)

    def player_camels(self, player: int | None) -> int:
        return 0 if player is None else self._o.player_camels(player)

    def settlement(self, player: int | None) -> int | None:
        if player is None:
            return None
        cell = self._o.settlement(player)
        return None if cell < 0 else cell

    def holds_own_settlement(self, player: int | None) -> bool:
        return player is not None and self._o.holds_own_settlement(player)

    def kind_strategic(self, kind: int) -> int:
        return self._o._state.kind_strategic(kind)

    def kind_economic(self, kind: int) -> int:
        return self._o._state.kind_economic(kind)

    def round_number(self) -> int:
        return self._o.round

    def box(self) -> int:
        return self._o.camels_in_box

    def cards_left(self) -> int:
        return self._o._state.deck_left()

    def rounds_played(self) -> int:
        return max(0, self._o.round - 1)

    def rounds_left(self) -> int:
        return runtime_of(self._o._state.record).rounds_left()  # public: the deck's size and the stack's

    def memory(self, slot: int, holder: int | None) -> int | bool:
        """A declared value as this seat sees it: one it may not see reads as its start."""
        record, spec = self._o._state.record, self._o.game.memory[slot]
        if not memory_visible(spec.visible, record.game.memory_holder[slot], self._o.seat, holder):
            return bool(spec.start) if spec.type == Type.BOOL else spec.start
        return runtime_of(record).memory(slot, holder)


# --- text ----------------------------------------------------------------------------------

def observation_string(state: "StateView[Any]", player: int) -> str:
    """What ``player`` sees now, as text (one line per part)."""
    game = state.game
    pos = game.position_of_cell
    cells = []
    for cell in range(game.cells):
        kind = state.kind(cell)
        if kind < 0:
            cells.append(f"{pos[cell]}:?")
            continue
        owner = state.owner(cell)
        cells.append(f"{pos[cell]}:{game.kind_ids[kind]}:{owner + 1 if owner >= 0 else '-'}:{state.camels(cell)}")
    seats = []
    for seat in range(game.players):
        cash = state.cash(seat) if cash_visible(state, player, seat) else "?"
        treasury = (state.treasury(seat) if treasury_visible(state, player, seat) else "?") if game.treasury else "-"
        seats.append(f"{seat + 1}:{game.tribe_ids[seat]} cash {cash} treasury {treasury} "
                     f"stack {state.tribal_cards_left(seat)}")
    pending = ""
    if state.attack() is not None:
        source, target = state.attack()  # type: ignore[misc]
        pending = f" attack {pos[source]}->{pos[target]}"
    elif state.pending_move() is not None:
        source, target = state.pending_move()  # type: ignore[misc]
        pending = f" move {pos[source]}->{pos[target]}"
    elif state.buy_cell() >= 0:
        pending = f" buy on {pos[state.buy_cell()]}"
    counts = state.count_range()
    if counts is not None and count_visible(state, player):
        pending += f" count {counts[0]}..{counts[1]}"
    turned = ",".join(state.cards_turned())
    lines = [
        f"seat {player + 1} | round {state.round} die {state.round_die}{' double' if state.double_turn else ''}"
        f" | {state.phase_name} player {state.current_player() + 1}{pending}",
        "board " + " ".join(cells) + f" | box {state.camels_in_box}",
        "seats " + "; ".join(seats),
        f"stack cards {state.fortune_cards_left()} | deck {state.deck_left()} | turned {turned}",
    ]
    if game.memory:  # only a ruleset with memory has the line: the others' strings stay as they were
        lines.append("memory " + " ".join(memory_shown(state.record, player)))
    return "\n".join(lines)


def information_state_string(state: "StateView[Any]", player: int) -> str:
    """``player``'s view of everything that happened: every step as that seat saw it
    (another seat's deposit as ``deposit`` or ``no deposit``, never its amount, in a
    variant with a treasury, and a number it chose as ``?`` when :func:`choice_told` says
    so), then what it sees now."""
    tokens = []
    space = state.game.actions
    hide = state.game.treasury and not state.is_terminal()
    pending_deposit: tuple[int, int] | None = None  # (actor, value so far) of another seat's deposit
    for entry in state.record.history:
        action, phase, actor = step_action(entry), step_phase(entry), step_actor(entry)
        if pending_deposit is not None and (phase != Phase.DEPOSIT or actor != pending_deposit[0]):
            tokens.append(f"{pending_deposit[0] + 1}:{'deposit' if pending_deposit[1] else 'no deposit'}")
            pending_deposit = None
        if phase == Phase.DEPOSIT and hide and actor != player:
            value = action - COUNT_BASE
            pending_deposit = (actor, (pending_deposit[1] if pending_deposit else 0) * 256 + value)
            continue
        told = phase != Phase.EFFECT_CHOICE or choice_told(state, player, actor, choice_kind(space, action))
        tokens.append(f"{actor + 1 if actor >= 0 else 'c'}:{Phase(phase).label}:{action if told else '?'}")
    if pending_deposit is not None:
        tokens.append(f"{pending_deposit[0] + 1}:deposit ?")
    return "history " + " ".join(tokens) + "\n" + observation_string(state, player)


# --- tensor ----------------------------------------------------------------------------------

def tensor_size(game: "GameTables") -> int:
    """Length of :func:`observation_tensor`. The layout, in order:

    * per cell: the kind one-hot (kinds + "no card yet"), the owner one-hot
      (seats + "nobody"), the camels;
    * per seat: in game, holds its own settlement, cash known (0/1), cash,
      treasury known, treasury, tribal cards left in the stack, deposits
      made, levy received in all, silver spent on camels, is the observer,
      is to move;
    * the round, the round's die, double turns (0/1), camels in the box,
      (mis)fortune cards left in the stack, cards left in the deck;
    * the phase one-hot;
    * the pending source cell one-hot, the pending target cell one-hot
      (a move's, an attack's, or the cell camels are bought on);
    * the count being chosen: lo, hi (0 when not visible), the digits chosen
      so far, digits left;
    * per card of the ruleset: how many times it has been turned;
    * the ruleset's declared memory (none without `memory:`), in slot order, each value as
      the observer may see it (0 for one it may not, as for hidden cash).
    """
    cells, kinds, players = game.cells, len(game.kind_ids), game.players
    return (cells * (kinds + 1 + players + 1 + 1) + players * PER_SEAT + GLOBALS + len(Phase)
            + 2 * cells + COUNT_NUMBERS + len(game.card_ids) + len(game.memory_start))


def observation_tensor(state: "StateView[Any]", player: int) -> list[float]:
    game = state.game
    cells, kinds, players = game.cells, len(game.kind_ids), game.players
    out: list[float] = []
    cell_width = kinds + 1 + players + 1 + 1
    block = [0.0] * (cells * cell_width)
    for cell in range(cells):
        base = cell * cell_width
        kind = state.kind(cell)
        block[base + (kind if kind >= 0 else kinds)] = 1.0
        owner = state.owner(cell)
        block[base + kinds + 1 + (owner if owner >= 0 else players)] = 1.0
        block[base + kinds + 1 + players + 1] = float(state.camels(cell))
    out.extend(block)
    out.extend(_after_cells(state, player))
    return out


def fill_observation(state: "StateView[Any]", player: int, out: Any) -> None:
    """:func:`observation_tensor` written into ``out``, a NumPy vector of :func:`tensor_size`
    (the adapters' arrays): the cells' block (most of it) set by NumPy from the record's
    lists at once, the rest as the list builds it. The same numbers (a test holds the two)."""
    game, record = state.game, state.record
    cells, kinds, players = game.cells, len(game.kind_ids), game.players
    cell_width = kinds + 1 + players + 1 + 1
    end = cells * cell_width
    block = out[:end].reshape(cells, cell_width)
    block[:] = 0.0
    rows = range(cells)
    block[rows, [kind if kind >= 0 else kinds for kind in record.kind]] = 1.0
    block[rows, [kinds + 1 + (owner if owner >= 0 else players) for owner in record.owner]] = 1.0
    block[:, cell_width - 1] = record.camels
    out[end:] = _after_cells(state, player)


def _after_cells(state: "StateView[Any]", player: int) -> list[float]:
    """The tensor after the cells' block: seats, the round, the phase, the pending cells,
    the count, the cards turned, the memory. Each part is its own function below, which
    :mod:`.tensor` (the adapters' arrays kept up to date) calls part by part."""
    game = state.game
    cells = game.cells
    out = seat_values(state, player)
    out.extend(global_values(state))
    phase = [0.0] * len(Phase)
    phase[state.phase] = 1.0
    out.extend(phase)
    source = [0.0] * cells
    target = [0.0] * cells
    pending_source, pending_target = pending_cells(state)
    if pending_source >= 0:
        source[pending_source] = 1.0
    if pending_target >= 0:
        target[pending_target] = 1.0
    out.extend(source)
    out.extend(target)
    out.extend(count_values(state, player))
    out.extend(turned_values(state))
    out.extend(memory_values(state, player))
    return out


def seat_values(state: "StateView[Any]", player: int) -> list[float]:
    """Per seat, as ``player`` sees it: in game, holds its own settlement, cash known, cash,
    treasury known, treasury, tribal cards left, deposits, levy received, silver spent on
    camels, is the observer, is to move."""
    out: list[float] = []
    turn = state.current_player()
    record = state.record
    cash, treasury, stack = record.cash, record.treasury, record.stack_turns
    for seat in range(state.game.players):  # read from the record: the adapters call this often
        cash_known = cash_visible(state, player, seat)
        treasury_known = treasury_visible(state, player, seat)
        out.extend((  # SEAT_IN_GAME ... SEAT_TO_MOVE
            *standing_values(record, seat),
            float(cash_known), float(cash[seat]) if cash_known else 0.0,
            float(treasury_known), float(treasury[seat]) if treasury_known else 0.0,
            float(stack[seat]), float(record.deposits[seat]),
            float(record.levy_total[seat]), float(record.spent[seat]),
            float(seat == player), float(seat == turn),
        ))
    return out


def standing_values(record: TarguiRecord, seat: int) -> tuple[float, float]:
    """A seat's first two numbers (SEAT_IN_GAME, SEAT_OWN_SETTLEMENT), as :func:`seat_values`
    writes them: what the owners of the cells decide."""
    return float(in_game(record, seat)), float(holds_own_settlement(record, seat))


def global_values(state: "StateView[Any]") -> tuple[float, ...]:
    """The round, the round's die, double turns (0/1), camels in the box, (mis)fortune
    cards left in the stack, cards left in the deck."""
    r = state.record  # (read from the record: the adapters' kept tensors call this at every reading)
    return (float(r.round), float(r.round_die), float(r.double), float(r.box), float(r.stack_cards),
            float(len(r.deck)))


def pending_cells(state: "StateView[Any]") -> tuple[int, int]:
    """The pending source and target cells, -1 for none: a move's or an attack's pair, or
    (target only) the cell camels are bought on."""
    return pending_of(state.record)


#: Per phase, which of the record's source and target are its pending cells: an attack's or a
#: move's pair (``state.attack()``, ``state.pending_move()``), the target alone where camels are
#: bought (``state.buy_cell()``), else neither. A table: the kept tensors read it at every reading.
PENDING_PAIR, PENDING_TARGET = 2, 1
PENDING = tuple(PENDING_PAIR if p in ATTACK_PHASES or p == MOVE_COUNT else PENDING_TARGET if p == BUY_COUNT
                       else 0 for p in Phase)
NO_CELLS = (-1, -1)


def pending_of(r: TarguiRecord) -> tuple[int, int]:
    """:func:`pending_cells` of a record."""
    pending = PENDING[r.phase]
    if pending == PENDING_PAIR:
        return r.source, r.target
    return (-1, r.target) if pending else NO_CELLS


def count_values(state: "StateView[Any]", player: int) -> tuple[float, float, float, float]:
    """The count being chosen as ``player`` may see it: lo, hi, the digits chosen so far,
    digits left (all 0 when there is none or it is not visible)."""
    return count_of(state.record, player)


#: :func:`count_values` where there is no count to see.
NO_COUNT = (0.0, 0.0, 0.0, 0.0)


def count_of(r: TarguiRecord, player: int) -> tuple[float, float, float, float]:
    """:func:`count_values` of a record (``state.count_range()`` is the record's range at a count)."""
    if IS_COUNT[r.phase] and sees_count(r, player):
        return float(r.count_lo), float(r.count_hi), float(r.count_prefix), float(r.count_digits)
    return NO_COUNT


def turned_values(state: "StateView[Any]") -> list[float]:
    """Per card of the ruleset: how many times it has been turned."""
    turned = [0.0] * len(state.game.card_ids)
    for card in state.record.turned:
        turned[card] += 1.0
    return turned


def memory_values(state: "StateView[Any]", player: int) -> list[float]:
    """The ruleset's declared memory in slot order, each value as ``player`` may see it."""
    game, record = state.game, state.record
    out: list[float] = []
    for slot, spec in enumerate(game.memory):
        holder_kind, base = game.memory_holder[slot], game.memory_base[slot]
        count = game.players if holder_kind == "player" else game.cells if holder_kind == "territory" else 1
        for offset in range(count):
            seen = memory_visible(spec.visible, holder_kind, player, None if holder_kind == "game" else offset)
            out.append(float(record.memory[base + offset]) if seen else 0.0)
    return out


# --- resampling ----------------------------------------------------------------------------

def _unseen_step(r: TarguiRecord, player: int, entry: int) -> int:
    """A history entry as ``player`` may know it: each digit of another seat's deposit reads 1
    if it was not 0 (whether a deposit was made, which everybody saw, is kept, and no more),
    and another seat's secret answer to an effect's number reads as its first option."""
    actor, phase = step_actor(entry), step_phase(entry)
    if actor == player or actor < 0:
        return entry
    if phase == DEPOSIT:
        return with_action(entry, COUNT_BASE + (step_action(entry) != COUNT_BASE))
    if phase == EFFECT_CHOICE and not choice_told_in(r, player, actor, choice_kind(r.game.actions,
                                                                                     step_action(entry))):
        return with_action(entry, COUNT_BASE)
    return entry


def resample_hidden(r: TarguiRecord, player: int, rng: random.Random) -> TarguiRecord:
    """A record ``player`` cannot tell from ``r``, drawn from ``rng``.

    What is drawn anew: the generator (so the deck's order, the round
    stack's order and every future die), and in a variant with a treasury,
    each other seat's treasury and cash in hand. Those two are drawn from
    the public record alone, never from their true values: a treasury of
    at least one silver per deposit seen and at most what the seat can have
    received (its starting cash and every levy, less the camels it bought),
    and cash in hand uniform in what is left of that. So two states that
    differ only in what ``player`` cannot see resample to the same state for
    the same ``rng``. The result is a plausible guess, not a posterior: card
    gifts and losses of hidden cash are not tracked.
    """
    game = r.game
    effect = r.effect
    over = r.phase == OVER
    if effect is not None and game.treasury and not over:
        # paused inside a card or hook: draw the money as it stood when the effect began and
        # replay the effect's answers on that, so no true hidden value is kept anywhere
        start = resample_hidden(effect.start, player, rng)

        def redraw(request: ChoiceRequest, answer: int) -> int:
            # another seat's secret answer is drawn anew among its options, never read
            if choice_told_in(r, player, request.player, request.kind):
                return answer
            return request.options[rng.randrange(len(request.options))]

        for _ in range(8):
            try:
                new = replay_paused(start, effect.where, effect.args, effect.answers, redraw)
                break
            except ValueError:  # a redrawn answer ended the effect before its pause: draw again
                continue
        else:  # a ruleset whose later questions hang on a secret answer: the answers as given
            new = replay_paused(start, effect.where, effect.args, effect.answers)
        new.decisions, new.forced_decisions = r.decisions, r.forced_decisions
    else:
        new = copy_record(r)
    new.rng = seed_state(rng.getrandbits(64))
    new.forced_outcomes = []
    if game.memory and not over:
        # declared values this seat may not see are guessed as their start, never kept
        for slot, spec in enumerate(game.memory):
            holder_kind, base = game.memory_holder[slot], game.memory_base[slot]
            count = game.players if holder_kind == "player" else game.cells if holder_kind == "territory" else 1
            for offset in range(count):
                holder = None if holder_kind == "game" else offset
                if not memory_visible(spec.visible, holder_kind, player, holder):
                    new.memory[base + offset] = spec.start
    if not game.treasury or over:
        new.legal = None
        return new
    turn = current_player(r)
    phase = r.phase
    for seat in range(game.players):
        if seat == player or effect is not None:  # (a paused effect's money was drawn at its start)
            continue
        received = game.start_cash[seat] + r.levy_total[seat]
        wealth = max(0, received - r.spent[seat])
        deposits = r.deposits[seat]
        treasury = rng.randint(min(deposits, wealth), wealth) if deposits else 0
        cash = rng.randint(0, wealth - treasury)
        if seat == turn and phase in (DEPOSIT, BUY_CELL, BUY_COUNT):
            # the node itself shows this seat has cash (a deposit to make, camels to buy)
            cash = max(cash, game.camel_price if phase != DEPOSIT else 1, 1)
        new.treasury[seat] = treasury
        new.cash[seat] = cash
    # the history keeps no hidden amount: each digit of another seat's deposit reads 1 if it
    # was not 0, so whether a deposit was made (which everybody saw) is kept, and no more
    new.history = [_unseen_step(r, player, entry) for entry in r.history]
    if turn != player and turn >= 0 and phase in (DEPOSIT, BUY_COUNT):
        # the count under way was sized by the true cash: size it again by the drawn one
        high = new.cash[turn] if phase == DEPOSIT else max(1, buy_limit(new))
        new.count_hi = high
        new.count_prefix = 0
        new.count_digits = count_digits(high)
    new.legal = None
    return new
