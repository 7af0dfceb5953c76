"""Snippets compiled ahead of time: generated code a game ships as a module of its own.

A snippet's Python function is made at its first call (:func:`targui_dsl.effects.compiler._function`:
``compile()`` of the generated ``ast`` module). A game may also ship the generated code of its
built-in rulesets as an ordinary module (:func:`module_source` writes it; the game's generator writes
the file, and a test holds the file to what the generator writes today). The compiled build
(setup.py's COMPILED) compiles that module with mypyc, and the game registers it (:func:`register`)
where it runs compiled: those snippets run as native code and call the game's compiled runtime
directly, where the interpreter ran ``compile()``'s bytecode. The plain interpreter gains nothing
from the module (the same bytecode), so it compiles every snippet as before.

The module's functions are found by the shape of the generated code (:func:`shape_key`), never by
a ruleset's or a card's name: a snippet whose generated code is exactly one of them (a house rule
that keeps a card's effect, say) gets it, any other is compiled at its first call as before. Only
snippets that need nothing of their own place are shipped: a snippet that counts its steps or
checks a product's size (``_take``, ``_mul``: bound to its file and line) is always compiled.
"""

from __future__ import annotations

import ast
import builtins
import copy
from typing import Any, Callable, Iterable

#: Shipped functions by game (its vocabulary's ``game``: a function takes that game's runtime), then
#: by :func:`shape_key` of the generated module they were written from.
PREBUILT: dict[str, dict[str, Callable[..., Any]]] = {}

#: Names bound per snippet (to its file and line): a snippet naming one is never shipped.
PLACED_NAMES = frozenset({"_take", "_mul"})


def register(game: str, functions: dict[str, Callable[..., Any]]) -> None:
    """Add a game's shipped functions (its generated module's ``PREBUILT``); ``game`` is its
    vocabulary's ``game``."""
    PREBUILT.setdefault(game, {}).update(functions)


def shape_key(module: ast.AST) -> str:
    """The generated code written out whole: its node classes, fields and values, places left out
    (and fields that are empty or None, which Python versions add or drop: 3.12's ``type_params``).
    The key is the text itself, not a digest of it: two snippets share a function only when their
    code is the same."""
    return _dump(module)


def _dump(node: Any) -> str:
    if isinstance(node, ast.AST):
        fields = []
        for name in node._fields:
            value = getattr(node, name, None)
            if value is not None and value != []:
                fields.append(f"{name}={_dump(value)}")
        return f"{node.__class__.__name__}({','.join(fields)})"
    if isinstance(node, list):
        return f"[{','.join(_dump(item) for item in node)}]"
    return repr(node)


def module_source(modules: Iterable[ast.Module], namespace: dict[str, Any], runtime: tuple[str, str],
                  doc: str) -> str:
    """The text of a module shipping ``modules`` (generated snippet modules, each one function):
    the functions named ``_s0``, ``_s1``..., each body under a test that ``rt`` is the game's runtime
    class (``runtime``: its module and name) and again for any other, the parameters and the result
    ``Any``; the compiler's helper names
    (``namespace``: :data:`targui_dsl.effects.compiler._NAMESPACE`) bound by import, a builtin by
    its own name; ``PREBUILT`` maps each :func:`shape_key` to its function. Snippets naming
    :data:`PLACED_NAMES` are left out."""
    plain: dict[str, str] = {}  # the helpers that are builtins (``_sum``: sum)
    for name, value in namespace.items():
        builtin = getattr(value, "__name__", "")
        if getattr(builtins, builtin, None) is value:
            plain[name] = builtin
    functions: dict[str, str] = {}  # by key: the function's text, named by its place in the module
    used: set[str] = set()
    for module in modules:
        key = shape_key(module)
        if key in functions:
            continue
        names = {node.id for node in ast.walk(module) if isinstance(node, ast.Name)}
        if names & PLACED_NAMES:
            continue
        used |= names & (namespace.keys() - plain.keys())
        functions[key] = _function_text(module, f"_s{len(functions)}", plain, runtime[1])
    imports = [f"from {namespace[name].__module__} import {namespace[name].__name__} as {name}"
               for name in sorted(used)]
    lines = [f'"""{doc}"""', "", "# Generated: do not edit (see the docstring).", "# ruff: noqa", "",
             "from __future__ import annotations", "", "from typing import Any", "",
             *imports, f"from {runtime[0]} import {runtime[1]}", ""]
    for text in functions.values():
        lines += ["", text, ""]
    lines += ["", "PREBUILT: dict[str, Any] = {"]
    lines += [f"    {key!r}:\n        _s{index}," for index, key in enumerate(functions)]
    lines += ["}"]
    return "\n".join(lines) + "\n"


class _Builtins(ast.NodeTransformer):
    """The compiler's names for builtins (``_sum``) by their own (``sum``): mypyc compiles a call of a
    builtin it knows to its own code, a call through a module-level name to a generic call."""

    def __init__(self, plain: dict[str, str]) -> None:
        self.plain = plain

    def visit_Name(self, node: ast.Name) -> ast.Name:
        return ast.Name(self.plain.get(node.id, node.id), node.ctx)

    def visit_Call(self, node: ast.Call) -> ast.Call:
        # `sum(gen)` with its start written out: mypyc then adds the whole numbers as machine
        # words (without it, a boxed total and a generic add per element); the same sum
        if isinstance(node.func, ast.Name) and node.func.id == "_sum" and len(node.args) == 1 and not node.keywords:
            node.args.append(ast.Constant(0))
        self.generic_visit(node)
        return node


def _function_text(module: ast.Module, name: str, plain: dict[str, str], runtime: str) -> str:
    function = module.body[0]
    assert isinstance(function, ast.FunctionDef)
    # the body twice: for the game's runtime class (mypyc, knowing the class, calls its methods
    # directly) and for any other runtime (a bot reads formulas over what a player sees)
    body = ast.If(test=ast.Call(ast.Name("isinstance", ast.Load()), [ast.Name("rt", ast.Load()),
                                                                     ast.Name(runtime, ast.Load())], []),
                  body=copy.deepcopy(function.body), orelse=copy.deepcopy(function.body))
    renamed = _Builtins(plain).visit(ast.FunctionDef(
        name=name,
        args=ast.arguments(
            posonlyargs=[], kwonlyargs=[], kw_defaults=[], defaults=[],
            args=[ast.arg(arg.arg, ast.Name("Any", ast.Load())) for arg in function.args.args]),
        body=[body], decorator_list=[], returns=ast.Name("Any", ast.Load())))
    return ast.unparse(ast.fix_missing_locations(ast.Module([renamed], [])))
