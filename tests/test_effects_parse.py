"""The parser: every construct becomes the right node, with positions; syntax errors are E0501."""

from __future__ import annotations

import pytest

from targui_dsl.effects import KEYWORDS
from targui_dsl.effects import nodes as n
from targui_dsl.effects.parser import MAX_DEPTH, parse_effect, parse_formula


def formula(text: str) -> n.Expr:
    tree, problems = parse_formula(text)
    assert problems == [], problems
    return tree.expr


def effect(text: str) -> tuple[n.Stmt, ...]:
    tree, problems = parse_effect(text)
    assert problems == [], problems
    return tree.body


def test_nodes_are_frozen_values():
    import copy
    import pickle
    from dataclasses import FrozenInstanceError

    one, other = formula("a.camels + 1"), formula("a.camels + 2")
    again = copy.deepcopy(one)
    assert one == again and hash(one) == hash(again) and one is not again and one.left is not again.left
    assert one != other and n.NobodyLit(one.pos) != n.RoundLit(one.pos)  # equal fields, other kinds of node
    assert pickle.loads(pickle.dumps(one)) == one
    assert n.fields_of(one) == ("pos", "op", "left", "right", "op_pos") == n.BinOp.__match_args__
    assert n.Pos(1, 2, 3, 4, end=6, start=5) == n.Pos(1, 2, 3, 4, 5, 6)
    assert repr(n.Pos(1, 2, 3, 4, 5, 6)) == "Pos(line=1, column=2, end_line=3, end_column=4, start=5, end=6)"
    with pytest.raises(FrozenInstanceError):
        one.op = "-"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        one.extra = 1  # type: ignore[attr-defined]  # slots: no other attribute
    for wrong in ((1, 2), (1, 2, 3, 4, 5, 6, 7)):
        with pytest.raises(TypeError):
            n.Pos(*wrong)
    with pytest.raises(TypeError):
        n.Pos(1, 2, 3, 4, 5, bogus=6)


def test_literals_and_names():
    assert formula("42") == n.IntLit(formula("42").pos, 42, "42")
    assert isinstance(formula("true"), n.BoolLit) and formula("true").value is True
    assert formula("false").value is False
    assert isinstance(formula("nobody"), n.NobodyLit)
    assert isinstance(formula("round"), n.RoundLit)
    assert formula("kel_ress").name == "kel_ress"


def test_fields_chain_left_to_right():
    expr = formula("p.settlement.camels")
    assert isinstance(expr, n.Field) and expr.name == "camels"
    assert isinstance(expr.base, n.Field) and expr.base.name == "settlement"
    assert expr.base.base.name == "p"
    # name_pos is the field name itself, for "unknown field" diagnostics
    assert (expr.name_pos.column, expr.name_pos.end_column) == (14, 20)


def test_arithmetic_precedence_and_associativity():
    expr = formula("1 + 2 * 3 - 4 // 2 % 3")
    assert isinstance(expr, n.BinOp) and expr.op == "-"
    assert expr.left.op == "+" and expr.left.right.op == "*"
    assert expr.right.op == "%" and expr.right.left.op == "//"
    neg = formula("-a.camels")
    assert isinstance(neg, n.Neg) and isinstance(neg.operand, n.Field)
    assert formula("1 / 2").op == "/"  # parsed, refused by the checker (E0507)


def test_logic_precedence():
    expr = formula("not a or b and c == 1")
    assert isinstance(expr, n.BoolOp) and expr.op == "or"
    assert isinstance(expr.left, n.Not)
    assert expr.right.op == "and" and isinstance(expr.right.right, n.Compare)


@pytest.mark.parametrize("op", ["==", "!=", "<", "<=", ">", ">="])
def test_comparisons(op):
    expr = formula(f"a {op} b")
    assert isinstance(expr, n.Compare) and expr.op == op
    assert expr.op_pos.column == 3


def test_membership():
    expr = formula("t.kind in [erg, reg]")
    assert isinstance(expr, n.Membership) and not expr.negated
    assert [i.name for i in expr.container.items] == ["erg", "reg"]
    expr = formula("t not in p.territories")
    assert expr.negated and isinstance(expr.container, n.Field)
    assert formula("x in []").container.items == ()


def test_conditional_expression():
    expr = formula("a if c else b if d else e")
    assert isinstance(expr, n.IfExp) and expr.cond.name == "c"
    assert isinstance(expr.orelse, n.IfExp)


def test_calls_aggregates_quantifiers():
    call = formula("min(a, b, 3)")
    assert isinstance(call, n.Call) and call.func == "min" and len(call.args) == 3
    unknown = formula("abs()")
    assert isinstance(unknown, n.Call) and unknown.func == "abs" and unknown.args == ()
    agg = formula("sum(t.economic for t in player.territories where t.camels > 0)")
    assert isinstance(agg, n.Aggregate) and agg.func == "sum"
    assert agg.binder.var == "t" and isinstance(agg.binder.where, n.Compare)
    for func in ("min", "max"):
        assert formula(f"{func}(t.camels for t in territories)").func == func
    for func in ("count", "any", "all"):
        q = formula(f"{func}(t in territories where t.owned)")
        assert isinstance(q, n.Quantifier) and q.func == func
    assert formula("count(p in players)").binder.where is None


def test_statements():
    body = effect(
        "for t in territories where t.kind == erg { t.camels -= 3 }\n"
        "if round > 2 { box = 1 } else if round > 1 { a.b += 1 } else { }\n"
        "erg.strategic = 3 this round; p.cash = 0;;"
    )
    loop, cond, kind, cash = body
    assert isinstance(loop, n.For) and loop.binder.var == "t"
    assert isinstance(loop.body[0], n.Assign) and loop.body[0].op == "-="
    assert isinstance(cond, n.If) and isinstance(cond.orelse[0], n.If) and cond.orelse[0].orelse == ()
    assert kind.this_round is not None and (kind.this_round.column, kind.this_round.end_column) == (19, 29)
    assert cash.this_round is None and cash.op == "="


def test_empty_effect_is_allowed():
    assert effect("") == () and effect(" \n ; ") == ()


def test_positions_are_line_column_and_offsets():
    text = "for t in territories {\n  t.camels += 1\n}"
    (loop,) = effect(text)
    assign = loop.body[0]
    assert (assign.pos.line, assign.pos.column, assign.pos.end_line, assign.pos.end_column) == (2, 3, 2, 16)
    assert text[assign.pos.start : assign.pos.end] == "t.camels += 1"
    assert (loop.pos.line, loop.pos.end_line, loop.pos.end_column) == (1, 3, 2)


def test_nodes_are_frozen():
    expr = formula("1")
    with pytest.raises(AttributeError):
        expr.value = 2  # type: ignore[misc]


# Syntax errors ---------------------------------------------------------------


def problem(text: str, start: str = "effect"):
    tree, problems = (parse_effect if start == "effect" else parse_formula)(text)
    assert tree is None and len(problems) == 1
    return problems[0]


def test_missing_brace_at_end():
    p = problem("for t in territories { t.camels -= 3")
    assert p.code == "E0501"
    assert p.message == "expected `}` or a statement but found end of effect"
    assert p.start == len("for t in territories { t.camels -= 3")


def test_end_of_formula_points_past_last_token_not_trailing_newlines():
    text = "(die + 1\n\n"
    p = problem(text, "formula")
    assert "`)`" in p.message and p.message.endswith("end of formula")
    assert p.start == len("(die + 1")


def test_unexpected_token_lists_plain_words():
    p = problem("for t in territories where t.kind = erg { }")
    assert p.message.startswith("expected ") and p.message.endswith("but found `=`")
    assert p.hint == "use `==` to compare"
    assert (p.start, p.end) == (34, 35)


def test_conditional_in_assignment_needs_parentheses_hint():
    p = problem("t.camels = 3 if x else 4")
    assert "found `else`" in p.message and "parentheses" in p.hint


def test_reserved_word_as_name():
    p = problem("for round in territories { }")
    assert "found `round`" in p.message and "reserved" in p.hint
    assert {"for", "round", "sum", "nobody", "this"} <= KEYWORDS


def test_unexpected_character():
    p = problem("a @ b", "formula")
    assert p.message == "unexpected character `@`" and (p.start, p.end) == (2, 3)
    assert "braces" in problem("for t in territories: t.camels = 1").hint


def test_empty_formula():
    p = problem("", "formula")
    assert p.message == "expected an expression but found end of formula"


def test_chained_comparison_is_a_syntax_error():
    assert problem("1 < 2 < 3", "formula").code == "E0501"


def test_nesting_limit():
    # Parentheses add no depth (they make no node); operators do.
    assert problem("-" * (MAX_DEPTH + 5) + "1", "formula").code == "E0511"
    assert problem("not " * (MAX_DEPTH + 5) + "true", "formula").code == "E0511"
    assert parse_formula("-" * 20 + "1")[1] == []
    assert parse_formula("(" * 500 + "1" + ")" * 500)[1] == []


def test_syntax_hints_show_the_games_examples():
    from targui_dsl.effects import compile_effect
    from targui_dsl.effects.parser import SYNTAX_EXAMPLES
    from targui_dsl.games.targui.names import VOCABULARY, environment

    assert set(VOCABULARY.examples.syntax) == set(SYNTAX_EXAMPLES)
    _, (problem,) = compile_effect("for t in territories: t.camels = 1", environment({}, {}))
    assert problem.hint == "blocks are written in braces: `for t in territories { ... }`"
    # The parser alone knows no game: its hint shows the language's own example.
    _, (bare,) = parse_effect("for t in territories: t.camels = 1")
    assert bare.hint == "blocks are written in braces: `for x in COLLECTION { ... }`"
    _, (listed,) = compile_effect("t.kind = [erg]", environment({"erg": 0}, {}))
    assert listed.hint == "a list `[...]` is only allowed after `in`: `t.kind in [erg, reg]`"
