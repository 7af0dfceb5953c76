"""Targi's border cards are effect-language snippets (issue 18, item 1): a house rule writes a new
border card and it plays as written, the Merchant's bound is the one its snippet writes, a paused
visit shows what it has done, a misspelt procedure or a stray `break` is a positioned diagnostic."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from cli_run import run
from targi_fixtures import RS, do, give, goods_card, new, texts, tribe, turn

from targui_dsl import load_ruleset
from targui_dsl.effects import compile_effect
from targui_dsl.games.targi.names import environment
from targui_dsl.games.targi.state import TargiState
from targui_dsl.games.targi.terminal import Console, Style
from targui_dsl.lsp.analysis import analyse

BASE = Path(__file__).resolve().parent.parent / "rulesets" / "targi.yaml"


def house(tmp_path: Path, actions: dict[int, str]) -> Path:
    """`targi` with the actions of some border cards (by number) written anew, as its own file."""
    data: dict[str, Any] = yaml.safe_load(BASE.read_text(encoding="utf-8"))
    data["id"], data["title"] = "targi-house", "Targi with new border cards"
    for card in data["border"]:
        if card["number"] in actions:
            card["action"] = actions[card["number"]]
    path = tmp_path / "targi-house.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def merchant(state: TargiState) -> None:
    turn(state, 0, border=(5,))
    do(state, "border 5")


def test_a_house_rule_caravan_draws_twice_and_takes_both_cards(tmp_path):
    rs = load_ruleset(str(house(tmp_path, {13: "draw_goods_card()\ndraw_goods_card()"})))
    state = new(rs=rs)
    give(state, 0, goods=(0, 0, 0))
    state.record.piles[0] = [goods_card(17), goods_card(18)]  # 2 salt, 2 pepper
    turn(state, 0, border=(13,))
    do(state, "border 13")
    assert state.record.sides[0].goods == [0, 2, 2]
    assert sorted(state.record.discards[0]) == sorted([goods_card(17), goods_card(18)])


def test_a_house_rule_merchant_that_trades_gold_for_points_plays_as_written(tmp_path):
    source = ("for i in 1..3 {\n"
              "  me chooses k in 0..1 where k == 0 or me.gold >= 1 {\n"
              "    if k == 0 { break }\n"
              "    me.gold -= 1; me.points += 1\n"
              "  }\n"
              "}")
    state = new(rs=load_ruleset(str(house(tmp_path, {5: source}))))
    give(state, 0, gold=2, points=0)
    merchant(state)
    do(state, "choose 1", "choose 1")
    assert texts(state) == ["choose 0"]  # no gold left: only stop
    do(state, "choose 0")
    assert (state.record.sides[0].gold, state.record.sides[0].points) == (0, 2)


def test_the_merchants_bound_is_the_one_its_snippet_writes(tmp_path):
    written = yaml.safe_load(BASE.read_text(encoding="utf-8"))["border"][4]["action"]
    assert "for visit in 1..20" in written
    source = written.replace("for visit in 1..20", "for visit in 1..2")
    state = new(rs=load_ruleset(str(house(tmp_path, {5: source}))))
    give(state, 0, goods=(6, 6, 6), gold=0)
    merchant(state)
    do(state, "choose 1", "good date", "good date", "good date")
    do(state, "choose 1", "good salt", "good salt", "good salt")
    assert state.record.sides[0].gold == 2
    assert all(frame["k"] != "effect" for frame in state.record.stack)  # two exchanges: the visit is over
    plain = new()
    give(plain, 0, goods=(6, 6, 6), gold=0)
    merchant(plain)
    do(plain, "choose 1", "good date", "good date", "good date", "choose 1", "good salt", "good salt", "good salt")
    assert "choose 0" in texts(plain)  # the file's Merchant (20) asks again


def test_a_merchant_visit_under_way_shows_the_goods_paid_and_copies_exactly():
    state = new()
    give(state, 0, goods=(2, 2, 1), gold=0)
    merchant(state)
    do(state, "choose 1", "good date")
    assert state.record.sides[0].goods == [1, 2, 1]  # the good paid so far is gone
    again = TargiState.from_json(RS, state.to_json())
    for copy in (state, again, state.clone()):
        do(copy, "good salt", "good pepper")
        assert (copy.record.sides[0].goods, copy.record.sides[0].gold) == ([1, 1, 0], 1)


def test_the_noble_offers_the_hand_card_with_the_nobles_discounts():
    state = new()
    state.record.sides[0].hand = tribe(20)  # 1 pepper + 1 gold
    give(state, 0, goods=(0, 0, 1), gold=1)
    turn(state, 0, border=(1,))
    do(state, "border 1")
    assert set(texts(state)) == {"pay 1 pepper 1 gold", "discard"}  # display it or discard it: never keep it
    do(state, "discard")
    assert state.record.sides[0].hand == -1


def test_a_misspelt_procedure_is_a_positioned_diagnostic_with_the_nearest_name(tmp_path):
    path = house(tmp_path, {13: "draw_goods_crad()"})
    result = run("validate", str(path))
    assert result.exit_code == 1
    line = next(i for i, text in enumerate(path.read_text().split("\n"), 1) if "draw_goods_crad" in text)
    assert f"targi-house.yaml:{line}:" in result.output and "error[E0526]" in result.output
    assert "Targi has no procedure `draw_goods_crad`" in result.output
    assert "did you mean `draw_goods_card`" in result.output


def test_a_break_outside_a_loop_in_a_border_action_is_a_positioned_diagnostic(tmp_path):
    path = house(tmp_path, {10: "me chooses k in 0..1 { break }"})
    result = run("validate", str(path))
    line = next(i for i, text in enumerate(path.read_text().split("\n"), 1) if "chooses k in 0..1 { break" in text)
    column = path.read_text().split("\n")[line - 1].index("break") + 1
    assert result.exit_code == 1 and f"targi-house.yaml:{line}:{column}: error[E0525]" in result.output


def test_an_editor_explains_and_offers_targis_procedures_in_a_border_action(tmp_path):
    path = house(tmp_path, {13: "draw_goods_card()"})
    text = path.read_text(encoding="utf-8")
    analysis = analyse(str(path), {str(path): text})
    said = analysis.hover(text.index("draw_goods_card()") + 2)
    assert said is not None and "a procedure of Targi" in said and "Caravan" in said
    offers = {offer.label: offer for offer in analysis.offers(text.index("draw_goods_card()"))}
    assert offers["offer_hand_card"].insert == "offer_hand_card(noble = true)"
    assert "move_tribe_marker" in offers and "break" in offers


def test_a_person_at_the_merchant_is_told_the_card_and_what_its_numbers_mean():
    state = new()
    give(state, 0, goods=(2, 2, 2), gold=0)
    merchant(state)
    said: list[str] = []
    console = Console(state.game, frozenset({0}), style=Style(False), record=None, echo=said.append,
                      read=lambda prompt: "3", board=False)
    assert console.decide(state) == "choose 2"
    assert said[-1].startswith("Player 1, Merchant (5): Any number of exchanges: 1) 3 goods for 1 gold")
    assert said[-1].splitlines()[1:] == ["   1) choose 0", "   2) choose 1", "   3) choose 2"]


def test_a_procedures_arguments_are_checked_by_name_and_type():
    env = environment({"date": 0, "salt": 1, "pepper": 2}, {})
    for source, code, message in (
            ("offer_hand_card()", "E0526", "`offer_hand_card` needs `noble`"),
            ("offer_hand_card(noble = 1)", "E0504", "`noble` of `offer_hand_card` is true/false, but this is"),
            ("offer_hand_card(nobel = true)", "E0526", "`offer_hand_card` has no argument `nobel`"),
            ("draw_goods_card(noble = true)", "E0526", "`draw_goods_card` has no argument `noble`")):
        _, problems = compile_effect(source, env)
        assert [(p.code, message in p.message) for p in problems][:1] == [(code, True)], (source, problems)
    code, problems = compile_effect("offer_hand_card(noble = false)", env)
    assert problems == [] and code is not None


def test_a_merchant_visit_answered_on_goes_on_as_a_saved_copy_of_it_does():
    # the playing state resumes the visit at each answer; the saved copy runs it again from its start
    playing = new()
    give(playing, 0, goods=(4, 4, 4), gold=0)
    merchant(playing)
    answers = ["choose 1", "good date", "good salt", "good pepper", "choose 2", "good date", "good date",
               "good pepper", "choose 1", "good salt", "good salt", "good pepper", "choose 0"]
    saved = playing.to_json()
    for answer in answers:
        copy = TargiState.from_json(RS, saved)
        assert copy.legal_actions() == playing.legal_actions()
        do(playing, answer)
        do(copy, answer)
        saved = copy.to_json()
        assert saved == playing.to_json()
    sides = playing.record.sides[0]
    assert (sides.goods, sides.gold) == ([1, 1, 3], 2)


def test_a_border_action_asking_past_the_choices_a_run_may_ask_stops_the_game_as_a_saved_copy_does(tmp_path):
    source = "for i in 1..200 {\n  me chooses k in 0..1 { me.gold += k }\n}"
    playing = new(rs=load_ruleset(str(house(tmp_path, {5: source}))))
    give(playing, 0, gold=0)
    merchant(playing)
    rs, saved = playing.rs, playing.to_json()
    while not playing.is_terminal():
        copy = TargiState.from_json(rs, saved)  # runs the action again from its start at every answer
        do(playing, "choose 1")
        do(copy, "choose 1")
        saved = copy.to_json()
        assert saved == playing.to_json()
    assert playing.end_reason == "stopped"
    assert playing.record.sides[0].gold == 99  # the run asking a 101st choice is stopped: its last gold is not kept


def test_a_border_action_stopped_past_its_steps_changes_nothing_it_had_changed(tmp_path):
    # a run with no choice: its changes before the stop (points, a good, gold in a loop) are taken back
    source = ("me.points += 5\ndate.held += 2\n"
              "for i in 1..2000 {\n  me.gold += 1\n  for j in 1..1000 { me.stored_gold += 1 }\n}")
    state = new(rs=load_ruleset(str(house(tmp_path, {5: source}))))
    give(state, 0, goods=(1, 2, 3), gold=1, points=4)
    merchant(state)
    assert state.end_reason == "stopped"
    side = state.record.sides[0]
    assert (side.points, side.goods, side.gold, side.stored_gold) == (4, [1, 2, 3], 1, 0)
    assert state.scores()[0] == 4
