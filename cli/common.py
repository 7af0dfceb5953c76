"""What the commands share: loading a RULESET argument, output formats, colour."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import replace
from typing import Any, Mapping, NoReturn

import click

from targui_dsl.frontend.diagnostics import Diagnostic, RulesetError, Sources, render_all
from targui_dsl.frontend.text import json_text, visible, visible_output, visible_source
from targui_dsl.games.targui.compiled import CompiledRuleset

# Exit codes, the same for every command.
EXIT_OK = 0
EXIT_BAD_INPUT = 1
EXIT_USAGE = 2
EXIT_UNCHECKED = 3  # replay --verify: decisions legal, chance outcomes taken from the log (not checked)
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report a Ctrl-C

RULESET_HELP = "RULESET is a built-in name (see `targui rulesets`) or a path to a YAML file."


def format_option(func):
    """`--format text|json`, with `--json` as a shorthand."""
    func = click.option(
        "--json", "as_json", is_flag=True, help="Shorthand for --format json."
    )(func)
    return click.option(
        "--format",
        "output_format",
        type=click.Choice(["text", "json"]),
        default="text",
        show_default=True,
        help="Text for people, JSON for programs.",
    )(func)


def wants_json(output_format: str, as_json: bool) -> bool:
    return as_json or output_format == "json"


COLOUR_MODES = ("auto", "always", "never")


def colour_forbidden(environ: Mapping[str, str] | None = None) -> bool:
    """NO_COLOR set (and not empty) or TERM=dumb: no colour, even on a terminal."""
    environ = os.environ if environ is None else environ
    return bool(environ.get("NO_COLOR")) or environ.get("TERM") == "dumb"


def want_colour(mode: str = "auto", stream: Any = None, environ: Mapping[str, str] | None = None) -> bool:
    """The one colour policy of every command: `always`, `never`, or `auto` = ``stream``
    (standard output by default) is a terminal, NO_COLOR is unset or empty and TERM is
    not `dumb`. An explicit `always` wins over NO_COLOR."""
    if mode == "always":
        return True
    if mode == "never" or colour_forbidden(environ):
        return False
    stream = stream if stream is not None else sys.stdout
    try:
        return bool(getattr(stream, "isatty", None) and stream.isatty())
    except (ValueError, OSError):  # a closed or odd stream
        return False


def use_colour(stream: Any = None) -> bool:
    """Colour for ``stream`` (standard output by default) by the `auto` policy of :func:`want_colour`."""
    return want_colour("auto", stream)


def fail(message: str) -> NoReturn:
    """A one-line error on standard error, then exit 1 (bad input)."""
    click.echo(f"error: {message}", err=True)
    sys.exit(EXIT_BAD_INPUT)


def os_reason(err: OSError) -> str:
    return err.strerror or str(err)


def check_writable(path: str, option: str) -> None:
    """Exit 1 with a one-line error, before any work is done, if ``path`` cannot be written.

    The file itself is not created: its folder must exist and be writable,
    and the file, if it exists, must be a writable regular file (or a device
    such as /dev/null or /dev/stdout)."""
    try:
        if os.path.isdir(path):
            raise IsADirectoryError(21, "Is a directory")
        if os.path.exists(path):
            if not os.access(path, os.W_OK):
                raise PermissionError(13, "Permission denied")
            return
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise FileNotFoundError(2, f"no folder {folder}")
        if not os.access(folder, os.W_OK | os.X_OK):
            raise PermissionError(13, f"Permission denied in {folder}")
    except (OSError, ValueError) as err:
        reason = os_reason(err) if isinstance(err, OSError) else str(err)
        fail(f"cannot write {path} ({option}): {reason}")


def echo_json(value: Any) -> None:
    # JSON escapes C0 itself; json_text escapes what it leaves raw (C1, bidi
    # controls, lone surrogates such as a path that is not UTF-8), as \uXXXX.
    click.echo(json_text(json.dumps(value, indent=2, ensure_ascii=False)))


class VisibleStream:
    """Standard output or error, writing text through :func:`visible_output`: whatever
    a ruleset or a log holds, no control character reaches the terminal raw (the
    fields themselves are escaped with :func:`visible` where they are printed; this
    is the net under them). Everything else is the wrapped stream's."""

    def __init__(self, stream: Any):
        self._stream = stream

    def write(self, text: Any) -> int:
        if isinstance(text, str):
            text = visible_output(text)
        return self._stream.write(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def install_visible_streams() -> None:
    """Route sys.stdout and sys.stderr through :class:`VisibleStream` (once)."""
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is not None and not isinstance(stream, VisibleStream):
            setattr(sys, name, VisibleStream(stream))


def render_diagnostics(diagnostics: Any, sources: Sources | None, color: bool) -> str:
    """``render_all``, with what a ruleset wrote (keys in messages, quoted source lines,
    file names) made visible first, so that even on a terminal in colour no escape
    sequence from a file reaches it: the colours are targui's alone."""
    def safe(d: Diagnostic) -> Diagnostic:
        span = replace(d.span, file=visible(d.span.file)) if d.span is not None else None
        return replace(d, message=visible(d.message), hint=visible(d.hint) if d.hint else d.hint, span=span)

    shown = None
    if sources is not None:
        shown = Sources({visible(name): visible_source(text) for name, text in sources.texts.items()})
    return render_all([safe(d) for d in diagnostics], shown, color=color)


def load_or_exit(ref: str, failure: str | None = None) -> CompiledRuleset:
    """Load a RULESET argument; on bad input print the diagnostics (and ``failure``,
    a last line saying what could not be done) and exit 1."""
    from targui_dsl import load_ruleset

    try:
        return load_ruleset(ref)
    except RulesetError as err:
        click.echo(render_diagnostics(err.diagnostics, err.sources, color=use_colour(sys.stderr)), err=True)
        if failure:
            fail(failure)
        sys.exit(EXIT_BAD_INPUT)


def open_log_or_exit(path: str, ruleset_ref: str | None, *, partial: bool = False, prefix: str = "",
                     missing_hint: str = "") -> Any:
    """:func:`targui_dsl.gamelog.opened.open_log`, or its error as one line (after the ruleset's
    diagnostics, when it would not load) and exit 1: ``{path}: {prefix}{why}``, then
    ``missing_hint`` when the log's ruleset was not found."""
    from targui_dsl.gamelog.opened import LogOpenError, open_log

    try:
        return open_log(path, ruleset_ref, partial=partial)
    except LogOpenError as err:
        fail_opened(path, err, prefix, missing_hint)


def fail_opened(path: str, err: Any, prefix: str = "", missing_hint: str = "") -> NoReturn:
    """A :class:`~targui_dsl.gamelog.opened.LogOpenError` as one line (after the diagnostics
    of a ruleset that would not load), and exit 1."""
    if isinstance(err.cause, RulesetError):
        click.echo(render_diagnostics(err.cause.diagnostics, err.cause.sources, color=use_colour(sys.stderr)),
                   err=True)
    hint = f"; {missing_hint}" if err.ruleset_missing and missing_hint else ""
    fail(f"{path}: {prefix}{err.message}{hint}")
