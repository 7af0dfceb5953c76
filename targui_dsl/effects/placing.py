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


def place_module(module: ast.Module) -> None:
    """Place every node of ``module`` as ``ast.fix_missing_locations`` would."""
    _place_children(module, 1, 0, 1, 0)  # a module has no place of its own


# per node class: whether it has a place (lineno...), and its fields that may hold nodes; a class
# with neither (Load, Store, an operator: a third of a snippet's nodes) is not visited
_SHAPES: dict[type[ast.AST], tuple[bool, tuple[str, ...]]] = {}


def _shape(cls: type[ast.AST]) -> tuple[bool, tuple[str, ...]]:
    shape = _SHAPES[cls] = ("lineno" in cls._attributes, cls._fields)
    return shape


def place(node: ast.AST, line: int, column: int, end_line: int, end_column: int) -> None:
    """What ``ast.fix_missing_locations`` does for a node with a place and those below it."""
    d = node.__dict__
    if "lineno" in d:  # every class with a place has the four (Python 3.8 on)
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
    _place_children(node, line, column, end_line, end_column)


def _place_children(node: ast.AST, line: int, column: int, end_line: int, end_column: int) -> None:
    shapes = _SHAPES
    for name in node._fields:
        value = node.__dict__.get(name)
        for item in value if value.__class__ is list else (value,):
            if isinstance(item, ast.AST):
                cls = item.__class__
                placed, fields = shapes.get(cls) or _shape(cls)
                if placed:
                    place(item, line, column, end_line, end_column)
                elif fields:
                    _place_children(item, line, column, end_line, end_column)
