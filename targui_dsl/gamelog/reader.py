"""Reading a log file: bounded, every line checked against the log's schema, as it is needed.

Only regular files are read (no FIFO, device or directory), at most
:data:`TOTAL_CAP` bytes and :data:`LINE_CAP` per line; every line must match
``schemas/game-log.schema.json``, the header's seed must fit 64 bits and no
text may hold a lone surrogate. A last line cut short (a crash while
writing) is named, and dropped on request (``partial``).

A :class:`LogStream` reads the header at once and every other line only when
it is asked for: a replayer that stops at the first event the engine
disagrees with never parses the rest, so a file of 30 MB of one repeated
decision is refused as fast as a short one.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable, Iterator, Sequence

from targui_dsl.frontend.paths import dotted
from targui_dsl.frontend.safefile import NotAFile, read_bounded
from targui_dsl.gamelog.header import LOG_FORMAT, LOG_FORMATS

__all__ = ["LINE_CAP", "TOTAL_CAP", "SEED_MIN", "SEED_MAX", "LogError", "LogFile", "LogStream",
           "stream_log_file", "read_log_file", "read_game_log"]

LINE_CAP = 1 << 20  # one event: a few hundred bytes; a header with many files, a few kilobytes
TOTAL_CAP = 64 << 20  # a whole game is some 150 kB
SEED_MIN, SEED_MAX = -(2**63), 2**64 - 1  # the engine's generator takes 64 bits of the seed


class LogError(ValueError):
    """The file is not a readable targui game log; ``line`` is 1-based (None: the whole file)."""

    def __init__(self, message: str, line: int | None = None):
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message)


@dataclass
class LogFile:
    """A log read from a file: its events, and whether its last line was cut short."""

    events: list[dict[str, Any]]
    torn: int | None = None  # the number of a last line cut short and left out (``partial``)


@lru_cache(maxsize=None)
def _log_validators() -> dict[str, Any]:
    """One JSON Schema validator per event type, from schemas/game-log.schema.json."""
    import jsonschema

    from targui_dsl.frontend.resources import schemas_dir

    schema = json.loads((schemas_dir() / "game-log.schema.json").read_text(encoding="utf-8"))
    base = {k: v for k, v in schema.items() if k not in ("oneOf", "required", "type")}
    return {
        name: jsonschema.Draft202012Validator({**base, "$ref": f"#/$defs/{name}"})
        for name in schema["$defs"]
        if isinstance(schema["$defs"][name], dict) and schema["$defs"][name].get("properties", {}).get("type")
    }


class LogStream:
    """A log's events, read and checked one line at a time, when asked for.

    ``header`` is read at once (:class:`LogError` when the first line is not a
    ``targui-log/2`` or ``/1`` header). Iterating gives every event from the header on,
    reading on as far as the iteration goes (:class:`LogError` at the first bad
    line); ``events`` holds those read so far, ``done`` says whether that is all
    of them, and ``torn`` names a last line cut short and left out (``partial``);
    ``whole_bytes`` is then the length of the file without it (where to go on writing).
    """

    def __init__(self, lines: Sequence[str | bytes], unterminated: bool = False, partial: bool = False):
        self._lines = lines
        self._unterminated, self._partial = unterminated, partial
        self._next_line = 0  # index into ``lines`` of the next line to read
        self.events: list[dict[str, Any]] = []
        self.torn: int | None = None
        self.whole_bytes: int | None = None  # set by stream_log_file
        self._torn_bytes = 0  # the length of a last line without its newline
        self.done = False
        first = self._read_one()
        if first is None:
            raise LogError("the file is empty: no targui game log header")
        self.header = first

    def __iter__(self) -> Iterator[dict[str, Any]]:
        index = 0
        while True:
            if index < len(self.events):
                yield self.events[index]
                index += 1
            elif self._read_one() is None:
                return

    def read_all(self) -> list[dict[str, Any]]:
        """Every event of the log (reading the rest of it)."""
        for _ in self:
            pass
        return self.events

    def _read_one(self) -> dict[str, Any] | None:
        """Read the next event into ``events``; None at the end."""
        lines = self._lines
        while not self.done and self._next_line < len(lines):
            number = self._next_line + 1
            self._next_line = number
            event = self._check(number, lines[number - 1], last=number == len(lines))
            if event is not None:
                self.events.append(event)
                return event
        self.done = True
        return None

    def _check(self, number: int, line: str | bytes, last: bool) -> dict[str, Any] | None:
        torn_allowed = self._unterminated and last
        if isinstance(line, bytes):
            if len(line) > LINE_CAP:
                raise LogError(f"longer than {LINE_CAP >> 20} MiB, more than any log event", number)
            try:
                line = line.decode("utf-8")
            except UnicodeDecodeError as err:
                if not (torn_allowed and self._partial):
                    raise LogError(f"not UTF-8 text (byte 0x{line[err.start]:02x} at column {err.start + 1})",
                                   number) from None
                line = "\ufffd"  # a character cut in two: the line is torn (below)
        if not line.strip():
            return None
        try:
            event = json.loads(line)
        except (ValueError, RecursionError) as err:  # ValueError: JSONDecodeError, or an integer of 5,000 digits
            if torn_allowed:
                if self._partial:
                    self.torn, self.done = number, True
                    if self.whole_bytes is not None:
                        self.whole_bytes -= self._torn_bytes
                    return None
                raise LogError("not JSON: the log is cut short here (a crash or a full disk while it was written?); "
                               "--partial replays it up to the last complete event", number) from None
            message = getattr(err, "msg", None) or ("nested too deeply" if isinstance(err, RecursionError)
                                                     else str(err).split(":")[0])
            raise LogError(f"not JSON ({message}); is the file a targui game log, or cut short?", number) from None
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            raise LogError("not a log event (a JSON object with a \"type\")", number)
        if _SURROGATE_ESCAPE.search(line):
            where = _not_text(event, ())
            if where is not None:
                raise LogError(f"{dotted(where) or 'a key'} is not text: it holds a lone surrogate (\\u...)", number)
        if not self.events:
            if event["type"] != "header" or event.get("format") not in LOG_FORMATS:
                raise LogError(f"not a targui game log: the first line must be a {LOG_FORMAT!r} header", number)
        elif event["type"] == "header":
            raise LogError("a second header line", number)
        seed = event.get("seed")
        if event["type"] == "header" and type(seed) is int and not SEED_MIN <= seed <= SEED_MAX:
            raise LogError(f"the seed is out of range: a seed is a whole number from {SEED_MIN} to {SEED_MAX}",
                           number)
        validator = _log_validators().get(event["type"])
        if validator is None:
            raise LogError(f"unknown event type {event['type']!r}", number)
        problem = next(iter(sorted(validator.iter_errors(event), key=lambda e: list(e.absolute_path))), None)
        if problem is not None:
            at = dotted(problem.absolute_path)
            message = problem.message if len(problem.message) <= 200 else problem.message[:200] + "..."
            raise LogError(f"bad {event['type']} event: {at + ': ' if at else ''}{message}", number)
        return event


def stream_log_file(path: str | os.PathLike, partial: bool = False) -> LogStream:
    """The log at ``path``, its header read and checked, the rest read as it is asked for.

    Only a regular file is read (:class:`LogError` for a FIFO, device or
    directory; OSError when it cannot be opened), at most :data:`TOTAL_CAP`
    bytes, no line longer than :data:`LINE_CAP`. A last line without its
    newline that is not a whole event was cut short while being written:
    with ``partial`` it is left out (``torn`` names it), else it is an error
    that says so.
    """
    try:
        raw = read_bounded(os.fspath(path), TOTAL_CAP)
    except NotAFile as err:
        raise LogError(f"{err.strerror}") from None
    if len(raw) > TOTAL_CAP:
        raise LogError(f"the file is larger than {TOTAL_CAP >> 20} MiB, more than any game log")
    chunks = raw.split(b"\n")  # cheap; decoding and checking each line is what costs, and waits
    unterminated = chunks[-1] != b""
    if not unterminated:
        chunks.pop()
    stream = LogStream(chunks, unterminated=unterminated, partial=partial)
    stream._torn_bytes = len(chunks[-1]) if unterminated else 0
    stream.whole_bytes = len(raw)  # less a torn last line, once it is read
    return stream


def read_log_file(path: str | os.PathLike, partial: bool = False) -> LogFile:
    """Read and check the whole log at ``path`` (see :func:`stream_log_file`)."""
    stream = stream_log_file(path, partial)
    return LogFile(stream.read_all(), stream.torn)


def read_game_log(lines: Iterable[str]) -> list[dict[str, Any]]:
    """Parse and check a game log given as lines; raises :class:`LogError` naming the first bad line.

    Every line must be a JSON object matching its event type in
    ``schemas/game-log.schema.json``; the first must be a ``targui-log/2`` (or ``/1``)
    header, whose seed fits 64 bits. No text may hold a lone surrogate.
    Blank lines are skipped (and still counted).
    """
    return LogStream(list(lines)).read_all()


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _not_text(value: Any, path: tuple[Any, ...]) -> tuple[Any, ...] | None:
    """Where a string holds a lone surrogate (not text, cannot be printed), or None."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return path
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            found = _not_text(key, path) or _not_text(item, path + (key,))
            if found is not None:
                return found
    if isinstance(value, list):
        for i, item in enumerate(value):
            found = _not_text(item, path + (i,))
            if found is not None:
                return found
    return None
