"""libyaml's parser reads rulesets where PyYAML has it (issue 22: PyYAML's pure-Python parser was a fifth
of `targui validate`); whatever the text, the document and every diagnostic are those of PyYAML's own
pure-Python parser, so what an author is told never depends on how PyYAML was installed."""

from __future__ import annotations

import math
import os
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_load_fuzz import PUNCTUATION, documents, dump

from targui_dsl.frontend import yamlload
from targui_dsl.frontend.yamlload import LoadedDoc, load_yaml_text

ROOT = Path(__file__).resolve().parent.parent
RULESETS = sorted((ROOT / "rulesets").rglob("*.yaml"))
EXAMPLES = int(os.environ.get("TARGUI_FUZZ_EXAMPLES", "150"))
FAST = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])

needs_libyaml = pytest.mark.skipif(not yaml.__with_libyaml__, reason="PyYAML was built without libyaml")


def pure(text: str) -> LoadedDoc:
    """The document as PyYAML's pure-Python parser gives it (what every install can do)."""
    loaded = yamlload._Builder(text, "t.yaml", yaml.SafeLoader).run()
    assert loaded is not None
    return loaded


def assert_same(doc: LoadedDoc, reference: LoadedDoc) -> None:
    assert _plain(doc.data) == _plain(reference.data)
    assert doc.diagnostics == reference.diagnostics
    assert doc.spans == reference.spans
    assert doc.key_spans == reference.key_spans
    for path, value in _strings(reference.data):
        for offset in range(len(value) + 1):
            assert doc.locate(path, offset) == reference.locate(path, offset), (path, offset)


def _plain(value):
    """Values with NaN made comparable (NaN != NaN)."""
    if isinstance(value, float) and math.isnan(value):
        return "NaN"
    if isinstance(value, dict):
        return [(key, _plain(item)) for key, item in value.items()]
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return (type(value).__name__, value)


def _strings(value, path=()):
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _strings(item, path + (index,))


@needs_libyaml
@pytest.mark.parametrize("path", RULESETS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_shipped_ruleset_is_read_by_libyaml_as_by_pyyaml(path):
    text = path.read_text(encoding="utf-8")
    fast = yamlload._Builder(text, "t.yaml", yamlload._FAST_LOADER).run(fallible=True)
    assert fast is not None  # libyaml read it: no fall-back to the slow parser for a ruleset we ship
    assert_same(fast, pure(text))
    assert_same(load_yaml_text(text, "t.yaml"), pure(text))


@needs_libyaml
@pytest.mark.parametrize("text", [
    "a: 1\nb: [x, 'y', \"z\"]\nc: |\n  lit\nd: >\n  fold\ne: !!str 3\nf: ! 3",  # no final line break
    "a: [b? c]\n", "{a: , b}\n", "a: |#x\n  b\n", "a: >-#x\n  b\n", "a:\nb:\n- \n",  # empty values, `?`, `|#`
    "a:\t1\n",  # PyYAML refuses this tab, libyaml reads it as a space
    "\ufeffa: 1\nb: x\n",  # libyaml does not count a byte-order mark
    "a: [1, 2\n", "a: b: c\n", "a: 'x\n", "- a\nb: 1\n", "a:\n  - 1\n - 2\n",  # syntax errors in PyYAML's words
    "a: \x07\n", "a: \ud800\n",  # characters YAML refuses; a lone surrogate
    "a: x\x85b: y\u2028c: z\u2029d: 1\r\ne: 2\rf: 3\n",  # every line break YAML knows
    "\u20ac\u20ac: \U0001F600 x\n  y\nz: '\u00e9'''\n",  # characters beyond ASCII and the BMP
    "a: &x 1\nb: *x\n", "--- \na: 1\n...\n---\nb: 2\n", "%YAML 1.1\n---\na: 1\n", "? [a]\n: 1\n",
    "a: !!python/object:os.system x\nb: !foo x\nc: !!int x\n", "a: yes\nb: 0o17\nc: 1:30\n",
])
def test_texts_the_two_parsers_read_differently_give_pyyamls_answer(text):
    assert_same(load_yaml_text(text, "t.yaml"), pure(text))


@needs_libyaml
@FAST
@given(documents, st.sampled_from([None, False, True]), st.data())
def test_mutated_documents_give_pyyamls_answer(data, flow, draw):
    text = dump(data, flow)
    for _ in range(draw.draw(st.integers(0, 4))):
        at = draw.draw(st.integers(0, len(text)))
        text = text[:at] + draw.draw(st.sampled_from(PUNCTUATION)) + text[at:]
    assert_same(load_yaml_text(text, "t.yaml"), pure(text))


@needs_libyaml
@FAST
@given(st.text(alphabet=st.sampled_from(list("ab:- \n[]{},'\"&*!|>#?%@`~\r.0\\"))))
def test_punctuation_soup_gives_pyyamls_answer(text):
    assert_same(load_yaml_text(text, "t.yaml"), pure(text))


SHIPPED = [path.read_text(encoding="utf-8") for path in RULESETS]
PIECES = [*PUNCTUATION, "|", ">-", "|2", "?", "? x", ":", "::", "-", "- ", "\n  ", "\n- ", "null", "~", "\u00e9",
          "\u2028", "'", "''", "[", "]", "{a: }", "[b, ]", "!!str ", "! ", "%", "@", "`", "#x", " #x"]


@needs_libyaml
@settings(max_examples=max(EXAMPLES // 3, 20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SHIPPED), st.data())
def test_mutated_shipped_rulesets_give_pyyamls_answer(text, data):
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(text)))
        piece = data.draw(st.sampled_from(PIECES))
        kind = data.draw(st.sampled_from(["replace", "delete", "insert"]))
        if kind == "replace":
            text = text[:at] + piece + text[at + len(piece):]
        elif kind == "delete":
            text = text[:at] + text[at + len(piece):]
        else:
            text = text[:at] + piece + text[at:]
    assert_same(load_yaml_text(text, "t.yaml"), pure(text))


@needs_libyaml
@FAST
@given(st.text())
def test_arbitrary_text_gives_pyyamls_answer(text):
    assert_same(load_yaml_text(text, "t.yaml"), pure(text))
