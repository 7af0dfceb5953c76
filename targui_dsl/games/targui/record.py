"""The engine's state as a plain record: fields, a copy, JSON; no rules.

Everything that changes during a game is a field of :class:`TarguiRecord`, as
ints and flat lists of ints; everything fixed lives on
:class:`~targui_dsl.games.targui.tables.GameTables` (``record.game``, a ``Game``). The rules
(:mod:`.flow` and the ``rules_*`` modules) are functions over a record; the
public :class:`~targui_dsl.games.targui.state.GameState` holds one and
delegates. Any module may read and write these fields: the rules keep their
invariants, and :func:`record_from_json` checks them on the way in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from targui_dsl.effects.runtime import MAX_VALUE
from targui_dsl.engine.chance import state_of, word_of
from targui_dsl.engine.told import tellers
from targui_dsl.games.targui.actions import COUNT_RADIX, count_digits
from targui_dsl.games.targui.phases import (
    LABELS,
    MAX_HISTORY_SEATS,
    OVER,
    PHASE_BY_LABEL,
    step_action,
    step_actor,
    step_phase,
)
from targui_dsl.games.targui.told import (
    RulesetKinds,
    SeatKinds,
    bits_of,
    ruleset_kinds,
    seat_kinds,
    tells_for,
    untold,
)

if TYPE_CHECKING:  # pragma: no cover
    from mypy_extensions import i64

    from targui_dsl.engine.protocol import EventSink
    from targui_dsl.games.targui.tables import GameTables

#: Fields saved as lists of ints, in the order a saved state lists them.
LIST_FIELDS = (
    "kind", "owner", "camels", "cash", "treasury", "settlement", "sector",
    "strategic_now", "economic_now", "strategic_lasting", "economic_lasting",
    "deck", "turned", "deal_pool", "stack_turns", "history",
    "levy_total", "spent", "deposits", "round_cash", "round_levy",
)
#: Fields saved as ints.
INT_FIELDS = (
    "box", "deal_next", "stack_cards", "stack_left", "round", "round_die", "setup_seat", "player", "cycles_left",
    "source", "target", "count_lo", "count_hi", "count_prefix", "count_digits",
    "decisions", "forced_decisions",
)
#: Fields saved as booleans.
BOOL_FIELDS = ("double", "compound_forced")
#: What a finished game may give as its end.
END_REASONS = ("deck", "last_standing")
_MAX_FORCED_TEXT = 200  # a queued outcome text (`card sandstorm`): far longer is not one


class TarguiRecord:
    """One game's changing facts. ``game`` is shared and never changes; ``legal``, ``sink``
    and ``effect`` are attachments (a cache, the event sink, a paused effect), the rest is
    saved by :func:`record_to_json`. (No effect adapter is kept here: one over the record,
    kept by it, was a reference cycle, and every game's record waited for the cyclic
    garbage collector, whose runs took 8% of the compiled build's time.)"""

    __slots__ = LIST_FIELDS + INT_FIELDS + BOOL_FIELDS + (
        "game", "phase", "cells_of", "buy_ids", "move_ids", "rng_word", "forced_outcomes", "legal",
        "end_reason", "final_scores", "final_tie_breaks", "winners", "_sink", "tell_bits", "told", "told_last",
        "seat_kinds", "ruleset_kinds", "effect", "memory", "kind_cells",
    )

    game: GameTables
    phase: int  # a Phase, stored as its int
    kind: list[int]  # per cell: kind index, -1 before the deal
    owner: list[int]  # per cell: seat, -1 nobody
    camels: list[int]  # per cell
    box: int  # camels in the box
    cells_of: list[list[int]]  # per seat: owned cells, in cell order
    buy_ids: list[list[int]]  # per seat: the `buy on` ids of its cells of a buyable kind, sorted (kept with cells_of)
    cash: list[int]
    treasury: list[int]
    settlement: list[int]  # per seat: the cell of its own settlement, -1 before setup
    sector: list[int]  # per seat: sector index, -1 none
    strategic_now: list[int]  # per kind, this round's modifiers included
    economic_now: list[int]
    strategic_lasting: list[int]
    economic_lasting: list[int]
    deck: list[int]  # card indices still in the deck, in ruleset order
    turned: list[int]  # card indices turned so far, in order
    deal_pool: list[int]  # per kind: cards left to deal
    deal_next: int
    stack_turns: list[int]  # per seat: tribal cards left in the round stack
    stack_cards: int  # (mis)fortune cards left in the round stack
    stack_left: int  # every card left in the round stack: tribal and (mis)fortune
    round: int  # 0 during setup
    round_die: int
    double: bool
    setup_seat: int
    player: int  # whose turn, -1 outside turns
    cycles_left: int  # movement+adding cycles left in this turn (2 in a double turn)
    source: int  # the pending move's or attack's cells, -1 none
    target: int
    count_lo: int  # a count being chosen: lo..hi, one base-256 digit at a time
    count_hi: int
    count_prefix: int
    count_digits: int  # digits still to choose
    compound_forced: bool  # every step of the pending compound action was forced
    move_ids: tuple[tuple[int, ...], ...]  # per cell: pair ids to passable neighbours (fixed once settled)
    rng_word: i64  # the generator's state as a signed machine word (chance.word_of); ``rng`` reads it unsigned
    forced_outcomes: list[int | str]
    legal: list[int] | None  # the current decision's legal actions, once listed
    decisions: int
    forced_decisions: int
    history: list[int]  # every step, packed by phases.encode_step
    levy_total: list[int]  # public ledger per seat, for resampling hidden silver
    spent: list[int]
    deposits: list[int]
    round_cash: list[int]  # at the round's end: cash before the before_levy hooks, then what they took
    round_levy: list[int]  # at the round's end: the levy each seat received
    end_reason: str | None  # an END_REASONS, or the reason an `end game` of the ruleset gave
    memory: list[int]  # the ruleset's declared memory, flat (game.memory_base); flags as 0/1
    final_scores: list[int] | None
    final_tie_breaks: list[list[int]] | None
    winners: list[int] | None
    _sink: EventSink | None
    tell_bits: int  # the bits (told.bits_of) of the event kinds the sink reads (told.tells_for), 0 without one
    told: Callable[[tuple[Any, ...]], None]  # how the sink is told an event (told.untold without one: never called)
    told_last: Callable[[tuple[Any, ...]], None]  # ... and the game's last (end): engine.told.tellers
    seat_kinds: SeatKinds  # the kinds of the events that name a seat (told.seat_kinds), set with a sink
    ruleset_kinds: RulesetKinds  # ... and of the chance outcomes (told.ruleset_kinds)
    effect: Any  # a PausedEffect waiting for a player's choice, else None
    # not saved: the cells of each kind (a tuple per kind, in cell order) and the `kind` list they
    # were read from, for the effects' `territories where t.kind == K`; see cells_of_kind()
    kind_cells: tuple[list[int], tuple[tuple[int, ...], ...]] | None

    def __init__(self, game: GameTables, blank: bool = False) -> None:
        """The record of a game before its first step; ``blank``: only its game, for a caller
        that sets every field (a copy, a load; not TarguiRecord.__new__, which mypyc compiles
        to a call of this)."""
        cells, seats = game.cells, game.players
        self.game = game
        self.kind_cells = None
        if blank:
            return
        self.kind = [-1] * cells
        for cell, kind in game.fixed_cards:
            self.kind[cell] = kind
        self.owner = [-1] * cells
        self.camels = [0] * cells
        self.box = game.ruleset.camel_box
        self.cells_of = [[] for _ in range(seats)]
        self.buy_ids = [[] for _ in range(seats)]
        self.cash = [0] * seats
        self.treasury = [0] * seats
        self.settlement = [-1] * seats
        self.sector = [-1] * seats
        self.strategic_now = list(game.base_strategic)
        self.economic_now = list(game.base_economic)
        self.strategic_lasting = list(game.base_strategic)
        self.economic_lasting = list(game.base_economic)
        self.deck = list(game.deck)
        self.turned = []
        self.deal_pool = list(game.deal_pool)
        self.deal_next = 0
        self.stack_turns = [0] * seats
        self.stack_cards = self.stack_left = 0
        self.round = self.round_die = 0
        self.double = False
        self.setup_seat = 0
        self.player = -1
        self.cycles_left = 0
        self.source = self.target = -1
        self.count_lo = self.count_hi = self.count_prefix = self.count_digits = 0
        self.compound_forced = False
        self.move_ids = tuple(() for _ in range(cells))
        self.rng_word = word_of(game.initial_rng)
        self.forced_outcomes = []
        self.legal = None
        self.decisions = self.forced_decisions = 0
        self.history = []
        self.levy_total = [0] * seats
        self.spent = [0] * seats
        self.deposits = [0] * seats
        self.round_cash = [0] * seats
        self.round_levy = [0] * seats
        self.end_reason = None
        self.memory = list(game.memory_start)
        self.final_scores = self.final_tie_breaks = self.winners = None
        self.sink = self.effect = None
        self.phase = 0

    @property
    def rng(self) -> int:
        """The generator's state, 0..2**64-1: what a saved state, a log and every reader outside
        the draws see (the draws work on ``rng_word``)."""
        return state_of(self.rng_word)

    @rng.setter
    def rng(self, state: int) -> None:
        self.rng_word = word_of(state)

    @property
    def sink(self) -> EventSink | None:
        """The event sink told what happens, if any. Set, it also sets ``tell_bits`` (the bits of
        the kinds it reads, ``sink.wants``: a ``ValueError`` names a kind Targui never tells) and
        ``told``."""
        return self._sink

    @sink.setter
    def sink(self, sink: EventSink | None) -> None:
        if sink is None:
            self._sink, self.tell_bits, self.told, self.told_last = None, 0, untold, untold
        else:
            # a sink that does not say reads everything
            self.tell_bits = bits_of(tells_for(getattr(sink, "wants", None)))
            self._sink = sink
            self.told, self.told_last = tellers(sink)  # tuples, or dicts made for its emit
            self.seat_kinds = seat_kinds(self.game.tribe_ids)
            self.ruleset_kinds = ruleset_kinds(self.game.ruleset)

    def copy(self) -> "TarguiRecord":
        """A copy sharing only immutable things (the game, the move tables, the legal list,
        which is never changed in place); no sink, adapter or paused effect. Written out
        field by field: a search bot copies at every simulation step."""
        other = TarguiRecord(self.game, blank=True)
        other.phase = self.phase
        other.kind = self.kind[:]
        other.owner = self.owner[:]
        other.camels = self.camels[:]
        other.box = self.box
        other.cells_of = [cells[:] for cells in self.cells_of]
        other.buy_ids = [ids[:] for ids in self.buy_ids]
        other.cash = self.cash[:]
        other.treasury = self.treasury[:]
        other.settlement = self.settlement[:]
        other.sector = self.sector[:]
        other.strategic_now = self.strategic_now[:]
        other.economic_now = self.economic_now[:]
        other.strategic_lasting = self.strategic_lasting[:]
        other.economic_lasting = self.economic_lasting[:]
        other.deck = self.deck[:]
        other.turned = self.turned[:]
        other.deal_pool = self.deal_pool[:]
        other.deal_next = self.deal_next
        other.stack_turns = self.stack_turns[:]
        other.stack_cards = self.stack_cards
        other.stack_left = self.stack_left
        other.round = self.round
        other.round_die = self.round_die
        other.double = self.double
        other.setup_seat = self.setup_seat
        other.player = self.player
        other.cycles_left = self.cycles_left
        other.source = self.source
        other.target = self.target
        other.count_lo = self.count_lo
        other.count_hi = self.count_hi
        other.count_prefix = self.count_prefix
        other.count_digits = self.count_digits
        other.compound_forced = self.compound_forced
        other.move_ids = self.move_ids
        other.rng_word = self.rng_word
        other.forced_outcomes = self.forced_outcomes[:]
        other.legal = self.legal
        other.kind_cells = self.kind_cells  # never changed in place; checked against `kind` at each use
        other.decisions = self.decisions
        other.forced_decisions = self.forced_decisions
        other.history = self.history[:]
        other.levy_total = self.levy_total[:]
        other.spent = self.spent[:]
        other.deposits = self.deposits[:]
        other.round_cash = self.round_cash[:]
        other.round_levy = self.round_levy[:]
        other.end_reason = self.end_reason
        other.memory = self.memory[:]
        other.final_scores = None if self.final_scores is None else self.final_scores[:]
        other.final_tie_breaks = None if self.final_tie_breaks is None else [t[:] for t in self.final_tie_breaks]
        other.winners = None if self.winners is None else self.winners[:]
        other.sink = other.effect = None
        return other


def record_to_json(record: TarguiRecord) -> dict[str, Any]:
    """The saved fields of a record as plain JSON (no paused effect: the state adds it)."""
    saved: dict[str, Any] = {name: getattr(record, name)[:] for name in LIST_FIELDS}
    saved.update({name: getattr(record, name) for name in INT_FIELDS + BOOL_FIELDS})
    saved["cells_of"] = [cells[:] for cells in record.cells_of]
    saved["phase"] = LABELS[record.phase]
    saved["rng"] = format(record.rng, "016x")  # 64 bits: a string, so no JSON reader rounds it
    saved["forced_outcomes"] = list(record.forced_outcomes)
    saved["end_reason"] = record.end_reason
    if record.game.memory:  # only a ruleset with memory saves it: the others' states stay as they were
        saved["memory"] = record.memory[:]
    saved["final_scores"] = None if record.final_scores is None else record.final_scores[:]
    saved["final_tie_breaks"] = None if record.final_tie_breaks is None else [t[:] for t in record.final_tie_breaks]
    saved["winners"] = None if record.winners is None else record.winners[:]
    return saved


# ----------------------------------------------------------------------------------------
# Strict loading: every field checked, every failure a ValueError naming the field
# ----------------------------------------------------------------------------------------
def _int(saved: dict[str, Any], name: str, low: int, high: int) -> int:
    value = _field(saved, name)
    return _check_int(value, name, low, high)


def _check_int(value: Any, name: str, low: int, high: int) -> int:
    if value.__class__ is not int:  # bool is an int subclass: refused too
        raise ValueError(f"saved state field `{name}`: expected an integer, got {type(value).__name__}")
    if not low <= value <= high:
        raise ValueError(f"saved state field `{name}`: {value} is outside {low}..{high}")
    return value


def _field(saved: dict[str, Any], name: str) -> Any:
    if name not in saved:
        raise ValueError(f"saved state field `{name}` is missing")
    return saved[name]


def _ints(saved: dict[str, Any], name: str, length: int | None, low: int, high: int) -> list[int]:
    """A list of ints, of ``length`` (None: any length up to ``MAX_VALUE``), each in low..high."""
    value = _field(saved, name)
    return _check_ints(value, name, length, low, high)


def _check_ints(value: Any, name: str, length: int | None, low: int, high: int) -> list[int]:
    if not isinstance(value, list):
        raise ValueError(f"saved state field `{name}`: expected a list, got {type(value).__name__}")
    if length is not None and len(value) != length:
        raise ValueError(f"saved state field `{name}`: {len(value)} entries, expected {length}")
    for index, item in enumerate(value):
        _check_int(item, f"{name}[{index}]", low, high)
    return list(value)


def _bool(saved: dict[str, Any], name: str) -> bool:
    value = _field(saved, name)
    if value.__class__ is not bool:
        raise ValueError(f"saved state field `{name}`: expected true or false, got {type(value).__name__}")
    return bool(value)


def record_from_json(game: GameTables, saved: Any) -> TarguiRecord:
    """A record from :func:`record_to_json`'s output, every field checked against ``game``
    (types, ranges, lengths and the invariants the rules keep); ``ValueError`` naming the
    field for anything else. What the decision under way needs is the rules' check
    (:func:`~targui_dsl.games.targui.flow.check_node`). The move tables (``move_ids``,
    ``buy_ids``) are left to the caller."""
    if not isinstance(saved, dict):
        raise ValueError(f"saved state field `state`: expected an object, got {type(saved).__name__}")
    cells, seats, kinds = game.cells, game.players, len(game.kind_ids)
    cards = len(game.card_ids)
    r = TarguiRecord(game, blank=True)
    label = _field(saved, "phase")
    if not isinstance(label, str) or label not in PHASE_BY_LABEL:
        raise ValueError(f"saved state field `phase`: {label!r} is not a phase ({', '.join(LABELS)})")
    r.phase = int(PHASE_BY_LABEL[label])
    # per cell
    r.kind = _ints(saved, "kind", cells, -1, kinds - 1)
    r.owner = _ints(saved, "owner", cells, -1, seats - 1)
    r.camels = _ints(saved, "camels", cells, 0, MAX_VALUE)
    # per seat
    r.cash = _ints(saved, "cash", seats, 0, MAX_VALUE)
    r.treasury = _ints(saved, "treasury", seats, 0, MAX_VALUE)
    r.settlement = _ints(saved, "settlement", seats, -1, cells - 1)
    r.sector = _ints(saved, "sector", seats, -1, len(game.sector_ids) - 1)
    r.stack_turns = _ints(saved, "stack_turns", seats, 0, MAX_VALUE)
    for name in ("levy_total", "spent", "deposits", "round_cash", "round_levy"):
        setattr(r, name, _ints(saved, name, seats, 0, MAX_VALUE))
    # per kind
    for name in ("strategic_now", "economic_now", "strategic_lasting", "economic_lasting"):
        setattr(r, name, _ints(saved, name, kinds, 0, MAX_VALUE))
    r.deal_pool = _ints(saved, "deal_pool", kinds, 0, MAX_VALUE)
    # cards
    r.deck = _ints(saved, "deck", None, 0, cards - 1)
    r.turned = _ints(saved, "turned", None, 0, cards - 1)
    if len(r.deck) + len(r.turned) > len(game.deck):
        raise ValueError(f"saved state field `deck`: {len(r.deck)} cards left and {len(r.turned)} turned, "
                         f"but the deck has {len(game.deck)}")
    r.history = _ints(saved, "history", None, 0, (1 << 63) - 1)
    _check_history(game, r.history)
    # single numbers
    r.box = _int(saved, "box", 0, MAX_VALUE)
    if sum(r.camels) + r.box != game.ruleset.camel_box:  # every camel is on the board or in the box
        raise ValueError(f"saved state field `box`: {r.box} camels in the box and {sum(r.camels)} on the board, "
                         f"but the game has {game.ruleset.camel_box}")
    r.deal_next = _int(saved, "deal_next", 0, len(game.deal_cells))
    r.stack_cards = _int(saved, "stack_cards", 0, len(r.deck))
    r.stack_left = _int(saved, "stack_left", 0, MAX_VALUE)
    if r.stack_left != sum(r.stack_turns) + r.stack_cards:
        raise ValueError(f"saved state field `stack_left`: {r.stack_left}, but the stack holds "
                         f"{sum(r.stack_turns)} tribal and {r.stack_cards} other cards")
    r.round = _int(saved, "round", 0, MAX_VALUE)
    r.round_die = _int(saved, "round_die", 0, game.die_sides)
    r.setup_seat = _int(saved, "setup_seat", 0, seats)
    r.player = _int(saved, "player", -1, seats - 1)
    r.cycles_left = _int(saved, "cycles_left", 0, 2)
    r.source = _int(saved, "source", -1, cells - 1)
    r.target = _int(saved, "target", -1, cells - 1)
    r.count_lo = _int(saved, "count_lo", 0, MAX_VALUE)
    r.count_hi = _int(saved, "count_hi", r.count_lo, MAX_VALUE)
    r.count_digits = _int(saved, "count_digits", 0, count_digits(max(1, r.count_hi)))
    r.count_prefix = _int(saved, "count_prefix", 0, r.count_hi // COUNT_RADIX ** r.count_digits)
    r.decisions = _int(saved, "decisions", 0, MAX_VALUE)
    r.forced_decisions = _int(saved, "forced_decisions", 0, MAX_VALUE)
    r.double = _bool(saved, "double")
    r.compound_forced = _bool(saved, "compound_forced")
    # who owns what: each seat's cells are exactly the cells it owns
    cells_of = _field(saved, "cells_of")
    if not isinstance(cells_of, list) or len(cells_of) != seats:
        raise ValueError(f"saved state field `cells_of`: expected a list of {seats} lists")
    for seat, owned in enumerate(cells_of):
        expected = [cell for cell in range(cells) if r.owner[cell] == seat]
        if _check_ints(owned, f"cells_of[{seat}]", None, 0, cells - 1) != expected:
            raise ValueError(f"saved state field `cells_of[{seat}]`: does not list the cells `owner` gives the seat")
    r.cells_of = [list(owned) for owned in cells_of]
    _check_cards_on_board(r)
    rng = _field(saved, "rng")
    if not isinstance(rng, str) or not 0 < len(rng) <= 16 or any(c not in "0123456789abcdefABCDEF" for c in rng):
        raise ValueError(f"saved state field `rng`: expected up to 16 hex digits (64 bits), got {rng!r}")
    r.rng = int(rng, 16)
    r.forced_outcomes = _forced_outcomes(_field(saved, "forced_outcomes"))
    r.memory = _memory(game, saved)
    _finals(r, saved)
    r.legal = None
    r.sink = r.effect = None
    r.buy_ids = []
    r.move_ids = tuple(() for _ in range(cells))
    return r


def _check_history(game: GameTables, history: list[int]) -> None:
    seats = game.players
    if seats > MAX_HISTORY_SEATS:
        raise ValueError(f"saved state field `history`: {seats} seats do not fit a history entry")
    limit = max(game.num_distinct_actions(), game.max_chance_outcomes())
    for index, entry in enumerate(history):
        phase, actor = step_phase(entry), step_actor(entry)
        if phase >= len(LABELS) or not -1 <= actor < seats or step_action(entry) >= limit:
            raise ValueError(f"saved state field `history[{index}]`: {entry} is not a step of this game")


def _check_cards_on_board(r: TarguiRecord) -> None:
    """A seat's settlement is on a settlement card; owned land is dealt and passable."""
    game = r.game
    for seat, cell in enumerate(r.settlement):
        if cell >= 0 and r.kind[cell] != game.settlement_kind:
            raise ValueError(f"saved state field `settlement[{seat}]`: cell {cell} holds no settlement")
    for cell, seat in enumerate(r.owner):
        kind = r.kind[cell]
        if seat >= 0 and (kind < 0 or not game.kind_passable[kind]):
            raise ValueError(f"saved state field `owner[{cell}]`: a cell without passable land cannot be owned")
        if r.camels[cell] and (kind < 0 or not game.kind_passable[kind]):
            raise ValueError(f"saved state field `camels[{cell}]`: camels on a cell without passable land")
    if r.round > 0 and any(kind < 0 for kind in r.kind):
        raise ValueError("saved state field `kind`: a cell without a card after the deal")


def _forced_outcomes(value: Any) -> list[int | str]:
    if not isinstance(value, list):
        raise ValueError(f"saved state field `forced_outcomes`: expected a list, got {type(value).__name__}")
    for index, item in enumerate(value):
        if item.__class__ is int:
            _check_int(item, f"forced_outcomes[{index}]", 1, MAX_VALUE)
        elif not isinstance(item, str) or len(item) > _MAX_FORCED_TEXT:
            raise ValueError(f"saved state field `forced_outcomes[{index}]`: expected a die or an outcome's text")
    return list(value)


def _finals(r: TarguiRecord, saved: dict[str, Any]) -> None:
    """The end: its reason, final scores, tie-break values and winners, all or none."""
    game, seats = r.game, r.game.players
    reason = _field(saved, "end_reason")
    scores, tie_breaks, winners = (_field(saved, name) for name in ("final_scores", "final_tie_breaks", "winners"))
    over = r.phase == OVER
    if reason is not None and reason not in END_REASONS and reason not in game.end_reasons:
        known = ", ".join([*END_REASONS, *sorted(game.end_reasons)])
        raise ValueError(f"saved state field `end_reason`: {reason!r} is not one of {known}")
    for name, value in (("end_reason", reason), ("final_scores", scores), ("final_tie_breaks", tie_breaks),
                        ("winners", winners)):
        if (value is not None) != over:
            raise ValueError(f"saved state field `{name}`: " + ("missing at the game's end" if over
                                                                 else "set before the game's end"))
    r.end_reason = reason
    if not over:
        r.final_scores = r.final_tie_breaks = r.winners = None
        return
    r.final_scores = _check_ints(scores, "final_scores", seats, -MAX_VALUE, MAX_VALUE)
    if not isinstance(tie_breaks, list) or len(tie_breaks) != seats:
        raise ValueError(f"saved state field `final_tie_breaks`: expected a list of {seats} lists")
    r.final_tie_breaks = [_check_ints(values, f"final_tie_breaks[{seat}]", len(game.tie_breaks), -MAX_VALUE, MAX_VALUE)
                          for seat, values in enumerate(tie_breaks)]
    r.winners = _check_ints(winners, "winners", None, 0, seats - 1)
    if len(set(r.winners)) != len(r.winners) or len(r.winners) > seats:
        raise ValueError("saved state field `winners`: a seat named twice")


def _memory(game: GameTables, saved: dict[str, Any]) -> list[int]:
    """The declared memory: present exactly when the ruleset declares some, each value within its bounds."""
    if not game.memory:
        if "memory" in saved:
            raise ValueError("saved state field `memory`: this ruleset keeps no memory")
        return []
    values = _ints(saved, "memory", len(game.memory_start), -MAX_VALUE, MAX_VALUE)
    ends = [*game.memory_base[1:], len(values)]
    for slot, base, end in zip(game.memory, game.memory_base, ends, strict=True):
        for index in range(base, end):
            _check_int(values[index], f"memory[{index}] ({slot.name})", slot.low, slot.high)
    return values


def cells_of_kind(r: TarguiRecord, kind: int) -> tuple[int, ...]:
    """The cells of ``kind``, in cell order: read from ``kind`` once while it stays the same (the
    deal and settling change it; a card reads it as it stands), so that a card on a kind's
    territories visits those, not the board."""
    kept = r.kind_cells
    if kept is None or kept[0] != r.kind:  # a list compared whole, in C
        per_kind: list[list[int]] = [[] for _ in range(len(r.game.kind_ids))]
        for cell, k in enumerate(r.kind):
            if k >= 0:
                per_kind[k].append(cell)
        kept = r.kind_cells = (r.kind[:], tuple(tuple(cells) for cells in per_kind))
    return kept[1][kind]
