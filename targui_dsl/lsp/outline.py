"""Where the cursor is in a ruleset file: the path of keys down to it, read from the
indentation of block-style YAML, line by line.

The loader (:mod:`targui_dsl.frontend.yamlload`) gives exact positions, but only for a
file that parses; a file being typed rarely does (``  comb`` is not YAML yet). This
reading never fails: it follows ``key:`` lines, ``- `` items and block scalars
(``|``, ``>``) by their indentation, which is all an author's cursor needs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from targui_dsl.lsp.positions import Text

#: A mapping key at the start of what is left of a line: plain or quoted, then `:` and a space
#: or the end of the line.
_KEY = re.compile(r"""("[^"\n]*"|'[^'\n]*'|[^\s#:'"{}\[\],&*!|>-][^#\n]*?|-[^\s#\n][^#\n]*?)[ \t]*:(?=[ \t]|$)""")
_WORD = re.compile(r"[A-Za-z0-9_]")
_DASH = re.compile(r"-(?:[ \t]+|$)")


@dataclass(frozen=True)
class Place:
    """The node at the cursor."""

    path: tuple  # keys (str) and list indices (int), from the document down to the node
    on_key: bool  # the cursor is on a key, or on a word typed where a key goes
    word: str  # the name under the cursor (letters, digits, `_`), maybe empty
    start: int  # the word's offsets in the text
    end: int
    after_dot: bool  # the word follows a `.`: a field
    prefix: str  # the part of the word before the cursor


@dataclass
class _Frame:
    indent: int
    component: str | int
    is_key: bool
    open: bool = False  # a key with nothing after its `:`: what follows, indented, is its value
    items: int = 0  # list items seen directly under it


def _path(stack: list[_Frame]) -> tuple:
    return tuple(frame.component for frame in stack)


def _uncomment(text: str) -> str:
    """``text`` without a trailing comment (a `#` after a space, outside quotes)."""
    quote = None
    for index, char in enumerate(text):
        if quote:
            if char == quote:
                quote = None
        elif char in "'\"" and (index == 0 or text[index - 1] in " \t[{,:"):
            quote = char
        elif char == "#" and (index == 0 or text[index - 1] in " \t"):
            return text[:index]
    return text


def place_at(text: Text, offset: int) -> Place:
    """The place of ``offset`` in ``text``."""
    source = text.text
    offset = max(0, min(offset, len(source)))
    line_start, line = text.line_at(offset)
    # an offset between a line's \r and \n is at the line's end
    column = min(offset - line_start, len(line))
    word_start, word_end = column, column
    while word_start > 0 and _WORD.match(line[word_start - 1]):
        word_start -= 1
    while word_end < len(line) and _WORD.match(line[word_end]):
        word_end += 1
    word = line[word_start:word_end]
    after_dot = word_start > 0 and line[word_start - 1] == "."
    prefix = line[word_start:column]

    path, on_key = _structure(source[:line_start], line, column)
    if on_key and path and isinstance(path[-1], str) and path[-1] == "" and word:
        path = path[:-1] + (word,)
    return Place(path, on_key, word, line_start + word_start, line_start + word_end, after_dot, prefix)


def _lines(before: str) -> list[str]:
    return re.split(r"\r\n|\r|\n", before)[:-1] if before else []


def _structure(before: str, line: str, column: int) -> tuple[tuple, bool]:
    """(path, on_key) of ``column`` in ``line``, given the text of the lines ``before`` it."""
    stack: list[_Frame] = []
    block: tuple[int, tuple] | None = None  # (indent its lines exceed, path) of a block scalar
    for raw in _lines(before):
        block = _read_line(raw, stack, block)
    # The cursor's line, read the same way, up to where the cursor is.
    stripped = line.lstrip(" ")
    indent = len(line) - len(stripped)
    if block is not None and (not stripped.strip() or indent > block[0]):
        return block[1], False
    if not stripped.strip() or column <= indent:
        # An empty line: a key goes where the cursor is.
        _pop(stack, column, dash=False)
        return _path(stack) + ("",), True
    head = line[:column]
    position = indent
    rest = line[indent:]
    dash = _DASH.match(rest)
    if dash:
        _pop(stack, indent, dash=True)
    else:
        _pop(stack, indent, dash=False)
    while dash:
        _item(stack, position)
        position += dash.end()
        rest = line[position:]
        dash = _DASH.match(rest)
    if column < position:
        return _path(stack), False
    key = _KEY.match(rest)
    if key is not None:
        key_end = position + len(key.group(1))
        name = _unquote(key.group(1))
        if column <= key_end:
            return _path(stack) + (name,), True
        return _path(stack) + (name,), False
    if stack and not stack[-1].is_key:
        return _path(stack), False  # a list item's value (a mapping's first key, maybe: the schema decides)
    if stack and stack[-1].open and ":" not in head[position:]:
        return _path(stack) + ("",), True  # a key being typed under a key that has no value yet
    return _path(stack), False  # a value carried on from the line above


def _pop(stack: list[_Frame], indent: int, dash: bool) -> None:
    while stack:
        top = stack[-1]
        if top.indent > indent:
            stack.pop()
        elif top.indent == indent and not (dash and top.is_key and top.open):
            stack.pop()
        else:
            break


def _item(stack: list[_Frame], indent: int) -> None:
    parent = stack[-1] if stack else None
    index = parent.items if parent is not None else 0
    if parent is not None:
        parent.items += 1
    stack.append(_Frame(indent, index, is_key=False))


def _unquote(key: str) -> str:
    key = key.strip()
    if len(key) >= 2 and key[0] == key[-1] and key[0] in "'\"":
        return key[1:-1]
    return key


def _read_line(raw: str, stack: list[_Frame], block: tuple[int, tuple] | None) -> tuple[int, tuple] | None:
    """Read one whole line above the cursor into ``stack``; the block scalar it opens or continues."""
    stripped = raw.lstrip(" ")
    indent = len(raw) - len(stripped)
    if block is not None and (not stripped.strip() or indent > block[0]):
        return block
    content = _uncomment(stripped).rstrip()
    if not content:
        return None
    if content.startswith(("---", "...")) and indent == 0:
        stack.clear()
        return None
    position = indent
    rest = raw[indent:]
    dash = _DASH.match(rest)
    _pop(stack, indent, dash=dash is not None)
    while dash:
        _item(stack, position)
        position += dash.end()
        rest = raw[position:]
        dash = _DASH.match(rest)
    key = _KEY.match(rest)
    if key is None:
        return None
    value = _uncomment(rest[key.end():]).strip()
    frame = _Frame(position, _unquote(key.group(1)), is_key=True, open=not value or value[0] in "|>&!")
    stack.append(frame)
    if value[:1] in ("|", ">"):
        return position, _path(stack)
    return None
