"""The ruleset schemas' checker: every JSON Schema (2020-12) problem of a value, in a few hundred
microseconds and without importing jsonschema (whose import and validator construction were a
fifth of `targui validate`, issue 22).

It knows the keywords our schemas use, as JSON Schema defines them (``integer`` excludes 7.0
and ``true``; ``uniqueItems`` hashes, as :func:`~targui_dsl.frontend.schema.first_repeat`), and
refuses a schema with any other: a keyword it would skip cannot slip into ``schemas/``.
tests/test_schemawalk.py holds it to jsonschema's verdicts, problem by problem.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Callable, Iterator, Mapping

from targui_dsl.effects.records import Record

__all__ = ["Problem", "SchemaError", "iter_problems", "equal"]


class SchemaError(ValueError):
    """A schema uses a keyword this checker does not know (a bug in ``schemas/``, not in a ruleset)."""


class Problem(Record):
    """One place where the value breaks the schema, named as jsonschema's ValidationError names it."""

    validator: str  # the keyword: "type", "required", ...
    validator_value: Any  # the keyword's value in the schema
    instance: Any  # the value (a key, under propertyNames) that breaks it
    schema: Mapping[str, Any]  # the schema object holding the keyword
    absolute_path: tuple  # where the value is in the document
    absolute_schema_path: tuple  # where the keyword is in the schema
    message: str  # jsonschema's words, for the keywords the front end does not put in its own


# Words that only describe (or hold definitions for `$ref`): nothing to check.
_ANNOTATIONS = frozenset({"$schema", "$id", "$defs", "$comment", "title", "description", "default", "examples",
                          "then", "else"})  # then/else: read by `if`


def _frozen(value: Any) -> Any:
    """A hashable stand-in, equal exactly when JSON Schema calls two values equal (true is not 1)."""
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, (int, float)):
        return ("number", value)
    if isinstance(value, list):
        return ("list", tuple(_frozen(v) for v in value))
    if isinstance(value, dict):
        return ("map", frozenset((k, _frozen(v)) for k, v in value.items()))
    return (type(value).__name__, value)


def equal(a: Any, b: Any) -> bool:
    """JSON Schema's equality (``enum``, ``const``)."""
    return bool(_frozen(a) == _frozen(b))


def first_repeat(items: list) -> int | None:
    """The index of the first item equal to an earlier one, or None: one pass, with hashing."""
    seen: set = set()
    for index, item in enumerate(items):
        key = _frozen(item)
        if key in seen:
            return index
        seen.add(key)
    return None


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


_TYPES: dict[str, Callable[[Any], bool]] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    # A ruleset's whole numbers must be written as such (the engine counts with them): 7.0 is not one.
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": _is_number,
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


@lru_cache(maxsize=256)
def _pattern(text: str) -> re.Pattern[str]:
    return re.compile(text)


class _Walk:
    def __init__(self, root: Mapping[str, Any]) -> None:
        self.root = root

    def problems(self, schema: Any, instance: Any, path: tuple, spath: tuple) -> Iterator[Problem]:
        if schema is True:
            return
        if schema is False:
            yield Problem("false", False, instance, {}, path, spath, f"False schema does not allow {instance!r}")
            return
        for kind, value in schema.items():
            check = _KEYWORDS.get(kind)
            if check is not None:
                yield from check(self, value, instance, schema, path, spath + (kind,))
            elif kind not in _ANNOTATIONS and not kind.startswith("x-"):
                raise SchemaError(f"the schema keyword {kind!r} is not supported by targui's schema checker")

    def is_valid(self, schema: Any, instance: Any, path: tuple) -> bool:
        return next(self.problems(schema, instance, path, ()), None) is None

    def resolve(self, ref: str) -> Any:
        if not ref.startswith("#"):
            raise SchemaError(f"only references inside the schema are supported, not {ref!r}")
        node: Any = self.root
        for part in filter(None, ref[1:].split("/")):
            part = part.replace("~1", "/").replace("~0", "~")
            node = node[int(part)] if isinstance(node, list) else node[part]
        return node


_Check = Callable[[_Walk, Any, Any, Mapping[str, Any], tuple, tuple], Iterator[Problem]]


def _type(w: _Walk, value: Any, instance: Any, schema: Mapping, path: tuple, spath: tuple) -> Iterator[Problem]:
    types = [value] if isinstance(value, str) else list(value)
    if not any(_TYPES[t](instance) for t in types):
        yield Problem("type", value, instance, schema, path, spath, f"{instance!r} is not of type {value!r}")


def _properties(w: _Walk, value: Any, instance: Any, schema: Mapping, path: tuple, spath: tuple) -> Iterator[Problem]:
    if isinstance(instance, dict):
        for name, sub in value.items():
            if name in instance:
                yield from w.problems(sub, instance[name], path + (name,), spath + (name,))


def _additional(w: _Walk, value: Any, instance: Any, schema: Mapping, path: tuple, spath: tuple) -> Iterator[Problem]:
    if not isinstance(instance, dict):
        return
    if "patternProperties" in schema:
        raise SchemaError("patternProperties is not supported by targui's schema checker")
    known = schema.get("properties") or {}
    extras = [key for key in instance if key not in known]
    if isinstance(value, dict):
        for key in extras:
            yield from w.problems(value, instance[key], path + (key,), spath)
    elif not value and extras:
        yield Problem("additionalProperties", value, instance, schema, path, spath,
                      "Additional properties are not allowed")


def _items(w: _Walk, value: Any, instance: Any, schema: Mapping, path: tuple, spath: tuple) -> Iterator[Problem]:
    if isinstance(instance, list):
        for index, item in enumerate(instance):
            yield from w.problems(value, item, path + (index,), spath)


def _required(w: _Walk, value: Any, instance: Any, schema: Mapping, path: tuple, spath: tuple) -> Iterator[Problem]:
    if isinstance(instance, dict):
        for key in value:
            if key not in instance:
                yield Problem("required", value, instance, schema, path, spath, f"{key!r} is a required property")


def _property_names(w: _Walk, value: Any, instance: Any, schema: Mapping, path: tuple,
                    spath: tuple) -> Iterator[Problem]:
    if isinstance(instance, dict):
        for key in instance:  # the key itself is checked; the place is the mapping's
            yield from w.problems(value, key, path, spath)


def _pattern_check(w: _Walk, value: Any, instance: Any, schema: Mapping, path: tuple,
                   spath: tuple) -> Iterator[Problem]:
    if isinstance(instance, str) and not _pattern(value).search(instance):
        yield Problem("pattern", value, instance, schema, path, spath, f"{instance!r} does not match {value!r}")


def _bound(kind: str, fails: Callable[[Any, Any], bool], sized: Callable[[Any], bool],
           measure: Callable[[Any], Any], words: str) -> _Check:
    def check(w: _Walk, value: Any, instance: Any, schema: Mapping, path: tuple, spath: tuple) -> Iterator[Problem]:
        if sized(instance) and fails(measure(instance), value):
            yield Problem(kind, value, instance, schema, path, spath, f"{instance!r} {words} {value!r}")
    return check


def _max_properties(w: _Walk, value: Any, instance: Any, schema: Mapping, path: tuple,
                    spath: tuple) -> Iterator[Problem]:
    if isinstance(instance, dict) and len(instance) > value:
        words = "is expected to be empty" if value == 0 else "has too many properties"
        yield Problem("maxProperties", value, instance, schema, path, spath, f"{instance!r} {words}")


def _unique(w: _Walk, value: Any, instance: Any, schema: Mapping, path: tuple, spath: tuple) -> Iterator[Problem]:
    if value and isinstance(instance, list) and first_repeat(instance) is not None:
        yield Problem("uniqueItems", value, instance, schema, path, spath, f"{instance!r:.80} has non-unique elements")


def _enum(w: _Walk, value: Any, instance: Any, schema: Mapping, path: tuple, spath: tuple) -> Iterator[Problem]:
    if not any(equal(choice, instance) for choice in value):
        yield Problem("enum", value, instance, schema, path, spath, f"{instance!r} is not one of {value!r}")


def _const(w: _Walk, value: Any, instance: Any, schema: Mapping, path: tuple, spath: tuple) -> Iterator[Problem]:
    if not equal(value, instance):
        yield Problem("const", value, instance, schema, path, spath, f"{value!r} was expected")


def _ref(w: _Walk, value: Any, instance: Any, schema: Mapping, path: tuple, spath: tuple) -> Iterator[Problem]:
    yield from w.problems(w.resolve(value), instance, path, spath)


def _if(w: _Walk, value: Any, instance: Any, schema: Mapping, path: tuple, spath: tuple) -> Iterator[Problem]:
    branch = "then" if w.is_valid(value, instance, path) else "else"
    if branch in schema:
        yield from w.problems(schema[branch], instance, path, spath[:-1] + (branch,))


_KEYWORDS: dict[str, _Check] = {
    "type": _type,
    "properties": _properties,
    "additionalProperties": _additional,
    "items": _items,
    "required": _required,
    "propertyNames": _property_names,
    "pattern": _pattern_check,
    "minimum": _bound("minimum", lambda n, v: n < v, _is_number, lambda n: n, "is less than the minimum of"),
    "maximum": _bound("maximum", lambda n, v: n > v, _is_number, lambda n: n, "is greater than the maximum of"),
    "exclusiveMinimum": _bound("exclusiveMinimum", lambda n, v: n <= v, _is_number, lambda n: n,
                               "is less than or equal to the minimum of"),
    "exclusiveMaximum": _bound("exclusiveMaximum", lambda n, v: n >= v, _is_number, lambda n: n,
                               "is greater than or equal to the maximum of"),
    "minLength": _bound("minLength", lambda n, v: n < v, lambda i: isinstance(i, str), len, "is shorter than"),
    "maxLength": _bound("maxLength", lambda n, v: n > v, lambda i: isinstance(i, str), len, "is longer than"),
    "minItems": _bound("minItems", lambda n, v: n < v, lambda i: isinstance(i, list), len, "is too short for"),
    "maxItems": _bound("maxItems", lambda n, v: n > v, lambda i: isinstance(i, list), len, "is too long for"),
    "minProperties": _bound("minProperties", lambda n, v: n < v, lambda i: isinstance(i, dict), len,
                            "does not have enough properties for"),
    "maxProperties": _max_properties,
    "uniqueItems": _unique,
    "enum": _enum,
    "const": _const,
    "$ref": _ref,
    "if": _if,
}


def iter_problems(schema: Mapping[str, Any], instance: Any) -> Iterator[Problem]:
    """Every problem of ``instance`` under ``schema`` (a whole schema: its ``$ref`` resolve in it)."""
    return _Walk(schema).problems(schema, instance, (), ())
