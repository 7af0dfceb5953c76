"""Hints that name the likely fix: misspelt card and kind ids, formula parameters used elsewhere."""

from __future__ import annotations

from pathlib import Path

from targui_dsl.frontend.build import build

HEAD = "extends: original-dutch\nid: house\n"


def built(tmp_path: Path, text: str):
    path = tmp_path / "house.yaml"
    path.write_text(text, encoding="utf-8")
    return build(str(path), cwd=tmp_path)


def where(report) -> list[tuple]:
    return [(d.code, d.span.line, d.span.column) for d in report.diagnostics]


def test_a_misspelt_card_is_one_diagnostic_with_did_you_mean(tmp_path):
    report = built(tmp_path, HEAD + "cards:\n  sandstrom:\n    effect: \"for t in territories { t.camels -= 4 }\"\n")
    assert where(report) == [("E0303", 4, 3)]
    d = report.diagnostics[0]
    assert d.message == "card `sandstrom` is not one already defined, and a new card needs `number` and `title`"
    assert d.hint == "did you mean `sandstorm`?"


def test_a_misspelt_kind_is_one_diagnostic_with_did_you_mean(tmp_path):
    report = built(tmp_path, HEAD + "territories:\n  guelt:\n    count: 3\n")
    assert where(report) == [("E0303", 4, 3)]
    assert report.diagnostics[0].hint == "did you mean `guelta`?"
    assert "`name`, `economic` and `strategic`" in report.diagnostics[0].message


def test_a_new_card_unlike_any_other_names_its_missing_settings_and_the_cards_there_are(tmp_path):
    report = built(tmp_path, HEAD + "cards:\n  locusts:\n    effect: \"box = 1\"\n")
    (problem,) = [d for d in report.diagnostics if d.code == "E0303"]
    assert problem.message == "card `locusts` is not one already defined, and a new card needs `number` and `title`"
    assert problem.hint.startswith("to change one, use its id; the cards there are: ")
    assert "`sandstorm`" in problem.hint


def test_a_misspelt_setting_key_gets_did_you_mean(tmp_path):
    report = built(tmp_path, HEAD + "rounds:\n  double_turn_form: 5\n")
    assert where(report) == [("E0302", 4, 3)]
    assert report.diagnostics[0].hint == "did you mean `double_turn_from`?"


def test_die_in_a_card_says_where_die_exists(tmp_path):
    report = built(tmp_path, HEAD + "cards:\n  sandstorm:\n    effect: \"for t in territories { t.camels += die }\"\n")
    assert where(report) == [("E0502", 5, 49)]
    assert report.diagnostics[0].hint == "`die` exists only in the formulas `combat.defender_loses` and `combat.attacker_loses`"


def test_player_in_a_combat_formula_says_where_player_exists(tmp_path):
    report = built(tmp_path, HEAD + "combat:\n  attacker_loses: \"player.cash\"\n")
    assert where(report) == [("E0502", 4, 20)]
    assert report.diagnostics[0].hint == (
        "`player` exists only in the formulas `levy`, `end.score` and `end.tie_breaks`; did you mean `players`?")
