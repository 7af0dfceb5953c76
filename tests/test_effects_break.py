"""`break` (leaving a `for` loop) and procedure calls in the shared effect language, on the fake
Targui board: a loop left after a "stop" answer, `break` refused outside a loop at its place,
and a procedure in a game that declares none."""

from __future__ import annotations

from effect_fake import EFFECT_ENV, board, drive

from targui_dsl.effects import compile_effect
from targui_dsl.effects.cost import snippet_choices
from targui_dsl.games.targui.build import sizes

BUY = ("for i in 1..5 {\n"
       "  current_player chooses n in 0..2 where n == 0 or current_player.cash >= 2 * n {\n"
       "    if n == 0 { break }\n"
       "    current_player.cash -= 2 * n\n"
       "    current_player.treasury += n\n"
       "  }\n"
       "}")


def compiled(source: str):
    code, problems = compile_effect(source, EFFECT_ENV)
    assert problems == [], [p.headline() for p in problems]
    return code


def test_break_leaves_the_loop_when_the_player_says_stop():
    rt = board()
    rt.turn_of = 0
    cash, treasury = rt.seats[0].cash, rt.seats[0].treasury
    driven = drive(compiled(BUY), rt, choose=[1, 2, 0])
    assert len(driven.requests) == 3  # asked again after each buy, not after the stop
    assert rt.seats[0].cash == cash - 6 and rt.seats[0].treasury == treasury + 3


def test_break_leaves_only_the_innermost_loop():
    rt = board()
    rt.turn_of = 0
    cash = rt.seats[0].cash
    drive(compiled("for i in 1..3 { for j in 1..3 { if j == 2 { break } current_player.cash += 1 } }"), rt)
    assert rt.seats[0].cash == cash + 3  # one step of the inner loop, three times


def test_the_loops_bound_is_the_one_written():
    rt = board()
    rt.turn_of = 0
    rt.seats[0].cash = 100
    driven = drive(compiled(BUY.replace("1..5", "1..2")), rt, choose=[1, 1, 1])
    assert len(driven.requests) == 2 and rt.seats[0].treasury >= 2


def test_break_outside_a_loop_is_refused_where_it_stands():
    _, problems = compile_effect("current_player chooses n in 1..3 {\n  break\n}", EFFECT_ENV)
    (problem,) = problems
    assert problem.code == "E0525" and "not inside one" in problem.message
    assert (problem.span.line, problem.span.column, problem.span.end_column) == (2, 3, 8)
    assert "for i in 1..5" in (problem.hint or "")


def test_a_procedure_in_a_game_that_declares_none_says_so():
    _, problems = compile_effect("draw_card()", EFFECT_ENV)
    (problem,) = problems
    assert problem.code == "E0526" and problem.message == "`draw_card(...)` calls a procedure, but Targui declares none"
    assert (problem.span.line, problem.span.column, problem.span.end_column) == (1, 1, 10)


def test_a_choice_in_a_loop_over_a_written_range_counts_that_range():
    assert snippet_choices(BUY, "effect", sizes(49, 4, 4, 6)) == 5
