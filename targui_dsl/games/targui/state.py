"""The game state and the rules, in one class with private, typed fields.

Everything that changes during a game lives on :class:`GameState` as ints
and flat lists of ints; everything fixed lives on
:class:`~targui_dsl.games.targui.game.Game`. Each rule is written once, in the
method that lists a decision's legal actions; applying an action checks
only that it is in that list, and a decision with a single legal action is
taken by the engine itself (``forced``), found from the same list.

Decisions are small integer steps (see :mod:`.actions`). Chance (the deal,
dice, the next card of the round stack) comes from a splitmix64 generator
whose whole state is one int, from queued outcomes (:meth:`force_chance`),
or, with ``explicit_chance``, from the caller at chance nodes. The deck and
the round stack are drawn lazily: drawing the next card uniformly from what
is left is the same lottery as shuffling first, and it keeps both the state
and the chance nodes small.

Compiled card effects and formulas never see this class: they get an
:class:`~targui_dsl.games.targui.runtime.EffectAdapter` over it.
"""

from __future__ import annotations

import ast
from bisect import bisect_right, insort
from itertools import accumulate
from typing import TYPE_CHECKING, Any, Sequence

from targui_dsl.effects.runtime import MAX_VALUE, RollRequest, clamp
from targui_dsl.engine.chance import GOLDEN, MASK64, below
from targui_dsl.games.targui.actions import (
    AGAIN,
    COUNT_BASE,
    COUNT_RADIX,
    GIVE_UP,
    PASS,
    SECTOR_BASE,
    IllegalAction,
    count_digits,
    digit_range,
    plain_number,
    words,
)
from targui_dsl.games.targui.game import Game
from targui_dsl.games.targui.observation import (
    Observation,
    information_state_string,
    observation_string,
    observation_tensor,
    resample_hidden,
)
from targui_dsl.games.targui.phases import CHANCE, IS_CHANCE, IS_COUNT, PHASE_BY_LABEL, TERMINAL, Phase
from targui_dsl.games.targui.readable import steps_from_text
from targui_dsl.games.targui.runtime import EffectAdapter
from targui_dsl.games.targui.setup import PositionEditor

if TYPE_CHECKING:  # pragma: no cover
    import random

    from targui_dsl.gamelog.events import EventLog

STATE_FORMAT = "targui-state/2"

# Phases as plain ints on the hot path (an enum member's lookup costs four times as much);
# the public ``phase`` property gives the Phase itself.
_SECTOR = int(Phase.SECTOR)
_DEAL = int(Phase.DEAL)
_SETTLE = int(Phase.SETTLE)
_ROUND_DIE = int(Phase.ROUND_DIE)
_REVEAL = int(Phase.REVEAL)
_DEPOSIT = int(Phase.DEPOSIT)
_MOVE_COUNT = int(Phase.MOVE_COUNT)
_MOVE = int(Phase.MOVE)
_ATTACK_DIE = int(Phase.ATTACK_DIE)
_DEFEND_DIE = int(Phase.DEFEND_DIE)
_ATTACK_CHOICE = int(Phase.ATTACK_CHOICE)
_ENTER = int(Phase.ENTER)
_BUY_CELL = int(Phase.BUY_CELL)
_BUY_COUNT = int(Phase.BUY_COUNT)
_OVER = int(Phase.OVER)
_EFFECT_CHOICE = int(Phase.EFFECT_CHOICE)
_EFFECT_ROLL = int(Phase.EFFECT_ROLL)
LABELS = tuple(p.label for p in Phase)
# what _advance does at a node: list the options, count them, draw chance, stop
_LISTED, _COUNTED, _DRAWN, _ENDED = range(4)
_NODE = tuple(_DRAWN if IS_CHANCE[p] else _COUNTED if IS_COUNT[p] else _ENDED if p == Phase.OVER else _LISTED
              for p in Phase)
# The stage of the round's end that follows each of its hook moments (see _end_round).
_ROUND_END_STAGE_AFTER = {"before_levy": 1, "after_levy": 2, "round_end": 3}
_TURN, _SETUP, _CHOOSER = -2, -3, -5  # whose node: the turn's player; the seat setting up; an effect's chooser
_WHO = tuple(CHANCE if IS_CHANCE[p] else TERMINAL if p == Phase.OVER else _SETUP if p <= Phase.SETTLE
             else _CHOOSER if p == Phase.EFFECT_CHOICE else _TURN for p in Phase)
#: Per phase: whether the player whose turn it is decides (then current_player() is its seat).
TURN_DECIDES = tuple(who == _TURN for who in _WHO)

_LIST_FIELDS = (
    "_kind", "_owner", "_camels", "_cash", "_treasury", "_settlement", "_sector",
    "_strategic_now", "_economic_now", "_strategic_lasting", "_economic_lasting",
    "_deck", "_turned", "_deal_pool", "_stack_turns", "_history",
    "_levy_total", "_spent", "_deposits", "_round_cash", "_round_levy",
)
_INT_FIELDS = (
    "_box", "_deal_next", "_stack_cards", "_stack_left", "_round", "_round_die", "_setup_seat", "_player", "_cycles_left",
    "_source", "_target", "_count_lo", "_count_hi", "_count_prefix", "_count_digits",
    "_decisions", "_forced_decisions",
)
_BOOL_FIELDS = ("_double", "_compound_forced")


def _make_field_copier() -> Any:
    """``copy(src, dst)``: every list field of :data:`_LIST_FIELDS` copied (``dst.f = src.f[:]``)
    and every int and bool field assigned, as one straight-line function built from ``ast``
    nodes at import (the field names are the engine's own): a search bot clones at every
    simulation step, and a loop of getattr/setattr costs several times as much."""
    def field(obj: str, name: str, ctx: ast.expr_context) -> ast.Attribute:
        return ast.Attribute(ast.Name(obj, ast.Load()), name, ctx)

    body: list[ast.stmt] = []
    body.extend(
        ast.Assign([field("dst", name, ast.Store())], ast.Subscript(field("src", name, ast.Load()), ast.Slice(), ast.Load()))
        for name in _LIST_FIELDS)
    body.extend(ast.Assign([field("dst", name, ast.Store())], field("src", name, ast.Load()))
                for name in _INT_FIELDS + _BOOL_FIELDS)
    arguments = ast.arguments(posonlyargs=[], args=[ast.arg("src"), ast.arg("dst")], vararg=None, kwonlyargs=[],
                              kw_defaults=[], kwarg=None, defaults=[])
    function = ast.FunctionDef(name="copy_plain_fields", args=arguments, body=body, decorator_list=[], returns=None,
                               type_comment=None)
    module = ast.fix_missing_locations(ast.Module([function], type_ignores=[]))
    namespace: dict[str, Any] = {}
    exec(compile(module, "<targui_dsl.games.targui.state: field copier>", "exec"), {}, namespace)
    return namespace["copy_plain_fields"]


_copy_plain_fields = _make_field_copier()


class PausedEffect:
    """A card effect or hook waiting for a player's choice.

    A running Python generator cannot be copied or saved, so the effect
    keeps the state as it was when the effect began (``start``) and the
    answers given so far: a copy replays them on a copy of ``start``, which
    reaches the same request (effects are deterministic; their dice come
    from the copied generator).
    """

    __slots__ = ("where", "code", "args", "start", "answers", "gen", "request", "card_before", "resume_phase")

    def __init__(self, where: tuple[Any, ...], code: Any, args: tuple[int, ...], start: "GameState") -> None:
        self.where = where  # ("card", card index) or ("hook", moment, index)
        self.code = code
        self.args = args
        self.start = start
        self.answers: list[int] = []
        self.gen: Any = None
        self.request: Any = None
        self.card_before: Any = None
        self.resume_phase = 0  # the phase the effect ran in, to return to after the answer


def cap_score(value: int) -> int:
    """A score or tie-break value as the game stores it: within -MAX_VALUE..MAX_VALUE."""
    return max(-MAX_VALUE, min(MAX_VALUE, int(value)))


def _replay_paused(start: "GameState", where: tuple[Any, ...], args: tuple[int, ...],
                   answers: list[int]) -> "GameState":
    """A copy of ``start`` with the paused effect at ``where`` run again on its ``answers``
    (every die and choice it met, in order): it stops at the same request, whatever the
    copy's generator (effects are deterministic)."""
    state = start.clone()
    game = state._game
    if where[0] == "card":
        code = game.cards[game.card_ids[int(where[1])]].effect
    else:
        code = game.hooks[str(where[1])][int(where[2])]
    effect = PausedEffect(where, code, args, start)
    effect.gen = code.function(state.runtime, *args)
    effect.resume_phase = start._phase
    try:
        request = effect.gen.send(None)
        for answer in answers:
            request = effect.gen.send(answer)
    except StopIteration:
        raise ValueError("the effect ended before its pause") from None
    effect.answers = list(answers)
    effect.request = request
    state._effect = effect
    state._phase = _EFFECT_ROLL if isinstance(request, RollRequest) else _EFFECT_CHOICE
    state._legal = None
    return state


class GameState:
    """One game in progress; OpenSpiel's State interface over integer actions."""

    __slots__ = _LIST_FIELDS + _INT_FIELDS + _BOOL_FIELDS + (
        "_game", "_phase", "_cells_of", "_buy_ids", "_move_ids", "_rng", "_forced_outcomes", "_legal",
        "_end_reason", "_final_scores", "_final_tie_breaks", "_winners", "_log", "_rt", "_effect",
    )

    _game: Game
    _phase: int  # a Phase, stored as its int
    _kind: list[int]  # per cell: kind index, -1 before the deal
    _owner: list[int]  # per cell: seat, -1 nobody
    _camels: list[int]  # per cell
    _box: int  # camels in the box
    _cells_of: list[list[int]]  # per seat: owned cells, in cell order
    _buy_ids: list[list[int]]  # per seat: the `buy on` ids of its cells of a buyable kind, sorted (kept with _cells_of)
    _cash: list[int]
    _treasury: list[int]
    _settlement: list[int]  # per seat: the cell of its own settlement, -1 before setup
    _sector: list[int]  # per seat: sector index, -1 none
    _strategic_now: list[int]  # per kind, this round's modifiers included
    _economic_now: list[int]
    _strategic_lasting: list[int]
    _economic_lasting: list[int]
    _deck: list[int]  # card indices still in the deck, in ruleset order
    _turned: list[int]  # card indices turned so far, in order
    _deal_pool: list[int]  # per kind: cards left to deal
    _deal_next: int
    _stack_turns: list[int]  # per seat: tribal cards left in the round stack
    _stack_cards: int  # (mis)fortune cards left in the round stack
    _stack_left: int  # every card left in the round stack: tribal and (mis)fortune
    _round: int  # 0 during setup
    _round_die: int
    _double: bool
    _setup_seat: int
    _player: int  # whose turn, -1 outside turns
    _cycles_left: int  # movement+adding cycles left in this turn (2 in a double turn)
    _source: int  # the pending move's or attack's cells, -1 none
    _target: int
    _count_lo: int  # a count being chosen: lo..hi, one base-256 digit at a time
    _count_hi: int
    _count_prefix: int
    _count_digits: int  # digits still to choose
    _compound_forced: bool  # every step of the pending compound action was forced
    _move_ids: tuple[tuple[int, ...], ...]  # per cell: pair ids to passable neighbours (fixed once settled)
    _rng: int
    _forced_outcomes: list[int | str]
    _legal: list[int] | None  # the current decision's legal actions, once listed
    _decisions: int
    _forced_decisions: int
    _history: list[int]  # every step: (action << 9) | (phase << 4) | (actor + 1)
    _levy_total: list[int]  # public ledger per seat, for resampling hidden silver
    _spent: list[int]
    _deposits: list[int]
    _round_cash: list[int]  # at the round's end: cash before the before_levy hooks, then what they took
    _round_levy: list[int]  # at the round's end: the levy each seat received
    _end_reason: str | None
    _final_scores: list[int] | None
    _final_tie_breaks: list[list[int]] | None
    _winners: list[int] | None
    _log: "EventLog | None"
    _rt: "EffectAdapter | None"
    _effect: "PausedEffect | None"  # an effect waiting for a player's choice

    def __init__(self, game: Game, log: "EventLog | None" = None) -> None:
        cells, seats = game.cells, game.players
        self._game = game
        self._kind = [-1] * cells
        for cell, kind in game.fixed_cards:
            self._kind[cell] = kind
        self._owner = [-1] * cells
        self._camels = [0] * cells
        self._box = game.ruleset.camel_box
        self._cells_of = [[] for _ in range(seats)]
        self._buy_ids = [[] for _ in range(seats)]
        self._cash = [0] * seats
        self._treasury = [0] * seats
        self._settlement = [-1] * seats
        self._sector = [-1] * seats
        self._strategic_now = list(game.base_strategic)
        self._economic_now = list(game.base_economic)
        self._strategic_lasting = list(game.base_strategic)
        self._economic_lasting = list(game.base_economic)
        self._deck = list(game.deck)
        self._turned = []
        self._deal_pool = list(game.deal_pool)
        self._deal_next = 0
        self._stack_turns = [0] * seats
        self._stack_cards = 0
        self._stack_left = 0
        self._round = 0
        self._round_die = 0
        self._double = False
        self._setup_seat = 0
        self._player = -1
        self._cycles_left = 0
        self._source = self._target = -1
        self._count_lo = self._count_hi = self._count_prefix = self._count_digits = 0
        self._compound_forced = False
        self._move_ids = tuple(() for _ in range(cells))
        self._rng = game.initial_rng
        self._forced_outcomes = []
        self._legal = None
        self._decisions = self._forced_decisions = 0
        self._history = []
        self._levy_total = [0] * seats
        self._spent = [0] * seats
        self._deposits = [0] * seats
        self._round_cash = [0] * seats
        self._round_levy = [0] * seats
        self._end_reason = None
        self._final_scores = self._final_tie_breaks = self._winners = None
        self._rt = None
        self._log = None
        self._effect = None
        self._phase = _SECTOR if game.picks_sectors else _DEAL
        if log is not None:
            from targui_dsl.gamelog.events import header

            log.emit(header(game))
            self._log = log
        self._advance()

    # ------------------------------------------------------------------------------------
    # Reading the state (the public read API)
    # ------------------------------------------------------------------------------------
    @property
    def game(self) -> Game:
        return self._game

    @property
    def phase(self) -> Phase:
        return Phase(self._phase)

    @property
    def phase_name(self) -> str:
        return LABELS[self._phase]

    @property
    def round(self) -> int:
        """The round, from 1; 0 during setup."""
        return self._round

    @property
    def round_die(self) -> int:
        return self._round_die

    @property
    def double_turn(self) -> bool:
        """Whether this round's turns are double turns."""
        return self._double

    @property
    def camels_in_box(self) -> int:
        return self._box

    @property
    def end_reason(self) -> str | None:
        """``"deck"`` or ``"last_standing"`` once over."""
        return self._end_reason

    @property
    def decisions(self) -> int:
        """Decision steps taken by players (forced ones not counted)."""
        return self._decisions

    @property
    def forced_decisions(self) -> int:
        return self._forced_decisions

    @property
    def log(self) -> "EventLog | None":
        return self._log

    def kind(self, cell: int) -> int:
        """The kind index of the card on ``cell`` (-1 before the deal)."""
        return self._kind[cell]

    def owner(self, cell: int) -> int:
        """The seat owning ``cell``, -1 for nobody."""
        return self._owner[cell]

    def camels(self, cell: int) -> int:
        return self._camels[cell]

    def strategic(self, cell: int) -> int:
        """The cell's strategic value now, this round's modifiers included."""
        kind = self._kind[cell]
        return self._strategic_now[kind] if kind >= 0 else 0

    def economic(self, cell: int) -> int:
        kind = self._kind[cell]
        return self._economic_now[kind] if kind >= 0 else 0

    def kind_strategic(self, kind: int) -> int:
        return self._strategic_now[kind]

    def kind_economic(self, kind: int) -> int:
        return self._economic_now[kind]

    def cells_of(self, seat: int) -> tuple[int, ...]:
        """The cells ``seat`` owns, in cell order."""
        return tuple(self._cells_of[seat])

    def cash(self, seat: int) -> int:
        """Silver in hand (the true value: what a seat may see is :mod:`.observation`'s business)."""
        return self._cash[seat]

    def treasury(self, seat: int) -> int:
        return self._treasury[seat]

    def player_camels(self, seat: int) -> int:
        camels = self._camels
        return sum(camels[c] for c in self._cells_of[seat])

    def settlement(self, seat: int) -> int:
        """The cell of ``seat``'s own settlement card (whoever owns it now), -1 before setup."""
        return self._settlement[seat]

    def sector(self, seat: int) -> int:
        """The sector index ``seat`` picked, -1 none."""
        return self._sector[seat]

    def holds_own_settlement(self, seat: int) -> bool:
        cell = self._settlement[seat]
        return cell >= 0 and self._owner[cell] == seat

    def in_game(self, seat: int) -> bool:
        """Whether the seat still owns territory (always true during setup)."""
        return self._round == 0 or bool(self._cells_of[seat])

    def may_win(self, seat: int) -> bool:
        """Whether the seat may win on score: in the game, and holding its own settlement
        where the ruleset requires it (the one home of that rule: the end and its screen)."""
        return self.in_game(seat) and (self.holds_own_settlement(seat)
                                       or not self._game.ruleset.own_settlement_required_to_win)

    def seats_in_game(self) -> list[int]:
        return [s for s in range(self._game.players) if self._cells_of[s]]

    def tribal_cards_left(self, seat: int) -> int:
        """``seat``'s tribal cards still in the round stack."""
        return self._stack_turns[seat]

    def fortune_cards_left(self) -> int:
        """(Mis)fortune cards still in the round stack."""
        return self._stack_cards

    def deck_left(self) -> int:
        return len(self._deck)

    def remaining_cards(self) -> list[str]:
        """The ids of the cards not yet turned, in ruleset order (public: the deck's
        make-up is known; its order is not drawn until a card is turned)."""
        ids = self._game.card_ids
        return [ids[c] for c in self._deck]

    def cards_turned(self) -> list[str]:
        ids = self._game.card_ids
        return [ids[c] for c in self._turned]

    def attack(self) -> tuple[int, int] | None:
        """(source, target) of the running attack, else None."""
        if self._phase in (_ATTACK_DIE, _DEFEND_DIE, _ATTACK_CHOICE, _ENTER):
            return self._source, self._target
        return None

    def pending_move(self) -> tuple[int, int] | None:
        """(source, target) of a move waiting for its count, else None."""
        return (self._source, self._target) if self._phase == _MOVE_COUNT else None

    def count_range(self) -> tuple[int, int] | None:
        """At a count decision: the whole range (lo, hi) being chosen from."""
        return (self._count_lo, self._count_hi) if IS_COUNT[self._phase] else None

    def count_step(self, value: int) -> int:
        """At a count decision: the id of the next step towards ``value`` (clamped into
        what is still possible), so an agent can aim at a count of any size."""
        low, high = digit_range(self._count_lo, self._count_hi, self._count_prefix, self._count_digits)
        digit = (max(0, value) // COUNT_RADIX ** (self._count_digits - 1)) - self._count_prefix * COUNT_RADIX
        return COUNT_BASE + min(high, max(low, digit))

    def buy_cell(self) -> int:
        """At a buy count: the cell the camels go on, else -1."""
        return self._target if self._phase == _BUY_COUNT else -1

    def defended(self, cell: int) -> bool:
        """Whether moving into ``cell`` is an attack for the player whose turn it is:
        another player owns it and has camels on it."""
        holder = self._owner[cell]
        return holder >= 0 and holder != self._player and self._camels[cell] > 0

    def buy_limit(self) -> int:
        """How many camels the player whose turn it is can buy now (cash and box allowing)."""
        price = self._game.camel_price
        box = self._box
        return min(self._cash[self._player] // price, box) if price > 0 else box

    def may_buy_on(self, cell: int) -> bool:
        """Whether the player whose turn it is may place bought camels on ``cell``."""
        return self._game.actions.cell(cell) in self.legal_actions() if self._phase == _BUY_CELL else False

    # ------------------------------------------------------------------------------------
    # OpenSpiel's interface
    # ------------------------------------------------------------------------------------
    def current_player(self) -> int:
        who = _WHO[self._phase]
        if who == _TURN:
            return self._player
        if who == _CHOOSER:
            return self._effect.request.player  # type: ignore[union-attr]
        return self._setup_seat if who == _SETUP else who

    def is_chance_node(self) -> bool:
        return IS_CHANCE[self._phase]

    def is_terminal(self) -> bool:
        return self._phase == _OVER

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal action ids, sorted (chance outcome ids at a chance node)."""
        if player is not None and player != self.current_player():
            return []
        legal = self._legal
        if legal is None:
            if IS_COUNT[self._phase]:  # a range: listed afresh, never kept
                if self._count_hi < COUNT_RADIX:  # a count of one step: its bounds are the digits
                    return list(range(COUNT_BASE + self._count_lo, COUNT_BASE + 1 + self._count_hi))
                low, high = self._count_bounds()
                return list(range(COUNT_BASE + low, COUNT_BASE + high + 1))
            legal = self._legal = self._list_legal()
        return legal[:]

    def legal_actions_mask(self, player: int | None = None) -> list[int]:
        """1 for each legal decision id, 0 elsewhere; ``num_distinct_actions()`` long
        (``max_chance_outcomes()`` at a chance node)."""
        size = self._game.max_chance_outcomes() if self.is_chance_node() else self._game.num_distinct_actions()
        mask = [0] * size
        for action in self.legal_actions(player):
            mask[action] = 1
        return mask

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance node: every outcome id with its probability, sorted; elsewhere empty."""
        phase = self._phase
        if not IS_CHANCE[phase]:
            return []
        if phase == _DEAL:
            pool = self._deal_pool
            total = sum(pool)
            return [(kind, n / total) for kind, n in enumerate(pool) if n]
        if phase == _REVEAL:
            turns = self._stack_turns
            total = sum(turns) + self._stack_cards
            outcomes = [(seat, n / total) for seat, n in enumerate(turns) if n]
            if self._stack_cards:
                counts: dict[int, int] = {}
                for card in self._deck:
                    counts[card] = counts.get(card, 0) + 1
                share = self._stack_cards / total / len(self._deck)
                players = self._game.players
                outcomes.extend((players + card, n * share) for card, n in sorted(counts.items()))
            return outcomes
        sides = self._effect.request.sides if phase == _EFFECT_ROLL else self._game.die_sides  # type: ignore[union-attr]
        return [(d, 1 / sides) for d in range(sides)]

    def apply_action(self, action: int | str) -> None:
        """Apply one step (an id from :meth:`legal_actions`, or a chance outcome at an
        explicit chance node), or a readable action text such as ``move 25 24 5``, which
        takes every step it stands for. Then run on to the next decision."""
        if action.__class__ is not int:
            if isinstance(action, str):
                for step in self.actions_from_text(action):
                    self.apply_action(step)
                return
            action = int(action)  # an int subclass, or a NumPy integer from a learner
        phase = self._phase
        if IS_COUNT[phase]:
            if self._count_hi < COUNT_RADIX:  # a count of one step: its bounds are the digits
                if not self._count_lo <= action - COUNT_BASE <= self._count_hi:
                    raise IllegalAction(self._why_illegal(action))
            else:
                low, high = self._count_bounds()
                if not low <= action - COUNT_BASE <= high:
                    raise IllegalAction(self._why_illegal(action))
        else:
            legal = self._legal
            if legal is None:
                legal = self._legal = self._list_legal()
            if action not in legal:
                raise IllegalAction(self._why_illegal(action))
            if IS_CHANCE[phase]:
                self._apply_chance(action)
                self._advance()
                return
        self._decisions += 1
        self._apply_step(action, False)
        self._advance()

    def action_to_string(self, *args: int) -> str:
        """The readable form of an action id at this node (``action_to_string(action)``
        or OpenSpiel's ``action_to_string(player, action)``)."""
        action = args[-1]
        game = self._game
        space = game.actions
        pos = game.position_of_cell
        phase = self._phase
        if IS_CHANCE[phase]:
            return self._outcome_text(action)
        if phase == _EFFECT_CHOICE:
            answer = self._choice_ids().get(action)
            if answer is None:
                return f"action {action}"
            kind = self._effect.request.kind  # type: ignore[union-attr]
            text = pos[answer] if kind == "territory" else game.tribe_ids[answer] if kind == "player" else answer
            return f"choose {text}"
        if action == PASS:
            return "pass"
        if action == AGAIN:
            return "again"
        if action == GIVE_UP:
            return "give up"
        if space.is_count(action):
            verb = {_DEPOSIT: "deposit", _ENTER: "enter"}.get(phase, "count")
            return f"{verb} {self._count_text(space.count_value(action))}"
        if SECTOR_BASE <= action < space.cell_base:
            return f"sector {game.sector_ids[space.sector_index(action)]}"
        if space.is_cell(action):
            verb = "settle" if phase == _SETTLE else "buy on"
            return f"{verb} {pos[space.cell_of(action)]}"
        if space.is_pair(action):
            source, target = space.pair_of(action)
            verb = "attack" if phase == _MOVE and self.defended(target) else "move"
            return f"{verb} {pos[source]} {pos[target]}"
        if space.is_seat(action):
            return f"choose {game.tribe_ids[space.seat_of(action)]}"
        return f"action {action}"

    def string_to_action(self, *args: Any) -> int:
        """The id of one step written as :meth:`action_to_string` writes it (OpenSpiel's
        ``string_to_action([player,] text)``). A compound text such as ``move 25 24 5``
        is several steps: give it to :meth:`apply_action` or :meth:`actions_from_text`."""
        text = args[-1]
        steps = self.actions_from_text(text)
        if len(steps) != 1:
            raise IllegalAction(f"`{text.strip()}` is {len(steps)} steps; apply_action() takes it whole")
        return steps[0]

    def clone(self) -> "GameState":
        """A copy that shares only immutable things (the game, tables); no log is attached."""
        if self._effect is not None:
            effect = self._effect
            other = _replay_paused(effect.start, effect.where, effect.args, effect.answers)
            other._effect.card_before = effect.card_before  # type: ignore[union-attr]
            other._rng = self._rng
            other._history = self._history[:]
            other._decisions, other._forced_decisions = self._decisions, self._forced_decisions
            other._forced_outcomes = self._forced_outcomes[:]
            return other
        other = GameState.__new__(GameState)
        _copy_plain_fields(self, other)
        other._game = self._game
        other._phase = self._phase
        other._cells_of = [cells[:] for cells in self._cells_of]
        other._buy_ids = [ids[:] for ids in self._buy_ids]
        other._move_ids = self._move_ids
        other._rng = self._rng
        other._forced_outcomes = self._forced_outcomes[:]
        other._legal = self._legal
        other._end_reason = self._end_reason
        other._final_scores = None if self._final_scores is None else self._final_scores[:]
        other._final_tie_breaks = None if self._final_tie_breaks is None else [t[:] for t in self._final_tie_breaks]
        other._winners = None if self._winners is None else self._winners[:]
        other._log = None
        other._rt = None
        other._effect = None
        return other

    def edit(self) -> "PositionEditor":
        """Arrange a position by hand (tests, puzzles): see :class:`~targui_dsl.games.targui.setup.PositionEditor`."""
        return PositionEditor(self)

    def history(self) -> list[int]:
        """Every step taken so far, as action ids (chance outcomes included)."""
        return [entry >> 9 for entry in self._history]

    # Observations (what each seat may see: docs/rules/targui.md section 8) --------------------------
    def observation(self, seat: int) -> "Observation":
        """What ``seat`` sees now, as a read-only view for agents."""
        return Observation(self, seat)

    def observation_string(self, player: int) -> str:
        return observation_string(self, player)

    def observation_tensor(self, player: int) -> list[float]:
        return observation_tensor(self, player)

    def information_state_string(self, player: int) -> str:
        return information_state_string(self, player)

    def resample_from_infostate(self, player: int, rng: "random.Random") -> "GameState":
        """A full state that ``player`` cannot tell from this one: the same observation,
        with what it cannot see (the generator, hence the deck's order and future dice;
        in treasury variants every other seat's cash in hand and treasury) drawn anew
        from ``rng`` and the public record, never from the hidden values themselves."""
        return resample_hidden(self, player, rng)

    # Results ---------------------------------------------------------------------------
    def winners(self) -> list[int]:
        """Winning seats once the game is over (several: a draw); empty before."""
        return list(self._winners) if self._winners is not None else []

    def returns(self) -> list[float]:
        """Per seat: 1/len(winners) for each winner, 0 for the others (all 0 before the end)."""
        winners = self.winners()
        share = 1 / len(winners) if winners else 0.0
        return [share if seat in winners else 0.0 for seat in range(self._game.players)]

    def rewards(self) -> list[float]:
        """The returns, paid at the end (OpenSpiel's per-step rewards)."""
        return self.returns() if self.is_terminal() else [0.0] * self._game.players

    def scores(self) -> list[int]:
        """The final scores once over; before that, what the score formula says now."""
        if self._final_scores is not None:
            return list(self._final_scores)
        score, rt = self._game.score, self.runtime
        return [cap_score(score(rt, seat)) for seat in range(self._game.players)]

    def tie_break_values(self) -> list[list[int]]:
        if self._final_tie_breaks is not None:
            return [t[:] for t in self._final_tie_breaks]
        rt = self.runtime
        return [[cap_score(tb(rt, s)) for tb in self._game.tie_breaks] for s in range(self._game.players)]

    def is_draw(self) -> bool:
        return self._phase == _OVER and len(self._winners or ()) != 1

    @property
    def runtime(self) -> "EffectAdapter":
        """The effect runtime over this state, which compiled effects and formulas get as ``rt``."""
        rt = self._rt
        if rt is None:
            rt = self._rt = EffectAdapter(self)
        return rt

    # ------------------------------------------------------------------------------------
    # The rules: what may be decided now
    # ------------------------------------------------------------------------------------
    def _list_legal(self) -> list[int]:
        """The legal ids at this node: the one definition of every decision's options."""
        phase = self._phase
        if phase == _MOVE:
            # a move (or an attack) from every owned cell with camels to every passable neighbour
            legal = [PASS]
            camels, move_ids = self._camels, self._move_ids
            for source in self._cells_of[self._player]:
                if camels[source]:
                    legal += move_ids[source]
            return legal
        if IS_COUNT[phase]:
            low, high = self._count_bounds()
            return list(range(COUNT_BASE + low, COUNT_BASE + high + 1))
        if phase == _BUY_CELL:
            # camels may be bought when cash and box allow, onto own cells of a buyable kind
            if self.buy_limit() <= 0:
                return [PASS]
            # the player's own cells of a buyable kind: kept in _buy_ids as ownership changes
            return [PASS] + self._buy_ids[self._player]
        if phase == _ATTACK_CHOICE:
            return [AGAIN, GIVE_UP]
        if phase == _EFFECT_CHOICE:
            return sorted(self._choice_ids())
        if IS_CHANCE[phase]:
            return [outcome for outcome, _ in self.chance_outcomes()]
        if phase == _SECTOR:
            taken = set(self._sector)
            return [SECTOR_BASE + i for i in range(len(self._game.sector_ids)) if i not in taken]
        if phase == _SETTLE:
            base = self._game.actions.cell_base
            return [base + cell for cell in self.settle_cells()]
        return []  # OVER

    def _choice_ids(self) -> dict[int, int]:
        """At an effect's choice: action id -> the option it answers (a cell, a seat, a number)."""
        request = self._effect.request  # type: ignore[union-attr]
        space = self._game.actions
        if request.kind == "territory":
            return {space.cell(cell): cell for cell in request.options}
        if request.kind == "player":
            return {space.seat(seat): seat for seat in request.options}
        return {COUNT_BASE + i: number for i, number in enumerate(request.options)}

    def choice(self) -> tuple[str, str, list[int]] | None:
        """At an effect's choice: (what is chosen: territory, player or number; the choice as the
        ruleset wrote it; the options), else None."""
        if self._phase != _EFFECT_CHOICE:
            return None
        request = self._effect.request  # type: ignore[union-attr]
        return request.kind, request.prompt, list(request.options)

    def _count_bounds(self) -> tuple[int, int]:
        """The digits the count step under way allows (the count itself below 256)."""
        if self._count_hi < COUNT_RADIX:  # a count of one step: its bounds are the digits
            return self._count_lo, self._count_hi
        return digit_range(self._count_lo, self._count_hi, self._count_prefix, self._count_digits)

    def settle_cells(self, seat: int | None = None) -> list[int]:
        """Cells ``seat`` (default: the one settling now) may put its settlement on, in cell order."""
        game = self._game
        seat = self._setup_seat if seat is None else seat
        if game.picks_sectors:
            sector = self._sector[seat]
            cells: Sequence[int] = game.sector_cells[sector] if sector >= 0 else ()
        else:
            cells = game.seating.choices[seat]
        taken = set(self._settlement)
        return sorted(c for c in cells if c not in taken)

    def free_sectors(self) -> list[int]:
        taken = set(self._sector)
        return [i for i in range(len(self._game.sector_ids)) if i not in taken]

    def _why_illegal(self, action: int) -> str:
        if self._phase == _OVER:
            return "the game is over"
        if IS_CHANCE[self._phase]:
            return f"{action} is not an outcome of this chance node ({LABELS[self._phase]})"
        if not 0 <= action < self._game.num_distinct_actions():
            return f"no action {action} (ids are 0..{self._game.num_distinct_actions() - 1})"
        return f"`{self.action_to_string(action)}` is not legal now ({self.expecting()})"

    def expecting(self) -> str:
        """What the current decision asks for, in words."""
        phase = self._phase
        if IS_COUNT[phase]:
            low, high = digit_range(self._count_lo, self._count_hi, self._count_prefix, self._count_digits)
            what = {_DEPOSIT: "how much to deposit", _MOVE_COUNT: "how many camels move",
                    _ENTER: "how many camels enter", _BUY_COUNT: "how many camels to buy"}[phase]
            return f"{what}: {self._count_text(low)} to {self._count_text(high)}"
        return {
            _SECTOR: "pick a sector", _SETTLE: "settle", _MOVE: "move, attack or pass",
            _ATTACK_CHOICE: "again or give up", _BUY_CELL: "buy on a cell, or pass", _EFFECT_CHOICE: "choose (an effect asks)",
            _OVER: "nothing: the game is over",
        }.get(phase, f"a chance outcome ({LABELS[phase]})")

    def _count_text(self, digit: int) -> str:
        """A count step's value as text: the count itself, or the range a digit narrows to."""
        value = self._count_prefix * COUNT_RADIX + digit
        if self._count_digits <= 1:
            return str(value)
        scale = COUNT_RADIX ** (self._count_digits - 1)
        low = max(self._count_lo, value * scale)
        high = min(self._count_hi, value * scale + scale - 1)
        return f"{low}..{high}"

    def actions_from_text(self, text: str) -> list[int]:
        """The steps a readable action stands for at this node, each checked before any
        is applied (``move 25 24 5`` -> the pair, then the count; see :mod:`.readable`)."""
        return steps_from_text(self, text)

    # ------------------------------------------------------------------------------------
    # Chance
    # ------------------------------------------------------------------------------------
    def force_chance(self, *outcomes: int | str) -> None:
        """Queue outcomes for the next chance nodes, for tests and replays: texts as logs
        write them (``die 4``, ``card sandstorm``, ``turn kel_ress``, ``deal guelta``) or
        plain ints for die throws. Queued outcomes win over the generator and over
        explicit chance nodes."""
        self._forced_outcomes.extend(outcomes)
        self._advance()

    def _outcome_text(self, outcome: int) -> str:
        game = self._game
        phase = self._phase
        if phase == _DEAL:
            return f"deal {game.kind_ids[outcome]}"
        if phase == _REVEAL:
            if outcome < game.players:
                return f"turn {game.tribe_ids[outcome]}"
            return f"card {game.card_ids[outcome - game.players]}"
        return f"die {outcome + 1}"

    def _outcome_from_words(self, w: list[str], text: str) -> int:
        game = self._game
        phase = self._phase
        verb, args = w[0], w[1:]
        outcome: int | None = None
        if len(args) == 1:
            if verb == "die" and phase in (_ROUND_DIE, _ATTACK_DIE, _DEFEND_DIE, _EFFECT_ROLL):
                outcome = plain_number(args[0], text) - 1
            elif verb == "deal" and phase == _DEAL:
                outcome = game.kind_by_id.get(args[0])
            elif verb == "turn" and phase == _REVEAL:
                outcome = game.seat_of_tribe_id.get(args[0])
            elif verb == "card" and phase == _REVEAL:
                card = game.card_index.get(args[0])
                outcome = None if card is None else game.players + card
        if outcome is None or outcome not in self.legal_actions():
            raise IllegalAction(f"`{text.strip()}` is not a possible outcome of this chance node ({LABELS[phase]})")
        return outcome

    def _sample_chance(self) -> int:
        """Draw the outcome of this chance node from the generator (the same draws, in the
        same order, as every earlier version, so seeds keep their games)."""
        phase = self._phase
        # a draw r among weighted items is the first item whose running total exceeds r:
        # bisect_right over the running totals (in C) picks what a loop subtracting would
        if phase == _REVEAL:
            r = self._below(self._stack_left)
            seat = bisect_right(list(accumulate(self._stack_turns)), r)
            if seat < self._game.players:
                return seat
            return self._game.players + self._deck[self._below(len(self._deck))]
        if phase == _DEAL:
            totals = list(accumulate(self._deal_pool))
            if not totals[-1]:
                raise AssertionError("empty deal pool")
            return bisect_right(totals, self._below(totals[-1]))
        # a die: chance.below() inlined, this being the most frequent draw
        game = self._game
        rng = self._rng
        while True:
            rng = (rng + GOLDEN) & MASK64
            bits = ((rng ^ (rng >> 30)) * 0xBF58476D1CE4E5B9) & MASK64  # mix64(rng), inlined
            bits = ((bits ^ (bits >> 27)) * 0x94D049BB133111EB) & MASK64
            bits ^= bits >> 31
            if bits < game.die_limit:
                self._rng = rng
                return bits % game.die_sides

    def _below(self, n: int) -> int:
        """chance.below() on the game's generator, inlined: one call per draw instead of
        three and no tuples (the stack's reveal draws at every turn). The same draws."""
        limit = (1 << 64) - ((1 << 64) % n)
        rng = self._rng
        while True:
            rng = (rng + GOLDEN) & MASK64
            bits = ((rng ^ (rng >> 30)) * 0xBF58476D1CE4E5B9) & MASK64  # mix64(rng), inlined
            bits = ((bits ^ (bits >> 27)) * 0x94D049BB133111EB) & MASK64
            bits ^= bits >> 31
            if bits < limit:
                self._rng = rng
                return bits % n

    def _apply_chance(self, outcome: int) -> None:
        phase = self._phase
        self._history.append((outcome << 9) | (phase << 4))
        if self._log is not None:
            self._emit({"type": "chance", "round": self._round, "node": LABELS[phase],
                        "action": self._outcome_text(outcome)})
        # in order of frequency: a reveal at every turn and card, then the deal, the fight's dice
        if phase == _REVEAL:
            players = self._game.players
            if outcome < players:
                self._stack_turns[outcome] -= 1
                self._stack_left -= 1
                self._start_turn(outcome)
            else:
                card = outcome - players
                self._stack_cards -= 1
                self._stack_left -= 1
                self._deck.remove(card)
                self._turned.append(card)
                if self._run_card(card) and self._phase != _OVER:
                    self._next_from_stack()
        elif phase == _DEAL:
            self._deal(outcome)
        elif phase == _ATTACK_DIE:
            self._attacker_throws(outcome + 1)
        elif phase == _DEFEND_DIE:
            self._defender_throws(outcome + 1)
        elif phase == _ROUND_DIE:
            self._start_round(outcome + 1)
        else:  # EFFECT_ROLL
            self._answer_effect(outcome + 1)

    # ------------------------------------------------------------------------------------
    # Running on to the next decision
    # ------------------------------------------------------------------------------------
    def _advance(self) -> None:
        """Resolve chance and forced decisions until a real decision, an explicit chance
        node or the end."""
        while True:
            node = _NODE[self._phase]
            if node == _LISTED:
                legal = self._list_legal()
                if len(legal) != 1:
                    self._legal = legal
                    return
                self._forced_decisions += 1
                self._apply_step(legal[0], True)
            elif node == _COUNTED:
                if self._count_hi < COUNT_RADIX:  # a count of one step: its bounds are the digits
                    low, high = self._count_lo, self._count_hi
                else:
                    low, high = self._count_bounds()
                self._legal = None  # a range: listed on demand
                if low != high:
                    return
                self._forced_decisions += 1
                self._apply_step(COUNT_BASE + low, True)
            elif node == _DRAWN:
                if self._forced_outcomes:
                    item = self._forced_outcomes.pop(0)
                    self._legal = None
                    outcome = item - 1 if isinstance(item, int) else self._outcome_from_words(words(item), item)
                    if isinstance(item, int) and outcome not in self.legal_actions():
                        raise IllegalAction(f"die {item} is not a possible throw")
                elif self._game.explicit_chance:
                    self._legal = None
                    return
                else:
                    outcome = self._sample_chance()
                self._apply_chance(outcome)
            else:
                self._legal = []
                return

    def _apply_step(self, action: int, forced: bool) -> None:
        """Apply one decision step (known legal). The branches are in order of frequency."""
        phase = self._phase
        actor = self._player if phase >= _DEPOSIT else self._setup_seat
        if phase == _EFFECT_CHOICE:
            actor = self._effect.request.player  # type: ignore[union-attr]
        self._history.append((action << 9) | (phase << 4) | (actor + 1))
        if phase == _MOVE:
            if action == PASS:
                if self._log is not None:
                    self._decided("pass", forced)
                self._source = self._target = -1  # _start_adding(), inlined
                self._phase = _BUY_CELL
                return
            game = self._game
            source, target = game.pair_source[action], game.pair_target[action]
            self._source, self._target = source, target
            holder = self._owner[target]
            if holder >= 0 and holder != actor and self._camels[target] > 0:  # defended: an attack
                if self._log is not None:
                    pos = game.position_of_cell
                    self._decided(f"attack {pos[source]} {pos[target]}", forced)
                self._phase = _ATTACK_DIE
            else:  # _begin_count(_MOVE_COUNT, 1, camels, forced), inlined: its most frequent caller
                camels = self._camels[source]
                self._phase = _MOVE_COUNT
                self._count_lo, self._count_hi, self._count_prefix = 1, camels, 0
                self._count_digits = 1 if camels < COUNT_RADIX else count_digits(camels)
                self._compound_forced = forced
        elif IS_COUNT[phase]:
            value = self._count_prefix * COUNT_RADIX + action - COUNT_BASE
            forced = forced and self._compound_forced
            if self._count_digits > 1:
                self._count_prefix = value
                self._count_digits -= 1
                self._compound_forced = forced
            elif phase == _MOVE_COUNT:  # the move: `value` camels from source to target
                source, target = self._source, self._target
                if self._log is not None:
                    pos = self._game.position_of_cell
                    self._decided(f"move {pos[source]} {pos[target]} {value}", forced)
                self._camels[source] -= value
                self._camels[target] += value
                if self._owner[target] != actor:
                    self._set_owner(target, actor)
                    if self._phase == _OVER:
                        return
                self._source = self._target = -1  # _start_adding(), inlined
                self._phase = _BUY_CELL
            elif phase == _BUY_COUNT:  # the purchase: `value` camels onto the chosen cell
                game = self._game
                cell = self._target
                if self._log is not None:
                    self._decided(f"buy {value} on {game.position_of_cell[cell]}", forced)
                cost = value * game.camel_price
                self._cash[actor] -= cost
                spent = self._spent[actor] + cost  # clamp(), inlined: never negative
                self._spent[actor] = spent if spent < MAX_VALUE else MAX_VALUE
                self._camels[cell] += value
                self._box -= value
                self._end_adding()
            elif phase == _ENTER:
                self._enter(value, forced)
            else:
                self._deposit(value, forced)
        elif phase == _BUY_CELL:
            if action == PASS:
                if self._log is not None:
                    self._decided("pass", forced)
                self._end_adding()
            else:  # _begin_count(_BUY_COUNT, 1, self.buy_limit(), forced), inlined
                self._target = action - self._game.cell_base
                limit = self.buy_limit()
                self._phase = _BUY_COUNT
                self._count_lo, self._count_hi, self._count_prefix = 1, limit, 0
                self._count_digits = 1 if limit < COUNT_RADIX else count_digits(limit)
                self._compound_forced = forced
        elif phase == _ATTACK_CHOICE:
            if action == AGAIN:
                if self._log is not None:
                    self._decided("again", forced)
                self._phase = _ATTACK_DIE
            else:
                if self._log is not None:
                    self._decided("give up", forced)
                self._end_attack("given up")
        elif phase == _EFFECT_CHOICE:
            if self._log is not None:
                self._decided(self.action_to_string(action), forced)
            self._answer_effect(self._choice_ids()[action])
        elif phase == _SECTOR:
            index = action - SECTOR_BASE
            self._decided(f"sector {self._game.sector_ids[index]}", forced)
            self._pick_sector(index)
        else:  # SETTLE
            cell = self._game.actions.cell_of(action)
            self._decided(f"settle {self._game.position_of_cell[cell]}", forced)
            self._settle(cell)

    def _begin_count(self, phase: int, lo: int, hi: int, forced: bool) -> None:
        self._phase = phase
        self._count_lo = lo
        self._count_hi = hi
        self._count_prefix = 0
        self._count_digits = 1 if hi < COUNT_RADIX else count_digits(hi)
        self._compound_forced = forced

    def _decided(self, text: str, forced: bool) -> None:
        """A whole decision (all its steps) was made: log it as one readable action."""
        if self._log is not None:
            seat = self.current_player()
            self._emit({"type": "decision", "round": self._round, "player": seat,
                        "tribe": self._game.tribe_ids[seat], "action": text, "forced": forced})

    # ------------------------------------------------------------------------------------
    # Setup
    # ------------------------------------------------------------------------------------
    def _pick_sector(self, sector: int) -> None:
        self._sector[self._setup_seat] = sector
        self._setup_seat += 1
        if self._setup_seat == self._game.players:
            self._setup_seat = 0
            self._phase = _DEAL

    def _deal(self, kind: int) -> None:
        game = self._game
        self._kind[game.deal_cells[self._deal_next]] = kind
        self._deal_pool[kind] -= 1
        self._deal_next += 1
        if self._deal_next == len(game.deal_cells):
            # cards left over (a house rule with more cards than positions) stay in the box
            self._deal_pool = [0] * len(self._deal_pool)
            self._setup_seat = 0
            self._phase = _SETTLE

    def _settle(self, cell: int) -> None:
        game = self._game
        seat = self._setup_seat
        # the card on the cell leaves the game; the settlement takes its place
        self._kind[cell] = game.settlement_kind
        self._settlement[seat] = cell
        self._set_owner(cell, seat)
        self.runtime.set_camels(cell, game.start_camels[seat])
        self._cash[seat] = clamp(game.start_cash[seat])
        self._setup_seat += 1
        if self._setup_seat == game.players:
            self._fix_board()
            self._round = 1
            self._phase = _ROUND_DIE
            self._run_hooks("game_start")  # a pause there resumes at the round's die

    def _rebuild_buy_ids(self) -> None:
        """Each seat's `buy on` ids from its cells and their kinds (after a load or an edit)."""
        game = self._game
        base, buyable, kind = game.cell_base, game.kind_buyable, self._kind
        self._buy_ids = [[base + cell for cell in cells if buyable[kind[cell]]] for cells in self._cells_of]

    def _fix_board(self) -> None:
        """The pair ids to passable neighbours, per cell: fixed once every card lies."""
        game = self._game
        passable = game.kind_passable
        closed = [cell for cell, kind in enumerate(self._kind) if kind < 0 or not passable[kind]]
        move_ids = list(game.move_ids)  # every pair; then the few ways into a closed cell go
        target_of = game.pair_target
        for cell in closed:
            for source in game.sources_into[cell]:
                move_ids[source] = tuple([pair for pair in move_ids[source] if target_of[pair] != cell])
        self._move_ids = tuple(move_ids)

    # ------------------------------------------------------------------------------------
    # Rounds and turns
    # ------------------------------------------------------------------------------------
    def _start_round(self, die: int) -> None:
        ruleset = self._game.ruleset
        self._round_die = die
        self._double = die >= ruleset.double_turn_from
        cards = 1 if self._double else min(die, ruleset.tribal_cards)
        self._stack_turns = [cards if owned else 0 for owned in self._cells_of]
        self._stack_cards = min(ruleset.fortune_cards_per_round, len(self._deck))
        self._stack_left = sum(self._stack_turns) + self._stack_cards
        if self._log is not None:
            self._emit({"type": "round", "round": self._round, "die": die, "double_turn": self._double,
                        "tribal_cards": cards, "fortune_cards": self._stack_cards})
        if self._run_hooks("round_start") and self._phase != _OVER:
            self._next_from_stack()

    def _next_from_stack(self) -> None:
        if self._stack_left:
            self._phase = _REVEAL
        else:
            self._end_round()

    def _start_turn(self, seat: int) -> None:
        self._player = seat
        self._cycles_left = 2 if self._double else 1
        if self._log is not None:
            self._emit({"type": "turn", "round": self._round, "player": seat, "tribe": self._game.tribe_ids[seat],
                        "double_turn": self._double})
        if self._game.turn_start_hooks and (not self._run_hooks("turn_start", seat) or self._phase == _OVER):
            return
        self._start_movement()

    def _start_movement(self) -> None:
        if self._game.treasury:
            cash = self._cash[self._player]
            if cash > 0:  # how much to deposit: _begin_count(_DEPOSIT, 0, cash, True), inlined
                self._phase = _DEPOSIT
                self._count_lo, self._count_hi, self._count_prefix = 0, cash, 0
                self._count_digits = 1 if cash < COUNT_RADIX else count_digits(cash)
                self._compound_forced = True
                return
        self._phase = _MOVE

    def _start_adding(self) -> None:
        self._source = self._target = -1
        self._phase = _BUY_CELL

    def _end_adding(self) -> None:
        self._cycles_left -= 1
        if self._cycles_left > 0:
            self._start_movement()
        else:
            if self._game.turn_end_hooks and not self._run_hooks("turn_end", self._player):
                return
            self._player = -1
            if self._phase != _OVER:
                if self._stack_left:  # _next_from_stack(), inlined
                    self._phase = _REVEAL
                else:
                    self._end_round()

    def _end_round(self, stage: int = 0) -> None:
        """The round's end, in stages so that a hook may pause for a choice and the rest
        run after the answer: 0 before_levy hooks, 1 the levy and after_levy hooks,
        2 the round_end event and hooks, 3 the final scores or the next round."""
        game = self._game
        seats = range(game.players)
        if stage == 0:
            self._round_cash = self._cash[:]  # what the round's end takes from hands is told
            if not self._run_hooks("before_levy"):
                return
            stage = 1
        if stage == 1:
            self._round_cash = [max(0, self._round_cash[s] - self._cash[s]) for s in seats]  # now: cash lost
            levy = self._round_levy = [0] * game.players
            rt = self.runtime
            levy_formula, cash, levy_total, cells_of = game.levy, self._cash, self._levy_total, self._cells_of
            for seat in seats:
                if cells_of[seat]:  # clamp() inlined: cash and the ledger are never negative
                    value = int(levy_formula(rt, seat))
                    value = levy[seat] = 0 if value < 0 else value if value < MAX_VALUE else MAX_VALUE
                    value = cash[seat] + value
                    cash[seat] = value if value < MAX_VALUE else MAX_VALUE
                    value = levy_total[seat] + levy[seat]
                    levy_total[seat] = value if value < MAX_VALUE else MAX_VALUE
            if not self._run_hooks("after_levy"):
                return
            stage = 2
        if stage == 2:
            if self._log is not None:
                ids, lost, levy = game.tribe_ids, self._round_cash, self._round_levy
                self._emit({"type": "round_end", "round": self._round,
                            "cash_lost": {ids[s]: lost[s] for s in seats},
                            "levy": {ids[s]: levy[s] for s in seats},
                            "cash": {ids[s]: self._cash[s] for s in seats},
                            "treasury": {ids[s]: self._treasury[s] for s in seats}})
            if not self._run_hooks("round_end"):
                return
        if not self._deck and self._phase != _OVER:
            # final scores see this round's modifiers (RULES 7: "modifiers of the last round included")
            self._finish("deck")
        self._strategic_now = self._strategic_lasting[:]
        self._economic_now = self._economic_lasting[:]
        if self._phase != _OVER:
            self._round += 1
            self._phase = _ROUND_DIE

    def _run_hooks(self, moment: str, *args: int, first: int = 0) -> bool:
        """Run the ruleset's effects for a moment of the game, in order, from hook ``first``.
        False when one paused for a player's choice (the rest runs after the answer)."""
        hooks = self._game.hooks[moment]
        for index in range(first, len(hooks)):
            if self._phase == _OVER:
                return True
            if not self._run_effect(hooks[index], ("hook", moment, index), *args):
                return False
        return True

    def _run_effect(self, code: Any, where: tuple[Any, ...], *args: int) -> bool:
        """Run one compiled effect; False when it paused for a player's choice. A die thrown
        inside it comes from the game's generator (or a queued outcome)."""
        if not code.pauses:
            code.function(self.runtime, *args)
            return True
        effect = PausedEffect(where, code, args, self.clone())
        effect.gen = code.function(self.runtime, *args)
        return self._drive_effect(effect, None)

    def _drive_effect(self, effect: PausedEffect, answer: int | None) -> bool:
        """Run ``effect`` on from ``answer`` to its next choice (False) or its end (True)."""
        while True:
            try:
                request = effect.gen.send(answer)
            except StopIteration:
                self._effect = None
                return True
            if isinstance(request, RollRequest):
                if self._forced_outcomes or self._game.explicit_chance:
                    effect.request = request  # a chance node: the outcome comes from outside
                    effect.resume_phase = self._phase
                    self._effect = effect
                    self._phase = _EFFECT_ROLL
                    return False
                self._rng, r = below(self._rng, max(1, request.sides))
                answer = r + 1
                effect.answers.append(answer)  # a copy replays the die, not the generator
                self._effect_roll_event(answer)
                continue
            effect.request = request
            self._effect = effect
            effect.resume_phase = self._phase
            self._phase = _EFFECT_CHOICE
            return False

    def _effect_roll_event(self, value: int) -> None:
        if self._log is not None:
            self._emit({"type": "chance", "round": self._round, "node": "effect_roll", "action": f"die {value}"})

    def _answer_effect(self, answer: int) -> None:
        """The chooser answered: run the effect on, then what its caller had left to do."""
        effect = self._effect
        assert effect is not None
        effect.answers.append(answer)
        self._phase = effect.resume_phase
        if not self._drive_effect(effect, answer):
            return
        self._effect_done(effect)

    def _effect_done(self, effect: PausedEffect) -> None:
        """What follows a paused effect's end: the card's event and the stack, or the
        moment's remaining hooks and what follows them."""
        if effect.where[0] == "card":
            self._card_event(effect.where[1], effect.card_before)
            if self._phase != _OVER:
                self._next_from_stack()
            return
        _, moment, index = effect.where
        if not self._run_hooks(moment, *effect.args, first=index + 1) or self._phase == _OVER:
            return
        if moment == "game_start":
            self._phase = _ROUND_DIE
        elif moment == "round_start":
            self._next_from_stack()
        elif moment == "turn_start":
            self._start_movement()
        elif moment == "turn_end":
            self._player = -1
            self._next_from_stack()
        else:
            self._end_round(_ROUND_END_STAGE_AFTER[moment])

    def _run_card(self, card: int) -> bool:
        """Run a (mis)fortune card's effect; False when it paused for a player's choice."""
        before = self._snapshot() if self._log is not None else None
        if not self._run_effect(self._game.cards[self._game.card_ids[card]].effect, ("card", card)):
            self._effect.card_before = before  # type: ignore[union-attr]
            return False
        self._card_event(card, before)
        return True

    def _card_event(self, card: int, before: Any) -> None:
        if self._log is not None:
            game = self._game
            card_id = game.card_ids[card]
            self._emit({"type": "card", "round": self._round, "card": card_id, "number": game.cards[card_id].number,
                        "title": game.cards[card_id].title, "changes": self._changes_since(before)})

    def _snapshot(self) -> tuple[list[int], list[int], list[int], int, list[int], list[int]]:
        return (self._camels[:], self._cash[:], self._treasury[:], self._box,
                self._strategic_now[:], self._economic_now[:])

    def _changes_since(self, before: tuple[list[int], list[int], list[int], int, list[int], list[int]]) -> dict[str, Any]:
        game = self._game
        camels, cash, treasury, box, strategic, economic = before
        pos, ids, kinds = game.position_of_cell, game.tribe_ids, game.kind_ids
        changes: dict[str, Any] = {
            "camels": {str(pos[c]): [camels[c], self._camels[c]]
                       for c in range(game.cells) if camels[c] != self._camels[c]},
            "cash": {ids[s]: [cash[s], self._cash[s]] for s in range(game.players) if cash[s] != self._cash[s]},
            "treasury": {ids[s]: [treasury[s], self._treasury[s]]
                         for s in range(game.players) if treasury[s] != self._treasury[s]},
            "box": [box, self._box],
            "kinds": {},
        }
        for k in range(len(kinds)):
            entry = {}
            if strategic[k] != self._strategic_now[k]:
                entry["strategic"] = [strategic[k], self._strategic_now[k]]
            if economic[k] != self._economic_now[k]:
                entry["economic"] = [economic[k], self._economic_now[k]]
            if entry:
                changes["kinds"][kinds[k]] = entry
        return changes

    # ------------------------------------------------------------------------------------
    # Moves, fights, purchases
    # ------------------------------------------------------------------------------------
    def _deposit(self, amount: int, forced: bool) -> None:
        if amount:
            seat = self._player
            if self._log is not None:
                self._decided(f"deposit {amount}", forced)
            self._cash[seat] -= amount
            treasury = self._treasury[seat] + amount  # clamp(), inlined: never negative
            self._treasury[seat] = treasury if treasury < MAX_VALUE else MAX_VALUE
            self._deposits[seat] += 1
        self._phase = _MOVE

    def _attacker_throws(self, die: int) -> None:
        source, target = self._source, self._target
        have = self._camels[target]
        loss = int(self._game.defender_loses(self._rt or self.runtime, die, source, target))
        loss = 0 if loss < 0 else loss if loss < have else have
        self._camels[target] = have - loss
        self._box += loss
        if self._log is not None:
            self._fight_event("attacker", die, loss)
        if have == loss:
            self._begin_count(_ENTER, 1, self._camels[source], True)
        else:
            self._phase = _DEFEND_DIE

    def _defender_throws(self, die: int) -> None:
        source, target = self._source, self._target
        have = self._camels[source]
        loss = int(self._game.attacker_loses(self._rt or self.runtime, die, source, target))
        loss = 0 if loss < 0 else loss if loss < have else have
        self._camels[source] = have - loss
        self._box += loss
        if self._log is not None:
            self._fight_event("defender", die, loss)
        if have == loss:
            self._end_attack("failed")
        else:
            self._phase = _ATTACK_CHOICE

    def _fight_event(self, thrower: str, die: int, loss: int) -> None:
        if self._log is not None:
            pos = self._game.position_of_cell
            self._emit({"type": "fight", "round": self._round, "thrower": thrower, "die": die, "loss": loss,
                        "source": pos[self._source], "target": pos[self._target],
                        "camels": [self._camels[self._source], self._camels[self._target]]})

    def _enter(self, count: int, forced: bool) -> None:
        source, target = self._source, self._target
        if self._log is not None:
            self._decided(f"enter {count}", forced)
        self._camels[source] -= count
        self._camels[target] += count
        self._end_attack("won")
        # after the attack's end: taking the last enemy territory ends the game, and `end` is the last event
        self._set_owner(target, self._player)

    def _end_attack(self, result: str) -> None:
        if self._log is not None:
            pos = self._game.position_of_cell
            self._emit({"type": "attack_end", "round": self._round, "result": result,
                        "source": pos[self._source], "target": pos[self._target]})
        if self._phase != _OVER:
            self._start_adding()

    # ------------------------------------------------------------------------------------
    # Ownership, elimination, the end
    # ------------------------------------------------------------------------------------
    def _set_owner(self, cell: int, seat: int) -> None:
        previous = self._owner[cell]
        if previous == seat:
            return
        self._owner[cell] = seat
        game = self._game
        buyable = game.kind_buyable[self._kind[cell]]
        if seat >= 0:
            insort(self._cells_of[seat], cell)
            if buyable:
                insort(self._buy_ids[seat], game.cell_base + cell)
        if previous < 0:
            return
        left = self._cells_of[previous]
        left.remove(cell)
        if buyable:
            self._buy_ids[previous].remove(game.cell_base + cell)
        if not left:
            self._stack_left -= self._stack_turns[previous]
            self._stack_turns[previous] = 0  # an eliminated player's tribal cards are void
            if self._log is not None:
                self._emit({"type": "eliminated", "round": self._round, "player": previous,
                            "tribe": self._game.tribe_ids[previous]})
            if self._round > 0 and sum(1 for cells in self._cells_of if cells) == 1:
                self._finish("last_standing")

    def _finish(self, reason: str) -> None:
        game = self._game
        rt = self.runtime
        seats = range(game.players)
        scores = [cap_score(game.score(rt, s)) for s in seats]
        tie_breaks = [[cap_score(tb(rt, s)) for tb in game.tie_breaks] for s in seats]
        in_game = self.seats_in_game()
        if reason == "last_standing":
            winners = list(in_game)
        else:
            eligible = [s for s in in_game if self.may_win(s)]
            if eligible:
                key = {s: (scores[s], *tie_breaks[s]) for s in eligible}
                best = max(key.values())
                winners = [s for s in eligible if key[s] == best]
            else:
                winners = list(in_game)  # nobody may win: a draw among those still playing
        self._final_scores, self._final_tie_breaks, self._winners = scores, tie_breaks, winners
        self._end_reason = reason
        self._phase = _OVER
        if self._log is not None:
            ids = game.tribe_ids
            self._emit({"type": "end", "reason": reason, "rounds": self._round,
                        "scores": {ids[s]: scores[s] for s in seats},
                        "tie_breaks": {ids[s]: tie_breaks[s] for s in seats},
                        "winners": [ids[s] for s in winners], "draw": len(winners) != 1})

    def _emit(self, event: dict[str, Any]) -> None:
        if self._log is not None:
            self._log.emit(event)

    # ------------------------------------------------------------------------------------
    # Saving and loading
    # ------------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """Everything needed to resume the game exactly, the generator included; plain JSON."""
        game = self._game
        saved: dict[str, Any] = {name[1:]: getattr(self, name)[:] for name in _LIST_FIELDS}
        saved.update({name[1:]: getattr(self, name) for name in _INT_FIELDS + _BOOL_FIELDS})
        saved["cells_of"] = [cells[:] for cells in self._cells_of]
        saved["phase"] = LABELS[self._phase]
        saved["rng"] = format(self._rng, "016x")  # 64 bits: a string, so no JSON reader rounds it
        saved["forced_outcomes"] = [o for o in self._forced_outcomes]
        saved["end_reason"] = self._end_reason
        saved["final_scores"] = None if self._final_scores is None else self._final_scores[:]
        saved["final_tie_breaks"] = None if self._final_tie_breaks is None else [t[:] for t in self._final_tie_breaks]
        saved["winners"] = None if self._winners is None else self._winners[:]
        if self._effect is not None:
            effect = self._effect
            saved["effect"] = {"where": list(effect.where), "args": list(effect.args), "answers": effect.answers[:],
                               "start": effect.start.to_json()["state"]}
        return {
            "format": STATE_FORMAT,
            "ruleset": game.ruleset.id,
            "players": game.players,
            "tribes": list(game.tribe_ids),
            "seed": game.seed,
            "explicit_chance": game.explicit_chance,
            "state": saved,
        }

    @classmethod
    def from_json(cls, ruleset: Any, data: dict[str, Any]) -> "GameState":
        """A state saved by :meth:`to_json` (``ValueError`` with the reason for anything else)."""
        fmt = data.get("format") if isinstance(data, dict) else None
        if fmt != STATE_FORMAT:
            if isinstance(fmt, str) and fmt.startswith("targui-state/"):
                raise ValueError(f"this state was saved in format {fmt!r}, which this targui cannot resume "
                                 f"(it reads {STATE_FORMAT!r}); replay the game's log instead")
            raise ValueError(f"not a saved targui state (format {fmt!r}, expected {STATE_FORMAT!r})")
        if data.get("ruleset") != ruleset.id:
            raise ValueError(f"the state was saved for ruleset {data.get('ruleset')!r}, not {ruleset.id!r}")
        game = Game(ruleset, players=data["players"], seed=data["seed"], tribes=data["tribes"],
                    explicit_chance=data["explicit_chance"])
        saved = data["state"]
        state = cls.__new__(cls)
        state._game = game
        try:
            for name in _LIST_FIELDS:
                setattr(state, name, [int(v) for v in saved[name[1:]]])
            for name in _INT_FIELDS:
                setattr(state, name, int(saved[name[1:]]))
            for name in _BOOL_FIELDS:
                setattr(state, name, bool(saved[name[1:]]))
            state._cells_of = [[int(c) for c in cells] for cells in saved["cells_of"]]
            state._rebuild_buy_ids()
            state._phase = int(PHASE_BY_LABEL[saved["phase"]])
            state._rng = int(saved["rng"], 16) & MASK64
            state._forced_outcomes = list(saved["forced_outcomes"])
            state._end_reason = saved["end_reason"]
            finals = saved["final_scores"], saved["final_tie_breaks"], saved["winners"]
            state._final_scores = None if finals[0] is None else [int(v) for v in finals[0]]
            state._final_tie_breaks = None if finals[1] is None else [[int(v) for v in t] for t in finals[1]]
            state._winners = None if finals[2] is None else [int(v) for v in finals[2]]
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"a saved state with a missing or broken field: {exc}") from None
        state._log = None
        state._rt = None
        state._legal = None
        state._effect = None
        state._move_ids = tuple(() for _ in range(game.cells))
        if state._round > 0:
            state._fix_board()
        paused = saved.get("effect")
        if paused is not None:
            try:
                start = cls.from_json(ruleset, {**data, "state": paused["start"]})
                where = tuple(paused["where"])
                resumed = _replay_paused(start, where, tuple(int(a) for a in paused["args"]),
                                         [int(a) for a in paused["answers"]])
            except (KeyError, TypeError, ValueError, IndexError) as exc:
                raise ValueError(f"a saved state with a broken paused effect: {exc}") from None
            resumed._history, resumed._decisions, resumed._rng = state._history, state._decisions, state._rng
            resumed._forced_decisions, resumed._forced_outcomes = state._forced_decisions, state._forced_outcomes
            return resumed
        return state

    # ------------------------------------------------------------------------------------
    def __str__(self) -> str:
        from targui_dsl.games.targui.render import render_state

        return render_state(self)

    def __repr__(self) -> str:
        return (f"<GameState {self._game.ruleset.id} round {self._round} {LABELS[self._phase]}"
                f" player {self.current_player()}>")

