"""Diagnostics: the one way every stage of the pipeline reports a problem.

A :class:`Diagnostic` names a place in a file (a :class:`Span`), a stable
code, a message and at most one hint.  :func:`render` prints it the way rustc
and Elm do: the location, the line as written and a caret under the problem.
"""

from __future__ import annotations

import bisect
import functools
import re
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence, TypeVar

ERROR = "error"
WARNING = "warning"

#: Most diagnostics kept for one snippet and for one file; the rest are
#: counted in a closing "and N more" (E0002), so a hostile file cannot make
#: the report huge.
MAX_PER_SNIPPET = 20
MAX_PER_FILE = 100

#: Longest stretch of a source line quoted under a diagnostic; a longer line
#: is shown as a window around the caret, with ellipses.
QUOTE_WIDTH = 100

# --- lines: one definition for YAML positions and quoted source lines --------

#: A line break exactly as PyYAML's reader counts one (reader.py ``forward``):
#: ``\n``, ``\r`` not followed by ``\n``, ``\r\n`` (one break), NEL ``\x85``,
#: LS ``\u2028`` and PS ``\u2029``. Not ``\x0b``, ``\x0c`` or ``\x1c``-``\x1e``,
#: which ``str.splitlines`` would also split on.
LINE_BREAK = re.compile(r"\r\n|[\r\n\x85\u2028\u2029]")


def line_starts(text: str) -> list[int]:
    """The index in ``text`` where each line starts (line 1 first)."""
    return [0] + [m.end() for m in LINE_BREAK.finditer(text)]


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` without their breaks, numbered as YAML positions number them."""
    return LINE_BREAK.split(text)


def position(starts: Sequence[int], index: int) -> tuple[int, int]:
    """(line, column), both from 1, of character ``index``, given :func:`line_starts`."""
    line = bisect.bisect_right(starts, index)
    return line, index - starts[line - 1] + 1


@dataclass(frozen=True)
class Span:
    """A region of a source file; lines and columns count from 1.

    ``end_line``/``end_column`` point just past the region (exclusive).
    """

    file: str
    line: int
    column: int
    end_line: int | None = None
    end_column: int | None = None


@dataclass(frozen=True)
class Diagnostic:
    severity: str
    code: str
    message: str
    span: Span | None = None
    hint: str | None = None
    # For an "and N more" (E0002): the N, so a later cap can add it up.
    more: int = field(default=0, compare=False, repr=False)

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    def to_json(self) -> dict:
        span = self.span
        return {
            "file": span.file if span else None,
            "line": span.line if span else None,
            "column": span.column if span else None,
            "end_line": span.end_line if span else None,
            "end_column": span.end_column if span else None,
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "hint": self.hint,
        }

    def headline(self) -> str:
        where = f"{self.span.file}:{self.span.line}:{self.span.column}: " if self.span else ""
        return f"{where}{self.severity}[{self.code}]: {self.message}"


def error(code: str, message: str, span: Span | None = None, hint: str | None = None) -> Diagnostic:
    return Diagnostic(ERROR, code, message, span, hint)


def warning(code: str, message: str, span: Span | None = None, hint: str | None = None) -> Diagnostic:
    return Diagnostic(WARNING, code, message, span, hint)


class RulesetError(Exception):
    """Raised by the Python API when a ruleset cannot be loaded; carries every diagnostic."""

    def __init__(self, diagnostics: Sequence[Diagnostic], sources: "Sources | None" = None):
        self.diagnostics = list(diagnostics)
        self.sources = sources
        errors = [d for d in self.diagnostics if d.is_error]
        first = errors[0].headline() if errors else "invalid ruleset"
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        super().__init__(first + more)

    def render(self, color: bool = False) -> str:
        return render_all(self.diagnostics, self.sources, color=color)


class Sources:
    """The text of every file the pipeline read, so diagnostics can quote it. Equal by its texts.
    (Written out, not a dataclass: a dataclass's methods are compiled at every start.)"""

    def __init__(self, texts: dict[str, str] | None = None) -> None:
        self.texts: dict[str, str] = {} if texts is None else texts
        # file -> (the text split, its lines): split once, not once per diagnostic
        self._lines: dict[str, tuple[str, list[str]]] = {}

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Sources)
        return self.texts == other.texts

    __hash__ = None  # type: ignore[assignment]  # mutable, as the dataclass it was

    def __repr__(self) -> str:
        return f"Sources(texts={self.texts!r})"

    def add(self, file: str, text: str) -> None:
        self.texts[file] = text

    def line(self, file: str, number: int) -> str | None:
        """Line ``number`` (from 1) of ``file``, counted as YAML positions count lines."""
        text = self.texts.get(file)
        if text is None:
            return None
        cached = self._lines.get(file)
        if cached is None or cached[0] is not text:
            cached = (text, split_lines(text))
            self._lines[file] = cached
        lines = cached[1]
        if 1 <= number <= len(lines):
            return lines[number - 1]
        return None


#: Candidates compared by :func:`did_you_mean` in one :func:`with_hint_budget`
#: call (a build): each costs up to ~30 us, and a hostile ruleset can ask
#: for thousands of hints over hundreds of names (18 s, before this cap).
#: Past it, hints are left out; a normal ruleset uses a few hundred.
HINT_BUDGET = 10_000

_hint_budget: ContextVar[list[int] | None] = ContextVar("targui_hint_budget", default=None)

_F = TypeVar("_F", bound=Callable[..., Any])


def with_hint_budget(function: _F) -> _F:
    """Decorate a function so that the did-you-mean hints made while it runs share :data:`HINT_BUDGET`."""

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        token = _hint_budget.set([HINT_BUDGET])
        try:
            return function(*args, **kwargs)
        finally:
            _hint_budget.reset(token)

    return wrapper  # type: ignore[return-value]


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """A hint naming the closest candidate, or None when nothing is close (or the budget is spent)."""
    pool = sorted(set(candidates))
    budget = _hint_budget.get()
    if budget is not None:
        if budget[0] < len(pool):
            return None
        budget[0] -= len(pool)
    from difflib import get_close_matches  # imported when a hint is made: a valid ruleset needs none

    matches = get_close_matches(name, pool, n=1, cutoff=0.6)
    return f"did you mean `{matches[0]}`?" if matches else None


_COLOURS = {ERROR: "\x1b[1;31m", WARNING: "\x1b[1;33m", "hint": "\x1b[1;36m", "bold": "\x1b[1m", "blue": "\x1b[1;34m"}
_RESET = "\x1b[0m"


def render(diagnostic: Diagnostic, sources: Sources | None = None, color: bool = False) -> str:
    """One diagnostic as text: headline, the source line, a caret, the hint."""

    def paint(style: str, text: str) -> str:
        return f"{_COLOURS[style]}{text}{_RESET}" if color else text

    span = diagnostic.span
    label = paint(diagnostic.severity, f"{diagnostic.severity}[{diagnostic.code}]")
    head = f"{label}: {paint('bold', diagnostic.message)}"
    if span is not None:
        head = f"{span.file}:{span.line}:{span.column}: " + head
    out = [head]
    source_line = sources.line(span.file, span.line) if (sources and span) else None
    if source_line is not None and span is not None:
        gutter = str(span.line)
        pad = " " * len(gutter)
        start = max(span.column - 1, 0)
        if span.end_line == span.line and span.end_column and span.end_column > span.column:
            width = span.end_column - span.column
        else:
            width = 1
        shown, start, width = quote_window(source_line, start, width)
        out.append(f"{pad} {paint('blue', '|')}")
        out.append(f"{paint('blue', gutter)} {paint('blue', '|')} {shown}")
        out.append(f"{pad} {paint('blue', '|')} {' ' * start}{paint(diagnostic.severity, '^' * width)}")
    if diagnostic.hint:
        lead = " " * (len(str(span.line)) if source_line is not None and span is not None else 0)
        out.append(f"{lead} {paint('hint', '= hint')}: {diagnostic.hint}")
    return "\n".join(out)


def quote_window(line: str, start: int, width: int, limit: int = QUOTE_WIDTH) -> tuple[str, int, int]:
    """The part of ``line`` to quote, and the caret's start and width in it.

    A line up to ``limit`` characters is quoted whole; a longer one only
    around the caret, with ``...`` where it was cut, so a 200 KB line costs
    no more to show than a short one.
    """
    width = max(1, width)
    if len(line) <= limit:
        shown = line.expandtabs(1)
        return shown, start, max(1, min(width, max(len(shown) - start, 1)))
    width = min(width, limit // 2)
    left = max(0, min(start - (limit - width) // 2, len(line) - limit))
    right = min(len(line), left + limit)
    shown = line[left:right].expandtabs(1)
    caret = start - left
    if left > 0:
        shown, caret = "..." + shown, caret + 3
    if right < len(line):
        shown += "..."
    return shown, caret, max(1, min(width, max(len(shown) - caret, 1)))


def more_diagnostic(dropped: Sequence[Diagnostic], where: str, span: Span | None = None) -> Diagnostic:
    """The closing "and N more" (E0002) for diagnostics left out of a report.

    It is placed at ``span`` (default: the last one left out); callers pass
    the last position of the whole group, so that sorted by position it
    comes after every diagnostic shown for that place.
    """
    span = span if span is not None else dropped[-1].span
    if span is not None and span.end_line is not None:
        # Just past the last problem, so that it sorts after it, not before.
        end = span.end_column if span.end_column is not None else span.column + 1
        span = Span(span.file, span.end_line, end, span.end_line, end + 1)
    total = sum(d.more or 1 for d in dropped)
    errors = any(d.is_error for d in dropped)
    noun = "problem" if total == 1 else "problems"
    return Diagnostic(ERROR if errors else WARNING, "E0002", f"and {total:,} more {noun} in {where}, not shown",
                      span, "fix the ones shown first; many problems in one place usually have one cause",
                      more=total)


def limit_diagnostics(diagnostics: Sequence[Diagnostic], most: int, where: str) -> list[Diagnostic]:
    """All of ``diagnostics`` when there are at most ``most``; else ``most`` of them
    (errors first, then by position) and one "and N more" (E0002)."""
    if len(diagnostics) <= most:
        return list(diagnostics)
    ordered = sorted(diagnostics, key=_errors_first)
    last = max(diagnostics, key=sort_key).span
    return sorted(ordered[:most], key=sort_key) + [more_diagnostic(sorted(ordered[most:], key=sort_key), where, last)]


def _errors_first(diagnostic: Diagnostic) -> tuple:
    # Past a cap, errors are kept before warnings: they are what stops a ruleset.
    return (not diagnostic.is_error,) + sort_key(diagnostic)


def limit_per_file(diagnostics: Sequence[Diagnostic], most: int = MAX_PER_FILE) -> list[Diagnostic]:
    """At most ``most`` diagnostics per file, each over-full file closed by one "and N more".

    Errors are kept before warnings, then by position. Nothing changes (not
    even the order) when no file is over the cap. A snippet's own "and N more"
    is not counted against the cap while it is
    among those shown; past the cap it adds its N to the file's.
    """
    by_file: dict[str | None, list[Diagnostic]] = {}
    for d in diagnostics:
        by_file.setdefault(d.span.file if d.span else None, []).append(d)
    if all(sum(1 for d in group if not d.more) <= most for group in by_file.values()):
        return list(diagnostics)
    out: list[Diagnostic] = []
    for file, group in by_file.items():
        ordered = sorted(group, key=_errors_first)
        kept: list[Diagnostic] = []
        shown = 0
        for cut, d in enumerate(ordered):  # noqa: B007 - `cut` is where the loop broke off, read below
            if not d.more:
                if shown == most:
                    break
                shown += 1
            kept.append(d)
        else:
            out.extend(sorted(kept, key=sort_key))
            continue
        out.extend(sorted(kept, key=sort_key))
        out.append(more_diagnostic(sorted(ordered[cut:], key=sort_key), f"`{file}`" if file else "this ruleset",
                                   max(group, key=sort_key).span))
    return out


def render_all(diagnostics: Iterable[Diagnostic], sources: Sources | None = None, color: bool = False) -> str:
    diagnostics = list(diagnostics)
    parts = [render(d, sources, color) for d in diagnostics]
    shown = [d for d in diagnostics if not d.more]
    errors = sum(1 for d in shown if d.is_error)
    warnings = len(shown) - errors
    hidden = sum(d.more for d in diagnostics)
    if diagnostics:
        summary = f"{errors} error{'s' if errors != 1 else ''}"
        if warnings:
            summary += f", {warnings} warning{'s' if warnings != 1 else ''}"
        if hidden:
            summary += f" shown, and {hidden:,} more not shown"
        parts.append(summary)
    return "\n\n".join(parts)


def sort_key(diagnostic: Diagnostic) -> tuple:
    span = diagnostic.span
    return (span.file if span else "", span.line if span else 0, span.column if span else 0, diagnostic.code)
