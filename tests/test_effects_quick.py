"""The quick parser (targui_dsl/effects/quick.py, over _tables.py) builds the nodes Lark's parser and
its Transformer build, places included, for every text that parses within the limits, and leaves
every other text to Lark's parser (which says what is wrong)."""

from __future__ import annotations

from typing import Any, Iterator

import pytest

from targui_dsl.effects import _tables, quick, standalone
from targui_dsl.effects.parser import BUILDERS, MAX_BLOCKS, MAX_DEPTH, MAX_NODES, _parse_lark, parse_effect
from targui_dsl.frontend.resources import rulesets_dir
from targui_dsl.frontend.yamlload import load_yaml_file

#: Texts whose places test Lark's rules for them: brackets around what a `?rule` passes up
#: (a container), optional parts absent, comments and line breaks, every statement.
SHAPES = [
    "", ";", ";;", "x.f = (1)", "x.f = ((1))", "x.f = -(a.b)", "x.f = (a + b) * (c)", "x.f = (a if c else b)",
    "if (a) { }", "if a { } else { x.f = 1 }", "if a { } else if (b) { } else { ; }",
    "for p in players where (p.cash) > 0 { p.cash -= 1 }", "for i in 1..(n) { }", "for x in [a, (b)] { }",
    "x.f = sum((p.cash) for p in players)", "x.f = count(p in players where p.cash > 0)", "x.f = max()",
    "x.f = min(a, (b))", "x.f = f()", "x.f = f(1, (2))", "let d = roll(6)", "move (n) from a to (b)",
    'end game "done"', "break", "draw_card()", "offer(noble = true, n = (2))", "x.f = 1 this round",
    "p.x chooses t in p.territories where (t.camels) > 0 {\n  t.camels += 1 # one more\n}\n",
    "# a comment\n\n  x.f = 1;\n\tx.g = 2 # and another",
    "x.f = a in [b, c] and not (d not in e)", "x.f = nobody == (a.b).c", "x.f = round % 2 // 1 / 1",
    "x.f = true or false", "x.f = 12345678901234567890123456789012345",
]


def _texts() -> Iterator[str]:
    def walk(value: Any) -> Iterator[str]:
        if isinstance(value, str):
            yield value
        elif isinstance(value, dict):
            for item in value.values():
                yield from walk(item)
        elif isinstance(value, list):
            for item in value:
                yield from walk(item)

    for path in sorted(rulesets_dir().glob("**/*.yaml")):
        yield from walk(load_yaml_file(path).data)


def _quick(text: str, start: str) -> Any:
    try:
        return quick.parse(text, start, BUILDERS, MAX_DEPTH, MAX_NODES, MAX_BLOCKS)
    except quick.Fallback:
        return None


def _alike(text: str, start: str) -> bool:
    node, problems = _parse_lark(text, start)
    ours = _quick(text, start)
    if node is None:
        assert problems and ours is None, (text, start)  # an error: left to Lark's parser
        return False
    assert not problems and ours == node, (text, start)  # the same nodes, places and all
    return True


def test_the_tables_are_of_the_grammar_as_it_is():
    assert _tables.GRAMMAR_SHA256 == standalone.grammar_digest(), \
        "grammar.lark changed: run `python -m targui_dsl.effects.standalone`"


def test_every_text_of_every_ruleset_parses_as_with_lark():
    texts = sorted(set(_texts()))
    parsed = sum(_alike(text, start) for text in texts for start in ("effect", "formula"))
    assert parsed > 100 and len(texts) > 300


@pytest.mark.parametrize("text", SHAPES)
def test_brackets_optional_parts_and_every_statement_are_placed_as_by_lark(text):
    assert _alike(text, "effect")
    if not text.startswith(("x.f", "if", "for", "let", "move", "end", "break", "draw", "offer", "p.x", "#", ";")) \
            and text:
        assert _alike(text, "formula")


def test_every_cut_of_a_snippet_is_parsed_or_left_to_lark_alike():
    # prefixes and suffixes of real snippets: most are syntax errors, some parse
    snippets = [t for t in sorted(set(_texts())) if "{" in t and len(t) < 300][:25] + SHAPES
    outcomes = [_alike(cut, start) for text in snippets for i in range(len(text) + 1)
                for cut in (text[:i], text[i:]) for start in ("effect", "formula")]
    assert any(outcomes) and not all(outcomes)


def test_texts_over_a_limit_are_left_to_lark_which_names_the_limit():
    deep = "x.f = " + "-" * (MAX_DEPTH + 5) + "1"
    braces = "for a in b { " * (MAX_BLOCKS + 1) + "}" * (MAX_BLOCKS + 1)
    wide = "x.f = " + " + ".join(["1"] * (MAX_NODES // 2 + 10))
    for text in (deep, braces, wide):
        assert _quick(text, "effect") is None
        node, problems = parse_effect(text)
        assert node is None and problems[0].code in ("E0511", "E0530")
    within = "for a in b { " * MAX_BLOCKS + "}" * MAX_BLOCKS
    assert _alike(within, "effect")


def test_a_token_has_lark_s_place_and_kind():
    (token,) = [t for t in quick._lex("\n  # note\n  round") if t == "round"]
    assert (token.type, token.line, token.column, token.end_line, token.end_column, token.start_pos,
            token.end_pos) == ("ROUND", 3, 3, 3, 8, 12, 17)
