"""Diagnostics: the one way every stage of the pipeline reports a problem.

A :class:`Diagnostic` names a place in a file (a :class:`Span`), a stable
code, a message and at most one hint.  :func:`render` prints it the way rustc
and Elm do: the location, the line as written and a caret under the problem.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Iterable, Sequence

ERROR = "error"
WARNING = "warning"


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

    def at_offset(self, columns: int) -> "Span":
        """A one-character span ``columns`` to the right on the same line."""
        return Span(self.file, self.line, self.column + columns, self.line, self.column + columns + 1)


@dataclass(frozen=True)
class Diagnostic:
    severity: str
    code: str
    message: str
    span: Span | None = None
    hint: str | None = None

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


@dataclass
class Sources:
    """The text of every file the pipeline read, so diagnostics can quote it."""

    texts: dict[str, str] = field(default_factory=dict)

    def add(self, file: str, text: str) -> None:
        self.texts[file] = text

    def line(self, file: str, number: int) -> str | None:
        text = self.texts.get(file)
        if text is None:
            return None
        lines = text.splitlines()
        if 1 <= number <= len(lines):
            return lines[number - 1]
        return None


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """A hint naming the closest candidate, or None when nothing is close."""
    matches = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"did you mean `{matches[0]}`?" if matches else None


_COLOURS = {ERROR: "\x1b[1;31m", WARNING: "\x1b[1;33m", "hint": "\x1b[1;36m", "bold": "\x1b[1m", "blue": "\x1b[1;34m"}
_RESET = "\x1b[0m"


def render(diagnostic: Diagnostic, sources: Sources | None = None, color: bool = False) -> str:
    """One diagnostic as text: headline, the source line, a caret, the hint."""

    def paint(style: str, text: str) -> str:
        return f"{_COLOURS[style]}{text}{_RESET}" if color else text

    span = diagnostic.span
    head = f"{paint(diagnostic.severity, f'{diagnostic.severity}[{diagnostic.code}]')}: {paint('bold', diagnostic.message)}"
    if span is not None:
        head = f"{span.file}:{span.line}:{span.column}: " + head
    out = [head]
    source_line = sources.line(span.file, span.line) if (sources and span) else None
    if source_line is not None:
        gutter = str(span.line)
        pad = " " * len(gutter)
        shown = source_line.expandtabs(1)
        start = max(span.column - 1, 0)
        if span.end_line == span.line and span.end_column and span.end_column > span.column:
            width = span.end_column - span.column
        else:
            width = 1
        width = max(1, min(width, max(len(shown) - start, 1)))
        out.append(f"{pad} {paint('blue', '|')}")
        out.append(f"{paint('blue', gutter)} {paint('blue', '|')} {shown}")
        out.append(f"{pad} {paint('blue', '|')} {' ' * start}{paint(diagnostic.severity, '^' * width)}")
    if diagnostic.hint:
        lead = " " * (len(str(span.line)) if source_line is not None else 0)
        out.append(f"{lead} {paint('hint', '= hint')}: {diagnostic.hint}")
    return "\n".join(out)


def render_all(diagnostics: Iterable[Diagnostic], sources: Sources | None = None, color: bool = False) -> str:
    diagnostics = list(diagnostics)
    parts = [render(d, sources, color) for d in diagnostics]
    errors = sum(1 for d in diagnostics if d.is_error)
    warnings = len(diagnostics) - errors
    if diagnostics:
        summary = f"{errors} error{'s' if errors != 1 else ''}"
        if warnings:
            summary += f", {warnings} warning{'s' if warnings != 1 else ''}"
        parts.append(summary)
    return "\n\n".join(parts)


def sort_key(diagnostic: Diagnostic) -> tuple:
    span = diagnostic.span
    return (span.file if span else "", span.line if span else 0, span.column if span else 0, diagnostic.code)
