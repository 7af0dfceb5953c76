"""The rulesets the adapters play, compiled once per process (per version of a file)."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from targui_dsl.frontend.build import load_ruleset
from targui_dsl.games.targui.compiled import CompiledRuleset


@lru_cache(maxsize=32)
def _load(ref: str, stamp: tuple[int, int] | None) -> CompiledRuleset:
    del stamp  # part of the cache key only: an edited file is compiled again
    return load_ruleset(ref)


def ruleset(ref: str | os.PathLike[str]) -> CompiledRuleset:
    """A built-in name or a path, compiled (``RulesetError`` with its diagnostics)."""
    path = Path(ref)
    if path.is_file():
        info = path.stat()
        return _load(os.path.abspath(path), (info.st_mtime_ns, info.st_size))
    return _load(os.fspath(ref), None)
