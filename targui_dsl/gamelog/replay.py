"""Replaying a log through the engine: the one replayer, used by every reader of a log.

Verification (:func:`verify_log`) is honest about what it checked: a seeded
log (``explicit_chance: false``) is re-run from its seed, fed only the
decisions, so every die, card, deal and turn must come out the same
(``chance_checked``); a log with explicit chance only shows that the
decisions were legal given the logged chance outcomes. :func:`replay_log`
feeds a log's chance outcomes and decisions to the engine (the state after
any event, for ``replay --svg --at`` and ``--step``).

Both take the events as any iterable (a :class:`~targui_dsl.gamelog.reader.LogStream`
too) and read no further than the first event the engine disagrees with.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from targui_dsl.gamelog.header import LOG_FORMAT, header_problems, seal_state
from targui_dsl.gamelog.reader import LogError

__all__ = ["LogDifference", "LogRun", "ReplayMismatch", "verify_log", "replay_log", "replay",
           "feed_decision", "feed_decisions", "new_game_of"]


@dataclass(frozen=True)
class LogDifference:
    """The first place where a log and the engine disagree."""

    event: int  # event number (the header is 0)
    logged: dict | None  # what the log says there (None: the log has ended)
    produced: dict | None  # what the engine produced (None: nothing, see ``reason``)
    reason: str

    @property
    def fields(self) -> list[str]:
        """Top-level fields whose values differ, when both sides are events of one type."""
        if not self.logged or not self.produced or self.logged.get("type") != self.produced.get("type"):
            return []
        keys = list(self.logged) + [k for k in self.produced if k not in self.logged]
        return [k for k in keys if self.logged.get(k) != self.produced.get(k)]

    def to_json(self) -> dict[str, Any]:
        return {"event": self.event, "line": self.event + 1, "log": self.logged, "engine": self.produced,
                "fields": self.fields, "reason": self.reason}


@dataclass
class LogRun:
    """The result of running a log through the engine."""

    state: Any  # the game state at the end, or after the event asked for
    events: int  # events compared or fed (the header not counted)
    difference: LogDifference | None = None
    complete: bool = True  # the log runs to the end of the game
    chance_checked: bool = False  # every chance outcome was thrown by the engine from the seed, and matched
    seal: str = "unsealed"  # the header's seal_state

    @property
    def ok(self) -> bool:
        return self.difference is None


class ReplayMismatch(Exception):
    """A log the engine does not report the same way (:func:`replay`)."""

    def __init__(self, index: int, expected: Any, got: Any):
        self.index, self.expected, self.got = index, expected, got
        super().__init__(f"event {index}: log says {json.dumps(expected)}, the engine says {json.dumps(got)}")


def new_game_of(ruleset: Any, header: dict[str, Any], explicit_chance: bool | None = None) -> Any:
    """The game a header describes, made by the package of the ruleset's game; a
    :class:`LogError` (line 1) when the header does not fit the ruleset."""
    from targui_dsl.games import DEFAULT_GAME, game_package

    package = game_package(getattr(ruleset, "game", None) or DEFAULT_GAME)
    options = {} if explicit_chance is None else {"explicit_chance": explicit_chance}
    try:
        return package.new_game(ruleset, players=header["players"], seed=header["seed"], tribes=header["tribes"],
                                **options)
    except ValueError as err:
        raise LogError(f"the header does not fit ruleset {ruleset.id}: {err}", 1) from None


def unlogged_filter(ruleset: Any, header: dict[str, Any]) -> Callable[[dict[str, Any]], bool] | None:
    """For a log of an older format: which events the engine reports that such a log never
    held (its game's ``unlogged_in``); None for a log of today's format."""
    from targui_dsl.games import DEFAULT_GAME, game_package

    log_format = header.get("format")
    unlogged_in = game_package(getattr(ruleset, "game", None) or DEFAULT_GAME).unlogged_in
    if log_format == LOG_FORMAT or unlogged_in is None:
        return None
    return lambda event: unlogged_in(str(log_format), event)


def verify_log(ruleset: Any, events: Iterable[dict[str, Any]], unfinished: bool = False) -> LogRun:
    """Re-run a logged game from its header and decisions; stop at the first differing event.

    First the header: its seal must match (an edit of the chance mode, seed,
    players or ruleset hashes is caught here) and the ruleset must be the one
    the header names (:func:`~targui_dsl.gamelog.header.header_problems`). A
    game logged with implicit chance (``explicit_chance: false``, what
    ``targui play`` writes) is then re-run from its seed: the engine throws the
    dice and draws the cards itself, so a die edited in the log is caught at
    that very event (``chance_checked``). A game logged with explicit chance
    gets its chance outcomes from the log: only its decisions are checked. A
    decision the engine reports by itself (a forced one) is left to it; any
    other is fed, step by step until the engine reports it (a pass logged as
    forced after a chosen ``deposit 0``, which is not logged, is fed too).
    Every event the engine reports must equal the logged one, and the log
    must run to the end of the game, unless ``unfinished`` accepts a game
    stopped midway (``complete`` then says whether it ended).
    """
    events = iter(events)
    head = next(events)
    state = seal_state(head)
    problems = header_problems(ruleset, head)
    if state == "broken":
        problems.insert(0, "the header was changed after the game was logged: its seal does not match "
                           "(an edited seed, chance mode, player setup or ruleset)")
    if problems:
        game = new_game_of(ruleset, head)
        return LogRun(state=game.new_initial_state(), events=0, seal=state, complete=False,
                      difference=LogDifference(0, head, None, problems[0]))
    explicit = head.get("explicit_chance", False)
    run = _drive(ruleset, head, events, regenerate_chance=not explicit, compare=True, unfinished=unfinished)
    run.seal = state
    run.complete = run.state.is_terminal()
    if run.difference is None and not run.complete and not unfinished:
        run.difference = LogDifference(run.events + 1, None, None,
                                       f"the log ends after event {run.events}, before the game is over "
                                       f"(the engine waits for {_waiting_for(run.state)})")
    run.chance_checked = run.ok and not explicit
    return run


def replay_log(ruleset: Any, events: Iterable[dict[str, Any]], at: int | None = None,
               compare: bool = False) -> LogRun:
    """Feed a log's chance outcomes and decisions to the engine; with ``compare``, stop
    at the first event the engine reports differently.

    With ``at``, ``state`` is the game just before event ``at + 1`` was
    reported, that is after event ``at`` and everything it caused that was
    logged with it (``at = 0``: before the deal); a ValueError when the log has
    no event ``at``. ``difference`` is set when the log asks for something the
    engine cannot do (an illegal action); ``complete`` is False for a log that
    stops before the game ends.
    """
    if at is not None:  # a moment: the log is read whole to know it has that event
        events = list(events)
        if not 0 <= at < len(events):
            raise ValueError(f"event {at} is not in the log (events 0 to {len(events) - 1})")
    events = iter(events)
    head = next(events)
    run = _drive(ruleset, head, events, regenerate_chance=False, compare=compare, at=at, unfinished=True)
    run.complete = run.state.is_terminal() if at is None else True
    return run


def replay(ruleset: Any, events: Iterable[dict[str, Any]], verify: bool = True) -> Any:
    """Play the logged game again from its chance outcomes and decisions; return the final state.

    With ``verify`` every event the engine reports must equal the logged one
    (else :class:`ReplayMismatch`), as must the ruleset id; without it only an
    action the engine cannot take is one.
    """
    events = iter(events)
    head = next(events)
    if head["ruleset"] != ruleset.id:
        raise ValueError(f"the log is of ruleset {head['ruleset']!r}, not {ruleset.id!r}")
    run = replay_log(ruleset, itertools.chain([head], events), compare=verify)
    if run.difference is not None:
        raise ReplayMismatch(run.difference.event, run.difference.logged, run.difference.produced)
    return run.state


class _Producer:
    """The sink the replayed engine tells its events to: counts them, and keeps a copy of
    the state as it stood just before event ``at + 1`` was reported. It reads every event."""

    wants: frozenset[str] | None = None

    def __init__(self, at: int | None, unlogged: Callable[[dict[str, Any]], bool] | None = None):
        self.produced: list[dict[str, Any]] = []
        self.unlogged = unlogged  # events the log's (older) format never held: not looked for there
        self.at = at
        self.state: Any = None
        self.snapshot: Any = None

    def begin(self, game: Any) -> None:
        """No header: the replayer compares the events after it."""

    def told_tuple(self, event: tuple[Any, ...]) -> None:
        """An event told as a tuple (engine/told.py): its dict, heard as :meth:`emit` hears it."""
        made = event[0].event(event)
        if self.at is None and self.unlogged is None:
            self.produced.append(made)  # what emit does then, without a call
        else:
            self.emit(made)

    def emit(self, event: dict[str, Any]) -> None:
        if event["type"] == "header":  # from a state that still writes its header itself
            return
        if self.unlogged is not None and self.unlogged(event):
            return
        self.produced.append(event)
        if self.at is not None and len(self.produced) == self.at + 1 and self.state is not None \
                and self.snapshot is None:
            self.snapshot = self.state.clone()  # the board as it stood before this event was reported


def _drive(ruleset: Any, head: dict[str, Any], events: Iterable[dict[str, Any]], regenerate_chance: bool,
           compare: bool, at: int | None = None, unfinished: bool = False) -> LogRun:
    game = new_game_of(ruleset, head, explicit_chance=not regenerate_chance)
    sink = _Producer(at, unlogged_filter(ruleset, head))
    produced = sink.produced
    state = sink.state = game.new_initial_state(log=sink)
    if at == 0 and sink.snapshot is None:
        sink.snapshot = game.new_initial_state()  # nothing has happened yet (explicit chance stops at once)

    def result(difference: LogDifference | None, count: int) -> LogRun:
        return LogRun(state=sink.snapshot if sink.snapshot is not None else state, events=count,
                      difference=difference)

    count = 0
    for i, want in enumerate(events, 1):
        if at is not None and sink.snapshot is not None:
            return result(None, i - 1)
        count = i
        if len(produced) < i:  # the engine waits for input: the log must give it
            # Any decision, even one logged as forced: a player's `deposit 0` is not logged by
            # itself, so a pass forced after it is logged `forced: true` although the player
            # chose at the deposit; fed as text, `pass` makes that deposit of nothing, and the
            # event the engine then reports is compared with the logged one as any other.
            is_input = want["type"] == "decision"
            is_input |= want["type"] == "chance" and not regenerate_chance
            if not is_input:
                return result(LogDifference(i, want, None, f"the engine produced nothing here: it waits for "
                                                           f"{_waiting_for(state)}"), i - 1)
            try:
                feed_decision(state, want["action"], lambda: len(produced) >= i)  # noqa: B023 - called at once
            except ValueError as err:  # IllegalAction, a ValueError: not an action here
                return result(LogDifference(i, want, None, f"the engine rejects `{want['action']}`: {err}"), i - 1)
            if len(produced) < i:
                return result(LogDifference(i, want, None, "the engine reported nothing for this action"), i - 1)
        if compare and produced[i - 1] != want:
            return result(LogDifference(i, want, produced[i - 1], "the log and the engine differ"), i - 1)
    if compare and not unfinished and len(produced) > count:
        return result(LogDifference(count + 1, None, produced[count], "the log ends here; the engine goes on"),
                      count)
    return result(None, count)


def feed_decision(state: Any, action: str, reported: Callable[[], bool],
                  before_step: Callable[[], None] | None = None) -> None:
    """Apply a logged decision to ``state`` step by step until ``reported()`` says the engine
    has reported it: after a chosen `deposit 0` (which the engine does not log by itself) it
    takes the rest, a forced pass, itself. ``before_step`` runs before each step applied
    (``play --resume`` shows each step to the seat's bot). Raises a ValueError (the game's
    illegal action) for an action that is not one here."""
    for step in state.actions_from_text(action):
        if reported():
            return
        if before_step is not None:
            before_step()
        state.apply_action(step)


def feed_decisions(state: Any, events: list[dict[str, Any]], reported: Callable[[], int],
                   before_step: Callable[[], None] | None = None) -> None:
    """Bring a live game (seeded, its chance from the engine) to where a verified log stops:
    every logged decision the engine does not take by itself is fed again with
    :func:`feed_decision`; ``reported()`` is how many events (the header included) the
    game has reported so far. A log cut between two events (a crash) ends the same way:
    the game then stands after the log's last whole decision and whatever it caused, a
    few events past the log's end. A ValueError when the game stops short of the log."""
    for number, event in enumerate(events[1:], 1):
        if event["type"] != "decision" or reported() > number:
            continue  # chance comes from the seed, and what the engine produced itself is done
        # (a decision logged as forced can still be input: see _drive)
        feed_decision(state, event["action"], lambda: reported() > number, before_step)  # noqa: B023 - called at once
    if reported() < len(events):
        raise ValueError(f"the engine reached event {reported() - 1}, the log has {len(events) - 1} events")


def _waiting_for(state: Any) -> str:
    if state.is_terminal():
        return "nothing: the game is over"
    if state.is_chance_node():
        return "a chance outcome"
    player = state.current_player()
    return f"a decision by {state.game.tribe_name(player)} (seat {player + 1})"
