"""Follow a ruleset's ``extends:`` chain and merge it into one value.

Merge rules, child over parent: mappings merge key by key, a ``null``
deletes the key, lists and scalars replace.  Every merged value keeps the
position where it was written, in whichever file of the chain that was, so
later stages point at the line that actually needs changing.

Problems are E02xx diagnostics (see ``docs/diagnostics.md``); the E01xx
diagnostics of every file read are passed through.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from targui_dsl.effects.records import Record
from targui_dsl.frontend.diagnostics import Diagnostic, Sources, Span, did_you_mean, error
from targui_dsl.frontend.resources import builtin_ruleset_names, builtin_ruleset_path, example_ruleset_names
from targui_dsl.frontend.safefile import describe_kind
from targui_dsl.frontend.yamlload import LoadedDoc, YamlPath, load_yaml_file, load_yaml_text

__all__ = ["Resolved", "resolve", "MAX_CHAIN", "is_builtin_name", "file_key"]

MAX_CHAIN = 16  # files in one extends chain, the ruleset itself included

# Keys that describe one file rather than the rules: never inherited.
# A base is `abstract: true`; the variants extending it are playable.
_NOT_INHERITED = ("extends", "abstract")


@dataclass(repr=False)  # its own __repr__: dataclasses need not write one
class Resolved:
    """A ruleset with its ``extends`` chain merged (``data`` is None on any error)."""

    data: dict | None
    spans: dict[YamlPath, Span] = field(default_factory=dict)
    key_spans: dict[YamlPath, Span] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)  # display names, the ruleset first
    paths: list[str] = field(default_factory=list)  # the same files' absolute paths (:func:`file_key`)
    sources: Sources = field(default_factory=Sources)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    docs: list[LoadedDoc] = field(default_factory=list)  # parallel to ``files``
    _owners: dict[YamlPath, LoadedDoc] = field(default_factory=dict, repr=False)

    def __repr__(self) -> str:  # one line: the data and the sources are whole files
        state = "merged" if self.data is not None else "not merged"
        return f"<Resolved {' <- '.join(self.files) or '(no file)'}: {state}, {len(self.diagnostics)} diagnostics>"

    @property
    def file_bytes(self) -> tuple[bytes | None, ...]:
        """Each file's bytes as read (None: an unsaved text), parallel to ``files``."""
        return tuple(doc.raw for doc in self.docs)

    def locate(self, path: YamlPath, offset: int) -> Span:
        """Position of character ``offset`` of the string at ``path``, in the file that wrote it."""
        path = tuple(path)
        for cut in range(len(path), -1, -1):
            owner = self._owners.get(path[:cut])
            if owner is not None:
                return owner.locate(path, offset)
        return Span(self.files[0] if self.files else "<ruleset>", 1, 1)


def is_builtin_name(ref: str) -> bool:
    """A reference without a directory part or a YAML suffix names a built-in ruleset."""
    return "/" not in ref and os.sep not in ref and not ref.endswith((".yaml", ".yml"))


def file_key(path: str | os.PathLike) -> str:
    """The absolute, normalised spelling of a path: how ``resolve``'s ``texts`` are keyed."""
    return os.path.normpath(os.path.abspath(path))


def resolve(ref: str, cwd: Path | None = None, texts: Mapping[str, str] | None = None) -> Resolved:
    """Load the ruleset ``ref`` (a built-in name or a path) and everything it extends.

    ``texts`` (keyed by :func:`file_key`) are read instead of the files of those paths: an
    editor's unsaved buffers (``targui lsp``). Each is held to the loader's size cap too.
    """
    texts = texts or {}
    cwd = Path(os.path.abspath(cwd if cwd is not None else os.getcwd()))
    result = Resolved(data=None)

    if is_builtin_name(ref):
        path = _builtin_path(ref)
        if path is None:
            result.diagnostics.append(_unknown_builtin(ref, None))
            return result
    else:
        path = cwd / ref

    via: Span | None = None  # the `extends` value that led to `path`
    seen: list[Path] = []
    while True:
        display = _display(path, cwd)
        if via is not None:
            if _identity(path) in seen:
                chain = " -> ".join(result.files + [display])
                result.diagnostics.append(error("E0202", f"`extends` makes a cycle: {chain}", via,
                                                "a ruleset cannot extend itself, directly or through others"))
                break
            if len(result.docs) >= MAX_CHAIN:
                result.diagnostics.append(error("E0204", f"the `extends` chain is longer than {MAX_CHAIN} files",
                                                via, "extend a ruleset nearer the base"))
                break
            if file_key(path) not in texts and not _is_file(path):
                kind = _kind_of(path)  # a FIFO or a folder exists: say what it is
                what = "does not exist" if kind is None else kind
                result.diagnostics.append(error("E0201", f"`extends` names `{display}`, which {what}",
                                                via, "the path is relative to the file that says `extends`"))
                break
        unsaved = texts.get(file_key(path))
        # Editors do not count a byte-order mark as a column; neither does the loader of files.
        doc = load_yaml_file(path, display) if unsaved is None else load_yaml_text(unsaved.removeprefix("\ufeff"),
                                                                                     display)
        seen.append(_identity(path))
        result.docs.append(doc)
        result.files.append(doc.file)
        result.paths.append(file_key(path))
        result.sources.add(doc.file, doc.text)
        result.diagnostics.extend(doc.diagnostics)
        if doc.data is None or "extends" not in doc.data:
            break
        parent, via = doc.data["extends"], doc.spans[("extends",)]
        if not isinstance(parent, str) or not parent.strip():
            result.diagnostics.append(error("E0203", "`extends` must be the name or path of a ruleset", via,
                                            "write e.g. `extends: original-dutch` or `extends: ../house.yaml`"))
            break
        if is_builtin_name(parent):
            found = _builtin_path(parent)
            if found is None:
                result.diagnostics.append(_unknown_builtin(parent, via))
                break
            path = found
        else:
            path = path.parent / parent

    if not any(d.is_error for d in result.diagnostics):
        _merge_chain(result)
    return result


# --- finding files ------------------------------------------------------------------


def _builtin_path(name: str) -> Path | None:
    try:
        return builtin_ruleset_path(name) if name else None
    except (OSError, ValueError):  # installed without its rulesets; a name the system refuses
        return None


def _builtin_names() -> list[str]:
    try:
        return builtin_ruleset_names()
    except FileNotFoundError:
        return []


class BuiltinRuleset(Record):
    """A built-in ruleset as `targui rulesets` lists it, read with the project's loader."""

    name: str
    title: str
    extends: str | None
    path: Path
    abstract: bool  # only ever extended (`base`): not to be played, shown or offered


def builtin_rulesets() -> list[BuiltinRuleset]:
    """Every built-in ruleset, abstract bases included, in name order."""
    return _listed(_builtin_names())


def example_rulesets() -> list[BuiltinRuleset]:
    """The example house rules (``rulesets/examples/``) that a name reaches because no
    built-in has it, in name order."""
    try:
        names = example_ruleset_names()
    except FileNotFoundError:
        return []
    return [r for r in _listed(names) if r.path.parent.name == "examples"]


def _listed(names: list[str]) -> list[BuiltinRuleset]:
    out = []
    for name in names:
        path = _builtin_path(name)
        if path is None:
            continue
        data = load_yaml_file(path, name).data
        data = data if isinstance(data, dict) else {}
        extends = data.get("extends")
        out.append(BuiltinRuleset(name, str(data.get("title", "")), extends if isinstance(extends, str) else None,
                                  path, data.get("abstract") is True))
    return out


def _unknown_builtin(name: str, span: Span | None) -> Diagnostic:
    # `extends:` may name an abstract base; a command line is offered only what it can play.
    names = _builtin_names() if span is not None else [r.name for r in builtin_rulesets() if not r.abstract]
    try:
        examples = example_ruleset_names()
    except FileNotFoundError:
        examples = []
    hint = did_you_mean(name, names + examples)
    if hint is None:
        paths = "a path to a file must contain a `/` or end in `.yaml`"
        hint = (f"the built-in rulesets are {', '.join(f'`{n}`' for n in names)} (`targui rulesets --all` "
                f"lists the examples too); {paths}" if names else paths)
    return error("E0201", f"there is no built-in ruleset called `{name}`", span, hint)


def _kind_of(path: Path) -> str | None:
    """Why an existing path is not a ruleset file ("is a named pipe (FIFO), not a file; ..."),
    None when nothing is there (or the system refuses to look)."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None
    return describe_kind(mode)


def _is_file(path: Path) -> bool:
    """Whether ``path`` is a file; False where the system refuses to look (a name too long)."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def _identity(path: Path) -> Path:
    """The real path, so that two spellings of one file are seen as one (for cycles)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError, ValueError):  # a symlink loop, a NUL: no file to read anyway
        return Path(os.path.abspath(path))


def _display(path: Path, cwd: Path) -> str:
    """Relative to the working directory when inside it, else absolute."""
    absolute = Path(os.path.normpath(os.path.abspath(path)))
    try:
        return absolute.relative_to(cwd).as_posix()
    except ValueError:
        return str(absolute)


# --- merging -------------------------------------------------------------------------


def _merge_chain(result: Resolved) -> None:
    """Fold the chain from the base down; each file overlays what is above it."""
    merged: dict = {}
    child = result.docs[0]
    for doc in reversed(result.docs):
        assert doc.data is not None  # merged only when every file of the chain loaded
        dropped = ("extends",) if doc is child else _NOT_INHERITED
        overlay = {k: v for k, v in doc.data.items() if k not in dropped}
        _merge_mapping(merged, overlay, doc, (), result)
    result.data = merged


def _merge_mapping(into: dict, overlay: dict, doc: LoadedDoc, path: YamlPath, result: Resolved) -> None:
    # A mapping written in several files is credited to the last one that touched it.
    _record(result, doc, path)
    for key, value in overlay.items():
        sub = path + (key,)
        if sub == ("deck",) and isinstance(value, dict):
            _edit_deck(into, value, doc, result)
            continue
        if value is None:
            if key in into:
                _forget(result, into.pop(key), sub)
        elif isinstance(value, dict) and isinstance(into.get(key), dict):
            _merge_mapping(into[key], value, doc, sub, result)
        else:
            if key in into:
                _forget(result, into[key], sub)
            into[key] = _adopt(value, doc, sub, result)


_DECK_EDITS = ("remove", "add")


def _edit_deck(into: dict, edit: dict, doc: LoadedDoc, result: Resolved) -> None:
    """``deck: {remove: [...], add: [...]}``: change the inherited deck without copying it.

    Removals first, then additions at the end. Kept cards keep the position
    where their parent wrote them; added ones point at this file.
    """
    path = ("deck",)
    for key in edit:
        if key not in _DECK_EDITS:
            result.diagnostics.append(
                error(
                    "E0205",
                    f"unknown key `{key}` in `deck`: a deck written as a mapping changes the inherited deck",
                    doc.key_spans.get(path + (key,)),
                    did_you_mean(str(key), _DECK_EDITS) or "write `add:` and/or `remove:`",
                )
            )
    lists = {}
    for key in _DECK_EDITS:
        value = edit.get(key) or []
        if not isinstance(value, list):
            result.diagnostics.append(
                error(
                    "E0205",
                    f"`deck.{key}` must be a list of card ids",
                    doc.spans.get(path + (key,)),
                    f"write e.g. `deck: {{{key}: [sandstorm]}}`",
                )
            )
            return
        lists[key] = value
    old = into.get("deck")
    if not isinstance(old, list):
        result.diagnostics.append(
            error(
                "E0205",
                "`deck: {add: ..., remove: ...}` changes the deck of the ruleset this one extends, but it has none",
                doc.key_spans.get(path),
                "write the deck as a list of card ids: `deck: [sandstorm, drought]`",
            )
        )
        return
    # Sets, so that long lists cost linear time (ids are text; anything else the schema reports).
    in_old = {c for c in old if isinstance(c, str)}
    removed = {c for c in lists["remove"] if isinstance(c, str)}
    for k, name in enumerate(lists["remove"]):
        if not isinstance(name, str) or name not in in_old:
            shown = name if isinstance(name, str) else repr(name)
            result.diagnostics.append(error(
                "E0205", f"`deck.remove` names `{shown}`, which is not in the inherited deck",
                doc.spans.get(path + ("remove", k)),
                (did_you_mean(name, [c for c in old if isinstance(c, str)]) if isinstance(name, str) else None)
                or "list only ids of the deck this ruleset extends"))
    kept = [(value, result.spans.get(path + (i,)), result._owners.get(path + (i,)))
            for i, value in enumerate(old) if not (isinstance(value, str) and value in removed)]
    _forget(result, old, path)
    deck: list = []
    for value, span, owner in kept:
        if span is not None and owner is not None:
            result.spans[path + (len(deck),)] = span
            result._owners[path + (len(deck),)] = owner
        deck.append(value)
    for k, value in enumerate(lists["add"]):
        result.spans[path + (len(deck),)] = doc.spans[path + ("add", k)]
        result._owners[path + (len(deck),)] = doc
        deck.append(value)
    into["deck"] = deck
    _record(result, doc, path)


def _adopt(value: Any, doc: LoadedDoc, path: YamlPath, result: Resolved) -> Any:
    """A copy of ``value`` with the positions of it and everything in it taken from ``doc``."""
    _record(result, doc, path)
    if isinstance(value, dict):  # a null inside a new mapping deletes nothing: leave it out
        return {k: _adopt(v, doc, path + (k,), result) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_adopt(v, doc, path + (i,), result) for i, v in enumerate(value)]
    return value


def _record(result: Resolved, doc: LoadedDoc, path: YamlPath) -> None:
    result.spans[path] = doc.spans[path]
    result._owners[path] = doc
    if path and isinstance(path[-1], str):
        result.key_spans[path] = doc.key_spans[path]


def _forget(result: Resolved, value: Any, path: YamlPath) -> None:
    """Drop the positions of a value that a child replaced or deleted."""
    result.spans.pop(path, None)
    result.key_spans.pop(path, None)
    result._owners.pop(path, None)
    if isinstance(value, dict):
        for k, v in value.items():
            _forget(result, v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _forget(result, v, path + (i,))
