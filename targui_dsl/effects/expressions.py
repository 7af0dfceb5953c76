"""The expression half of the effect compiler: names, scopes and expressions.

One pass over the nodes resolves names against the scopes and the game's
vocabulary, infers types, reports every problem it finds and builds the
Python ``ast`` of each expression (:class:`ExpressionEmitter`). The
statements and the function around them are
:mod:`targui_dsl.effects.statements`; :mod:`targui_dsl.effects.compiler`
runs the pass and compiles the result.

No identifier written by the user becomes a Python identifier: loop
variables are ``_v0``..., parameters ``_p0``..., ids integer constants, and
every field is read through a runtime method named in the vocabulary.
"""

from __future__ import annotations

import ast
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Mapping, TypeVar

from targui_dsl.effects import nodes as n
from targui_dsl.effects.names import FUNCTIONS
from targui_dsl.effects.parser import Problem
from targui_dsl.effects.records import Record
from targui_dsl.effects.runtime import MAX_ROLL_SIDES, MAX_VALUE
from targui_dsl.effects.types import Type
from targui_dsl.effects.vocabulary import Environment, Field, Memory
from targui_dsl.frontend.diagnostics import did_you_mean

#: Integer literals above this are refused (E0511).
MAX_INT = MAX_VALUE

#: What reading a field through nobody gives, by the field's type.
_DEFAULTS: dict[Type, Any] = {Type.INT: 0, Type.BOOL: False}

_FUNCTIONS = tuple(FUNCTIONS)


class Val:
    """A checked expression: its type (None after an error already reported) and code. A plain
    class: one is made for every expression checked, and a dataclass is compiled at every start."""

    __slots__ = ("type", "code", "nullable", "is_nobody")

    def __init__(self, type: Type | None, code: ast.expr, nullable: bool = False, is_nobody: bool = False) -> None:
        self.type = type
        self.code = code
        self.nullable = nullable  # may be None at run time (nobody, a missing settlement)
        self.is_nobody = is_nobody

    def __repr__(self) -> str:
        return f"Val({self.type!r}, {ast.dump(self.code)}, nullable={self.nullable}, is_nobody={self.is_nobody})"


class Local(Record):
    type: Type | None
    pyname: str
    what: str = "a loop variable"
    nullable: bool = False


#: A node that has a place in the source: an expression or a statement.
_Placed = TypeVar("_Placed", ast.expr, ast.stmt)


def at(node: _Placed, pos: n.Pos) -> _Placed:
    # Generated code keeps the snippet's positions, for tracebacks and readers.
    node.lineno, node.col_offset = pos.line, pos.column - 1
    node.end_lineno, node.end_col_offset = pos.end_line, pos.end_column - 1
    return node


def load(name: str) -> ast.Name:
    return ast.Name(name, ast.Load())


def call(func: ast.expr, *args: ast.expr, **keywords: ast.expr) -> ast.Call:
    return ast.Call(func, list(args), [ast.keyword(k, v) for k, v in keywords.items()])


def non_negative_constant(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int and node.value >= 0


def constant_int(node: ast.expr) -> int | None:
    """The value of a constant whole number (``3``, ``-3``), else None."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = constant_int(node.operand)
        return None if inner is None else -inner
    return None


def store(name: str) -> ast.Name:
    return ast.Name(name, ast.Store())


def fields_hint(fields: Mapping[str, Field], type_: Type, name: str, kept: tuple[str, ...] = ()) -> str:
    """The fields a type has (and the memory the ruleset keeps on it, ``kept``), with a guess."""
    names = list(fields) + list(kept)
    listed = f"{type_.described} has " + ", ".join(f"`{f}`" for f in names)
    guess = did_you_mean(name, names)
    return f"{guess} ({listed})" if guess else listed


class ExpressionEmitter:
    def __init__(self, env: Environment, source: str = "", what: str = "effect") -> None:
        self.env = env
        self.vocabulary = env.vocabulary
        self.examples = env.vocabulary.examples
        self.source = source
        self.what = what
        self.problems: list[Problem] = []
        self.scopes: list[dict[str, Local]] = []
        self.params = {name: (type_, f"_p{i}") for i, (name, type_) in enumerate(env.params.items())}
        self.methods: set[str] = set()
        # runtime methods giving a field's list (`Field.values`), with the reads of each in the code
        self.values_read: dict[str, int] = {}
        self.notes: list[str] = [f"{py} = {name}" for name, (_, py) in self.params.items()]
        self.loop_count = 0
        self.temp_count = 0
        self.uses_budget = False  # some loop pays steps: the run needs its budget
        # The most steps one run can pay, from the collections' sizes (``Environment.global_sizes``):
        # None once some collection's size is not known. ``repeat``: the most times the code being
        # compiled runs in one run (the sizes of the loops around it multiplied; None: not known).
        self.most_steps: int | None = 0
        self.repeat: int | None = 1
        self.local_sizes: dict[str, int | None] = {}  # a `let`'s collection: its most elements
        self.pays: list[ast.stmt] = []  # statements that only pay steps (a kind-indexed loop's board)
        self.takes: list[ast.Call] = []  # every `_take(_b, items)`, rewritten when no step can be past the budget
        # takes read at once by an expression (an aggregate, an `in` test, a choice's options), each
        # with how to put its collection in its place; and each loop's collection held by a name
        # (its assignment, where it is read, whether a selection reads it at once)
        self.at_once: list[tuple[ast.Call, Callable[[ast.expr], None]]] = []
        self.held: list[tuple[ast.Assign, ast.For | ast.comprehension, bool]] = []
        self.loop_depth = 0  # binders around the code being compiled
        self.loops = 0  # `for` statements around the statement being compiled (`break` needs one)
        # Inside a comprehension (a `where`, `sum(...)`...) Python cannot
        # pause: what the author was writing there, for the message.
        self.no_pause: list[str] = []
        self.binder_types: dict[n.Binder, Type | None] = {}
        self.range_ends: dict[n.RangeLit, tuple[ast.expr, ast.expr]] = {}
        self.end_reasons: list[str] = []  # every `end game` reason, in the order written
        self.pauses = False  # a die is thrown or a choice asked: the function will be a generator
        self.doc = ""  # what the names stand for, for readers (`CompiledCode.doc`)

    # reporting ---------------------------------------------------------------

    def report(self, code: str, message: str, pos: n.Pos, hint: str | None = None) -> None:
        self.problems.append(Problem(code, message, pos.start, pos.end, hint))

    @property
    def assignable(self) -> str:
        return "what can be changed: " + self.examples.assignable

    def temp(self, prefix: str = "_t") -> str:
        name = f"{prefix}{self.temp_count}"
        self.temp_count += 1
        return name

    def take(self, items: ast.expr, size: int | None) -> ast.Call:
        """``items`` fixed once and paid for from the run's step budget; ``size``: the most
        elements they can hold (None: not known)."""
        self.uses_budget = True
        if self.most_steps is not None:
            self.most_steps = None if size is None or self.repeat is None else self.most_steps + self.repeat * size
        taken = call(load("_take"), load("_b"), items)
        self.takes.append(taken)
        return taken

    def most(self, collection: n.Expr) -> int | None:
        """The most elements ``collection`` can hold in this ruleset; None: not known here."""
        if isinstance(collection, n.ListLit):
            return len(collection.items)
        if isinstance(collection, n.RangeLit):
            low, high = (constant_int(self.range_ends[collection][i]) for i in (0, 1))
            return None if low is None or high is None else max(0, high - low + 1)
        if isinstance(collection, n.Name):
            found = self.lookup(collection.name)
            if found is None:
                return None
            what, val = found
            if what == "a global name":
                return self.env.global_sizes.get(collection.name)
            return self.local_sizes.get(val.code.id) if isinstance(val.code, ast.Name) else None
        if isinstance(collection, n.Field):
            return self.env.field_sizes.get(collection.name)
        return None

    def method(self, name: str) -> ast.Attribute:
        """A runtime method, by a name from the tables: ``rt.name``, looked up where it is
        called (no local bound in advance: as fast in a loop, and a sixth fewer nodes to
        compile at a snippet's first call)."""
        self.methods.add(name)
        return ast.Attribute(load("rt"), name, ast.Load())

    def values(self, name: str) -> ast.Name:
        """A field's live list (``Field.values``), by a name from the tables; fetched once per call."""
        self.values_read[name] = self.values_read.get(name, 0) + 1
        return load(f"_a_{name}")

    def expect(self, val: Val, type_: Type, node: n.Node, message: str) -> None:
        if val.type is not None and val.type != type_:
            self.report("E0504", message.format(val.type.described), node.pos)

    # names -------------------------------------------------------------------

    def lookup(self, name: str, only_params: bool | None = None) -> tuple[str, Val] | None:
        """Resolution order: locals (loop variables and `let`, innermost first), params, globals, ids."""
        for scope in reversed(self.scopes):
            if name in scope:
                local = scope[name]
                return local.what, Val(local.type, load(local.pyname), nullable=local.nullable)
        if name in self.params:
            type_, py = self.params[name]
            return "a parameter of this formula", Val(type_, load(py))
        if self.env.only_params if only_params is None else only_params:
            return None
        spec = self.vocabulary.globals.get(name)
        if spec is not None:
            return "a global name", Val(spec.type, call(self.method(spec.method)), nullable=spec.nullable)
        slot = self.env.memory_of(name, None)
        if slot is not None:
            return "a value the ruleset keeps (`memory:`)", Val(slot.type, self.memory_read(slot, ast.Constant(None)))
        if name in self.env.ids:
            type_, index = self.env.ids[name]
            return type_.described, Val(type_, ast.Constant(index))
        return None

    def memory_read(self, slot: Memory, holder: ast.expr) -> ast.expr:
        """Declared memory, read by its slot number (never by its name): 0/false through nobody."""
        return call(self.method(self.vocabulary.verbs.memory), ast.Constant(slot.index), holder)

    def kept_on(self, type_: Type | None) -> tuple[str, ...]:
        """The names of the memory the ruleset keeps on each value of ``type_`` (None: the game's)."""
        return tuple(name for name, slot in self.env.memory.items() if slot.holder == type_)

    def visible(self) -> set[str]:
        names = {name for scope in self.scopes for name in scope} | set(self.params)
        if self.env.only_params:
            return names
        return names | set(self.vocabulary.globals) | set(self.kept_on(None)) | set(self.env.ids)

    def name_free(self, name: str, pos: n.Pos, what: str) -> None:
        found = self.lookup(name, only_params=False)
        if found is not None:
            self.report("E0510", f"`{name}` is already {found[0]}", pos, f"choose another name for the {what}")

    @contextmanager
    def bind(self, binder: n.Binder, where_context: str = "a `where`") -> Iterator[tuple[str, ast.expr, Val | None]]:
        """Check a binder; inside the block its variable is in scope.

        Yields the variable's Python name, the collection's code (not yet
        fixed or paid for) and the checked condition.
        """
        coll = self.expr(binder.collection)
        self.binder_types[binder] = coll.type
        element: Type | None = None
        if coll.type is not None:
            element = coll.type.element
            if element is None:
                self.report(
                    "E0504",
                    f"`{binder.var}` cannot range over {coll.type.described}",
                    binder.collection.pos,
                    f"range over {self.examples.collections}",
                )
        self.name_free(binder.var, binder.var_pos, "loop variable")
        pyname = f"_v{self.loop_count}"
        self.loop_count += 1
        self.notes.append(f"{pyname} = {binder.var}")
        self.scopes.append({binder.var: Local(element, pyname)})
        self.loop_depth += 1
        outer = self.repeat  # the `where` and the body run once per element, at most
        size = self.most(binder.collection)
        self.repeat = None if outer is None or size is None else outer * size
        try:
            cond = None
            if binder.where is not None:
                self.no_pause.append(where_context)
                try:
                    cond = self.expr(binder.where)
                finally:
                    self.no_pause.pop()
                self.expect(cond, Type.BOOL, binder.where, "`where` needs a condition (true/false), but this is {}")
            yield pyname, coll.code, cond
        finally:
            self.repeat = outer
            self.loop_depth -= 1
            self.scopes.pop()

    # expressions -------------------------------------------------------------

    def expr(self, node: n.Expr) -> Val:
        val = getattr(self, "e_" + type(node).__name__)(node)
        at(val.code, node.pos)
        return val

    @staticmethod
    def bad(code: ast.expr | None = None) -> Val:
        return Val(None, code if code is not None else ast.Constant(None))

    def e_IntLit(self, node: n.IntLit) -> Val:
        if node.value > MAX_INT:
            self.report(
                "E0511",
                f"the number {node.text[:20]}{'...' if len(node.text) > 20 else ''} is too large",
                node.pos,
                f"numbers go up to {MAX_INT}",
            )
            return self.bad()
        return Val(Type.INT, ast.Constant(node.value))

    def e_BoolLit(self, node: n.BoolLit) -> Val:
        return Val(Type.BOOL, ast.Constant(node.value))

    def e_NobodyLit(self, node: n.NobodyLit) -> Val:
        return Val(Type.PLAYER, ast.Constant(None), nullable=True, is_nobody=True)

    def e_RoundLit(self, node: n.RoundLit) -> Val:
        if self.env.only_params:
            return self.before_the_game("`round`", node.pos)
        return Val(Type.INT, call(self.method(self.vocabulary.verbs.round)))

    def before_the_game(self, what: str, pos: n.Pos) -> Val:
        """A value worked out before the game starts (a per-seat formula) reads no game state."""
        names = ", ".join(f"`{p}`" for p in self.params)
        self.report(
            "E0502",
            f"{what} cannot be used here: this value is worked out before the game starts",
            pos,
            f"it may use only {names} and numbers",
        )
        return self.bad()

    def e_Name(self, node: n.Name) -> Val:
        found = self.lookup(node.name)
        if found is None:
            if self.env.only_params and self.lookup(node.name, only_params=False) is not None:
                return self.before_the_game(f"`{node.name}`", node.pos)

            hints = [
                h for h in (self.vocabulary.parameter_hint(node.name), did_you_mean(node.name, self.visible())) if h
            ]
            hint = "; ".join(hints) or None
            self.report("E0502", f"unknown name `{node.name}`", node.pos, hint)
            return self.bad()
        return found[1]

    def e_RangeLit(self, node: n.RangeLit) -> Val:
        low, high = self.expr(node.low), self.expr(node.high)
        for side, sub in ((low, node.low), (high, node.high)):
            self.expect(side, Type.INT, sub, "a range `a..b` needs whole numbers, but this is {}")
        self.range_ends[node] = (low.code, high.code)
        return Val(Type.NUMBERS, call(load("_range"), low.code, high.code))

    def field_spec(self, base: Val, node: n.Field) -> Field | None:
        if base.type is None:
            return None
        fields = self.vocabulary.fields.get(base.type)
        if fields is None:
            hint = None
            if base.type.element is not None:
                hint = f"to add up over a collection write `sum(x.{node.name} for x in ...)`"
            self.report("E0503", f"{base.type.described} has no field `{node.name}`", node.name_pos, hint)
            return None
        spec = fields.get(node.name)
        if spec is None:
            self.report(
                "E0503",
                f"{base.type.described} has no field `{node.name}`",
                node.name_pos,
                fields_hint(fields, base.type, node.name, self.kept_on(base.type)),
            )
        return spec

    def e_Field(self, node: n.Field) -> Val:
        base = self.expr(node.base)
        if self.env.only_params and base.type in self.vocabulary.fields:
            # Fields are game state (even a field of `nobody` is read through the game).
            return self.before_the_game(f"`.{node.name}`", node.name_pos)
        slot = self.env.memory_of(node.name, base.type) if base.type is not None else None
        if slot is not None:
            return Val(slot.type, self.memory_read(slot, base.code))
        spec = self.field_spec(base, node)
        if spec is None:
            return self.bad()
        default: Any = () if spec.type.element is not None else _DEFAULTS.get(spec.type)
        if spec.owned:
            getter = self.method(spec.getter)
            read = (
                call(load("_get"), getter, base.code, ast.Constant(None)) if base.nullable else call(getter, base.code)
            )
            return Val(Type.BOOL, ast.Compare(read, [ast.IsNot()], [ast.Constant(None)]))
        if base.nullable:
            code: ast.expr = call(load("_get"), self.method(spec.getter), base.code, ast.Constant(default))
        elif spec.values is not None:  # an index, not a call: cards read a field of every territory
            code = ast.Subscript(self.values(spec.values), base.code, ast.Load())
        else:
            code = call(self.method(spec.getter), base.code)
        nullable = spec.nullable or (base.nullable and default is None)
        return Val(spec.type, code, nullable=nullable)

    def e_Neg(self, node: n.Neg) -> Val:
        operand = self.expr(node.operand)
        self.expect(operand, Type.INT, node.operand, "`-` needs a whole number, but this is {}")
        return Val(Type.INT, ast.UnaryOp(ast.USub(), operand.code))

    _ARITH = {"+": ast.Add, "-": ast.Sub, "*": ast.Mult, "//": ast.FloorDiv, "%": ast.Mod, "/": ast.FloorDiv}

    def e_BinOp(self, node: n.BinOp) -> Val:
        left, right = self.expr(node.left), self.expr(node.right)
        if node.op == "/":
            self.report("E0507", "`/` is not whole-number division", node.op_pos, "use `//` for whole-number division")
        for side, sub in ((left, node.left), (right, node.right)):
            self.expect(side, Type.INT, sub, f"`{node.op}` needs whole numbers, but this is {{}}")
        op = self._ARITH[node.op]
        divisor = right.code
        safe = isinstance(divisor, ast.Constant) and type(divisor.value) is int and divisor.value != 0
        if node.op in ("//", "%") and not safe:
            # Only a divisor that may be 0 pays for the helper call.
            helper = "_floordiv" if node.op == "//" else "_mod"
            return Val(Type.INT, call(load(helper), left.code, right.code))
        if node.op == "*" and constant_int(left.code) is None and constant_int(right.code) is None:
            # A product of two values only known at run time may double a number's length:
            # it is checked (runtime.MAX_BITS); a constant factor adds a few bits at most.
            return Val(Type.INT, call(load("_mul"), left.code, right.code))
        return Val(Type.INT, ast.BinOp(left.code, op(), right.code))

    _COMPARE = {"==": ast.Eq, "!=": ast.NotEq, "<": ast.Lt, "<=": ast.LtE, ">": ast.Gt, ">=": ast.GtE}

    def e_Compare(self, node: n.Compare) -> Val:
        left, right = self.expr(node.left), self.expr(node.right)
        op = self._COMPARE[node.op]
        if node.op in ("==", "!="):
            if left.type is not None and right.type is not None:
                if left.type != right.type:
                    self.report("E0504", f"cannot compare {left.type.described} with {right.type.described}", node.pos)
                elif left.type.element is not None:
                    self.report(
                        "E0504",
                        f"`{node.op}` cannot compare collections",
                        node.pos,
                        "compare their sizes with `count(...)`",
                    )
            if left.is_nobody or right.is_nobody:
                op = ast.Is if node.op == "==" else ast.IsNot
        else:
            for side, sub in ((left, node.left), (right, node.right)):
                self.expect(side, Type.INT, sub, f"`{node.op}` compares whole numbers, but this is {{}}")
        return Val(Type.BOOL, ast.Compare(left.code, [op()], [right.code]))

    def e_BoolOp(self, node: n.BoolOp) -> Val:
        left, right = self.expr(node.left), self.expr(node.right)
        for side, sub in ((left, node.left), (right, node.right)):
            self.expect(side, Type.BOOL, sub, f"`{node.op}` needs true/false on both sides, but this is {{}}")
        op = ast.And() if node.op == "and" else ast.Or()
        return Val(Type.BOOL, ast.BoolOp(op, [left.code, right.code]))

    def e_Not(self, node: n.Not) -> Val:
        operand = self.expr(node.operand)
        self.expect(operand, Type.BOOL, node.operand, "`not` needs true/false, but this is {}")
        return Val(Type.BOOL, ast.UnaryOp(ast.Not(), operand.code))

    def e_ListLit(self, node: n.ListLit) -> Val:
        """A written list ranged over (a loop's, a choice's or an aggregate's collection; `in`
        reads its list itself): every item of one type, none of them nobody. A player or
        territory that may be nobody at run time (``t.owner``) is left out then."""
        items = [self.expr(item) for item in node.items]
        if not items:
            self.report("E0504", "an empty list holds nothing to range over", node.pos,
                        "write at least one value: `[true, false]`, `[erg, reg]`")
            return self.bad()
        first = next((item.type for item in items if item.type is not None), None)
        for item, sub in zip(items, node.items, strict=True):
            if item.type is not None and item.type is not first:
                self.report("E0504", f"this list holds {first.described if first else 'values'}, "
                            f"but this is {item.type.described}", sub.pos, "every value of a list has one type")
                return self.bad()
            if item.is_nobody:
                self.report("E0504", "`nobody` cannot be ranged over or chosen", sub.pos,
                            "leave it out of the list")
                return self.bad()
        if first is None:
            return self.bad()
        collection = first.collection
        if collection is None:
            self.report("E0504", f"a list of {first.described.removeprefix('a ')}s cannot be ranged over or chosen",
                        node.pos, self.examples.list_instead)
            return self.bad()
        code: ast.expr = ast.Tuple([item.code for item in items], ast.Load())
        if any(item.nullable for item in items):
            # a settlement that is not there, an owner of an unowned cell: not an element
            code = call(load("_present"), code)
        return Val(collection, code)

    def e_Membership(self, node: n.Membership) -> Val:
        item = self.expr(node.item)
        tests: list[ast.Call] = []
        if item.type is not None and item.type.element is not None:
            self.report("E0504", f"`in` tests one value, but this is {item.type.described}", node.item.pos)
        if isinstance(node.container, n.ListLit):
            values = [self.expr(v) for v in node.container.items]
            container: ast.expr = at(ast.Tuple([v.code for v in values], ast.Load()), node.container.pos)
            if item.type is not None:
                for value, sub in zip(values, node.container.items, strict=True):
                    if value.type is not None and value.type is not item.type:
                        self.report(
                            "E0504",
                            f"this list should hold {item.type.described} like the left of `in`, but this is "
                            f"{value.type.described}",
                            sub.pos,
                        )
        else:
            coll = self.expr(node.container)
            container = coll.code
            if self.loop_depth > 0:
                # Inside a loop a membership test scans a collection each
                # time: it pays its elements like a loop, so that a loop's
                # body cannot hide work from the step budget.
                container = taken = self.take(container, self.most(node.container))
                tests.append(taken)
            if coll.type is not None:
                if coll.type.element is None:
                    self.report(
                        "E0504",
                        f"`in` needs a list `[a, b]` or a collection on its right, but this is {coll.type.described}",
                        node.container.pos,
                    )
                elif item.type is not None and item.type != coll.type.element:
                    self.report("E0504", f"{coll.type.described} never holds {item.type.described}", node.pos)
        op = ast.NotIn() if node.negated else ast.In()
        compare = ast.Compare(item.code, [op], [container])
        for taken in tests:  # scanned at once
            self.at_once.append((taken, lambda items: setattr(compare, "comparators", [items])))
        return Val(Type.BOOL, compare)

    def e_IfExp(self, node: n.IfExp) -> Val:
        cond = self.expr(node.cond)
        self.expect(cond, Type.BOOL, node.cond, "`if` needs a condition (true/false), but this is {}")
        then, orelse = self.expr(node.then), self.expr(node.orelse)
        type_ = then.type or orelse.type
        if then.type is not None and orelse.type is not None and then.type is not orelse.type:
            self.report(
                "E0504",
                f"both sides of `if ... else` must give the same type: {then.type.described} and "
                f"{orelse.type.described}",
                node.orelse.pos,
            )
            type_ = None
        return Val(type_, ast.IfExp(cond.code, then.code, orelse.code), nullable=then.nullable or orelse.nullable)

    def e_Call(self, node: n.Call) -> Val:
        args = [self.expr(a) for a in node.args]
        if node.func == "roll":
            return self.roll(node, args)
        if node.func not in ("sum", "min", "max"):
            hint = did_you_mean(node.func, _FUNCTIONS) or "the functions are " + ", ".join(f"`{f}`" for f in _FUNCTIONS)
            self.report("E0502", f"unknown function `{node.func}`", node.func_pos, hint)
            return self.bad()
        if node.func == "sum":
            self.report(
                "E0506",
                "`sum` adds up over a collection, not a list of values",
                node.pos,
                f"write `sum({self.examples.aggregate})`, or `+` between values",
            )
        elif len(args) < 2:
            self.report(
                "E0506",
                f"`{node.func}` needs at least two values, or one value for each of a collection",
                node.pos,
                f"`{node.func}(a, b)` or `{node.func}({self.examples.aggregate})`",
            )
        for arg, sub in zip(args, node.args, strict=True):
            self.expect(arg, Type.INT, sub, f"`{node.func}` needs whole numbers, but this is {{}}")
        return Val(Type.INT, call(load("_" + node.func), *(a.code for a in args)))

    def roll(self, node: n.Call, args: list[Val]) -> Val:
        """``roll(n)``: a die thrown through the game; the snippet pauses for it."""
        if len(args) != 1:
            self.report(
                "E0506", "`roll` takes one number: the sides of the die", node.pos, "`roll(6)` throws a six-sided die"
            )
            return self.bad()
        (sides,) = args
        self.expect(sides, Type.INT, node.args[0], "`roll` needs the number of sides, but this is {}")
        if self.what != "effect":
            given = [hint for param, hint in self.examples.thrown.items() if param in self.params]
            if given:
                hint = given[0]
            else:
                hint = "throw dice in a card's effect or a hook, e.g. `let d = roll(6)`"
            self.report("E0520", "a formula cannot throw a die", node.func_pos, hint)
            return self.bad()
        if self.no_pause:
            self.report(
                "E0520",
                f"a die cannot be thrown inside {self.no_pause[-1]}",
                node.func_pos,
                "throw it first and name it: `let d = roll(6)`, or throw it in a loop's body",
            )
            return self.bad()
        constant = constant_int(sides.code)
        if constant is not None and not 1 <= constant <= MAX_ROLL_SIDES:
            self.report(
                "E0521",
                f"a die with {constant} sides cannot be thrown",
                node.args[0].pos,
                f"a die has 1 to {MAX_ROLL_SIDES} sides",
            )
            return self.bad()
        count = ast.Constant(constant) if constant is not None else call(load("_sides"), sides.code)
        self.pauses = True
        return Val(Type.INT, ast.Yield(call(load("_Roll"), count)))

    def _generator(
        self, pyname: str, iterable: ast.expr, element: ast.expr, cond: Val | None, alone: bool, size: int | None
    ) -> ast.GeneratorExp:
        ifs = [cond.code] if cond is not None else []
        # An aggregate standing alone (in no loop, holding none) visits at
        # most the board and changes nothing: it needs neither a fixed
        # selection nor steps, and the rule formulas stay as fast.
        if alone:
            return ast.GeneratorExp(element, [ast.comprehension(ast.Name(pyname, ast.Store()), iterable, ifs, 0)])
        taken = self.take(iterable, size)
        comprehension = ast.comprehension(ast.Name(pyname, ast.Store()), taken, ifs, 0)
        self.at_once.append((taken, lambda items: setattr(comprehension, "iter", items)))  # read at once
        return ast.GeneratorExp(element, [comprehension])

    def bounded(self, binder: n.Binder) -> bool:
        """Whether the collection holds at most the board (a range `1..n` may hold anything)."""
        return self.binder_types.get(binder) != Type.NUMBERS

    @contextmanager
    def comprehension(self, func: str) -> Iterator[Callable[[], bool]]:
        """Yields a test, valid after the block: is this aggregate alone (in no loop, holding none)?"""
        self.no_pause.append(f"`{func}(...)`")
        outer, first = self.loop_depth, self.loop_count
        try:
            yield lambda: outer == 0 and self.loop_count == first + 1
        finally:
            self.no_pause.pop()

    def e_Aggregate(self, node: n.Aggregate) -> Val:
        with (
            self.comprehension(node.func) as alone,
            self.bind(node.binder, f"`{node.func}(...)`") as (pyname, iterable, cond),
        ):
            element = self.expr(node.element)
        self.expect(element, Type.INT, node.element, f"`{node.func}` needs whole numbers, but this is {{}}")
        generator = self._generator(pyname, iterable, element.code, cond, alone() and self.bounded(node.binder),
                                    self.most(node.binder.collection))
        if node.func == "sum":
            return Val(Type.INT, call(load("_sum"), generator))
        # min/max of nothing is 0, like a sum of nothing.
        return Val(Type.INT, call(load("_" + node.func), generator, default=ast.Constant(0)))

    def e_Quantifier(self, node: n.Quantifier) -> Val:
        with (
            self.comprehension(node.func) as alone,
            self.bind(node.binder, f"`{node.func}(...)`") as (pyname, iterable, cond),
        ):
            pass
        single = alone() and self.bounded(node.binder)
        size = self.most(node.binder.collection)
        if node.func == "count":
            counted = self._generator(pyname, iterable, ast.Constant(1), cond, single, size)
            return Val(Type.INT, call(load("_sum"), counted))
        if node.func == "any":
            return Val(
                Type.BOOL, call(load("_any"), self._generator(pyname, iterable, ast.Constant(True), cond, single, size))
            )
        element = cond.code if cond is not None else ast.Constant(True)
        return Val(Type.BOOL, call(load("_all"), self._generator(pyname, iterable, element, None, single, size)))
