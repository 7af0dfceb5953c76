"""Game log files: written under a lock, read with bounds, replayed and verified once.

A log (``targui-log/1``: JSON lines, see ``docs/engine.md``) travels: people
post their games. This module is everything targui does with a log file.

Writing (:func:`open_log_for_writing`): the path is locked (``flock``,
exclusive, non-blocking) before it is emptied, so a second ``targui play
--log`` on the same path is refused with one line instead of both games
writing into one file. Events are written as whole lines straight to the
file; a write that fails midway (a full disk) is undone back to the last
complete line, so the file always ends at the last complete event.

The header ties the log to what was played: ``sha256`` holds the content
hash of every ruleset source file (in ``files`` order) and ``seal`` a hash of
the header itself (:func:`seal`). A replay opens a file the header names only
when its hash matches (:func:`find_ruleset`), and checks the ruleset it
loaded against the header (:func:`header_problems`) without ever quoting a
file that does not match.

Reading (:func:`read_log_file`): only regular files (no FIFO, device or
directory), at most :data:`TOTAL_CAP` bytes and :data:`LINE_CAP` per line;
every line must match ``schemas/game-log.schema.json``, the header's seed
must fit 64 bits and no text may hold a lone surrogate. A last line cut
short (a crash while writing) is named, and dropped on request
(``partial``).

Replaying (:func:`verify_log`, :func:`replay_log`; ``targui_dsl.engine.replay``
is a thin name for the same): the one implementation, used by ``targui
replay`` and by the engine's API. Verification is honest about what it
checked: a seeded log (``explicit_chance: false``) is re-run from its seed,
fed only the decisions, so every die, card, deal and turn must come out
the same (``chance_checked``); a log with explicit chance only shows that the
decisions were legal given the logged chance outcomes.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import stat
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable

from targui_dsl.frontend.paths import dotted
from targui_dsl.frontend.safefile import NotAFile, read_bounded
from targui_dsl.games.targui.compiled import CompiledRuleset

__all__ = [
    "LINE_CAP", "TOTAL_CAP", "SEED_MIN", "SEED_MAX",
    "LogLocked", "LogWriter", "open_log_for_writing", "open_log_for_appending",
    "file_sha256", "source_hashes", "seal", "seal_header", "seal_state", "find_ruleset", "header_problems",
    "LogError", "LogFile", "read_log_file", "read_game_log",
    "LogDifference", "LogRun", "verify_log", "replay_log",
]

LINE_CAP = 1 << 20  # one event: a few hundred bytes; a header with many files, a few kilobytes
TOTAL_CAP = 64 << 20  # a whole game is some 150 kB
SEED_MIN, SEED_MAX = -(2**63), 2**64 - 1  # the engine's generator takes 64 bits of the seed
RULESET_CAP = 1024 * 1024  # as yamlload.MAX_BYTES: no ruleset file is larger

# --- writing -----------------------------------------------------------------------------


class LogLocked(OSError):
    """Another process is writing this log file."""


class LogWriter:
    """A log file open for writing, locked against other targui processes.

    ``write`` takes text; every complete line is written to the file at once
    (no buffer to lose in a crash). When a write fails midway, the file is
    cut back to the end of the last complete line and the error raised: a
    full disk leaves a log that ends at its last complete event.
    """

    def __init__(self, fd: int, path: str, regular: bool, write: Callable[[int, bytes], int] = os.write):
        self.fd, self.path, self.regular = fd, path, regular
        self._write = write
        self._pending = ""
        self._good = 0  # bytes of complete lines in the file
        self.closed = False

    def write(self, text: str) -> int:
        self._pending += text
        end = self._pending.rfind("\n") + 1
        if end:
            data, self._pending = self._pending[:end].encode("utf-8", errors="surrogatepass"), self._pending[end:]
            self._write_all(data)
        return len(text)

    def _write_all(self, data: bytes) -> None:
        view = memoryview(data)
        try:
            while view:
                written = self._write(self.fd, view)
                if written <= 0:
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
                view = view[written:]
        except BaseException:  # a full disk, or a Ctrl-C between two partial writes
            if self.regular:
                try:  # take back the part of a line that did get written
                    os.ftruncate(self.fd, self._good)
                    os.lseek(self.fd, self._good, os.SEEK_SET)
                except OSError:
                    pass
            raise
        self._good += len(data)

    def flush(self) -> None:
        """Nothing is buffered but an unfinished line, which waits for its end."""

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        try:
            if self.regular:
                os.fsync(self.fd)
        except OSError:
            pass
        finally:
            os.close(self.fd)  # closing releases the lock

    def __enter__(self) -> "LogWriter":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def open_log_for_writing(path: str, write: Callable[[int, bytes], int] = os.write) -> LogWriter:
    """Open ``path`` to write a new log, locked; raises :class:`LogLocked` when another
    targui holds it, OSError when it cannot be opened.

    The lock (``flock``, exclusive, non-blocking) is taken *before* the file is
    emptied, so a refused second writer leaves the first one's log whole. A
    device or pipe (``/dev/null``) is written as it is, without a lock.
    """
    flags = os.O_WRONLY | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        mode = stat.S_IFREG
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
    regular = stat.S_ISREG(mode)
    # O_NONBLOCK: should the path turn into a FIFO after the stat, opening it fails instead of waiting
    fd = os.open(path, flags | os.O_NONBLOCK if regular else os.O_WRONLY | getattr(os, "O_CLOEXEC", 0), 0o666)
    try:
        os.set_blocking(fd, True)
        regular = stat.S_ISREG(os.fstat(fd).st_mode)
        if regular:
            import fcntl

            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise LogLocked(errno.EBUSY, "another targui is writing this log now; "
                                "wait for it to finish or choose another file", path) from None
            os.ftruncate(fd, 0)
    except BaseException:
        os.close(fd)
        raise
    return LogWriter(fd, path, regular, write)


def open_log_for_appending(path: str, write: Callable[[int, bytes], int] = os.write) -> LogWriter:
    """Open the log at ``path`` to add events after its last line, locked as
    :func:`open_log_for_writing` (:class:`LogLocked` when another targui holds it);
    for ``targui play --resume``. The file must be a regular file whose last line is
    complete (a newline at its end): a failed write is cut back to that length."""
    fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        os.set_blocking(fd, True)
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", path)
        import fcntl

        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise LogLocked(errno.EBUSY, "another targui is writing this log now; "
                            "wait for it to finish or choose another file", path) from None
        end = os.lseek(fd, 0, os.SEEK_END)
        if end:
            with open(path, "rb") as check:
                check.seek(end - 1)
                if check.read(1) != b"\n":
                    raise OSError(errno.EINVAL, "its last line is cut short", path)
    except BaseException:
        os.close(fd)
        raise
    writer = LogWriter(fd, path, True, write)
    writer._good = end
    return writer


# --- the header's hashes and seal --------------------------------------------------------

_HEX64 = re.compile(r"[0-9a-f]{64}\Z")


def file_sha256(path: str | os.PathLike) -> str | None:
    """The sha256 of a ruleset file's bytes; None when it cannot be read again
    (a pipe, already read; a file gone) or is larger than any ruleset."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        data = read_bounded(path, RULESET_CAP)
    except (OSError, ValueError):
        return None
    if len(data) > RULESET_CAP:
        return None
    return hashlib.sha256(data).hexdigest()


def source_hashes(files: Iterable[str]) -> list[str | None]:
    return [file_sha256(f) for f in files]


def seal(header: dict[str, Any]) -> str:
    """The header's seal: the sha256 of every other field of the header, written canonically.

    It binds the chance mode (``explicit_chance``) to the seed, the ruleset
    hashes and the players: a text edit of any of them (turning explicit
    chance on in a seeded log, say) no longer matches the seal, and
    ``replay --verify`` fails. It is a checksum, not a signature: whoever
    recomputes it can turn a seeded log into one with explicit chance, but
    such a log is never reported as verified.
    """
    body = {k: v for k, v in header.items() if k != "seal"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(b"targui-log-seal/1\n" + text.encode("ascii")).hexdigest()


def seal_header(header: dict[str, Any]) -> dict[str, Any]:
    """``header`` with its seal (written last)."""
    body = {k: v for k, v in header.items() if k != "seal"}
    return {**body, "seal": seal(body)}


def seal_state(header: dict[str, Any]) -> str:
    """``sealed``, ``unsealed`` (an older log) or ``broken`` (edited since it was written)."""
    if "seal" not in header:
        return "unsealed"
    return "sealed" if header["seal"] == seal(header) else "broken"


def find_ruleset(header: dict[str, Any], log_path: str) -> str | None:
    """Where to load a log's ruleset from: the file the header names, only if its
    sha256 matches the header's (tried as written, then from the log's folder);
    else the built-in of that id; None if neither.

    A path in a header is never opened unless the header holds its hash, and
    then only read to compute the hash: a stranger's log cannot make targui
    read, let alone print, any other file.
    """
    from targui_dsl.frontend.resolve import is_builtin_name
    from targui_dsl.frontend.resources import builtin_ruleset_path

    files = header.get("files") or []
    hashes = header.get("sha256") or []
    if files and hashes and isinstance(hashes[0], str):
        first = Path(files[0])
        for candidate in (first, Path(log_path).resolve().parent / first):
            try:
                if file_sha256(candidate) == hashes[0]:
                    return str(candidate)
            except (OSError, ValueError):  # a name too long for the file system, a NUL byte
                continue
    ruleset = header["ruleset"]
    if is_builtin_name(ruleset):
        try:
            if builtin_ruleset_path(ruleset) is not None:
                return ruleset
        except (OSError, ValueError):
            pass
    return None


def header_problems(ruleset: CompiledRuleset, header: dict[str, Any]) -> list[str]:
    """How the ruleset loaded differs from the one the header says the game was played
    with: its title, and the content of each source file (by hash, never quoting it).
    The id and the players are checked where the game is set up."""
    problems = []
    title = header.get("title")
    if title is not None and title != ruleset.title:
        problems.append(f"the log's title `{title}` is not the ruleset's title `{ruleset.title}`")
    logged = header.get("sha256")
    if logged is not None:
        files = list(ruleset.files)
        now = source_hashes(files)
        if len(logged) != len(files):
            problems.append(f"the game was played with {len(logged)} ruleset file(s), the ruleset loaded has "
                            f"{len(files)}")
        else:
            for path, was, is_ in zip(files, logged, now):
                if was is not None and is_ is not None and was != is_:  # None: a pipe, not read twice
                    problems.append(f"{path} is not the file the game was played with (its sha256 differs)")
    return problems


# --- reading -----------------------------------------------------------------------------


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


def read_log_file(path: str | os.PathLike, partial: bool = False) -> LogFile:
    """Read and check the log at ``path`` (see :func:`read_game_log`).

    Only a regular file is read (:class:`LogError` for a FIFO, device or
    directory; OSError when it cannot be opened), at most :data:`TOTAL_CAP`
    bytes, no line longer than :data:`LINE_CAP`. A last line without its
    newline that is not a whole event was cut short while being written:
    with ``partial`` it is left out (``torn`` names it), else it is an error
    that says so.
    """
    try:
        raw = read_bounded(path, TOTAL_CAP)
    except NotAFile as err:
        raise LogError(f"{err.strerror}") from None
    if len(raw) > TOTAL_CAP:
        raise LogError(f"the file is larger than {TOTAL_CAP >> 20} MiB, more than any game log")
    chunks = raw.split(b"\n")
    unterminated = chunks[-1] != b""
    if not unterminated:
        chunks.pop()
    lines = []
    for number, chunk in enumerate(chunks, start=1):
        if len(chunk) > LINE_CAP:
            raise LogError(f"longer than {LINE_CAP >> 20} MiB, more than any log event", number)
        try:
            lines.append(chunk.decode("utf-8"))
        except UnicodeDecodeError as err:
            if unterminated and number == len(chunks) and partial:
                lines.append("\ufffd")  # a character cut in two: the line is torn (below)
                continue
            raise LogError(f"not UTF-8 text (byte 0x{chunk[err.start]:02x} at column {err.start + 1})", number) \
                from None
    return _read(lines, unterminated=unterminated, partial=partial)


def read_game_log(lines: Iterable[str]) -> list[dict[str, Any]]:
    """Parse and check a game log given as lines; raises :class:`LogError` naming the first bad line.

    Every line must be a JSON object matching its event type in
    ``schemas/game-log.schema.json``; the first must be a ``targui-log/1``
    header, whose seed fits 64 bits. No text may hold a lone surrogate.
    Blank lines are skipped (and still counted).
    """
    return _read(list(lines), unterminated=False, partial=False).events


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _read(lines: list[str], unterminated: bool, partial: bool) -> LogFile:
    from targui_dsl.gamelog.events import LOG_FORMAT

    validators = _log_validators()
    events: list[dict[str, Any]] = []
    torn = None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        last = number == len(lines)
        try:
            event = json.loads(line)
        except (ValueError, RecursionError) as err:  # ValueError: JSONDecodeError, or an integer of 5,000 digits
            if unterminated and last:
                if partial:
                    torn = number
                    break
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
        if not events:
            if event["type"] != "header" or event.get("format") != LOG_FORMAT:
                raise LogError(f"not a targui game log: the first line must be a {LOG_FORMAT!r} header", number)
        elif event["type"] == "header":
            raise LogError("a second header line", number)
        seed = event.get("seed")
        if event["type"] == "header" and type(seed) is int and not SEED_MIN <= seed <= SEED_MAX:
            raise LogError(f"the seed is out of range: a seed is a whole number from {SEED_MIN} to {SEED_MAX}",
                           number)
        validator = validators.get(event["type"])
        if validator is None:
            raise LogError(f"unknown event type {event['type']!r}", number)
        problem = next(iter(sorted(validator.iter_errors(event), key=lambda e: list(e.absolute_path))), None)
        if problem is not None:
            where = dotted(problem.absolute_path)
            message = problem.message if len(problem.message) <= 200 else problem.message[:200] + "..."
            raise LogError(f"bad {event['type']} event: {where + ': ' if where else ''}{message}", number)
        events.append(event)
    if not events:
        raise LogError("the file is empty: no targui game log header")
    return LogFile(events, torn)


def _not_text(value: Any, path: tuple) -> tuple | None:
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


# --- replaying: the one implementation -------------------------------------------------


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

    state: Any  # the GameState at the end, or after the event asked for
    events: int  # events compared or fed (the header not counted)
    difference: LogDifference | None = None
    complete: bool = True  # the log runs to the end of the game
    chance_checked: bool = False  # every chance outcome was thrown by the engine from the seed, and matched
    seal: str = "unsealed"  # the header's seal_state

    @property
    def ok(self) -> bool:
        return self.difference is None


def verify_log(ruleset: CompiledRuleset, events: list[dict[str, Any]], unfinished: bool = False) -> LogRun:
    """Re-run a logged game from its header and decisions; stop at the first differing event.

    First the header: its seal must match (an edit of the chance mode, seed,
    players or ruleset hashes is caught here) and the ruleset must be the one
    the header names (:func:`header_problems`). A game logged with implicit
    chance (``explicit_chance: false``, what ``targui play`` writes) is then
    re-run from its seed: the engine throws the dice and draws the cards
    itself, so a die edited in the log is caught at that very event
    (``chance_checked``). A game logged with explicit chance gets its chance
    outcomes from the log: only its decisions are checked. A decision the
    engine reports by itself (a forced one) is left to it; any other is fed,
    step by step until the engine reports it (a pass logged as forced after a
    chosen ``deposit 0``, which is not logged, is fed too). Every event the engine reports
    must equal the logged one, and the log must run to the end of the game,
    unless ``unfinished`` accepts a game stopped midway (``complete`` then
    says whether it ended).
    """
    head = events[0]
    state = seal_state(head)
    problems = header_problems(ruleset, head)
    if state == "broken":
        problems.insert(0, "the header was changed after the game was logged: its seal does not match "
                           "(an edited seed, chance mode, player setup or ruleset)")
    if problems:
        from targui_dsl.games.targui.game import Game

        try:
            game = Game(ruleset, players=head["players"], seed=head["seed"], tribes=head["tribes"])
        except ValueError as err:
            raise LogError(f"the header does not fit ruleset {ruleset.id}: {err}", 1) from None
        return LogRun(state=game.new_initial_state(), events=0, seal=state, complete=False,
                      difference=LogDifference(0, head, None, problems[0]))
    explicit = head.get("explicit_chance", False)
    run = _drive(ruleset, events, regenerate_chance=not explicit, compare=True, unfinished=unfinished)
    run.seal = state
    run.complete = run.state.is_terminal()
    if run.difference is None and not run.complete and not unfinished:
        run.difference = LogDifference(len(events), None, None,
                                       f"the log ends after event {len(events) - 1}, before the game is over "
                                       f"(the engine waits for {_waiting_for(run.state)})")
    run.chance_checked = run.ok and not explicit
    return run


def replay_log(ruleset: CompiledRuleset, events: list[dict[str, Any]], at: int | None = None,
               compare: bool = False) -> LogRun:
    """Feed a log's chance outcomes and decisions to the engine; with ``compare``, stop
    at the first event the engine reports differently.

    With ``at``, ``state`` is the game just before event ``at + 1`` was
    reported, that is after event ``at`` and everything it caused that was
    logged with it (``at = 0``: before the deal). ``difference`` is set when
    the log asks for something the engine cannot do (an illegal action);
    ``complete`` is False for a log that stops before the game ends.
    """
    if at is not None and not 0 <= at < len(events):
        raise ValueError(f"event {at} is not in the log (events 0 to {len(events) - 1})")
    run = _drive(ruleset, events, regenerate_chance=False, compare=compare, at=at, unfinished=True)
    run.complete = run.state.is_terminal() if at is None else True
    return run


def _drive(ruleset: CompiledRuleset, events: list[dict[str, Any]], regenerate_chance: bool, compare: bool,
           at: int | None = None, unfinished: bool = False) -> LogRun:
    from targui_dsl.gamelog.events import EventLog
    from targui_dsl.games.targui.actions import IllegalAction
    from targui_dsl.games.targui.game import Game

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
                feed_decision(state, want["action"], lambda: len(produced) >= i)
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


def feed_decision(state: Any, action: str, reported: Callable[[], bool],
                  before_step: Callable[[], None] | None = None) -> None:
    """Apply a logged decision to ``state`` step by step until ``reported()`` says the engine
    has reported it: after a chosen `deposit 0` (which the engine does not log by itself) it
    takes the rest, a forced pass, itself. ``before_step`` runs before each step applied
    (``play --resume`` shows each step to the seat's bot). Raises ``IllegalAction``."""
    for step in state.actions_from_text(action):
        if reported():
            return
        if before_step is not None:
            before_step()
        state.apply_action(step)


def _waiting_for(state) -> str:
    from targui_dsl.games.targui.phases import CHANCE, TERMINAL

    player = state.current_player()
    if player == TERMINAL:
        return "nothing: the game is over"
    if player == CHANCE:
        return "a chance outcome"
    return f"a decision by {state.game.tribe_name(player)} (seat {player + 1})"
