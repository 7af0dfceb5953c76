"""The syntax tree of the effect language: typed, immutable, positioned.

The parser (:mod:`targui_dsl.effects.parser`) builds these from Lark's
tree; the compiler reads them.  Every node carries a :class:`Pos` inside
its snippet so that diagnostics and generated code can point back at it.
Sequences are tuples so that nodes stay hashable and immutable.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from typing_extensions import dataclass_transform
else:  # only type checkers read it (typing has it from Python 3.11 on)

    def dataclass_transform(**_: object) -> Callable[[type], type]:
        return lambda cls: cls


@dataclass_transform(frozen_default=True)
class _Record(type):
    """Makes a class a frozen record with slots, as ``@dataclass(frozen=True, slots=True)`` does:
    its fields are its annotations after its bases', set by position (or by name) once, compared,
    hashed and shown by value. No code is generated: dataclasses compiles five functions per
    class, which for these 35 classes was a tenth of `targui validate`."""

    _fields: tuple[str, ...]
    _setters: tuple[Callable[[Any, Any], None], ...]

    def __new__(mcs, name: str, bases: tuple[type, ...], namespace: dict[str, Any]) -> _Record:
        own = tuple(namespace.get("__annotations__", {}))
        fields = tuple(field for base in bases for field in getattr(base, "_fields", ())) + own
        namespace.update(__slots__=own, __match_args__=fields, _fields=fields)
        cls = super().__new__(mcs, name, bases, namespace)
        # each slot's own descriptor, found in the class that declares it: the fastest way to set it
        cls._setters = tuple(next(k.__dict__[f] for k in cls.__mro__ if f in k.__dict__).__set__ for f in cls._fields)
        return cls


class _Frozen(metaclass=_Record):
    """What every record shares: construction, equality, hash, repr, copying."""

    def __init__(self, *values: Any, **named: Any) -> None:
        cls = type(self)
        if named:
            values = _by_name(cls, values, named)
        if len(values) != len(cls._fields):
            raise TypeError(f"{cls.__name__}() takes {len(cls._fields)} values ({', '.join(cls._fields)}), "
                            f"not {len(values)}")
        for set_value, value in zip(cls._setters, values, strict=True):
            set_value(self, value)

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in type(self)._fields)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, _Frozen)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in type(self)._fields)
        return f"{type(self).__qualname__}({shown})"

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:  # copy and pickle by value, through __init__
        return type(self), self._values()


def _by_name(cls: _Record, values: tuple[Any, ...], named: dict[str, Any]) -> tuple[Any, ...]:
    """The values in field order, from the positional ones and then the named ones."""
    rest = cls._fields[len(values):]
    unknown = set(named) - set(rest)
    if unknown:
        raise TypeError(f"{cls.__name__}() got unexpected or repeated fields: {', '.join(sorted(unknown))}")
    missing = [name for name in rest if name not in named]
    if missing:
        raise TypeError(f"{cls.__name__}() is missing {', '.join(missing)}")
    return values + tuple(named[name] for name in rest)


def fields_of(node: _Frozen) -> tuple[str, ...]:
    """The names of a node's fields, in order (what ``dataclasses.fields`` gave)."""
    return type(node)._fields


class Pos(_Frozen):
    """Where a node is inside its snippet.

    ``line``/``column`` count from 1; ``end_line``/``end_column`` point just
    past the node.  ``start``/``end`` are character offsets into the snippet
    (end exclusive): what ``locate`` maps to a file position.
    """

    line: int
    column: int
    end_line: int
    end_column: int
    start: int
    end: int


class Node(_Frozen):
    pos: Pos


# Expressions ---------------------------------------------------------------


class Expr(Node):
    pass


class IntLit(Expr):
    value: int
    text: str  # as written: the compiler checks the size limit on it


class BoolLit(Expr):
    value: bool


class NobodyLit(Expr):
    pass


class RoundLit(Expr):
    """The reserved word ``round``: the current round number."""


class Name(Expr):
    name: str


class Field(Expr):
    base: Expr
    name: str
    name_pos: Pos


class Neg(Expr):
    operand: Expr


class BinOp(Expr):
    op: str  # one of + - * // / %
    left: Expr
    right: Expr
    op_pos: Pos


class Compare(Expr):
    op: str  # one of == != < <= > >=
    left: Expr
    right: Expr
    op_pos: Pos


class BoolOp(Expr):
    op: str  # "and" or "or"
    left: Expr
    right: Expr


class Not(Expr):
    operand: Expr


class ListLit(Expr):
    """``[a, b, ...]``: only allowed on the right of ``in``."""

    items: tuple[Expr, ...]


class Membership(Expr):
    negated: bool  # ``not in``
    item: Expr
    container: Expr  # a ListLit or a collection-valued expression


class IfExp(Expr):
    cond: Expr
    then: Expr
    orelse: Expr


class Call(Expr):
    """``f(a, b, ...)``: ``min``/``max``/``sum`` with plain arguments, or an unknown name."""

    func: str
    func_pos: Pos
    args: tuple[Expr, ...]


class RangeLit(Expr):
    """``LOW..HIGH``: the whole numbers from LOW to HIGH, both included.

    Only a loop's, a choice's or an aggregate's collection.
    """

    low: Expr
    high: Expr


class Binder(Node):
    """``VAR in COLLECTION [where COND]``, shared by loops and aggregates."""

    var: str
    var_pos: Pos
    collection: Expr
    where: Expr | None


class Aggregate(Expr):
    """``sum|min|max(ELEMENT for BINDER)``."""

    func: str
    func_pos: Pos
    element: Expr
    binder: Binder


class Quantifier(Expr):
    """``count|any|all(BINDER)``."""

    func: str
    func_pos: Pos
    binder: Binder


# Statements ----------------------------------------------------------------


class Stmt(Node):
    pass


class For(Stmt):
    binder: Binder
    body: tuple[Stmt, ...]


class If(Stmt):
    cond: Expr
    body: tuple[Stmt, ...]
    orelse: tuple[Stmt, ...]  # ``else if`` is a single nested If


class Assign(Stmt):
    target: Expr  # a Name or Field as parsed; the compiler checks it is assignable
    op: str  # "=", "+=" or "-="
    op_pos: Pos
    value: Expr
    this_round: Pos | None  # where ``this round`` was written, if it was


class Let(Stmt):
    """``let NAME = VALUE``: a local name for the rest of the enclosing block."""

    name: str
    name_pos: Pos
    value: Expr


class Choose(Stmt):
    """``CHOOSER chooses BINDER { BODY }``: a player picks one of the options."""

    chooser: Expr  # a Name or Field (a dotted name)
    binder: Binder
    body: tuple[Stmt, ...]


class Move(Stmt):
    """``move COUNT from SOURCE to TARGET``: an amount from one element to another.

    Not through the supply (the game says which).
    """

    count: Expr
    source: Expr
    target: Expr


class EndGame(Stmt):
    """``end game "REASON"``: the game ends at once; ``reason`` is the text between the quotes."""

    reason: str
    reason_pos: Pos


class Break(Stmt):
    """``break``: the innermost ``for`` ends at once."""


class Argument(Node):
    """``NAME = VALUE``: one argument of a procedure, given by name."""

    name: str
    name_pos: Pos
    value: Expr


class Perform(Stmt):
    """``NAME(ARG = VALUE, ...)``: one of the game's procedures (its vocabulary's table)."""

    name: str
    name_pos: Pos
    args: tuple[Argument, ...]


# Snippets ------------------------------------------------------------------


class Effect(Node):
    body: tuple[Stmt, ...]


class Formula(Node):
    expr: Expr
