"""The effect language's generated parser (targui_dsl/effects/_lalr.py, written by
`python -m targui_dsl.effects.standalone`) is the grammar's as it is now, and parses as Lark does:
the same trees, positions and syntax errors, on every text of every shipped ruleset."""

from __future__ import annotations

from typing import Any, Iterator

import lark
import pytest

from targui_dsl.effects import _lalr, standalone
from targui_dsl.effects.parser import _lark
from targui_dsl.frontend.resources import rulesets_dir
from targui_dsl.frontend.yamlload import load_yaml_file

BROKEN = ["", "x.field =", "for x in { }", "if a b", "x.y += 1 +", "1 + + 2", "let = 3", "x.f = 3;;", "((1)",
          "sum(", "x in [a, b", "#", "x.f = 'text", "move a to", "12abc", "end end"]


@pytest.fixture(scope="module")
def reference() -> Any:
    return lark.Lark(standalone.grammar_text(), **standalone.OPTIONS)


def _texts() -> Iterator[str]:
    def walk(value: Any) -> Iterator[str]:
        if isinstance(value, str):
            yield value
        elif isinstance(value, dict):
            for key, item in value.items():
                yield str(key)
                yield from walk(item)
        elif isinstance(value, list):
            for item in value:
                yield from walk(item)

    for path in sorted(rulesets_dir().glob("**/*.yaml")):
        yield from walk(load_yaml_file(path).data)


def _shape(tree: Any) -> Any:
    """A tree as plain data: rule, positions, children (tokens with their type, text and place)."""
    if tree is None:
        return None
    if isinstance(tree, str):  # a token
        return ("token", tree.type, str(tree), tree.line, tree.column, tree.end_line, tree.end_column,
                tree.start_pos, tree.end_pos)
    meta = tree.meta
    place = None if getattr(meta, "empty", True) else (meta.line, meta.column, meta.end_line, meta.end_column,
                                                       meta.start_pos, meta.end_pos)
    return (tree.data, place, [_shape(child) for child in tree.children])


def _outcome(parser: Any, text: str, start: str) -> Any:
    try:
        return _shape(parser.parse(text, start=start))
    except Exception as exc:  # noqa: BLE001 - the error's kind and place are what is compared
        return (type(exc).__name__, getattr(exc, "pos_in_stream", None), getattr(exc, "line", None),
                getattr(exc, "column", None), sorted(getattr(exc, "expected", None) or ()),
                str(getattr(exc, "token", "")))


def test_the_generated_parser_is_of_the_grammar_as_it_is():
    assert _lalr.GRAMMAR_SHA256 == standalone.grammar_digest(), \
        "grammar.lark changed: run `python -m targui_dsl.effects.standalone`"


def test_it_holds_its_tables_as_literals_and_nothing_to_unpickle():
    source = standalone.TARGET.read_text(encoding="utf-8")
    assert "import pickle" not in source and "zlib" not in source.split("DATA = (")[1]


def test_it_parses_every_text_of_every_ruleset_as_lark_does(reference: Any):
    texts = sorted(set(_texts())) + BROKEN
    parsed = 0
    for text in texts:
        for start in ("effect", "formula"):
            ours = _outcome(_lark(), text, start)
            assert ours == _outcome(reference, text, start), (text, start)
            parsed += isinstance(ours[0], str) and ours[0] in ("effect", "formula")
    assert parsed > 50 and len(texts) > 400  # real snippets parsed, and many texts refused alike
