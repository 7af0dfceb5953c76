"""Check effect-language snippets and compile them to Python functions.

Pipeline: :func:`~targui_dsl.effects.parser.parse` -> one checking pass over
the nodes that resolves names against the game's vocabulary
(:class:`~targui_dsl.effects.vocabulary.Environment`), infers types and, at
the same time, builds Python ``ast`` nodes (expressions:
:mod:`~targui_dsl.effects.expressions`, statements and the function:
:mod:`~targui_dsl.effects.statements`) -> ``compile()`` -> the function, run
against the game's runtime passed as ``rt``.

Safety rests on three rules: code is built from ``ast`` nodes only (no text
is ever evaluated); no identifier written by the user becomes a Python
identifier (loop variables are ``_v0``, ``_v1``..., parameters ``_p0``...,
a ruleset's ids are integer constants); and every field access is a call
of a runtime method named in the vocabulary.  The function runs
with empty ``__builtins__`` plus the helpers in :data:`_NAMESPACE`.

The checker reports every error it can find in one pass; when there is
any, nothing is compiled.
"""

from __future__ import annotations

import ast
import bisect
import inspect
from functools import partial
from typing import Any, Callable

from targui_dsl.effects.code import CompiledCode
from targui_dsl.effects.parser import Problem, parse
from targui_dsl.effects.placing import place_module
from targui_dsl.effects.prebuilt import PREBUILT, shape_key
from targui_dsl.effects.runtime import (
    MAX_ROLL_SIDES,
    ChoiceRequest,
    RollRequest,
    budget_taker,
    multiplier,
)
from targui_dsl.effects.statements import SnippetEmitter
from targui_dsl.effects.types import Type
from targui_dsl.effects.vocabulary import Environment
from targui_dsl.frontend.diagnostics import Diagnostic, Span, error

__all__ = ["Environment", "compile_effect", "compile_formula"]

Locate = Callable[[int], Span]

#: The file name of diagnostics when no ``locate`` is given.
SNIPPET_FILE = "<effect>"


# --- helpers the generated code may call ----------------------------------------


def _floordiv(a: int, b: int) -> int:
    # Division by zero gives 0: effects are total, a card never crashes a game.
    return a // b if b else 0


def _mod(a: int, b: int) -> int:
    return a % b if b else 0


def _get(method: Callable[[int], Any], value: int | None, default: Any) -> Any:
    """A field of something that may be nobody: the default when it is."""
    return default if value is None else method(value)


def _range(low: int, high: int) -> range:
    """``low..high``, both included (empty when high < low)."""
    return range(low, high + 1)


def _present(items: tuple[Any, ...]) -> tuple[Any, ...]:
    """A written list's elements that exist (a player or territory may be nobody at run time)."""
    return tuple(item for item in items if item is not None)


def _distinct(items: tuple[Any, ...]) -> tuple[Any, ...]:
    """A choice's options, each once, in the order written (`[erg, erg]` offers erg once)."""
    return tuple(dict.fromkeys(items))


def _sides(sides: int) -> int:
    return max(1, min(MAX_ROLL_SIDES, sides))


# Bound by the compiler, never looked up from user text: generated code only
# names these (all start with `_`), `rt`, and its own `_v`/`_p`/`_t`/`_a_` locals.
_NAMESPACE: dict[str, Any] = {
    "_floordiv": _floordiv,
    "_mod": _mod,
    "_get": _get,
    "_sum": sum,
    "_tuple": tuple,  # a collection fixed before its loop, where no step can be past the budget
    "_min": min,
    "_max": max,
    "_any": any,
    "_all": all,
    "_range": _range,
    "_present": _present,
    "_distinct": _distinct,
    "_sides": _sides,
    "_Roll": RollRequest,
    "_Choice": ChoiceRequest,
}


# --- public API ------------------------------------------------------------------


def compile_effect(
    source: str, env: Environment, locate: Locate | None = None
) -> tuple[CompiledCode | None, list[Diagnostic]]:
    """Compile a card effect: ``function(rt)``, returning None."""
    return _compile(source, env, locate, "effect", None)


def compile_formula(
    source: str, env: Environment, locate: Locate | None = None, expected: Type = Type.INT
) -> tuple[CompiledCode | None, list[Diagnostic]]:
    """Compile a formula: ``function(rt, *params)`` returning a value of type ``expected``."""
    return _compile(source, env, locate, "formula", expected)


def _compile(
    source: str, env: Environment, locate: Locate | None, what: str, expected: Type | None
) -> tuple[CompiledCode | None, list[Diagnostic]]:
    to_span = _spanner(source, locate)
    tree, problems = parse(source, what, env.vocabulary.examples.syntax)
    if tree is None:
        return None, [_diagnostic(p, to_span) for p in problems]
    compiler = SnippetEmitter(env, source, what)
    module = compiler.module(tree, what, expected)
    if compiler.problems:
        ordered = sorted(compiler.problems, key=lambda p: (p.start, p.end, p.code))
        return None, [_diagnostic(p, to_span) for p in ordered]
    where = to_span(0, 0)
    return (
        CompiledCode(
            source=source,
            module=module,
            params=tuple(env.params),
            file=where.file,
            line=where.line,
            pauses=compiler.pauses,
            end_reasons=tuple(compiler.end_reasons),
            doc=compiler.doc,
            make=partial(_function, module, what, where.file, where.line, compiler.pauses, env.vocabulary.game),
        ),
        [],
    )


def _function(module: ast.Module, what: str, file: str, line: int, pauses: bool, game: str) -> Callable[..., Any]:
    """The Python function of a checked snippet, made when it is first called: the checks above
    found every error, so checking a ruleset (`targui validate`) never compiles its snippets.
    A snippet whose generated code a game ships (:mod:`targui_dsl.effects.prebuilt`) takes the
    shipped function instead (compiled by mypyc in the compiled build)."""
    shipping = PREBUILT.get(game)
    if shipping:
        shipped = shipping.get(shape_key(module))
        if shipped is not None:
            return shipped
    place_module(module)
    code_object = compile(module, f"<{what} {file}:{line}>", "exec")
    namespace: dict[str, Any] = {
        "__builtins__": {},
        **_NAMESPACE,
        "_take": budget_taker(file, line),
        "_mul": multiplier(file, line),
    }
    exec(code_object, namespace)
    function: Callable[..., Any] = namespace[what]
    if inspect.isgeneratorfunction(function) is not pauses:  # the engine drives it by `pauses`
        raise AssertionError(f"<{what} {file}:{line}>: pauses is {pauses}, but the code says otherwise")
    return function


def _diagnostic(problem: Problem, to_span: Callable[[int, int], Span]) -> Diagnostic:
    return error(problem.code, problem.message, to_span(problem.start, problem.end), problem.hint)


def _spanner(source: str, locate: Locate | None) -> Callable[[int, int], Span]:
    """``(start, end)`` offsets in the snippet -> a Span in the file."""
    size = len(source)

    if locate is None:
        starts = [0] + [i + 1 for i, c in enumerate(source) if c == "\n"]

        def point(offset: int) -> tuple[str, int, int]:
            offset = max(0, min(offset, size))
            row = bisect.bisect_right(starts, offset) - 1
            return SNIPPET_FILE, row + 1, offset - starts[row] + 1

    else:

        def point(offset: int) -> tuple[str, int, int]:
            if size == 0:
                span = locate(0)
                return span.file, span.line, span.column
            if offset < size:
                span = locate(max(offset, 0))
                return span.file, span.line, span.column
            # Just past the end: locate may not accept offset == len(source).
            span = locate(size - 1)
            return span.file, span.line, span.column + (offset - size + 1)

    def to_span(start: int, end: int) -> Span:
        file, line, column = point(start)
        if end > start:
            _, end_line, end_column = point(end - 1)
            end_column += 1
        else:
            end_line, end_column = line, column
        return Span(file, line, column, end_line, end_column)

    return to_span
