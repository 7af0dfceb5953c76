"""The syntax tree of the effect language: typed, immutable, positioned.

The parser (:mod:`targui_dsl.effects.parser`) builds these from Lark's
tree; the compiler reads them.  Every node carries a :class:`Pos` inside
its snippet so that diagnostics and generated code can point back at it.
Sequences are tuples so that nodes stay hashable and immutable.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pos:
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


@dataclass(frozen=True, slots=True)
class Node:
    pos: Pos


# Expressions ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Expr(Node):
    pass


@dataclass(frozen=True, slots=True)
class IntLit(Expr):
    value: int
    text: str  # as written: the compiler checks the size limit on it


@dataclass(frozen=True, slots=True)
class BoolLit(Expr):
    value: bool


@dataclass(frozen=True, slots=True)
class NobodyLit(Expr):
    pass


@dataclass(frozen=True, slots=True)
class RoundLit(Expr):
    """The reserved word ``round``: the current round number."""


@dataclass(frozen=True, slots=True)
class Name(Expr):
    name: str


@dataclass(frozen=True, slots=True)
class Field(Expr):
    base: Expr
    name: str
    name_pos: Pos


@dataclass(frozen=True, slots=True)
class Neg(Expr):
    operand: Expr


@dataclass(frozen=True, slots=True)
class BinOp(Expr):
    op: str  # one of + - * // / %
    left: Expr
    right: Expr
    op_pos: Pos


@dataclass(frozen=True, slots=True)
class Compare(Expr):
    op: str  # one of == != < <= > >=
    left: Expr
    right: Expr
    op_pos: Pos


@dataclass(frozen=True, slots=True)
class BoolOp(Expr):
    op: str  # "and" or "or"
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class Not(Expr):
    operand: Expr


@dataclass(frozen=True, slots=True)
class ListLit(Expr):
    """``[a, b, ...]``: only allowed on the right of ``in``."""

    items: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Membership(Expr):
    negated: bool  # ``not in``
    item: Expr
    container: Expr  # a ListLit or a collection-valued expression


@dataclass(frozen=True, slots=True)
class IfExp(Expr):
    cond: Expr
    then: Expr
    orelse: Expr


@dataclass(frozen=True, slots=True)
class Call(Expr):
    """``f(a, b, ...)``: ``min``/``max``/``sum`` with plain arguments, or an unknown name."""

    func: str
    func_pos: Pos
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class RangeLit(Expr):
    """``LOW..HIGH``: the whole numbers from LOW to HIGH, both included.

    Only a loop's, a choice's or an aggregate's collection.
    """

    low: Expr
    high: Expr


@dataclass(frozen=True, slots=True)
class Binder(Node):
    """``VAR in COLLECTION [where COND]``, shared by loops and aggregates."""

    var: str
    var_pos: Pos
    collection: Expr
    where: Expr | None


@dataclass(frozen=True, slots=True)
class Aggregate(Expr):
    """``sum|min|max(ELEMENT for BINDER)``."""

    func: str
    func_pos: Pos
    element: Expr
    binder: Binder


@dataclass(frozen=True, slots=True)
class Quantifier(Expr):
    """``count|any|all(BINDER)``."""

    func: str
    func_pos: Pos
    binder: Binder


# Statements ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Stmt(Node):
    pass


@dataclass(frozen=True, slots=True)
class For(Stmt):
    binder: Binder
    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class If(Stmt):
    cond: Expr
    body: tuple[Stmt, ...]
    orelse: tuple[Stmt, ...]  # ``else if`` is a single nested If


@dataclass(frozen=True, slots=True)
class Assign(Stmt):
    target: Expr  # a Name or Field as parsed; the compiler checks it is assignable
    op: str  # "=", "+=" or "-="
    op_pos: Pos
    value: Expr
    this_round: Pos | None  # where ``this round`` was written, if it was


@dataclass(frozen=True, slots=True)
class Let(Stmt):
    """``let NAME = VALUE``: a local name for the rest of the enclosing block."""

    name: str
    name_pos: Pos
    value: Expr


@dataclass(frozen=True, slots=True)
class Choose(Stmt):
    """``CHOOSER chooses BINDER { BODY }``: a player picks one of the options."""

    chooser: Expr  # a Name or Field (a dotted name)
    binder: Binder
    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class Move(Stmt):
    """``move COUNT from SOURCE to TARGET``: an amount from one element to another.

    Not through the supply (the game says which).
    """

    count: Expr
    source: Expr
    target: Expr


@dataclass(frozen=True, slots=True)
class EndGame(Stmt):
    """``end game "REASON"``: the game ends at once; ``reason`` is the text between the quotes."""

    reason: str
    reason_pos: Pos


@dataclass(frozen=True, slots=True)
class Break(Stmt):
    """``break``: the innermost ``for`` ends at once."""


@dataclass(frozen=True, slots=True)
class Argument(Node):
    """``NAME = VALUE``: one argument of a procedure, given by name."""

    name: str
    name_pos: Pos
    value: Expr


@dataclass(frozen=True, slots=True)
class Perform(Stmt):
    """``NAME(ARG = VALUE, ...)``: one of the game's procedures (its vocabulary's table)."""

    name: str
    name_pos: Pos
    args: tuple[Argument, ...]


# Snippets ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Effect(Node):
    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class Formula(Node):
    expr: Expr
