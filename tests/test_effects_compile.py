"""The compiler: every card, formula and house-rule example runs against a fake
board; every E05xx code is reported at its exact position; the generated
Python names nothing the user wrote."""

from __future__ import annotations

import ast
import copy
import re
from pathlib import Path

import pytest
from effect_fake import COMBAT_ENV, EFFECT_ENV, KIND_INDEX, PLAYER_ENV, TRIBE_INDEX, board

from targui_dsl.effects import BOOL, INT, PLAYER, Environment, compile_effect, compile_formula
from targui_dsl.effects.runtime import EffectBudgetExceeded
from targui_dsl.frontend.diagnostics import Span
from targui_dsl.games.targui.build import sizes
from targui_dsl.games.targui.names import TERRITORY, VOCABULARY, environment

DOC = (Path(__file__).resolve().parent.parent / "docs" / "effect-language.md").read_text(encoding="utf-8")

# docs/rules/targui.md section 6, as written in docs/effect-language.md.
CARDS = {
    1: "for t in territories where t.kind == salt_mine { t.camels = 0 }",
    2: "for p in players where p.tribe == kel_ress and p.holds_own_settlement { p.settlement.camels += 10 }",
    3: "for p in players where p.tribe == kel_ilbakan and p.holds_own_settlement { p.settlement.camels += 10 }",
    4: "for p in players where p.tribe == kel_ahaggar and p.holds_own_settlement { p.settlement.camels += 10 }",
    5: "for p in players where p.tribe == kel_ajjer and p.holds_own_settlement { p.settlement.camels += 10 }",
    6: "for t in territories where t.kind == erg { t.camels -= 3 }",
    7: "for t in territories where t.kind == guelta { t.camels = min(t.camels, 15) }",
    8: "for p in players where p.holds_own_settlement { p.cash += 10 }",
    9: "for t in territories where t.kind == settlement { t.camels -= t.camels // 2 }",
    10: "for t in territories where t.camels > 0 { t.camels -= 1 }",
    11: "for t in territories where t.kind == reg { t.camels -= 5 }",
    12: "for t in territories where t.kind == guelta and t.owned { t.camels += 5 }",
    13: "erg.strategic = 3 this round",
    14: "for t in territories where t.kind == guelta { t.camels -= 10 }",
    15: "for p in players where any(t in p.territories where t.kind == settlement) { p.cash = 0 }",
    16: "mountain.economic = 3 this round",
}

FORMULAS = {
    "defender_loses": "(die + source.strategic) // 2",
    "attacker_loses": "(die + target.strategic) // 2",
    "levy": "sum(t.economic for t in player.territories) if player.holds_own_settlement else 0",
    "score": "sum(t.economic for t in player.territories)",
    "treasury_score": "player.treasury + player.cash",
    "treasury_tie": "player.camels",
    "dutch_tie": "player.camels + player.cash",
    "swedish_tie": "player.cash + player.camels",
}

HOUSE_RULES = {
    "erg_and_reg": "for t in territories where t.kind in [erg, reg] { t.camels -= 2 }",
    "guelta_owners": "for p in players where count(t in p.territories where t.kind == guelta) >= 3 { p.cash += 5 }",
    "guelta_levy": "guelta.economic = 5 this round",
    "territory_tax": "for p in players { p.cash -= count(t in p.territories) }",
    "settlement_camels":
        "for p in players where p.holds_own_settlement { p.settlement.camels += count(t in p.territories) }",
    "salt_mine_owner": "for t in territories where t.kind == salt_mine { t.owner.cash += 10 }",
}


def effect(source: str, env: Environment = EFFECT_ENV):
    code, problems = compile_effect(source, env)
    assert problems == [], [p.headline() for p in problems]
    return code


def formula(source: str, env: Environment = PLAYER_ENV, expected=INT):
    code, problems = compile_formula(source, env, None, expected)
    assert problems == [], [p.headline() for p in problems]
    return code


def run(source: str):
    rt = board()
    effect(source).function(rt)
    return rt


def camels(rt, *cells):
    return [rt.cells[c].camels for c in cells]


# The sixteen cards -----------------------------------------------------------


def test_every_card_is_in_the_doc():
    for number, source in CARDS.items():
        assert source in DOC, f"card {number} differs from docs/effect-language.md"
    for source in [*FORMULAS.values(), *HOUSE_RULES.values()]:
        assert source in DOC, source


def test_card_1_salt_mine_camels_back_to_box():
    rt = run(CARDS[1])
    assert camels(rt, 4) == [0] and rt.box_camels == 56


def test_cards_2_to_5_gifts_only_to_a_player_holding_their_settlement():
    rt = run(CARDS[2])  # Kel Ress, seat 0, holds cell 0
    assert camels(rt, 0) == [17] and rt.box_camels == 40
    rt = run(CARDS[3])  # Kel Ilbakan is not playing
    assert rt.state() == board().state()
    rt = run(CARDS[4])  # Kel Ahaggar, seat 1, holds cell 3
    assert camels(rt, 3) == [20]
    rt = run(CARDS[5])  # Kel Ajjer lost its settlement (cell 8) to seat 0
    assert rt.state() == board().state()


def test_card_2_gift_is_limited_by_the_box():
    rt = board()
    rt.box_camels = 4
    effect(CARDS[2]).function(rt)
    assert camels(rt, 0) == [11] and rt.box_camels == 0


def test_card_6_erg_loses_3_never_below_zero():
    rt = run(CARDS[6])
    assert camels(rt, 2) == [0] and rt.box_camels == 52 and rt.cells[2].owner == 1


def test_a_loop_on_one_kind_visits_that_kind_from_the_games_index_with_the_same_result():
    # `where t.kind == K and ...` reads the kind's cells from the game (territories_of_kind);
    # written the other way round it tests every territory: both change the same cells
    indexed = effect("for t in territories where t.kind == guelta and t.owned { t.camels += 1 }")
    scanned = effect("for t in territories where t.owned and t.kind == guelta { t.camels += 1 }")
    assert "rt.territories_of_kind(2)" in indexed.python and "territories_of_kind" not in scanned.python
    assert "_a_territory_kinds" not in indexed.python  # the kind test is gone from the loop, and its list
    results = []
    for code in (indexed, scanned):
        rt = board()
        code.function(rt)
        results.append(rt.state())
    assert results[0] == results[1] and camels(board(), 1, 6, 11) == [20, 0, 9]
    rt = board()
    indexed.function(rt)
    assert camels(rt, 1, 6, 11) == [21, 0, 10]  # the unowned guelta (cell 6) is left alone


def test_a_loop_on_one_kind_pays_for_every_territory_as_before():
    # the budget is paid for the whole board, as when every territory was tested: 12 cells, so
    # 100,000 passes of a loop over the board's 2 reg cells are 1,200,000 steps, past the budget
    source = "for i in 1..100000 { for t in territories where t.kind == reg { t.camels += 0 } }"
    code = effect(source)
    assert "territories_of_kind" in code.python
    with pytest.raises(EffectBudgetExceeded):
        code.function(board())
    effect(source.replace("100000", "75000")).function(board())  # 900,000 steps and the range's 75,000: within


def test_card_7_guelta_keeps_at_most_15():
    rt = run(CARDS[7])
    assert camels(rt, 1, 6, 11) == [15, 0, 9]


def test_card_8_cash_to_holders_of_their_settlement():
    rt = run(CARDS[8])
    assert [s.cash for s in rt.seats] == [22, 17, 9]


def test_card_9_settlements_lose_half_rounded_down():
    rt = run(CARDS[9])
    assert camels(rt, 0, 3, 8) == [4, 5, 2]  # 7 -> 3 die, 4 stay


def test_card_10_every_territory_with_camels_loses_one():
    before = board()
    rt = run(CARDS[10])
    for old, new in zip(before.cells, rt.cells, strict=True):  # both boards from board(): the same cells
        assert new.camels == max(0, old.camels - 1)


def test_card_11_reg_loses_5():
    rt = run(CARDS[11])
    assert camels(rt, 5, 10) == [0, 3]


def test_card_12_owned_gueltas_only():
    rt = run(CARDS[12])
    assert camels(rt, 1, 6, 11) == [25, 0, 14]


def test_card_13_erg_strategic_for_this_round_only():
    rt = run(CARDS[13])
    erg = KIND_INDEX["erg"]
    assert rt.strategic(2) == 3 and rt.lasting["strategic"][erg] == 0
    rt.end_round()
    assert rt.strategic(2) == 0


def test_card_14_guelta_loses_10():
    rt = run(CARDS[14])
    assert camels(rt, 1, 11) == [10, 0]


def test_card_15_owners_of_a_settlement_lose_cash_not_treasury():
    rt = run(CARDS[15])
    assert [(s.cash, s.treasury) for s in rt.seats] == [(0, 5), (0, 0), (9, 2)]


def test_card_16_mountains_worth_3_at_this_levy():
    rt = run(CARDS[16])
    score = formula(FORMULAS["score"]).function
    assert score(rt, 2) == 3  # seat 2 owns only a mountain
    rt.end_round()
    assert score(rt, 2) == 0


# Formulas ----------------------------------------------------------------------


def test_combat_formulas_replay_the_rulebook_attack():
    # 8 camels on a guelta attack 5 on a fesh-fesh; throws 4, 6, 3.
    rt = board()
    rt.cells[1].camels, rt.cells[6].kind, rt.cells[6].owner, rt.cells[6].camels = 8, "fesh_fesh", 2, 5
    defender = formula(FORMULAS["defender_loses"], COMBAT_ENV).function
    attacker = formula(FORMULAS["attacker_loses"], COMBAT_ENV).function
    source, target = 1, 6
    rt.set_camels(target, rt.camels(target) - defender(rt, 4, source, target))
    rt.set_camels(source, rt.camels(source) - attacker(rt, 6, source, target))
    rt.set_camels(target, rt.camels(target) - defender(rt, 3, source, target))
    assert camels(rt, source, target) == [4, 0]


def test_levy_of_13_and_nothing_without_own_settlement():
    levy = formula(FORMULAS["levy"]).function
    rt = board()
    # seat 0: settlement 4 + guelta 3 + captured settlement 4 + reg 2
    assert [levy(rt, p) for p in range(3)] == [13, 13, 0]


def test_scores_and_tie_breaks_of_the_three_variants():
    rt = board()
    values = {name: [formula(src).function(rt, p) for p in range(3)]
              for name, src in FORMULAS.items() if "loses" not in name}
    assert values["score"] == [13, 13, 0]
    assert values["treasury_score"] == [17, 7, 11]
    assert values["treasury_tie"] == [39, 27, 3]
    assert values["dutch_tie"] == [51, 34, 12]
    assert values["swedish_tie"] == [51, 34, 12]


def test_formula_params_follow_the_environment_order():
    code = formula("die * 10 + target.position", COMBAT_ENV)
    assert code.params == ("die", "source", "target")
    assert code.function(board(), 3, 0, 5) == 36


def test_formula_of_another_expected_type():
    code = formula("player.holds_own_settlement and round >= 1", PLAYER_ENV, BOOL)
    assert code.function(board(), 2) is False
    assert formula("source.owner", COMBAT_ENV, PLAYER).function(board(), 3, 5, 0) is None


# House rules people ask for (docs/effect-language.md) ------------------------------------


def test_house_rule_erg_and_reg_lose_2():
    rt = run(HOUSE_RULES["erg_and_reg"])
    assert camels(rt, 2, 5, 10) == [0, 0, 6]


def test_house_rule_owners_of_three_gueltas():
    rt = board()
    rt.cells[6].owner = 1  # seat 1 now owns gueltas 6 and 11 and ...
    effect(HOUSE_RULES["guelta_owners"]).function(rt)
    assert [s.cash for s in rt.seats] == [12, 7, 9]
    rt.cells[5].kind = "guelta"
    rt.cells[5].owner = 1  # ... and now a third one
    effect(HOUSE_RULES["guelta_owners"]).function(rt)
    assert [s.cash for s in rt.seats] == [12, 12, 9]


def test_house_rule_guelta_levy():
    rt = run(HOUSE_RULES["guelta_levy"])
    assert formula(FORMULAS["levy"]).function(rt, 0) == 15
    rt.end_round()
    assert formula(FORMULAS["levy"]).function(rt, 0) == 13


def test_house_rule_territory_tax_never_below_zero():
    rt = board()
    rt.seats[2].cash = 0
    effect(HOUSE_RULES["territory_tax"]).function(rt)
    assert [s.cash for s in rt.seats] == [8, 3, 0]


def test_house_rule_settlement_camels():
    rt = run(HOUSE_RULES["settlement_camels"])
    assert camels(rt, 0, 3, 8) == [11, 14, 4]


def test_house_rule_salt_mine_owner_and_nobody():
    rt = run(HOUSE_RULES["salt_mine_owner"])
    assert [s.cash for s in rt.seats] == [12, 17, 9]
    rt = board()
    rt.cells[4].owner = None  # through nobody nothing happens
    effect(HOUSE_RULES["salt_mine_owner"]).function(rt)
    assert [s.cash for s in rt.seats] == [12, 7, 9]


# Semantics -----------------------------------------------------------------------


def test_reading_through_nobody_gives_defaults():
    rt = board()
    code = formula(
        "t.owner.cash + t.owner.camels + count(x in t.owner.territories) + t.owner.settlement.camels"
        " + (1 if t.owner.holds_own_settlement or t.owner.settlement.owned else 0)",
        environment(KIND_INDEX, {}, {"t": TERRITORY}),
    )
    assert code.function(rt, 5) == 0  # cell 5 is unowned
    assert code.function(rt, 0) == 12 + 39 + 4 + 7 + 1


def test_nobody_comparisons():
    code = formula("count(t in territories where t.owner == nobody)", EFFECT_ENV)
    assert code.function(board()) == 3
    code = formula("count(t in territories where t.owned and t.owner != nobody)", EFFECT_ENV)
    assert code.function(board()) == 9


def test_division_by_zero_gives_zero():
    code = formula("player.cash // (player.seat - 1) + player.cash % (player.seat - 1)")
    assert code.function(board(), 0) == 0
    assert code.function(board(), 2) == 9 // 2 + 9 % 2


def test_aggregates_over_nothing_give_zero():
    code = formula(
        "min(t.camels for t in territories where t.camels > 100) + max(t.camels for t in player.territories)"
        " + sum(t.camels for t in territories where false) + count(t in territories where false)"
    )
    assert code.function(board(), 0) == 20  # only the max over seat 0's cells
    rt = board()
    assert formula("max(t.camels for t in territories where t.owner == player)").function(rt, 1) == 10


def test_any_all_count_and_membership():
    env = PLAYER_ENV
    rt = board()
    assert formula("all(t in player.territories where t.camels > 0)", env, BOOL).function(rt, 0) is True
    assert formula("all(t in territories where t.owned)", env, BOOL).function(rt, 0) is False
    assert formula("any(t in player.territories)", env, BOOL).function(rt, 0) is True
    assert formula("count(t in territories where t.kind not in [guelta, chott, reg])", env).function(rt, 0) == 6
    assert formula("count(t in territories where t in player.territories)", env).function(rt, 1) == 4
    assert formula("count(n in player.settlement.neighbours)", env).function(rt, 0) == 3


def test_if_else_if_statements_and_globals():
    source = ("if round > 2 { for p in players { p.cash = box } }"
              " else if round == 2 { for p in players { p.cash = 1 } }"
              " else { for p in players { p.treasury += p.seat } }")
    results = []
    for number in (1, 2, 3):
        rt = board()
        rt.round = number
        effect(source).function(rt)
        results.append([(s.cash, s.treasury) for s in rt.seats])
    assert results == [[(12, 6), (7, 2), (9, 5)], [(1, 5), (1, 0), (1, 2)], [(50, 5), (50, 0), (50, 2)]]


def test_kind_values_lasting_and_never_negative():
    rt = board()
    effect("guelta.strategic += 2; erg.economic -= 5;"
           " for t in territories where t.kind == reg { t.kind.strategic = 4 this round }").function(rt)
    assert rt.lasting["strategic"][KIND_INDEX["guelta"]] == 5
    assert rt.now["economic"][KIND_INDEX["erg"]] == 0
    assert rt.now["strategic"][KIND_INDEX["reg"]] == 4 and rt.lasting["strategic"][KIND_INDEX["reg"]] == 0


def test_camels_never_added_to_unowned_cells_and_box_is_exact():
    rt = board()
    total = rt.total_camels()
    effect("for t in territories { t.camels += 3 }").function(rt)
    assert camels(rt, 5, 6, 7) == [0, 0, 0]
    assert rt.total_camels() == total


def test_negative_and_conditional_values():
    assert formula("-player.cash + (3 if player.seat == 1 else -3)").function(board(), 0) == -9


def test_generated_python_names_nothing_the_user_wrote():
    sources = [*CARDS.values(), *HOUSE_RULES.values()]
    user_names = {"t", "p", "x", "player", "die", "source", "target", "erg", "reg", "guelta", "kel_ress", "salt_mine"}
    allowed = re.compile(
        r"^(rt|effect|formula|_[vptslco]\d+|_b|_a_[a-z_]+|_floordiv|_mod|_get|_sum|_min|_max|_any|_all"
        r"|_take|_tuple|_mul|_range|_sides|_Roll|_Choice)$"
    )
    codes = [effect(s) for s in sources] + [formula(s) for n, s in FORMULAS.items() if "loses" not in n]
    codes += [formula(s, COMBAT_ENV) for n, s in FORMULAS.items() if "loses" in n]
    # the same effects where the board's size is known: compiled without counting their steps
    sized = environment(KIND_INDEX, TRIBE_INDEX, {}, sizes=sizes(cells=12, players=4, tribes=4, kinds=8))
    uncounted = [effect(s, sized) for s in sources]
    assert any("_tuple(" in code.python for code in uncounted)  # (the form this part of the test reads)
    codes += uncounted
    for code in codes:
        tree = ast.parse(code.python)
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                assert allowed.match(node.id) and node.id not in user_names, node.id
            elif isinstance(node, ast.arg):
                assert allowed.match(node.arg), node.arg
            elif isinstance(node, ast.Attribute):
                # the only attribute access is `rt.<method from the compiler's table>`
                assert isinstance(node.value, ast.Name) and node.value.id == "rt"
                assert node.attr in VOCABULARY.runtime_methods
            elif isinstance(node, ast.keyword):
                assert node.arg == "default"
        assert code.function.__globals__["__builtins__"] == {}


def test_runtime_methods_all_exist_on_the_protocol():
    from targui_dsl.games.targui.effect_api import EffectRuntime

    assert VOCABULARY.runtime_methods <= set(dir(EffectRuntime))


def test_compiled_code_fields():
    code = effect(CARDS[13])
    assert code.source == CARDS[13] and code.params == () and code.file == "<effect>" and code.line == 1
    assert "set_kind_value(4, 'strategic', 3, True)" in code.python
    fast = formula(FORMULAS["defender_loses"], COMBAT_ENV)
    # a constant divisor needs no zero check: plain `//` in the hot path
    assert "_floordiv" not in fast.python and "// 2" in fast.python


# Diagnostics: one test per code, exact positions ------------------------------------


def diagnostics(source: str, env: Environment = EFFECT_ENV, what: str = "effect", locate=None, expected=INT):
    if what == "effect":
        code, problems = compile_effect(source, env, locate)
    else:
        code, problems = compile_formula(source, env, locate, expected)
    assert code is None and problems
    return problems


def where(d):
    s = d.span
    return (d.code, s.line, s.column, s.end_line, s.end_column)


def test_e0501_syntax_error_position():
    (d,) = diagnostics("for t in territories {\n  t.camels -= 3\n")
    assert where(d) == ("E0501", 2, 16, 2, 16)
    assert d.message == "expected `}` or a statement but found end of effect"


def test_e0502_unknown_name_with_suggestion():
    (d,) = diagnostics("for t in territories where t.kind == gueltaa { t.camels = 1 }")
    assert where(d) == ("E0502", 1, 38, 1, 45)
    assert d.message == "unknown name `gueltaa`" and d.hint == "did you mean `guelta`?"


def test_e0502_unknown_function():
    (d,) = diagnostics("abs(player.cash)", PLAYER_ENV, "formula")
    assert where(d) == ("E0502", 1, 1, 1, 4)


def test_e0503_unknown_field_hint_names_the_fields():
    (d,) = diagnostics("for t in territories { t.camel -= 1 }")
    assert where(d) == ("E0503", 1, 26, 1, 31)
    assert d.message == "a territory has no field `camel`"
    assert d.hint.startswith("did you mean `camels`? (a territory has `kind`, `camels`")


def test_e0504_type_mismatches():
    problems = diagnostics("for t in territories where t.kind == kel_ress and 3 { t.camels += t }")
    assert [where(d) for d in problems] == [
        ("E0504", 1, 28, 1, 46),  # kind == tribe: the whole comparison
        ("E0504", 1, 51, 1, 52),  # `and 3`: the operand
        ("E0504", 1, 67, 1, 68),  # camels += a territory: the value
    ]
    assert problems[0].message == "cannot compare a territory kind with a tribe"


def test_e0505_not_assignable():
    problems = diagnostics("for t in territories { t.position = 3\n t.kind = erg }")
    assert [where(d) for d in problems] == [("E0505", 1, 24, 1, 34), ("E0505", 2, 2, 2, 8)]
    assert problems[0].message == "the `position` of a territory cannot be changed"


def test_e0506_arity():
    problems = diagnostics("min(player.cash) + sum(1, 2)", PLAYER_ENV, "formula")
    assert [where(d) for d in problems] == [("E0506", 1, 1, 1, 17), ("E0506", 1, 20, 1, 29)]


def test_e0507_slash():
    (d,) = diagnostics("(die + source.strategic) / 2", COMBAT_ENV, "formula")
    assert where(d) == ("E0507", 1, 26, 1, 27) and d.hint == "use `//` for whole-number division"


def test_e0508_this_round_on_a_non_kind():
    (d,) = diagnostics("for p in players { p.cash = 0 this round }")
    assert where(d) == ("E0508", 1, 31, 1, 41)


def test_e0509_formula_type():
    (d,) = diagnostics("player.holds_own_settlement", PLAYER_ENV, "formula")
    assert where(d) == ("E0509", 1, 1, 1, 28)
    assert d.message == "this formula must give a whole number, but it gives true/false"


def test_e0510_shadowing():
    problems = diagnostics("for t in territories { for t in t.neighbours { t.camels += 1 } }\nfor erg in players { }")
    assert [where(d) for d in problems] == [("E0510", 1, 28, 1, 29), ("E0510", 2, 5, 2, 8)]
    assert problems[0].message == "`t` is already a loop variable"
    assert problems[1].message == "`erg` is already a territory kind"


def test_e0511_number_too_large():
    (d,) = diagnostics("player.cash + 99999999999", PLAYER_ENV, "formula")
    assert where(d) == ("E0511", 1, 15, 1, 26)


def test_every_error_in_one_pass():
    source = "for t in territorie { t.camels = 1 }\nfor p in players where p.cash { p.tribe = 1; x = 3 / 2 }"
    problems = diagnostics(source)
    assert [d.code for d in problems] == ["E0502", "E0504", "E0505", "E0505", "E0507"]


def test_params_are_not_visible_elsewhere():
    (d,) = diagnostics("die + 1", PLAYER_ENV, "formula")
    assert d.code == "E0502" and where(d)[1:3] == (1, 1)


# A locate function shifting positions, as a YAML literal block does ----------------------


def yaml_block_locate(first_line: int, indent: int):
    """`effect: |` starting on line `first_line`, every snippet line indented by `indent`."""

    def locate(offset: int, text: str) -> Span:
        line = text.count("\n", 0, offset)
        column = offset - (text.rfind("\n", 0, offset) + 1)
        return Span("house.yaml", first_line + line, indent + column + 1)

    return locate


def test_positions_inside_a_yaml_literal_block():
    source = "for t in territories {\n  t.camels -= t.camles\n}\n"
    base = yaml_block_locate(first_line=7, indent=4)
    problems = diagnostics(source, locate=lambda off: base(off, source))
    (d,) = problems
    assert (d.span.file, d.span.line, d.span.column, d.span.end_line, d.span.end_column) == ("house.yaml", 8, 21, 8, 27)


def test_end_of_snippet_inside_a_yaml_literal_block():
    source = "if round > 1 {\n  box = 1\n"
    base = yaml_block_locate(first_line=3, indent=2)
    problems = diagnostics(source, locate=lambda off: base(off, source))
    assert [(d.code, d.span.line, d.span.column) for d in problems] == [("E0501", 4, 12)]


def test_compiled_code_records_the_file_position():
    source = "mountain.economic = 3 this round"
    code, problems = compile_effect(source, EFFECT_ENV, lambda off: Span("r.yaml", 12, 13 + off))
    assert problems == [] and (code.file, code.line) == ("r.yaml", 12)


@pytest.mark.parametrize("source", ["", "  \n", ";"])
def test_empty_effect_does_nothing(source):
    rt = board()
    effect(source).function(rt)
    assert rt.state() == board().state()


# The documentation's YAML examples all compile -----------------------------------------


def doc_snippets():
    """(key, source) for every effect and formula in docs/effect-language.md's yaml blocks."""
    out = []
    for block in re.findall(r"```yaml\n(.*?)```", DOC, re.S):
        lines = block.split("\n")
        for i, line in enumerate(lines):
            match = re.match(r"^(\s*)(effect|defender_loses|attacker_loses|levy|score|tie_breaks): (.+)$", line)
            if not match:
                continue
            indent, key, value = match.groups()
            if value == "|":  # a literal block: the following, more indented lines
                body = []
                for following in lines[i + 1 :]:
                    if following.strip() and len(following) - len(following.lstrip()) <= len(indent):
                        break
                    body.append(following.strip())
                out.append((key, "\n".join(body)))
            elif key == "tie_breaks":
                out.extend((key, item.strip()) for item in value.strip("[]").split(","))
            else:
                out.append((key, value))
    return out


def test_every_yaml_example_in_the_doc_compiles():
    snippets = doc_snippets()
    assert len(snippets) >= 2 + 16 + 6 + 3 + 3 + 3  # intro, cards, house rules, combat+levy, scores, tie-breaks
    for key, source in snippets:
        if key == "effect":
            effect(source)
        else:
            formula(source, COMBAT_ENV if "loses" in key else PLAYER_ENV)


@pytest.mark.parametrize("source", [*CARDS.values(), *HOUSE_RULES.values()])
def test_compiled_code_keeps_the_places_python_would_give_it(source):
    # compiling places every node as ast.fix_missing_locations would (a node without a place
    # takes its parent's), for tracebacks that point into the snippet as before
    code, problems = compile_effect(source, EFFECT_ENV, lambda off: Span("r.yaml", 12, 13 + off))
    assert problems == [] and code is not None
    expected = ast.fix_missing_locations(copy.deepcopy(code.module))
    assert code.function is not None  # compiled now, its module placed
    assert ast.dump(code.module, include_attributes=True) == ast.dump(expected, include_attributes=True)
    # the snippet's own columns were kept (not every node at the function's place)
    assert len({node.col_offset for node in ast.walk(code.module) if hasattr(node, "col_offset")}) > 1
