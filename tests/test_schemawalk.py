"""The ruleset schemas' own checker (targui_dsl/frontend/schemawalk.py) finds exactly the problems
jsonschema finds (with integers that are whole numbers written as such), on every shipped ruleset
and on hundreds of broken copies of them: a wrong type, a value out of range, a bad id, an
unknown key, a repeated item, a missing setting, at every place a ruleset holds a value."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any, Iterator

import pytest
from jsonschema import Draft202012Validator, validators

from targui_dsl.frontend.resolve import resolve
from targui_dsl.frontend.resources import rulesets_dir
from targui_dsl.frontend.schema import complete_schema, load_schema
from targui_dsl.frontend.schemawalk import SchemaError, iter_problems
from targui_dsl.games import GAMES, front_end

FILES = sorted(rulesets_dir().glob("*.yaml")) + sorted((rulesets_dir() / "examples").glob("*.yaml"))

_Reference = validators.extend(
    Draft202012Validator,
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda checker, value: isinstance(value, int) and not isinstance(value, bool)),
)

#: What replaces a value in a broken copy: each breaks some keyword somewhere.
SUBSTITUTES: list[Any] = ["x", "Not An Id", "", 7.0, 2.5, -3, 0, 10_000, True, None, [], [1, 1], {}, {"Bad Key": 1}]


def _key(problem: Any) -> tuple:
    return (problem.validator, tuple(problem.absolute_path), "propertyNames" in problem.absolute_schema_path,
            repr(problem.instance), repr(problem.validator_value), problem.message if problem.validator in (
                "maxProperties", "false") else "")


def _ours(schema: dict, data: Any) -> list[tuple]:
    return sorted(_key(p) for p in iter_problems(schema, data))


_VALIDATORS: dict[int, Any] = {}


def _theirs(schema: dict, data: Any) -> list[tuple]:
    validator = _VALIDATORS.setdefault(id(schema), _Reference(schema))
    return sorted(_key(p) for p in validator.iter_errors(data))


def _places(data: Any, path: tuple = ()) -> Iterator[tuple]:
    yield path
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _places(value, path + (key,))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _places(value, path + (index,))


def _replaced(data: Any, path: tuple, value: Any) -> Any:
    broken = copy.deepcopy(data)
    node = broken
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    return broken


_SCHEMAS: dict[str, list[dict]] = {}


def _schemas(data: dict) -> list[dict]:
    name = front_end(data.get("game", "targui")).schema
    if name not in _SCHEMAS:  # kept: a validator is cached by its schema's identity
        _SCHEMAS[name] = [load_schema(name), complete_schema(load_schema(name))]
    return _SCHEMAS[name]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_shipped_file_and_its_merge_as_jsonschema_sees_them(path: Path):
    resolved = resolve(str(path))
    assert resolved.data is not None
    for schema in _schemas(resolved.data):
        assert _ours(schema, resolved.data) == _theirs(schema, resolved.data)


@pytest.mark.parametrize("name", ["original-dutch", "targi"])
def test_broken_copies_have_the_problems_jsonschema_finds(name: str):
    data = resolve(name).data
    assert isinstance(data, dict)
    found = set()
    compared = 0
    schemas = _schemas(data)
    places = list(_places(data))[1:]
    # 40 places spread over the file (jsonschema takes a while), under each schema in turn
    for number, place in enumerate(places[::max(1, len(places) // 40)]):
        schema = schemas[number % 2]
        for substitute in SUBSTITUTES:
            broken = _replaced(data, place, substitute)
            ours = _ours(schema, broken)
            assert ours == _theirs(schema, broken), (place, substitute)
            found.update(kind for kind, *_ in ours)
            compared += 1
    for key in list(data)[:6]:  # a missing setting (a complete ruleset must set most)
        broken = {k: v for k, v in data.items() if k != key}
        assert _ours(schemas[1], broken) == _theirs(schemas[1], broken), key
    assert compared > 400
    # the breakage reached the keywords the front end words (docs/diagnostics.md's E0301-E0304)
    assert {"type", "additionalProperties", "minimum", "pattern", "enum"} <= found


def test_every_game_schema_uses_only_keywords_the_checker_knows():
    for game in GAMES:
        schema = load_schema(front_end(game).schema)
        list(iter_problems(schema, {}))  # walks the top level; each keyword below is walked above
        list(iter_problems(complete_schema(schema), {}))


def test_a_keyword_the_checker_does_not_know_is_refused_not_skipped():
    with pytest.raises(SchemaError, match="multipleOf"):
        list(iter_problems({"type": "integer", "multipleOf": 2}, 3))
    with pytest.raises(SchemaError, match="patternProperties"):
        list(iter_problems({"patternProperties": {"^a": {}}, "additionalProperties": False}, {"b": 1}))


def test_a_reference_and_a_condition_are_followed():
    schema = {"$defs": {"n": {"type": "integer", "minimum": 1}},
              "properties": {"kind": {"enum": ["a", "b"]}, "n": {"$ref": "#/$defs/n"}},
              "if": {"properties": {"kind": {"const": "a"}}}, "then": {"required": ["n"]}}
    assert [p.validator for p in iter_problems(schema, {"kind": "a"})] == ["required"]
    assert list(iter_problems(schema, {"kind": "b"})) == []
    assert [p.validator for p in iter_problems(schema, {"kind": "b", "n": 0})] == ["minimum"]
    assert [p.validator for p in iter_problems(schema, {"kind": "b", "n": True})] == ["type"]
