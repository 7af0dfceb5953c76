"""Text from strangers, made safe to print.

Rulesets and game logs travel, and their strings (titles, names, card
texts, keys, log fields) can hold control characters: a double-quoted YAML
``"\\e]0;pwned\\a"`` is a terminal's set-title sequence. :func:`visible`
writes every such character as an escape (``\\x1b``) so that nothing read
from a file can drive the terminal, on a terminal and in pipes alike.
:func:`json_text` does the same for JSON output, where the escapes are
JSON's own (``\\u001b``).

What counts as a control character here: C0 (``\\x00``-``\\x1f``), DEL,
C1 (``\\x80``-``\\x9f``), the Unicode line and paragraph separators, the
bidirectional overrides, embeddings, isolates and marks (they reorder what
the reader sees), and lone surrogates (not text at all; printing one is an
encoding error).
"""

from __future__ import annotations

import re
from functools import cache

__all__ = ["visible", "visible_output", "visible_source", "json_text"]

_ALWAYS = (
    "\x00-\x08\x0b-\x1f\x7f-\x9f"  # C0 but tab and newline, DEL, C1
    "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"  # bidi marks, embeddings, overrides, isolates
    "\u2028\u2029"  # line and paragraph separators
    "\ud800-\udfff"  # lone surrogates
)
# The patterns are compiled when first used: each of these character classes takes Python's
# regular expression compiler a millisecond or so, and most commands use one or two of them.
_STRICT = f"[\t\n{_ALWAYS}]"
_LINES = f"[{_ALWAYS}]"
# What targui itself writes to a terminal: colours (SGR), a progress bar's carriage
# return and its hiding and showing of the cursor, the clearing of the screen between
# two people at one keyboard (home, erase the screen, erase the scrollback). Anything
# else is escaped.
_OUTPUT = f"\x1b\\[[0-9;]*m|\x1b\\[\\?25[lh]|\x1b\\[H|\x1b\\[[23]J|\r|[{_ALWAYS}]"
# A source file quoted in a diagnostic: its YAML line breaks stay (they number its lines);
# everything else is escaped, \x0b, \x0c and \x1c-\x1e included, which YAML does not count
# as line breaks.
_SOURCE = ("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\u061c\u200e\u200f\u202a-\u202e"
           "\u2066-\u2069\ud800-\udfff]")
_JSON = "[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff]"


@cache
def _pattern(source: str) -> re.Pattern[str]:
    return re.compile(source)


_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _escape(match: re.Match) -> str:
    char = match.group()
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str, keep_newlines: bool = False) -> str:
    """``text`` with every control character written as an escape (``\\x1b``, ``\\u202e``).

    A field (a title, a name) is one line: its newlines and tabs are escaped
    too. ``keep_newlines`` keeps them, for multi-line text targui lays out
    itself (a card's rulebook text as the ruleset wrote it).
    """
    pattern = _pattern(_LINES if keep_newlines else _STRICT)
    if pattern.search(text) is None:  # the common case: nothing to do
        return text
    return pattern.sub(_escape, text)


def _output_escape(match: re.Match) -> str:
    text = match.group()
    return text if len(text) > 1 or text == "\r" else _escape(match)


def visible_output(text: str) -> str:
    """What the command line finally writes: control characters escaped, except
    newlines and tabs and the few sequences targui writes itself (colours, a
    progress bar). A last line of defence under :func:`visible`, which fields
    get where they are put into a line."""
    pattern = _pattern(_OUTPUT)
    if pattern.search(text) is None:
        return text
    return pattern.sub(_output_escape, text)


def visible_source(text: str) -> str:
    """A whole source file, to be quoted line by line: control characters escaped, its
    line breaks (``\\n``, ``\\r``, NEL, the Unicode line and paragraph separators) and
    tabs (the diagnostic renderer lays them out) kept."""
    pattern = _pattern(_SOURCE)
    if pattern.search(text) is None:
        return text
    return pattern.sub(_escape, text)


def json_text(text: str) -> str:
    """JSON text (from ``json.dumps(..., ensure_ascii=False)``) with the characters
    JSON leaves raw (DEL, C1, bidi controls, separators, lone surrogates) escaped
    as ``\\uXXXX``; JSON escapes C0 itself. Still the same JSON value."""
    pattern = _pattern(_JSON)
    if pattern.search(text) is None:
        return text
    return pattern.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
