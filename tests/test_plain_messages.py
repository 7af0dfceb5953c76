"""Messages in plain words: YAML syntax errors without PyYAML's jargon, effect
syntax errors without token lists, comments in effects."""

from __future__ import annotations

import pytest

from targui_dsl.effects.parser import parse_effect, parse_formula
from targui_dsl.frontend.yamlload import load_yaml_text

JARGON = ("<block", "<scalar>", "'?'", "or something else", "RPAR", "RSQB")


def one(text: str):
    (d,) = load_yaml_text(text, "r.yaml").diagnostics
    assert d.code == "E0101"
    assert not any(word in d.message for word in JARGON), d.message
    return d


# --- YAML ---------------------------------------------------------------------------------


def test_yaml_indented_differently():
    d = one("rounds:\n  die: 6\n fortune_cards: 1\n")
    assert (d.span.line, d.span.column) == (3, 2)
    assert d.message == (
        "this line is indented differently from the ones before it (their block starts at line 1, column 1)")
    assert "same column" in d.hint


def test_yaml_indented_further_than_a_line_with_a_value():
    d = one("rounds: 6\n  die: 6\n")
    assert (d.span.line, d.span.column) == (2, 6)
    assert d.message.startswith("this line is indented further than the line before it")


def test_yaml_list_item_in_a_mapping():
    d = one("deck: []\n- sandstorm\n")
    assert (d.span.line, d.span.column) == (2, 1)
    assert d.message == "a list item `-` where the next `key:` of the mapping above was expected"


def test_yaml_key_in_a_list():
    d = one("deck:\n  - sandstorm\n  rounds: 3\n")
    assert (d.span.line, d.span.column) == (3, 3)
    assert d.message.startswith("a `key:` where the next `- item` of the list above was expected")


def test_yaml_missing_colon_points_at_the_line_without_it():
    d = one("id: a\ntitle\nrounds: 3\n")
    assert (d.span.line, d.span.column) == (2, 1)
    assert d.message == "this line is not a `key: value` entry: its `:` is missing"


def test_yaml_unclosed_bracket():
    d = one("deck: [a, b\nrounds: 3\n")
    assert (d.span.line, d.span.column) == (2, 7)
    assert d.message == (
        "a `[` is not closed, or two of its entries have no `,` between them (it opens at line 1, column 7)")


def test_yaml_unknown_escape_has_its_own_hint():
    d = one('title: "a\\qb"\n')
    assert (d.span.line, d.span.column) == (1, 11)
    assert "`\\q` is not an escape" in d.message and "single quotes" in d.hint


def test_yaml_value_starting_with_a_reserved_character():
    d = one("title: @home\n")
    assert (d.span.line, d.span.column) == (1, 8)
    assert d.message == "a value cannot start with `@`" and "quotes" in d.hint


@pytest.mark.parametrize("text, line, column, start", [
    ("a: & x\n", 1, 5, "`&` starts a YAML anchor here"),
    ("a: * x\n", 1, 5, "`*` starts a YAML alias here"),
    ("a: |x\n  y\n", 1, 5, "after `|` or `>` only a comment may follow"),
    ("a: - b\n", 1, 4, "a list item `-` cannot start here"),
    ("a: 1\n% b\n", 2, 2, "a line starting with `%` is a YAML directive"),
])
def test_yaml_rarer_mistakes_in_plain_words(text, line, column, start):
    d = one(text)
    assert d.message.startswith(start), d.message
    assert (d.span.line, d.span.column) == (line, column)


# --- effect syntax ------------------------------------------------------------------------------


def problem(source: str, what: str = "effect"):
    _, problems = (parse_effect if what == "effect" else parse_formula)(source)
    (p,) = problems
    assert p.code == "E0501"
    assert not any(word in p.message for word in JARGON), p.message
    return p


def test_equals_plus_suggests_plus_equals():
    p = problem("t.camels =+ 3")
    assert (p.start, p.end) == (10, 11)
    assert p.message == "expected an expression but found `+`"
    assert p.hint == "did you mean `+=`?"


def test_only_brackets_really_open_are_expected():
    p = problem("for t in territories { t.camels += (1 }")
    assert p.message == "expected `)` or an operator but found `}`"
    assert p.hint == "a `(` is still open: close it with `)`"


def test_a_value_where_a_statement_should_start():
    p = problem("t.camels += 1 2")
    assert p.message == "expected a statement, an operator, `this round` or end of effect but found `2`"
    assert "a value alone does nothing" in p.hint


def test_a_body_without_braces():
    p = problem("if t.camels > 3 t.camels = 1")
    assert p.message == "expected `{` or an operator but found `t`"
    assert "braces" in p.hint


def test_comparison_written_as_a_statement():
    p = problem("t.camels == 3")
    assert p.message == "expected `+=`, `-=`, `.`, `=` or `chooses` but found `==`"
    assert "if ... == ..." in p.hint


def test_a_closing_brace_that_closes_nothing():
    p = problem("t.camels += 1 }")
    assert "closes nothing" in p.hint


def test_formula_after_a_complete_value():
    p = problem("player.cash 3", "formula")
    assert p.message == "expected an operator or end of formula but found `3`"


@pytest.mark.parametrize("source", [
    "x = [1, 2", "for t in territories where { }", "p.cash += max(1, 2", "}", "t.camels += 1 else",
    "for t territories {}",
])
def test_no_message_lists_raw_tokens(source):
    problem(source)


# --- comments ----------------------------------------------------------------------------------


def test_comments_run_to_the_end_of_the_line():
    source = "# a gift\nfor t in territories { # every cell\n  t.camels += 1 # one camel\n}\n# done"
    tree, problems = parse_effect(source)
    assert problems == [] and len(tree.body) == 1


def test_a_comment_hides_the_rest_of_its_line_only():
    _, problems = parse_effect("t.camels += 1 # note }\nx =")
    (p,) = problems
    assert p.message == "expected an expression but found end of effect"
    assert p.start == len("t.camels += 1 # note }\nx =")


def test_comments_in_a_formula():
    tree, problems = parse_formula("player.cash # money\n + 1")
    assert problems == []
