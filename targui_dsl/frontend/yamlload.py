"""Load one YAML file safely, remembering where every value was written.

The loader walks PyYAML's *event* stream and builds plain Python values
itself.  Working on events rather than on a composed node graph means an
alias is never followed: anchors and aliases are reported the moment they
are seen, so an "alias bomb" costs nothing.

The events come from libyaml's parser in C (``yaml.CSafeLoader``) where
PyYAML has it, else from PyYAML's own pure-Python one (``yaml.SafeLoader``,
five times slower); one builder reads either, and positions are counted from
each event's character index, which both count alike.  A text the two
parsers may read differently (a tab, a byte-order mark, a character YAML
refuses, `|#`; an empty value, a tag, an anchor, a plain `a?b`) and any text
libyaml finds an error in are read again by the pure-Python one, whose errors
are the ones explained: documents and diagnostics do not depend on how PyYAML
was installed (tests/test_load_libyaml.py compares the two).

Everything the file gets wrong is returned as a :class:`Diagnostic`
(codes E01xx, see ``docs/diagnostics.md``); nothing raises for bad input.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

# before PyYAML: its reader's pattern compiled in a twelfth of the time (see the module)
from targui_dsl.frontend import pyyaml_pattern  # noqa: F401

# isort: split
import yaml
from yaml.constructor import SafeConstructor
from yaml.error import Mark
from yaml.events import (
    AliasEvent,
    CollectionEndEvent,
    DocumentStartEvent,
    Event,
    MappingStartEvent,
    ScalarEvent,
    SequenceStartEvent,
)
from yaml.nodes import ScalarNode

from targui_dsl.frontend.diagnostics import LINE_BREAK, Diagnostic, Span, error, line_starts, position, split_lines
from targui_dsl.frontend.safefile import read_bounded

__all__ = ["LoadedDoc", "load_yaml_text", "load_yaml_file", "MAX_BYTES", "MAX_DEPTH", "MAX_VALUES"]

# libyaml's parser where PyYAML was built with it (same events, same marks); None without.
_FAST_LOADER: type | None = getattr(yaml, "CSafeLoader", None) if getattr(yaml, "__with_libyaml__", False) else None
# What libyaml reads otherwise than PyYAML: a tab (PyYAML refuses some that libyaml takes as
# spaces), a byte-order mark (libyaml drops it from the character count), a comment right after
# `|` or `>` (PyYAML wants a space before it); and what PyYAML's reader refuses (its own test).
_PURE_ONLY = re.compile("[\t\ufeff]|[|>][-+0-9]*#")

# PyYAML's pure-Python scanner reads about 1 MB a second at its slowest
# (folded or escaped text); the largest built-in file is under 10 KiB.
MAX_BYTES = 256 * 1024
MAX_DEPTH = 32
_MAX_SEXAGESIMAL_PARTS = 8  # `1:2:3` is read exactly; past this many `:` only reported
_MAX_INT_BITS = 10_000  # about 3000 decimal digits, well inside what Python will print
# A broken 256 KiB file could hold thousands of problems; past this many the
# rest are noise, so loading stops.
MAX_DIAGNOSTICS = 100
# Values (scalars, lists, mappings) in one file. The built-in base has under
# 300 and a 26 x 26 board's numbering 702; past this many, reading on (PyYAML in pure Python, then the schema
# item by item) would take seconds, so loading stops with E0112.
MAX_VALUES = 5_000

YamlPath = tuple  # of str keys and int indices; () is the document

_CORE = "tag:yaml.org,2002:"
_STR, _INT, _FLOAT, _BOOL, _NULL = (_CORE + t for t in ("str", "int", "float", "bool", "null"))
_SCALAR_TAGS = {_STR, _INT, _FLOAT, _BOOL, _NULL}
# Tags PyYAML's 1.1 resolver gives plain scalars that YAML 1.2 reads as text.
_TEXT_IN_12 = {_CORE + "timestamp", _CORE + "value", _CORE + "merge"}
# Words some YAML 1.1 reader takes for booleans (PyYAML only for yes/no/on/off).
_BOOL_WORDS = {"yes": True, "y": True, "on": True, "no": False, "n": False, "off": False}

# Line breaks exactly as PyYAML's reader counts them: one definition, shared
# with the quoted source lines of diagnostics.
_BREAK = LINE_BREAK


# --- the result ----------------------------------------------------------------


class _StringInfo(NamedTuple):
    """What locate() needs to map an offset in a string back to the file (one per string in the
    file: a tuple, made quicker than a frozen dataclass)."""

    style: str | None  # None (plain), "'", '"', "|", ">"
    start: int  # character index of the node in the text (tag/anchor included)
    end: int
    value: str


@dataclass(repr=False)  # its own __repr__: dataclasses need not write one
class LoadedDoc:
    """One YAML file: its text, its values (or None on error) and their positions."""

    file: str
    text: str
    data: dict | None = None
    # the bytes read from the file (a log's header hashes what was played, not what the file holds by
    # then); None for a text not read from a file (an editor's unsaved buffer)
    raw: bytes | None = None
    spans: dict[YamlPath, Span] = field(default_factory=dict)
    key_spans: dict[YamlPath, Span] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    _strings: dict[YamlPath, _StringInfo] = field(default_factory=dict, repr=False)
    _offset_maps: dict[YamlPath, list[int] | None] = field(default_factory=dict, repr=False)
    _line_starts: list[int] | None = field(default=None, repr=False)

    def __repr__(self) -> str:  # one line, not the whole file
        return f"<LoadedDoc {self.file}: {len(self.text)} characters, {len(self.diagnostics)} diagnostics>"

    def locate(self, path: YamlPath, offset: int) -> Span:
        """The file position of character ``offset`` of the string at ``path``.

        Exact for plain scalars, quoted scalars without backslash escapes and
        literal blocks (``|``); for anything else, the start of the value.
        """
        path = tuple(path)
        positions = self._offset_map(path)
        if positions is None:
            span = self._nearest_span(path)
            return Span(self.file, span.line, span.column, span.line, span.column + 1)
        index = positions[max(0, min(offset, len(positions) - 1))]
        line, column = self.position(index)
        return Span(self.file, line, column, line, column + 1)

    def position(self, index: int) -> tuple[int, int]:
        """(line, column), both from 1, of character ``index`` of the text."""
        if self._line_starts is None:
            self._line_starts = _line_starts(self.text)
        return _position(self._line_starts, index)

    def _nearest_span(self, path: YamlPath) -> Span:
        for cut in range(len(path), -1, -1):
            span = self.spans.get(path[:cut])
            if span is not None:
                return span
        return Span(self.file, 1, 1)

    def _offset_map(self, path: YamlPath) -> list[int] | None:
        if path not in self._offset_maps:
            info = self._strings.get(path)
            self._offset_maps[path] = _offset_map(self.text, info) if info else None
        return self._offset_maps[path]


# --- entry points ----------------------------------------------------------------


def load_yaml_file(path: Path, display: str | None = None) -> LoadedDoc:
    """Read and load ``path``; ``display`` is the name used in spans (default: the path)."""
    path = Path(path)
    name = display if display is not None else str(path)
    try:
        raw = read_bounded(path, MAX_BYTES)  # never more than the cap; no FIFO, device or directory
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the path
        reason = getattr(exc, "strerror", None) or "not a readable file"
        return LoadedDoc(name, "", diagnostics=[
            error("E0108", f"cannot read `{name}`: {reason}", Span(name, 1, 1),
                  "check the path; a ruleset is a YAML file")
        ])
    if len(raw) > MAX_BYTES:
        return LoadedDoc(name, "", diagnostics=[_too_big(name)])
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        readable = raw[: exc.start].decode("utf-8")
        line, column = _position(_line_starts(readable), len(readable))
        return LoadedDoc(name, raw.decode("utf-8", errors="replace"), diagnostics=[
            error("E0109", f"the file is not UTF-8 text (byte 0x{raw[exc.start]:02x} cannot be read)",
                  Span(name, line, column, line, column + 1), "save the file with UTF-8 encoding")
        ])
    # Editors do not count a byte-order mark as a column; neither do we.
    doc = load_yaml_text(text.removeprefix("\ufeff"), name)
    doc.raw = raw
    return doc


def load_yaml_text(text: str, file: str) -> LoadedDoc:
    """Load YAML ``text``; ``file`` is the name used in spans."""
    if len(text) > MAX_BYTES or len(text.encode("utf-8", errors="surrogatepass")) > MAX_BYTES:
        return LoadedDoc(file, text, diagnostics=[_too_big(file)])
    if _FAST_LOADER is not None and not _PURE_ONLY.search(text) and not yaml.reader.Reader.NON_PRINTABLE.search(text):
        fast = _Builder(text, file, _FAST_LOADER).run(fallible=True)
        if fast is not None:
            return fast
    doc = _Builder(text, file, yaml.SafeLoader).run()
    assert doc is not None  # only a fallible read gives up
    return doc


def _too_big(file: str) -> Diagnostic:
    return error(
        "E0106",
        f"the file is larger than {MAX_BYTES // 1024} KiB, the most a ruleset may be",
        Span(file, 1, 1),
        "a ruleset this large is almost certainly not the file you meant",
    )


# --- building values from events ---------------------------------------------------

_NO_KEY = object()  # a mapping frame waiting for its next key
_BAD_KEY = object()  # a key already reported; its value is read but not kept


class _Frame:
    """A mapping or sequence being built."""

    __slots__ = ("value", "path", "start", "as_key", "key", "first_key_line")

    def __init__(self, value: dict | list, path: YamlPath | None, start: Any, as_key: bool = False) -> None:
        self.value: Any = value  # dict or list
        self.path = path  # None: inside something already refused, record nothing
        self.start = start  # the start mark
        self.as_key = as_key  # this collection is itself being used as a mapping key
        self.key: Any = _NO_KEY
        self.first_key_line: dict[str, int] = {}


class _ReadItAgain(Exception):
    """libyaml met something PyYAML may read otherwise: read the text with PyYAML's parser."""


def _pyyaml_may_differ(event: Event) -> bool:
    """Whether PyYAML's parser may read what gave this libyaml event otherwise: an empty value
    (libyaml places some elsewhere in flow collections), a plain `a?b` (inside one, PyYAML ends
    it at the `?`), a tag, an anchor or an alias (they read names differently; all but the core
    tags are refused anyway)."""
    if isinstance(event, AliasEvent):
        return True
    if isinstance(event, ScalarEvent):
        return (event.start_mark.index == event.end_mark.index or event.tag is not None
                or event.anchor is not None or (not event.style and "?" in event.value))
    if isinstance(event, (MappingStartEvent, SequenceStartEvent)):
        return event.tag is not None or event.anchor is not None
    return False


class _Builder:
    def __init__(self, text: str, file: str, loader: type):
        self.text = text
        self.doc = LoadedDoc(file, text)
        self.stack: list[_Frame] = []
        self.root: Any = None
        self.documents = 0
        self.values = 0
        self.loader_class = loader
        self.loader: Any = None  # a yaml.SafeLoader or a yaml.CSafeLoader
        self.fallible = False
        self.file = file
        # where each line starts, for every span (the document's own, which it finds the same)
        self.starts = self.doc._line_starts = _line_starts(text)
        # a `!!str` scalar is its text, as PyYAML's safe constructor makes it (unless changed)
        self.str_is_text = getattr(loader, "yaml_constructors", {}).get(_STR) is SafeConstructor.construct_yaml_str

    # The loop stops at the first syntax error: PyYAML cannot recover from
    # one, but everything found before it is still reported.
    def run(self, fallible: bool = False) -> LoadedDoc | None:
        """The document; with ``fallible``, None when the parser raised anything (read it again
        with PyYAML's own parser, whose error messages are the ones explained in plain words)."""
        doc = self.doc
        complete = False
        self.fallible = fallible
        try:
            self.loader = self.loader_class(self.text)
            while self.loader.check_event():
                if not self._on_event(self.loader.get_event()):
                    break
                if len(doc.diagnostics) >= MAX_DIAGNOSTICS:
                    break
            else:
                complete = True
        except Exception as exc:
            if fallible:
                return None
            if isinstance(exc, yaml.MarkedYAMLError):
                doc.diagnostics.append(self._syntax_error(exc))
            elif isinstance(exc, yaml.YAMLError):  # ReaderError: a character YAML does not allow
                doc.diagnostics.append(self._reader_error(exc))
            else:
                raise
        finally:
            if self.loader is not None:
                self.loader.dispose()
        if complete:
            self._check_top_level()
        if not any(d.is_error for d in doc.diagnostics):
            doc.data = self.root
        else:
            doc.data = None
        return doc

    def _on_event(self, event: Event) -> bool:
        if event.__class__ is ScalarEvent:  # most events: the checks below in the same order
            if self.fallible and (event.start_mark.index == event.end_mark.index or event.tag is not None
                                  or event.anchor is not None or (not event.style and "?" in event.value)):
                raise _ReadItAgain
            self.values += 1
            if self.values > MAX_VALUES:
                return self._too_many(event)
            self._scalar(event)
            return True
        if self.fallible and _pyyaml_may_differ(event):
            raise _ReadItAgain
        if isinstance(event, (ScalarEvent, MappingStartEvent, SequenceStartEvent, AliasEvent)):
            self.values += 1
            if self.values > MAX_VALUES:
                return self._too_many(event)
        if isinstance(event, DocumentStartEvent):
            self.documents += 1
            if self.documents > 1:
                self._error("E0110", "a ruleset file holds one YAML document, but a second one starts here",
                            self._span(event.start_mark, event.end_mark),
                            "remove this `---` line, or split the file in two")
                return False
        elif isinstance(event, ScalarEvent):
            self._scalar(event)
        elif isinstance(event, (MappingStartEvent, SequenceStartEvent)):
            return self._open(event)
        elif isinstance(event, CollectionEndEvent):
            self._close(event)
        elif isinstance(event, AliasEvent):
            self._error("E0102", f"aliases are not allowed: `*{event.anchor}`",
                        self._span(event.start_mark, event.end_mark), _ANCHOR_HINT)
            self._deliver(None, self._span(event.start_mark, event.end_mark), kind="alias", raw=None)
        return True

    def _too_many(self, event: Event) -> bool:
        self._error("E0112", f"the file holds more than {MAX_VALUES:,} values; a ruleset needs far fewer",
                    self._span(event.start_mark, event.end_mark),
                    "a ruleset this large is almost certainly not the file you meant; "
                    "long lists of numbers are not needed anywhere in a ruleset")
        return False

    # -- nodes

    def _next_path(self) -> YamlPath | None:
        if not self.stack:
            return ()
        top = self.stack[-1]
        if top.path is None:
            return None
        if isinstance(top.value, list):
            return top.path + (len(top.value),)
        if top.key is _NO_KEY or top.as_key:
            return None  # a key is not a value with a path of its own
        return top.path + (top.key,) if isinstance(top.key, str) else None

    def _in_key_position(self) -> bool:
        return bool(self.stack) and isinstance(self.stack[-1].value, dict) and self.stack[-1].key is _NO_KEY

    def _scalar(self, event: ScalarEvent) -> None:
        start, end = event.start_mark.index, event.end_mark.index
        span = self._span_of(start, end)
        if event.anchor is not None:
            self._check_anchor(event)
        path = self._next_path()
        value, ok = self._scalar_value(event, span)
        if path is not None:
            self.doc.spans[path] = span
            if isinstance(value, str):
                style = event.style or None  # libyaml writes a plain scalar's style as ""
                self.doc._strings[path] = _StringInfo(style, start, end, value)
        self._deliver(value, span, kind="scalar" if ok else "refused", raw=event.value)

    def _open(self, event: Event) -> bool:
        """Start a collection; False when it is too deep to go on."""
        is_map = isinstance(event, MappingStartEvent)
        self._check_anchor(event)
        expected = _CORE + ("map" if is_map else "seq")
        if event.tag not in (None, "!", expected):
            self._error("E0111", f"tag `{_show_tag(event.tag)}` is not allowed", self._tag_span(event), _TAG_HINT)
        if len(self.stack) + 1 > MAX_DEPTH:
            # Stop here: PyYAML's scanner slows down quadratically with flow
            # nesting, so reading on through a deep file is not safe.
            self._error("E0107", f"lists and mappings are nested more than {MAX_DEPTH} deep here",
                        self._span(event.start_mark, event.end_mark),
                        "flatten the structure; no ruleset setting needs this much nesting")
            return False
        as_key = self._in_key_position() or bool(self.stack and self.stack[-1].as_key)
        path = None if as_key else self._next_path()
        self.stack.append(_Frame({} if is_map else [], path, event.start_mark, as_key=as_key))
        return True

    def _close(self, event: Event) -> None:
        frame = self.stack.pop()
        span = self._span(frame.start, event.end_mark)
        if frame.path is not None:
            self.doc.spans[frame.path] = span
        kind = "mapping" if isinstance(frame.value, dict) else "list"
        self._deliver(frame.value, span, kind=kind, raw=None)

    def _deliver(self, value: Any, span: Span, kind: str, raw: str | None) -> None:
        """Hand a finished node to the collection it belongs to (or make it the root)."""
        if not self.stack:
            self.root = value
            return
        top = self.stack[-1]
        if isinstance(top.value, list):
            top.value.append(value)
        elif top.key is _NO_KEY:
            top.key = self._accept_key(top, value, span, kind, raw)
        else:
            if isinstance(top.key, str):
                top.value[top.key] = value
            top.key = _NO_KEY

    def _accept_key(self, frame: _Frame, key: Any, span: Span, kind: str, raw: str | None) -> Any:
        if frame.as_key or kind in ("alias", "refused"):
            return _BAD_KEY  # already reported (or inside a key that will be)
        if kind in ("mapping", "list"):
            self._error("E0105", f"a key must be text, not a {kind}", span,
                        "write the key as plain text, e.g. `name: value`")
            return _BAD_KEY
        if not isinstance(key, str):
            if raw:
                self._error("E0105", f"a key must be text, but `{raw}` is read as {_describe(key)}", span,
                            f'put the key in quotes: "{raw}": ...')
            else:
                self._error("E0105", "this key is empty", span, "write a key before the `:`")
            return _BAD_KEY
        if key in frame.first_key_line:
            first = frame.first_key_line[key]
            self._error("E0103", f"duplicate key `{key}`", span,
                        f"`{key}` is already set on line {first}; remove one of the two")
            return _BAD_KEY
        frame.first_key_line[key] = span.line
        if frame.path is not None:
            self.doc.key_spans[frame.path + (key,)] = span
        return key

    # -- scalar values

    def _scalar_value(self, event: ScalarEvent, span: Span) -> tuple[Any, bool]:
        """The value of a scalar as the core schema reads it; (None, False) once reported."""
        text = event.value
        if event.tag == "!":  # the non-specific tag: always text
            return text, True
        if event.tag is not None:
            if event.tag not in _SCALAR_TAGS:
                self._error("E0111", f"tag `{_show_tag(event.tag)}` is not allowed", self._tag_span(event), _TAG_HINT)
                return None, False
            try:
                return self._construct(event.tag, text), True
            except (ValueError, KeyError, IndexError, TypeError):
                self._error("E0111", f"`{text}` cannot be read as `{_show_tag(event.tag)}`", span,
                            "remove the tag, or write a value of that type")
                return None, False

        assert self.loader is not None  # events come only while a loader reads
        tag = self.loader.resolve(ScalarNode, text, event.implicit)
        if tag in _TEXT_IN_12 or tag not in _SCALAR_TAGS:
            tag = _STR  # YAML 1.2 has no timestamps, `=` or `<<`: they are text
        if tag == _STR and self.str_is_text:  # most scalars: text to YAML 1.1 and 1.2 alike?
            if not event.implicit[0] or (text[:1] not in _YAML12_NOT_TEXT and text.lower() not in _BOOL_WORDS):
                return text, True  # as _construct and _yaml11_surprise would find, in fewer steps
        if tag in (_INT, _FLOAT) and text.count(":") > _MAX_SEXAGESIMAL_PARTS:
            # PyYAML reads base-60 numbers digit group by digit group with ever
            # larger integers: quadratic, 48 s for a 1 MiB `1:1:1:...`, 3 s at 256 KiB. YAML 1.2
            # reads it as text anyway, so say so without computing the number.
            self._error("E0104", f"`{_clip(text)}` is read as a base-60 number by YAML 1.1 but as text by YAML 1.2",
                        span, f'write "{_clip(text)}" in quotes' if len(text) <= 20 else "put the value in quotes")
            return None, False
        try:
            value = self._construct(tag, text)
        except ValueError:  # e.g. an integer with more digits than Python will convert
            self._error("E0101", f"the number `{_clip(text)}` is too long to read", span,
                        "put it in quotes if it is text")
            return None, False
        if event.implicit[0] and self._yaml11_surprise(text, value, span):
            return None, False
        return value, True

    def _construct(self, tag: str, text: str) -> Any:
        assert self.loader is not None
        value = self.loader.yaml_constructors[tag](self.loader, ScalarNode(tag, text))
        if isinstance(value, int) and value.bit_length() > _MAX_INT_BITS:
            # 0x... reads any length, but Python cannot print it in decimal (a message would fail)
            raise ValueError("integer too long")
        return value

    def _yaml11_surprise(self, text: str, value: Any, span: Span) -> bool:
        """Report a plain scalar that YAML 1.1 (PyYAML) and YAML 1.2 read differently."""
        word = text.lower()
        if word in _BOOL_WORDS:
            meant = "true" if _BOOL_WORDS[word] else "false"
            self._error("E0104", f"`{text}` is read as {meant} by YAML 1.1 but as text by YAML 1.2", span,
                        f'YAML 1.1 reads `{text}` as {meant}; write "{text}" in quotes if you mean text, '
                        f"or `{meant}` if you mean {meant}")
            return True
        if type(value) is str and value == text and text[:1] not in _YAML12_NOT_TEXT:
            return False  # text to both: YAML 1.2 reads text otherwise only from these starts
        modern = _yaml12_value(text)
        if _same(value, modern):
            return False
        numbers = [v for v in (value, modern) if isinstance(v, (int, float)) and not isinstance(v, bool)]
        if not numbers:
            hint = f'write "{text}" in quotes'
        elif len(numbers) == 2:
            hint = f"write the number in plain decimal: `{numbers[0]!r}` or `{numbers[1]!r}`, whichever you mean"
        else:
            hint = f'write "{text}" in quotes if you mean text, or `{numbers[0]!r}` if you mean the number'
        self._error("E0104",
                    f"`{text}` is read as {_describe(value)} by YAML 1.1 but as {_describe(modern)} by YAML 1.2",
                    span, hint)
        return True

    # -- checks and reports

    def _check_anchor(self, event: Event) -> None:
        if event.anchor is None:
            return
        name = "&" + event.anchor
        found = self.text.find(name, event.start_mark.index, event.start_mark.index + len(name) + 1024)
        start = found if found >= 0 else event.start_mark.index
        self._error("E0102", f"anchors are not allowed: `{name}`", self._index_span(start, len(name)), _ANCHOR_HINT)

    def _tag_span(self, event: Event) -> Span:
        found = self.text.find("!", event.start_mark.index, event.end_mark.index + 1)
        if found < 0:
            return self._span(event.start_mark, event.end_mark)
        tag = re.compile(r"[^\s,\[\]{}]*").match(self.text, found + 1)
        width = (tag.end() if tag else found + 1) - found  # the pattern matches even nothing
        return self._index_span(found, width)

    def _check_top_level(self) -> None:
        if self.root is None:  # no document at all, only comments, or a lone `---`
            self._error("E0110", "the file is empty; a ruleset is a mapping of settings",
                        Span(self.doc.file, 1, 1), "start with the ruleset's `id:` and `title:`")
        elif not isinstance(self.root, dict):
            self._error("E0110", f"the top level of a ruleset must be a mapping (`key: value` lines), "
                        f"not {_describe(self.root)}", self.doc.spans.get(()) or Span(self.doc.file, 1, 1),
                        "write the settings as `key: value` lines starting in column 1")

    def _syntax_error(self, exc: yaml.MarkedYAMLError) -> Diagnostic:
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        lines = split_lines(self.text)
        source = lines[line - 1] if line <= len(lines) else ""
        message, hint, at = _plain_words(exc, source, column)
        if at is not None:  # a better place than where the parser gave up
            line, column = at
        return error("E0101", message, Span(self.doc.file, line, column, line, column + 1), hint)

    def _reader_error(self, exc: yaml.YAMLError) -> Diagnostic:
        index = getattr(exc, "position", 0) or 0
        line, column = self.doc.position(index)
        character = getattr(exc, "character", None)
        code = ord(character) if isinstance(character, str) else character  # PyYAML gives ord()
        shown = f"U+{code:04X}" if isinstance(code, int) else "here"
        return error("E0101", f"the character {shown} is not allowed in YAML",
                     Span(self.doc.file, line, column, line, column + 1),
                     "remove it; control characters cannot appear in a YAML file")

    def _error(self, code: str, message: str, span: Span, hint: str | None = None) -> None:
        self.doc.diagnostics.append(error(code, message, span, hint))

    def _span(self, start: Mark, end: Mark) -> Span:
        return self._span_of(start.index, end.index)

    def _span_of(self, start: int, end: int) -> Span:
        # From the character indices, which both parsers count alike (at the end of a text
        # without a final line break, libyaml's line and column are those of a line after it).
        starts = self.starts
        line, end_line = bisect_right(starts, start), bisect_right(starts, end)
        return Span(self.file, line, start - starts[line - 1] + 1, end_line, end - starts[end_line - 1] + 1)

    def _index_span(self, index: int, width: int) -> Span:
        line, column = self.doc.position(index)
        return Span(self.doc.file, line, column, line, column + max(width, 1))


# --- YAML syntax errors in plain words ------------------------------------------------

# PyYAML's names for what it expected or found.
_TOKEN_WORDS = {
    "'<block end>'": "the end of the indented block", "<block end>": "the end of the indented block",
    "'<block mapping start>'": "a more indented `key:`", "'<block sequence start>'": "a more indented list",
    "'<scalar>'": "a value", "'<document start>'": "`---`", "<document start>": "`---`",
    "'<stream end>'": "the end of the file", "'<document end>'": "`...`",
    "'?'": "a `key:`", "'-'": "a list item `-`", "':'": "`:`", "','": "`,`",
    "']'": "`]`", "'}'": "`}`", "'['": "`[`", "'{'": "`{`", "<block mapping start>": "a more indented `key:`",
}


def _words(text: str) -> str:
    for token, words in _TOKEN_WORDS.items():
        text = text.replace(token, words)
    return text


def _plain_words(exc: yaml.MarkedYAMLError, source: str, column: int) -> tuple[str, str | None, tuple[int, int] | None]:
    """(message, hint, better position or None) for a PyYAML syntax error, without its jargon."""
    problem, context = exc.problem or "", exc.context or ""
    where = exc.context_mark
    at_line = f"line {where.line + 1}, column {where.column + 1}" if where else ""

    def started(what: str) -> str:
        return f" ({what} {at_line})" if where else ""

    before = source[: column - 1]
    if "\\t" in problem or "tab" in problem or "\t" in before + source[column - 1: column]:
        return (
            "a tab character where YAML expects spaces",
            "YAML indents with spaces only; replace the tab by spaces",
            None,
        )
    if "mapping values are not allowed" in problem:
        if ": " in before or before.rstrip().endswith(":"):
            return ("a second `: ` on one line: YAML reads it as a key inside a value",
                    'if the value contains ": ", put the whole value in quotes', None)
        return (
            "this line is indented further than the line before it, which already has a value",
            "entries of one mapping start in the same column; to nest, leave the value of the line above empty",
            None,
        )
    if "expected <block end>" in problem:
        found = problem.split("but found", 1)[-1].strip()
        if found == "'-'":
            return ("a list item `-` where the next `key:` of the mapping above was expected",
                    "put the list under its key (`key:`, then `  - item` indented), or write `key: value`", None)
        if found == "'?'":
            return (f"a `key:` where the next `- item` of the list above was expected{started('the list starts at')}",
                    "a list and a mapping cannot share one level: start the line with `- `, or indent it", None)
        return (f"this line is indented differently from the ones before it{started('their block starts at')}",
                "entries of one mapping or list start in the same column", None)
    if "could not find expected ':'" in problem:
        at = (where.line + 1, where.column + 1) if where else None
        return ("this line is not a `key: value` entry: its `:` is missing",
                "write `key: value`; a list item starts with `- `", at)
    if "quoted scalar" in context and "end of stream" in problem:
        return (f"this quoted value is never closed{started('its quote opens at')}", "add the closing quote", None)
    if "unknown escape character" in problem:
        return (
            f"`\\{problem.rsplit(' ', 1)[-1].strip(chr(39))}` is not an escape YAML knows (in a double-quoted value)",
            "write `\\\\` for a backslash, or use single quotes, where `\\` is plain text",
            None,
        )
    if "flow sequence" in context or "flow mapping" in context:
        bracket, closing = ("[", "]") if "sequence" in context else ("{", "}")
        return (f"a `{bracket}` is not closed, or two of its entries have no `,` between them{started('it opens at')}",
                f"close it with `{closing}` on the same line, or separate the entries with `,`", None)
    if "cannot start any token" in problem or "expected the node content" in problem:
        char = problem.split("'")[1] if problem.count("'") >= 2 else ""
        shown = "`` ` ``" if char == "`" else f"`{char}`" if char.isprintable() else f"`{char!r}`"
        return (f"a value cannot start with {shown}",
                "put the value in quotes; `@`, `` ` ``, `%`, `}` and `]` cannot start a plain value", None)
    if "scanning an anchor" in context or "scanning an alias" in context or "tag" in context:
        mark = {"anchor": "&", "alias": "*"}.get(next((w for w in ("anchor", "alias") if w in context), ""), "!")
        return (
            f"`{mark}` starts a YAML {'tag' if mark == '!' else context.split()[-1]} here, and a name must follow it",
            f"if `{mark}` is part of the text, put the whole value in quotes",
            None,
        )
    if "directive" in context:
        return ("a line starting with `%` is a YAML directive, which a ruleset cannot use",
                "remove the `%`, or put the value in quotes", None)
    if "block scalar" in context:
        return ("after `|` or `>` only a comment may follow on the same line; the text starts on the next line",
                "move the text to the next line, indented under the key", None)
    if "sequence entries are not allowed" in problem:
        return ("a list item `-` cannot start here, on the line of a key",
                "put each `- item` on its own line, indented under the key, or write the list as `[a, b]`", None)
    if "expected <document start>" in problem or "expected '<document start>'" in problem:
        return ("this line is indented, but the mapping it would belong to has already ended",
                "entries of one mapping start in the same column; check the indentation of the lines above", None)
    message = _words(problem or context or "invalid YAML")
    if problem and context and where:
        message += f" ({_words(context)} at line {where.line + 1}, column {where.column + 1})"
    return message, "check the indentation and the quotes on this line and the one before it", None


_ANCHOR_HINT = "write the value out in full where it is needed; to share settings between files use `extends:`"
_TAG_HINT = "remove the tag; a ruleset holds only text, numbers, true/false, null, lists and mappings"


# --- YAML 1.2 core schema, to spot 1.1 surprises ------------------------------------

_12_NULL = re.compile(r"(?:null|Null|NULL|~)?\Z")
_12_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_12_INT = re.compile(r"[-+]?[0-9]+\Z")
_12_OCT = re.compile(r"0o[0-7]+\Z")
_12_HEX = re.compile(r"0x[0-9a-fA-F]+\Z")
_12_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z")
_12_INF = re.compile(r"[-+]?\.(?:inf|Inf|INF)\Z")
_12_NAN = re.compile(r"\.(?:nan|NaN|NAN)\Z")


#: How every plain scalar starts that YAML 1.2 reads as anything but text (the patterns above;
#: "" is the empty scalar, null): any other is text, and needs none of the patterns.
_YAML12_NOT_TEXT = frozenset("-+.0123456789nNtTfF~") | {""}


def _yaml12_value(text: str) -> Any:
    """How a YAML 1.2 core-schema reader takes the plain scalar ``text``."""
    try:
        if _12_NULL.match(text):
            return None
        if text in _12_BOOL:
            return _12_BOOL[text]
        if _12_INT.match(text):
            return int(text)
        if _12_OCT.match(text) or _12_HEX.match(text):
            number = int(text[2:], 8 if _12_OCT.match(text) else 16)
            return number if number.bit_length() <= _MAX_INT_BITS else text  # too long to print: no opinion
        if _12_FLOAT.match(text):
            return float(text)
        if _12_INF.match(text):
            return -math.inf if text.startswith("-") else math.inf
        if _12_NAN.match(text):
            return math.nan
    except ValueError:  # too many digits to convert: no opinion
        return text
    return text


def _same(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


def _describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    if isinstance(value, str):
        return "text"
    return "a mapping" if isinstance(value, dict) else "a list"


def _show_tag(tag: str) -> str:
    return "!!" + tag[len(_CORE):] if tag.startswith(_CORE) else tag


def _clip(text: str, width: int = 20) -> str:
    return text if len(text) <= width else text[:width] + "..."


# --- positions --------------------------------------------------------------------


_line_starts = line_starts
_position = position


def _offset_map(text: str, info: _StringInfo) -> list[int] | None:
    """Text index of each character of the string (plus one past its end), or None.

    Each map is rebuilt from the raw text and accepted only if it reproduces
    the parsed value exactly, so a case not modelled here falls back to the
    value's start instead of pointing somewhere wrong.
    """
    if info.style == "|":
        positions = _literal_positions(text, info)
    elif info.style in (None, "'") or (info.style == '"' and "\\" not in text[info.start:info.end]):
        positions = _flow_positions(text, info)
    else:
        return None
    if positions is None:
        return None
    chars, where = positions
    if chars != info.value:
        return None
    end = where[-1] + 1 if where else _scalar_start(text, info)
    return where + [end]


def _scalar_start(text: str, info: _StringInfo) -> int:
    """Where the scalar itself begins, after any tag written before it."""
    match = re.compile(r"(?:![^\s]*\s+)*").match(text, info.start, info.end)
    return match.end() if match else info.start


def _raw_lines(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """(start, end) text indices of each line between start and end, breaks excluded."""
    lines, position = [], start
    for match in _BREAK.finditer(text, start, end):
        lines.append((position, match.start()))
        position = match.end()
    lines.append((position, end))
    return lines


def _flow_positions(text: str, info: _StringInfo) -> tuple[str, list[int]] | None:
    """Re-fold a plain or quoted scalar as YAML does, keeping each character's index."""
    start, end = _scalar_start(text, info), info.end
    quote = info.style
    if quote:
        if end - start < 2 or text[start] != quote or text[end - 1] != quote:
            return None
        start, end = start + 1, end - 1
    lines = _raw_lines(text, start, end)
    chars: list[str] = []
    where: list[int] = []
    empty_breaks: list[int] = []  # breaks of blank lines since the last content
    previous_end = start
    last = len(lines) - 1
    for number, (a, b) in enumerate(lines):
        if number > 0:  # folding drops the indentation of continuation lines...
            while a < b and text[a] in " \t":
                a += 1
        if number < last:  # ...and the spaces before every line break
            while b > a and text[b - 1] in " \t":
                b -= 1
        if number > 0:
            if a == b and number < last:
                empty_breaks.append(b)
                continue
            # One break folds to a space; n+1 breaks keep n newlines.
            for index in empty_breaks or [previous_end]:
                chars.append("\n" if empty_breaks else " ")
                where.append(index)
            empty_breaks = []
        k = a
        while k < b:
            chars.append(text[k])
            where.append(k)
            k += 2 if quote == "'" and text[k] == "'" and k + 1 < b and text[k + 1] == "'" else 1
        previous_end = b
    return "".join(chars), where


def _literal_positions(text: str, info: _StringInfo) -> tuple[str, list[int]] | None:
    """Map a literal block: value line k is content line k, shifted by the block's indentation."""
    header_end = _BREAK.search(text, info.start, info.end)
    if header_end is None:
        return None
    lines = _raw_lines(text, header_end.end(), info.end)
    value_lines = info.value.split("\n")
    indent = None
    for k, line in enumerate(value_lines):
        if line and k < len(lines):
            a, b = lines[k]
            indent = (b - a) - len(line)
            break
    if indent is None or indent < 0:
        return None
    chars: list[str] = []
    where: list[int] = []
    for k, line in enumerate(value_lines):
        if k >= len(lines):
            if line == "":  # the final newline of the value
                break
            return None
        a, b = lines[k]
        for c in range(len(line)):
            chars.append(text[a + indent + c] if a + indent + c < b else "")
            where.append(a + indent + c)
        if k < len(value_lines) - 1:
            chars.append("\n")
            where.append(b)
    return "".join(chars), where
