"""A snippet of the effect language after compilation: what a compiled ruleset holds."""

from __future__ import annotations

import ast
import copy
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Callable


@dataclass(frozen=True, repr=False)  # its own __repr__: dataclasses need not write one
class CompiledCode:
    """One snippet of the effect language after compilation.

    ``function`` is the generated Python function. For a card effect it is
    called as ``function(rt)``; for a formula as ``function(rt, *params)``
    with the parameters in the order of ``params``; a hook is called like a
    card effect plus its moment's parameters (``function(rt, player)`` for
    the turn hooks).

    ``pauses``: the function is a generator function (the snippet throws a
    die or asks a choice); the engine drives it with ``send()``, see
    :mod:`targui_dsl.effects.runtime`. Formulas never pause.
    """

    source: str  # the snippet as written in the ruleset
    module: ast.Module = field(compare=False)  # the generated code, compiled into ``function``
    params: tuple[str, ...]
    #: Compiles ``module`` into ``function``: called once, when the function is first asked for.
    make: Callable[[], Callable[..., Any]] = field(compare=False, repr=False)
    file: str | None = None
    line: int | None = None
    pauses: bool = False
    end_reasons: tuple[str, ...] = ()  # the reasons of its `end game` statements, as written
    #: the docstring ``python`` shows ("Compiled effect. Names: _v0 = t."): not in ``module``, so
    #: not compiled into ``function``
    doc: str = ""

    @cached_property
    def function(self) -> Callable[..., Any]:
        """The generated Python function, compiled when first asked for (checking a ruleset, as
        `targui validate` does, never asks: compiling forty snippets was a twentieth of it)."""
        return self.make()

    @cached_property
    def python(self) -> str:
        """The generated code, readable (``ast.unparse``): written out only when asked for (`show
        --compiled`), as a ruleset's forty snippets took a twentieth of `targui validate`."""
        function = self.module.body[0]
        assert isinstance(function, ast.FunctionDef)
        shown = copy.copy(function)  # the same nodes, with the docstring in front
        shown.body = [ast.Expr(ast.Constant(self.doc)), *function.body]
        return ast.unparse(ast.fix_missing_locations(shown))  # its places are set when compiled

    def __repr__(self) -> str:  # the source, not the function and its generated code
        where = f" at {self.file}:{self.line}" if self.file else ""
        return f"<CompiledCode {_clip(self.source)!r}{where}>"


def _clip(text: str, width: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[:width - 3] + "..."
