"""`targui cards`: the (mis)fortune cards in number order, texts by language, deck membership."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from targui_cli.main import cli
from targui_dsl import load_ruleset
from targui_dsl.frontend.resources import rulesets_dir


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def run(runner: CliRunner, *args: str, env: dict | None = None):
    return runner.invoke(cli, list(args), catch_exceptions=False, env=env)


def card_numbers(text: str) -> list[int]:
    return [int(m) for m in re.findall(r"^\s{0,2}(\d+)  \S", text, flags=re.M)]


def test_original_dutch_in_number_order_with_english_text_and_effects(runner):
    result = run(runner, "cards", "original-dutch")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert card_numbers(out) == list(range(1, 17))
    assert "The Haussa, a foreign enemy tribe" in out
    assert "De Haussa" not in out
    assert "effect: for t in territories where t.kind == salt_mine { t.camels = 0 }" in out
    assert "[not in the deck]" not in out
    assert result.stderr == ""


def test_lang_nl_shows_dutch_and_needs_no_fallback(runner):
    result = run(runner, "cards", "original-dutch", "--lang", "nl")
    assert result.exit_code == 0
    assert "De kamelenpest breekt uit" in result.stdout
    assert "note:" not in result.stderr


def test_missing_language_falls_back_and_says_so_once(runner, tmp_path: Path):
    rule = tmp_path / "one-french.yaml"
    rule.write_text("extends: original-dutch\nid: one-french\ntitle: One French card\n"
                    "cards:\n  spring:\n    text:\n      fr: C'est le printemps.\n", encoding="utf-8")
    result = run(runner, "cards", str(rule), "--lang", "fr")
    assert result.exit_code == 0
    assert "(en) The Haussa" in result.stdout
    assert "C'est le printemps." in result.stdout
    assert result.stderr.count("note:") == 1
    assert "15 cards have no `fr` text; shown in en instead" in result.stderr


def test_lang_picks_among_several_languages(runner, tmp_path: Path):
    rule = tmp_path / "bilingual.yaml"
    rule.write_text(
        "extends: original-dutch\nid: bilingual\ntitle: Bilingual\nlanguage: en\n"
        "cards:\n  spring:\n    text:\n      en: It is spring. Five camels are born in each guelta.\n",
        encoding="utf-8")
    english = run(runner, "cards", str(rule))
    dutch = run(runner, "cards", str(rule), "--lang", "nl")
    assert "It is spring. Five camels" in english.stdout
    assert "Het is voorjaar" not in english.stdout
    assert "Het is voorjaar" in dutch.stdout and "It is spring" not in dutch.stdout
    assert "note:" not in dutch.stderr  # every card has Dutch


def test_swedish_marks_cards_left_out_of_the_deck(runner):
    result = run(runner, "cards", "swedish-12", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    out_of_deck = [c["number"] for c in data["cards"] if not c["in_deck"]]
    assert out_of_deck == [2, 3, 4, 5]
    text = run(runner, "cards", "swedish-12").stdout
    assert len(re.findall(r"\[not in the deck\]", text)) == 4
    assert re.search(r"^\s+2  Kel Ress receives a gift  \[not in the deck\]", text, flags=re.M)


def test_json_matches_the_compiled_ruleset(runner):
    result = run(runner, "cards", "updated-treasury", "--format", "json")
    data = json.loads(result.stdout)
    rs = load_ruleset("updated-treasury")
    assert data["ruleset"] == "updated-treasury" and data["language"] == "en"
    assert [c["number"] for c in data["cards"]] == sorted(c.number for c in rs.cards.values())
    for entry in data["cards"]:
        card = rs.cards[entry["id"]]
        assert entry["title"] == card.title
        assert entry["effect"] == card.effect.source
        assert entry["text"] == card.texts["en"] and entry["fallback"] is False
        assert entry["deck_position"] == rs.deck.index(card.id) + 1


def test_card_without_text_and_multi_line_effects(runner):
    harsh = run(runner, "cards", str(rulesets_dir() / "examples" / "harsh-desert.yaml"))
    assert re.search(r"7  Dust storm\n\s+\(no rulebook text\)\n"
                     r"\s+effect: for t in territories where t.kind in \[erg, reg\]",
                     harsh.stdout)
    rich = run(runner, "cards", str(rulesets_dir() / "examples" / "rich-oases.yaml")).stdout
    assert "effect: for p in players where p.holds_own_settlement {" in rich
    assert re.search(r"^\s+if count\(t in p.territories where t.kind == guelta\) >= 3 \{$", rich, flags=re.M)


def test_text_is_wrapped_to_the_terminal_width(runner):
    result = run(runner, "cards", "original-dutch", env={"COLUMNS": "50"})
    for line in result.stdout.splitlines():
        if "effect:" not in line and not line.startswith("Targui"):
            assert len(line) <= 50, line
    wide = run(runner, "cards", "original-dutch", env={"COLUMNS": "100"})
    assert max(len(line) for line in wide.stdout.splitlines() if "effect" not in line) > 50


def test_bad_ruleset_exits_1_and_bad_language_exits_2(runner, tmp_path: Path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: original-dutch\ncards:\n  spring:\n    effect: t.camels +=\n", encoding="utf-8")
    result = run(runner, "cards", str(bad))
    assert result.exit_code == 1
    assert "error[" in result.stderr
    assert run(runner, "cards", "no-such-variant").exit_code == 1
    assert run(runner, "cards", "original-dutch", "--lang", "dutch!").exit_code == 2
