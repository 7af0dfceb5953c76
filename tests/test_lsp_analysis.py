"""What `targui lsp` tells, without the protocol: positions as the protocol counts them, where a
snippet is, what a hover says and what completion offers, for every name of the vocabulary."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from targui_dsl.effects import compile_effect
from targui_dsl.effects.names import FUNCTIONS
from targui_dsl.frontend.build import build
from targui_dsl.frontend.diagnostics import Span
from targui_dsl.frontend.resources import builtin_ruleset_names, builtin_ruleset_path, example_ruleset_names
from targui_dsl.frontend.schema import load_schema
from targui_dsl.games import game_package
from targui_dsl.lsp import knowledge
from targui_dsl.lsp.analysis import analyse
from targui_dsl.lsp.outline import place_at
from targui_dsl.lsp.positions import Point, Text

HEAD = "extends: original-dutch\nid: t\ntitle: T\n"


def analysed(tmp_path: Path, text: str, name: str = "rule.yaml"):
    path = str(tmp_path / name)
    return analyse(path, {path: text})


def test_positions_count_utf16_units_and_only_the_protocols_line_breaks():
    # U+2028 breaks a line for YAML, not for the protocol; an emoji is two UTF-16 units
    text = Text("a: 1 # x\u2028y\nb: \U0001F42A gueltaa\n")
    offset = text.text.index("gueltaa")
    assert text.point(offset) == Point(1, 6)
    assert Text(text.text, "utf-32").point(offset) == Point(1, 5)
    assert text.offset(Point(1, 6)) == offset
    # the front end counts the U+2028 as a line: `gueltaa` is on its line 3
    assert text.offset_of_span(3, 6) == offset


def test_a_diagnostic_after_a_yaml_only_line_break_lands_on_its_word(tmp_path):
    text = (HEAD + 'description: "a text\u2028that YAML reads as two lines"\ncards:\n  drought:\n'
            "    effect: for t in territories where t.kind == gueltaa { t.camels = 0 }\n")
    (problem,) = analysed(tmp_path, text).problems()
    assert text[problem.start:problem.end] == "gueltaa"
    assert "did you mean `guelta`?" in problem.message


def test_unsaved_text_is_what_is_checked(tmp_path):
    (tmp_path / "rule.yaml").write_text(HEAD + "camels: {box: lots}\n", encoding="utf-8")
    assert not analysed(tmp_path, HEAD).problems()
    assert [p.diagnostic.code for p in analysed(tmp_path, HEAD + "camels: {box: lots}\n").problems()] == ["E0301"]


def test_a_parent_open_in_the_editor_is_read_unsaved(tmp_path):
    parent, child = str(tmp_path / "parent.yaml"), str(tmp_path / "child.yaml")
    (tmp_path / "parent.yaml").write_text(HEAD, encoding="utf-8")
    texts = {parent: HEAD + "camels: {box: lots}\n", child: "extends: parent.yaml\nid: c\ntitle: C\n"}
    (problem,) = analyse(child, texts).problems()
    assert problem.elsewhere is not None and problem.elsewhere.path == parent
    assert problem.message.startswith("in `parent.yaml` line 4: ")
    assert texts[child][problem.start:problem.end] == "parent.yaml"


@pytest.mark.parametrize("name", builtin_ruleset_names() + example_ruleset_names())
def test_every_snippet_the_game_compiles_is_where_the_schema_says_snippets_are(name):
    """The schema's words ("effect language") are how the server finds snippets: they must
    mark every path the game's own front end compiles, and no other text."""
    report = build(name)
    assert report.ok and report.resolved is not None
    package = game_package(report.game or "targui")
    schema = load_schema(package.schema)
    compiled = set(package.snippets(report.resolved, []))
    assert compiled
    strings = {path for path in report.resolved.spans if isinstance(_value(report.resolved.data, path), str)}
    found = {path for path in strings if knowledge.is_snippet(knowledge.schema_node(schema, path))}
    assert found == compiled


def _value(data, path):
    for key in path:
        data = data[key]
    return data


def test_the_vocabularys_id_sections_are_names_a_snippet_may_use():
    package = game_package("targui")
    report = build("original-dutch")
    entries = knowledge.entries(report.resolved.docs, load_schema(package.schema), package.vocabulary.id_sections)
    assert entries
    from targui_dsl.games.targui.names import environment

    data = report.resolved.data
    env = environment({k: i for i, k in enumerate(data["territories"])}, {k: i for i, k in enumerate(data["tribes"])})
    for name in entries:
        code, problems = compile_effect(f"let x = {name}", env, lambda offset: Span("x", 1, 1))
        assert code is not None, (name, problems)


def _ruleset_of_each_game() -> dict[str, str]:
    """A playable built-in ruleset of each game there is one for, by game."""
    found: dict[str, str] = {}
    for name in builtin_ruleset_names():
        report = build(name)
        if report.ok and not report.abstract and report.game is not None:
            found.setdefault(report.game, name)
    return found


@pytest.mark.parametrize("game,ruleset", sorted(_ruleset_of_each_game().items()))
def test_hover_tells_every_name_of_the_vocabulary_its_meaning(tmp_path, game, ruleset):
    package = game_package(game)
    vocabulary, schema = package.vocabulary, load_schema(package.schema)
    head = f"extends: {ruleset}\nid: t\ntitle: T\n"
    single = [f for f in vocabulary.formulas if not f.many and len(f.path) == 2]
    if single:  # a formula of the ruleset (Targui's `levy:`)
        formula = single[0]
        text = head + f"{formula.path[0]}:\n  {formula.path[1]}: NAME\n"
    else:  # a formula of each card of a list (Targi's `tribe_cards: - end:`)
        formula = next(f for f in vocabulary.formulas if len(f.path) == 2)
        text = head + f"{formula.path[0]}:\n  - {formula.path[1]}: NAME\n"
    for name, spec in vocabulary.globals.items():
        said = _hover(tmp_path, text.replace("NAME", name), name)
        assert said is not None and spec.meaning in said, name
    for name, meaning in FUNCTIONS.items():
        said = _hover(tmp_path, text.replace("NAME", f"{name}(1, 2)"), name)
        assert said is not None and meaning in said, name
    for fields in vocabulary.fields.values():
        for name, field in fields.items():
            said = _hover(tmp_path, text.replace("NAME", f"x.{name}"), name)
            assert said is not None and field.meaning in said, name
    for name in formula.params:
        said = _hover(tmp_path, text.replace("NAME", name), name)
        assert said is not None and formula.params[name].described in said, name
    for moment, meaning in vocabulary.hook_meanings.items():
        said = _hover(tmp_path, head + _yaml_down_to(schema, moment), moment)
        assert said is not None and meaning in said, moment


def _yaml_down_to(node: dict, key: str, depth: int = 0) -> str:
    """YAML that reaches ``key`` where the schema has it: at the top (Targui's `hooks:`) or inside
    the items of a list (a Targi card's `hooks:`), the shallowest place first."""
    pad = "  " * depth
    props = node.get("properties", {})
    if key in props:
        return f"{pad}{key}: []\n" if "items" in props[key] else f"{pad}{key}: x\n"
    for name, child in props.items():
        if not isinstance(child, dict):
            continue
        if key in child.get("properties", {}):
            return f"{pad}{name}:\n" + _yaml_down_to(child, key, depth + 1)
    for name, child in props.items():
        items = child.get("items") if isinstance(child, dict) else None
        if isinstance(items, dict) and (found := _yaml_down_to(items, key, depth + 2)):
            return f"{pad}{name}:\n{pad}  -\n" + found
    return ""


def _hover(tmp_path: Path, text: str, word: str) -> str | None:
    analysis = analysed(tmp_path, text)
    return analysis.hover(text.rindex(word) + 1)


def test_completion_offers_the_parameters_of_the_place_only(tmp_path):
    vocabulary = game_package("targui").vocabulary
    text = HEAD + "combat:\n  defender_loses: d\n  attacker_loses: d\nlevy: p\ncards:\n  drought:\n    effect: x\n"
    analysis = analysed(tmp_path, text)

    def labels(after: str) -> set[str]:
        return {offer.label for offer in analysis.offers(text.index(after) + len(after))}

    combat = next(f for f in vocabulary.formulas if f.path == ("combat", "defender_loses")).params
    assert set(combat) <= labels("defender_loses: d")
    levy = labels("levy: p")
    assert "player" in levy and not set(combat) & levy
    effect = labels("effect: x")
    assert not vocabulary.parameter_names & effect and set(vocabulary.globals) <= effect


def test_completion_of_keys_and_values_from_the_schema(tmp_path):
    text = HEAD + "board:\n  adjacency: d\n  \nseating:\n  - pl\n"
    analysis = analysed(tmp_path, text)
    values = {o.label for o in analysis.offers(text.index("adjacency: d") + 12)}
    assert values == {"diagonal", "orthogonal"}
    keys = {o.label for o in analysis.offers(text.index("  \nseating") + 2)}
    assert {"rows", "columns", "adjacency", "sectors"} <= keys
    assert "players" in {o.label for o in analysis.offers(text.index("- pl") + 4)}


def test_definition_of_a_kind_in_an_effect_is_where_the_chain_writes_it(tmp_path):
    text = HEAD + "cards:\n  drought:\n    effect: for t in territories where t.kind == erg { t.camels = 0 }\n"
    analysis = analysed(tmp_path, text)
    (spot,) = analysis.definitions(text.index("erg {") + 1)
    base = builtin_ruleset_path("base")
    assert base is not None and Path(spot.path) == base.resolve()
    assert spot.text.text[spot.start:spot.end] == "erg"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=" \t\n\r-:#|>[]{}'\"abc_.\u2028", max_size=200), st.integers(0, 220))
@example("\r\n", 1)  # between a line's \r and \n (found by hypothesis: an IndexError once)
@example("ab\r\ncd", 3)
def test_any_text_has_a_place(text, offset):
    place = place_at(Text(text), offset)
    assert isinstance(place.path, tuple) and 0 <= place.start <= place.end <= len(text)


@settings(max_examples=25, deadline=None)
@given(st.text(alphabet=" \n-:#|>[]{}abcde_.", max_size=80), st.integers(0, 90))
def test_any_text_answers_hover_completion_and_definition(tmp_path_factory, text, offset):
    folder = tmp_path_factory.mktemp("any")
    analysis = analysed(folder, text)
    analysis.problems()
    analysis.hover(offset)
    analysis.offers(offset)
    analysis.definitions(offset)
