"""The build's one hook: ``TARGUI_COMPILE=1 pip install .`` compiles the engine with mypyc.

Without ``TARGUI_COMPILE`` (the usual ``pip install .``) nothing is compiled:
the pure-Python install is complete. With it, the modules below (the engine's
hot path: the chance generator, the game's record, flow, rules and public
state, and the built-in rulesets' snippets shipped as Python) are compiled
by mypyc into C extensions installed next to their sources; Python imports
the compiled module where there is one. Where no C compiler is present the
extensions are optional: setuptools warns and the install stays pure Python.
``build_hooks/targui_build.py`` asks the build environment for mypy (which
brings mypyc) only when compiling.
"""

from __future__ import annotations

import os
import sys

from setuptools import setup

#: What the compiled build compiles (docs/engine.md, "A compiled build").
COMPILED = [
    "targui_dsl/engine/chance.py",
    "targui_dsl/engine/kept_tensor.py",
    *(f"targui_dsl/games/targui/{name}.py" for name in (
        "phases", "actions", "record", "tables", "ownership", "runtime", "rules_effects",
        "rules_setup", "rules_round", "rules_fight", "flow", "state",
        "observation", "tensor", "_snippets",
    )),
    "targui_dsl/effects/runtime.py",
    "targui_dsl/effects/placing.py",
    *(f"targui_dsl/games/targi/{name}.py" for name in ("record", "rules", "effects", "flow", "state", "tensor")),
]


def compiling() -> bool:
    return os.environ.get("TARGUI_COMPILE", "").strip().lower() in ("1", "yes", "true", "on")


def compiled_extensions() -> list:
    if not compiling():
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("TARGUI_COMPILE: mypyc is not installed; installing pure Python", file=sys.stderr)
        return []
    extensions = mypycify(COMPILED, opt_level="3")
    for extension in extensions:
        extension.optional = True  # no C compiler: a warning, and the pure-Python modules are used
    return extensions


setup(ext_modules=compiled_extensions())
