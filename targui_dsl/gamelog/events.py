"""The event log: one JSON object per line, enough to replay and verify a game.

An :class:`EventLog` is an :class:`~targui_dsl.engine.protocol.EventSink`:
given to a game (``game.new_initial_state(log=EventLog(...))``, or
:func:`attach_log` for a state already under way) it hears every event the
game reports. Its first line is the header (:func:`targui_dsl.gamelog.header.build_header`:
format version, ruleset, players, tribes, seed, sealed); the last an ``end``
line. The format is documented in ``docs/engine.md`` and
``schemas/game-log.schema.json``.
"""

from __future__ import annotations

import json
from typing import IO, Any, Callable

from targui_dsl.gamelog.header import build_header

__all__ = ["EventLog", "attach_log"]


class EventLog:
    """Collects events in memory (``events``) and/or writes them as JSON lines to ``stream``;
    each event is also given to every function in ``listeners``. ``header_fields`` are added
    to the header (and sealed with it): ``targui play`` records who sat where. A log reads
    every event (``wants``)."""

    wants: frozenset[str] | None = None

    def __init__(self, stream: IO[str] | None = None, keep: bool = True,
                 header_fields: dict[str, Any] | None = None):
        self.stream = stream
        self.events: list[dict[str, Any]] | None = [] if keep else None
        self.listeners: list[Callable[[dict[str, Any]], None]] = []
        self.header_fields = dict(header_fields or {})

    def begin(self, game: Any) -> None:
        """The game starts being told here: the header first."""
        self.emit(build_header(game, self.header_fields))

    def emit(self, event: dict[str, Any]) -> None:
        if self.events is not None:
            self.events.append(event)
        if self.stream is not None:
            self.stream.write(json.dumps(event, separators=(",", ":")) + "\n")
        for listener in self.listeners:
            listener(event)


def attach_log(state: Any, log: EventLog) -> EventLog:
    """Log a state from now on; writes the header first. To log a game from its very
    first event (the deal), pass the log to ``Game.new_initial_state(log=...)`` instead."""
    state.attach_sink(log)
    return log
