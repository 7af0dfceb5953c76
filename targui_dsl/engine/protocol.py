"""What a game package gives the shared toolkit, and the state verbs every game speaks.

The engine, the agents, the study runner, the log, the adapters and the
command line know no game: they reach a game through the :class:`GamePackage`
its package defines (``targui_dsl/games/<name>/package.py``, ``PACKAGE``) and
through the OpenSpiel verbs of :class:`State`. :func:`targui_dsl.games.game_package`
finds a package by the name a ruleset gives (``game:``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Protocol, Sequence

from targui_dsl.engine.bots import BotKind
from targui_dsl.engine.drawing import Drawing
from targui_dsl.engine.front import FrontEnd

__all__ = ["AdapterHooks", "EventSink", "Evaluator", "Figure", "FrontEnd", "GamePackage", "MetricCounter",
           "RepeatRule", "SearchPolicy", "SeatObservation", "State", "StudyMetrics"]


class State(Protocol):
    """A game state in OpenSpiel's dialect: integer actions, chance nodes, returns."""

    def current_player(self) -> int: ...
    def is_terminal(self) -> bool: ...
    def is_chance_node(self) -> bool: ...
    def legal_actions(self) -> list[int]: ...
    def chance_outcomes(self) -> list[tuple[int, float]]: ...
    def apply_action(self, action: int | str) -> None: ...
    def returns(self) -> list[float]: ...
    def clone(self) -> "State": ...
    def to_json(self) -> dict[str, Any]: ...


class EventSink(Protocol):
    """Where a game state sends what happens. The engine imports nothing of the log file:
    a log (:class:`targui_dsl.gamelog.events.EventLog`) is one sink, a study's counter another.

    ``wants``: the kinds of event the sink reads (a game's own names: its event types, and
    finer ones it documents), or ``None`` for every event. A game builds only those (no dict,
    no text for the rest); it may tell a sink more, which the sink ignores. A sink without the
    attribute reads everything.

    A game tells its events as tuples (:mod:`targui_dsl.engine.told`: ``(kind, value, ...)``).
    A sink may read them so, by a method ``told_tuple(event)`` (and ``told_list()``, a list the
    game appends all but its last event to: :func:`targui_dsl.engine.told.tellers`); a sink
    without it is given each event as a dict, by ``emit``."""

    wants: frozenset[str] | None

    def begin(self, game: Any) -> None:
        """The game starts being told to this sink (a log writes its header from ``game``)."""

    def emit(self, event: dict[str, Any]) -> None:
        """One event, a plain JSON-ready dict (its ``type`` first)."""


class SearchPolicy(Protocol):
    """A game's knowledge for one search (:mod:`targui_dsl.agents.ismcts`) over determinised states."""

    def reset(self) -> None:
        """A new iteration starts from the root."""

    def candidates(self, state: Any, seat: int, legal: list[int], width: int) -> list[int]:
        """The actions of ``legal`` worth a tree node (``width``: how many at a wide choice, 0 every one)."""

    def choose(self, state: Any, seat: int, legal: list[int]) -> int:
        """The rollout policy's action for ``seat`` (also a node's favourite)."""

    def forget(self, seat: int) -> None:
        """The search did not follow the policy for ``seat``: what it planned next no longer holds."""

    def evaluate(self, state: Any) -> list[float]:
        """The position score: per seat a reward in 0..1 (a finished game's returns)."""


class SeatObservation(Protocol):
    """What a bot is given at a decision: one seat's view of a game (each game's own class)."""

    seat: int

    @property
    def game(self) -> Any:
        """The game being played: its ``ruleset`` is what a learned score was fitted to."""

    def resample(self, rng: Any) -> Any:
        """A state dealt again from what the seat sees (a determinisation for search)."""


class Evaluator(Protocol):
    """What a search bot asks of a game, one per bot (``GamePackage.evaluator(seed)``)."""

    def favourite(self, observation: Any, legal_actions: list[int], last_choice: int) -> int:
        """The root's favourite: the game's heuristic choice (``last_choice``: the bot's last action)."""

    def policy(self, observation: Any, rng: Any) -> SearchPolicy:
        """The rollout policy and position score for one decision of ``observation``'s seat."""

    def searches(self, observation: Any, legal_actions: list[int]) -> bool:
        """Whether this decision is worth a search; False: the bot plays the favourite unsearched."""


class MetricCounter(Protocol):
    """One game's study figures, counted from its events (a sink's listener). ``wants``: the
    kinds of event it reads (``EventSink.wants``): the game builds no other (a counter
    without the attribute is told every event)."""

    wants: frozenset[str] | None

    def __call__(self, event: dict[str, Any]) -> None: ...

    def per_game(self) -> dict[str, int]:
        """The figures a study keeps as moments (mean, sd, min, max), keyed as ``StudyMetrics.per_game``."""

    def totals(self) -> dict[str, int]:
        """Figures a study only sums, keyed as ``StudyMetrics.totals``."""

    def cards(self) -> dict[str, list[int]]:
        """Per card drawn: times drawn, then one number per ``StudyMetrics.card_fields``."""

    # Optional: ``begin(game)``, told the game before its first event (it may then change ``wants``),
    # and ``end(state) -> bool``, told the finished state so figures can be read from it rather than
    # counted from events; False: the state could not tell, and the study plays the same game again
    # with every event counted (targui_dsl/study/games.py, GameRecorder).


@dataclass(frozen=True)
class Figure:
    """A per-game figure of a study, and its words: for tables and for what a difference means."""

    key: str  # in the figures' `metrics` and in --records rows
    name: str  # in a comparison's table: "rounds a game"
    label: str  # in a study's per-game table: "rounds"
    more: str  # B above A, in words: "games last longer"
    fewer: str  # B below A
    unit: str  # after a mean: "rounds"


@dataclass(frozen=True)
class StudyMetrics:
    """What a study counts in a game of this game besides wins, scores, rounds and decisions,
    and the game's words for it."""

    counter: Callable[[], MetricCounter]  # a new counter per game
    per_game: tuple[Figure, ...] = ()  # each per-game figure, in table order
    totals: tuple[str, ...] = ()  # keys of the figures only summed
    card_fields: tuple[str, ...] = ()  # what each card did, after `drawn`
    card_columns: tuple[str, ...] = ()  # a short heading per card field, for a table per draw
    card_note: str = "this round"  # how long a card's changes for this round last, in words
    card_heading: str = "Cards (per draw)"  # the card table's title, in the game's words
    card_count: str = "drawn"  # what the table's first column counts of a card
    # (per-game moments as figures, totals) -> the game's own blocks of a study's figures
    figures: Callable[[Mapping[str, Mapping[str, Any]], Mapping[str, int]], dict[str, Any]] | None = None
    # (a study's figures) -> lines about the game's own blocks, for a study's text report
    describe: Callable[[Mapping[str, Any]], list[str]] | None = None
    #: Figures per seat at the game's end, besides the score (each a mean per seat in tables;
    #: ``more``/``fewer`` say it of ``{who}``, the seat's tribe), and (final state) -> key ->
    #: the value per seat.
    per_seat: tuple[Figure, ...] = ()
    seat_values: Callable[[Any], Mapping[str, Sequence[int]]] | None = None
    #: (key) -> the figure of a per-game key the counter adds for a ruleset (a house rule's own
    #: symbol, say), after ``per_game`` in tables; None for a key it does not know.
    figure_of: Callable[[str], Figure | None] | None = None
    #: How games end, each with a row of its own in a comparison (``key``: the end reason; ``unit``
    #: ``%``); any other reason a study saw (a house rule's `end game "reason"`) gets a row too,
    #: except ``usual_end``, the reason of every other game (its rate is the rest).
    endings: tuple[Figure, ...] = ()
    usual_end: str = ""


@dataclass(frozen=True)
class RepeatRule:
    """A decision a player may take again without end (a bound is the adapter's business:
    OpenSpiel needs a finite game): ``again`` repeats it, ``stop`` ends it."""

    again: int  # the action id that repeats
    stop: int  # the action id that ends the repetition
    asks: Callable[[Any], bool]  # (state) -> the player to move is asked to repeat or stop
    within: Callable[[Any], bool]  # (state) -> still inside the repeated sequence (else its count restarts)


@dataclass(frozen=True)
class AdapterHooks:
    """What the framework adapters (OpenSpiel, PettingZoo) ask of a game beyond its state verbs."""

    max_game_length: Callable[[Any, int, int], int]  # (ruleset, players, repeat limit) -> decisions at most
    perfect_information: Callable[[Any], bool]  # (ruleset) -> every seat sees everything
    repeat: RepeatRule | None = None
    #: (game, seat, out, listed) -> a keeper of ``seat``'s observation tensor in ``out`` (a float32 NumPy
    #: vector of its length): its ``update(state)`` makes ``out`` hold ``state.observation_tensor(seat)``,
    #: writing only what changed since its last update, and returns ``out``; with ``listed`` it keeps
    #: the numbers in ``keeper.listed`` instead, a list of floats (the same list for the keeper's life),
    #: and returns it (``out`` is then not kept: whoever wants an array fills one from the list). None:
    #: built afresh each time.
    tensor: Callable[[Any, int, Any, bool], Any] | None = None


@dataclass(frozen=True)
class GamePackage:
    """One game, as the toolkit sees it. Each field is a hook the game fills in."""

    name: str  # what a ruleset's `game:` says
    title: str  # for people: "Targui (Jumbo, 1988)"
    new_game: Callable[..., Any]  # (ruleset, players=, seed=, ...) -> a game with new_initial_state()
    drawing: Drawing  # how people see it: the terminal, the picture, the words of help and study tables
    # The front end's hooks, the game's FrontEnd's (targui_dsl/frontend/build.py runs them in this order):
    schema: str  # its ruleset JSON Schema: a file in schemas/
    check: Callable[..., list[Any]]  # (data, spans, key_spans, complete=) -> meaning diagnostics
    snippets: Callable[..., dict[tuple, Any]]  # (resolved, diagnostics) -> its effects compiled, by path
    build: Callable[..., Any]  # (resolved, snippets, diagnostics) -> its compiled ruleset, or None after an error
    vocabulary: Any  # what its effects may name: a targui_dsl.effects.vocabulary.Vocabulary
    evaluator: Callable[[int], Evaluator] | None = None  # (seed) -> a search bot's position score and policy
    # the search bot's parameters where this game's defaults differ from the shared ones (name -> value):
    # what a plain `ismcts` means in this game
    search_defaults: Mapping[str, Any] | None = None
    # a level's bot where this game's differs from the shared table (agents/spec.py LEVELS; level ->
    # spelling): `hard` a real step up at a cost the game affords
    levels: Mapping[str, str] | None = None
    # (state, seat) -> numbers a learned position score weighs (targui_dsl/agents/learned.py), named by
    # feature_names, None for a seat out of the game; a game without them is searched with its evaluator's score
    features: Callable[[Any, int], list[float] | None] | None = None
    feature_names: tuple[str, ...] = ()
    # (compiled ruleset) -> the names of its features where they depend on the ruleset (one per kind of
    # piece it lists, say: names that are data, never attributes); None: ``feature_names`` for every ruleset
    ruleset_feature_names: Callable[[Any], tuple[str, ...]] | None = None
    feature_prior: Callable[[Any], list[float]] | None = None  # (state) -> the features' weights by hand, if any
    trained: str = ""  # the folder of the weights shipped for its built-in rulesets (<ruleset id>.json)
    bots: tuple[BotKind, ...] = ()  # the game's own bots, `greedy` its heuristic
    metrics: StudyMetrics | None = None  # what a study counts in each game
    adapter: AdapterHooks | None = None  # for OpenSpiel and PettingZoo
    #: (a log's format, an event the engine reports) -> whether logs of that older format never
    #: held such an event: replaying such a log, the engine's event is not looked for there.
    unlogged_in: Callable[[str, dict[str, Any]], bool] | None = None
    # (compiled ruleset) -> every card, deck by deck, as plain data (`deck` and `id` first), for
    # `targui cards`; None: the command's own listing (Targui's numbered (mis)fortune cards)
    cards: Callable[[Any], list[dict[str, Any]]] | None = None
