"""`targui diff` and targui_dsl.frontend.diffing: rule-by-rule differences after `extends:`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from targui_cli.main import cli
from targui_dsl import build
from targui_dsl.frontend.diffing import diff_rulesets
from targui_dsl.frontend.paths import dotted, format_value
from targui_dsl.frontend.resources import rulesets_dir


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def run(runner: CliRunner, *args: str):
    return runner.invoke(cli, list(args), catch_exceptions=False)


def line_of(path: Path, text: str) -> int:
    """The 1-based line of the first line of ``path`` containing ``text``."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if text in line:
            return number
    raise AssertionError(f"{text!r} not in {path}")


def by_path(data: dict) -> dict[str, dict]:
    return {c["path"]: c for c in data["changes"]}


def test_a_variant_against_itself_is_empty(runner):
    result = run(runner, "diff", "original-dutch", "original-dutch")
    assert result.exit_code == 0
    assert "no differences between original-dutch and original-dutch" in result.stdout
    data = json.loads(run(runner, "diff", "updated-treasury", "updated-treasury", "--json").stdout)
    assert data["same"] is True and data["changes"] == [] and data["hidden"] == {}


def test_original_dutch_against_updated_treasury_shows_the_switches(runner):
    result = run(runner, "diff", "original-dutch", "updated-treasury")
    assert result.exit_code == 0
    out = result.stdout
    for line in ("rounds.double_turn_from: 6 -> 4", "rounds.fortune_cards: 1 -> 2", "turn.treasury: false -> true",
                 "+ hooks: {before_levy: [\"for p in seats { p.cash = 0 }\"]}", "setup.tribal_cards: 5 -> 3",
                 "turn.no_buying_on: [] -> [salt_mine]",
                 "end.tie_breaks: [player.camels + player.cash] -> [player.camels]",
                 "end.score: sum(t.economic for t in player.territories) -> player.treasury + player.cash"):
        assert line in out, line
    # Where each side wrote its value.
    dutch, treasury = rulesets_dir() / "original-dutch.yaml", rulesets_dir() / "updated-treasury.yaml"
    a_line, b_line = line_of(dutch, "double_turn_from: 6"), line_of(treasury, "double_turn_from: 4")
    assert f"original-dutch.yaml:{a_line} | B " in out and f"updated-treasury.yaml:{b_line}" in out
    # Identity keys and card texts are counted, not shown.
    assert "title:" not in out and "description" not in out
    assert "not shown: 5 in identity keys and 16 in card texts (--all shows them)" in out
    # Same cards, same deck: nothing in those sections.
    assert "\ncards\n" not in out and "\ndeck\n" not in out


def test_json_carries_old_new_and_places(runner):
    data = json.loads(run(runner, "diff", "original-dutch", "updated-treasury", "--json").stdout)
    changes = by_path(data)
    assert data["same"] is False
    assert (changes["rounds.double_turn_from"]["old"], changes["rounds.double_turn_from"]["new"]) == (6, 4)
    assert (changes["rounds.fortune_cards"]["old"], changes["rounds.fortune_cards"]["new"]) == (1, 2)
    assert (changes["turn.treasury"]["old"], changes["turn.treasury"]["new"]) == (False, True)
    treasury_line = line_of(rulesets_dir() / "updated-treasury.yaml", "treasury: true")
    assert changes["turn.treasury"]["old_at"].endswith(
        f"original-dutch.yaml:{line_of(rulesets_dir() / 'original-dutch.yaml', 'treasury: false')}")
    assert changes["turn.treasury"]["new_at"].endswith(f"updated-treasury.yaml:{treasury_line}")
    assert "id" not in changes and data["hidden"] == {"identity": 5, "texts": 16}
    assert {c["section"] for c in data["changes"]} == {"rules"}


def test_all_shows_identity_and_card_texts(runner):
    data = json.loads(run(runner, "diff", "original-dutch", "updated-treasury", "--all", "--json").stdout)
    changes = by_path(data)
    assert changes["id"]["old"] == "original-dutch" and changes["id"]["new"] == "updated-treasury"
    assert changes["language"]["new"] == "en"
    assert changes["cards.sandstorm.text.nl"]["kind"] == "removed"
    assert "cards.sandstorm.text.en" not in changes  # both have the English rulebook text (base.yaml)
    assert data["hidden"] == {}
    assert "id: original-dutch -> updated-treasury" in run(
        runner, "diff", "original-dutch", "updated-treasury", "--all").stdout


def test_a_house_rule_changing_a_card_effect_shows_old_and_new_effect(runner, tmp_path: Path):
    rule = tmp_path / "sandstorms.yaml"
    rule.write_text(
        "extends: original-dutch\nid: sandstorms\ntitle: Harsher sandstorms\n"
        "cards:\n  sandstorm:\n    title: Sandstorms over the oases too\n"
        "    effect: for t in territories where t.kind == erg or t.kind == guelta { t.camels -= 2 }\n",
        encoding="utf-8")
    result = run(runner, "diff", "original-dutch", str(rule))
    assert result.exit_code == 0
    out = result.stdout
    assert "~ card 6 sandstorm: effect changed" in out
    assert "- for t in territories where t.kind == erg { t.camels -= 3 }" in out
    assert "+ for t in territories where t.kind == erg or t.kind == guelta { t.camels -= 2 }" in out
    assert "~ card 6 sandstorm: title: Sandstorms -> Sandstorms over the oases too" in out
    base_line = line_of(rulesets_dir() / "base.yaml", "t.kind == erg { t.camels -= 3 }")
    assert f"base.yaml:{base_line} | B " in out and "sandstorms.yaml:7\n" in out
    assert "2 differences (cards 2)" in out


def test_values_equal_after_extends_are_no_difference(runner, tmp_path: Path):
    rule = tmp_path / "same.yaml"
    rule.write_text("extends: original-dutch\nid: same\ntitle: Same\nrounds:\n  double_turn_from: 6\n"
                    "setup:\n  cash: 10\n", encoding="utf-8")
    data = json.loads(run(runner, "diff", "original-dutch", str(rule), "--json").stdout)
    assert data["same"] is True and data["hidden"] == {"identity": 2}


def test_cards_added_removed_and_deck_changes(runner):
    rich = str(rulesets_dir() / "examples" / "rich-oases.yaml")
    out = run(runner, "diff", "swedish-12", rich).stdout
    assert "+ card 17 oasis_harvest: Oasis harvest" in out
    assert "+ card 18 tribute: Tribute" in out
    assert "effect: for p in players { p.cash -= count(t in p.territories) }" in out
    assert "~ card 12 spring: effect changed" in out and "+ guelta.economic = 5 this round" in out
    assert "+ oasis_harvest (at 13)" in out and "+ tribute (at 14)" in out
    back = run(runner, "diff", rich, "swedish-12").stdout
    assert "- card 17 oasis_harvest: Oasis harvest" in back and "- tribute (was at 14)" in back

    gifts = run(runner, "diff", "original-dutch", "swedish-12").stdout
    for i, card in enumerate(["gift_kel_ress", "gift_kel_ilbakan", "gift_kel_ahaggar", "gift_kel_ajjer"], start=2):
        assert f"- {card} (was at {i})" in gifts
    assert "moved" not in gifts  # removing cards shifts positions, not the order


def test_deck_order_changes_are_moves(runner, tmp_path: Path):
    deck = ["haussa_raid", "sandstorm", "drought", "caravan_raid", "camel_plague", "invasion", "heavy_rain",
            "spring", "climate_change", "poisoned_water", "settlement_raid", "silver_in_mountains"]
    moved = deck[1:11] + [deck[0], deck[11]]  # haussa_raid from 1st to 11th
    rule = tmp_path / "order.yaml"
    rule.write_text(f"extends: swedish-12\nid: order\ntitle: Order\ndeck: [{', '.join(moved)}]\n", encoding="utf-8")
    data = json.loads(run(runner, "diff", "swedish-12", str(rule), "--json").stdout)
    assert [(c["kind"], c["path"], c["old"], c["new"]) for c in data["changes"]] == [
        ("moved", "deck.haussa_raid", 1, 11)]
    assert "> haussa_raid moved: at 1 -> at 11" in run(runner, "diff", "swedish-12", str(rule)).stdout


def test_abstract_base_can_be_compared(runner):
    result = run(runner, "diff", "base", "original-dutch", "--json")
    assert result.exit_code == 0
    changes = by_path(json.loads(result.stdout))
    assert changes["abstract"]["kind"] == "removed"
    assert changes["rounds.double_turn_from"]["kind"] == "added"


def test_bad_rulesets_exit_1_with_diagnostics(runner, tmp_path: Path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: original-dutch\nrounds:\n  double_turn_form: 5\n", encoding="utf-8")
    result = run(runner, "diff", "original-dutch", str(bad))
    assert result.exit_code == 1
    assert "did you mean `double_turn_from`?" in result.stderr
    assert result.stdout == ""
    assert run(runner, "diff", "no-such-ruleset", "original-dutch").exit_code == 1
    assert run(runner, "diff", "original-dutch").exit_code == 2


def test_diff_rulesets_directly():
    a, b = build("original-dutch").resolved, build("updated-treasury").resolved
    result = diff_rulesets(a, b)
    names = [c.name for c in result.changes]
    assert names.index("setup.tribal_cards") < names.index("rounds.double_turn_from")  # data order
    change = next(c for c in result.changes if c.name == "rounds.double_turn_from")
    assert change.old_at.file.endswith("original-dutch.yaml") and change.new_at.file.endswith("updated-treasury.yaml")
    assert diff_rulesets(a, a).same
    with pytest.raises(ValueError):
        diff_rulesets(build("no-such-ruleset").resolved, a)


def test_helpers():
    assert dotted(("end", "tie_breaks", 0)) == "end.tie_breaks[0]"
    assert format_value([]) == "[]" and format_value(True) == "true" and format_value(None) == "null"
    assert format_value("player.cash") == "player.cash" and format_value("a, b") == '"a, b"'
    assert format_value({"en": "x"}) == "{en: x}"
