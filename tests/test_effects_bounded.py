"""Snippets that cannot run past the step budget are compiled without counting their steps.

A snippet whose every loop, choice and membership test ranges over collections of a known most
size (a written list, a range of constant ends, the ruleset's board and players) is bounded when
it is compiled: at most that many elements in one run. Up to STEP_BUDGET, no run can be stopped,
so the run carries no budget; past it, or with a collection of unknown size, every run counts as
before and stops at the same bound.
"""

from __future__ import annotations

import ast
import copy

import pytest
from effect_fake import EFFECT_ENV, KIND_INDEX, PLAYER_ENV, TRIBE_INDEX, board

from targui_dsl import load_ruleset
from targui_dsl.effects import PLAYER, Environment, compile_effect, compile_formula
from targui_dsl.effects.runtime import STEP_BUDGET, EffectBudgetExceeded
from targui_dsl.frontend.diagnostics import Span
from targui_dsl.games.targui.build import sizes
from targui_dsl.games.targui.names import environment

# the fake board's sizes: 12 cells, 4 seats, 4 tribes, 8 kinds
SIZED = environment(KIND_INDEX, TRIBE_INDEX, {}, sizes=sizes(cells=12, players=4, tribes=4, kinds=8))
SIZED_PLAYER = environment(KIND_INDEX, TRIBE_INDEX, {"player": PLAYER},
                           sizes=sizes(cells=12, players=4, tribes=4, kinds=8))


def effect(source: str, env: Environment = EFFECT_ENV):
    code, problems = compile_effect(source, env)
    assert problems == [], [p.headline() for p in problems]
    return code


def counts(code) -> bool:
    return "_take(_b, " in code.python and "_b = [" in code.python


def test_a_snippet_exactly_at_the_budget_counts_nothing_and_one_step_more_is_stopped():
    # 1,000 + 1,000 x 999 = 1,000,000 elements: no run can be past the budget
    at_most = effect("for i in 1..1000 { for j in 1..999 { current_player.cash += 0 } }")
    assert not counts(at_most) and "_tuple(" in at_most.python
    rt = board()
    at_most.function(rt)
    assert rt.state() == board().state()
    # 1,000 + 1,000 x 1,000: counted, and stopped as before
    past = effect("for i in 1..1000 { for j in 1..1000 { current_player.cash += 0 } }")
    assert counts(past)
    with pytest.raises(EffectBudgetExceeded):
        past.function(board())
    assert STEP_BUDGET == 1_000 + 1_000 * 999


@pytest.mark.parametrize("source", [
    "for a in territories { for b in territories where b in a.owner.territories { b.camels += 1 } }",
    "for p in players { for t in p.territories { for u in t.neighbours { u.camels += 1 } } }",
    "for t in territories where t.kind == guelta { t.camels += count(u in t.neighbours where u.camels > 2) }",
    "for p in players { for t in p.territories where t.camels > 5 { t.owner = nobody } }",
    "for p in seats where any(t in p.territories where t.kind == settlement) { p.cash += 1 }",
    "let near = territories; for t in near { t.camels += 1 }",
    "for p in players where p.seat == 1 { p chooses t in territories where t.camels > 3 { t.camels -= 1 } }",
])
def test_a_snippet_bounded_by_the_board_counts_nothing_and_does_the_same(source):
    counted, bounded = effect(source), effect(source, SIZED)
    assert counts(counted) and not counts(bounded)
    assert "_take" not in bounded.python and "_b = [" not in bounded.python
    rt_counted, rt_bounded = board(), board()
    if counted.pauses:
        for code, rt in ((counted, rt_counted), (bounded, rt_bounded)):
            run = code.function(rt)
            request = run.send(None)
            with pytest.raises(StopIteration):
                run.send(request.options[0])
    else:
        counted.function(rt_counted)
        bounded.function(rt_bounded)
    assert rt_bounded.state() == rt_counted.state() != board().state()


@pytest.mark.parametrize("source", [
    # a range whose end is known only when the snippet runs may hold any number of elements
    "for p in players { for i in 1..p.cash { p.treasury += 1 } }",
    "for p in players { p chooses n in 1..p.cash { for i in 1..n { p.treasury += 1 } } }",
    # bounded, but past the budget: 12^6 cells visited
    "for a in territories { for b in territories { for c in territories { for d in territories {"
    " for e in territories { for f in territories { f.camels += 1 } } } } } }",
])
def test_a_snippet_not_known_to_be_under_the_budget_still_counts(source):
    assert counts(effect(source, SIZED))


def test_a_snippet_past_the_budget_is_stopped_at_the_same_bound_with_the_sizes_known():
    code = effect("for p in players { for i in 1..p.cash * 1000000 { p.treasury += 1 } }", SIZED)
    with pytest.raises(EffectBudgetExceeded):
        code.function(board())


def test_a_formula_over_the_board_counts_nothing():
    source = "sum(count(u in t.neighbours) for t in player.territories)"
    counted, bounded = compile_formula(source, PLAYER_ENV)[0], compile_formula(source, SIZED_PLAYER)[0]
    assert counts(counted) and not counts(bounded)
    assert [bounded.function(board(), p) for p in range(4)] == [counted.function(board(), p) for p in range(4)]


def test_the_built_in_rulesets_count_no_steps():
    # their cards, hooks and formulas loop over the board and the players: none can be past the budget
    for name in ("original-dutch", "swedish-12", "updated-treasury"):
        rs = load_ruleset(name)
        codes = [card.effect for card in rs.cards.values()] + [c for cs in rs.hooks.values() for c in cs]
        codes += [rs.levy, rs.score, rs.defender_loses, rs.attacker_loses, *rs.tie_breaks]
        assert not any("_take" in code.python or "_b = [" in code.python for code in codes), name


@pytest.mark.parametrize("source", [
    "for p in players { for t in p.territories where t.camels > 5 { t.owner = nobody } }",
    "for t in territories where t.kind == guelta and t.owned { t.camels += count(u in t.neighbours) }",
    "for p in players where p.seat == 1 { p chooses t in territories where t.camels > 3 { t.camels -= 1 } }",
])
def test_code_without_counting_keeps_the_places_python_would_give_it(source):
    # rewritten where nothing is counted (collections moved, `_tuple` put in), it is still placed as
    # ast.fix_missing_locations would place it, for tracebacks that point into the snippet
    code, problems = compile_effect(source, SIZED, lambda off: Span("r.yaml", 12, 13 + off))
    assert problems == [] and code is not None and not counts(code)
    expected = ast.fix_missing_locations(copy.deepcopy(code.module))
    assert code.function is not None  # compiled now, its module placed
    assert ast.dump(code.module, include_attributes=True) == ast.dump(expected, include_attributes=True)
