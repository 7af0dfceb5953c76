"""Differences: between two rulesets, and between a game log and the engine.

Two pure tools that answer "what is different?":

* :func:`diff_rulesets` compares two rulesets *after* ``extends:`` is merged
  (the data of :attr:`targui_dsl.build.Report.resolved`), rule by rule: values
  by dotted path, cards added, removed and changed (old and new effect),
  and the deck (cards added, removed, moved). Every change carries the
  place where each side's value was written.
* :func:`read_game_log`, :func:`verify_log` and :func:`replay_log` read a
  ``targui-log/1`` file, re-run it through the engine's public API and
  report the first event where the log and the engine part ways, or give
  the state of the game after any event.

Event numbers are those of :class:`~targui_dsl.engine.ReplayMismatch`: the
header is event 0, the first event after it is event 1, so event ``n`` is
line ``n + 1`` of the file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Iterable

from .compiled import CompiledRuleset
from .diagnostics import Span
from .paths import dotted, format_value
from .resolve import Resolved

__all__ = [
    "Change", "RulesetDiff", "diff_rulesets", "IDENTITY_KEYS",
    "LogError", "LogDifference", "LogRun", "read_game_log", "verify_log", "replay_log",
]

# --- rulesets ----------------------------------------------------------------------------

# Top-level keys that name or describe a ruleset without changing how it plays
# (``language`` only says in which language the file's card texts are).
IDENTITY_KEYS = ("id", "title", "description", "source", "language")

# Sections of a diff, in the order they are shown.
RULES, CARDS, DECK, IDENTITY, TEXTS = "rules", "cards", "deck", "identity", "texts"

_ABSENT = object()


@dataclass(frozen=True)
class Change:
    """One difference. ``kind`` is ``changed``, ``added``, ``removed`` or ``moved``.

    ``path`` is where the value lives in the merged data (``("rounds",
    "double_turn_from")``; for a deck move ``("deck", card_id)``). ``old`` and
    ``new`` are the values (``None`` on the side that lacks one; for a move the
    1-based deck positions). ``old_at``/``new_at`` say where each was written.
    """

    section: str
    kind: str
    path: tuple
    old: Any = None
    new: Any = None
    old_at: Span | None = None
    new_at: Span | None = None

    @property
    def name(self) -> str:
        return dotted(self.path)

    def to_json(self) -> dict[str, Any]:
        return {
            "section": self.section, "kind": self.kind, "path": self.name,
            "old": self.old, "new": self.new,
            "old_at": _where(self.old_at), "new_at": _where(self.new_at),
        }


@dataclass
class RulesetDiff:
    a: str  # ruleset ids
    b: str
    a_files: list[str]
    b_files: list[str]
    changes: list[Change]
    hidden: dict[str, int] = field(default_factory=dict)  # section -> differences left out
    card_numbers: dict[str, int] = field(default_factory=dict)  # card id -> number (B's, else A's)

    @property
    def same(self) -> bool:
        return not self.changes

    def section(self, name: str) -> list[Change]:
        return [c for c in self.changes if c.section == name]

    def to_json(self) -> dict[str, Any]:
        return {
            "a": {"id": self.a, "files": self.a_files},
            "b": {"id": self.b, "files": self.b_files},
            "same": self.same,
            "changes": [c.to_json() for c in self.changes],
            "hidden": dict(self.hidden),
        }


def diff_rulesets(a: Resolved, b: Resolved, include_identity: bool = False) -> RulesetDiff:
    """Rule-by-rule differences from ``a`` to ``b`` (both resolved without errors).

    Identity keys (:data:`IDENTITY_KEYS`) and the rulebook texts of cards are
    compared too, but left out unless ``include_identity``; ``hidden`` counts
    what was left out.
    """
    if a.data is None or b.data is None:
        raise ValueError("diff_rulesets needs two rulesets resolved without errors")
    da, db = a.data, b.data
    changes: list[Change] = []
    span_a, span_b = a.spans.get, b.spans.get

    for key in _union(da, db):
        if key in ("cards", "deck"):
            continue
        section = IDENTITY if key in IDENTITY_KEYS else RULES
        _diff_value(da.get(key, _ABSENT), db.get(key, _ABSENT), (key,), section, span_a, span_b, changes)
    _diff_cards(_mapping(da.get("cards")), _mapping(db.get("cards")), span_a, span_b, changes)
    _diff_deck(_sequence(da.get("deck")), _sequence(db.get("deck")), span_a, span_b, changes)

    order = {RULES: 0, CARDS: 1, TEXTS: 2, DECK: 3, IDENTITY: 4}
    changes.sort(key=lambda c: order[c.section])  # stable: data order within a section
    hidden: dict[str, int] = {}
    if not include_identity:
        for section in (IDENTITY, TEXTS):
            count = sum(1 for c in changes if c.section == section)
            if count:
                hidden[section] = count
        changes = [c for c in changes if c.section not in (IDENTITY, TEXTS)]
    numbers = {card_id: _number(card) for cards in (_mapping(da.get("cards")), _mapping(db.get("cards")))
               for card_id, card in cards.items() if _number(card) < 10**9}
    return RulesetDiff(a=str(da.get("id")), b=str(db.get("id")), a_files=list(a.files), b_files=list(b.files),
                       changes=changes, hidden=hidden, card_numbers=numbers)


def _union(a: dict, b: dict) -> list:
    return list(a) + [k for k in b if k not in a]


def _mapping(value: Any) -> dict:
    return value if isinstance(value, dict) else {}


def _sequence(value: Any) -> list:
    return value if isinstance(value, list) else []


def _diff_value(old: Any, new: Any, path: tuple, section: str, span_a, span_b, out: list[Change]) -> None:
    if old is _ABSENT and new is _ABSENT:
        return
    if old is _ABSENT:
        out.append(Change(section, "added", path, None, new, None, span_b(path)))
    elif new is _ABSENT:
        out.append(Change(section, "removed", path, old, None, span_a(path), None))
    elif isinstance(old, dict) and isinstance(new, dict):
        for key in _union(old, new):
            _diff_value(old.get(key, _ABSENT), new.get(key, _ABSENT), path + (key,), section, span_a, span_b, out)
    elif (isinstance(old, list) and isinstance(new, list) and len(old) == len(new)
          and any(isinstance(v, (list, dict)) for v in old + new)):
        # Tables (the board's numbering, seating): say which row changed.
        for i, (x, y) in enumerate(zip(old, new)):
            _diff_value(x, y, path + (i,), section, span_a, span_b, out)
    elif old != new or type(old) is not type(new):
        out.append(Change(section, "changed", path, old, new, span_a(path), span_b(path)))


def _diff_cards(old: dict, new: dict, span_a, span_b, out: list[Change]) -> None:
    for card_id in sorted(_union(old, new), key=lambda c: (_number(new.get(c, old.get(c))), c)):
        path = ("cards", card_id)
        if card_id not in new:
            out.append(Change(CARDS, "removed", path, old[card_id], None, span_a(path), None))
        elif card_id not in old:
            out.append(Change(CARDS, "added", path, None, new[card_id], None, span_b(path)))
        else:
            a, b = _mapping(old[card_id]), _mapping(new[card_id])
            for key in _union(a, b):
                section = TEXTS if key == "text" else CARDS
                _diff_value(a.get(key, _ABSENT), b.get(key, _ABSENT), path + (key,), section, span_a, span_b, out)


def _number(card: Any) -> int:
    number = card.get("number") if isinstance(card, dict) else None
    return number if isinstance(number, int) else 10**9


def _diff_deck(old: list, new: list, span_a, span_b, out: list[Change]) -> None:
    for i, card in enumerate(old):
        if card not in new:
            out.append(Change(DECK, "removed", ("deck", card), i + 1, None, span_a(("deck", i)), None))
    for i, card in enumerate(new):
        if card not in old:
            out.append(Change(DECK, "added", ("deck", card), None, i + 1, None, span_b(("deck", i))))
    # Order: the cards in both decks that are not part of the longest run
    # kept in the same relative order have moved.
    common_old = [c for c in old if c in new]
    common_new = [c for c in new if c in old]
    if common_old == common_new:
        return
    kept = set(_longest_common_subsequence(common_old, common_new))
    for card in common_new:
        if card not in kept:
            i, j = old.index(card), new.index(card)
            out.append(Change(DECK, "moved", ("deck", card), i + 1, j + 1, span_a(("deck", i)), span_b(("deck", j))))


def _longest_common_subsequence(a: list, b: list) -> list:
    n, m = len(a), len(b)
    table = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            table[i][j] = table[i + 1][j + 1] + 1 if a[i] == b[j] else max(table[i + 1][j], table[i][j + 1])
    out, i, j = [], 0, 0
    while i < n and j < m:
        if a[i] == b[j]:
            out.append(a[i])
            i, j = i + 1, j + 1
        elif table[i + 1][j] >= table[i][j + 1]:
            i += 1
        else:
            j += 1
    return out


def _where(span: Span | None) -> str | None:
    return f"{span.file}:{span.line}" if span is not None else None


# --- game logs ---------------------------------------------------------------------------


class LogError(ValueError):
    """The file is not a readable targui game log; ``line`` is 1-based (None: the whole file)."""

    def __init__(self, message: str, line: int | None = None):
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message)


@lru_cache(maxsize=None)
def _log_validators() -> dict[str, Any]:
    """One JSON Schema validator per event type, from schemas/game-log.schema.json."""
    import jsonschema

    from .resources import schemas_dir

    schema = json.loads((schemas_dir() / "game-log.schema.json").read_text(encoding="utf-8"))
    base = {k: v for k, v in schema.items() if k not in ("oneOf", "required", "type")}
    return {
        name: jsonschema.Draft202012Validator({**base, "$ref": f"#/$defs/{name}"})
        for name in schema["$defs"]
        if isinstance(schema["$defs"][name], dict) and schema["$defs"][name].get("properties", {}).get("type")
    }


def read_game_log(lines: Iterable[str]) -> list[dict[str, Any]]:
    """Parse and check a game log; raises :class:`LogError` naming the first bad line.

    Every line must be a JSON object matching its event type in
    ``schemas/game-log.schema.json``; the first must be a ``targui-log/1``
    header. Blank lines are skipped (and still counted).
    """
    from .engine import LOG_FORMAT

    validators = _log_validators()
    events: list[dict[str, Any]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except (json.JSONDecodeError, RecursionError) as err:
            message = getattr(err, "msg", "nested too deeply")
            raise LogError(f"not JSON ({message}); is the file a targui game log, or cut short?", number) from None
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            raise LogError("not a log event (a JSON object with a \"type\")", number)
        if not events:
            if event["type"] != "header" or event.get("format") != LOG_FORMAT:
                raise LogError(f"not a targui game log: the first line must be a {LOG_FORMAT!r} header", number)
        elif event["type"] == "header":
            raise LogError("a second header line", number)
        validator = validators.get(event["type"])
        if validator is None:
            raise LogError(f"unknown event type {event['type']!r}", number)
        problem = next(iter(sorted(validator.iter_errors(event), key=lambda e: list(e.absolute_path))), None)
        if problem is not None:
            where = dotted(problem.absolute_path)
            raise LogError(f"bad {event['type']} event: {where + ': ' if where else ''}{problem.message}", number)
        events.append(event)
    if not events:
        raise LogError("the file is empty: no targui game log header")
    return events


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
        return [k for k in _union(self.logged, self.produced) if self.logged.get(k) != self.produced.get(k)]

    def to_json(self) -> dict[str, Any]:
        return {"event": self.event, "line": self.event + 1, "log": self.logged, "engine": self.produced,
                "fields": self.fields, "reason": self.reason}


@dataclass
class LogRun:
    """The result of running a log through the engine."""

    state: Any  # the GameState at the end, or after the event asked for
    events: int  # events compared or fed (the header not counted)
    difference: LogDifference | None = None
    complete: bool = True  # the log runs to the end of the game

    @property
    def ok(self) -> bool:
        return self.difference is None


def verify_log(ruleset: CompiledRuleset, events: list[dict[str, Any]], unfinished: bool = False) -> LogRun:
    """Re-run a logged game from its header and decisions; stop at the first differing event.

    A game logged with implicit chance (``explicit_chance: false``, what
    ``targui play`` writes) is re-run from its seed: the engine throws the
    dice and draws the cards itself, so a die edited in the log is caught at
    that very event. A game logged with explicit chance gets its chance
    outcomes from the log. Decisions the log marks ``forced`` are left to
    the engine. Every event the engine reports must equal the logged one,
    and the log must run to the end of the game, unless ``unfinished``
    accepts a game stopped midway (``complete`` then says whether it ended).
    """
    run = _drive(ruleset, events, regenerate_chance=not events[0].get("explicit_chance", False), compare=True,
                 unfinished=unfinished)
    run.complete = run.state.is_terminal()
    if run.difference is None and not run.complete and not unfinished:
        run.difference = LogDifference(len(events), None, None,
                                       f"the log ends after event {len(events) - 1}, before the game is over "
                                       f"(the engine waits for {_waiting_for(run.state)})")
    return run


def replay_log(ruleset: CompiledRuleset, events: list[dict[str, Any]], at: int | None = None) -> LogRun:
    """Feed a log's chance outcomes and decisions to the engine, without comparing events.

    With ``at``, ``state`` is the game just before event ``at + 1`` was
    reported, that is after event ``at`` and everything it caused that was
    logged with it (``at = 0``: before the deal). ``difference`` is set when
    the log asks for something the engine cannot do (an illegal action);
    ``complete`` is False for a log that stops before the game ends.
    """
    if at is not None and not 0 <= at < len(events):
        raise ValueError(f"event {at} is not in the log (events 0 to {len(events) - 1})")
    run = _drive(ruleset, events, regenerate_chance=False, compare=False, at=at)
    run.complete = run.state.is_terminal() if at is None else True
    return run


def _drive(ruleset: CompiledRuleset, events: list[dict[str, Any]], regenerate_chance: bool, compare: bool,
           at: int | None = None, unfinished: bool = False) -> LogRun:
    from .engine import EventLog, Game, IllegalAction

    head = events[0]
    try:
        game = Game(ruleset, players=head["players"], seed=head["seed"], tribes=head["tribes"],
                    explicit_chance=not regenerate_chance)
    except ValueError as err:
        raise LogError(f"the header does not fit ruleset {ruleset.id}: {err}", 1) from None
    produced: list[dict[str, Any]] = []
    holder: dict[str, Any] = {}

    def listen(event: dict[str, Any]) -> None:
        if event["type"] == "header":
            return
        produced.append(event)
        if at is not None and len(produced) == at + 1 and "state" in holder and "at" not in holder:
            holder["at"] = holder["state"].clone()  # the board as it stood before this event was reported

    log = EventLog(keep=False)
    log.listeners.append(listen)
    state = holder["state"] = game.new_initial_state(log=log)
    if at == 0 and "at" not in holder:
        holder["at"] = game.new_initial_state()  # nothing has happened yet (explicit chance stops at once)

    def result(difference: LogDifference | None, count: int) -> LogRun:
        return LogRun(state=holder.get("at", state), events=count, difference=difference)

    for i in range(1, len(events)):
        if at is not None and "at" in holder:
            return result(None, i - 1)
        want = events[i]
        if len(produced) < i:  # the engine waits for input: the log must give it
            is_input = want["type"] == "decision" and not want["forced"]
            is_input |= want["type"] == "chance" and not regenerate_chance
            if not is_input:
                return result(LogDifference(i, want, None, f"the engine produced nothing here: it waits for "
                                                           f"{_waiting_for(state)}"), i - 1)
            try:
                state.apply_action(want["action"])
            except (IllegalAction, ValueError) as err:
                return result(LogDifference(i, want, None, f"the engine rejects `{want['action']}`: {err}"), i - 1)
            if len(produced) < i:
                return result(LogDifference(i, want, None, "the engine reported nothing for this action"), i - 1)
        if compare and produced[i - 1] != want:
            return result(LogDifference(i, want, produced[i - 1], "the log and the engine differ"), i - 1)
    if compare and not unfinished and len(produced) > len(events) - 1:
        extra = produced[len(events) - 1]
        return result(LogDifference(len(events), None, extra, "the log ends here; the engine goes on"),
                      len(events) - 1)
    return result(None, len(events) - 1)


def _waiting_for(state) -> str:
    from .engine import CHANCE, TERMINAL

    player = state.current_player()
    if player == TERMINAL:
        return "nothing: the game is over"
    if player == CHANCE:
        return "a chance outcome"
    return f"a decision by {state.game.tribe_name(player)} (seat {player + 1})"
