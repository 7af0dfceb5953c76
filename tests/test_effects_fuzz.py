"""Property tests: programs generated from the grammar parse, compile and run;
arbitrary text only ever yields diagnostics inside the snippet."""

from __future__ import annotations

import os

from effect_fake import KIND_INDEX, TRIBE_INDEX, TRIBES, board, drive
from effect_fake import KINDS as KIND_TABLE
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from targui_dsl.effects import PLAYER, Type, compile_effect, compile_formula
from targui_dsl.effects.cost import choice_bound
from targui_dsl.effects.parser import parse_effect, parse_formula
from targui_dsl.effects.runtime import MAX_CHOICE_NUMBERS, MAX_CHOICES, EffectTooManyChoices
from targui_dsl.games.targui.build import sizes
from targui_dsl.games.targui.names import TERRITORY, environment

# Params give every type a leaf, so the typed generator never gets stuck.
ENV = environment(KIND_INDEX, TRIBE_INDEX, {"player": PLAYER, "source": TERRITORY})
ARGS = (0, 1)  # player seat 0, source cell 1
KINDS = sorted(KIND_INDEX)
#: CI runs a small count; ``TARGUI_FUZZ_EXAMPLES=5000`` runs more.
FAST = settings(max_examples=int(os.environ.get("TARGUI_FUZZ_EXAMPLES", "60")), deadline=None,
                suppress_health_check=[HealthCheck.too_slow])

# --- well-typed programs ---------------------------------------------------------

SPACE = st.sampled_from([" ", " ", "  ", "\n", " \n  "])


def vars_of(scope, ty):
    return [name for name, t in scope if t == ty]


@st.composite
def dotted(draw, ty, scope, depth=2):
    """A dotted name of type ty: what the grammar allows as an assignment target base."""
    options = vars_of(scope, ty) + {"T": ["source"], "P": ["player"], "K": KINDS}[ty]
    if depth > 0 and draw(st.booleans()):
        if ty == "T":
            return f"{draw(dotted('P', scope, depth - 1))}.settlement"
        if ty == "P":
            return f"{draw(dotted('T', scope, depth - 1))}.owner"
        return f"{draw(dotted('T', scope, depth - 1))}.kind"
    return draw(st.sampled_from(options))


def paren(text):
    return f"({text})"


@st.composite
def binder(draw, coll_ty, scope, depth):
    elem = {"TS": "T", "PS": "P"}[coll_ty]
    name = f"v{len(scope)}"  # fresh: never shadows an enclosing variable
    coll = draw(collection(coll_ty, scope, depth))
    inner = scope + [(name, elem)]
    where = ""
    if draw(st.booleans()):
        where = f" where {draw(expr('B', inner, depth - 1))}"
    return name, coll, where, inner


@st.composite
def collection(draw, ty, scope, depth):
    if ty == "PS":
        return "players"
    choice = draw(st.integers(0, 2))
    if choice == 0:
        return "territories"
    if choice == 1:
        return f"{draw(dotted('P', scope))}.territories"
    return f"{draw(dotted('T', scope))}.neighbours"


@st.composite
def expr(draw, ty, scope, depth):
    """An expression of type ty: I(nt), B(ool), T(erritory), P(layer), K(ind), R (tribe)."""
    if ty in ("T", "P", "K"):
        if ty == "P" and draw(st.integers(0, 5)) == 0:
            return "nobody"
        return draw(dotted(ty, scope))
    if ty == "R":
        return draw(st.one_of(st.sampled_from(TRIBES), dotted("P", scope).map(lambda p: f"{p}.tribe")))
    leaves = {
        "I": [
            st.integers(0, 30).map(str),
            st.just("round"),
            st.just("box"),
            st.tuples(dotted("T", scope),
                      st.sampled_from(["camels", "strategic", "economic", "position"])).map(".".join),
            st.tuples(dotted("P", scope), st.sampled_from(["cash", "treasury", "seat", "camels"])).map(".".join),
            st.tuples(dotted("K", scope), st.sampled_from(["strategic", "economic"])).map(".".join),
        ],
        "B": [
            st.sampled_from(["true", "false"]),
            dotted("T", scope).map(lambda t: f"{t}.owned"),
            dotted("P", scope).map(lambda p: f"{p}.holds_own_settlement"),
        ],
    }[ty]
    if depth <= 0 or draw(st.integers(0, 3)) == 0:
        return draw(st.one_of(leaves))
    sub = lambda t: expr(t, scope, depth - 1)  # noqa: E731
    if ty == "I":
        kind = draw(st.integers(0, 6))
        if kind == 0:
            op = draw(st.sampled_from(["+", "-", "*", "//", "%"]))
            return f"{paren(draw(sub('I')))} {op} {paren(draw(sub('I')))}"
        if kind == 1:
            return f"-{paren(draw(sub('I')))}"
        if kind == 2:
            return paren(f"{draw(sub('I'))} if {draw(sub('B'))} else {draw(sub('I'))}")
        if kind == 3:
            name, coll, where, inner = draw(binder(draw(st.sampled_from(["TS", "PS"])), scope, depth))
            func = draw(st.sampled_from(["sum", "min", "max"]))
            return f"{func}({draw(expr('I', inner, depth - 1))} for {name} in {coll}{where})"
        if kind == 4:
            name, coll, where, _ = draw(binder(draw(st.sampled_from(["TS", "PS"])), scope, depth))
            return f"count({name} in {coll}{where})"
        if kind == 5:
            func = draw(st.sampled_from(["min", "max"]))
            items = draw(st.lists(sub("I"), min_size=2, max_size=3))
            return f"{func}({', '.join(items)})"
        return draw(st.one_of(leaves))
    kind = draw(st.integers(0, 6))
    if kind == 0:
        op = draw(st.sampled_from(["==", "!=", "<", "<=", ">", ">="]))
        return f"{paren(draw(sub('I')))} {op} {paren(draw(sub('I')))}"
    if kind == 1:
        t = draw(st.sampled_from(["B", "T", "P", "K", "R"]))
        op = draw(st.sampled_from(["==", "!="]))
        return f"{paren(draw(sub(t)))} {op} {paren(draw(sub(t)))}"
    if kind == 2:
        op = draw(st.sampled_from(["and", "or"]))
        return f"{paren(draw(sub('B')))} {op} {paren(draw(sub('B')))}"
    if kind == 3:
        return f"not {paren(draw(sub('B')))}"
    if kind == 4:
        name, coll, where, _ = draw(binder(draw(st.sampled_from(["TS", "PS"])), scope, depth))
        return f"{draw(st.sampled_from(['any', 'all']))}({name} in {coll}{where})"
    if kind == 5:
        neg = draw(st.sampled_from(["in", "not in"]))
        if draw(st.booleans()):
            items = draw(st.lists(st.sampled_from(KINDS), max_size=3))
            return f"{draw(dotted('K', scope))} {neg} [{', '.join(items)}]"
        return f"{draw(dotted('T', scope))} {neg} {draw(collection('TS', scope, depth))}"
    return draw(st.one_of(leaves))


@st.composite
def statement(draw, scope, depth, let_name="l"):
    """A statement, and the local it names (a `let`), if any."""
    kind = draw(st.integers(0, 8 if depth > 0 else 1))
    if kind <= 1:
        which = draw(st.sampled_from(["T.camels", "P.cash", "P.treasury", "K.strategic", "K.economic"]))
        base_ty, field = which.split(".")
        target = f"{draw(dotted(base_ty, scope))}.{field}"
        op = draw(st.sampled_from(["=", "+=", "-="]))
        # An assignment's value is an or_test: a conditional must be in parentheses,
        # which expr() always does.
        value = draw(expr("I", scope, max(depth - 1, 0)))
        if draw(st.integers(0, 3)) == 0:
            value += f" + roll({draw(st.integers(1, 6))})"  # a die at statement level: the snippet pauses
        suffix = " this round" if base_ty == "K" and draw(st.booleans()) else ""
        return f"{target} {op} {value}{suffix}"
    if kind == 4:
        ty = draw(st.sampled_from(["I", "T", "P"]))
        return f"let {let_name} = {draw(expr(ty, scope, depth - 1))}", (let_name, ty)
    if kind == 5:
        return f"move {draw(expr('I', scope, depth - 1))} from {draw(dotted('T', scope))} to {draw(dotted('T', scope))}"
    if kind == 6:
        return f"{draw(dotted('T', scope))}.owner = {draw(expr('P', scope, depth - 1))}"
    if kind == 7:
        chooser = draw(dotted("P", scope))
        if draw(st.integers(0, 2)) == 0:  # a number: its range worked out in the game, maybe negative or empty
            name, low = f"v{len(scope)}", draw(expr("I", scope, depth - 1))
            sign = draw(st.sampled_from(["", "0 - "]))
            span = f"{sign}({low})..{sign}({low}) + {draw(st.integers(-3, 300))}"
            inner = scope + [(name, "I")]
            return f"{chooser} chooses {name} in {span} {{{draw(block(inner, depth - 1))}}}"
        name, coll, where, inner = draw(binder(draw(st.sampled_from(["TS", "PS"])), scope, depth))
        return f"{chooser} chooses {name} in {coll}{where} {{{draw(block(inner, depth - 1))}}}"
    if kind == 8:
        name = f"v{len(scope)}"
        return (f"for {name} in {draw(expr('I', scope, 0))}..{draw(st.integers(0, 12))}"
                f" {{{draw(block(scope + [(name, 'I')], depth - 1))}}}")
    if kind == 2:
        name, coll, where, inner = draw(binder(draw(st.sampled_from(["TS", "PS"])), scope, depth))
        return f"for {name} in {coll}{where} {{{draw(block(inner, depth - 1))}}}"
    text = f"if {draw(expr('B', scope, depth - 1))} {{{draw(block(scope, depth - 1))}}}"
    if draw(st.booleans()):
        text += f" else {{{draw(block(scope, depth - 1))}}}"
    return text


@st.composite
def block(draw, scope, depth):
    # Statements one by one: a `let` is visible to the statements after it.
    text = ""
    for i in range(draw(st.integers(0, 3))):
        made = draw(statement(scope, depth, f"l{depth}_{i}"))
        if isinstance(made, tuple):
            made, local = made
            scope = scope + [local]
        text += draw(SPACE) + made + draw(st.sampled_from(["", ";"]))
    return text + draw(SPACE)


def check_board(rt, total):
    assert rt.total_camels() == total
    assert all(c.camels >= 0 for c in rt.cells)
    assert all(c.camels == 0 for c in rt.cells if c.owner is None)
    assert all(s.cash >= 0 and s.treasury >= 0 for s in rt.seats)
    assert all(v >= 0 for values in rt.now.values() for v in values)
    assert all(c.owner is None for c in rt.cells if not KIND_TABLE[c.kind][2])  # chotts are never owned


#: What the cost bound knows of the fake board (effect_fake.board(): 12 cells, 3 players of 4 tribes).
SIZES = sizes(cells=12, players=4, tribes=len(TRIBES), kinds=len(KINDS))


@FAST
@given(block([], 3), st.randoms(use_true_random=False))
def test_generated_effects_parse_compile_and_run(source, rng):
    tree, problems = parse_effect(source)
    assert problems == [] and tree is not None
    code, diagnostics = compile_effect(source, ENV)
    assert [d for d in diagnostics if d.is_error] == [], [d.headline() for d in diagnostics]
    rt = board()
    total = rt.total_camels()
    bound = choice_bound(tree, SIZES)  # what validate counts (E0523 above MAX_CHOICES)
    asked = []

    def choose(request):
        assert len(request.options) <= MAX_CHOICE_NUMBERS
        asked.append(request)
        return rng.choice(request.options)

    try:
        drive(code, rt, *ARGS, rolls=iter(lambda: 1, None), choose=choose)
    except EffectTooManyChoices:
        # a choice inside loops over the board is stopped at MAX_CHOICES, and validate said it could be
        assert bound > MAX_CHOICES and len(asked) == MAX_CHOICES + 1
    assert len(asked) <= bound
    check_board(rt, total)


@FAST
@given(st.sampled_from(["I", "B"]).flatmap(lambda t: st.tuples(st.just(t), expr(t, [], 3))))
def test_generated_formulas_parse_compile_and_run(typed):
    ty, source = typed
    assert parse_formula(source)[1] == []
    expected = {"I": Type.INT, "B": Type.BOOL}[ty]
    code, diagnostics = compile_formula(source, ENV, None, expected)
    assert diagnostics == [], [d.headline() for d in diagnostics]
    value = code.function(board(), *ARGS)
    assert type(value) is (int if ty == "I" else bool)


# --- grammar-valid but untyped programs -------------------------------------------------

NAMES = st.sampled_from(["t", "p", "x", "erg", "kel_ress", "territories", "players", "box", "player", "source", "foo"])
FIELDS = st.sampled_from(
    ["camels", "owner", "kind", "cash", "strategic", "territories", "neighbours", "settlement", "nope"])


def loose_expr(depth):
    leaf = st.one_of(NAMES, st.integers(0, 99).map(str), st.sampled_from(["true", "false", "nobody", "round"]))
    if depth <= 0:
        return leaf
    sub = loose_expr(depth - 1)
    return st.one_of(
        leaf,
        st.tuples(sub, st.sampled_from(["+", "-", "*", "/", "//", "%", "==", "<", "and", "or", "in"]), sub).map(
            lambda t: f"({t[0]} {t[1]} {t[2]})"
        ),
        st.tuples(sub, FIELDS).map(lambda t: f"({t[0]}).{t[1]}"),
        sub.map(lambda s: f"(not ({s}))"),
        st.tuples(sub, sub, sub).map(lambda t: f"({t[0]} if {t[1]} else {t[2]})"),
        st.tuples(st.sampled_from(["sum", "min", "max", "abs"]), st.lists(sub, max_size=3)).map(
            lambda t: f"{t[0]}({', '.join(t[1])})"
        ),
        st.tuples(st.sampled_from(["sum", "max"]), sub, NAMES, sub, sub).map(
            lambda t: f"{t[0]}({t[1]} for {t[2]} in ({t[3]}) where {t[4]})"
        ),
        st.tuples(st.sampled_from(["count", "any", "all"]), NAMES, sub).map(lambda t: f"{t[0]}({t[1]} in ({t[2]}))"),
        st.tuples(sub, st.lists(sub, max_size=3)).map(lambda t: f"({t[0]} not in [{', '.join(t[1])}])"),
    )


def loose_effect(depth):
    target = st.tuples(NAMES, st.lists(FIELDS, max_size=2)).map(lambda t: ".".join([t[0], *t[1]]))
    assign = st.tuples(target, st.sampled_from(["=", "+=", "-="]), loose_expr(2), st.booleans()).map(
        lambda t: f"{t[0]} {t[1]} ({t[2]}){' this round' if t[3] else ''}"
    )
    if depth <= 0:
        return assign
    body = st.lists(loose_effect(depth - 1), max_size=2).map(" ".join)
    return st.one_of(
        assign,
        st.tuples(NAMES, loose_expr(1), loose_expr(1), body).map(
            lambda t: f"for {t[0]} in ({t[1]}) where {t[2]} {{ {t[3]} }}"),
        st.tuples(loose_expr(1), body, body).map(lambda t: f"if {t[0]} {{ {t[1]} }} else {{ {t[2]} }}"),
    )


def inside(diagnostic, source):
    lines = source.split("\n")
    span = diagnostic.span
    assert span.file == "<effect>"
    assert 1 <= span.line <= len(lines) and 1 <= span.column <= len(lines[span.line - 1]) + 1
    assert span.line <= span.end_line <= len(lines) and 1 <= span.end_column <= len(lines[span.end_line - 1]) + 1
    assert (span.end_line, span.end_column) >= (span.line, span.column)
    assert diagnostic.code.startswith("E05") and diagnostic.message


@FAST
@given(st.lists(loose_effect(2), max_size=3).map("\n".join))
def test_untyped_effects_parse_and_compile_without_exceptions(source):
    assert parse_effect(source)[1] == []
    code, diagnostics = compile_effect(source, ENV)
    assert (code is None) == bool(diagnostics)
    for d in diagnostics:
        inside(d, source)
        assert d.code != "E0501"


@FAST
@given(loose_expr(3))
def test_untyped_formulas_compile_without_exceptions(source):
    code, diagnostics = compile_formula(source, ENV)
    assert (code is None) == bool(diagnostics)
    for d in diagnostics:
        inside(d, source)


# --- arbitrary text ------------------------------------------------------------

NEAR_GRAMMAR = st.text(alphabet="forinwhereiftp.camels{}()[]=+-*/%<>!,; \n\t0123456789erg_xyz", max_size=80)


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.text(max_size=60), NEAR_GRAMMAR))
def test_any_text_yields_only_diagnostics_inside_the_snippet(source):
    for compile_ in (compile_effect, compile_formula):
        code, diagnostics = compile_(source, ENV)
        assert (code is None) == bool(diagnostics)
        for d in diagnostics:
            inside(d, source)
