"""Hints that name the likely fix: misspelt card and kind ids, formula parameters used elsewhere."""

from __future__ import annotations

from pathlib import Path

from targui_dsl.frontend.build import build
from targui_dsl.frontend.diagnostics import render_all

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
    assert report.diagnostics[0].hint == (
        "`die` exists only in the formulas `combat.defender_loses` and `combat.attacker_loses`")


def test_player_in_a_combat_formula_says_where_player_exists(tmp_path):
    report = built(tmp_path, HEAD + "combat:\n  attacker_loses: \"player.cash\"\n")
    assert where(report) == [("E0502", 4, 20)]
    assert report.diagnostics[0].hint == (
        "`player` exists only in the formulas `levy`, `end.score` and `end.tie_breaks`; did you mean `players`?")


# --- the syntax errors authors make most: each told where, with the fix -------------

def _syntax(tmp_path: Path, effect: str):
    """The one diagnostic for a card whose effect is ``effect`` (a `|` block from line 5)."""
    body = "".join(f"      {line}\n" for line in effect.split("\n"))
    report = built(tmp_path, HEAD + "cards:\n  sandstorm:\n    effect: |\n" + body)
    (problem,) = report.diagnostics
    assert problem.code == "E0501"
    return problem, report


def test_a_statement_the_language_does_not_know_lists_the_statements_there_are(tmp_path):
    for effect, written, column in (
        ("stop game", "stop game", 12),
        ("print x", "print x", 13),
        ("for t in territories {\n  t.camels -= 1\n}\nwhile box > 0 { box -= 1 }", "while box", 13),
    ):
        problem, report = _syntax(tmp_path, effect)
        line = 6 + effect.count("\n")
        assert (problem.span.line, problem.span.column) == (line, column), effect
        assert problem.hint == (
            f"the language has no statement `{written}`: a statement is `for`, `if`, `let`, `move`,"
            ' `end game "REASON"`, a choice (`p chooses ...`) or a change such as `t.camels = 3`'
        )
        shown = render_all(report.diagnostics, report.sources)
        assert f"house.yaml:{line}:{column}: error[E0501]" in shown
        assert "\n  |" + " " * column + "^" in shown  # the caret under the word found


def test_end_game_without_its_reason_shows_how_to_write_one(tmp_path):
    for effect, message in (("end game", "expected a reason in quotes but found end of effect"),
                            ("end game now", "expected a reason in quotes but found `now`"),
                            ('end "over"', "expected `game` but found `\"over\"`")):
        problem, _ = _syntax(tmp_path, effect)
        assert problem.message == message, effect
        assert problem.hint == 'the game ends with a reason in quotes: `end game "a player holds 12 territories"`'


def test_a_lone_word_at_the_end_is_an_unknown_statement_too(tmp_path):
    problem, _ = _syntax(tmp_path, "box = 2\nreturn")
    assert (problem.span.line, problem.span.column) == (7, 13)
    assert problem.message == "expected `(`, `+=`, `-=`, `.`, `=` or `chooses` but found end of effect"
    assert problem.hint.startswith("the language has no statement `return`: ")


def test_an_unknown_statement_inside_braces_is_not_called_a_stray_brace(tmp_path):
    problem, _ = _syntax(tmp_path, "for t in territories { stop }")
    assert problem.hint.startswith("the language has no statement `stop`: ")


def test_a_missing_closing_brace_says_which_bracket_is_open(tmp_path):
    problem, _ = _syntax(tmp_path, "for t in territories {\n  if t.camels > 2 {\n    t.camels -= 1\n  }")
    assert problem.message == "expected `}` or a statement but found end of effect"
    assert (problem.span.line, problem.span.column) == (9, 10)
    assert problem.hint == "a bracket is still open: close it with `}`"


def test_a_single_equals_in_a_condition_says_use_double(tmp_path):
    for effect, column in (("if box = 3 { box = 1 }", 14),
                           ("for t in territories where t.camels = 0 { t.camels = 1 }", 43)):
        problem, _ = _syntax(tmp_path, effect)
        assert (problem.span.line, problem.span.column) == (6, column), effect
        assert problem.hint == "use `==` to compare"
