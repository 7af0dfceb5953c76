"""The event log: one JSON object per line, enough to replay and verify a game.

An :class:`EventLog` is an :class:`~targui_dsl.engine.protocol.EventSink`:
given to a game (``game.new_initial_state(log=EventLog(...))``, or
:func:`attach_log` for a state already under way) it hears every event the
game reports. Its first line is the header (:func:`targui_dsl.gamelog.header.header_line`:
format version, ruleset, players, tribes, seed, sealed); the last an ``end``
line. The format is documented in ``docs/engine.md`` and
``schemas/game-log.schema.json``.

A game tells its events as tuples (:mod:`targui_dsl.engine.told`): a log
keeps them as told (a sink's events are never changed once told), makes a
dict of one only when someone reads it, and writes their lines at the ``end``
event and at :meth:`EventLog.flush`, a batch of :data:`BATCH_EVENTS` at a time
by one ``%`` format of their kinds' templates
(:func:`targui_dsl.engine.told.lines_of`), the bytes ``json.dumps`` writes.
Events told as dicts (``emit``: the header, a subclass's events) are written by
:func:`encode_lines`: by orjson where it is installed (the ``fast-logs``
extra), the same bytes; a batch it might write otherwise by ``json``.
"""

from __future__ import annotations

from typing import IO, Any, Callable

from targui_dsl.engine.told import encode_json, lines_of, made, refuse_json
from targui_dsl.gamelog.header import header_line

__all__ = ["BATCH_EVENTS", "EventLog", "attach_log", "encode_lines"]

#: Events gathered before they are written (a game of Targui tells some 400-1,500).
BATCH_EVENTS = 256

# orjson writes what ``json.dumps`` writes for a string, an integer of 64 bits, true, false,
# null, a list and a dict with string keys, and for a float of 1e-4 or more (not for ``1e-07``,
# NaN, infinity: ``null``), but not for DEL. A batch whose text may hold one of these (``.``,
# ``e-``, ``null``, DEL) or any non-ASCII byte is written by ``json`` instead (_orjson_encoders).

#: ``json.dumps(event, separators=(",", ":"))``, made once (:data:`targui_dsl.engine.told.encode_json`).
_encode = encode_json


def _json_lines(events: list[dict[str, Any]]) -> str:
    return "".join([_encode(event) + "\n" for event in events])


def _orjson_encoders() -> tuple[Callable[[list[dict[str, Any]]], str | None], Callable[[Any], str]] | None:
    """By orjson (the ``fast-logs`` extra; None when it is not installed): events as lines (None
    for events it may not write as ``json`` does), and one JSON value as ``json.dumps`` writes it
    (by ``json`` when orjson may not)."""
    try:
        import orjson
    except ImportError:
        return None
    dumps = orjson.dumps
    # subclasses of str, int, list and dict, dataclasses and dates go to _refuse (and so to json)
    option = orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME
    as_lines = option | orjson.OPT_APPEND_NEWLINE

    def lines(events: list[dict[str, Any]]) -> str | None:
        try:
            data = b"".join([dumps(event, refuse_json, as_lines) for event in events])
        except TypeError:  # (orjson.JSONEncodeError is one) a big integer, a key not a string, a lone surrogate
            return None
        return _as_json_writes(data)

    def value(told: Any) -> str:
        try:
            text = _as_json_writes(dumps(told, refuse_json, option))
        except TypeError:
            text = None
        return _encode(told) if text is None else text

    return lines, value


def _as_json_writes(data: bytes) -> str | None:
    """orjson's text, or None where it may differ from json's."""
    if not data.isascii():
        return None
    # looked into as text (`bytes in bytes` raises and clears a TypeError inside), each by `in`
    text = data.decode("ascii")
    if "." in text or "\x7f" in text or "null" in text or "e-" in text:
        return None
    return text


_orjson_lines: Callable[[list[dict[str, Any]]], str | None] | None = None
_orjson_value: Callable[[Any], str] | None = None
_orjson_tried = False


def _orjson() -> Callable[[list[dict[str, Any]]], str | None] | None:
    """orjson's writer of lines, or None where it is not installed: imported on first use
    (`targui --help` does not pay for it); its writer of a value is :data:`_orjson_value` then."""
    global _orjson_lines, _orjson_value, _orjson_tried
    if not _orjson_tried:
        made = _orjson_encoders()
        _orjson_lines, _orjson_value = (None, None) if made is None else made
        _orjson_tried = True
    return _orjson_lines


def encode_lines(events: list[dict[str, Any]]) -> str:
    """Events as log lines: each ``json.dumps(event, separators=(",", ":"))`` and a newline,
    whichever library writes them. orjson, where it is installed, writes a batch whose every
    value it writes as ``json`` does (checked on its text); ``json`` writes the rest."""
    orjson_lines = _orjson()
    if orjson_lines is not None and events:
        text = orjson_lines(events)
        if text is not None:
            return text
    return _json_lines(events)


def _made(event: tuple[Any, ...]) -> tuple[Any, ...]:
    """A special kind's event (a JSON value: a card's changes, the end) as its line made now: its
    JSON values by orjson where orjson is installed and writes them as ``json`` does (a card's line
    costs half what orjson's of its dict did, checked for what orjson may write otherwise), else by
    the kind's own line (json's C encoder)."""
    if _orjson() is not None and _orjson_value is not None:
        return made(event, event[0].line_with(event, _orjson_value))
    return made(event)


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


def _lines(entries: list[tuple[Any, ...]], by_json: bool = False) -> str:
    """Told events as log lines: a tuple by its kind's line, a run of dicts by :func:`encode_lines`
    (``by_json``: by ``json`` alone)."""
    out: list[str] = []
    run: list[dict[str, Any]] = []
    for entry in entries:
        if entry[0] is _AS_DICT:
            run.append(entry[1])
            continue
        if run:
            out.append(_json_lines(run) if by_json else encode_lines(run))
            run = []
        out.append(entry[0].line(entry))
    if run:
        out.append(_json_lines(run) if by_json else encode_lines(run))
    return "".join(out)


class _Listeners(list[Callable[[dict[str, Any]], None]]):
    """A log's listeners: one added hears the events told after it (the log first catches up
    with those told before: a game may append its events to the log's list)."""

    def __init__(self, log: "EventLog") -> None:
        super().__init__()
        self.log = log

    def append(self, listener: Callable[[dict[str, Any]], None]) -> None:
        self.log._catch_up()
        super().append(listener)

    def extend(self, listeners: Any) -> None:
        self.log._catch_up()
        super().extend(listeners)

    def __iadd__(self, listeners: Any) -> "_Listeners":  # type: ignore[misc, override]  # as a list's +=
        self.extend(listeners)
        return self

    def insert(self, index: Any, listener: Any) -> None:
        self.log._catch_up()
        super().insert(index, listener)


class EventLog:
    """Collects events in memory (``events``) and/or writes them as JSON lines to ``stream``;
    each event is also given to every function in ``listeners``. ``header_fields`` are added
    to the header (and sealed with it): ``targui play`` records who sat where. A log reads
    every event (``wants``).

    A game tells it an event as a tuple (``told_tuple``, :mod:`targui_dsl.engine.told`), or as a
    dict (``emit``). A log without listeners gives the game a list to append its events to
    (``told_list``; the game's last event, ``end``, it tells by ``told_tuple``): the log reads
    the list when told an event, at :meth:`flush`, when ``events`` is read and when a listener
    is added. A tuple becomes a dict only when someone reads it: ``events`` makes the dicts of
    the events told since it was last read, a listener is given one; the log's line is written
    from the tuple by its kind. A subclass with its own ``emit`` is given every event as a dict.

    Lines reach ``stream`` at the ``end`` event and at :meth:`flush` (a log told every event by
    ``told_tuple`` or ``emit``: also every :data:`BATCH_EVENTS` events): whoever stops a game
    before its end (a person leaving, an error) flushes the log to have every event told so far
    in the stream."""

    wants: frozenset[str] | None = None

    def __init__(self, stream: IO[str] | None = None, keep: bool = True,
                 header_fields: dict[str, Any] | None = None):
        self.stream = stream
        self._kept: list[tuple[Any, ...]] | None = [] if keep else None  # every event told, as told
        self._made: list[dict[str, Any]] = []  # the dicts of the first events kept
        self._listeners = _Listeners(self)
        self.header_fields = dict(header_fields or {})
        self._told: list[tuple[Any, ...]] = []  # appended to by the game (told_list), not yet read
        self._pending: list[tuple[Any, ...]] = []  # read, not yet written to the stream
        self._dicts = False  # whether _pending holds an event told as a dict
        self._by_emit = type(self).emit is not EventLog.emit  # a subclass hears each event as a dict, by its emit

    @property
    def listeners(self) -> list[Callable[[dict[str, Any]], None]]:
        """Functions given every event (a dict) told after they were added."""
        return self._listeners

    @listeners.setter
    def listeners(self, listeners: list[Callable[[dict[str, Any]], None]]) -> None:
        self._catch_up()
        self._listeners = _Listeners(self)
        list.extend(self._listeners, listeners)

    @property
    def events(self) -> list[dict[str, Any]] | None:
        """Every event told so far, as dicts (None: a log that keeps none). Events are never
        changed once told: the list grows, read after read."""
        self._catch_up()
        kept = self._kept
        if kept is None:
            return None
        made = self._made
        if len(made) < len(kept):
            made.extend([entry[0].event(entry) for entry in kept[len(made):]])
        return made

    def begin(self, game: Any) -> None:
        """The game starts being told here: the header first."""
        header, line = header_line(game, self.header_fields)
        if self._by_emit:  # a subclass hears it by its emit
            self.emit(header)
            self._write_pending(by_json=True)  # at once, by json: its paths (a dot) orjson is never sure of
            return
        self._hear(header, line)  # at once, its line already made

    def told_list(self) -> list[tuple[Any, ...]] | None:
        """The list a game may append its events to (tuples), all but its last, which it tells by
        :meth:`told_tuple`; None when each event must be told (a listener hears it at once, a
        subclass's ``emit`` reads it)."""
        return None if self._listeners or self._by_emit else self._told

    def _catch_up(self) -> None:
        """Read the events the game appended to the list: kept, and pending for the stream."""
        told = self._told
        if not told:
            return
        batch = told[:]
        told.clear()
        if self._kept is not None:
            self._kept.extend(batch)
        if self.stream is not None:
            self._pending += [event if event[0].template is not None else _made(event) for event in batch]
        for event in batch:
            if self._listeners:  # added after the game took the list
                heard = event[0].event(event)
                for listener in self._listeners:
                    listener(heard)

    def told_tuple(self, event: tuple[Any, ...]) -> None:
        """One event as a tuple, its kind first (:class:`targui_dsl.engine.told.EventKind`)."""
        if self._told:
            self._catch_up()
        if self._listeners or self._by_emit:  # its dict is made now, and kept as it was heard
            self.emit(event[0].event(event))
            return
        if self._kept is not None:
            self._kept.append(event)
        if self.stream is not None:
            pending = self._pending
            if event[0].special:  # its line made now; the end written at once
                pending.append(_made(event))
                if event[0].ends:
                    self._write_pending()
                    return
            else:
                pending.append(event)
            if len(pending) >= BATCH_EVENTS:
                self._write_pending()

    def emit(self, event: dict[str, Any]) -> None:
        """One event as a dict (its ``type`` first)."""
        self._hear(event)

    def _hear(self, event: dict[str, Any], line: str | None = None) -> None:
        """One event as a dict; ``line``: its log line, made already, written at once."""
        if self._told:
            self._catch_up()
        entry = (_AS_DICT, event)
        if self._kept is not None:
            self._kept.append(entry)
        if self.stream is not None and line is not None:
            self._write_pending()
            self.stream.write(line)
        elif self.stream is not None:
            pending = self._pending
            pending.append(entry)
            self._dicts = True
            if len(pending) >= BATCH_EVENTS or event["type"] == "end":
                self._write_pending()
        for listener in self._listeners:
            listener(event)

    def _write_pending(self, by_json: bool = False) -> None:
        pending, self._pending = self._pending, []  # taken first: a failed write is not tried twice
        dicts, self._dicts = self._dicts, False
        if pending and self.stream is not None:
            if dicts:
                self.stream.write(_lines(pending, by_json))
                return
            # encoded a batch at a time (still in the processor's cache), written at once
            self.stream.write("".join([lines_of(pending[start:start + BATCH_EVENTS])
                                       for start in range(0, len(pending), BATCH_EVENTS)]))

    def flush(self) -> None:
        """Write every event told so far to the stream, and flush the stream."""
        self._catch_up()
        self._write_pending()
        if self.stream is not None:
            self.stream.flush()


def attach_log(state: Any, log: EventLog) -> EventLog:
    """Log a state from now on; writes the header first. To log a game from its very
    first event (the deal), pass the log to ``Game.new_initial_state(log=...)`` instead."""
    state.attach_sink(log)
    return log
