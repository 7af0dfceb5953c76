"""Which ruleset a study plays, as a value a worker on another machine can compile by itself.

A :class:`RulesetSource` is a built-in name, or the YAML texts of a house
rule and of every file of its ``extends`` chain (with their places relative
to one another), so a worker needs no shared disk. Built-in rulesets in the
chain travel by name with a digest of their text: a worker whose installed
copy differs refuses to play rather than play other rules.

:func:`compile_source` compiles a source once per process and caches it.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import threading
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from targui_dsl.frontend.resolve import is_builtin_name, resolve
from targui_dsl.frontend.resources import builtin_ruleset_path
from targui_dsl.games.targui.compiled import CompiledRuleset

__all__ = ["RulesetSource", "SourceMismatch", "compile_source", "remember_compiled"]


class SourceMismatch(RuntimeError):
    """A worker's installed built-in ruleset is not the one the study was started with."""


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class RulesetSource:
    """A ruleset reference that carries what it needs: see the module docstring."""

    reference: str  # as the user wrote it, for messages
    files: tuple[tuple[str, str], ...] = ()  # (path relative to a common root, text); the ruleset's own first
    builtins: tuple[tuple[str, str], ...] = ()  # (built-in name, sha256 of its text) met in the chain

    @classmethod
    def from_reference(cls, ref: str, cwd: Path | None = None) -> RulesetSource:
        """Read the ruleset ``ref`` and its chain (raises ValueError if it cannot be read; check it first)."""
        ref = os.fspath(ref)
        cwd = Path(os.path.abspath(cwd if cwd is not None else os.getcwd()))
        resolved = resolve(ref, cwd)
        if resolved.data is None or not resolved.docs:
            raise ValueError(f"cannot read ruleset {ref}")
        via_name = [is_builtin_name(ref)]
        for doc in resolved.docs[:-1]:
            parent = doc.data.get("extends") if isinstance(doc.data, dict) else None
            via_name.append(isinstance(parent, str) and is_builtin_name(parent))
        names: list[tuple[str, str]] = []
        paths: list[tuple[str, str]] = []
        for doc, by_name, display in zip(resolved.docs, via_name, resolved.files, strict=False):
            if by_name:
                names.append((Path(display).stem, _sha(doc.text)))
            else:
                paths.append((os.path.normpath(os.path.join(cwd, display)), doc.text))
        if paths:
            root = os.path.commonpath([os.path.dirname(p) for p, _ in paths])
            files = tuple((Path(os.path.relpath(p, root)).as_posix(), text) for p, text in paths)
        else:
            files = ()
        return cls(ref, files, tuple(names))

    @property
    def builtin(self) -> bool:
        """Whether the ruleset itself is a built-in (its files travel by name)."""
        return not self.files

    @cached_property
    def digest(self) -> str:
        """A digest of the rules themselves (not of where the files are): the same rules, the same digest.
        Worked out once per source (every chunk asks for its compiled ruleset by it; a chunk sent to a
        worker carries it along)."""
        return _sha(json.dumps([self.files, self.builtins] if self.files else [self.builtins]))[:32]


_compiled: dict[str, CompiledRuleset] = {}
_lock = threading.Lock()


def remember_compiled(source: RulesetSource, ruleset: CompiledRuleset) -> None:
    """Cache a ruleset compiled elsewhere (the parent's, which forked workers inherit)."""
    with _lock:
        _compiled[source.digest] = ruleset


def compile_source(source: RulesetSource) -> CompiledRuleset:
    """The compiled ruleset of ``source``, compiled at most once per process (raises RulesetError)."""
    key = source.digest
    ruleset = _compiled.get(key)
    if ruleset is not None:
        return ruleset
    with _lock:
        ruleset = _compiled.get(key)
        if ruleset is None:
            ruleset = _compiled[key] = _compile(source)
    return ruleset


def _compile(source: RulesetSource) -> CompiledRuleset:
    from targui_dsl.frontend.build import load_ruleset

    for name, digest in source.builtins:
        path = builtin_ruleset_path(name)
        if path is None or _sha(path.read_text(encoding="utf-8")) != digest:
            raise SourceMismatch(f"this worker's built-in ruleset `{name}` differs from the one the study "
                                 "was started with (install the same targui on every worker)")
    if not source.files:
        return load_ruleset(source.builtins[0][0])
    with tempfile.TemporaryDirectory(prefix="targui-study-") as tmp:
        for relative, text in source.files:
            path = Path(tmp, relative)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        return load_ruleset(str(Path(tmp, source.files[0][0])), cwd=Path(tmp))
