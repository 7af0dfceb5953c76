"""Check effect-language snippets and compile them to Python functions.

Pipeline: :func:`~targui_dsl.effects.parser.parse` -> one checking pass over
the nodes that resolves names, infers types and, at the same time, builds
Python ``ast`` nodes -> ``compile()`` -> the function, run against an
:class:`~targui_dsl.effects.runtime.EffectRuntime` passed as ``rt``.

Safety rests on three rules: code is built from ``ast`` nodes only (no text
is ever evaluated); no identifier written by the user becomes a Python
identifier (loop variables are ``_v0``, ``_v1``..., parameters ``_p0``...,
a ruleset's ids are integer constants); and every field access is a call
of a runtime method taken from the fixed tables below.  The function runs
with empty ``__builtins__`` plus the helpers in :data:`_NAMESPACE`.

The checker reports every error it can find in one pass; when there is
any, nothing is compiled.
"""

from __future__ import annotations

import ast
import bisect
import inspect
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Mapping

from targui_dsl.effects import nodes as n
from targui_dsl.effects.code import CompiledCode
from targui_dsl.effects.names import FUNCTIONS
from targui_dsl.effects.parser import Problem, parse
from targui_dsl.effects.runtime import (
    MAX_CHOICE_NUMBERS,
    MAX_ROLL_SIDES,
    MAX_VALUE,
    STEP_BUDGET,
    ChoiceRequest,
    EffectBudgetExceeded,
    RollRequest,
)
from targui_dsl.effects.types import Type
from targui_dsl.effects.vocabulary import Field, Vocabulary
from targui_dsl.frontend.diagnostics import Diagnostic, Span, did_you_mean, error

Locate = Callable[[int], Span]

#: Integer literals above this are refused (E0511).
MAX_INT = MAX_VALUE

#: The file name of diagnostics when no ``locate`` is given.
SNIPPET_FILE = "<effect>"


@dataclass(frozen=True)
class Environment:
    """What a snippet may name besides loop variables.

    ``vocabulary`` is the game's (its globals, fields, verbs). ``ids`` are
    the ruleset's ids a snippet may name, each a constant of a type (a
    territory kind, a tribe: its index). ``params`` are a place's
    parameters in call order (a dict keeps it): the compiled function is
    ``function(rt, *params)``.
    """

    vocabulary: Vocabulary
    ids: Mapping[str, tuple[Type, int]] = field(default_factory=dict)
    params: Mapping[str, Type] = field(default_factory=dict)
    #: True for a value computed when the ruleset is built (a per-seat
    #: starting value): only the parameters, no game state, no ids.
    only_params: bool = False


_FUNCTIONS = tuple(FUNCTIONS)

#: What reading a field through nobody gives, by the field's type.
_DEFAULTS: dict[Type, Any] = {Type.INT: 0, Type.BOOL: False, Type.TERRITORIES: (), Type.PLAYERS: ()}

#: What a choice is over, by the element type of its collection.
_CHOICE_KINDS = {Type.TERRITORY: "territory", Type.PLAYER: "player", Type.INT: "number"}

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


def _sides(sides: int) -> int:
    return max(1, min(MAX_ROLL_SIDES, sides))


def _budget_taker(file: str | None, line: int | None) -> Callable[[list[int], Any], Any]:
    """``_take(budget, items)``: the elements a loop will visit, fixed now and paid for.

    Loops select their elements once, before the body runs: the body cannot
    change which elements are visited. Each element costs one step of the
    run's budget (a one-item list holding the steps left, local to the run);
    the cost is paid before the loop starts, so a runaway stops at once.
    """

    def _take(budget: list[int], items: Any) -> Any:
        if type(items) is not range:  # a range is already fixed, and may be huge
            items = tuple(items)
        budget[0] -= len(items)
        if budget[0] < 0:
            raise EffectBudgetExceeded(file, line)
        return items

    return _take


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
    "_range": _range,
    "_sides": _sides,
    "_Roll": RollRequest,
    "_Choice": ChoiceRequest,
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
    compiler = _Compiler(env, source, what)
    module = compiler.module(tree, what, expected)
    if compiler.problems:
        ordered = sorted(compiler.problems, key=lambda p: (p.start, p.end, p.code))
        return None, [_diagnostic(p, to_span) for p in ordered]
    ast.fix_missing_locations(module)
    where = to_span(0, 0)
    code_object = compile(module, f"<{what} {where.file}:{where.line}>", "exec")
    namespace: dict[str, Any] = {"__builtins__": {}, **_NAMESPACE, "_take": _budget_taker(where.file, where.line)}
    exec(code_object, namespace)
    function = namespace[what]
    return (
        CompiledCode(
            source=source,
            python=ast.unparse(module),
            params=tuple(env.params),
            function=function,
            file=where.file,
            line=where.line,
            pauses=inspect.isgeneratorfunction(function),
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
    what: str = "a loop variable"
    nullable: bool = False


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


def _constant_int(node: ast.expr) -> int | None:
    """The value of a constant whole number (``3``, ``-3``), else None."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _constant_int(node.operand)
        return None if inner is None else -inner
    return None


def _store(name: str) -> ast.Name:
    return ast.Name(name, ast.Store())


def _fields_hint(fields: Mapping[str, Field], type_: Type, name: str) -> str:
    names = list(fields)
    listed = f"{type_.described} has " + ", ".join(f"`{f}`" for f in names)
    guess = did_you_mean(name, names)
    return f"{guess} ({listed})" if guess else listed


class _Compiler:
    def __init__(self, env: Environment, source: str = "", what: str = "effect") -> None:
        self.env = env
        self.vocabulary = env.vocabulary
        self.examples = env.vocabulary.examples
        self.source = source
        self.what = what
        self.problems: list[Problem] = []
        self.scopes: list[dict[str, _Local]] = []
        self.params = {name: (type_, f"_p{i}") for i, (name, type_) in enumerate(env.params.items())}
        self.methods: set[str] = set()
        self.notes: list[str] = [f"{py} = {name}" for name, (_, py) in self.params.items()]
        self.loop_count = 0
        self.temp_count = 0
        self.uses_budget = False  # some loop pays steps: the run needs its budget
        self.loop_depth = 0  # binders around the code being compiled
        # Inside a comprehension (a `where`, `sum(...)`...) Python cannot
        # pause: what the author was writing there, for the message.
        self.no_pause: list[str] = []
        self.binder_types: dict[n.Binder, Type | None] = {}
        self.range_ends: dict[n.RangeLit, tuple[ast.expr, ast.expr]] = {}

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

    def take(self, items: ast.expr) -> ast.expr:
        """``items`` fixed once and paid for from the run's step budget."""
        self.uses_budget = True
        return _call(_load("_take"), _load("_b"), items)

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
            body = self.block(tree.body)
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
        if self.uses_budget:
            # Steps left for this run: a local list, shared with the comprehensions.
            prologue.append(ast.Assign([_store("_b")], ast.List([ast.Constant(STEP_BUDGET)], ast.Load())))
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

    def lookup(self, name: str, only_params: bool | None = None) -> tuple[str, _Val] | None:
        """Resolution order: locals (loop variables and `let`, innermost first), params, globals, ids."""
        for scope in reversed(self.scopes):
            if name in scope:
                local = scope[name]
                return local.what, _Val(local.type, _load(local.pyname), nullable=local.nullable)
        if name in self.params:
            type_, py = self.params[name]
            return "a parameter of this formula", _Val(type_, _load(py))
        if self.env.only_params if only_params is None else only_params:
            return None
        spec = self.vocabulary.globals.get(name)
        if spec is not None:
            return "a global name", _Val(spec.type, _call(self.method(spec.method)), nullable=spec.nullable)
        if name in self.env.ids:
            type_, index = self.env.ids[name]
            return type_.described, _Val(type_, ast.Constant(index))
        return None

    def visible(self) -> set[str]:
        names = {name for scope in self.scopes for name in scope} | set(self.params)
        if self.env.only_params:
            return names
        return names | set(self.vocabulary.globals) | set(self.env.ids)

    def name_free(self, name: str, pos: n.Pos, what: str) -> None:
        found = self.lookup(name, only_params=False)
        if found is not None:
            self.report("E0510", f"`{name}` is already {found[0]}", pos, f"choose another name for the {what}")

    @contextmanager
    def bind(self, binder: n.Binder, where_context: str = "a `where`") -> Iterator[tuple[str, ast.expr, _Val | None]]:
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
        self.scopes.append({binder.var: _Local(element, pyname)})
        self.loop_depth += 1
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
            self.loop_depth -= 1
            self.scopes.pop()

    # statements --------------------------------------------------------------

    def block(self, stmts: tuple[n.Stmt, ...]) -> list[ast.stmt]:
        """A block's statements; a `let` inside is visible until the block ends."""
        self.scopes.append({})
        try:
            out: list[ast.stmt] = []
            for stmt in stmts:
                out.extend(getattr(self, "s_" + type(stmt).__name__)(stmt))
            return out
        finally:
            self.scopes.pop()

    def select(self, pyname: str, items: ast.expr, cond: _Val | None) -> ast.expr:
        """The elements satisfying ``cond``, chosen all at once (a list), from fixed ``items``."""
        if cond is None:
            return items
        return ast.ListComp(_load(pyname), [ast.comprehension(_store(pyname), items, [cond.code], 0)])

    def s_For(self, node: n.For) -> list[ast.stmt]:
        with self.bind(node.binder) as (pyname, iterable, cond):
            body = self.block(node.body)
        # The collection is read and the `where` tested for every element
        # before the body runs once: the body cannot change the selection.
        chosen = self.temp("_s")
        fixed = _at(ast.Assign([_store(chosen)], self.take(iterable)), node.binder.collection.pos)
        out: list[ast.stmt] = [fixed]
        selection: ast.expr = _load(chosen)
        if cond is not None:
            selection = self.select(pyname, _load(chosen), cond)
        out.append(_at(ast.For(_store(pyname), selection, body or [ast.Pass()], []), node.pos))
        return out

    def s_If(self, node: n.If) -> list[ast.stmt]:
        cond = self.expr(node.cond)
        self.expect(cond, Type.BOOL, node.cond, "`if` needs a condition (true/false), but this is {}")
        body = self.block(node.body)
        orelse = self.block(node.orelse)
        return [_at(ast.If(cond.code, body or [ast.Pass()], orelse), node.pos)]

    def s_Let(self, node: n.Let) -> list[ast.stmt]:
        value = self.expr(node.value)
        self.name_free(node.name, node.name_pos, "`let`")
        pyname = self.temp("_l")
        self.notes.append(f"{pyname} = {node.name}")
        code = value.code
        if value.type is not None and value.type.element is not None:
            code = self.take(code)  # a collection is fixed when named
        self.scopes[-1][node.name] = _Local(value.type, pyname, "a name given by `let`", value.nullable or value.is_nobody)
        return [_at(ast.Assign([_store(pyname)], code), node.pos)]

    def s_Choose(self, node: n.Choose) -> list[ast.stmt]:
        chooser = self.expr(node.chooser)
        self.expect(chooser, Type.PLAYER, node.chooser, "only a player can choose, but this is {}")
        out: list[ast.stmt] = []
        who = self.temp("_c")
        out.append(_at(ast.Assign([_store(who)], chooser.code), node.chooser.pos))
        with self.bind(node.binder, "the `where` of a choice") as (pyname, iterable, cond):
            body = self.block(node.body)
        coll_type = self.binder_types.get(node.binder)
        kind = None
        if coll_type is not None and coll_type.element is not None:
            kind = _CHOICE_KINDS.get(coll_type.element)
            if kind is None:
                self.report(
                    "E0504",
                    f"a player chooses a territory, a player or a number, not {coll_type.element.described}",
                    node.binder.collection.pos,
                )
        if isinstance(node.binder.collection, n.RangeLit):
            low, high = (_constant_int(self.range_ends[node.binder.collection][i]) for i in (0, 1))
            if low is not None and high is not None and high - low + 1 > MAX_CHOICE_NUMBERS:
                self.report(
                    "E0522",
                    f"this choice offers {high - low + 1} numbers; a choice offers at most {MAX_CHOICE_NUMBERS}",
                    node.binder.collection.pos,
                    "ask for a smaller range, or a number of tens: `n in 1..10` then `n * 10`",
                )
            # At run time a longer range is cut after its first numbers.
            iterable = ast.Subscript(iterable, ast.Slice(None, ast.Constant(MAX_CHOICE_NUMBERS), None), ast.Load())
        options = self.temp("_o")
        # The options are fixed when the choice is made, as a tuple.
        fixed: ast.expr = ast.Tuple([ast.Starred(self.select(pyname, self.take(iterable), cond), ast.Load())], ast.Load())
        if chooser.nullable or chooser.is_nobody:
            # Nobody chooses nothing: the body is skipped.
            fixed = ast.IfExp(ast.Compare(_load(who), [ast.IsNot()], [ast.Constant(None)]), fixed, ast.Tuple([], ast.Load()))
        out.append(_at(ast.Assign([_store(options)], fixed), node.binder.pos))
        head = " ".join(self.source[node.binder.pos.start : node.binder.pos.end].split())
        described = {"territory": "a territory", "player": "a player", "number": "a number"}.get(kind or "", "")
        request = _call(_load("_Choice"), _load(who), ast.Constant(kind or ""), _load(options), ast.Constant(f"choose {described}: {head}"))
        ask = ast.Assign([_store(pyname)], ast.Yield(request))
        out.append(_at(ast.If(_load(options), [ask] + body, []), node.pos))
        return out

    def s_Move(self, node: n.Move) -> list[ast.stmt]:
        count = self.expr(node.count)
        self.expect(count, Type.INT, node.count, f"`move` needs {self.examples.move_count}, but this is {{}}")
        out: list[ast.stmt] = []
        guards: list[ast.expr] = []
        cells: list[ast.expr] = []
        for sub in (node.source, node.target):
            val = self.expr(sub)
            self.expect(val, Type.TERRITORY, sub, f"{self.examples.move_places}, but this is {{}}")
            code = val.code
            if val.nullable:
                temp = self.temp()
                out.append(_at(ast.Assign([_store(temp)], code), sub.pos))
                code = _load(temp)
                guards.append(ast.Compare(_load(temp), [ast.IsNot()], [ast.Constant(None)]))
            cells.append(code)
        stmt: ast.stmt = ast.Expr(_call(self.method(self.vocabulary.verbs.move), cells[0], cells[1], count.code))
        if guards:
            # Through nobody (a settlement that is not there) nothing moves.
            test = guards[0] if len(guards) == 1 else ast.BoolOp(ast.And(), guards)
            stmt = ast.If(test, [stmt], [])
        out.append(_at(stmt, node.pos))
        return out

    def s_Assign(self, node: n.Assign) -> list[ast.stmt]:
        value = self.expr(node.value)
        target = node.target
        if not isinstance(target, n.Field):
            name = target.name if isinstance(target, n.Name) else "this"
            self.report("E0505", f"`{name}` cannot be assigned: only fields can be changed", target.pos, self.assignable)
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
                self.assignable,
            )
            return []
        if spec.type is Type.INT:
            self.expect(value, Type.INT, node.value, f"`{target.name}` holds a whole number, but this is {{}}")
        elif node.op != "=":
            self.report(
                "E0505",
                f"`{node.op}` needs a number, but the `{target.name}` of {base.type.described} is {spec.type.described}",  # type: ignore[union-attr]
                node.op_pos,
                "give it with `=`: " + self.examples.give.format(name=target.name),
            )
            return []
        else:
            self.expect(value, spec.type, node.value, f"`{target.name}` holds {spec.type.described}, but this is {{}}")
        if node.this_round is not None and spec.round_field is None:
            self.report(
                "E0508",
                f"`this round` applies only to {self.examples.round_fields},"
                f" not to the {target.name} of {base.type.described}",  # type: ignore[union-attr]
                node.this_round,
                f"for example {self.examples.this_round}; other changes last anyway",
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
        if spec.round_field is not None and node.op != "=":
            # A change by a delta: a lasting one applies it to the lasting
            # and to the round value, so a round-long change never leaks.
            delta = new
            if node.op == "-=":
                constant = _constant_int(new)
                delta = ast.Constant(-constant) if constant is not None else ast.UnaryOp(ast.USub(), new)
            write = _call(
                self.method(self.vocabulary.verbs.add),
                ref(),
                ast.Constant(spec.round_field),
                delta,
                ast.Constant(node.this_round is not None),
            )
        elif spec.round_field is not None:
            # Kind values never go below 0 (the engine stores what it is given).
            write = _call(
                self.method(spec.setter),
                ref(),
                ast.Constant(spec.round_field),
                new if _non_negative_constant(new) else _call(_load("_max"), ast.Constant(0), new),
                ast.Constant(node.this_round is not None),
            )
        else:
            if node.op != "=":
                current = _call(self.method(spec.getter), ref())
                new = ast.BinOp(current, ast.Add() if node.op == "+=" else ast.Sub(), new)
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
        if self.env.only_params:
            return self.before_the_game("`round`", node.pos)
        return _Val(Type.INT, _call(self.method(self.vocabulary.verbs.round)))

    def before_the_game(self, what: str, pos: n.Pos) -> _Val:
        """A value worked out before the game starts (a per-seat formula) reads no game state."""
        names = ", ".join(f"`{p}`" for p in self.params)
        self.report(
            "E0502",
            f"{what} cannot be used here: this value is worked out before the game starts",
            pos,
            f"it may use only {names} and numbers",
        )
        return self.bad()

    def e_Name(self, node: n.Name) -> _Val:
        found = self.lookup(node.name)
        if found is None:
            if self.env.only_params and self.lookup(node.name, only_params=False) is not None:
                return self.before_the_game(f"`{node.name}`", node.pos)

            hints = [h for h in (self.vocabulary.parameter_hint(node.name), did_you_mean(node.name, self.visible())) if h]
            hint = "; ".join(hints) or None
            self.report("E0502", f"unknown name `{node.name}`", node.pos, hint)
            return self.bad()
        return found[1]

    def e_RangeLit(self, node: n.RangeLit) -> _Val:
        low, high = self.expr(node.low), self.expr(node.high)
        for side, sub in ((low, node.low), (high, node.high)):
            self.expect(side, Type.INT, sub, "a range `a..b` needs whole numbers, but this is {}")
        self.range_ends[node] = (low.code, high.code)
        return _Val(Type.NUMBERS, _call(_load("_range"), low.code, high.code))

    def field_spec(self, base: _Val, node: n.Field) -> Field | None:
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
            self.report("E0503", f"{base.type.described} has no field `{node.name}`", node.name_pos, _fields_hint(fields, base.type, node.name))
        return spec

    def e_Field(self, node: n.Field) -> _Val:
        base = self.expr(node.base)
        if self.env.only_params and base.type in self.vocabulary.fields:
            # Fields are game state (even a field of `nobody` is read through the game).
            return self.before_the_game(f"`.{node.name}`", node.name_pos)
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
            if self.loop_depth > 0:
                # Inside a loop a membership test scans a collection each
                # time: it pays its elements like a loop, so that a loop's
                # body cannot hide work from the step budget.
                container = self.take(container)
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
        for arg, sub in zip(args, node.args):
            self.expect(arg, Type.INT, sub, f"`{node.func}` needs whole numbers, but this is {{}}")
        return _Val(Type.INT, _call(_load("_" + node.func), *(a.code for a in args)))

    def roll(self, node: n.Call, args: list[_Val]) -> _Val:
        """``roll(n)``: a die thrown through the game; the snippet pauses for it."""
        if len(args) != 1:
            self.report("E0506", "`roll` takes one number: the sides of the die", node.pos, "`roll(6)` throws a six-sided die")
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
        constant = _constant_int(sides.code)
        if constant is not None and not 1 <= constant <= MAX_ROLL_SIDES:
            self.report("E0521", f"a die with {constant} sides cannot be thrown", node.args[0].pos, f"a die has 1 to {MAX_ROLL_SIDES} sides")
            return self.bad()
        count = ast.Constant(constant) if constant is not None else _call(_load("_sides"), sides.code)
        return _Val(Type.INT, ast.Yield(_call(_load("_Roll"), count)))

    def _generator(self, pyname: str, iterable: ast.expr, element: ast.expr, cond: _Val | None, alone: bool) -> ast.GeneratorExp:
        ifs = [cond.code] if cond is not None else []
        # An aggregate standing alone (in no loop, holding none) visits at
        # most the board and changes nothing: it needs neither a fixed
        # selection nor steps, and the levy and score formulas stay as fast.
        items = iterable if alone else self.take(iterable)
        return ast.GeneratorExp(element, [ast.comprehension(ast.Name(pyname, ast.Store()), items, ifs, 0)])

    def bounded(self, binder: n.Binder) -> bool:
        """Whether the collection holds at most the board (a range `1..n` may hold anything)."""
        return self.binder_types.get(binder) is not Type.NUMBERS

    @contextmanager
    def comprehension(self, func: str) -> Iterator[Callable[[], bool]]:
        """Yields a test, valid after the block: is this aggregate alone (in no loop, holding none)?"""
        self.no_pause.append(f"`{func}(...)`")
        outer, first = self.loop_depth, self.loop_count
        try:
            yield lambda: outer == 0 and self.loop_count == first + 1
        finally:
            self.no_pause.pop()

    def e_Aggregate(self, node: n.Aggregate) -> _Val:
        with self.comprehension(node.func) as alone, self.bind(node.binder, f"`{node.func}(...)`") as (pyname, iterable, cond):
            element = self.expr(node.element)
        self.expect(element, Type.INT, node.element, f"`{node.func}` needs whole numbers, but this is {{}}")
        generator = self._generator(pyname, iterable, element.code, cond, alone() and self.bounded(node.binder))
        if node.func == "sum":
            return _Val(Type.INT, _call(_load("_sum"), generator))
        # min/max of nothing is 0, like a sum of nothing.
        return _Val(Type.INT, _call(_load("_" + node.func), generator, default=ast.Constant(0)))

    def e_Quantifier(self, node: n.Quantifier) -> _Val:
        with self.comprehension(node.func) as alone, self.bind(node.binder, f"`{node.func}(...)`") as (pyname, iterable, cond):
            pass
        single = alone() and self.bounded(node.binder)
        if node.func == "count":
            return _Val(Type.INT, _call(_load("_sum"), self._generator(pyname, iterable, ast.Constant(1), cond, single)))
        if node.func == "any":
            return _Val(Type.BOOL, _call(_load("_any"), self._generator(pyname, iterable, ast.Constant(True), cond, single)))
        element = cond.code if cond is not None else ast.Constant(True)
        return _Val(Type.BOOL, _call(_load("_all"), self._generator(pyname, iterable, element, None, single)))
