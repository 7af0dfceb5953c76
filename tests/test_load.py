"""targui_dsl.frontend.yamlload: values, positions, and every E01xx refusal at its exact place."""

from __future__ import annotations

import textwrap

import pytest

from targui_dsl.frontend.diagnostics import Span
from targui_dsl.frontend.yamlload import MAX_BYTES, MAX_DEPTH, load_yaml_file, load_yaml_text


def load(text: str):
    return load_yaml_text(textwrap.dedent(text), "r.yaml")


def only(doc, code: str):
    """The single diagnostic of ``doc``, which must have ``code``."""
    assert [d.code for d in doc.diagnostics] == [code], doc.diagnostics
    assert doc.data is None
    return doc.diagnostics[0]


def at(diagnostic, line: int, column: int) -> None:
    assert (diagnostic.span.line, diagnostic.span.column) == (line, column), diagnostic


# --- values and spans ---------------------------------------------------------------


def test_plain_values_and_their_spans():
    doc = load("""\
        id: demo
        count: 3
        ratio: 1.5
        flags: [true, false, null]
        nested:
          name: 'Erg'
          list:
            - 1
            - "two"
        """)
    assert doc.diagnostics == []
    assert doc.data == {
        "id": "demo", "count": 3, "ratio": 1.5, "flags": [True, False, None],
        "nested": {"name": "Erg", "list": [1, "two"]},
    }
    assert doc.spans[("id",)] == Span("r.yaml", 1, 5, 1, 9)
    assert doc.key_spans[("id",)] == Span("r.yaml", 1, 1, 1, 3)
    assert doc.spans[("flags", 2)] == Span("r.yaml", 4, 22, 4, 26)
    assert doc.spans[("nested", "name")] == Span("r.yaml", 6, 9, 6, 14)
    assert doc.key_spans[("nested", "list")] == Span("r.yaml", 7, 3, 7, 7)
    assert doc.spans[("nested", "list", 1)] == Span("r.yaml", 9, 7, 9, 12)
    assert doc.spans[()].line == 1 and doc.spans[()].column == 1
    # every value and every key has a position
    assert set(doc.spans) >= {("count",), ("ratio",), ("flags",), ("flags", 0), ("nested",), ("nested", "list", 0)}
    assert set(doc.key_spans) == {("id",), ("count",), ("ratio",), ("flags",), ("nested",),
                                  ("nested", "name"), ("nested", "list")}


def test_core_tags_are_allowed_and_non_specific_tag_means_text():
    doc = load("""\
        a: !!str 12
        b: !!int "7"
        c: ! yes
        d: !!map {x: 1}
        """)
    assert doc.diagnostics == []
    assert doc.data == {"a": "12", "b": 7, "c": "yes", "d": {"x": 1}}


def test_yaml_1_2_readings_that_agree_with_pyyaml_are_accepted():
    doc = load("""\
        a: true
        b: False
        c: ~
        d: -12
        e: 0x1F
        f: .inf
        g: 2.5e+3
        h: "NO"
        i: 'yes'
        j: 2024-05-01
        k: =
        """)
    assert doc.diagnostics == []
    assert doc.data == {"a": True, "b": False, "c": None, "d": -12, "e": 31, "f": float("inf"),
                        "g": 2500.0, "h": "NO", "i": "yes", "j": "2024-05-01", "k": "="}


def test_byte_order_mark_is_not_a_column(tmp_path):
    path = tmp_path / "bom.yaml"
    path.write_bytes("\ufeffa: yes\n".encode("utf-8"))
    doc = load_yaml_file(path)
    at(only(doc, "E0104"), 1, 4)
    assert doc.file == str(path)


def test_display_name_is_used_in_spans(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text("a: 1\n", encoding="utf-8")
    doc = load_yaml_file(path, display="shown.yaml")
    assert doc.data == {"a": 1}
    assert doc.spans[("a",)].file == "shown.yaml"


# --- E0101 syntax ---------------------------------------------------------------------


def test_e0101_mapping_value_not_allowed_hints_quotes():
    d = only(load("title: Targui: the game\n"), "E0101")
    at(d, 1, 14)
    assert "quotes" in d.hint


def test_e0101_tab_indentation_hints_spaces():
    d = only(load_yaml_text("a:\n\tb: 1\n", "r.yaml"), "E0101")
    at(d, 2, 1)
    assert "tab" in d.hint


def test_e0101_unclosed_quote():
    d = only(load("a: 'open\nb: 2\n"), "E0101")
    at(d, 3, 1)  # the end of the text, where the closing quote was still missing
    assert "line 1, column 4" in d.message
    assert "quote" in d.hint


def test_e0101_bad_indentation():
    d = only(load("a:\n    b: 1\n  c: 2\n"), "E0101")
    at(d, 3, 3)


def test_e0101_forbidden_control_character():
    d = only(load_yaml_text("a: 1\nb: x\x07y\n", "r.yaml"), "E0101")
    at(d, 2, 5)
    assert "U+0007" in d.message


def test_problems_before_a_syntax_error_are_still_reported():
    doc = load("a: on\na: 2\nb: [\n")
    assert [(d.code, d.span.line, d.span.column) for d in doc.diagnostics] == [
        ("E0104", 1, 4), ("E0103", 2, 1), ("E0101", 4, 1)]


# --- E0102 anchors and aliases ----------------------------------------------------------


def test_e0102_anchor_and_alias_each_reported_where_written():
    doc = load("""\
        base: &camels
          box: 450
        copy: *camels
        """)
    assert [d.code for d in doc.diagnostics] == ["E0102", "E0102"]
    anchor, alias = doc.diagnostics
    assert anchor.span == Span("r.yaml", 1, 7, 1, 14)
    assert "&camels" in anchor.message
    assert alias.span == Span("r.yaml", 3, 7, 3, 14)
    assert "*camels" in alias.message
    assert doc.data is None


def test_e0102_anchor_after_a_tag_points_at_the_anchor():
    d = only(load("a: !!str &name text\n"), "E0102")
    assert d.span == Span("r.yaml", 1, 10, 1, 15)


def billion_laughs(levels: int = 9, fan: int = 9) -> str:
    lines = ["l0: &l0 [" + ", ".join(["lol"] * fan) + "]"]
    for n in range(1, levels):
        lines.append(f"l{n}: &l{n} [" + ", ".join([f"*l{n - 1}"] * fan) + "]")
    return "\n".join(lines) + "\n"


def test_e0102_alias_bomb_is_refused_without_expanding_anything():
    doc = load_yaml_text(billion_laughs(), "bomb.yaml")
    assert doc.data is None
    assert doc.diagnostics and {d.code for d in doc.diagnostics} == {"E0102"}
    # Only what is written has a position: 9 lists of 9 items, 9 keys and the root.
    assert len(doc.spans) <= 9 * 9 + 9 + 1
    assert doc.diagnostics[0].span == Span("bomb.yaml", 1, 5, 1, 8)
    assert doc.diagnostics[1].span == Span("bomb.yaml", 2, 5, 2, 8)  # &l1
    assert doc.diagnostics[2].span == Span("bomb.yaml", 2, 10, 2, 13)  # its first *l0


# --- E0103 duplicate keys ------------------------------------------------------------------


def test_e0103_duplicate_key_points_at_the_second_and_names_the_first_line():
    d = only(load("""\
        tribes:
          kel_ahaggar: {name: A}
          kel_ajjer: {name: B}
          kel_ahaggar: {name: C}
        """), "E0103")
    at(d, 4, 3)
    assert "`kel_ahaggar`" in d.message
    assert "line 2" in d.hint


def test_e0103_duplicate_in_a_flow_mapping():
    at(only(load("a: {x: 1, y2: 2, x: 3}\n"), "E0103"), 1, 18)


def test_same_key_in_different_mappings_is_fine():
    assert load("a: {x: 1}\nb: {x: 2}\n").data == {"a": {"x": 1}, "b": {"x": 2}}


# --- E0104 YAML 1.1 surprises -----------------------------------------------------------------


@pytest.mark.parametrize("word, meant", [("NO", "false"), ("yes", "true"), ("On", "true"), ("off", "false"),
                                         ("y", "true"), ("N", "false"), ("yEs", "true")])
def test_e0104_yaml_1_1_boolean_words(word, meant):
    d = only(load(f"country: {word}\n"), "E0104")
    assert d.span == Span("r.yaml", 1, 10, 1, 10 + len(word))
    assert f'"{word}"' in d.hint and f"`{meant}`" in d.hint


def test_e0104_boolean_word_as_a_key():
    at(only(load("rules:\n  on: 1\n"), "E0104"), 2, 3)


@pytest.mark.parametrize("value, needle", [("1:30", "90"), ("017", "15"), ("0o17", "15"), ("1e3", "1000.0"),
                                           ("1_000", "1000"), ("0b101", "5")])
def test_e0104_numbers_yaml_1_1_and_1_2_read_differently(value, needle):
    d = only(load(f"turns:\n  - {value}\n"), "E0104")
    at(d, 2, 5)
    assert needle in d.message


# --- E0105 non-string keys ---------------------------------------------------------------------


def test_e0105_number_key_hints_quotes():
    d = only(load("positions:\n  1: erg\n"), "E0105")
    at(d, 2, 3)
    assert '"1"' in d.hint


def test_e0105_null_key():
    at(only(load("a: 1\nnull: 2\n"), "E0105"), 2, 1)


def test_e0105_empty_key():
    d = only(load("a:\n  ?\n  : 2\n"), "E0105")
    at(d, 2, 4)
    assert "empty" in d.message


def test_e0105_list_as_key():
    d = only(load("? [a, b]\n: 1\n"), "E0105")
    at(d, 1, 3)
    assert "list" in d.message


# --- E0106 size, E0107 depth ---------------------------------------------------------------------


def test_e0106_text_over_one_mebibyte():
    text = "a: '" + "x" * MAX_BYTES + "'\n"
    at(only(load_yaml_text(text, "big.yaml"), "E0106"), 1, 1)


def test_e0106_file_over_one_mebibyte(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_bytes(b"# " + b"x" * MAX_BYTES + b"\n")
    at(only(load_yaml_file(path), "E0106"), 1, 1)


def test_exactly_one_mebibyte_is_accepted():
    text = "a: 1\n#" + "x" * (MAX_BYTES - 7) + "\n"
    assert len(text.encode()) == MAX_BYTES
    assert load_yaml_text(text, "r.yaml").data == {"a": 1}


def test_e0107_nesting_deeper_than_32():
    # the root mapping is level 1; `a:` holds 31 lists (level 32), one more is too deep
    ok = "a: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "\n"
    assert load_yaml_text(ok, "r.yaml").diagnostics == []
    deep = "a: " + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "\n"
    at(only(load_yaml_text(deep, "r.yaml"), "E0107"), 1, 3 + MAX_DEPTH)


def test_e0107_loading_stops_at_the_first_too_deep_collection():
    # PyYAML's scanner is quadratic in flow depth: this must not be read to its end
    deep = "a: " + "[" * 100_000 + "]" * 100_000 + "\n"  # 200 KB, under the size cap
    d = only(load_yaml_text(deep, "r.yaml"), "E0107")
    at(d, 1, 3 + MAX_DEPTH)


# --- E0108 unreadable, E0109 encoding ---------------------------------------------------------


def test_e0108_missing_file(tmp_path):
    d = only(load_yaml_file(tmp_path / "nope.yaml", display="nope.yaml"), "E0108")
    assert d.span == Span("nope.yaml", 1, 1)
    assert "nope.yaml" in d.message


def test_e0108_directory(tmp_path):
    only(load_yaml_file(tmp_path), "E0108")


def test_e0109_not_utf8_points_at_the_bad_byte(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes("id: x\ntitle: Café\n".encode("latin-1"))
    doc = load_yaml_file(path, display="latin1.yaml")
    d = only(doc, "E0109")
    at(d, 2, 11)
    assert "0xe9" in d.message
    assert doc.text.startswith("id: x\n")  # kept (with a replacement character) so it can be quoted


# --- E0110 top level -----------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n", "---\n", "~\n"])
def test_e0110_empty_document(text):
    d = only(load_yaml_text(text, "r.yaml"), "E0110")
    at(d, 1, 1)
    assert "empty" in d.message


@pytest.mark.parametrize("text, found", [("- a\n- b\n", "a list"), ("\n  just text\n", "text"), ("42\n", "42")])
def test_e0110_top_level_not_a_mapping(text, found):
    d = only(load_yaml_text(text, "r.yaml"), "E0110")
    assert found in d.message
    assert d.span.line == (2 if text.startswith("\n") else 1)


def test_e0110_second_document():
    at(only(load("a: 1\n---\nb: 2\n"), "E0110"), 2, 1)


# --- E0111 tags ------------------------------------------------------------------------------------


def test_e0111_python_tag_is_refused_and_never_constructed():
    d = only(load("run: !!python/object/apply:os.system ['echo hi']\n"), "E0111")
    assert d.span == Span("r.yaml", 1, 6, 1, 37)
    assert "!!python/object/apply:os.system" in d.message


@pytest.mark.parametrize("text, column", [("a: !camel 3\n", 4), ("a: !!binary aGk=\n", 4),
                                          ("a: !!set {x}\n", 4), ("a: !!int x\n", 4), ("a: !!seq {x: 1}\n", 4)])
def test_e0111_other_tags(text, column):
    at(only(load(text), "E0111"), 1, column)


# --- several problems in one run ---------------------------------------------------------------------


def test_every_problem_in_a_file_is_reported_in_order():
    doc = load("""\
        a: &x 1
        b: NO
        1: c
        a: 2
        d: !foo e
        """)
    assert [(d.code, d.span.line) for d in doc.diagnostics] == [
        ("E0102", 1), ("E0104", 2), ("E0105", 3), ("E0103", 4), ("E0111", 5)]
    assert doc.data is None


# --- locate ---------------------------------------------------------------------------------------------


def char_at(doc, span: Span) -> str:
    line = doc.text.splitlines()[span.line - 1]
    return line[span.column - 1] if span.column <= len(line) else "<eol>"


def assert_exact(doc, path):
    """Every character of the string at ``path`` is located on that same character in the file."""
    value = doc.data
    for key in path:
        value = value[key]
    for offset, char in enumerate(value):
        span = doc.locate(path, offset)
        assert span.file == doc.file and span.end_line == span.line and span.end_column == span.column + 1
        if char in " \n":  # a folded line break: at the end of the line it replaces
            assert char_at(doc, span) in (" ", "<eol>"), (offset, span)
        else:
            assert char_at(doc, span) == char, (offset, char, span)
    return value


def test_locate_plain_single_line():
    doc = load("cards:\n  c1:\n    effect: each player gains 2 cash\n")
    assert_exact(doc, ("cards", "c1", "effect"))
    assert doc.locate(("cards", "c1", "effect"), 5) == Span("r.yaml", 3, 18, 3, 19)


def test_locate_plain_multi_line_with_folding_and_a_blank_line():
    doc = load("""\
        effect: for t in territories
            where t.kind == erg
              t.camels -= 2

          done
        """)
    value = assert_exact(doc, ("effect",))
    assert value == "for t in territories where t.kind == erg t.camels -= 2\ndone"
    assert doc.locate(("effect",), value.index("where")) == Span("r.yaml", 2, 5, 2, 6)
    assert doc.locate(("effect",), value.index("t.camels")) == Span("r.yaml", 3, 7, 3, 8)
    assert doc.locate(("effect",), value.index("done")) == Span("r.yaml", 5, 3, 5, 4)


def test_locate_single_quoted_with_doubled_quote():
    doc = load("a: 'it''s 5'\n")
    value = assert_exact(doc, ("a",))
    assert value == "it's 5"
    assert doc.locate(("a",), 5) == Span("r.yaml", 1, 11, 1, 12)


def test_locate_double_quoted_without_escapes():
    doc = load('list: [x, "gain 3"]\n')
    assert_exact(doc, ("list", 1))
    assert doc.locate(("list", 1), 0) == Span("r.yaml", 1, 12, 1, 13)


def test_locate_multi_line_quoted():
    doc = load("a: 'one\n   two'\n")
    assert assert_exact(doc, ("a",)) == "one two"
    assert doc.locate(("a",), 4) == Span("r.yaml", 2, 4, 2, 5)


def test_locate_literal_block():
    doc = load("""\
        cards:
          c13:
            effect: |
              kind gueltas.strategic = 5

              for p in players:
                p.cash += 1
          other: 1
        """)
    path = ("cards", "c13", "effect")
    value = assert_exact(doc, path)
    # content line k is on the header's line + 1 + k, at the block's indentation + column
    assert doc.locate(path, 0) == Span("r.yaml", 4, 7, 4, 8)
    assert doc.locate(path, value.index("p.cash")) == Span("r.yaml", 7, 9, 7, 10)
    assert doc.locate(path, value.index("players")) == Span("r.yaml", 6, 16, 6, 17)


def test_locate_literal_block_with_indentation_indicator_and_strip_chomping():
    doc = load("a: |2-\n    deep\n  x\n")
    assert assert_exact(doc, ("a",)) == "  deep\nx"
    assert doc.locate(("a",), 2) == Span("r.yaml", 2, 5, 2, 6)
    assert doc.locate(("a",), 7) == Span("r.yaml", 3, 3, 3, 4)


def test_locate_with_windows_line_endings():
    doc = load_yaml_text("a: |\r\n  one\r\n  two\r\nb: x\r\n", "r.yaml")
    assert doc.data == {"a": "one\ntwo\n", "b": "x"}
    assert doc.locate(("a",), 4) == Span("r.yaml", 3, 3, 3, 4)


def test_locate_tagged_plain_scalar():
    doc = load("a: !!str gain 2\n")
    assert doc.locate(("a",), 0) == Span("r.yaml", 1, 10, 1, 11)


def test_locate_end_of_string_and_offsets_out_of_range():
    doc = load("a: abc\n")
    assert doc.locate(("a",), 3) == Span("r.yaml", 1, 7, 1, 8)  # just past the last character
    assert doc.locate(("a",), 99) == Span("r.yaml", 1, 7, 1, 8)
    assert doc.locate(("a",), -4) == Span("r.yaml", 1, 4, 1, 5)


@pytest.mark.parametrize("text", ['a: "esc\\tape"\n', "a: >\n  folded\n  text\n"])
def test_locate_falls_back_to_the_value_start(text):
    doc = load(text)
    for offset in (0, 3, 6):
        assert doc.locate(("a",), offset) == Span("r.yaml", 1, 4, 1, 5)


def test_locate_non_string_and_unknown_paths():
    doc = load("a:\n  b: 7\n")
    assert doc.locate(("a", "b"), 0) == Span("r.yaml", 2, 6, 2, 7)
    assert doc.locate(("a", "missing"), 2) == Span("r.yaml", 2, 3, 2, 4)  # the nearest enclosing value


def test_a_plain_scalar_yaml_1_2_reads_as_anything_but_text_starts_as_the_shortcut_expects():
    # The 1.1/1.2 check skips YAML 1.2's patterns for a word that starts otherwise (E0104 is
    # unchanged): every short text made of the characters those patterns use is tried.
    import itertools

    from targui_dsl.frontend.yamlload import _YAML12_NOT_TEXT, _yaml12_value

    alphabet = "-+.0123456789nNtTfF~aAoOxXeEiIuUlLrRsS_ "
    typed = 0
    for size in range(4):
        for letters in itertools.product(alphabet, repeat=size):
            text = "".join(letters)
            value = _yaml12_value(text)
            if not (type(value) is str and value == text):
                assert text[:1] in _YAML12_NOT_TEXT, text
                typed += 1
    for text in ("null", "NULL", "True", "FALSE", ".inf", "-.Inf", ".NaN", "0x1F", "0o17", "1e5", "+12"):
        assert not isinstance(_yaml12_value(text), str) and text[:1] in _YAML12_NOT_TEXT
    assert typed > 1000


def test_yaml_1_1_surprises_are_still_reported_after_the_shortcut():
    doc = load_yaml_text("a: yes\nb: on\nc: 0x1F\nd: word\ne: 1_000\nf: .5\ng: True\nh: null\n", "f.yaml")
    assert sorted(d.span.line for d in doc.diagnostics if d.code == "E0104") == [1, 2, 5]
