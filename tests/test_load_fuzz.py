"""Property tests: whatever the input, loading gives values or diagnostics, never an exception."""

from __future__ import annotations

import math
import os
import tempfile
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from targui_dsl.frontend.yamlload import LoadedDoc, load_yaml_file, load_yaml_text

#: CI runs a small count; ``TARGUI_FUZZ_EXAMPLES=5000`` runs more.
EXAMPLES = int(os.environ.get("TARGUI_FUZZ_EXAMPLES", "150"))
FAST = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def assert_well_formed(doc: LoadedDoc, text: str) -> None:
    """Diagnostics point inside the file; data is plain and every value in it has a position."""
    lines = len(text.splitlines())
    for diagnostic in doc.diagnostics:
        span = diagnostic.span
        assert diagnostic.code.startswith("E01"), diagnostic
        assert span is not None and span.file == doc.file
        assert 1 <= span.line <= lines + 1, (diagnostic, lines)
        assert span.column >= 1
        if span.end_line is not None:
            assert span.line <= span.end_line <= lines + 1 and span.end_column >= 1
    has_errors = any(d.is_error for d in doc.diagnostics)
    assert (doc.data is None) == has_errors
    if doc.data is not None:
        assert isinstance(doc.data, dict)
        for path, value in walk(doc.data):
            assert path in doc.spans
            if path and isinstance(path[-1], str):
                assert path in doc.key_spans
            if isinstance(value, str):
                for offset in range(len(value) + 1):
                    span = doc.locate(path, offset)
                    assert 1 <= span.line <= lines + 1 and span.column >= 1


def walk(value, path=()):
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            assert isinstance(key, str)
            yield from walk(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from walk(item, path + (index,))
    else:
        assert value is None or isinstance(value, (str, int, float, bool))


# --- arbitrary text -------------------------------------------------------------------------


@FAST
@given(st.text())
def test_arbitrary_text_only_ever_gives_diagnostics(text):
    assert_well_formed(load_yaml_text(text, "fuzz.yaml"), text)


@FAST
@given(st.text(alphabet=st.sampled_from(list("ab:- \n\t[]{},'\"&*!|>#?%@`~\r"))))
def test_yaml_punctuation_soup_only_ever_gives_diagnostics(text):
    assert_well_formed(load_yaml_text(text, "fuzz.yaml"), text)


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=200))
def test_arbitrary_bytes_in_a_file_only_ever_give_diagnostics(raw):
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "fuzz.yaml")
        with open(path, "wb") as handle:
            handle.write(raw)
        doc = load_yaml_file(path, display="fuzz.yaml")
    assert_well_formed(doc, doc.text)


# --- YAML-ish documents ------------------------------------------------------------------------

# PyYAML's own dumper does not round-trip the rarer line breaks (\x85, U+2028...).
texts = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\x85\u2028\u2029"),
                max_size=12)
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), texts,
    st.sampled_from(["yes", "NO", "y", "on", "1:30", "017", "0o17", "1e3", "a: b", "- x"]),
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4),
    max_leaves=12,
)
documents = st.dictionaries(texts, values, min_size=1, max_size=5)


def dump(data: dict, flow: bool | None) -> str:
    return yaml.safe_dump(data, default_flow_style=flow, allow_unicode=True, sort_keys=False)


@FAST
@given(documents, st.sampled_from([None, False, True]))
def test_dumped_documents_load_back_or_are_flagged_as_yaml_1_1_surprises(data, flow):
    text = dump(data, flow)
    doc = load_yaml_text(text, "dump.yaml")
    assert_well_formed(doc, text)
    if doc.data is None:
        # safe_dump writes text such as `y`, `0o17` or `1e3` unquoted; a YAML 1.2 reader disagrees
        assert {d.code for d in doc.diagnostics} <= {"E0104"}, doc.diagnostics
    else:
        assert same(doc.data, data)


def same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


PUNCTUATION = ["&a ", "*a", ": ", "- ", "{", "}", "[", "]", '"', "'", "\t", "\n", "? ", "!foo ",
               "!!python/name:os.system ", "#", "|", ">", "---\n", "%YAML 1.1\n", ",", "yes", "\r", "\x85",
               "\ufeff", "   ", "&b [*a, *a]", "\\"]


@FAST
@given(documents, st.sampled_from([None, False, True]), st.data())
def test_mutated_documents_only_ever_give_diagnostics(data, flow, draw):
    text = dump(data, flow)
    for _ in range(draw.draw(st.integers(1, 4))):
        at = draw.draw(st.integers(0, len(text)))
        text = text[:at] + draw.draw(st.sampled_from(PUNCTUATION)) + text[at:]
    assert_well_formed(load_yaml_text(text, "mutant.yaml"), text)


# --- house rules with hooks, choices and per-seat formulas, mutated ---------------------------------

ROOT = Path(__file__).resolve().parent.parent
HOUSE_RULES = sorted(p.read_text(encoding="utf-8") for p in (ROOT / "rulesets" / "examples").glob("*.yaml")
                     if any(word in p.read_text(encoding="utf-8") for word in ("hooks:", "chooses", "seat")))
PIECES = ["{", "}", "chooses", " p chooses n in 0 - 5..99999999999 { p.cash += n }", "roll(6)", "let d = ",
          "seat", "seat * seat", "for p in players", "turn_start:", "game_start:", "  - ", ":", "-", "\n", "  ",
          "9" * 12, "nobody.", "round", "..", "where", "player", "|", "cash: ", "0 - ", "//", "\t", "#"]


@settings(max_examples=max(EXAMPLES // 3, 20), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.sampled_from(HOUSE_RULES), st.data())
def test_mutated_house_rules_with_hooks_and_seat_formulas_only_give_diagnostics(tmp_path, text, data):
    from targui_dsl.frontend.build import build
    from targui_dsl.frontend.diagnostics import render_all

    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(text)))
        piece = data.draw(st.sampled_from(PIECES))
        kind = data.draw(st.sampled_from(["replace", "delete", "insert"]))
        if kind == "replace":
            text = text[:at] + piece + text[at + len(piece):]
        elif kind == "delete":
            text = text[:at] + text[at + len(piece):]
        else:
            text = text[:at] + piece + text[at:]
    path = tmp_path / "house.yaml"
    path.write_text(text, encoding="utf-8")
    report = build(str(path))  # never raises
    render_all(report.diagnostics, report.sources, color=False)
    for d in report.diagnostics:
        assert d.code and d.message
        d.to_json()
