"""Each fact is written once: where two places must agree, one is made from the other,
or this file holds them together."""

from __future__ import annotations

import json
import re

import pytest

from targui_dsl.effects.names import KEYWORDS
from targui_dsl.frontend.resolve import resolve
from targui_dsl.frontend.resources import ruleset_schema_path
from targui_dsl.games.targui.check import check_meaning
from targui_dsl.games.targui.colours import ANSI_COLOURS, TRIBE_COLOURS
from targui_dsl.games.targui.names import VOCABULARY


def test_the_keywords_are_the_grammars_words():
    from importlib import resources

    text = resources.files("targui_dsl.effects").joinpath("grammar.lark").read_text(encoding="utf-8")
    words = set(re.findall(r'"([a-z_]+)"', text))
    assert words == set(KEYWORDS)


@pytest.mark.parametrize("word", sorted(VOCABULARY.reserved_names))
def test_every_reserved_name_is_refused_as_a_kind_id(word):
    data = dict(resolve("original-dutch").data)
    data["territories"] = {**data["territories"], word: dict(data["territories"]["erg"])}
    codes = [d.code for d in check_meaning(data) if word in d.message]
    assert "E0414" in codes


def test_a_formula_parameter_in_a_card_is_explained_from_the_one_table(tmp_path):
    from targui_dsl.frontend.build import build

    (tmp_path / "r.yaml").write_text("extends: original-dutch\nid: r\ntitle: R\n"
                                     "cards:\n  spring:\n    effect: 'for t in territories { t.camels += die }'\n",
                                     encoding="utf-8")
    hints = [d.hint for d in build(str(tmp_path / "r.yaml")).diagnostics]
    assert any("`die` exists only in the formulas `combat.defender_loses` and `combat.attacker_loses`" in (h or "")
               for h in hints), hints


def test_the_schema_allows_exactly_the_colours_there_is_a_way_to_draw():
    schema = json.loads(ruleset_schema_path().read_text(encoding="utf-8"))
    enum = schema["$defs"]["tribe"]["properties"]["colour"]["enum"]
    assert sorted(enum) == sorted(TRIBE_COLOURS) == sorted(ANSI_COLOURS)


def test_the_board_and_the_terminal_paint_from_the_one_table():
    from targui_dsl.games.targui.svg import tribe_colour
    from targui_dsl.games.targui.terminal import Style

    for name, colour in TRIBE_COLOURS.items():
        assert tribe_colour(name) == colour.svg
        assert Style(True).paint("x", name) == f"\x1b[{colour.ansi}mx\x1b[0m"


@pytest.mark.parametrize("environ,mode,tty,expected", [
    ({}, "auto", True, True), ({}, "auto", False, False), ({"NO_COLOR": "1"}, "auto", True, False),
    ({"TERM": "dumb"}, "auto", True, False), ({"NO_COLOR": "1"}, "always", False, True), ({}, "never", True, False),
    ({"NO_COLOR": ""}, "auto", True, True),
])
def test_one_colour_policy_for_every_command(environ, mode, tty, expected, monkeypatch):
    from targui_cli import common

    class Stream:
        def isatty(self) -> bool:
            return tty

    assert common.want_colour(mode, Stream(), environ) is expected
    for name in ("NO_COLOR", "TERM"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    if mode == "auto":
        assert common.use_colour(Stream()) is expected


KIND_IDS = ("settlement", "salt_mine", "guelta", "reg", "erg", "fesh_fesh", "mountain", "chott")


def test_kind_labels_have_one_home():
    from targui_dsl.games.targui import labels, terminal
    from targui_dsl.games.targui.render import kind_abbreviations

    assert terminal.kind_labels is labels.kind_labels
    assert labels.kind_labels(KIND_IDS) == ["Set", "Sal", "Gue", "Reg", "Erg", "Fes", "Mou", "Cho"]
    # str(state) draws two letters with the same maker
    assert kind_abbreviations(KIND_IDS) == ["se", "sa", "gu", "re", "er", "fe", "mo", "ch"]
    assert kind_abbreviations(("salt", "sand", "sa")) == ["sa", "sn", "s2"]  # unique on a clash
    assert labels.short_name("Guelta (oasis)") == "Guelta"


def test_one_format_value_for_values_as_an_author_writes_them():
    from targui_cli import compare, diff
    from targui_dsl.frontend import paths, schema

    assert diff.format_value is schema.format_value is paths.format_value
    assert not hasattr(compare, "format_value")  # a comparison's figures have their own name: format_figure


def test_the_resolved_data_of_a_compiled_ruleset_is_read_only_all_the_way_down():
    from targui_dsl import load_ruleset

    rs = load_ruleset("original-dutch")
    with pytest.raises(TypeError):
        rs.resolved["setup"]["cash"] = 99
    with pytest.raises(TypeError):
        rs.resolved["territories"]["erg"]["economic"] = 9
    with pytest.raises(AttributeError):
        rs.resolved["deck"].append("spring")
    assert load_ruleset("original-dutch").resolved["setup"]["cash"] == rs.resolved["setup"]["cash"]


def test_the_complete_schema_is_applied_to_merged_playable_rulesets_only(tmp_path):
    from targui_dsl.frontend.build import build

    (tmp_path / "r.yaml").write_text("extends: original-dutch\nid: r\ntitle: R\nlevy: null\n", encoding="utf-8")
    assert "E0303" in [d.code for d in build(str(tmp_path / "r.yaml")).diagnostics]
    (tmp_path / "b.yaml").write_text("extends: base\nabstract: true\nid: b\ntitle: B\nlevy: null\n", encoding="utf-8")
    assert "E0303" not in [d.code for d in build(str(tmp_path / "b.yaml")).diagnostics]
    import targui_dsl.frontend.schema as schema_module

    assert not hasattr(schema_module, "check_schema_complete")  # docs/internals.md names validate_schema


def test_targui_rulesets_reads_files_with_the_project_loader(monkeypatch):
    import yaml
    from click.testing import CliRunner

    from targui_cli.main import cli

    def refuse(*args, **kwargs):
        raise AssertionError("yaml.safe_load used instead of targui_dsl.frontend.yamlload")

    monkeypatch.setattr(yaml, "safe_load", refuse)
    result = CliRunner().invoke(cli, ["rulesets"], catch_exceptions=False)
    assert result.exit_code == 0 and "original-dutch" in result.stdout
