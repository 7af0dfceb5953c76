"""Positions: the front end's (line and column from 1, YAML's line breaks, code points)
and the protocol's (line and character from 0, only ``\\n``, ``\\r\\n`` and ``\\r`` break a
line, characters counted in the negotiated encoding's units, UTF-16 by default).

Both are turned into offsets in the text, so that a line break YAML counts and the
protocol does not (U+2028, NEL) or a character outside the BMP never shifts a range.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from functools import cached_property

from targui_dsl.frontend.diagnostics import line_starts

#: A line break as the protocol counts one.
_LSP_BREAK = re.compile(r"\r\n|\r|\n")


def units(text: str, encoding: str) -> int:
    """How many code units of ``encoding`` (``utf-8``, ``utf-16``, ``utf-32``) ``text`` takes."""
    if encoding == "utf-32":
        return len(text)
    if encoding == "utf-8":
        return len(text.encode("utf-8", errors="surrogatepass"))
    return len(text) + sum(1 for char in text if ord(char) > 0xFFFF)


@dataclass(frozen=True)
class Point:
    """A protocol position: line and character from 0."""

    line: int
    character: int


class Text:
    """One document's text, with both ways of counting positions in it."""

    def __init__(self, text: str, encoding: str = "utf-16") -> None:
        self.text = text
        self.encoding = encoding
        # A byte-order mark is not part of what the loader reads (it strips one): its
        # positions start one character later.
        self.shift = 1 if text.startswith("\ufeff") else 0

    @cached_property
    def _yaml_starts(self) -> list[int]:
        return line_starts(self.text[self.shift:])

    @cached_property
    def _lsp_starts(self) -> list[int]:
        return [0] + [m.end() for m in _LSP_BREAK.finditer(self.text)]

    def offset_of_span(self, line: int, column: int) -> int:
        """The offset of the front end's (line, column), clamped into the text."""
        starts = self._yaml_starts
        line = max(1, min(line, len(starts)))
        return min(len(self.text), starts[line - 1] + max(column, 1) - 1 + self.shift)

    def point(self, offset: int) -> Point:
        """The protocol position of ``offset``."""
        offset = max(0, min(offset, len(self.text)))
        line = bisect.bisect_right(self._lsp_starts, offset) - 1
        start = self._lsp_starts[line]
        return Point(line, units(self.text[start:offset], self.encoding))

    def offset(self, point: Point) -> int:
        """The offset of a protocol position (a character past the line's end: the end of the line)."""
        starts = self._lsp_starts
        if point.line >= len(starts):
            return len(self.text)
        start = starts[max(point.line, 0)]
        end = starts[point.line + 1] if point.line + 1 < len(starts) else len(self.text)
        line = self.text[start:end].rstrip("\r\n")
        if self.encoding == "utf-32":
            return start + min(max(point.character, 0), len(line))
        counted = 0
        for index, char in enumerate(line):
            if counted >= point.character:
                return start + index
            counted += units(char, self.encoding)
        return start + len(line)

    def line_at(self, offset: int) -> tuple[int, str]:
        """The protocol line holding ``offset``: its start and its text, without its break."""
        line = bisect.bisect_right(self._lsp_starts, max(0, min(offset, len(self.text)))) - 1
        start = self._lsp_starts[line]
        end = self._lsp_starts[line + 1] if line + 1 < len(self._lsp_starts) else len(self.text)
        return start, self.text[start:end].rstrip("\r\n")
