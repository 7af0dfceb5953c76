"""Numbers stay small enough to compute (issue 21 item 3): a product of run-time values is
checked, so a chain of `let`s squaring a value stops at once instead of hanging the game."""

from __future__ import annotations

import pickle

import pytest
from effect_fake import EFFECT_ENV, PLAYER_ENV, board

from targui_dsl.effects import compile_effect, compile_formula
from targui_dsl.effects.runtime import MAX_BITS, EffectBudgetExceeded, EffectValueTooLarge

SQUARES = "let a0 = box * box\n" + "".join(f"let a{i} = a{i - 1} * a{i - 1}\n" for i in range(1, 40))


def test_a_chain_of_squares_stops_with_a_clear_error():
    code, problems = compile_effect(SQUARES + "for p in players { p.cash = 1 }", EFFECT_ENV)
    assert problems == []
    rt = board()
    with pytest.raises(EffectValueTooLarge) as stopped:
        code.function(rt)
    assert str(stopped.value) == (
        f"the effect at <effect>:1 made a number of more than {MAX_BITS} bits (about 307 digits) by multiplying;"
        " it was stopped"
    )
    assert [s.cash for s in rt.seats] == [s.cash for s in board().seats]  # stopped before the loop ran
    # The engine and the command line stop a game on a runaway snippet: this is one.
    assert isinstance(stopped.value, EffectBudgetExceeded)
    again = pickle.loads(pickle.dumps(stopped.value))  # crosses from a study's worker intact
    assert type(again) is EffectValueTooLarge and str(again) == str(stopped.value)


def test_products_up_to_the_cap_are_exact():
    ok, _ = compile_formula("(player.seat + 1) * (player.seat + 1)", PLAYER_ENV)
    assert ok.function(board(), 0) == 4
    powers = "let a = box * 0 + 2\nlet b = a * a * a * a\nlet c = b * b * b * b\nlet d = c * c * c * c\n"
    powers += "let e = d * d\nlet f = e * e\nlet g = f * f\n"  # g = 2**512
    # 2**512 * 2**511 = 2**1023 has 1024 bits: allowed, and exact.
    code, _ = compile_effect(powers + "let h = g * (g // 2)\nfor p in players where h // g == g // 2 { p.cash = 7 }",
                             EFFECT_ENV)
    rt = board()
    code.function(rt)
    assert {s.cash for s in rt.seats} == {7}
    # 2**512 * 2**512 has 1025 bits: one too many.
    code, _ = compile_effect(powers + "let h = g * g\nfor p in players { p.cash = 7 }", EFFECT_ENV)
    with pytest.raises(EffectValueTooLarge):
        code.function(board())


def test_a_constant_factor_is_not_checked():
    # A factor written in the snippet grows a number by a few bits at most: plain `*`, as fast as before.
    code, _ = compile_formula("3 * player.cash * 2", PLAYER_ENV)
    assert "_mul" not in code.python
    code, _ = compile_formula("player.cash * player.seat", PLAYER_ENV)
    assert "_mul(" in code.python


def test_a_range_too_long_to_count_is_over_the_budget_not_an_overflow():
    # len() of a range of more than 2**63 numbers is an OverflowError; the budget counts it.
    code, _ = compile_effect("let a = box * box * box * box\nlet b = a * a * a * a\n"
                             "for p in players where count(n in 1..b) > 3 { p.cash = 3 }", EFFECT_ENV)
    with pytest.raises(EffectBudgetExceeded) as stopped:
        code.function(board())
    assert type(stopped.value) is EffectBudgetExceeded
