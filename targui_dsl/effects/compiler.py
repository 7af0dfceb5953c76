"""Check effect-language snippets and compile them to Python functions.

Pipeline: :func:`~targui_dsl.effects.parser.parse` -> one checking pass over
the nodes that resolves names, infers types and, at the same time, builds
Python ``ast`` nodes -> ``compile()`` -> the function, run against an
:class:`~targui_dsl.effects.runtime.EffectRuntime` passed as ``rt``.

Safety rests on three rules: code is built from ``ast`` nodes only (no text
is ever evaluated); no identifier written by the user becomes a Python
identifier (loop variables are ``_v0``, ``_v1``..., parameters ``_p0``...,
kinds and tribes are integer constants); and every field access is a call
of a runtime method taken from the fixed tables below.  The function runs
with empty ``__builtins__`` plus the helpers in :data:`_NAMESPACE`.

The checker reports every error it can find in one pass; when there is
any, nothing is compiled.
"""

from __future__ import annotations

import ast
import bisect
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Mapping

from ..compiled import CompiledCode
from ..diagnostics import Diagnostic, Span, did_you_mean, error
from . import nodes as n
from .parser import Problem, parse
from .runtime import MAX_VALUE
from .types import Type

Locate = Callable[[int], Span]

#: Integer literals above this are refused (E0511).
MAX_INT = MAX_VALUE

#: The file name of diagnostics when no ``locate`` is given.
SNIPPET_FILE = "<effect>"


@dataclass(frozen=True)
class Environment:
    """What a snippet may name besides loop variables and the globals.

    ``kinds`` and ``tribes`` map ruleset ids to their indices.  ``params``
    are a formula's parameters in call order (a dict keeps it): the compiled
    function is ``function(rt, *params)``.
    """

    kinds: Mapping[str, int]
    tribes: Mapping[str, int]
    params: Mapping[str, Type] = field(default_factory=dict)


# --- fixed tables --------------------------------------------------------------


@dataclass(frozen=True)
class _FieldSpec:
    type: Type
    getter: str  # runtime method reading the field
    nullable: bool = False  # may be nobody (None)
    setter: str | None = None  # runtime method writing it; None: not assignable
    kind_field: str | None = None  # for set_kind_value
    owned: bool = False  # `owned`: getter is `owner`, compared with None


_FIELDS: dict[Type, dict[str, _FieldSpec]] = {
    Type.TERRITORY: {
        "kind": _FieldSpec(Type.KIND, "kind"),
        "camels": _FieldSpec(Type.INT, "camels", setter="set_camels"),
        "owner": _FieldSpec(Type.PLAYER, "owner", nullable=True),
        "owned": _FieldSpec(Type.BOOL, "owner", owned=True),
        "strategic": _FieldSpec(Type.INT, "strategic"),
        "economic": _FieldSpec(Type.INT, "economic"),
        "position": _FieldSpec(Type.INT, "position"),
        "neighbours": _FieldSpec(Type.TERRITORIES, "neighbours"),
    },
    Type.PLAYER: {
        "tribe": _FieldSpec(Type.TRIBE, "tribe"),
        "seat": _FieldSpec(Type.INT, "seat"),
        "cash": _FieldSpec(Type.INT, "cash", setter="set_cash"),
        "treasury": _FieldSpec(Type.INT, "treasury", setter="set_treasury"),
        "camels": _FieldSpec(Type.INT, "player_camels"),
        "territories": _FieldSpec(Type.TERRITORIES, "territories_of"),
        "settlement": _FieldSpec(Type.TERRITORY, "settlement", nullable=True),
        "holds_own_settlement": _FieldSpec(Type.BOOL, "holds_own_settlement"),
    },
    Type.KIND: {
        "strategic": _FieldSpec(Type.INT, "kind_strategic", setter="set_kind_value", kind_field="strategic"),
        "economic": _FieldSpec(Type.INT, "kind_economic", setter="set_kind_value", kind_field="economic"),
    },
}

#: Global names: type and the runtime method that gives the value.
_GLOBALS: dict[str, tuple[Type, str]] = {
    "territories": (Type.TERRITORIES, "all_territories"),
    "players": (Type.PLAYERS, "all_players"),
    "box": (Type.INT, "box"),
}

_FUNCTIONS = ("sum", "min", "max", "count", "any", "all")

#: What reading a field through nobody gives, by the field's type.
_DEFAULTS: dict[Type, Any] = {Type.INT: 0, Type.BOOL: False, Type.TERRITORIES: (), Type.PLAYERS: ()}

_ASSIGNABLE = "what can be changed: `t.camels`, `p.cash`, `p.treasury`, `KIND.strategic`, `KIND.economic`"

#: Every runtime method the compiler may call (tests check generated code against it).
RUNTIME_METHODS = frozenset(
    {spec.getter for fields in _FIELDS.values() for spec in fields.values()}
    | {spec.setter for fields in _FIELDS.values() for spec in fields.values() if spec.setter}
    | {method for _, method in _GLOBALS.values()}
    | {"round_number"}
)


# --- helpers the generated code may call ----------------------------------------


def _floordiv(a: int, b: int) -> int:
    # Division by zero gives 0: effects are total, a card never crashes a game.
    return a // b if b else 0


def _mod(a: int, b: int) -> int:
    return a % b if b else 0


def _get(method: Callable[[int], Any], value: int | None, default: Any) -> Any:
    """A field of something that may be nobody: the default when it is."""
    return default if value is None else method(value)


# Bound by the compiler, never looked up from user text: generated code only
# names these (all start with `_`), `rt`, and its own `_v`/`_p`/`_t`/`_m_` locals.
_NAMESPACE: dict[str, Any] = {
    "_floordiv": _floordiv,
    "_mod": _mod,
    "_get": _get,
    "_sum": sum,
    "_min": min,
    "_max": max,
    "_any": any,
    "_all": all,
}


# --- public API ------------------------------------------------------------------


def compile_effect(source: str, env: Environment, locate: Locate | None = None) -> tuple[CompiledCode | None, list[Diagnostic]]:
    """Compile a card effect: ``function(rt)``, returning None."""
    return _compile(source, env, locate, "effect", None)


def compile_formula(
    source: str, env: Environment, locate: Locate | None = None, expected: Type = Type.INT
) -> tuple[CompiledCode | None, list[Diagnostic]]:
    """Compile a formula: ``function(rt, *params)`` returning a value of type ``expected``."""
    return _compile(source, env, locate, "formula", expected)


def _compile(source: str, env: Environment, locate: Locate | None, what: str, expected: Type | None):
    to_span = _spanner(source, locate)
    tree, problems = parse(source, what)
    if tree is None:
        return None, [_diagnostic(p, to_span) for p in problems]
    compiler = _Compiler(env)
    module = compiler.module(tree, what, expected)
    if compiler.problems:
        ordered = sorted(compiler.problems, key=lambda p: (p.start, p.end, p.code))
        return None, [_diagnostic(p, to_span) for p in ordered]
    ast.fix_missing_locations(module)
    where = to_span(0, 0)
    code_object = compile(module, f"<{what} {where.file}:{where.line}>", "exec")
    namespace: dict[str, Any] = {"__builtins__": {}, **_NAMESPACE}
    exec(code_object, namespace)
    return (
        CompiledCode(
            source=source,
            python=ast.unparse(module),
            params=tuple(env.params),
            function=namespace[what],
            file=where.file,
            line=where.line,
        ),
        [],
    )


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


# --- the checker and code generator -----------------------------------------------


@dataclass
class _Val:
    """A checked expression: its type (None after an error already reported) and code."""

    type: Type | None
    code: ast.expr
    nullable: bool = False  # may be None at run time (nobody, a missing settlement)
    is_nobody: bool = False


@dataclass(frozen=True)
class _Local:
    type: Type | None
    pyname: str


def _at(node: ast.AST, pos: n.Pos) -> ast.AST:
    # Generated code keeps the snippet's positions, for tracebacks and readers.
    node.lineno, node.col_offset = pos.line, pos.column - 1
    node.end_lineno, node.end_col_offset = pos.end_line, pos.end_column - 1
    return node


def _load(name: str) -> ast.Name:
    return ast.Name(name, ast.Load())


def _call(func: ast.expr, *args: ast.expr, **keywords: ast.expr) -> ast.Call:
    return ast.Call(func, list(args), [ast.keyword(k, v) for k, v in keywords.items()])


def _non_negative_constant(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int and node.value >= 0


def _fields_hint(type_: Type, name: str) -> str:
    names = list(_FIELDS[type_])
    listed = f"{type_.described} has " + ", ".join(f"`{f}`" for f in names)
    guess = did_you_mean(name, names)
    return f"{guess} ({listed})" if guess else listed


class _Compiler:
    def __init__(self, env: Environment) -> None:
        self.env = env
        self.problems: list[Problem] = []
        self.scopes: list[dict[str, _Local]] = []
        self.params = {name: (type_, f"_p{i}") for i, (name, type_) in enumerate(env.params.items())}
        self.methods: set[str] = set()
        self.notes: list[str] = [f"{py} = {name}" for name, (_, py) in self.params.items()]
        self.loop_count = 0
        self.temp_count = 0

    # reporting ---------------------------------------------------------------

    def report(self, code: str, message: str, pos: n.Pos, hint: str | None = None) -> None:
        self.problems.append(Problem(code, message, pos.start, pos.end, hint))

    def method(self, name: str) -> ast.Name:
        """A runtime method, by a name from the tables; bound once per call to a local."""
        self.methods.add(name)
        return _load(f"_m_{name}")

    def expect(self, val: _Val, type_: Type, node: n.Node, message: str) -> None:
        if val.type is not None and val.type is not type_:
            self.report("E0504", message.format(val.type.described), node.pos)

    # module ------------------------------------------------------------------

    def module(self, tree: n.Effect | n.Formula, what: str, expected: Type | None) -> ast.Module:
        if isinstance(tree, n.Effect):
            body = self.stmts(tree.body)
        else:
            val = self.expr(tree.expr)
            if expected is not None and val.type is not None and val.type is not expected:
                self.report(
                    "E0509",
                    f"this formula must give {expected.described}, but it gives {val.type.described}",
                    tree.expr.pos,
                )
            body = [_at(ast.Return(val.code), tree.expr.pos)]
        doc = f"Compiled {what}." + (f" Names: {', '.join(self.notes)}." if self.notes else "")
        prologue: list[ast.stmt] = [ast.Expr(ast.Constant(doc))]
        prologue += [
            ast.Assign([ast.Name(f"_m_{m}", ast.Store())], ast.Attribute(_load("rt"), m, ast.Load()))
            for m in sorted(self.methods)
        ]
        args = [ast.arg("rt")] + [ast.arg(py) for _, py in self.params.values()]
        extra = {"type_params": []} if sys.version_info >= (3, 12) else {}
        function = ast.FunctionDef(
            name=what,
            args=ast.arguments(posonlyargs=[], args=args, vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[]),
            body=prologue + (body or [ast.Pass()]),
            decorator_list=[],
            returns=None,
            **extra,
        )
        function.lineno, function.col_offset = 1, 0
        return ast.Module([function], type_ignores=[])

    # names -------------------------------------------------------------------

    def lookup(self, name: str) -> tuple[str, _Val] | None:
        """Resolution order: loop variables (innermost first), params, globals, kinds, tribes."""
        for scope in reversed(self.scopes):
            if name in scope:
                local = scope[name]
                return "a loop variable", _Val(local.type, _load(local.pyname))
        if name in self.params:
            type_, py = self.params[name]
            return "a parameter of this formula", _Val(type_, _load(py))
        if name in _GLOBALS:
            type_, getter = _GLOBALS[name]
            return "a global name", _Val(type_, _call(self.method(getter)))
        if name in self.env.kinds:
            return "a territory kind", _Val(Type.KIND, ast.Constant(self.env.kinds[name]))
        if name in self.env.tribes:
            return "a tribe", _Val(Type.TRIBE, ast.Constant(self.env.tribes[name]))
        return None

    def visible(self) -> set[str]:
        names = {name for scope in self.scopes for name in scope}
        return names | set(self.params) | set(_GLOBALS) | set(self.env.kinds) | set(self.env.tribes)

    @contextmanager
    def bind(self, binder: n.Binder) -> Iterator[tuple[str, ast.expr, _Val | None]]:
        """Check a binder; inside the block its variable is in scope."""
        coll = self.expr(binder.collection)
        element: Type | None = None
        if coll.type is not None:
            element = coll.type.element
            if element is None:
                self.report(
                    "E0504",
                    f"`{binder.var}` cannot range over {coll.type.described}",
                    binder.collection.pos,
                    "range over `territories`, `players`, `p.territories` or `t.neighbours`",
                )
        found = self.lookup(binder.var)
        if found is not None:
            self.report(
                "E0510",
                f"`{binder.var}` is already {found[0]}",
                binder.var_pos,
                "choose another name for the loop variable",
            )
        pyname = f"_v{self.loop_count}"
        self.loop_count += 1
        self.notes.append(f"{pyname} = {binder.var}")
        self.scopes.append({binder.var: _Local(element, pyname)})
        try:
            cond = None
            if binder.where is not None:
                cond = self.expr(binder.where)
                self.expect(cond, Type.BOOL, binder.where, "`where` needs a condition (true/false), but this is {}")
            yield pyname, coll.code, cond
        finally:
            self.scopes.pop()

    # statements --------------------------------------------------------------

    def stmts(self, stmts: tuple[n.Stmt, ...]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for stmt in stmts:
            out.extend(getattr(self, "s_" + type(stmt).__name__)(stmt))
        return out

    def s_For(self, node: n.For) -> list[ast.stmt]:
        with self.bind(node.binder) as (pyname, iterable, cond):
            body = self.stmts(node.body)
        if cond is not None:
            body = [ast.If(cond.code, body or [ast.Pass()], [])]
        loop = ast.For(ast.Name(pyname, ast.Store()), iterable, body or [ast.Pass()], [])
        return [_at(loop, node.pos)]

    def s_If(self, node: n.If) -> list[ast.stmt]:
        cond = self.expr(node.cond)
        self.expect(cond, Type.BOOL, node.cond, "`if` needs a condition (true/false), but this is {}")
        body = self.stmts(node.body)
        orelse = self.stmts(node.orelse)
        return [_at(ast.If(cond.code, body or [ast.Pass()], orelse), node.pos)]

    def s_Assign(self, node: n.Assign) -> list[ast.stmt]:
        value = self.expr(node.value)
        target = node.target
        if not isinstance(target, n.Field):
            name = target.name if isinstance(target, n.Name) else "this"
            self.report("E0505", f"`{name}` cannot be assigned: only fields can be changed", target.pos, _ASSIGNABLE)
            return []
        base = self.expr(target.base)
        spec = self.field_spec(base, target)
        if spec is None:
            return []
        if spec.setter is None:
            self.report(
                "E0505",
                f"the `{target.name}` of {base.type.described} cannot be changed",  # type: ignore[union-attr]
                target.pos,
                _ASSIGNABLE,
            )
            return []
        self.expect(value, Type.INT, node.value, f"`{target.name}` holds a whole number, but this is {{}}")
        if node.this_round is not None and base.type is not Type.KIND:
            self.report(
                "E0508",
                f"`this round` applies only to a territory kind's value, not to the {target.name} of {base.type.described}",  # type: ignore[union-attr]
                node.this_round,
                "for example `erg.strategic = 3 this round`; other changes last anyway",
            )

        out: list[ast.stmt] = []
        # The target's base is evaluated once: read-modify-write and the nobody test share it.
        if isinstance(base.code, ast.Name):
            ref: Callable[[], ast.expr] = lambda: _load(base.code.id)  # type: ignore[attr-defined]
        elif isinstance(base.code, ast.Constant):
            ref = lambda: ast.Constant(base.code.value)  # type: ignore[attr-defined]
        else:
            temp = f"_t{self.temp_count}"
            self.temp_count += 1
            out.append(_at(ast.Assign([ast.Name(temp, ast.Store())], base.code), target.base.pos))
            ref = lambda: _load(temp)
        new = value.code
        if node.op != "=":
            current = _call(self.method(spec.getter), ref())
            new = ast.BinOp(current, ast.Add() if node.op == "+=" else ast.Sub(), new)
        if spec.kind_field is not None:
            # Kind values never go below 0 (the engine stores what it is given).
            write = _call(
                self.method(spec.setter),
                ref(),
                ast.Constant(spec.kind_field),
                new if _non_negative_constant(new) else _call(_load("_max"), ast.Constant(0), new),
                ast.Constant(node.this_round is not None),
            )
        else:
            write = _call(self.method(spec.setter), ref(), new)
        stmt: ast.stmt = ast.Expr(write)
        if base.nullable:
            # Through nobody an assignment does nothing.
            stmt = ast.If(ast.Compare(ref(), [ast.IsNot()], [ast.Constant(None)]), [stmt], [])
        out.append(_at(stmt, node.pos))
        return out

    # expressions -------------------------------------------------------------

    def expr(self, node: n.Expr) -> _Val:
        val = getattr(self, "e_" + type(node).__name__)(node)
        _at(val.code, node.pos)
        return val

    @staticmethod
    def bad(code: ast.expr | None = None) -> _Val:
        return _Val(None, code if code is not None else ast.Constant(None))

    def e_IntLit(self, node: n.IntLit) -> _Val:
        if node.value > MAX_INT:
            self.report("E0511", f"the number {node.text[:20]}{'...' if len(node.text) > 20 else ''} is too large", node.pos, f"numbers go up to {MAX_INT}")
            return self.bad()
        return _Val(Type.INT, ast.Constant(node.value))

    def e_BoolLit(self, node: n.BoolLit) -> _Val:
        return _Val(Type.BOOL, ast.Constant(node.value))

    def e_NobodyLit(self, node: n.NobodyLit) -> _Val:
        return _Val(Type.PLAYER, ast.Constant(None), nullable=True, is_nobody=True)

    def e_RoundLit(self, node: n.RoundLit) -> _Val:
        return _Val(Type.INT, _call(self.method("round_number")))

    def e_Name(self, node: n.Name) -> _Val:
        found = self.lookup(node.name)
        if found is None:
            from ..check import parameter_hint  # a formula parameter used elsewhere: say where it exists

            hints = [h for h in (parameter_hint(node.name), did_you_mean(node.name, self.visible())) if h]
            hint = "; ".join(hints) or None
            self.report("E0502", f"unknown name `{node.name}`", node.pos, hint)
            return self.bad()
        return found[1]

    def field_spec(self, base: _Val, node: n.Field) -> _FieldSpec | None:
        if base.type is None:
            return None
        fields = _FIELDS.get(base.type)
        if fields is None:
            hint = None
            if base.type.element is not None:
                hint = f"to add up over a collection write `sum(x.{node.name} for x in ...)`"
            self.report("E0503", f"{base.type.described} has no field `{node.name}`", node.name_pos, hint)
            return None
        spec = fields.get(node.name)
        if spec is None:
            self.report("E0503", f"{base.type.described} has no field `{node.name}`", node.name_pos, _fields_hint(base.type, node.name))
        return spec

    def e_Field(self, node: n.Field) -> _Val:
        base = self.expr(node.base)
        spec = self.field_spec(base, node)
        if spec is None:
            return self.bad()
        getter = self.method(spec.getter)
        default = _DEFAULTS.get(spec.type)
        if spec.owned:
            read = _call(_load("_get"), getter, base.code, ast.Constant(None)) if base.nullable else _call(getter, base.code)
            return _Val(Type.BOOL, ast.Compare(read, [ast.IsNot()], [ast.Constant(None)]))
        if base.nullable:
            code: ast.expr = _call(_load("_get"), getter, base.code, ast.Constant(default))
        else:
            code = _call(getter, base.code)
        nullable = spec.nullable or (base.nullable and default is None)
        return _Val(spec.type, code, nullable=nullable)

    def e_Neg(self, node: n.Neg) -> _Val:
        operand = self.expr(node.operand)
        self.expect(operand, Type.INT, node.operand, "`-` needs a whole number, but this is {}")
        return _Val(Type.INT, ast.UnaryOp(ast.USub(), operand.code))

    _ARITH = {"+": ast.Add, "-": ast.Sub, "*": ast.Mult, "//": ast.FloorDiv, "%": ast.Mod, "/": ast.FloorDiv}

    def e_BinOp(self, node: n.BinOp) -> _Val:
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
            return _Val(Type.INT, _call(_load(helper), left.code, right.code))
        return _Val(Type.INT, ast.BinOp(left.code, op(), right.code))

    _COMPARE = {"==": ast.Eq, "!=": ast.NotEq, "<": ast.Lt, "<=": ast.LtE, ">": ast.Gt, ">=": ast.GtE}

    def e_Compare(self, node: n.Compare) -> _Val:
        left, right = self.expr(node.left), self.expr(node.right)
        op = self._COMPARE[node.op]
        if node.op in ("==", "!="):
            if left.type is not None and right.type is not None:
                if left.type is not right.type:
                    self.report("E0504", f"cannot compare {left.type.described} with {right.type.described}", node.pos)
                elif left.type.element is not None:
                    self.report("E0504", f"`{node.op}` cannot compare collections", node.pos, "compare their sizes with `count(...)`")
            if left.is_nobody or right.is_nobody:
                op = ast.Is if node.op == "==" else ast.IsNot
        else:
            for side, sub in ((left, node.left), (right, node.right)):
                self.expect(side, Type.INT, sub, f"`{node.op}` compares whole numbers, but this is {{}}")
        return _Val(Type.BOOL, ast.Compare(left.code, [op()], [right.code]))

    def e_BoolOp(self, node: n.BoolOp) -> _Val:
        left, right = self.expr(node.left), self.expr(node.right)
        for side, sub in ((left, node.left), (right, node.right)):
            self.expect(side, Type.BOOL, sub, f"`{node.op}` needs true/false on both sides, but this is {{}}")
        op = ast.And() if node.op == "and" else ast.Or()
        return _Val(Type.BOOL, ast.BoolOp(op, [left.code, right.code]))

    def e_Not(self, node: n.Not) -> _Val:
        operand = self.expr(node.operand)
        self.expect(operand, Type.BOOL, node.operand, "`not` needs true/false, but this is {}")
        return _Val(Type.BOOL, ast.UnaryOp(ast.Not(), operand.code))

    def e_ListLit(self, node: n.ListLit) -> _Val:
        # Reached only from e_Membership (the grammar allows lists nowhere else).
        items = [self.expr(item) for item in node.items]
        return _Val(None, ast.Tuple([item.code for item in items], ast.Load()))

    def e_Membership(self, node: n.Membership) -> _Val:
        item = self.expr(node.item)
        if item.type is not None and item.type.element is not None:
            self.report("E0504", f"`in` tests one value, but this is {item.type.described}", node.item.pos)
        if isinstance(node.container, n.ListLit):
            values = [self.expr(v) for v in node.container.items]
            container: ast.expr = _at(ast.Tuple([v.code for v in values], ast.Load()), node.container.pos)
            if item.type is not None:
                for value, sub in zip(values, node.container.items):
                    if value.type is not None and value.type is not item.type:
                        self.report(
                            "E0504",
                            f"this list should hold {item.type.described} like the left of `in`, but this is {value.type.described}",
                            sub.pos,
                        )
        else:
            coll = self.expr(node.container)
            container = coll.code
            if coll.type is not None:
                if coll.type.element is None:
                    self.report(
                        "E0504",
                        f"`in` needs a list `[a, b]` or a collection on its right, but this is {coll.type.described}",
                        node.container.pos,
                    )
                elif item.type is not None and item.type is not coll.type.element:
                    self.report("E0504", f"{coll.type.described} never holds {item.type.described}", node.pos)
        op = ast.NotIn() if node.negated else ast.In()
        return _Val(Type.BOOL, ast.Compare(item.code, [op], [container]))

    def e_IfExp(self, node: n.IfExp) -> _Val:
        cond = self.expr(node.cond)
        self.expect(cond, Type.BOOL, node.cond, "`if` needs a condition (true/false), but this is {}")
        then, orelse = self.expr(node.then), self.expr(node.orelse)
        type_ = then.type or orelse.type
        if then.type is not None and orelse.type is not None and then.type is not orelse.type:
            self.report(
                "E0504",
                f"both sides of `if ... else` must give the same type: {then.type.described} and {orelse.type.described}",
                node.orelse.pos,
            )
            type_ = None
        return _Val(type_, ast.IfExp(cond.code, then.code, orelse.code), nullable=then.nullable or orelse.nullable)

    def e_Call(self, node: n.Call) -> _Val:
        args = [self.expr(a) for a in node.args]
        if node.func not in ("sum", "min", "max"):
            hint = did_you_mean(node.func, _FUNCTIONS) or "the functions are " + ", ".join(f"`{f}`" for f in _FUNCTIONS)
            self.report("E0502", f"unknown function `{node.func}`", node.func_pos, hint)
            return self.bad()
        if node.func == "sum":
            self.report(
                "E0506",
                "`sum` adds up over a collection, not a list of values",
                node.pos,
                "write `sum(t.camels for t in territories)`, or `+` between values",
            )
        elif len(args) < 2:
            self.report(
                "E0506",
                f"`{node.func}` needs at least two values, or one value for each of a collection",
                node.pos,
                f"`{node.func}(a, b)` or `{node.func}(t.camels for t in territories)`",
            )
        for arg, sub in zip(args, node.args):
            self.expect(arg, Type.INT, sub, f"`{node.func}` needs whole numbers, but this is {{}}")
        return _Val(Type.INT, _call(_load("_" + node.func), *(a.code for a in args)))

    def _generator(self, pyname: str, iterable: ast.expr, element: ast.expr, cond: _Val | None) -> ast.GeneratorExp:
        ifs = [cond.code] if cond is not None else []
        return ast.GeneratorExp(element, [ast.comprehension(ast.Name(pyname, ast.Store()), iterable, ifs, 0)])

    def e_Aggregate(self, node: n.Aggregate) -> _Val:
        with self.bind(node.binder) as (pyname, iterable, cond):
            element = self.expr(node.element)
        self.expect(element, Type.INT, node.element, f"`{node.func}` needs whole numbers, but this is {{}}")
        generator = self._generator(pyname, iterable, element.code, cond)
        if node.func == "sum":
            return _Val(Type.INT, _call(_load("_sum"), generator))
        # min/max of nothing is 0, like a sum of nothing.
        return _Val(Type.INT, _call(_load("_" + node.func), generator, default=ast.Constant(0)))

    def e_Quantifier(self, node: n.Quantifier) -> _Val:
        with self.bind(node.binder) as (pyname, iterable, cond):
            pass
        if node.func == "count":
            return _Val(Type.INT, _call(_load("_sum"), self._generator(pyname, iterable, ast.Constant(1), cond)))
        if node.func == "any":
            return _Val(Type.BOOL, _call(_load("_any"), self._generator(pyname, iterable, ast.Constant(True), cond)))
        element = cond.code if cond is not None else ast.Constant(True)
        return _Val(Type.BOOL, _call(_load("_all"), self._generator(pyname, iterable, element, None)))
