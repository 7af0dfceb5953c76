"""What the commands share: loading a RULESET argument, output formats, colour."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import replace
from typing import IO, TYPE_CHECKING, Any, Callable, Mapping, NoReturn, TypeVar

import click

from targui_dsl.frontend.diagnostics import Diagnostic, RulesetError, Sources, render_all
from targui_dsl.frontend.safefile import check_output
from targui_dsl.frontend.text import json_text, visible, visible_output, visible_source
from targui_dsl.games import DEFAULT_GAME, game_package

if TYPE_CHECKING:  # the engine's protocol module is not loaded for `--help` or `validate`
    from click.shell_completion import CompletionItem  # loaded only to complete a word (as click does)

    from targui_dsl.engine.protocol import GamePackage
    from targui_dsl.games.targui.compiled import CompiledRuleset

# Exit codes, the same for every command.
EXIT_OK = 0
EXIT_BAD_INPUT = 1
EXIT_UNCHECKED = 3  # replay --verify: decisions legal, chance outcomes taken from the log (not checked)
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report a Ctrl-C

RULESET_HELP = "RULESET is a built-in name (see `targui rulesets`) or a path to a YAML file."


F = TypeVar("F", bound=Callable[..., Any])


def format_option(func: F) -> F:
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

#: Home, clear the screen, clear the scrollback: what one human saw and typed is gone.
CLEAR_SCREEN = "\x1b[H\x1b[2J\x1b[3J"


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


class Failure(click.ClickException):
    """Bad input or a failed write: one line on standard error (``error: MESSAGE``, or
    another ``prefix``), exit 1. Raised; the entry point (or click) shows it and exits."""

    exit_code = EXIT_BAD_INPUT

    def __init__(self, message: str, prefix: str = "error: ") -> None:
        super().__init__(message)
        self.prefix = prefix

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(f"{self.prefix}{self.message}", file=file, err=file is None)


def fail(message: str) -> NoReturn:
    """A one-line error on standard error, then exit 1 (bad input)."""
    raise Failure(message)


def exit_with(code: int) -> NoReturn:
    """End the command with exit status ``code``, what had to be said already printed."""
    raise click.exceptions.Exit(code)


def os_reason(err: OSError) -> str:
    return err.strerror or str(err)


def check_writable(path: str, option: str) -> None:
    """Exit 1 with a one-line error, before any work is done, if ``path`` cannot be written.

    The file itself is not created: its folder must exist and be writable,
    and the file, if it exists, must be a writable regular file (a FIFO, a
    device or a socket is refused: opening a FIFO would wait for a reader)."""
    try:
        if os.path.isdir(path):
            raise IsADirectoryError(21, "Is a directory")
        if check_output(path):
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
        exit_with(EXIT_BAD_INPUT)


def parse_bots(value: str) -> list[str]:
    """`greedy,ismcts:iterations=100` -> the canonical spellings, a level (`hard`) left as its word;
    a bad spelling is a usage error (exit 2)."""
    from targui_dsl.agents import BotSpecError, parse_bot_list
    from targui_dsl.agents.spec import LEVELS
    from targui_dsl.games import DEFAULT_GAME, GAMES

    # read before the ruleset (so its game) is known: a spelling one game takes is checked again
    # for the ruleset's game when it is loaded (check_bots_for), which is also when a level, whose
    # bot each game may set, becomes that game's bot; the default game's error is the one told
    first: BotSpecError | None = None
    for game in [DEFAULT_GAME, *sorted(set(GAMES) - {DEFAULT_GAME})]:
        try:
            specs = parse_bot_list(value, game)
        except BotSpecError as err:
            first = first or err
            continue
        words = [item.strip() for item in value.split(",")]
        return [word if word in LEVELS else spec.spelling() for word, spec in zip(words, specs, strict=True)]
    raise click.BadParameter(str(first), param_hint="--bots") from None


def check_bots_for(rs: Any, kinds: list[str]) -> list[str]:
    """Bots parsed before the ruleset was loaded, parsed again for its game: their canonical
    spellings there (a level its game's bot). A parameter whose words depend on the game
    (`ismcts:weights=`) is a usage error (exit 2), not one in mid-study."""
    from targui_dsl.agents import BotSpecError, parse_bot

    try:
        return [parse_bot(kind, package_of(rs).name).spelling() for kind in kinds]
    except BotSpecError as err:
        raise click.BadParameter(str(err), param_hint="--bots") from None


def new_game(rs: CompiledRuleset, players: int, seed: int, tribes: list[str] | None = None) -> Any:
    """A game of ``rs`` for ``players`` (the ruleset's game, from its package); a player count
    or tribes the ruleset cannot seat are a usage error (exit 2)."""
    try:
        return package_of(rs).new_game(rs, players=players, seed=seed, tribes=tribes)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--players") from None


def seat_game(rs: CompiledRuleset, players: int, seed: int, kinds: list[str]) -> tuple[Any, list[str]]:
    """(game, bot per seat), or a usage error (exit 2) when the ruleset cannot seat them."""
    from targui_dsl.study.simulate import seat_bots

    kinds = check_bots_for(rs, kinds)
    game = new_game(rs, players, seed)
    try:
        return game, seat_bots(kinds, players)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--bots") from None


def players_for(rs: Any, players: int | None) -> int:
    """The number of players asked for, or the default: 4 where the ruleset seats 4, else the most it seats
    (Targi: 2)."""
    if players is not None:
        return players
    counts = rs.player_counts
    return 4 if 4 in counts else max(counts)


def package_of(rs: Any) -> GamePackage:
    """The package of the game ``rs`` is a ruleset of (its ``game:``; the default game when it names none)."""
    return game_package(getattr(rs, "game", None) or DEFAULT_GAME)


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


# Shell completion (click's shell_complete callbacks): click completes commands and options
# by itself (README, "Shell completion"); these add the values only targui knows.


def complete_ruleset(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Ruleset names starting with ``incomplete``; file names too (the shell's own
    completion), which is all that is offered once the word looks like a path."""
    from click.shell_completion import CompletionItem

    from targui_dsl.frontend.resolve import builtin_rulesets, example_rulesets, is_builtin_name

    # click's bash and zsh scripts fall back to file completion on a `file` item
    # only when no other item is offered, so names come after it
    items = [CompletionItem(incomplete, type="file")]
    if not is_builtin_name(incomplete):
        return items
    for ruleset in [r for r in builtin_rulesets() if not r.abstract] + example_rulesets():
        if ruleset.name.startswith(incomplete):
            items.append(CompletionItem(ruleset.name, help=ruleset.title))
    return items


def complete_bots(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """The last bot of a comma-separated list: its kind, or one of its parameters after a `:`."""
    from click.shell_completion import CompletionItem

    from targui_dsl.agents.spec import bots_of

    kinds = bots_of()  # the default game's: a command line names its ruleset's game only after parsing
    head, comma, word = incomplete.rpartition(",")
    before = head + comma
    kind, colon, rest = word.partition(":")
    if not colon:
        return [CompletionItem(before + name, help=kinds[name].summary) for name in sorted(kinds)
                if name.startswith(word)]
    bot = kinds.get(kind)
    if bot is None:
        return []
    done, _, last = word.rpartition(":")
    return [CompletionItem(f"{before}{done}:{p.name}=", help=p.help) for p in bot.params
            if p.name.startswith(last) and "=" not in last]


def targui_version() -> str:
    """The version of this targui: the installed package's, or in a checkout that is not
    installed, the one its pyproject.toml declares (the one home of the number)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("targui")
    except PackageNotFoundError:
        pass
    import re
    from pathlib import Path

    try:  # a line `version = "..."` (tomllib is not in Python 3.10)
        text = (Path(__file__).resolve().parent.parent / "pyproject.toml").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        text = ""
    found = re.search(r'^version\s*=\s*"([^"]+)"', text, re.M)
    return found.group(1) if found else "unknown (not installed)"
