"""The event log: one JSON object per line, enough to replay and verify a game.

Attach a log to a state before playing (``attach_log(state, EventLog(...))``):
the state reports every chance outcome, decision, card effect (with what it
changed), fight, elimination, round end (levy per player) and the end.
The first line is a header (format version, ruleset, players, tribes, seed);
the last an ``end`` line with scores and winners. The format is documented
in ``docs/engine.md`` and ``schemas/game-log.schema.json``.

:func:`replay` re-plays a log through the engine, feeding it the logged chance
outcomes and decisions, and checks that the engine reports the same events.
"""

from __future__ import annotations

import json
import os
from typing import IO, TYPE_CHECKING, Any, Iterable

from targui_dsl.frontend.text import visible
from targui_dsl.games.targui.compiled import CompiledRuleset
from targui_dsl.games.targui.game import Game

if TYPE_CHECKING:  # pragma: no cover
    from targui_dsl.games.targui.state import GameState

LOG_FORMAT = "targui-log/1"


class EventLog:
    """Collects events in memory (``events``) and/or writes them as JSON lines to ``stream``."""

    def __init__(self, stream: IO[str] | None = None, keep: bool = True):
        self.stream = stream
        self.events: list[dict[str, Any]] | None = [] if keep else None
        self.listeners: list = []

    def begin(self, game: Game) -> None:
        """The game starts being told to this log: its header first (the EventSink seam)."""
        self.emit(header(game))

    def emit(self, event: dict[str, Any]) -> None:
        if self.events is not None:
            self.events.append(event)
        if self.stream is not None:
            self.stream.write(json.dumps(event, separators=(",", ":")) + "\n")
        for listener in self.listeners:
            listener(event)


def header(game: Game) -> dict[str, Any]:
    from targui_dsl.gamelog.logfile import seal_header, source_hashes

    ruleset = game.ruleset
    # absolute, so that a house rule's log replays from any directory
    files = [os.path.abspath(f) for f in ruleset.files]
    return seal_header({
        "type": "header",
        "format": LOG_FORMAT,
        "ruleset": ruleset.id,
        "title": ruleset.title,
        "files": files,
        # what each file held: a replay opens a file only if it still holds this
        "sha256": source_hashes(files),
        "players": game.players,
        "tribes": list(game.tribe_ids),
        "seed": game.seed,
        "explicit_chance": game.explicit_chance,
    })  # the seal binds the chance mode to the seed and the ruleset (docs/engine.md)


def attach_log(state: "GameState", log: EventLog) -> EventLog:
    """Log a state from now on; writes the header first. To log a game from its very
    first event (the deal), pass the log to ``Game.new_initial_state(log=...)`` instead."""
    state.attach_sink(log)
    return log


class ReplayMismatch(Exception):
    def __init__(self, index: int, expected: Any, got: Any):
        self.index, self.expected, self.got = index, expected, got
        super().__init__(f"event {index}: log says {json.dumps(expected)}, the engine says {json.dumps(got)}")


def read_log(lines: Iterable[str]) -> list[dict[str, Any]]:
    return [json.loads(line) for line in lines if line.strip()]


def replay(ruleset: CompiledRuleset, events: list[dict[str, Any]], verify: bool = True) -> "GameState":
    """Play the logged game again from its chance outcomes and decisions; return the final state.

    With ``verify`` every event the engine reports must equal the logged one
    (else :class:`ReplayMismatch`). A thin name for :func:`targui_dsl.gamelog.logfile.replay_log`,
    the one replayer.
    """
    from targui_dsl.gamelog.logfile import replay_log

    head = events[0]
    if head.get("type") != "header" or head.get("format") != LOG_FORMAT:
        raise ValueError(f"not a targui game log (expected a {LOG_FORMAT} header line)")
    if head["ruleset"] != ruleset.id:
        raise ValueError(f"the log is of ruleset {head['ruleset']!r}, not {ruleset.id!r}")
    run = replay_log(ruleset, events, compare=verify)
    if run.difference is not None:
        diff = run.difference
        if verify or diff.produced is None:
            raise ReplayMismatch(diff.event, diff.logged, diff.produced)
    return run.state


class Narrator:
    """Turns log events into one readable line each (None for events not worth a line)."""

    def __init__(self, game: Game):
        ruleset = game.ruleset
        self.names = {t.id: t.name for t in ruleset.tribes}
        self.cards = ruleset.cards
        self.kinds = {k.id: k.name for k in ruleset.kinds}
        self.title = ruleset.title  # for a header without its (optional) title

    def __call__(self, event: dict[str, Any]) -> str | None:
        # Names and titles come from a ruleset or a log: no control character in them is printed raw.
        line = self._line(event)
        return None if line is None else visible(line)

    def _line(self, event: dict[str, Any]) -> str | None:
        kind = event["type"]
        name = self.names.get(event.get("tribe", ""), event.get("tribe"))
        if kind == "header":
            tribes = ", ".join(self.names.get(t, t) for t in event["tribes"])
            return f"{event.get('title') or self.title} ({event['ruleset']}): {event['players']} players ({tribes}), seed {event['seed']}"
        if kind == "decision":
            if event["forced"] and event["action"] == "pass":
                return None
            verb = event["action"].split()[0]
            indent = "" if verb in ("sector", "settle") else "    "
            return f"{indent}{name}: {event['action']}{' (forced)' if event['forced'] else ''}"
        if kind == "round":
            turns = "a double turn each" if event["double_turn"] else f"{event['tribal_cards']} turn(s) each"
            return (f"-- round {event['round']}: die {event['die']}, {turns}, "
                    f"{event['fortune_cards']} (mis)fortune card(s)")
        if kind == "turn":
            return f"  {name}'s {'double ' if event['double_turn'] else ''}turn"
        if kind == "fight":
            who = "defender" if event["thrower"] == "attacker" else "attacker"
            return (f"      {event['thrower']} throws {event['die']}: {who} loses {event['loss']} "
                    f"({event['source']}: {event['camels'][0]}, {event['target']}: {event['camels'][1]})")
        if kind == "attack_end":
            return f"      attack from {event['source']} on {event['target']}: {event['result']}"
        if kind == "card":
            changes = event["changes"]
            parts = [f"{p}: {a}->{b}" for p, (a, b) in changes["camels"].items()]
            parts += [f"{self.names.get(t, t)} cash {a}->{b}" for t, (a, b) in changes["cash"].items()]
            parts += [f"{self.names.get(t, t)} treasury {a}->{b}" for t, (a, b) in changes.get("treasury", {}).items()]
            parts += [f"{self.kinds.get(k, k)} {f} {a}->{b}" for k, d in changes["kinds"].items() for f, (a, b) in d.items()]
            return f"  card {event['number']} {event['title']}: {'; '.join(parts) if parts else 'no effect'}"
        if kind == "eliminated":
            return f"  {name} owns no territory any more and is out"
        if kind == "round_end":
            lost = {t: n for t, n in event["cash_lost"].items() if n}
            text = "  levy: " + ", ".join(f"{self.names.get(t, t)} {n}" for t, n in event["levy"].items())
            if lost:
                text = "  cash lost: " + ", ".join(f"{self.names.get(t, t)} {n}" for t, n in lost.items()) + ";" + text[1:]
            return text
        if kind == "end":
            scores = ", ".join(f"{self.names.get(t, t)} {s}" for t, s in event["scores"].items())
            winners = " and ".join(self.names.get(t, t) for t in event["winners"])
            result = f"a draw between {winners}" if event["draw"] else f"{winners} wins"
            how = "only one player owns territory" if event["reason"] == "last_standing" else "the deck ran out"
            return f"Game over after round {event['rounds']} ({how}): {result}. Scores: {scores}"
        return None
