"""Where the built-in rulesets and schemas live.

Installed with ``pip install .`` they sit inside the package
(``targui_dsl/rulesets``, ``targui_dsl/schemas``); in a source checkout or an
editable install they are the repository's top-level ``rulesets/`` and
``schemas/`` folders.  This module is the only place that knows both.
"""

from __future__ import annotations

import os
from pathlib import Path

from targui_dsl.games import front_end

_PACKAGE = Path(__file__).resolve().parent.parent


def _data_dir(name: str) -> Path:
    for candidate in (_PACKAGE / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"targui is installed without its {name}/ folder (looked in {_PACKAGE})")


def rulesets_dir() -> Path:
    return _data_dir("rulesets")


def schemas_dir() -> Path:
    return _data_dir("schemas")


def schema_path(name: str) -> Path:
    """A schema file in ``schemas/``, by a name a game package gives (never one from a file)."""
    return schemas_dir() / name


def ruleset_schema_path() -> Path:
    """The default game's ruleset schema (``targui show schema``)."""
    return schema_path(front_end().schema)


def builtin_ruleset_names() -> list[str]:
    """Names of the built-in rulesets that are meant to be played (not the shared base)."""
    return sorted(p.stem for p in rulesets_dir().glob("*.yaml") if not p.stem.startswith("_"))


def example_ruleset_names() -> list[str]:
    """Names of the example house rules shipped in ``rulesets/examples/``."""
    return sorted(p.stem for p in (rulesets_dir() / "examples").glob("*.yaml") if not p.stem.startswith("_"))


def builtin_ruleset_path(name: str) -> Path | None:
    """The file a ruleset name stands for: the built-in of that name, else the example
    house rule of that name (a built-in wins); None if there is neither."""
    folder = rulesets_dir()
    for path in (folder / f"{name}.yaml", folder / "examples" / f"{name}.yaml"):
        try:
            if path.is_file():
                return path
        except (OSError, ValueError):  # a name too long for the file system, a NUL byte
            return None
    return None


BUILTIN_PREFIX = "built-in "


def shown_file(file: str | None) -> str | None:
    """A ruleset file's name on screen. A built-in file of an installed targui (a long
    site-packages path, wherever the working directory is), or of a checkout outside the
    working directory, is named by its place among the built-ins, ``built-in
    original-dutch.yaml``; any other file as it was given (a checkout's own
    ``rulesets/base.yaml`` stays a path to open in an editor)."""
    if not file:
        return file
    try:
        folder = rulesets_dir()
        inside = Path(os.path.abspath(file)).resolve().relative_to(folder.resolve())
    except (ValueError, OSError, RuntimeError):
        return file
    installed = folder == _PACKAGE / "rulesets"
    if installed or os.path.isabs(file):
        return BUILTIN_PREFIX + inside.as_posix()
    return file
