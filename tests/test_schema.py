"""The ruleset JSON Schema and the schema stage (E03xx), with exact positions."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from targui_dsl.frontend.diagnostics import Diagnostic
from targui_dsl.frontend.paths import dotted
from targui_dsl.frontend.resolve import resolve
from targui_dsl.frontend.resources import ruleset_schema_path, rulesets_dir
from targui_dsl.frontend.schema import complete_schema, load_schema, validate_schema
from targui_dsl.frontend.yamlload import load_yaml_file, load_yaml_text
from targui_dsl.games import GAMES, game_package
from targui_dsl.games.targui.names import FORMULAS, HOOK_MEANINGS, HOOK_MOMENTS

BUILTINS = sorted(rulesets_dir().glob("*.yaml"))
EXAMPLES = sorted((rulesets_dir() / "examples").glob("*.yaml"))


def house_rule(tmp_path: Path, text: str, name: str = "house.yaml") -> list[Diagnostic]:
    """Schema diagnostics of a house rule written to a file, merged over its parent."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    resolved = resolve(str(path))
    assert resolved.diagnostics == [], resolved.diagnostics
    complete = resolved.data.get("abstract") is not True
    return validate_schema(resolved.data, resolved.spans, resolved.key_spans, complete=complete)


def single(text: str, complete: bool = False) -> list[Diagnostic]:
    doc = load_yaml_text(text, "one.yaml")
    assert doc.diagnostics == [], doc.diagnostics
    return validate_schema(doc.data, doc.spans, doc.key_spans, complete=complete)


def where(diagnostics: list[Diagnostic]) -> list[tuple]:
    return [(d.code, d.span.line, d.span.column) for d in diagnostics]


# --- the schema itself ----------------------------------------------------------------


def test_schema_is_valid_draft_2020_12_with_an_id():
    schema = json.loads(ruleset_schema_path().read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    Draft202012Validator.check_schema(complete_schema(schema))
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"]
    assert load_schema() == schema


def _walk(node, path=()):
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from _walk(value, path + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _walk(value, path + (i,))


def test_schema_has_no_required_of_its_own_and_lists_settings_under_x_targui_required():
    schema = load_schema()
    for path, node in _walk(schema):
        if "required" in node:
            assert path and path[-1] == "if", path  # only as the condition of an if
    assert "deck" in schema["x-targui-required"] and "rounds" in schema["x-targui-required"]
    rounds = schema["properties"]["rounds"]
    assert set(rounds["x-targui-required"]) == set(rounds["properties"])


def test_every_subschema_has_a_title_and_description_and_fixed_objects_refuse_extra_keys():
    checked = 0
    for path, node in _walk(load_schema()):
        if any(part in ("if", "then") for part in path):
            continue  # the conditional settings of a seating rule
        if "type" in node:
            assert node.get("title") and node.get("description"), path
            checked += 1
        if "properties" in node:
            assert node.get("additionalProperties") is False, path
    assert checked > 60


def test_schemas_are_derived_once():
    from targui_dsl.frontend import schema as module

    name = game_package().schema
    assert module._schema(name, True) is module._schema(name, True)
    assert module._schema(name, False) is module._schema(name, False)


@pytest.mark.parametrize("path", BUILTINS + EXAMPLES, ids=lambda p: p.name)
def test_every_file_alone_is_a_valid_partial_ruleset(path: Path):
    doc = load_yaml_file(path)
    game = resolve(str(path)).data.get("game", "targui")  # a house rule's game is its parent's
    schema = game_package(game).schema
    assert validate_schema(doc.data, doc.spans, doc.key_spans, complete=False, schema=schema) == []


@pytest.mark.parametrize("ref", ["original-dutch", "swedish-12", "updated-treasury", "targi"]
                         + [str(p) for p in EXAMPLES])
def test_every_playable_ruleset_is_complete(ref: str):
    resolved = resolve(ref)
    assert resolved.diagnostics == []
    schema = game_package(resolved.data.get("game", "targui")).schema
    assert validate_schema(resolved.data, resolved.spans, resolved.key_spans, complete=True, schema=schema) == []


def test_a_variant_file_alone_is_partial_not_complete():
    doc = load_yaml_file(rulesets_dir() / "swedish-12.yaml")
    assert validate_schema(doc.data, doc.spans, doc.key_spans, complete=False) == []
    missing = validate_schema(doc.data, doc.spans, doc.key_spans, complete=True)
    assert {d.code for d in missing} == {"E0303"}
    messages = " ".join(d.message for d in missing)
    drought = "card `drought` is not one already defined"
    for setting in ("`territories`", "`board`", "`combat`", "`setup.camels`", "`rounds.die`", drought):
        assert setting in messages


def test_null_deletes_in_an_overlay_but_is_refused_in_a_complete_ruleset():
    assert single("cards:\n  drought: null\nrounds:\n  die: null\n") == []
    found = single("id: x\nrounds:\n  die: null\n", complete=True)
    assert ("E0301", 3, 8) in where(found)


def test_dotted_paths():
    assert dotted(("seating", 1, "positions")) == "seating[1].positions"
    assert dotted(("rounds", "double_turn_from")) == "rounds.double_turn_from"
    assert dotted(()) == ""


# --- E03xx, each at its exact place --------------------------------------------------------


def test_E0301_wrong_type_points_at_the_value(tmp_path):
    found = house_rule(tmp_path, "extends: original-dutch\nsetup:\n  tribal_cards: ten\n")
    assert where(found) == [("E0301", 3, 17)]
    assert found[0].message == "`setup.tribal_cards` must be a whole number, not the text `ten`"
    assert "'" not in found[0].message  # plain words, no Python repr
    assert found[0].span.end_column == 20


def test_E0301_wrong_type_for_a_mapping_and_a_boolean(tmp_path):
    found = house_rule(tmp_path, "extends: swedish-12\nturn:\n  treasury: maybe\ntribes: [kel_ress]\n")
    assert where(found) == [("E0301", 3, 13), ("E0301", 4, 9)]
    assert "true or false" in found[0].message and found[0].hint == "write `true` or `false`"
    assert "`tribes` must be a mapping" in found[1].message


def test_E0302_unknown_key_points_at_the_key_with_a_hint(tmp_path):
    found = house_rule(tmp_path, "extends: original-dutch\nrounds:\n  double_turn_form: 5\n")
    assert where(found) == [("E0302", 3, 3)]
    assert found[0].message == "unknown key `double_turn_form` in `rounds`"
    assert found[0].hint == "did you mean `double_turn_from`?"


def test_E0302_unknown_keys_everywhere_all_reported(tmp_path):
    found = house_rule(
        tmp_path,
        "extends: original-dutch\n"
        "deckk: []\n"
        "territories:\n"
        "  guelta:\n"
        "    strategc: 4\n"
        "cards:\n"
        "  drought:\n"
        "    efect: for t in territories { t.camels -= 1 }\n",
    )
    assert where(found) == [("E0302", 2, 1), ("E0302", 5, 5), ("E0302", 8, 5)]
    assert [d.hint for d in found] == ["did you mean `deck`?", "did you mean `strategic`?", "did you mean `effect`?"]
    assert found[0].message == "unknown key `deckk` at the top level"


def test_E0303_missing_setting_points_at_the_enclosing_key(tmp_path):
    found = house_rule(tmp_path, "extends: updated-treasury\nid: no-fortune\nrounds:\n  fortune_cards: null\n")
    assert where(found) == [("E0303", 3, 1)]
    assert found[0].message == "missing setting `rounds.fortune_cards`: a complete ruleset must set it"


def test_E0303_new_entry_missing_its_settings(tmp_path):
    found = house_rule(tmp_path, "extends: original-dutch\ncards:\n  oasis_feast:\n    title: Feast\n")
    assert where(found) == [("E0303", 3, 3)]
    assert found[0].message == (
        "card `oasis_feast` is not one already defined, and a new card needs `number` and `effect`"
    )


def test_E0303_seating_by_positions_needs_positions(tmp_path):
    found = house_rule(tmp_path, "extends: original-dutch\nseating:\n  - players: [3]\n    settle_in: positions\n")
    assert where(found) == [("E0303", 3, 5)]
    assert "`seating[0].positions`" in found[0].message


def test_E0303_top_level_missing_in_an_incomplete_chain(tmp_path):
    # A file that extends nothing and is not abstract must be complete by itself.
    found = house_rule(tmp_path, "id: lonely\ntitle: Lonely\n")
    assert {d.code for d in found} == {"E0303"}
    assert all((d.span.line, d.span.column) == (1, 1) for d in found)
    assert any("`deck`" in d.message for d in found)


def test_E0304_value_not_allowed_enum_with_hint(tmp_path):
    found = house_rule(tmp_path, "extends: original-dutch\nboard:\n  adjacency: diagonl\n")
    assert where(found) == [("E0304", 3, 14)]
    assert found[0].message == "`board.adjacency` must be one of `diagonal`, `orthogonal`, not the text `diagonl`"
    assert found[0].hint == "did you mean `diagonal`?"


def test_E0304_minimum_and_pattern(tmp_path):
    found = house_rule(tmp_path, "extends: original-dutch\nid: My Rule\nrounds:\n  die: 1\n")
    assert where(found) == [("E0304", 2, 5), ("E0304", 4, 8)]
    assert found[1].message == "`rounds.die` must be at least 2, not 1"
    assert found[0].hint == "write `my-rule`"


def test_E0304_bad_id_as_a_key_points_at_the_key(tmp_path):
    found = house_rule(
        tmp_path,
        "extends: original-dutch\nterritories:\n  Oasis-Grande:\n    name: Big oasis\n    economic: 6\n"
        "    strategic: 3\n    count: 0\n",
    )
    assert where(found) == [("E0304", 3, 3)]
    assert "`Oasis-Grande` in `territories` is not a valid id" in found[0].message
    assert found[0].hint == "write `oasis_grande`"


def test_E0304_repeated_player_count_points_at_the_repeat(tmp_path):
    found = house_rule(tmp_path, "extends: original-dutch\nseating:\n  - players: [2, 4, 2]\n    settle_in: sectors\n")
    assert where(found) == [("E0304", 3, 21)]
    assert found[0].message == "`seating[0].players` lists the number 2 more than once"


def test_every_problem_is_reported_in_file_order(tmp_path):
    found = house_rule(
        tmp_path,
        "extends: original-dutch\n"
        "camels:\n"
        "  box: -5\n"
        "  prise: 1\n"
        "rounds:\n"
        "  die: 6.5\n"
        "tribes:\n"
        "  kel_ress:\n"
        "    colour: purple\n",
    )
    assert where(found) == [("E0304", 3, 8), ("E0302", 4, 3), ("E0301", 6, 8), ("E0304", 9, 13)]


def test_schema_stage_never_raises_on_odd_documents():
    for data in (None, [], "text", 5, {"territories": {"x": 5}}, {"board": {"numbering": [[1, "a"], None]}}):
        for complete in (False, True):
            found = validate_schema(data, {}, {}, complete=complete)
            assert all(isinstance(d, Diagnostic) for d in found) and found


def test_the_schema_names_exactly_the_games_of_the_registry():
    assert load_schema()["properties"]["game"]["enum"] == sorted(GAMES)


def _doc_table_moments(name: str, header: str, prefix: str) -> list[str]:
    """The first column of the docs table under ``header``, without ``prefix``."""
    lines = (Path(__file__).parent.parent / "docs" / name).read_text(encoding="utf-8").splitlines()
    start = lines.index(header) + 2  # the header and its |---| line
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        rows.append(re.match(r"\| `" + re.escape(prefix) + r"([a-z_]+)` \|", line).group(1))
    return rows


def test_the_hook_moments_are_written_in_one_home_and_copied_in_its_order():
    # games/targui/names.HOOK_MOMENTS is the home; the schema (JSON) and the two docs tables must copy it.
    moments = list(HOOK_MOMENTS)
    assert list(load_schema()["properties"]["hooks"]["properties"]) == moments
    assert _doc_table_moments("effect-language.md", "| moment | when | names besides the globals |", "") == moments
    assert _doc_table_moments("rulesets.md", "| key | when | names |", "hooks.") == moments


# --- the game's words come from its schema (x-targui-entry, x-targui-required-hints, x-targui-example-keys) ---


def _built(tmp_path: Path, text: str) -> list[Diagnostic]:
    from targui_dsl.frontend.build import build

    (tmp_path / "house.yaml").write_text("extends: original-dutch\nid: house\n" + text, encoding="utf-8")
    return build(str(tmp_path / "house.yaml")).diagnostics


def test_a_new_entry_lacking_a_setting_is_named_by_the_schemas_noun(tmp_path):
    (problem,) = _built(tmp_path, "tribes:\n  zulu:\n    name: Zulu\n")
    assert problem.code == "E0303"
    assert problem.message == "tribe `zulu` is not one already defined, and a new tribe needs `colour`"
    assert problem.hint == (
        "to change one, use its id; the tribes there are: `kel_ahaggar`, `kel_ajjer`, `kel_ilbakan`, `kel_ress`"
    )
    (typo,) = _built(tmp_path, "territories:\n  gueltaa:\n    name: Guelta\n")
    assert typo.message == (
        "territory kind `gueltaa` is not one already defined, and a new territory kind needs"
        " `economic`, `strategic` and `count`"
    )
    assert typo.hint == "did you mean `guelta`?"


def test_a_card_id_that_is_not_there_names_the_cards_there_are(tmp_path):
    """A house rule editing a card its parent does not have (a guessed id) is told the ids there
    are, in one diagnostic, not a missing `number` and a missing `title`."""
    problems = _built(tmp_path, "cards:\n  erg_losses:\n    effect: \"for t in territories { t.camels -= 1 }\"\n")
    (problem,) = problems
    assert (problem.code, problem.span.line, problem.span.column) == ("E0303", 4, 3)
    assert problem.message == "card `erg_losses` is not one already defined, and a new card needs `number` and `title`"
    assert problem.hint.startswith("to change one, use its id; the cards there are: `camel_plague`, ")
    assert "`sandstorm`" in problem.hint and "erg_losses" not in problem.hint


def test_the_ids_named_are_capped(tmp_path):
    many = "".join(f"  card_{i:03}:\n    number: {100 + i}\n    title: C{i}\n" for i in range(40))
    found = _built(tmp_path, "cards:\n" + many + "  zzz_new:\n    effect: \"\"\n")
    (problem,) = [d for d in found if d.code == "E0303" and "`zzz_new`" in d.message]
    assert problem.hint.endswith(" and 26 more")  # 16 cards of the parent and 40 here, 30 named
    assert problem.hint.count("`") == 2 * 30


def test_a_required_setting_has_the_schemas_own_hint(tmp_path):
    (problem,) = _built(tmp_path, "seating:\n  - players: [2, 3, 4]\n    settle_in: positions\n")
    assert problem.message == "missing setting `seating[0].positions`: a complete ruleset must set it"
    assert problem.hint == "with `settle_in: positions` give one list of allowed positions per seat"


def test_a_ruleset_that_is_not_a_mapping_is_told_the_schemas_example_keys():
    (problem,) = validate_schema(["a"], {}, {})
    assert problem.message == (
        "a ruleset file must be a mapping of keys to values (keys such as `id:` and `territories:`), not a list"
    )


def test_the_schema_describes_hooks_and_formulas_with_the_vocabularys_meanings():
    hooks = load_schema()["properties"]["hooks"]["properties"]
    assert list(HOOK_MEANINGS) == list(HOOK_MOMENTS)
    assert {moment: spec["description"] for moment, spec in hooks.items()} == dict(HOOK_MEANINGS)
    for formula in FORMULAS:
        node = load_schema()
        for key in formula.path:
            node = node["properties"][key]
        assert node["description"].startswith(formula.meaning), formula.path
