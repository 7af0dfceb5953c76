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
import json.encoder
from typing import IO, Any, Callable

from targui_dsl.gamelog.header import build_header

__all__ = ["EventLog", "attach_log"]



def _event_encoder() -> Callable[[dict[str, Any]], str]:
    """``json.dumps(event, separators=(",", ":"))``, the same text, made once: ``dumps`` makes a
    new encoder at every call, and ``JSONEncoder.encode`` a new C encoder (the two were half of
    a log's cost). The C encoder is called directly where it exists and says the same as ``dumps``
    (an event holds no cycle: no check for one); else the encoder's own ``encode``."""
    encode = json.JSONEncoder(separators=(",", ":")).encode
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return encode

    def refuse(value: Any) -> Any:
        raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")

    try:
        chunks = make(None, refuse, json.encoder.encode_basestring_ascii, None, ":", ",", False, False, True)
    except TypeError:  # another signature: not this Python's C encoder
        return encode
    join = "".join

    def fast(event: dict[str, Any]) -> str:
        return join(chunks(event, 0))

    sample = {"type": "t\u00e9\n", "n": [1, -2, 2**70], "f": 0.5, "b": True, "z": None, "d": {"k": [False]}}
    return fast if fast(sample) == encode(sample) else encode


_encode = _event_encoder()


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
            self.stream.write(_encode(event) + "\n")
        for listener in self.listeners:
            listener(event)


def attach_log(state: Any, log: EventLog) -> EventLog:
    """Log a state from now on; writes the header first. To log a game from its very
    first event (the deal), pass the log to ``Game.new_initial_state(log=...)`` instead."""
    state.attach_sink(log)
    return log
