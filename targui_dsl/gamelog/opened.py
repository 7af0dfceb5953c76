"""Opening a log to use it: the one flow behind `replay`, `replay --verify`, `--step` and
`play --resume`.

:func:`open_log` reads the header (the rest of the file is read as it is
needed), finds the ruleset the header names (:func:`~targui_dsl.gamelog.header.find_ruleset`)
or takes the one given, loads it, checks that it is the log's ruleset and that
the header's players fit it, and returns an :class:`OpenedLog`. Whatever goes
wrong is one :class:`LogOpenError` whose message is written for the user.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from targui_dsl.frontend.text import visible
from targui_dsl.gamelog.header import LOG_FORMAT, find_ruleset, header_problems
from targui_dsl.gamelog.reader import LogError, LogStream, stream_log_file
from targui_dsl.gamelog.replay import LogRun, new_game_of, replay_log, verify_log

__all__ = ["LogOpenError", "OpenedLog", "open_log"]


class LogOpenError(Exception):
    """A log that cannot be used, and why, in words for the user (no path in front).

    ``ruleset_missing``: the log's ruleset was not found (the caller says how to give
    it); ``cause``: the ruleset's own error, with its diagnostics, when it would not load.
    """

    def __init__(self, message: str, ruleset_missing: bool = False, cause: Exception | None = None):
        super().__init__(message)
        self.message, self.ruleset_missing, self.cause = message, ruleset_missing, cause


@dataclass
class OpenedLog:
    """A log, its ruleset loaded and checked against its header, its game set up."""

    path: str
    stream: LogStream  # the events, read as they are asked for
    ruleset: Any
    game: Any  # the game the header describes (for telling and drawing it)
    problems: list[str] = field(default_factory=list)  # how the ruleset differs from the header's (header_problems)

    @property
    def header(self) -> dict[str, Any]:
        return self.stream.header

    @property
    def events(self) -> list[dict[str, Any]]:
        """Every event of the log (reading the rest of the file; a :class:`LogOpenError` at a bad line)."""
        try:
            return self.stream.read_all()
        except LogError as err:
            raise LogOpenError(str(err)) from None

    @property
    def torn(self) -> int | None:
        """The number of a last line cut short and left out (``partial``), once it is read."""
        return self.stream.torn

    def verify(self, unfinished: bool = False) -> LogRun:
        """:func:`~targui_dsl.gamelog.replay.verify_log`, reading no further than the first difference."""
        try:
            return verify_log(self.ruleset, self.stream, unfinished=unfinished)
        except LogError as err:
            raise LogOpenError(str(err)) from None

    def replay(self, at: int | None = None) -> LogRun:
        """:func:`~targui_dsl.gamelog.replay.replay_log`: the game after event ``at`` (None: the end),
        its chance outcomes taken from the log."""
        try:
            return replay_log(self.ruleset, self.stream, at=at)
        except LogError as err:
            raise LogOpenError(str(err)) from None

    @property
    def whole_bytes(self) -> int | None:
        """The file's length without a last line cut short (where to go on writing)."""
        return self.stream.whole_bytes

    def resumable(self) -> LogRun:
        """Check that the game can go on from where the log stops and return the verified run
        (a :class:`LogOpenError` saying why not: chance from outside, a changed ruleset, an
        event the engine does not report so, a game already over). A log cut between two
        events goes on from its last whole decision."""
        if self.header.get("explicit_chance"):
            raise LogOpenError("its chance outcomes came from outside (explicit_chance); a game goes on only "
                               "when the engine throws its dice from the seed")
        if self.header.get("format") != LOG_FORMAT:
            # its events and the new ones would be of two formats in one file
            raise LogOpenError(f"it is a log of an older format ({visible(str(self.header.get('format')))}); it "
                               "replays and verifies, but a game goes on only in a log of today's format")
        for problem in self.problems:
            raise LogOpenError(f"the ruleset has changed since the game began ({visible(problem)}); "
                               f"a game goes on only under the rules it began with")
        run = self.verify(unfinished=True)
        if run.difference is not None:
            diff = run.difference
            raise LogOpenError(f"event {diff.event} (line {diff.event + 1}) does not match the engine: "
                               f"{visible(diff.reason)}")
        if run.complete:
            raise LogOpenError(f"the game is over (round {run.state.round}); there is nothing to resume")
        return run


def open_log(path: str, ruleset_ref: str | None = None, partial: bool = False) -> OpenedLog:
    """Open the log at ``path`` with its ruleset (``ruleset_ref`` instead of the one its
    header names); a :class:`LogOpenError` when it cannot be used. With ``partial`` a
    last line cut short is left out (see :func:`~targui_dsl.gamelog.reader.stream_log_file`)."""
    from targui_dsl.frontend.build import load_ruleset
    from targui_dsl.frontend.diagnostics import RulesetError

    try:
        stream = stream_log_file(path, partial=partial)
    except LogError as err:
        raise LogOpenError(str(err)) from None
    except (OSError, ValueError) as err:  # ValueError: a NUL in the name
        raise LogOpenError(f"cannot read the file: {getattr(err, 'strerror', None) or err}") from None
    header = stream.header
    ref = find_ruleset(header, path) if ruleset_ref is None else ruleset_ref
    if ref is None:
        named = (header.get("files") or ["(none given)"])[0]
        raise LogOpenError(f"the log's ruleset `{visible(header['ruleset'])}` is not built in and its file "
                           f"{visible(named)} was not found with the content the log records",
                           ruleset_missing=True)
    try:
        ruleset = load_ruleset(ref)
    except RulesetError as err:  # its diagnostics say why
        raise LogOpenError(f"the log's ruleset `{visible(ref)}` cannot be loaded", cause=err) from None
    if ruleset.id != header["ruleset"]:
        raise LogOpenError(f"the log is a game of ruleset `{visible(header['ruleset'])}`, but "
                           f"{visible(os.fspath(ref))} is `{ruleset.id}`")
    try:
        game = new_game_of(ruleset, header)
    except LogError as err:
        raise LogOpenError(str(err)) from None
    return OpenedLog(path=path, stream=stream, ruleset=ruleset, game=game, problems=header_problems(ruleset, header))
