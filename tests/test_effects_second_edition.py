"""The second edition of the effect language, run against the fake board:
`let`, loops that select once, dice, choices, land changing hands, moving
camels, kinds and the new globals, round-long changes that never leak, the
step budget; and every new diagnostic at its exact line and column."""

from __future__ import annotations

import pytest
import yaml
from effect_fake import (
    COMBAT_ENV,
    EFFECT_ENV,
    KIND_INDEX,
    PLAYER_ENV,
    TRIBE_INDEX,
    Cell,
    FakeRuntime,
    Seat,
    board,
    drive,
)

from targui_dsl.effects import PLAYER, Environment, compile_effect, compile_formula
from targui_dsl.effects.memory import read_memory
from targui_dsl.effects.runtime import (
    MAX_CHOICE_NUMBERS,
    STEP_BUDGET,
    ChoiceRequest,
    EffectBudgetExceeded,
    RollRequest,
)
from targui_dsl.frontend.diagnostics import Span
from targui_dsl.games.targui.names import VOCABULARY, environment

TURN_ENV = environment(KIND_INDEX, TRIBE_INDEX, {"player": PLAYER})


def effect(source: str, env: Environment = EFFECT_ENV):
    code, problems = compile_effect(source, env)
    assert problems == [], [p.headline() for p in problems]
    return code


def camels(rt, *cells):
    return [rt.cells[c].camels for c in cells]


def four_tribes(camels_by_seat=(20, 19, 10, 17)) -> FakeRuntime:
    """Four players, each owning only a settlement holding the given camels (the issue's game)."""
    cells = [Cell("settlement", seat, n) for seat, n in enumerate(camels_by_seat)]
    cells += [Cell("reg", None, 0) for _ in range(4)]
    tribes = ["kel_ahaggar", "kel_ajjer", "kel_ilbakan", "kel_ress"]
    seats = [Seat(tribe, settlement=i, cash=0) for i, tribe in enumerate(tribes)]
    return FakeRuntime(cells, seats, box_camels=100)


# let, and loops that select once ----------------------------------------------------

FEWEST_LET = ("let fewest = min(p.camels for p in players)\n"
              "for p in players where p.camels == fewest { p.settlement.camels += 8 }")
FEWEST_WHERE = "for p in players where p.camels == min(q.camels for q in players) { p.settlement.camels += 8 }"


@pytest.mark.parametrize("source", [FEWEST_LET, FEWEST_WHERE])
def test_the_fewest_camels_gift_goes_to_one_tribe_only(source):
    # 20/19/10/17: the tribe with 10 gets 8 (now 18); the one with 17 is
    # not the fewest when the loop selected, so it gets nothing.
    rt = four_tribes()
    effect(source).function(rt)
    assert camels(rt, 0, 1, 2, 3) == [20, 19, 18, 17]


def test_a_loop_body_cannot_change_what_the_loop_visits():
    # Each owned reg gives its neighbours' owners... here simply: every cell
    # with camels at the start loses one; cells filled during the loop are not visited.
    rt = board()
    effect("for t in territories where t.camels > 0 { t.camels -= 1\n"
           " for u in t.neighbours where not u.owned { u.owner = t.owner\n u.camels += 1 } }").function(rt)
    # cell 5 (a reg, unowned, empty) was filled by cell 1's turn; it was not selected, so it keeps its camel
    assert rt.cells[5].owner is not None and rt.cells[5].camels == 1


def test_let_names_a_value_and_a_collection_fixed_when_named():
    rt = board()
    effect("let mine = players\nlet rich = 10\n"
           "for p in mine where p.cash >= rich { p.treasury += p.cash - rich }").function(rt)
    assert [s.treasury for s in rt.seats] == [7, 0, 2]


def test_let_lives_until_the_end_of_its_block():
    code, problems = compile_effect("if true { let x = 1 }\nfor p in players { p.cash += x }", EFFECT_ENV)
    assert code is None and [(d.code, d.span.line, d.span.column) for d in problems] == [("E0502", 2, 30)]
    # the same name in two sibling blocks is two names
    rt = board()
    effect("if true { let x = 1\n for p in players { p.cash += x } } else { let x = 2 }").function(rt)
    assert [s.cash for s in rt.seats] == [13, 8, 10]


def test_let_of_nobody_and_of_a_player():
    rt = board()
    effect("for t in territories where t.kind == salt_mine { let o = t.owner\n o.cash += 1 }\n"
           "let n = nobody\nn.cash += 5").function(rt)
    assert [s.cash for s in rt.seats] == [12, 8, 9]


# Dice ----------------------------------------------------------------------------------

OASES = (
    "let d = roll(6)\n"
    "for t in territories where t.kind == guelta and t.owned { if d >= 4 { t.camels += 4 } else { t.camels -= 4 } }"
)


@pytest.mark.parametrize("throw, expected", [(5, [24, 0, 13]), (2, [16, 0, 5])])
def test_one_die_for_every_oasis(throw, expected):
    code = effect(OASES)
    assert code.pauses
    rt = board()
    driven = drive(code, rt, rolls=[throw])
    assert driven.requests == [RollRequest(6)]
    assert camels(rt, 1, 6, 11) == expected


def test_a_die_per_territory_in_a_loop_body():
    rt = board()
    driven = drive(effect("for t in territories where t.kind == guelta and t.owned { t.camels += roll(3) }"), rt,
                   rolls=[1, 3])
    assert driven.requests == [RollRequest(3), RollRequest(3)]
    assert camels(rt, 1, 11) == [21, 12]


def test_roll_sides_worked_out_at_run_time_are_kept_between_1_and_100():
    rt = board()
    driven = drive(effect("for p in players where p.seat == 1 { p.cash += roll(p.cash * 100) + roll(p.cash - 100) }"),
                   rt, rolls=[100, 1])
    assert driven.requests == [RollRequest(100), RollRequest(1)]
    assert rt.seats[0].cash == 12 + 101


def test_effects_without_dice_or_choices_stay_plain_functions():
    code = effect("for t in territories { t.camels += 1 }")
    assert not code.pauses and code.function(board()) is None
    assert "yield" not in code.python


def test_roll_in_an_if_expression_and_condition():
    rt = board()
    drive(effect("if roll(2) == 2 { for p in players { p.cash = (1 if roll(2) == 1 else 2) } }"), rt,
          rolls=[2, 1, 2, 2])
    assert [s.cash for s in rt.seats] == [1, 2, 2]


# Choices -------------------------------------------------------------------------------

GIFT = "for p in players where p.seat == 1 { p chooses t in p.territories where t.camels > 0 { t.camels += 5 } }"


def test_a_player_chooses_one_of_their_territories():
    rt = board()
    driven = drive(effect(GIFT), rt, choose=[10])
    (request,) = driven.requests
    assert request == ChoiceRequest(0, "territory", (0, 1, 8, 10),
                                    "choose a territory: t in p.territories where t.camels > 0")
    assert camels(rt, 10) == [13] and rt.box_camels == 45


def test_a_choice_with_no_options_is_skipped_without_asking():
    rt = board()
    driven = drive(effect("for p in players { p chooses t in p.territories where t.camels > 100 { t.camels = 0 } }"),
                   rt)
    assert driven.requests == [] and rt.state() == board().state()


def test_nobody_chooses_nothing():
    rt = board()
    driven = drive(effect("for t in territories where t.kind == reg {"
                          " t.owner chooses u in t.neighbours { u.camels += 1 } }"), rt, choose=[9])
    # cell 5 (unowned) is skipped; cell 10 (seat 0) asks seat 0
    assert [r.player for r in driven.requests] == [0]


def test_the_current_player_chooses_another_player():
    rt = board()
    rt.turn_of = 1
    driven = drive(effect("current_player chooses q in players where q != current_player { q.cash -= 3\n"
                          " current_player.cash += 3 }"), rt, choose=[2])
    assert (driven.requests[0].kind == "player" and driven.requests[0].options == (0, 2)
            and driven.requests[0].player == 1)
    assert [s.cash for s in rt.seats] == [12, 10, 6]


def test_a_number_choice_and_its_cap():
    rt = board()
    code = effect("for p in players where p.seat == 2 {"
                  " p chooses n in 1..p.cash where n % 2 == 1 { p.treasury += n } }")
    driven = drive(code, rt, choose=[5])
    assert driven.requests[0].kind == "number" and driven.requests[0].options == (1, 3, 5, 7)
    assert rt.seats[1].treasury == 5
    rt = board()
    driven = drive(effect("for p in players where p.seat == 1 { p chooses n in 0..p.cash * 1000 { p.cash = n } }"),
                   rt, choose=[255])
    assert driven.requests[0].options == tuple(range(MAX_CHOICE_NUMBERS))


def test_options_are_fixed_when_the_choice_is_made_and_choices_repeat_in_loops():
    rt = board()
    code = effect("for p in players {"
                  " p chooses t in territories where t.owner == p and t.camels >= 9 { t.camels = 0 } }")
    driven = drive(code, rt, choose=lambda r: r.options[-1])
    assert [(r.player, r.options) for r in driven.requests] == [(0, (1,)), (1, (3, 11))]
    assert camels(rt, 1, 11) == [0, 0]


# Land changing hands, moving camels ----------------------------------------------------------


def test_owner_assignment_keeps_the_rules_invariants():
    rt = board()
    effect("for t in territories where t.kind == salt_mine { t.owner = nobody }").function(rt)
    assert rt.cells[4].owner is None and camels(rt, 4) == [0] and rt.box_camels == 56  # camels back to the box
    rt = board()
    rt.turn_of = 0
    effect("for t in territories where t.kind == chott { t.owner = current_player }").function(rt)
    assert rt.cells[7].owner is None  # a chott is never owned
    effect("for p in players where p.seat == 3 {"
           " for t in territories where t.kind == guelta and not t.owned { t.owner = p } }").function(rt)
    assert rt.cells[6].owner == 2 and rt.all_players() == [0, 1, 2]


def test_move_camels_without_the_box():
    rt = board()
    rt.box_camels = 0
    effect(
        "for t in territories where t.kind == guelta and t.owner != nobody and t.camels > 10 {"
        " for u in t.neighbours where u.kind == reg and not u.owned { move 50 from t to u } }"
    ).function(rt)
    # guelta 1 (20 camels) moves everything to the unowned reg 5, which becomes seat 0's; the box is untouched
    assert camels(rt, 1, 5) == [0, 20] and rt.cells[5].owner == 0 and rt.box_camels == 0


def test_move_from_nobodys_settlement_and_onto_a_chott_moves_nothing():
    rt = board()
    effect("for t in territories where t.kind == salt_mine { move 3 from t to nobody.settlement }").function(rt)
    effect("for t in territories where t.kind == chott {"
           " for u in t.neighbours where u.owned { move 3 from u to t } }").function(rt)
    assert rt.state() == board().state()


# Kinds, globals, round-long changes ---------------------------------------------------------


def test_loops_over_kinds_and_the_new_globals():
    rt = board()
    rt.die, rt.price = 5, 2
    effect("for k in kinds where k.economic >= 3 { k.economic += round_die - camel_price }").function(rt)
    assert rt.lasting["economic"] == [7, 8, 6, 2, 1, 0, 0, 0]
    assert compile_formula("count(k in kinds where k.strategic > 2)", PLAYER_ENV)[0].function(rt, 0) == 3


def test_current_player_is_nobody_outside_turns():
    rt = board()
    effect("current_player.cash += 10").function(rt)
    assert rt.state() == board().state()
    rt.turn_of = 2
    effect("current_player.cash += 10").function(rt)
    assert rt.seats[2].cash == 19


def test_a_round_long_change_never_leaks_into_the_lasting_value():
    rt = board()
    reg = KIND_INDEX["reg"]
    effect("reg.economic += 1 this round\nreg.economic -= 1").function(rt)
    assert rt.now["economic"][reg] == 2 and rt.lasting["economic"][reg] == 1
    rt.end_round()
    assert rt.now["economic"][reg] == 1
    code = effect("reg.economic -= 1")
    assert "add_kind_value(3, 'economic', -1, False)" in code.python


# The step budget ----------------------------------------------------------------------------

SIX_LOOPS = (
    "for a in territories { for b in territories { for c in territories { for d in territories {"
    " for e in territories { for f in territories { f.camels += 1 } } } } } }"
)


def test_a_runaway_effect_is_stopped_by_the_step_budget():
    code, problems = compile_effect(SIX_LOOPS, EFFECT_ENV, lambda off: Span("house.yaml", 7, 14 + off))
    assert problems == []
    with pytest.raises(EffectBudgetExceeded) as caught:
        code.function(board())
    assert (caught.value.file, caught.value.line, caught.value.budget) == ("house.yaml", 7, STEP_BUDGET)
    assert str(caught.value).startswith("the effect at house.yaml:7 ran past its budget of 1000000 steps")


def test_a_runaway_formula_is_stopped_too():
    source = ("sum(sum(sum(sum(sum(sum(1 for f in territories) for e in territories) for d in territories)"
              " for c in territories) for b in territories) for a in territories)")
    code, problems = compile_formula(source, PLAYER_ENV)
    with pytest.raises(EffectBudgetExceeded):
        code.function(board(), 0)


def test_membership_tests_inside_loops_pay_their_steps():
    # 2 loops of 12 cells = 156 steps, but each test scans a player's cells:
    # a body cannot hide work from the budget.
    code = effect("for a in territories { for b in territories where b in a.owner.territories { b.camels += 0 } }")
    assert code.python.count("_take(_b, ") == 3
    code.function(board())
    lone = compile_formula("count(t in territories where t in player.territories)", PLAYER_ENV)[0]
    assert lone.function(board(), 1) == 4


def test_a_huge_range_is_stopped_by_the_budget_without_being_built():
    code, _ = compile_formula("sum(i for i in 1..player.cash * 100000000)", PLAYER_ENV)
    with pytest.raises(EffectBudgetExceeded):
        code.function(board(), 0)
    assert compile_formula("sum(i for i in 1..player.seat)", PLAYER_ENV)[0].function(board(), 2) == 6
    code = effect("for i in 0..999999999 { current_player.cash += 1 }")
    with pytest.raises(EffectBudgetExceeded):
        code.function(board())


def test_three_nested_loops_stay_within_the_budget():
    rt = board()
    effect("for a in territories { for b in territories { for c in a.neighbours { c.camels += 0 } } }").function(rt)
    assert rt.state() == board().state()


def test_snippets_without_loops_carry_no_budget():
    code, _ = compile_formula("(die + source.strategic) // 2", COMBAT_ENV)
    assert "_b" not in code.python and "_take" not in code.python
    # the hot path: an aggregate standing alone needs no budget, a nested one pays
    levy, _ = compile_formula("sum(t.economic for t in player.territories) if player.holds_own_settlement else 0",
                              PLAYER_ENV)
    assert "_take" not in levy.python and "_b" not in levy.python
    nested, _ = compile_formula("sum(count(u in t.neighbours) for t in player.territories)", PLAYER_ENV)
    assert nested.python.count("_take(_b, ") == 2


# Diagnostics of the second edition, exact positions -------------------------------------------


def problems_of(source: str, env: Environment = EFFECT_ENV, what: str = "effect"):
    if what == "effect":
        code, problems = compile_effect(source, env)
    else:
        code, problems = compile_formula(source, env)
    assert code is None and problems
    return [(d.code, d.span.line, d.span.column, d.span.end_line, d.span.end_column) for d in problems], problems


def test_e0520_a_formula_cannot_throw_a_die():
    where, (d,) = problems_of("(die + roll(6)) // 2", COMBAT_ENV, "formula")
    assert where == [("E0520", 1, 8, 1, 12)]
    assert d.message == "a formula cannot throw a die" and d.hint == "a combat formula gets its thrown die as `die`"
    where, (d,) = problems_of("player.cash + roll(6)", PLAYER_ENV, "formula")
    assert where == [("E0520", 1, 15, 1, 19)] and d.hint.startswith("throw dice in a card's effect or a hook")


def test_e0520_no_die_inside_a_sum_or_a_where():
    where, problems = problems_of("for p in players { p.cash += sum(roll(6) for t in p.territories) }\n"
                                  "for t in territories where roll(2) == 1 { t.camels = 0 }")
    assert where == [("E0520", 1, 34, 1, 38), ("E0520", 2, 28, 2, 32)]
    assert problems[0].message == "a die cannot be thrown inside `sum(...)`"
    assert problems[1].message == "a die cannot be thrown inside a `where`"
    assert problems[0].hint == "throw it first and name it: `let d = roll(6)`, or throw it in a loop's body"


def test_e0521_a_die_needs_1_to_100_sides():
    where, problems = problems_of("let a = roll(0)\nlet b = roll(101)")
    assert where == [("E0521", 1, 14, 1, 15), ("E0521", 2, 14, 2, 17)]
    assert problems[0].message == "a die with 0 sides cannot be thrown"


def test_e0506_roll_takes_one_number():
    where, _ = problems_of("let a = roll(6, 6)")
    assert where == [("E0506", 1, 9, 1, 19)]


def test_e0522_a_number_choice_offers_at_most_256():
    where, (d,) = problems_of("for p in players { p chooses n in 1..300 { p.cash = n } }")
    assert where == [("E0522", 1, 35, 1, 41)]
    assert d.message == "this choice offers 300 numbers; a choice offers at most 256"


def test_e0504_choices_of_tribes_and_choosers_that_are_not_players():
    # a kind may be chosen (issue 20); a tribe may not, and only a player chooses
    where, problems = problems_of("for p in players { p chooses k in kinds { k.economic = 1 } }\n"
                                  "for p in players { p chooses x in [kel_ress] { } }\n"
                                  "for t in territories { t chooses u in t.neighbours { u.camels = 0 } }")
    assert where == [("E0504", 2, 35, 2, 45), ("E0504", 3, 24, 3, 25)]
    assert problems[0].message == "a list of tribes cannot be ranged over or chosen"
    assert problems[1].message == "only a player can choose, but this is a territory"


def test_e0505_owner_is_given_with_equals():
    where, (d,) = problems_of("for t in territories { t.owner += 1 }")
    assert where == [("E0505", 1, 32, 1, 34)]
    assert d.message == "`+=` needs a number, but the `owner` of a territory is a player"


def test_e0504_owner_and_move_types():
    where, problems = problems_of("for t in territories { t.owner = 3\n move t from t to 4 }")
    assert where == [("E0504", 1, 34, 1, 35), ("E0504", 2, 7, 2, 8), ("E0504", 2, 19, 2, 20)]
    assert problems[0].message == "`owner` holds a player, but this is a whole number"


def test_e0510_let_reusing_a_name():
    where, problems = problems_of("let players = 3\nlet x = 1\nlet x = 2\nfor t in territories { let t = 1 }")
    assert where == [("E0510", 1, 5, 1, 12), ("E0510", 3, 5, 3, 6), ("E0510", 4, 28, 4, 29)]
    assert problems[0].message == "`players` is already a global name"
    assert problems[1].message == "`x` is already a name given by `let`"
    assert problems[1].hint == "choose another name for the `let`"


def test_e0501_new_statements_in_syntax_errors():
    where, (d,) = problems_of("p chooses t in territories t.camels = 1")
    assert where[0][:3] == ("E0501", 1, 28)
    where, (d,) = problems_of("let = 3")
    assert where[0][:3] == ("E0501", 1, 5) and d.message == "expected a name but found `=`"


def test_new_reserved_words_cannot_be_loop_variables():
    where, (d,) = problems_of("for move in territories { }")
    assert where[0][:3] == ("E0501", 1, 5)
    assert d.hint == "`move` is a reserved word and cannot be used as a name"


# The documentation's table of constructs ---------------------------------------------------------


def test_every_construct_in_the_docs_table_compiles():
    import re
    from pathlib import Path

    doc = (Path(__file__).resolve().parent.parent / "docs" / "effect-language.md").read_text(encoding="utf-8")
    table = doc.split("## Every construct at a glance", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| ") and not line.startswith("| construct")]
    assert len(rows) >= 20
    # the memory the doc declares ("Memory"), which the memory row uses
    (declared,) = re.findall(r"```yaml\n(memory:.*?)```", doc, flags=re.S)
    env = environment(KIND_INDEX, TRIBE_INDEX, memory=read_memory(yaml.safe_load(declared), VOCABULARY))
    for row in rows:
        if "(YAML)" in row:
            continue
        example = re.search(r"\| `([^`]+)`", row).group(1)
        effect(example, env)
        formula = re.search(r"\(formula: `([^`]+)`\)", row)
        if formula:
            code, problems = compile_formula(formula.group(1), PLAYER_ENV)
            assert problems == [], (row, [p.headline() for p in problems])


# EffectRun: answering, checking answers, replaying to copy a paused game ----------------------------


def test_effect_run_checks_answers_and_replays_to_the_same_request():
    from targui_dsl.effects.runtime import EffectRun

    code = effect(GIFT.replace("t.camels += 5", "t.camels += roll(6)"))
    rt = board()
    run = EffectRun(code, rt)
    assert run.request.kind == "territory" and not run.done
    with pytest.raises(ValueError):
        run.answer(5)  # not one of seat 0's cells with camels
    run.answer(10)
    assert run.request == RollRequest(6)
    with pytest.raises(ValueError):
        run.answer(7)
    # a copy of the game paused here: the start state plus the answers so far
    copy = board()
    again = EffectRun.replay(code, copy, run.answers)
    assert again.request == run.request and copy.state() == rt.state()
    run.answer(6)
    again.answer(6)
    assert run.done and again.done and rt.state() == copy.state() and camels(rt, 10) == [14]
    with pytest.raises(ValueError):
        run.answer(1)


def test_effect_run_of_a_plain_effect_is_over_at_once():
    from targui_dsl.effects.runtime import EffectRun

    rt = board()
    run = EffectRun(effect("for p in players { p.cash += 1 }"), rt)
    assert run.done and run.answers == [] and [s.cash for s in rt.seats] == [13, 8, 10]
