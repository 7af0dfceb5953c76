"""The syntax tree of the effect language: typed, immutable, positioned.

The parser (:mod:`targui_dsl.effects.parser`) builds these from Lark's
tree; the compiler reads them.  Every node carries a :class:`Pos` inside
its snippet so that diagnostics and generated code can point back at it.
Sequences are tuples so that nodes stay hashable and immutable.
"""

from __future__ import annotations

from targui_dsl.effects.records import Record
from targui_dsl.effects.records import fields_of as fields_of  # the walkers' way through any node


class Pos(Record):
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


class Node(Record):
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
