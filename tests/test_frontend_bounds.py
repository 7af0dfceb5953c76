"""The front end stays bounded: cost bound, size caps, capped and windowed diagnostics, one definition of a line.

Each new diagnostic is checked at its exact line and column. Speed itself
is measured in benchmarks/bench_frontend.py, not here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from targui_dsl.effects.cost import MAX_SNIPPETS, estimate
from targui_dsl.effects.parser import MAX_CHARS, parse_effect
from targui_dsl.frontend.build import build
from targui_dsl.frontend.diagnostics import (
    MAX_PER_FILE,
    MAX_PER_SNIPPET,
    QUOTE_WIDTH,
    Sources,
    Span,
    error,
    limit_per_file,
    render,
    render_all,
    sort_key,
    split_lines,
)
from targui_dsl.frontend.schema import first_repeat
from targui_dsl.frontend.yamlload import MAX_VALUES, load_yaml_text
from targui_dsl.games.targui.build import sizes, sizes_of

HEAD = "extends: original-dutch\nid: house\n"


def built(tmp_path: Path, text: str, name: str = "house.yaml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return build(str(path), cwd=tmp_path)


def card(effect: str) -> str:
    return HEAD + "cards:\n  sandstorm:\n    effect: \"" + effect + "\"\n"


def codes(report) -> list[tuple]:
    return [(d.code, d.severity, d.span.line, d.span.column) for d in report.diagnostics if d.span]


def nested_loops(depth: int) -> str:
    text = f"v{depth - 1}.camels += 1"
    for i in reversed(range(depth)):
        text = f"for v{i} in territories {{ {text} }}"
    return text


# --- E0531: the static cost bound -------------------------------------------------------


def test_e0531_six_nested_loops_are_an_error_with_the_estimate(tmp_path):
    report = built(tmp_path, card(nested_loops(6)))
    (d,) = [d for d in report.diagnostics if d.code == "E0531"]
    assert (d.severity, d.span.line, d.span.column) == ("error", 5, 14)
    assert "6 nested loops" in d.message and "49 cells" in d.message
    assert "about 7.0e+10 steps" in d.message  # 49**6 elements, each a few steps
    assert not report.ok and report.ruleset is None


def test_e0531_four_nested_loops_are_a_warning_and_the_ruleset_still_plays(tmp_path):
    report = built(tmp_path, card(nested_loops(4)))
    assert codes(report) == [("E0531", "warning", 5, 14)]
    assert report.ok and report.ruleset is not None


def test_two_nested_loops_and_the_built_in_rulesets_are_under_the_budget(tmp_path):
    assert codes(built(tmp_path, card(nested_loops(2)))) == []
    for name in ("original-dutch", "swedish-12", "updated-treasury"):
        assert [d for d in build(name).diagnostics if d.code in ("E0531", "E0532")] == []


def test_e0531_in_a_formula_points_at_the_formula(tmp_path):
    text = HEAD + ("levy: \"sum(count(b in territories where count(c in territories where "
                   "count(d in territories) > 0) > 0) for a in territories)\"\n")
    report = built(tmp_path, text)
    assert codes(report) == [("E0531", "warning", 3, 8)]
    assert "this formula" in report.diagnostics[0].message


def test_estimate_multiplies_loops_and_counts_aggregates():
    board = sizes(cells=10, players=3, tribes=3, kinds=4)
    one, _ = parse_effect("for t in territories { t.camels += 1 }")
    two, _ = parse_effect("for p in players { for t in territories { t.camels += 1 } }")
    agg, _ = parse_effect("for p in players { p.cash += count(t in territories) }")
    assert estimate(two, board) > 2 * estimate(one, board)
    assert estimate(agg, board) >= 3 * 10


def test_the_estimate_walks_node_types_it_does_not_know():
    # A node type added to the language later: its children are costed, and
    # a `binder` makes it a loop, with no change to cost.py.
    from targui_dsl.effects import nodes as n

    class Repeat(n.Stmt):  # declared as every node is: its fields are its annotations
        binder: n.Binder
        body: tuple

    loop, _ = parse_effect("for t in territories { t.camels += 1 }")
    inner = loop.body[0]
    board = sizes(cells=10, players=3, tribes=3, kinds=4)
    outer = Repeat(inner.pos, inner.binder, (inner,))
    assert estimate(outer, board) > 10 * estimate(inner, board)


def test_sizes_come_from_the_board_and_the_seating():
    report = build("swedish-12")
    found = sizes_of(report.resolved.data).names
    data = report.resolved.data
    assert found["territories"] == data["board"]["rows"] * data["board"]["columns"]
    assert found["kinds"] == len(data["territories"]) and found["tribes"] == len(data["tribes"])


# --- E0532: a division that can be by zero ---------------------------------------------------


def test_e0532_division_by_a_count(tmp_path):
    report = built(tmp_path, card("for p in players { p.cash += 30 // count(t in p.territories) }"))
    assert codes(report) == [("E0532", "warning", 5, 49)]
    d = report.diagnostics[0]
    assert d.span.end_column == 49 + len("count(t in p.territories)")
    assert "max(1, ...)" in d.hint
    assert report.ok


def test_e0532_modulo_by_a_field_and_by_zero(tmp_path):
    report = built(tmp_path, card("for p in players { p.cash += p.cash % p.treasury + 3 // 0 }"))
    assert codes(report) == [("E0532", "warning", 5, 52), ("E0532", "warning", 5, 70)]
    assert "divides by zero" in report.diagnostics[1].message


def test_no_e0532_for_non_zero_literals_or_provably_positive_divisors(tmp_path):
    text = card("for p in players { p.cash += 30 // 2 + p.cash // -3 + 7 // max(1, count(t in p.territories)) "
                "+ 5 // (round + p.cash) }")
    assert codes(built(tmp_path, text)) == []


# --- size caps ------------------------------------------------------------------------


def test_e0530_snippet_too_long(tmp_path):
    report = built(tmp_path, card("t.camels += 1; " * (MAX_CHARS // 15 + 1)))
    assert codes(report) == [("E0530", "error", 5, 14)]
    assert f"{MAX_CHARS:,}" in report.diagnostics[0].message


def test_e0530_too_many_parts(tmp_path):
    report = built(tmp_path, card("a=b;" * 1200))  # 4,800 characters, 8,000 parts
    assert codes(report) == [("E0530", "error", 5, 14)]
    assert "parts" in report.diagnostics[0].message


def test_e0530_too_many_snippets_in_one_ruleset(tmp_path):
    cards = "".join(f"  c{i}:\n    number: {100 + i}\n    title: C\n"
                    f"    effect: \"for p in players {{ p.cash += 1 }}\"\n"
                    for i in range(MAX_SNIPPETS))
    report = built(tmp_path, HEAD + "cards:\n" + cards)
    refused = [d for d in report.diagnostics if d.code == "E0530"]
    assert len(refused) == 1 and "effects and formulas" in refused[0].message
    # 5 formulas and the 16 inherited cards come first: the 151st snippet is c129's effect
    assert (refused[0].span.line, refused[0].span.column) == (7 + 4 * 129, 14)
    assert not report.ok


def test_e0112_too_many_values(tmp_path):
    numbers = ", ".join(["2"] * MAX_VALUES)
    doc = load_yaml_text("a: 1\nb: [" + numbers + "]\n", "big.yaml")
    (d,) = doc.diagnostics
    assert (d.code, d.span.line) == ("E0112", 2)
    # values counted: a, 1, b, the list and its items: the one past the cap
    assert d.span.column == 5 + 3 * (MAX_VALUES - 5)
    assert doc.data is None


def test_e0104_long_base_60_number_is_reported_without_computing_it():
    doc = load_yaml_text("id: " + ":".join(["1"] * 5000) + "\n", "r.yaml")
    (d,) = doc.diagnostics
    assert (d.code, d.span.line, d.span.column) == ("E0104", 1, 5)
    assert "base-60" in d.message and "text by YAML 1.2" in d.message


def test_short_base_60_numbers_keep_their_value_in_the_message():
    (d,) = load_yaml_text("id: 1:30\n", "r.yaml").diagnostics
    assert "the number 90" in d.message


def test_unique_items_with_mixed_types_finds_the_repeat_by_hashing():
    assert first_repeat([2, "x", 3, 4, 3]) == 4
    assert first_repeat([1, True, 1.0]) == 2  # true is not 1; 1.0 is
    assert first_repeat([{"a": 1, "b": 2}, {"b": 2, "a": 1}]) == 1
    assert first_repeat(list(range(5000)) + ["x"]) is None


def test_unique_items_reported_at_the_repeat_with_a_text_among_the_numbers(tmp_path):
    report = built(tmp_path, HEAD + "seating:\n  - players: [2, 3, x, 3]\n    settle_in: sectors\n")
    found = sorted((d.code, d.span.line, d.span.column) for d in report.diagnostics)
    assert ("E0304", 4, 24) in found  # the second 3
    assert ("E0301", 4, 21) in found  # the text


# --- capped diagnostics ------------------------------------------------------------------


def test_e0002_a_snippet_shows_its_first_problems_and_and_n_more(tmp_path):
    report = built(tmp_path, card("; ".join(["t.camels += b"] * (MAX_PER_SNIPPET + 15))))
    shown = [d for d in report.diagnostics if d.code != "E0002"]
    (more,) = [d for d in report.diagnostics if d.code == "E0002"]
    assert len(shown) == MAX_PER_SNIPPET
    assert "and 50 more problems in this effect" in more.message  # each statement: `t` and `b`
    last = max(report.diagnostics, key=lambda d: (d.span.line, d.span.column))
    assert last is more
    # just past the last problem: the `b` of the 35th statement, at offset 15 * 34 + 12 of the effect
    assert (more.span.line, more.span.column) == (5, 14 + 15 * 34 + 12 + 1)
    text = render_all(sorted(report.diagnostics, key=lambda d: (d.span.line, d.span.column, d.code)), report.sources)
    assert text.count("error[E0502]") == MAX_PER_SNIPPET


def test_e0002_a_file_shows_at_most_its_cap(tmp_path):
    cards = "".join(f"  c{i}:\n    number: {100 + i}\n    title: C\n    effect: \"t.camels += b1; t.camels += b2\"\n"
                    for i in range(80))
    report = built(tmp_path, HEAD + "cards:\n" + cards)
    assert len(report.diagnostics) == MAX_PER_FILE + 1
    more = report.diagnostics[-1]
    assert more.code == "E0002" and more.severity == "error"
    # each card: four unknown names and a warning that it is not in the deck (E0418)
    assert f"and {80 * 5 - MAX_PER_FILE:,} more problems in `house.yaml`" in more.message
    assert all(d.is_error for d in report.diagnostics[:-1])  # errors are kept before warnings
    ordered = sorted(report.diagnostics, key=sort_key)
    assert ordered[-1] is more  # sorted by position, it still closes the report


def test_limit_per_file_adds_up_the_snippets_own_and_n_more():
    span = Span("f.yaml", 10, 1)  # after the three below: past the cap
    many = [error("E0502", f"p{i}", Span("f.yaml", i + 1, 1)) for i in range(3)]
    from targui_dsl.frontend.diagnostics import more_diagnostic

    snippet_more = more_diagnostic([error("E0502", "x", span)] * 7, "this effect")
    kept = limit_per_file(many + [snippet_more], most=2)
    assert [d.message for d in kept][:2] == ["p0", "p1"]
    assert kept[-1].message.startswith("and 8 more problems")  # p2 and the snippet's 7
    assert limit_per_file(many, most=3) == many  # under the cap: unchanged


# --- windowed quoting ------------------------------------------------------------------


def test_a_long_line_is_quoted_as_a_window_around_the_caret():
    line = "a" * 5000 + "XYZ" + "b" * 5000
    sources = Sources({"f.yaml": line + "\n"})
    d = error("E0000", "here", Span("f.yaml", 1, 5001, 1, 5004))
    text = render(d, sources)
    quoted, caret = text.splitlines()[2], text.splitlines()[3]
    assert "XYZ" in quoted and quoted.endswith("...") and "| ..." in quoted
    assert len(quoted) < QUOTE_WIDTH + 20
    assert quoted.index("XYZ") == caret.index("^^^")


def test_a_short_line_is_quoted_whole():
    sources = Sources({"f.yaml": "title: x\n"})
    text = render(error("E0000", "here", Span("f.yaml", 1, 8)), sources)
    assert "1 | title: x" in text and "..." not in text


def test_twenty_thousand_diagnostics_on_one_long_line_render_in_bounded_size():
    line = "x" * 200_000
    sources = Sources({"f.yaml": line})
    many = [error("E0000", "here", Span("f.yaml", 1, 1 + 10 * i)) for i in range(20_000)]
    text = render_all(limit_per_file(many), sources)
    assert len(text) < (MAX_PER_FILE + 1) * 600
    assert "and 19,900 more problems in `f.yaml`" in text
    assert text.endswith("100 errors shown, and 19,900 more not shown")


# --- one definition of a line ----------------------------------------------------------------

# Characters str.splitlines breaks on but YAML does not (they are not YAML
# line breaks); \x0b, \x0c and \x1c-\x1e may stand in a quoted YAML value
# as escapes only, so the file holds them in comments.
NOT_BREAKS = ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e"]
YAML_BREAKS = ["\n", "\r", "\r\n", "\x85", "\u2028", "\u2029"]


@pytest.mark.parametrize("char", NOT_BREAKS)
def test_characters_that_are_not_yaml_line_breaks_do_not_split_a_line(char):
    assert split_lines(f"a{char}b\nc") == [f"a{char}b", "c"]


@pytest.mark.parametrize("char", YAML_BREAKS)
def test_yaml_line_breaks_split_a_line(char):
    assert split_lines(f"a{char}b") == ["a", "b"]


@pytest.mark.parametrize("char", ["\x85", "\u2028", "\u2029"])
def test_a_diagnostic_after_a_unicode_line_break_quotes_the_line_it_points_at(tmp_path, char):
    # YAML counts these as line breaks: the error is on line 6, whose text is `  die: seven`.
    text = HEAD + f"# note{char}# more note\nrounds:\n  die: seven\n"
    report = built(tmp_path, text)
    (d,) = [d for d in report.diagnostics if d.code == "E0301"]
    assert (d.span.line, d.span.column) == (6, 8)
    assert report.sources.line(d.span.file, d.span.line) == "  die: seven"
    assert "6 |   die: seven" in render(d, report.sources)


@pytest.mark.parametrize("char", NOT_BREAKS)
def test_a_character_yaml_refuses_is_quoted_on_its_own_whole_line(tmp_path, char):
    # Not a YAML break: line 3 is the whole comment, and the lines after keep their numbers.
    text = HEAD + f"# note{char}more note\nrounds:\n  die: seven\n"
    report = built(tmp_path, text)
    (d,) = report.diagnostics
    assert (d.code, d.span.line, d.span.column) == ("E0101", 3, 7)
    assert report.sources.line(d.span.file, 3) == f"# note{char}more note"
    assert report.sources.line(d.span.file, 5) == "  die: seven"


# --- the command line ---------------------------------------------------------------------


def test_validate_six_nested_loops_prints_the_estimate_and_exits_1(tmp_path):
    from click.testing import CliRunner

    from targui_cli.main import cli

    path = tmp_path / "six.yaml"
    path.write_text(card(nested_loops(6)), encoding="utf-8")
    result = CliRunner().invoke(cli, ["validate", str(path)])
    assert result.exit_code == 1
    assert "six.yaml:5:14: error[E0531]: this effect can take about 7.0e+10 steps" in result.output
    assert "6 nested loops" in result.output


def test_the_deepest_nesting_allowed_still_gets_an_estimate(tmp_path):
    report = built(tmp_path, card(nested_loops(16)))
    (d,) = [d for d in report.diagnostics if d.code == "E0531"]
    assert "16 nested loops" in d.message and "e+27" in d.message  # 49**16 is about 1e27


def test_e0511_loops_nested_past_what_python_compiles(tmp_path):
    # 21 nested loops used to escape as Python's "too many statically nested blocks"
    report = built(tmp_path, card(nested_loops(21)))
    # at the `{` of the 17th loop: 16 loop heads before it, then `for v16 in territories `
    before = sum(len(f"for v{i} in territories {{ ") for i in range(16)) + len("for v16 in territories ")
    assert before == 413
    assert codes(report) == [("E0511", "error", 5, 14 + before)]
    assert "nested more than 16 deep" in report.diagnostics[0].message


def test_did_you_mean_hints_share_a_budget_within_a_build():
    from targui_dsl.frontend.diagnostics import HINT_BUDGET, did_you_mean, with_hint_budget

    names = [f"kind_number_{i}" for i in range(500)]

    @with_hint_budget
    def many_hints() -> list:
        return [did_you_mean(f"kind_numbr_{i}", names) for i in range(100)]

    hints = many_hints()
    given = HINT_BUDGET // len(names)
    assert all(h is not None for h in hints[:given]) and all(h is None for h in hints[given:])
    assert hints[0] == "did you mean `kind_number_0`?"
    # outside a budgeted call (and in the next one) hints are made again
    assert did_you_mean("kind_numbr_99", names) == "did you mean `kind_number_99`?"
    assert many_hints()[0] is not None


def test_thousands_of_misspelt_deck_ids_are_reported_with_hints_for_the_first(tmp_path):
    cards = "".join(f"  card_number_{i}:\n    number: {100 + i}\n    title: C\n"
                    f"    effect: \"for p in players {{ p.cash += 1 }}\"\n"
                    for i in range(200))
    deck = "deck: [" + ", ".join(f"card_numbr_{i}" for i in range(3000)) + "]\n"
    report = built(tmp_path, HEAD + "cards:\n" + cards + deck)
    unknown = [d for d in report.diagnostics if d.code == "E0403"]
    assert unknown and unknown[0].hint == "did you mean `card_number_0`?"
    assert report.diagnostics[-1].code == "E0002"
