"""Odd ruleset inputs (integral floats, names the system refuses, huge numbers, formula lists
of the wrong type) give diagnostics, never a traceback; rulesets that validate are playable."""

from __future__ import annotations

from pathlib import Path

import pytest

from targui_dsl.agents import make_agent
from targui_dsl.engine.loop import play
from targui_dsl.frontend.build import build
from targui_dsl.frontend.diagnostics import render_all
from targui_dsl.games.targui.game import Game


def house(tmp_path: Path, text: str, parent: str = "original-dutch", name: str = "house.yaml"):
    path = tmp_path / name
    path.write_text(f"extends: {parent}\nid: house\n" + text, encoding="utf-8")
    report = build(str(path))  # must not raise
    render_all(report.diagnostics, report.sources, color=False)
    for d in report.diagnostics:
        d.to_json()
    return report


def codes(report) -> list[str]:
    return [d.code for d in report.diagnostics if d.is_error]


def play_out(ruleset, players: int, seed: int = 1, limit: int = 50_000) -> None:
    state = Game(ruleset, players=players, seed=seed).new_initial_state()
    bots = [make_agent("random", seed + i) for i in range(players)]
    for _ in range(limit):
        if state.is_terminal():
            return
        assert state.legal_actions(), f"no legal action in phase {state.phase_name}"
        seat = state.current_player()
        state.apply_action(bots[seat].choose(state.observation(seat), state.legal_actions()))
    raise AssertionError("game did not end")


# --- integral floats where whole numbers are required ------------------------------
# jsonschema counts 7.0 as an "integer"; the engine then fails on range(7.0).

@pytest.mark.parametrize("text", [
    "board: {rows: 7.0}",
    "setup: {cash: 10.0}",
    "setup: {camels: 10.0}",
    "rounds: {die: 6.0}",
    "territories: {salt_mine: {position: 1.0}}",
    "seating: [{players: [2.0, 4], settle_in: sectors},"
    " {players: [3], settle_in: positions, positions: [[47], [31], [39]]}]",
    "board: {sectors: {north_west: [20.0, 21, 22, 41, 42, 43, 44, 45]}}",
    "cards: {haussa_raid: {number: 1.0}}",
    "camels: {box: 450.0}",
])
def test_integral_float_is_a_type_error(tmp_path, text):
    report = house(tmp_path, text)
    assert "E0301" in codes(report), report.diagnostics
    assert report.ruleset is None


# --- extends: a path the operating system refuses to look at -------------------------

def test_extends_with_a_file_name_too_long_is_a_diagnostic(tmp_path):
    path = tmp_path / "long.yaml"
    path.write_text(f"extends: '{'a' * 5000}.yaml'\nid: x\n", encoding="utf-8")
    report = build(str(path))
    assert codes(report) == ["E0201"], report.diagnostics
    assert report.diagnostics[0].span.line == 1


def test_builtin_name_too_long_is_a_diagnostic(tmp_path):
    report = build("a" * 5000)
    assert codes(report) == ["E0201"]
    path = tmp_path / "house.yaml"
    path.write_text(f"extends: {'b' * 5000}\nid: x\n", encoding="utf-8")
    assert codes(build(str(path))) == ["E0201"]


# --- huge numbers: validated rulesets must stay playable --------------------------------
# 10**400 economic value passed validation and then crashed the greedy bot
# (OverflowError converting to float); whole numbers are capped like the
# effect language's literals (10**9).

HUGE = "1" + "0" * 400


@pytest.mark.parametrize("text", [
    f"territories: {{guelta: {{economic: {HUGE}}}}}",
    f"territories: {{guelta: {{strategic: {HUGE}}}}}",
    f"camels: {{box: {HUGE}}}",
    f"camels: {{price: {HUGE}}}",
    f"setup: {{cash: {HUGE}}}",
    f"setup: {{camels: {HUGE}}}",
    f"setup: {{tribal_cards: {HUGE}}}",
    f"rounds: {{fortune_cards: {HUGE}}}",
    f"cards: {{haussa_raid: {{number: {HUGE}}}}}",
])
def test_huge_numbers_are_refused(tmp_path, text):
    report = house(tmp_path, text)
    assert "E0304" in codes(report), report.diagnostics
    assert any("at most" in d.message for d in report.diagnostics)


def test_largest_allowed_values_still_play(tmp_path):
    report = house(tmp_path, "territories: {guelta: {economic: 1000000000}}\ncamels: {box: 1000, price: 1000000000}\n")
    assert report.ok, report.diagnostics
    state = Game(report.ruleset, players=2, seed=3).new_initial_state()
    bots = [make_agent("greedy", 1), make_agent("greedy", 2)]
    play(state, bots)


# --- a hexadecimal number too long to print ------------------------------------------------
# Python reads `0x` + 5000 digits, but cannot print it in decimal (the 4300-digit
# limit): every message quoting it raised ValueError.

@pytest.mark.parametrize("text", [
    "camels: {box: 0x1" + "0" * 5000 + "}",
    "title: 0x1" + "0" * 5000,
    "camels: {box: !!int 0x1" + "0" * 5000 + "}",
    "camels: {box: 0o1" + "0" * 6000 + "}",  # text to YAML 1.1, a number to YAML 1.2
])
def test_huge_hexadecimal_number_is_a_diagnostic(tmp_path, text):
    report = house(tmp_path, text)
    assert codes(report) and codes(report)[0] in ("E0101", "E0111", "E0301"), report.diagnostics


# --- tie_breaks (and other formula lists) of the wrong type ----------------------------------

@pytest.mark.parametrize("value", ["1", "1.5", "true", "{a: b}", "camels"])
def test_tie_breaks_not_a_list_is_a_type_error(tmp_path, value):
    report = house(tmp_path, f"end: {{tie_breaks: {value}}}")
    assert codes(report) == ["E0301"], report.diagnostics
