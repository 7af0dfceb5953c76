"""Where a snippet's generated code is: the places ``compile()`` asks of every node.

A snippet's first call (:func:`targui_dsl.effects.compiler._function`) used
``ast.fix_missing_locations``, which took longer than ``compile()`` itself:
:func:`place_module` sets the same places (a node without a place takes its
parent's) in a walk that skips the nodes that have no place and hold none
(``Load``, ``Store``, operators: a third of a snippet's nodes). The compiled
build (setup.py) compiles this module too.
"""

from __future__ import annotations

import ast
from typing import Any


def place_module(module: ast.Module) -> None:
    """Place every node of ``module`` as ``ast.fix_missing_locations`` would."""
    # One loop over a list of nodes still to place, each with its parent's place, not a call
    # per node: placing took as long as compile() itself (a snippet's first call).
    shapes, visits = _SHAPES, _VISITS
    todo: list[tuple[ast.AST, int, int, int, int]] = [(module, 1, 0, 1, 0)]  # a module has no place
    pop, push = todo.pop, todo.append
    while todo:
        node, line, column, end_line, end_column = pop()
        d = node.__dict__
        placed, fields = shapes.get(node.__class__) or _shape(node.__class__)
        if placed:  # every class with a place has the four (Python 3.8 on)
            if "lineno" in d:
                line = d["lineno"]
            else:
                d["lineno"] = line
            if d.get("end_lineno") is None:
                d["end_lineno"] = end_line
            else:
                end_line = d["end_lineno"]
            if "col_offset" in d:
                column = d["col_offset"]
            else:
                d["col_offset"] = column
            if d.get("end_col_offset") is None:
                d["end_col_offset"] = end_column
            else:
                end_column = d["end_col_offset"]
        for name in fields:
            value: Any = d.get(name)  # a node, a list of them, or a name, a constant, None
            if value.__class__ is list:
                for item in value:
                    visit = visits.get(item.__class__)
                    if visit or visit is None and _visits(item.__class__):
                        push((item, line, column, end_line, end_column))
            else:
                visit = visits.get(value.__class__)
                if visit or visit is None and _visits(value.__class__):
                    push((value, line, column, end_line, end_column))


# per node class: whether it has a place (lineno...), and its fields that may hold nodes; a class
# with neither (Load, Store, an operator: a third of a snippet's nodes) is not visited
_SHAPES: dict[type[ast.AST], tuple[bool, tuple[str, ...]]] = {}
#: per class of a field's value: whether it is visited (a node with a place or fields)
_VISITS: dict[type, bool] = {}


def _shape(cls: type[ast.AST]) -> tuple[bool, tuple[str, ...]]:
    shape = _SHAPES[cls] = ("lineno" in cls._attributes, cls._fields)
    return shape


def _visits(cls: type) -> bool:
    """Whether a value of ``cls`` is visited; a class is looked at once."""
    if issubclass(cls, ast.AST):
        placed, fields = _SHAPES.get(cls) or _shape(cls)
        visit = _VISITS[cls] = placed or bool(fields)
    else:  # a name, a constant's value, None
        visit = _VISITS[cls] = False
    return visit
