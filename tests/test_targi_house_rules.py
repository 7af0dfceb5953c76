"""Targi's example house rules (rulesets/examples/targi-*.yaml): each plays, and plays differently
from `targi` in the way its file says."""

from __future__ import annotations

from pathlib import Path

from targi_fixtures import RS, display, do, give, new

from targui_dsl import load_ruleset
from targui_dsl.games.targi.actions import A_ROW
from targui_dsl.games.targi.state import Game
from targui_dsl.study.games import play_game

EXAMPLES = Path(__file__).resolve().parent.parent / "rulesets" / "examples"
DOUBLE = load_ruleset(str(EXAMPLES / "targi-double-raids.yaml"))
WIDE = load_ruleset(str(EXAMPLES / "targi-wide-display.yaml"))
RICH = load_ruleset(str(EXAMPLES / "targi-rich-start.yaml"))


def raid_1(rs):
    state = new(rs=rs)
    for seat in range(2):
        give(state, seat, goods=(2, 2, 2), gold=1, points=4)
    record = state.record
    record.figures = [-1] * len(rs.ring)
    record.robber = 2  # card 3: raid 1 is next
    record.stack = [{"k": "round", "step": "robber"}]
    state._advance()
    return state


def test_double_raids_raid_1_takes_two_goods_or_two_points():
    plain = raid_1(RS)
    do(plain, "option 1", "good pepper", "option 2")
    state = raid_1(DOUBLE)
    do(state, "option 1", "good pepper", "good pepper", "option 2")
    assert plain.record.sides[0].goods == [2, 2, 1] and plain.record.sides[1].points == 3
    assert state.record.sides[0].goods == [2, 2, 0] and state.record.sides[1].points == 2


def test_wide_display_a_row_of_four_still_takes_a_fifth_card():
    for rs, open_rows in ((RS, [1, 2]), (WIDE, [0, 1, 2])):
        state = new(rs=rs)
        display(state, 0, 211, 212, 213, 214, row=0)
        rows = state.flow.legal_row(state.record, {"seat": 0})
        assert [a - A_ROW for a in rows] == open_rows


def test_rich_start_each_player_starts_with_three_of_each_good_and_two_gold_but_no_points():
    plain, rich = new(), new(rs=RICH)
    assert [(s.goods, s.gold, s.points) for s in plain.record.sides] == [([2, 2, 2], 1, 4)] * 2
    assert [(s.goods, s.gold, s.points) for s in rich.record.sides] == [([3, 3, 3], 2, 0)] * 2


def test_every_example_plays_to_its_end():
    for rs in (DOUBLE, WIDE, RICH):
        state = play_game(Game(rs, seed=2), ["greedy", "greedy"])
        assert state.is_terminal() and state.record.end_reason in ("raid", "display")
