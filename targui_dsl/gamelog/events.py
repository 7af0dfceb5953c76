"""The event log: one JSON object per line, enough to replay and verify a game.

An :class:`EventLog` is an :class:`~targui_dsl.engine.protocol.EventSink`:
given to a game (``game.new_initial_state(log=EventLog(...))``, or
:func:`attach_log` for a state already under way) it hears every event the
game reports. Its first line is the header (:func:`targui_dsl.gamelog.header.build_header`:
format version, ruleset, players, tribes, seed, sealed); the last an ``end``
line. The format is documented in ``docs/engine.md`` and
``schemas/game-log.schema.json``.

Events are written in batches: a log keeps the events told since its last
write (a sink's events are never changed once told) and writes them as lines
every :data:`BATCH_EVENTS` events, at the ``end`` event and at
:meth:`EventLog.flush` (:func:`encode_lines`). Where orjson is installed (the
``fast-logs`` extra) it writes them, some six times faster than ``json``, the
same bytes: a batch it might write otherwise is written by ``json``.
"""

from __future__ import annotations

from typing import IO, Any, Callable

from targui_dsl.engine.told import encode_json, lines_of, made, refuse_json
from targui_dsl.gamelog.header import build_header

__all__ = ["BATCH_EVENTS", "EventLog", "attach_log", "encode_lines"]

#: Events gathered before they are written (a game of Targui tells some 400-1,500).
BATCH_EVENTS = 256

#: orjson writes what ``json.dumps`` writes for a string, an integer of 64 bits, true, false,
#: null, a list and a dict with string keys, and for a float of 1e-4 or more (not for ``1e-07``,
#: NaN, infinity: ``null``), but not for DEL. A batch whose text may hold one of these (``.``,
#: ``e-``, ``null``, DEL) or any non-ASCII byte is written by ``json`` instead.
_UNSURE = (b".", b"\x7f", b"null")


#: ``json.dumps(event, separators=(",", ":"))``, made once (:data:`targui_dsl.engine.told.encode_json`).
_encode = encode_json


def _json_lines(events: list[dict[str, Any]]) -> str:
    return "".join([_encode(event) + "\n" for event in events])


def _orjson_encoder() -> Callable[[list[dict[str, Any]]], str | None] | None:
    """Events as lines by orjson (the ``fast-logs`` extra), or None when it is not installed.
    The function gives None for events it may not write as ``json`` does."""
    try:
        import orjson
    except ImportError:
        return None
    dumps = orjson.dumps
    # subclasses of str, int, list and dict, dataclasses and dates go to _refuse (and so to json)
    option = (orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME
              | orjson.OPT_APPEND_NEWLINE)

    def lines(events: list[dict[str, Any]]) -> str | None:
        try:
            data = b"".join([dumps(event, refuse_json, option) for event in events])
        except TypeError:  # (orjson.JSONEncodeError is one) a big integer, a key not a string, a lone surrogate
            return None
        if not data.isascii() or any(unsure in data for unsure in _UNSURE) or (b"-" in data and b"e-" in data):
            return None
        return data.decode("ascii")

    return lines


_orjson_lines: Callable[[list[dict[str, Any]]], str | None] | None = None
_orjson_tried = False


def encode_lines(events: list[dict[str, Any]]) -> str:
    """Events as log lines: each ``json.dumps(event, separators=(",", ":"))`` and a newline,
    whichever library writes them. orjson, where it is installed, writes a batch whose every
    value it writes as ``json`` does (checked on its text); ``json`` writes the rest."""
    global _orjson_lines, _orjson_tried
    if not _orjson_tried:  # imported on first use: `targui --help` does not pay for it
        _orjson_lines, _orjson_tried = _orjson_encoder(), True
    if _orjson_lines is not None and events:
        text = _orjson_lines(events)
        if text is not None:
            return text
    return _json_lines(events)


class _AsDict:
    """The kind of an event told as a dict (``emit``): kept and written as ``(AS_DICT, event)``."""

    ends = False  # a dict that ends the game is written by ``emit`` at once

    @staticmethod
    def event(told: tuple[Any, ...]) -> dict[str, Any]:
        return told[1]

    @staticmethod
    def line(told: tuple[Any, ...]) -> str:
        return _encode(told[1]) + "\n"


_AS_DICT = _AsDict()


def _lines(entries: list[tuple[Any, ...]]) -> str:
    """Told events as log lines: a tuple by its kind's line, a run of dicts by :func:`encode_lines`."""
    out: list[str] = []
    run: list[dict[str, Any]] = []
    for entry in entries:
        if entry[0] is _AS_DICT:
            run.append(entry[1])
            continue
        if run:
            out.append(encode_lines(run))
            run = []
        out.append(entry[0].line(entry))
    if run:
        out.append(encode_lines(run))
    return "".join(out)


class EventLog:
    """Collects events in memory (``events``) and/or writes them as JSON lines to ``stream``;
    each event is also given to every function in ``listeners``. ``header_fields`` are added
    to the header (and sealed with it): ``targui play`` records who sat where. A log reads
    every event (``wants``).

    A game tells it an event as a tuple (``told_tuple``, :mod:`targui_dsl.engine.told`), or as a dict
    (``emit``). A tuple becomes a dict only when someone reads it: ``events`` makes the dicts of
    the events told since it was last read, a listener is given one at once; the log's line is
    written from the tuple by its kind. A subclass with its own ``emit`` is given every event as
    a dict.

    Lines reach ``stream`` in batches (:data:`BATCH_EVENTS`), at the ``end`` event and at
    :meth:`flush`: whoever stops a game before its end (a person leaving, an error) flushes
    the log to have every event told so far in the stream."""

    wants: frozenset[str] | None = None

    def __init__(self, stream: IO[str] | None = None, keep: bool = True,
                 header_fields: dict[str, Any] | None = None):
        self.stream = stream
        self._kept: list[tuple[Any, ...]] | None = [] if keep else None  # every event told, as told
        self._made: list[dict[str, Any]] = []  # the dicts of the first events kept
        self.listeners: list[Callable[[dict[str, Any]], None]] = []
        self.header_fields = dict(header_fields or {})
        self._pending: list[tuple[Any, ...]] = []  # told, not yet written to the stream
        self._dicts = False  # whether _pending holds an event told as a dict
        if type(self).emit is not EventLog.emit:  # a subclass hears each event as a dict, by its emit
            self.told_tuple = self._told_by_emit  # type: ignore[method-assign]

    @property
    def events(self) -> list[dict[str, Any]] | None:
        """Every event told so far, as dicts (None: a log that keeps none). Events are never
        changed once told: the list grows, read after read."""
        kept = self._kept
        if kept is None:
            return None
        made = self._made
        if len(made) < len(kept):
            made.extend([entry[0].event(entry) for entry in kept[len(made):]])
        return made

    def begin(self, game: Any) -> None:
        """The game starts being told here: the header first."""
        self.emit(build_header(game, self.header_fields))
        self._write_pending()  # the header at once (its paths and title are no batch for orjson)

    def told_tuple(self, event: tuple[Any, ...]) -> None:
        """One event as a tuple, its kind first (:class:`targui_dsl.engine.told.EventKind`)."""
        if self.listeners:  # its dict is made now, and kept as it was heard
            EventLog.emit(self, event[0].event(event))
            return
        if self._kept is not None:
            self._kept.append(event)
        if self.stream is not None:
            pending = self._pending
            if event[0].special:  # its line made now; the end written at once
                pending.append(made(event))
                if event[0].ends:
                    self._write_pending()
                    return
            else:
                pending.append(event)
            if len(pending) >= BATCH_EVENTS:
                self._write_pending()

    def _told_by_emit(self, event: tuple[Any, ...]) -> None:
        self.emit(event[0].event(event))

    def emit(self, event: dict[str, Any]) -> None:
        """One event as a dict (its ``type`` first)."""
        entry = (_AS_DICT, event)
        if self._kept is not None:
            self._kept.append(entry)
        if self.stream is not None:
            pending = self._pending
            pending.append(entry)
            self._dicts = True
            if len(pending) >= BATCH_EVENTS or event["type"] == "end":
                self._write_pending()
        for listener in self.listeners:
            listener(event)

    def _write_pending(self) -> None:
        pending, self._pending = self._pending, []  # taken first: a failed write is not tried twice
        dicts, self._dicts = self._dicts, False
        if pending and self.stream is not None:
            self.stream.write(_lines(pending) if dicts else lines_of(pending))

    def flush(self) -> None:
        """Write every event told so far to the stream, and flush the stream."""
        self._write_pending()
        if self.stream is not None:
            self.stream.flush()


def attach_log(state: Any, log: EventLog) -> EventLog:
    """Log a state from now on; writes the header first. To log a game from its very
    first event (the deal), pass the log to ``Game.new_initial_state(log=...)`` instead."""
    state.attach_sink(log)
    return log
