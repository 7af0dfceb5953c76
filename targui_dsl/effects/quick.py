"""The quick parser: the effect language's LALR parser run straight over its tables (``_tables.py``),
building the nodes as it reduces.

It does what Lark's parser (``_lalr.py``) followed by the parser's Transformer does, for every
text that parses and is within the parser's limits: the same lexer (one pattern, keywords),
the same parse table, each rule's children kept and spliced as Lark keeps them, the same
positions (Lark's ``propagate_positions``, containers included). It builds no tree to transform
afterwards and loads no Lark: that was a fifth of `targui validate`. Whatever it cannot tell
alike, a syntax error above all, it leaves to Lark's parser (:class:`Fallback`), which then
says what is wrong exactly as before. tests/test_effects_quick.py holds the two to the same
nodes on every text of every ruleset and on texts made to be wrong.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Iterable, Mapping

from targui_dsl.effects import _tables as tables

#: What builds a node: the rule's (or alias's) name -> a function of its place and its children.
Builders = Mapping[str, Callable[[Any, list[Any]], Any]]


class Fallback(Exception):
    """The quick parser leaves this text to Lark's parser (a syntax error, a limit, a rare shape)."""


class Token(str):
    """A token as Lark gives one: its terminal's name, its text, and its place (lines and
    columns from 1, offsets from 0, ends exclusive)."""

    type: str
    start_pos: int
    line: int
    column: int
    end_line: int
    end_column: int
    end_pos: int


def _token(kind: str, text: str, start: int, line: int, column: int, end_line: int, end_column: int,
           end: int) -> Token:
    token = Token.__new__(Token, text)
    token.type, token.start_pos, token.line, token.column = kind, start, line, column
    token.end_line, token.end_column, token.end_pos = end_line, end_column, end
    return token


class Meta:
    """A node's place, as Lark's ``Meta``: where its first and last token are (``empty`` when it has
    none), and where what stood for it in the text was (its "container": brackets included)."""

    __slots__ = ("empty", "line", "column", "start_pos", "end_line", "end_column", "end_pos", "container_start",
                 "container_end")
    line: int
    column: int
    start_pos: int
    end_line: int
    end_column: int
    end_pos: int

    def __init__(self) -> None:
        self.empty = True
        self.container_start: tuple[int, int, int] | None = None  # line, column, offset
        self.container_end: tuple[int, int, int] | None = None


class _Tree:
    """A rule's result while parsing: its name, place, children, node, and its size as Lark's
    parser's limits count a tree (depth, parts, braces inside braces)."""

    __slots__ = ("data", "meta", "children", "node", "depth", "parts", "blocks")
    node: Any
    depth: int
    parts: int
    blocks: int

    def __init__(self, data: str, children: list[Any]) -> None:
        self.data, self.children, self.meta = data, children, Meta()


_SCANNER: re.Pattern[str] | None = None


def _lex(text: str) -> list[Token]:
    """The tokens of ``text`` as Lark's basic lexer makes them; Fallback at a character it cannot read."""
    global _SCANNER
    if _SCANNER is None:
        _SCANNER = re.compile(tables.PATTERN)
    match, ignore, newlines, keywords = _SCANNER.match, tables.IGNORE, tables.NEWLINES, tables.KEYWORDS
    out: list[Token] = []
    pos, line, line_start, size = 0, 1, 0, len(text)
    while pos < size:
        found = match(text, pos)
        if found is None:
            raise Fallback
        value, kind = found.group(0), found.lastgroup
        assert kind is not None
        start, start_line, start_column = pos, line, pos - line_start + 1
        if kind in newlines:
            count = value.count("\n")
            if count:
                line += count
                line_start = pos + value.rindex("\n") + 1
        pos += len(value)
        if kind in ignore:
            continue
        words = keywords.get(kind)
        if words is not None:
            kind = words.get(value, kind)
        out.append(_token(kind, value, start, start_line, start_column, line, pos - line_start + 1, pos))
    return out


def _first(children: Iterable[Any]) -> Any:
    """The first child with a place (Lark's ``_pp_get_meta``): a placed tree's Meta, or a token."""
    for child in children:
        if isinstance(child, _Tree):
            if not child.meta.empty:
                return child.meta
        elif isinstance(child, Token):
            return child
    return None


def parse(text: str, start: str, builders: Builders, max_depth: int, max_parts: int, max_blocks: int) -> Any:
    """The node of ``text`` parsed from ``start`` ("effect" or "formula"), built by ``builders``;
    Fallback when it does not parse, when its tree would be over a limit (deeper than
    ``max_depth``, more than ``max_parts`` parts, braces nested more than ``max_blocks`` deep), or
    when it has a shape this parser does not build."""
    states, rules = tables.STATES, tables.RULES
    end_state = tables.END[start]
    stack = [tables.START[start]]
    values: list[Any] = []
    tokens = _lex(text)
    end = _token("$END", "", 0, 1, 1, 1, 1, 0)
    last = len(tokens)
    for i, token in enumerate([*tokens, end]):
        kind = token.type
        while True:
            action = states[stack[-1]].get(kind)
            if action is None:
                raise Fallback  # a syntax error: Lark's parser tells what is wrong
            if action >= 0:
                if i == last:
                    raise Fallback  # $END shifted: not a table Lark builds
                stack.append(action)
                values.append(token)
                break
            origin, size, name, expand1, include, append = rules[-1 - action]
            if expand1 and size == 1 and include is None:
                # a `?rule` of one child stands for it, places and all: only the state changes
                stack[-1] = states[stack[-2]][origin]
                if i == last and stack[-1] == end_state:
                    return _checked(values[-1], max_depth, max_parts, max_blocks)
                continue
            if size:
                children = values[-size:]
                del values[-size:]
                del stack[-size:]
            else:
                children = []
            values.append(_reduce(children, name, expand1, include, append, builders))
            stack.append(states[stack[-1]][origin])
            if i == last and stack[-1] == end_state:
                return _checked(values[-1], max_depth, max_parts, max_blocks)
    raise Fallback  # pragma: no cover - the end token always ends the loop above


def _checked(result: Any, max_depth: int, max_parts: int, max_blocks: int) -> Any:
    if not isinstance(result, _Tree) or result.data.startswith("_"):
        raise Fallback
    if result.depth > max_depth or result.parts > max_parts or result.blocks > max_blocks:
        raise Fallback  # Lark's parser and the limits say which limit, and where
    return result.node


def _reduce(children: list[Any], name: str, expand1: bool, include: Any, append: int, builders: Builders) -> Any:
    """A rule's value from the values it takes: Lark's ChildFilterLALR, ExpandSingleChild and
    PropagatePositions, then the node built at once (Lark's Transformer, run afterwards, sees
    the same children and places)."""
    if include is None:
        kept = list(children)
    else:
        kept = []
        for index, splice, nones in include:
            if nones:
                kept += [None] * nones
            child = children[index]
            if splice:
                if not isinstance(child, _Tree):
                    raise Fallback
                kept += child.children
            else:
                kept.append(child)
        if append:
            kept += [None] * append
    if expand1 and len(kept) == 1:
        result = kept[0]
        if isinstance(result, _Tree):
            _place(result.meta, children, fresh=False)
        return result
    tree = _Tree(name, kept)
    _place(tree.meta, children, fresh=True)
    if name.startswith("_"):
        return tree  # spliced into its parent's children, never a node of its own
    depth, parts, blocks, values = 0, 1, 0, []
    for child in kept:
        if isinstance(child, _Tree):
            if child.data.startswith("_"):
                raise Fallback  # an unspliced inner rule: a tree Lark would leave as it is
            depth, blocks = max(depth, child.depth), max(blocks, child.blocks)
            parts += child.parts
            values.append(child.node)
        else:
            if child is not None:
                parts += 1
            values.append(child)
    tree.depth, tree.parts, tree.blocks = depth + 1, parts, blocks + (name == "block")
    builder = builders.get(name)
    if builder is None:
        raise Fallback  # a rule without a node: Lark would leave a tree
    tree.node = builder(tree.meta, values)
    return tree


def _place(meta: Meta, children: list[Any], fresh: bool) -> None:
    """Lark's PropagatePositions: a tree starts where its first placed child's container starts and
    ends where its last one's ends; a tree standing for a rule (`?rule`) keeps its own place and
    takes the rule's extent as its container (a bracketed expression: the brackets)."""
    first = _first(children)
    if first is None:
        return
    if not fresh and meta.empty:
        raise Fallback  # a placeless node placed later: its node was built without the place
    start = first.container_start if isinstance(first, Meta) else (first.line, first.column, first.start_pos)
    last = _first(reversed(children))
    end = last.container_end if isinstance(last, Meta) else (last.end_line, last.end_column, last.end_pos)
    if start is None or end is None:  # pragma: no cover - a placed tree always has its container
        raise Fallback
    if fresh:
        meta.line, meta.column, meta.start_pos = start
        meta.end_line, meta.end_column, meta.end_pos = end
        meta.empty = False
    meta.container_start, meta.container_end = start, end
