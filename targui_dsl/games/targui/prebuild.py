"""Writes ``_snippets.py``: the generated code of the built-in Targui rulesets' snippets, shipped.

    python -m targui_dsl.games.targui.prebuild     # after changing a built-in ruleset or the code generator

:mod:`targui_dsl.effects.prebuilt` says why: the compiled build (setup.py's COMPILED) compiles the
module with mypyc, so the built-in rulesets' formulas and card effects run as native code calling the
compiled :class:`~targui_dsl.games.targui.runtime.EffectAdapter` directly, and no process compiles
them at its first game. A snippet is found by the shape of its generated code, so a stale module only
makes snippets compile at their first call again; tests/test_effects_prebuilt.py fails until this
has been run.
"""

from __future__ import annotations

from pathlib import Path

from targui_dsl.effects.compiler import _NAMESPACE
from targui_dsl.effects.prebuilt import module_source
from targui_dsl.games.targui.compiled import CompiledRuleset
from targui_dsl.games.targui.drawing import compiled_snippets

TARGET = Path(__file__).with_name("_snippets.py")

DOC = """The built-in Targui rulesets' snippets as Python (effects/prebuilt.py; written by
``python -m targui_dsl.games.targui.prebuild``): each function is the code the effect compiler
generates for one of them, found by the shape of that code. Compiled by the compiled build."""


def source() -> str:
    """The module's text, from every built-in Targui ruleset as the code generator compiles it today."""
    from targui_dsl.frontend.build import load_ruleset
    from targui_dsl.frontend.resolve import builtin_rulesets

    modules = []
    for builtin in builtin_rulesets():
        if builtin.abstract:
            continue
        ruleset = load_ruleset(builtin.name)
        if isinstance(ruleset, CompiledRuleset):
            modules += [code.module for _, code in compiled_snippets(ruleset)]
    return module_source(modules, _NAMESPACE, ("targui_dsl.games.targui.runtime", "EffectAdapter"), DOC)


def main() -> None:
    TARGET.write_text(source(), encoding="utf-8")
    print(f"wrote {TARGET}")


if __name__ == "__main__":
    main()
