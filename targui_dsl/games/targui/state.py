"""The public game and its state: ``Game`` (the tables, and ``new_initial_state()``) and
``GameState``, OpenSpiel's State interface over integer actions.

A :class:`GameState` holds one :class:`~targui_dsl.games.targui.record.TarguiRecord`
(every changing fact, public fields, no rules) and delegates: the rules are
handlers over the record (:mod:`.flow` lists the legal actions and runs on
to the next decision; :mod:`.rules_setup`, :mod:`.rules_round`,
:mod:`.rules_fight`, :mod:`.ownership` and :mod:`.rules_effects` are the
rules), the words of a node are :mod:`.texts`, readable actions
:mod:`.readable`, what each seat sees :mod:`.observation`.

Compiled card effects and formulas never see this class: they get an
:class:`~targui_dsl.games.targui.runtime.EffectAdapter` over the record.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING, Any, Callable, Final, Sequence, cast

from targui_dsl.effects.prebuilt import register
from targui_dsl.engine.native import compiled
from targui_dsl.games.targui import _snippets, flow, texts
from targui_dsl.games.targui.actions import COUNT_BASE, COUNT_IDS, COUNT_RADIX, IllegalAction, digit_range
from targui_dsl.games.targui.flow import (
    TURN_DECIDES,
    advance,
    apply_chance,
    apply_step,
    check_node,
    count_bounds,
    list_legal,
)
from targui_dsl.games.targui.names import VOCABULARY
from targui_dsl.games.targui.observation import (
    Observation,
    fill_observation,
    information_state_string,
    observation_string,
    observation_tensor,
    resample_hidden,
    tensor_size,
)
from targui_dsl.games.targui.ownership import cap_score, holds_own_settlement, in_game, may_win, seats_in_game
from targui_dsl.games.targui.phases import (
    ATTACK_PHASES,
    BUY_CELL,
    BUY_COUNT,
    DEAL,
    EFFECT_CHOICE,
    EFFECT_ROLL,
    IS_CHANCE,
    IS_COUNT,
    LABELS,
    MOVE_COUNT,
    OVER,
    SECTOR,
    Phase,
    step_action,
)
from targui_dsl.games.targui.readable import steps_from_text
from targui_dsl.games.targui.record import TarguiRecord, record_from_json, record_to_json
from targui_dsl.games.targui.render import render_state
from targui_dsl.games.targui.rules_effects import copy_record, replay_paused
from targui_dsl.games.targui.rules_setup import fix_board, rebuild_buy_ids
from targui_dsl.games.targui.runtime import EffectAdapter, runtime_of
from targui_dsl.games.targui.setup import PositionEditor
from targui_dsl.games.targui.tables import GameTables
from targui_dsl.games.targui.told import tells_for

if TYPE_CHECKING:  # pragma: no cover
    import random

    from targui_dsl.engine.protocol import EventSink

__all__ = ["STATE_FORMAT", "TURN_DECIDES", "Game", "GameState", "cap_score"]

# The built-in rulesets' snippets shipped compiled (effects/prebuilt.py), before any game's tables take
# their formulas: a snippet whose generated code is one of them runs it. Not in plain Python: there the
# module is the same bytecode, found by a walk over the snippet that cost more than compile() itself.
if compiled(_snippets.__file__):
    register(VOCABULARY.game, _snippets.PREBUILT)

STATE_FORMAT = "targui-state/2"
#: Whether this module runs compiled (setup.py's COMPILED): a bisection written out is then
#: machine code, cheaper than a call into the bisect module, whose C the interpreter calls.
COMPILED: Final = compiled(__file__)


def insertion_point(legal: list[int], action: int) -> int:
    """``bisect_left(legal, action)`` written out, for the compiled build."""
    low, high = 0, len(legal)
    while low < high:
        middle = (low + high) >> 1
        if legal[middle] < action:
            low = middle + 1
        else:
            high = middle
    return low


class Game(GameTables):
    """The fixed facts of one game (:class:`~targui_dsl.games.targui.tables.GameTables`);
    :meth:`new_initial_state` starts it."""

    def new_initial_state(self, log: "EventSink | None" = None) -> "GameState":
        """The state before the first decision (in implicit-chance mode, after the deal's
        chance events). With ``log`` (any event sink, such as a gamelog ``EventLog``)
        ``log.begin(game)`` is called, then every event from the first is emitted to it."""
        return GameState(self, log)

    def observation_tensor_shape(self) -> list[int]:
        return [tensor_size(self)]


class GameState:
    """One game in progress; OpenSpiel's State interface over integer actions."""

    __slots__ = ("_r",)

    _r: TarguiRecord

    def __init__(self, game: Game, log: "EventSink | None" = None, *, record: TarguiRecord | None = None) -> None:
        """The state before the first decision; ``log`` (any event sink) is told every event.
        With ``record``, the state of that record as it stands (a copy, a loaded game)."""
        if record is not None:
            self._r = record
            return
        self._r = r = TarguiRecord(game)
        r.phase = SECTOR if game.picks_sectors else DEAL
        if log is not None:
            self.attach_sink(log)
        advance(r)

    @classmethod
    def _of(cls, record: TarguiRecord) -> "GameState":
        # through __init__, not cls.__new__: a class compiled by mypyc has no __new__ to call
        return cls(cast(Game, record.game), record=record)

    # ------------------------------------------------------------------------------------
    # Reading the state (the public read API)
    # ------------------------------------------------------------------------------------
    @property
    def record(self) -> TarguiRecord:
        """The record this state delegates to: every changing fact, as public fields."""
        return self._r

    @property
    def game(self) -> Game:
        return cast(Game, self._r.game)  # the record's game is the Game that made it

    @property
    def phase(self) -> Phase:
        return Phase(self._r.phase)

    @property
    def phase_name(self) -> str:
        return LABELS[self._r.phase]

    @property
    def round(self) -> int:
        """The round, from 1; 0 during setup."""
        return self._r.round

    @property
    def round_die(self) -> int:
        return self._r.round_die

    @property
    def double_turn(self) -> bool:
        """Whether this round's turns are double turns."""
        return self._r.double

    @property
    def camels_in_box(self) -> int:
        return self._r.box

    @property
    def end_reason(self) -> str | None:
        """``"deck"``, ``"last_standing"`` or the reason an `end game` gave, once over."""
        return self._r.end_reason

    @property
    def decisions(self) -> int:
        """Decision steps taken by players (forced ones not counted)."""
        return self._r.decisions

    @property
    def forced_decisions(self) -> int:
        return self._r.forced_decisions

    @property
    def log(self) -> "EventSink | None":
        """The event sink this state tells what happens (a log), if any."""
        return self._r.sink

    def attach_sink(self, sink: "EventSink") -> None:
        """Tell ``sink`` everything that happens from now on: ``sink.begin(game)`` first
        (a log writes its header there), then every event of the kinds it reads (``sink.wants``)."""
        tells_for(getattr(sink, "wants", None))  # a kind Targui never tells is refused before the sink begins
        sink.begin(self._r.game)
        self._r.sink = sink  # the record's field sets what it tells, and how

    def kind(self, cell: int) -> int:
        """The kind index of the card on ``cell`` (-1 before the deal)."""
        return self._r.kind[cell]

    def owner(self, cell: int) -> int:
        """The seat owning ``cell``, -1 for nobody."""
        return self._r.owner[cell]

    def camels(self, cell: int) -> int:
        return self._r.camels[cell]

    def strategic(self, cell: int) -> int:
        """The cell's strategic value now, this round's modifiers included."""
        kind = self._r.kind[cell]
        return self._r.strategic_now[kind] if kind >= 0 else 0

    def economic(self, cell: int) -> int:
        kind = self._r.kind[cell]
        return self._r.economic_now[kind] if kind >= 0 else 0

    def kind_strategic(self, kind: int) -> int:
        return self._r.strategic_now[kind]

    def kind_economic(self, kind: int) -> int:
        return self._r.economic_now[kind]

    def cells_of(self, seat: int) -> tuple[int, ...]:
        """The cells ``seat`` owns, in cell order."""
        return tuple(self._r.cells_of[seat])

    def cash(self, seat: int) -> int:
        """Silver in hand (the true value: what a seat may see is :mod:`.observation`'s business)."""
        return self._r.cash[seat]

    def treasury(self, seat: int) -> int:
        return self._r.treasury[seat]

    def player_camels(self, seat: int) -> int:
        camels = self._r.camels
        return sum(camels[c] for c in self._r.cells_of[seat])

    def settlement(self, seat: int) -> int:
        """The cell of ``seat``'s own settlement card (whoever owns it now), -1 before setup."""
        return self._r.settlement[seat]

    def sector(self, seat: int) -> int:
        """The sector index ``seat`` picked, -1 none."""
        return self._r.sector[seat]

    def holds_own_settlement(self, seat: int) -> bool:
        return holds_own_settlement(self._r, seat)

    def in_game(self, seat: int) -> bool:
        """Whether the seat still owns territory (always true during setup)."""
        return in_game(self._r, seat)

    def may_win(self, seat: int) -> bool:
        """Whether the seat may win on score: in the game, and holding its own settlement
        where the ruleset requires it."""
        return may_win(self._r, seat)

    def seats_in_game(self) -> list[int]:
        return seats_in_game(self._r)

    def tribal_cards_left(self, seat: int) -> int:
        """``seat``'s tribal cards still in the round stack."""
        return self._r.stack_turns[seat]

    def fortune_cards_left(self) -> int:
        """(Mis)fortune cards still in the round stack."""
        return self._r.stack_cards

    def deck_left(self) -> int:
        return len(self._r.deck)

    def remaining_cards(self) -> list[str]:
        """The ids of the cards not yet turned, in ruleset order (public: the deck's
        make-up is known; its order is not drawn until a card is turned)."""
        ids = self._r.game.card_ids
        return [ids[c] for c in self._r.deck]

    def cards_turned(self) -> list[str]:
        ids = self._r.game.card_ids
        return [ids[c] for c in self._r.turned]

    def attack(self) -> tuple[int, int] | None:
        """(source, target) of the running attack, else None."""
        r = self._r
        return (r.source, r.target) if r.phase in ATTACK_PHASES else None

    def pending_move(self) -> tuple[int, int] | None:
        """(source, target) of a move waiting for its count, else None."""
        r = self._r
        return (r.source, r.target) if r.phase == MOVE_COUNT else None

    def count_range(self) -> tuple[int, int] | None:
        """At a count decision: the whole range (lo, hi) being chosen from."""
        r = self._r
        return (r.count_lo, r.count_hi) if IS_COUNT[r.phase] else None

    def count_step(self, value: int) -> int:
        """At a count decision: the id of the next step towards ``value`` (clamped into
        what is still possible), so an agent can aim at a count of any size."""
        r = self._r
        low, high = digit_range(r.count_lo, r.count_hi, r.count_prefix, r.count_digits)
        digit = (max(0, value) // COUNT_RADIX ** (r.count_digits - 1)) - r.count_prefix * COUNT_RADIX
        return COUNT_BASE + min(high, max(low, digit))

    def buy_cell(self) -> int:
        """At a buy count: the cell the camels go on, else -1."""
        return self._r.target if self._r.phase == BUY_COUNT else -1

    def defended(self, cell: int) -> bool:
        """Whether moving into ``cell`` is an attack for the player whose turn it is:
        another player owns it and has camels on it."""
        return flow.defended(self._r, cell)

    def buy_limit(self) -> int:
        """How many camels the player whose turn it is can buy now (cash and box allowing)."""
        return flow.buy_limit(self._r)

    def may_buy_on(self, cell: int) -> bool:
        """Whether the player whose turn it is may place bought camels on ``cell``."""
        return self._r.phase == BUY_CELL and self._r.game.actions.cell(cell) in self.legal_actions()

    def settle_cells(self, seat: int | None = None) -> list[int]:
        """Cells ``seat`` (default: the one settling now) may put its settlement on, in cell order."""
        return flow.settle_cells(self._r, seat)

    def free_sectors(self) -> list[int]:
        taken = set(self._r.sector)
        return [i for i in range(len(self._r.game.sector_ids)) if i not in taken]

    def choice(self) -> tuple[str, str, list[int]] | None:
        """At an effect's choice: (what is chosen: territory, player or number; the choice as the
        ruleset wrote it; the options), else None."""
        if self._r.phase != EFFECT_CHOICE:
            return None
        request = self._r.effect.request
        return request.kind, request.prompt, list(request.options)

    def expecting(self) -> str:
        """What the current decision asks for, in words."""
        return texts.expecting(self._r)

    def play_out(self, choosers: Sequence[Callable[[Any, list[int]], int | str]], views: Sequence[Any]) -> None:
        """Play on to the end, the seat to move choosing from its own view (``choosers[seat](views[seat],
        legal)``): what :func:`targui_dsl.engine.loop.play` asks of any game through the OpenSpiel
        verbs, with fewer calls. It reads the record itself: the phase (over? the turn's player to
        decide?), that player, and the legal list when the node keeps one (a copy of it is what
        legal_actions() returns); a count's range is listed by legal_actions(), and any other
        node's seat asked from current_player()."""
        r = self._r
        current_player, legal_actions, apply_action = self.current_player, self.legal_actions, self.apply_action
        while True:
            phase = r.phase
            if phase == OVER:
                return
            seat = r.player if TURN_DECIDES[phase] else current_player()
            legal = r.legal
            apply_action(choosers[seat](views[seat], legal[:] if legal is not None else legal_actions()))

    # ------------------------------------------------------------------------------------
    # OpenSpiel's interface
    # ------------------------------------------------------------------------------------
    def current_player(self) -> int:
        return flow.current_player(self._r)

    def is_chance_node(self) -> bool:
        return IS_CHANCE[self._r.phase]

    def is_terminal(self) -> bool:
        return self._r.phase == OVER

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal action ids, sorted (chance outcome ids at a chance node)."""
        r = self._r
        if player is not None and player != flow.current_player(r):
            return []
        legal = r.legal
        if legal is None:
            if IS_COUNT[r.phase]:  # a range: listed afresh, never kept
                if r.count_hi < COUNT_RADIX:  # a count of one step: its bounds are the digits
                    return COUNT_IDS[r.count_lo:r.count_hi + 1]
                low, high = count_bounds(r)
                return COUNT_IDS[low:high + 1]
            legal = r.legal = list_legal(r)
        return legal[:]

    def legal_actions_mask(self, player: int | None = None) -> list[int]:
        """1 for each legal decision id, 0 elsewhere; ``num_distinct_actions()`` long
        (``max_chance_outcomes()`` at a chance node)."""
        game = self._r.game
        size = game.max_chance_outcomes() if self.is_chance_node() else game.num_distinct_actions()
        mask = [0] * size
        for action in self.legal_actions(player):
            mask[action] = 1
        return mask

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance node: every outcome id with its probability, sorted; elsewhere empty."""
        r = self._r
        outcomes = flow.chance_outcomes(r)
        if outcomes and r.legal is None:  # the node's legal list (list_legal's, at a chance node):
            r.legal = [outcome for outcome, _ in outcomes]  # apply_action then checks against it
        return outcomes

    def apply_action(self, action: int | str) -> None:
        """Apply one step (an id from :meth:`legal_actions`, or a chance outcome at an
        explicit chance node), or a readable action text such as ``move 25 24 5``, which
        takes every step it stands for. Then run on to the next decision."""
        if type(action) is not int:  # (compiled, type() is a field read; __class__ a lookup)
            if isinstance(action, str):
                for step in self.actions_from_text(action):
                    self.apply_action(step)
                return
            action = int(action)  # an int subclass, or a NumPy integer from a learner
        r = self._r
        phase = r.phase
        if IS_COUNT[phase]:
            if r.count_hi < COUNT_RADIX:  # a count of one step: its bounds are the digits
                if not r.count_lo <= action - COUNT_BASE <= r.count_hi:
                    raise IllegalAction(texts.why_illegal(r, action))
            else:
                low, high = count_bounds(r)
                if not low <= action - COUNT_BASE <= high:
                    raise IllegalAction(texts.why_illegal(r, action))
        else:
            legal = r.legal
            if legal is None:
                legal = r.legal = list_legal(r)
            # the list is sorted: a bisection, not a scan comparing ints one by one (a
            # twelfth of the compiled build's time went to `action not in legal`)
            at = insertion_point(legal, action) if COMPILED else bisect_left(legal, action)
            if at == len(legal) or legal[at] != action:
                raise IllegalAction(texts.why_illegal(r, action))
            if IS_CHANCE[phase]:
                apply_chance(r, action)
                advance(r)
                return
        r.decisions += 1
        apply_step(r, action, False)
        # a move's or a purchase's count of one step with a choice is the next decision as it
        # stands: what advance() would find, without the call (its range is listed on demand)
        if IS_COUNT[r.phase] and r.count_hi < COUNT_RADIX and r.count_lo != r.count_hi:
            r.legal = None
            return
        advance(r)

    def action_to_string(self, *args: int) -> str:
        """The readable form of an action id at this node (``action_to_string(action)``
        or OpenSpiel's ``action_to_string(player, action)``)."""
        return texts.action_to_string(self._r, args[-1])

    def string_to_action(self, *args: Any) -> int:
        """The id of one step written as :meth:`action_to_string` writes it (OpenSpiel's
        ``string_to_action([player,] text)``). A compound text such as ``move 25 24 5``
        is several steps: give it to :meth:`apply_action` or :meth:`actions_from_text`."""
        text = args[-1]
        steps = self.actions_from_text(text)
        if len(steps) != 1:
            raise IllegalAction(f"`{text.strip()}` is {len(steps)} steps; apply_action() takes it whole")
        return steps[0]

    def actions_from_text(self, text: str) -> list[int]:
        """The steps a readable action stands for at this node, each checked before any
        is applied (``move 25 24 5`` -> the pair, then the count; see :mod:`.readable`)."""
        return steps_from_text(self._r, text)

    def clone(self) -> "GameState":
        """A copy that shares only immutable things (the game, tables); no sink is attached."""
        return GameState._of(copy_record(self._r))

    def edit(self) -> "PositionEditor":
        """Arrange a position by hand (tests, puzzles): see :class:`~targui_dsl.games.targui.setup.PositionEditor`."""
        return PositionEditor(self._r)

    def history(self) -> list[int]:
        """Every step taken so far, as action ids (chance outcomes included)."""
        return [step_action(entry) for entry in self._r.history]

    def force_chance(self, *outcomes: int | str) -> None:
        """Queue outcomes for the next chance nodes, for tests and replays: texts as logs
        write them (``die 4``, ``card sandstorm``, ``turn kel_ress``, ``deal guelta``) or
        plain ints for die throws. Queued outcomes win over the generator and over
        explicit chance nodes."""
        self._r.forced_outcomes.extend(outcomes)
        advance(self._r)

    # Observations (what each seat may see: docs/rules/targui.md section 8) --------------------------
    def observation(self, seat: int) -> "Observation[Game, GameState]":
        """What ``seat`` sees now, as a read-only view for agents."""
        return Observation(self, seat)

    def observation_string(self, player: int) -> str:
        return observation_string(self, player)

    def observation_tensor(self, player: int) -> list[float]:
        return observation_tensor(self, player)

    def observation_into(self, player: int, out: Any) -> None:
        """``observation_tensor(player)`` written into ``out``, a NumPy vector of its length
        (faster: the adapters' arrays are filled without a list of floats in between)."""
        fill_observation(self, player, out)

    def information_state_string(self, player: int) -> str:
        return information_state_string(self, player)

    def resample_from_infostate(self, player: int, rng: "random.Random") -> "GameState":
        """A full state that ``player`` cannot tell from this one: the same observation,
        with what it cannot see (the generator, hence the deck's order and future dice;
        in treasury variants every other seat's cash in hand and treasury) drawn anew
        from ``rng`` and the public record, never from the hidden values themselves."""
        return GameState._of(resample_hidden(self._r, player, rng))

    # Results ---------------------------------------------------------------------------
    def winners(self) -> list[int]:
        """Winning seats once the game is over (several: a draw); empty before."""
        return list(self._r.winners) if self._r.winners is not None else []

    def returns(self) -> list[float]:
        """Per seat: 1/len(winners) for each winner, 0 for the others (all 0 before the end)."""
        winners = self.winners()
        share = 1 / len(winners) if winners else 0.0
        return [share if seat in winners else 0.0 for seat in range(self._r.game.players)]

    def rewards(self) -> list[float]:
        """The returns, paid at the end (OpenSpiel's per-step rewards)."""
        return self.returns() if self.is_terminal() else [0.0] * self._r.game.players

    def scores(self) -> list[int]:
        """The final scores once over; before that, what the score formula says now."""
        r = self._r
        if r.final_scores is not None:
            return list(r.final_scores)
        score, rt = r.game.score, runtime_of(r)
        return [cap_score(score(rt, seat)) for seat in range(r.game.players)]

    def tie_break_values(self) -> list[list[int]]:
        r = self._r
        if r.final_tie_breaks is not None:
            return [t[:] for t in r.final_tie_breaks]
        rt = runtime_of(r)
        return [[cap_score(tb(rt, s)) for tb in r.game.tie_breaks] for s in range(r.game.players)]

    def is_draw(self) -> bool:
        return self._r.phase == OVER and len(self._r.winners or ()) != 1

    @property
    def runtime(self) -> EffectAdapter:
        """The effect runtime over this state, which compiled effects and formulas get as ``rt``."""
        return runtime_of(self._r)

    # ------------------------------------------------------------------------------------
    # Saving and loading
    # ------------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """Everything needed to resume the game exactly, the generator included; plain JSON."""
        r = self._r
        game = r.game
        saved = record_to_json(r)
        if r.effect is not None:
            effect = r.effect
            saved["effect"] = {"where": list(effect.where), "args": list(effect.args), "answers": effect.answers[:],
                               "start": record_to_json(effect.start)}
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
    def from_json(cls, ruleset: Any, data: Any) -> "GameState":
        """A state saved by :meth:`to_json`. Every field is checked (types, ranges, lengths,
        the invariants the engine keeps): anything else is a ``ValueError`` naming the field."""
        return cls._of(_load(ruleset, data))

    # ------------------------------------------------------------------------------------
    def __str__(self) -> str:
        return render_state(self)

    def __repr__(self) -> str:
        return (f"<GameState {self._r.game.ruleset.id} round {self._r.round} {LABELS[self._r.phase]}"
                f" player {self.current_player()}>")


def _load(ruleset: Any, data: Any) -> TarguiRecord:
    """The record of a saved state (see :meth:`GameState.from_json`)."""
    fmt = data.get("format") if isinstance(data, dict) else None
    if fmt != STATE_FORMAT:
        if isinstance(fmt, str) and fmt.startswith("targui-state/"):
            raise ValueError(f"this state was saved in format {fmt!r}, which this targui cannot resume "
                             f"(it reads {STATE_FORMAT!r}); replay the game's log instead")
        raise ValueError(f"not a saved targui state (format {fmt!r}, expected {STATE_FORMAT!r})")
    if data.get("ruleset") != ruleset.id:
        raise ValueError(f"the state was saved for ruleset {data.get('ruleset')!r}, not {ruleset.id!r}")
    game = _saved_game(ruleset, data)
    r = _load_record(game, data.get("state"))
    paused = r.phase in (EFFECT_CHOICE, EFFECT_ROLL)
    effect = data["state"].get("effect")
    if effect is None:
        if paused:
            raise ValueError("saved state field `effect`: missing, but the game waits inside an effect")
        return r
    if not isinstance(effect, dict):
        raise ValueError("saved state field `effect`: expected an object")
    start = _load_record(game, effect.get("start"), at_node=False)  # between two nodes
    try:
        where = tuple(effect["where"])
        args = tuple(_plain_int(a) for a in effect["args"])
        answers = [_plain_int(a) for a in effect["answers"]]
        _check_where(game, where)
        resumed = replay_paused(start, where, args, answers)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise ValueError(f"saved state field `effect`: a broken paused effect ({exc})") from None
    resumed.history, resumed.decisions, resumed.rng_word = r.history, r.decisions, r.rng_word
    resumed.forced_decisions, resumed.forced_outcomes = r.forced_decisions, r.forced_outcomes
    return resumed


def _load_record(game: Game, saved: Any, at_node: bool = True) -> TarguiRecord:
    r = record_from_json(game, saved)
    rebuild_buy_ids(r)
    if at_node:
        check_node(r)
    if r.round > 0:
        fix_board(r)
    return r


def _saved_game(ruleset: Any, data: dict[str, Any]) -> Game:
    """The game a saved state was played in: its seats, tribes, seed and chance mode checked."""
    for name in ("players", "seed", "tribes", "explicit_chance"):
        if name not in data:
            raise ValueError(f"saved state field `{name}` is missing")
    players, seed, tribes, explicit = data["players"], data["seed"], data["tribes"], data["explicit_chance"]
    if players.__class__ is not int:
        raise ValueError(f"saved state field `players`: expected an integer, got {type(players).__name__}")
    if seed.__class__ is not int or not -(1 << 63) <= seed < (1 << 64):
        raise ValueError("saved state field `seed`: expected an integer within 64 bits")
    if not isinstance(tribes, list) or not all(isinstance(t, str) for t in tribes):
        raise ValueError("saved state field `tribes`: expected a list of tribe ids")
    if explicit.__class__ is not bool:
        raise ValueError("saved state field `explicit_chance`: expected true or false")
    try:
        return Game(ruleset, players=players, seed=seed, tribes=tribes, explicit_chance=explicit)
    except ValueError as exc:
        raise ValueError(f"saved state field `players` or `tribes`: {exc}") from None


def _plain_int(value: Any) -> int:
    if value.__class__ is not int or not -(1 << 63) <= value < (1 << 63):
        raise ValueError(f"expected an integer, got {value!r}")
    return int(value)


def _check_where(game: Game, where: tuple[Any, ...]) -> None:
    """Where a paused effect runs: ("card", index) or ("hook", moment, index) of this ruleset."""
    if len(where) == 2 and where[0] == "card" and where[1].__class__ is int and 0 <= where[1] < len(game.card_ids):
        return
    if (len(where) == 3 and where[0] == "hook" and isinstance(where[1], str) and where[1] in game.hooks
            and where[2].__class__ is int and 0 <= where[2] < len(game.hooks[where[1]])):
        return
    raise ValueError(f"no card or hook {list(where)!r}")
