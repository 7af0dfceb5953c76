"""One open ruleset file as the server sees it: the front end run on the editor's text (and on
the unsaved text of every other open file of its ``extends`` chain), its diagnostics placed in
the file, and what hover, completion and go to definition read.

Nothing here speaks the protocol: positions are offsets in a :class:`Text`, and
:mod:`targui_dsl.lsp.server` turns them into the protocol's types.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from targui_dsl.effects.vocabulary import Vocabulary
from targui_dsl.engine.protocol import GamePackage
from targui_dsl.frontend.build import Report, build
from targui_dsl.frontend.diagnostics import Diagnostic, sort_key
from targui_dsl.frontend.resolve import file_key, is_builtin_name
from targui_dsl.frontend.resources import builtin_ruleset_path, shown_file
from targui_dsl.frontend.schema import load_schema
from targui_dsl.frontend.yamlload import LoadedDoc
from targui_dsl.games import DEFAULT_GAME, GAMES, game_package
from targui_dsl.lsp import knowledge
from targui_dsl.lsp.outline import Place, place_at
from targui_dsl.lsp.positions import Text

_GAME_LINE = re.compile(r"^game:[ \t]*['\"]?([A-Za-z0-9_-]+)", re.M)


@dataclass(frozen=True)
class Spot:
    """A range in a file: its path (absolute) and offsets in that file's text."""

    path: str
    text: Text
    start: int
    end: int


@dataclass(frozen=True)
class Problem:
    """A diagnostic placed in the open file; ``elsewhere``: where it really is, when that is
    another file of the chain (then it is shown on the file's `extends:`)."""

    diagnostic: Diagnostic
    start: int
    end: int
    message: str
    elsewhere: Spot | None = None


@dataclass
class Analysis:
    """The front end's view of one open file."""

    path: str  # the file, absolute (``file_key``)
    text: Text
    report: Report
    package: GamePackage
    schema: dict
    chain: list[str] = field(default_factory=list)  # every file read, absolute, the file first

    @property
    def vocabulary(self) -> Vocabulary:
        vocabulary: Vocabulary = self.package.vocabulary
        return vocabulary

    @property
    def docs(self) -> list[LoadedDoc]:
        return self.report.resolved.docs if self.report.resolved is not None else []

    def absolute(self, file: str) -> str:
        """A file as a diagnostic names it (relative to the open file's folder), absolute."""
        return file_key(os.path.join(os.path.dirname(self.path), file))

    def text_of(self, file: str) -> Text:
        return Text(self.report.sources.texts.get(file, ""), self.text.encoding)

    # --- diagnostics ---------------------------------------------------------------

    def problems(self) -> list[Problem]:
        """Every diagnostic of the front end, in this file: those of another file of the chain on
        this file's `extends:` (a file extending a broken one says where the trouble is)."""
        own = self.docs[0].file if self.docs else None
        extends = self.docs[0].spans.get(("extends",)) if self.docs else None
        out = []
        for diagnostic in sorted(self.report.diagnostics, key=sort_key):
            span = diagnostic.span
            message = diagnostic.message + (f"\nhint: {diagnostic.hint}" if diagnostic.hint else "")
            if span is None:
                out.append(Problem(diagnostic, 0, 0, message))
                continue
            if span.file == own:
                start, end = _offsets(self.text, span.line, span.column, span.end_line, span.end_column)
                out.append(Problem(diagnostic, start, end, message))
                continue
            there = self.text_of(span.file)
            start, end = _offsets(there, span.line, span.column, span.end_line, span.end_column)
            spot = Spot(self.absolute(span.file), there, start, end)
            if extends is not None:
                here = _offsets(self.text, extends.line, extends.column, extends.end_line, extends.end_column)
            else:
                here = (0, 0)
            out.append(Problem(diagnostic, here[0], here[1], f"in `{span.file}` line {span.line}: {message}", spot))
        return out

    # --- names -----------------------------------------------------------------------

    def place(self, offset: int) -> Place:
        return place_at(self.text, offset)

    def entries(self, sections: tuple[str, ...] | None = None) -> dict[str, knowledge.Entry]:
        return knowledge.entries(self.docs, self.schema, sections)

    def parent(self) -> str | None:
        """The file this one extends (absolute), when the file says so and it can be found."""
        value = self.docs[0].data.get("extends") if self.docs and isinstance(self.docs[0].data, dict) else None
        if not isinstance(value, str):
            value = _extends_line(self.text.text)
        if not value:
            return None
        if is_builtin_name(value):
            try:
                found = builtin_ruleset_path(value)
            except (OSError, ValueError):
                return None
            return file_key(found) if found is not None else None
        return file_key(os.path.join(os.path.dirname(self.path), value))

    def hover(self, offset: int) -> str | None:
        """Markdown for the name at ``offset``, or None."""
        place = self.place(offset)
        if place.on_key:
            entry = self.entries().get(str(place.path[-1])) if place.path else None
            return knowledge.describe_key(self.schema, self.vocabulary, place.path, entry)
        if not place.word:
            return None
        if place.path == ("extends",):
            return self._describe_parent()
        node = knowledge.schema_node(self.schema, place.path)
        if knowledge.is_snippet(node):
            params = knowledge.snippet_params(self.vocabulary, place.path)
            said = knowledge.describe_name(self.vocabulary, place.word, place.after_dot, params)
            if said is not None or place.after_dot:
                return said
        entry = self.entries().get(place.word)
        return knowledge.describe_entry(entry) if entry is not None else None

    def _describe_parent(self) -> str | None:
        if len(self.docs) < 2 or not isinstance(self.docs[1].data, dict):
            return None
        data = self.docs[1].data
        lines = [f"**{data.get('title', data.get('id', ''))}** (`{shown_file(self.docs[1].file)}`)"]
        if isinstance(data.get("description"), str):
            lines.append(data["description"])
        return "\n\n".join(lines)

    def offers(self, offset: int) -> list[knowledge.Offer]:
        """What may be written at ``offset``."""
        place = self.place(offset)
        if place.on_key:
            return list(knowledge.key_offers(self.schema, place.path[:-1], self.entries()))
        node = knowledge.schema_node(self.schema, place.path)
        if knowledge.is_snippet(node):
            params = knowledge.snippet_params(self.vocabulary, place.path)
            ids = self.entries(self.vocabulary.id_sections)
            return list(knowledge.snippet_offers(self.vocabulary, place.after_dot, params, ids))
        if knowledge.is_mapping(node):  # a list item that is a mapping: its first key, typed after `- `
            return list(knowledge.key_offers(self.schema, place.path, self.entries()))
        return list(knowledge.value_offers(self.schema, place.path))

    def definitions(self, offset: int) -> list[Spot]:
        """Where the name at ``offset`` is defined: the file `extends:` names; an id's entries."""
        place = self.place(offset)
        if place.path == ("extends",) and not place.on_key:
            parent = self.parent()
            if parent is None or not os.path.isfile(parent):
                return []
            return [Spot(parent, Text("", self.text.encoding), 0, 0)]
        if not place.word:
            return []
        entry = self.entries().get(place.word)
        if entry is None:
            return []
        out = []
        for doc in entry.docs:
            span = doc.key_spans.get((entry.section, entry.id))
            if span is not None:
                there = Text(doc.text, self.text.encoding)
                start, end = _offsets(there, span.line, span.column, span.end_line, span.end_column)
                out.append(Spot(self.absolute(doc.file), there, start, end))
        return out


def analyse(path: str, texts: Mapping[str, str], encoding: str = "utf-16") -> Analysis:
    """Run the front end on the open file ``path`` (absolute), reading ``texts`` (the editor's
    unsaved files, by ``file_key``) instead of those files."""
    path = file_key(path)
    folder = Path(os.path.dirname(path))
    # `./name`: a path, even for a file named like a built-in ruleset
    report = build("./" + os.path.basename(path), folder, texts)
    text = Text(texts.get(path, ""), encoding)
    name = report.game or _game_named(report, text.text)
    package = game_package(name)
    schema = load_schema(package.schema)
    chain = [file_key(folder / doc.file) for doc in (report.resolved.docs if report.resolved else [])]
    return Analysis(path, text, report, package, schema, chain)


def _game_named(report: Report, text: str) -> str:
    """The game a file that does not build yet is for: its chain's `game:`, else the line
    `game:` of its text, else the default game."""
    for doc in report.resolved.docs if report.resolved is not None else []:
        name: Any = doc.data.get("game") if isinstance(doc.data, dict) else None
        if isinstance(name, str) and name in GAMES:
            return name
    found = _GAME_LINE.search(text)
    return found.group(1) if found and found.group(1) in GAMES else DEFAULT_GAME


def _extends_line(text: str) -> str | None:
    found = re.search(r"^extends:[ \t]*(['\"]?)([^'\"#\r\n]+?)\1[ \t]*(?:#.*)?$", text, re.M)
    return found.group(2) if found else None


def _offsets(text: Text, line: int, column: int, end_line: int | None, end_column: int | None) -> tuple[int, int]:
    start = text.offset_of_span(line, column)
    if end_line is None or end_column is None:
        return start, min(start + 1, len(text.text))
    return start, max(start, text.offset_of_span(end_line, end_column))
