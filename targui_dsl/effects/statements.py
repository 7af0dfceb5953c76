"""The statement half of the effect compiler: statements, and the function around a snippet.

:class:`SnippetEmitter` adds to the expression pass
(:mod:`targui_dsl.effects.expressions`) the statements of an effect
(``for``, ``if``, ``let``, choices, ``move``, assignments) and the
function a snippet compiles to: ``function(rt, *params)``, the field lists
it reads fetched once, and the run's step budget.
"""

from __future__ import annotations

import ast
import sys
from typing import Any

from targui_dsl.effects import nodes as n
from targui_dsl.effects.expressions import (
    ExpressionEmitter,
    Local,
    Val,
    at,
    call,
    constant_int,
    load,
    non_negative_constant,
    store,
)
from targui_dsl.effects.runtime import MAX_CHOICE_NUMBERS, STEP_BUDGET
from targui_dsl.effects.types import Type
from targui_dsl.effects.vocabulary import Memory
from targui_dsl.frontend.diagnostics import did_you_mean

#: The longest reason `end game "..."` may give (the end screen shows it on one line).
MAX_REASON = 80



class SnippetEmitter(ExpressionEmitter):
    """The checking and emitting pass over a whole snippet (an effect or a formula)."""

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
            body = [at(ast.Return(val.code), tree.expr.pos)]
        # shown as the function's docstring by `targui show --compiled`, never compiled (two nodes
        # less to compile at a snippet's first call, and nothing reads a snippet's __doc__)
        self.doc = f"Compiled {what}." + (f" Names: {', '.join(self.notes)}." if self.notes else "")
        prologue: list[ast.stmt] = [
            ast.Assign([ast.Name(f"_a_{v}", ast.Store())], call(ast.Attribute(load("rt"), v, ast.Load())))
            for v, reads in sorted(self.values_read.items()) if reads
        ]
        if self.uses_budget and self.most_steps is not None and self.most_steps <= STEP_BUDGET:
            # No run can pay more steps than the budget holds: nothing to count. A collection is
            # still fixed (a tuple) before its loop runs; a payment alone is left out.
            for taken in self.takes:
                taken.func, taken.args = load("_tuple"), taken.args[1:]
            for taken, put in self.at_once:  # read at once, by an expression: nothing can change it
                put(taken.args[0])
            left_out = [*self.pays]
            for held, reads, at_once in self.held:
                value = held.value
                if at_once and isinstance(value, ast.Call) and any(value is taken for taken in self.takes):
                    value = value.args[0]
                reads.iter = value
                left_out.append(held)
            body = _without(body, set(map(id, left_out)))
        elif self.uses_budget:
            # Steps left for this run: a local list, shared with the comprehensions.
            prologue.append(ast.Assign([store("_b")], ast.List([ast.Constant(STEP_BUDGET)], ast.Load())))
        args = [ast.arg("rt")] + [ast.arg(py) for _, py in self.params.values()]
        extra: dict[str, Any] = {"type_params": []} if sys.version_info >= (3, 12) else {}
        function = ast.FunctionDef(
            name=what,
            args=ast.arguments(
                posonlyargs=[], args=args, vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[]
            ),
            body=prologue + (body or [ast.Pass()]),
            decorator_list=[],
            returns=None,
            **extra,
        )
        function.lineno, function.col_offset = 1, 0
        return ast.Module([function], type_ignores=[])

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

    def select(self, pyname: str, items: ast.expr, cond: Val | None) -> ast.expr:
        """The elements satisfying ``cond``, chosen all at once (a list), from fixed ``items``."""
        if cond is None:
            return items
        return ast.ListComp(load(pyname), [ast.comprehension(store(pyname), items, [cond.code], 0)])

    def s_For(self, node: n.For) -> list[ast.stmt]:
        with self.bind(node.binder) as (pyname, iterable, cond):
            self.loops += 1
            try:
                body = self.block(node.body)
            finally:
                self.loops -= 1
        # The collection is read and the `where` tested for every element
        # before the body runs once: the body cannot change the selection.
        chosen = self.temp("_s")
        indexed = self.indexed(node.binder, pyname, cond)
        if indexed is not None:  # `where t.kind == K ...`: the elements of that kind, from the game's index
            lookup, rest = indexed
            where = node.binder.collection.pos
            # every element is paid for, as a loop over them all would be: the same budget
            pay = at(ast.Expr(self.take(iterable, self.most(node.binder.collection))), where)
            self.pays.append(pay)  # only pays: left out where no step can be past the budget
            held = ast.Assign([store(chosen)], lookup)
            out: list[ast.stmt] = [pay, at(held, where)]
            cond = None if rest is None else Val(Type.BOOL, rest)
        else:
            taken = self.take(iterable, self.most(node.binder.collection))
            held = ast.Assign([store(chosen)], taken)
            out = [at(held, node.binder.collection.pos)]
        selection: ast.expr = load(chosen)
        if cond is not None:
            selection = self.select(pyname, load(chosen), cond)
        loop = ast.For(store(pyname), selection, body or [ast.Pass()], [])
        out.append(at(loop, node.pos))
        # where no step can be past the budget, the collection goes where it is read, not by a name
        # (a selection reads it at once: then it need not be fixed first)
        reads = selection.generators[0] if isinstance(selection, ast.ListComp) else loop
        self.held.append((held, reads, isinstance(selection, ast.ListComp)))
        return out

    def indexed(self, binder: n.Binder, pyname: str, cond: Val | None) -> tuple[ast.expr, ast.expr | None] | None:
        """For a loop over a global collection with an index (``Global.index``) whose `where`
        begins with ``x.FIELD == CONSTANT`` on an indexed field: the call giving those elements
        (in the collection's order) and the rest of the condition (None: nothing left). Else None."""
        collection = binder.collection
        if cond is None or not isinstance(collection, n.Name):
            return None
        found = self.lookup(collection.name)
        spec = self.vocabulary.globals.get(collection.name)
        if found is None or found[0] != "a global name" or spec is None or not spec.index:
            return None
        element = spec.type.element
        fields = self.vocabulary.fields.get(element) if element is not None else None
        if not fields:
            return None
        methods = {f"_a_{fields[name].values}": method for name, method in spec.index.items()
                   if name in fields and fields[name].values is not None}
        head, rest = _first_conjunct(cond.code)
        if not (isinstance(head, ast.Compare) and len(head.ops) == 1 and isinstance(head.ops[0], ast.Eq)):
            return None
        read, value = head.left, head.comparators[0]
        if not (isinstance(read, ast.Subscript) and isinstance(read.value, ast.Name) and read.value.id in methods
                and isinstance(read.slice, ast.Name) and read.slice.id == pyname
                and isinstance(value, ast.Constant) and type(value.value) is int):
            return None
        self.values_read[read.value.id[3:]] -= 1  # that read is gone from the code
        return call(self.method(methods[read.value.id]), ast.Constant(value.value)), rest

    def s_If(self, node: n.If) -> list[ast.stmt]:
        cond = self.expr(node.cond)
        self.expect(cond, Type.BOOL, node.cond, "`if` needs a condition (true/false), but this is {}")
        body = self.block(node.body)
        orelse = self.block(node.orelse)
        return [at(ast.If(cond.code, body or [ast.Pass()], orelse), node.pos)]

    def s_Let(self, node: n.Let) -> list[ast.stmt]:
        value = self.expr(node.value)
        self.name_free(node.name, node.name_pos, "`let`")
        pyname = self.temp("_l")
        self.local_sizes[pyname] = self.most(node.value)
        self.notes.append(f"{pyname} = {node.name}")
        code = value.code
        if value.type is not None and value.type.element is not None:
            code = self.take(code, self.most(node.value))  # a collection is fixed when named
        self.scopes[-1][node.name] = Local(
            value.type, pyname, "a name given by `let`", value.nullable or value.is_nobody
        )
        return [at(ast.Assign([store(pyname)], code), node.pos)]

    def s_Choose(self, node: n.Choose) -> list[ast.stmt]:
        chooser = self.expr(node.chooser)
        self.expect(chooser, Type.PLAYER, node.chooser, "only a player can choose, but this is {}")
        out: list[ast.stmt] = []
        who = self.temp("_c")
        out.append(at(ast.Assign([store(who)], chooser.code), node.chooser.pos))
        with self.bind(node.binder, "the `where` of a choice") as (pyname, iterable, cond):
            body = self.block(node.body)
        coll_type = self.binder_types.get(node.binder)
        kind = None
        element = coll_type.element if coll_type is not None else None
        if element is not None:
            kind = element.choice
            if kind is None:
                self.report(
                    "E0504",
                    f"a player chooses {self.vocabulary.choosable}, not {element.described}",
                    node.binder.collection.pos,
                )
        written = node.binder.collection
        if isinstance(written, n.ListLit) and len(written.items) > MAX_CHOICE_NUMBERS:
            self.report(
                "E0522",
                f"this choice offers {len(written.items)} values; a choice offers at most {MAX_CHOICE_NUMBERS}",
                written.pos,
                "offer fewer values",
            )
        if isinstance(node.binder.collection, n.RangeLit):
            low, high = (constant_int(self.range_ends[node.binder.collection][i]) for i in (0, 1))
            if low is not None and high is not None and high - low + 1 > MAX_CHOICE_NUMBERS:
                self.report(
                    "E0522",
                    f"this choice offers {high - low + 1} numbers; a choice offers at most {MAX_CHOICE_NUMBERS}",
                    node.binder.collection.pos,
                    "ask for a smaller range, or a number of tens: `n in 1..10` then `n * 10`",
                )
            # At run time a longer range is cut after its first numbers.
            iterable = ast.Subscript(iterable, ast.Slice(None, ast.Constant(MAX_CHOICE_NUMBERS), None), ast.Load())
        size = self.most(written)
        if isinstance(written, n.RangeLit):  # cut after its first numbers
            size = MAX_CHOICE_NUMBERS if size is None else min(size, MAX_CHOICE_NUMBERS)
        options = self.temp("_o")
        # The options are fixed when the choice is made, as a tuple.
        taken = self.take(iterable, size)
        chosen = self.select(pyname, taken, cond)
        starred = ast.Starred(chosen, ast.Load())
        # made a tuple at once: the collection need not be fixed first where no step can be past the budget
        if isinstance(chosen, ast.ListComp):
            comprehension = chosen.generators[0]
            self.at_once.append((taken, lambda items: setattr(comprehension, "iter", items)))
        else:
            self.at_once.append((taken, lambda items: setattr(starred, "value", items)))
        fixed: ast.expr = ast.Tuple([starred], ast.Load())
        if isinstance(written, n.ListLit):
            fixed = call(load("_distinct"), fixed)  # each value is one option, however often written
        if element is not None and element.by_place and not isinstance(written, n.RangeLit):
            # answered by place (a count's ids): at most MAX_CHOICE_NUMBERS of them, like a range
            fixed = ast.Subscript(fixed, ast.Slice(None, ast.Constant(MAX_CHOICE_NUMBERS), None), ast.Load())
        if chooser.nullable or chooser.is_nobody:
            # Nobody chooses nothing: the body is skipped.
            fixed = ast.IfExp(
                ast.Compare(load(who), [ast.IsNot()], [ast.Constant(None)]), fixed, ast.Tuple([], ast.Load())
            )
        out.append(at(ast.Assign([store(options)], fixed), node.binder.pos))
        head = " ".join(self.source[node.binder.pos.start : node.binder.pos.end].split())
        described = element.prompt if element is not None and kind is not None else ""
        request = call(
            load("_Choice"),
            load(who),
            ast.Constant(kind or ""),
            load(options),
            ast.Constant(f"choose {described}: {head}"),
        )
        ask = ast.Assign([store(pyname)], ast.Yield(request))
        self.pauses = True
        out.append(at(ast.If(load(options), [ask] + body, []), node.pos))
        return out

    def s_Move(self, node: n.Move) -> list[ast.stmt]:
        count = self.expr(node.count)
        self.expect(count, Type.INT, node.count, f"`move` needs {self.examples.move_count}, but this is {{}}")
        out: list[ast.stmt] = []
        guards: list[ast.expr] = []
        cells: list[ast.expr] = []
        place = self.vocabulary.verbs.move_place
        if place is None:
            self.report("E0504", self.examples.move_places, node.pos)
            return []
        for sub in (node.source, node.target):
            val = self.expr(sub)
            self.expect(val, place, sub, f"{self.examples.move_places}, but this is {{}}")
            code = val.code
            if val.nullable:
                temp = self.temp()
                out.append(at(ast.Assign([store(temp)], code), sub.pos))
                code = load(temp)
                guards.append(ast.Compare(load(temp), [ast.IsNot()], [ast.Constant(None)]))
            cells.append(code)
        stmt: ast.stmt = ast.Expr(call(self.method(self.vocabulary.verbs.move), cells[0], cells[1], count.code))
        if guards:
            # Through nobody (a settlement that is not there) nothing moves.
            test = guards[0] if len(guards) == 1 else ast.BoolOp(ast.And(), guards)
            stmt = ast.If(test, [stmt], [])
        out.append(at(stmt, node.pos))
        return out

    def s_EndGame(self, node: n.EndGame) -> list[ast.stmt]:
        reason = node.reason
        problem = None
        if not reason.strip():
            problem = "an `end game` needs a reason: it is what the end screen and the studies show"
        elif len(reason) > MAX_REASON:
            problem = f"this reason is {len(reason)} characters long; the most is {MAX_REASON}"
        elif not reason.isprintable() or reason != reason.strip():
            problem = "a reason is one line of plain text, with no spaces around it"
        if problem is not None:
            self.report("E0524", problem, node.reason_pos, 'for example `end game "a player holds 12 territories"`')
            return []
        self.end_reasons.append(reason)
        # The game is over: nothing after this runs (the rest of the effect, its loops).
        end = ast.Expr(call(self.method(self.vocabulary.verbs.end_game), ast.Constant(reason)))
        return [at(end, node.pos), at(ast.Return(None), node.pos)]

    def s_Break(self, node: n.Break) -> list[ast.stmt]:
        if not self.loops:
            self.report("E0525", "`break` leaves a `for` loop, but it is not inside one", node.pos,
                        "write it inside the body of a `for`: `for i in 1..5 { ... if DONE { break } }`")
            return []
        return [at(ast.Break(), node.pos)]

    def s_Perform(self, node: n.Perform) -> list[ast.stmt]:
        procedures = self.vocabulary.procedures
        proc = procedures.get(node.name)
        if proc is None:
            if not procedures:
                self.report("E0526", f"`{node.name}(...)` calls a procedure, but {self.vocabulary.game} declares"
                            " none", node.name_pos, "change something with an assignment instead: `"
                            + self.examples.syntax["statement"] + "`")
            else:
                self.report("E0526", f"{self.vocabulary.game} has no procedure `{node.name}`", node.name_pos,
                            did_you_mean(node.name, list(procedures))
                            or "the procedures are " + ", ".join(f"`{p}()`" for p in sorted(procedures)))
            for arg in node.args:
                self.expr(arg.value)  # its own problems still show
            return []
        given: dict[str, ast.expr] = {}
        unknown = False
        for arg in node.args:
            value = self.expr(arg.value)
            wanted = proc.params.get(arg.name)
            if wanted is None:
                unknown = True
                names = list(proc.params)
                self.report("E0526", f"`{node.name}` has no argument `{arg.name}`", arg.name_pos,
                            did_you_mean(arg.name, names) or (f"its arguments are {', '.join(names)}" if names
                                                              else f"write `{node.name}()`"))
            elif arg.name in given:
                self.report("E0526", f"`{arg.name}` is given twice", arg.name_pos, "give each argument once")
            else:
                self.expect(value, wanted, arg.value, f"`{arg.name}` of `{node.name}` is {wanted.described},"
                            " but this is {}")
                given[arg.name] = value.code
        missing = [name for name in proc.params if name not in given]
        if missing and not unknown:  # a misspelt argument is the one problem told
            example = ", ".join(f"{name} = ..." for name in proc.params)
            self.report("E0526", f"`{node.name}` needs {', '.join(f'`{m}`' for m in missing)}", node.pos,
                        f"give every argument by name: `{node.name}({example})`")
        if missing:
            return []
        args = [given[name] for name in proc.params]
        return [at(ast.Expr(call(self.method(proc.method), *args)), node.pos)]

    def s_Assign(self, node: n.Assign) -> list[ast.stmt]:
        value = self.expr(node.value)
        target = node.target
        if not isinstance(target, n.Field):
            name = target.name if isinstance(target, n.Name) else "this"
            slot = self.env.memory_of(name, None)
            if slot is not None:
                return self.assign_memory(node, slot, value, ast.Constant(None), None)
            guess = did_you_mean(name, self.kept_on(None)) if isinstance(target, n.Name) else None
            if guess is None and isinstance(target, n.Name) and self.vocabulary.memory_holders:
                guess = "to keep a value of your own, declare it under `memory:` in the ruleset; " + self.assignable
            self.report(
                "E0505", f"`{name}` cannot be assigned: only fields and declared memory can be changed", target.pos,
                guess or self.assignable,
            )
            return []
        base = self.expr(target.base)
        slot = self.env.memory_of(target.name, base.type) if base.type is not None else None
        if slot is not None:
            return self.assign_memory(node, slot, value, base.code, target.base)
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
        if spec.type == Type.INT:
            self.expect(value, Type.INT, node.value, f"`{target.name}` holds a whole number, but this is {{}}")
        elif node.op != "=":
            assert base.type is not None  # a field was found on it
            self.report(
                "E0505",
                f"`{node.op}` needs a number, but the `{target.name}` of {base.type.described}"
                f" is {spec.type.described}",
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
            held = base.code.id

            def ref() -> ast.expr:
                return load(held)
        elif isinstance(base.code, ast.Constant):
            element = base.code.value

            def ref() -> ast.expr:
                return ast.Constant(element)
        else:
            temp = f"_t{self.temp_count}"
            self.temp_count += 1
            out.append(at(ast.Assign([ast.Name(temp, ast.Store())], base.code), target.base.pos))

            def ref() -> ast.expr:
                return load(temp)
        new = value.code
        if spec.round_field is not None and node.op != "=":
            # A change by a delta: a lasting one applies it to the lasting
            # and to the round value, so a round-long change never leaks.
            delta = new
            if node.op == "-=":
                constant = constant_int(new)
                delta = ast.Constant(-constant) if constant is not None else ast.UnaryOp(ast.USub(), new)
            write = call(
                self.method(self.vocabulary.verbs.add),
                ref(),
                ast.Constant(spec.round_field),
                delta,
                ast.Constant(node.this_round is not None),
            )
        elif spec.round_field is not None:
            # Kind values never go below 0 (the engine stores what it is given).
            write = call(
                self.method(spec.setter),
                ref(),
                ast.Constant(spec.round_field),
                new if non_negative_constant(new) else call(load("_max"), ast.Constant(0), new),
                ast.Constant(node.this_round is not None),
            )
        else:
            if node.op != "=":
                # read where the write is: inside the test for nobody, so never through nobody
                current: ast.expr = (
                    ast.Subscript(self.values(spec.values), ref(), ast.Load()) if spec.values is not None
                    else call(self.method(spec.getter), ref())
                )
                new = ast.BinOp(current, ast.Add() if node.op == "+=" else ast.Sub(), new)
            write = call(self.method(spec.setter), ref(), new)
        stmt: ast.stmt = ast.Expr(write)
        if base.nullable:
            # Through nobody an assignment does nothing.
            stmt = ast.If(ast.Compare(ref(), [ast.IsNot()], [ast.Constant(None)]), [stmt], [])
        out.append(at(stmt, node.pos))
        return out

    def assign_memory(
        self, node: n.Assign, slot: Memory, value: Val, holder: ast.expr, holder_node: n.Expr | None
    ) -> list[ast.stmt]:
        """``x.bid += 3``, ``auction_open = true``: declared memory, written through the game by its
        slot number; the game clamps the value, or refuses it, at the slot's bounds."""
        what = f"`{slot.name}`"
        if slot.type == Type.BOOL and node.op != "=":
            self.report("E0505", f"`{node.op}` needs a number, but {what} is a flag (true/false)", node.op_pos,
                        f"give it with `=`: `{slot.name} = true`")
            return []
        self.expect(value, slot.type, node.value, f"{what} holds {slot.type.described}, but this is {{}}")
        if node.this_round is not None:
            self.report("E0508", f"`this round` applies only to {self.examples.round_fields}, not to {what}",
                        node.this_round, f"for example {self.examples.this_round}; memory keeps what it is given")
        out: list[ast.stmt] = []
        if holder_node is not None and not isinstance(holder, (ast.Name, ast.Constant)):
            temp = self.temp()  # the holder is worked out once for a read-modify-write
            out.append(at(ast.Assign([store(temp)], holder), holder_node.pos))
            holder = load(temp)
        new = value.code
        if node.op != "=":
            new = ast.BinOp(self.memory_read(slot, holder), ast.Add() if node.op == "+=" else ast.Sub(), new)
        write = call(self.method(self.vocabulary.verbs.set_memory), ast.Constant(slot.index), holder, new)
        out.append(at(ast.Expr(write), node.pos))
        return out


def _without(body: list[ast.stmt], left_out: set[int]) -> list[ast.stmt]:
    """``body`` without the statements whose ids are in ``left_out``, in its blocks too."""
    if not left_out:
        return body
    kept = [stmt for stmt in body if id(stmt) not in left_out]
    for stmt in kept:
        if isinstance(stmt, (ast.For, ast.If)):  # the blocks a snippet's statements make
            stmt.body = _without(stmt.body, left_out) or [ast.Pass()]
            stmt.orelse = _without(stmt.orelse, left_out)
    return kept


def _first_conjunct(code: ast.expr) -> tuple[ast.expr, ast.expr | None]:
    """``a and b and c`` -> (a, ``b and c``); anything else -> (it, None)."""
    if isinstance(code, ast.BoolOp) and isinstance(code.op, ast.And):
        head, rest = _first_conjunct(code.values[0])
        others = ([rest] if rest is not None else []) + code.values[1:]
        return head, others[0] if len(others) == 1 else ast.BoolOp(ast.And(), others)
    return code, None
