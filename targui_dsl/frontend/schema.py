"""Schema stage: is the ruleset shaped right? (codes E03xx)

A game's JSON Schema (Targui's: ``schemas/ruleset.schema.json``, named by
its package) describes every key a ruleset file may hold. Any single file may be a partial overlay (a house rule
sets three keys), so the schema has no ``required`` of its own and lets an
overlay write ``null`` to delete a key of its parent. What a *complete*
(merged, non-abstract) ruleset must have is listed under the custom keyword
``x-targui-required``; :func:`validate_schema` with ``complete=True`` uses a
derived schema in which every ``x-targui-required`` has become ``required``
and ``null`` is no longer allowed (after the merge a null has deleted its key).

Every problem the schema checker (:mod:`targui_dsl.frontend.schemawalk`) finds is reported,
each as a :class:`Diagnostic` at the place in the YAML file that caused it:

- E0301 a value of the wrong type;
- E0302 an unknown key (with a did-you-mean hint from the allowed keys);
- E0303 a setting a complete ruleset must have is missing;
- E0304 a value that is not allowed (not one of a list, out of range, a bad
  id, an empty text or list, a repeated entry).
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Mapping

from targui_dsl.frontend.diagnostics import Diagnostic, Span, did_you_mean, error, sort_key
from targui_dsl.frontend.paths import dotted, format_value
from targui_dsl.frontend.resources import schema_path
from targui_dsl.frontend.schemawalk import Problem, first_repeat, iter_problems
from targui_dsl.games import front_end

Path = tuple

_ID_PATTERN = "^[a-z][a-z0-9_]*$"
_PATTERN_WORDS = {
    _ID_PATTERN: "an id of lower-case letters, digits and `_`, starting with a letter (like `fesh_fesh`)",
    "^[a-z][a-z0-9_-]*$": "a name of lower-case letters, digits, `_` and `-`, starting with a letter (like "
    "`my-house-rule`)",
    "^[a-z]{2,3}$": "a language code of two or three lower-case letters (like `nl`, `sv`, `en`)",
}
_TYPE_WORDS = {
    "integer": "a whole number",
    "number": "a number",
    "string": "text",
    "boolean": "true or false",
    "array": "a list",
    "object": "a mapping of keys to values",
    "null": "null",
}


# --- the schema and its validators ------------------------------------------------


def load_schema(name: str | None = None) -> dict:
    """A game's ruleset JSON Schema (a file in ``schemas/``; the default game's when
    ``name`` is None), read once. Do not mutate the returned dict."""
    return _load_schema(name if name is not None else front_end().schema)


@lru_cache(maxsize=4)
def _load_schema(name: str) -> dict:
    with open(schema_path(name), encoding="utf-8") as handle:
        loaded: dict = json.load(handle)
        return loaded


def complete_schema(schema: Mapping) -> dict:
    """The schema for a complete ruleset: ``x-targui-required`` becomes ``required``, nulls are refused."""

    def completed(node: Any) -> Any:  # a copy (JSON: mappings, lists, plain values), made complete
        if isinstance(node, dict):
            copied = {key: completed(value) for key, value in node.items()}
            if "x-targui-required" in copied:
                copied["required"] = list(copied["x-targui-required"])
            kind = copied.get("type")
            if isinstance(kind, list) and "null" in kind:
                rest = [t for t in kind if t != "null"]
                copied["type"] = rest[0] if len(rest) == 1 else rest
            return copied
        if isinstance(node, list):
            return [completed(value) for value in node]
        return node

    derived: dict = completed(dict(schema))
    if "$id" in derived:
        derived["$id"] = str(derived["$id"]).replace(".schema.json", ".complete.schema.json")
    return derived


@lru_cache(maxsize=8)
def _schema(name: str, complete: bool) -> dict:
    """The schema a ruleset is checked against: the game's, or its complete form."""
    schema = load_schema(name)
    return complete_schema(schema) if complete else schema


# --- validation ---------------------------------------------------------------------


def validate_schema(
    data: Any,
    spans: Mapping[Path, Span],
    key_spans: Mapping[Path, Span],
    complete: bool = False,
    schema: str | None = None,
) -> list[Diagnostic]:
    """Every schema problem of ``data``, each pointing into the YAML file.

    ``complete=True`` is for a merged, playable ruleset: every setting listed
    under ``x-targui-required`` must then be present. ``schema`` names the
    game's schema (:attr:`GamePackage.schema`); None: the default game's.
    """
    name = schema if schema is not None else front_end().schema
    diagnostics: list[Diagnostic] = []
    for problem in iter_problems(_schema(name, complete), data):
        diagnostics.extend(_diagnose(problem, spans, key_spans, data, load_schema(name)))
    # One place may be reached by two routes (e.g. a type error under both
    # schemas of an if/then); report it once.
    unique = list(dict.fromkeys(diagnostics))
    return sorted(unique, key=sort_key)


def _diagnose(
    problem: Problem, spans: Mapping, key_spans: Mapping, data: Any = None, root: Mapping | None = None
) -> list[Diagnostic]:
    """The diagnostics of one problem; ``root`` is the game's schema, whose custom
    keywords give the words for its entries (``x-targui-entry``, ``x-targui-example-keys``,
    ``x-targui-required-hints``)."""
    root = root if root is not None else {}
    path = tuple(problem.absolute_path)
    where = dotted(path)
    kind = problem.validator
    value = problem.validator_value
    instance = problem.instance
    schema = problem.schema if isinstance(problem.schema, dict) else {}

    if kind == "type":
        expected = _expected_type(value)
        if not path:
            message = (
                f"a ruleset file must be {expected}{_example_keys(root)}, not {describe_value(instance)}"
            )
        else:
            message = f"`{where}` must be {expected}, not {describe_value(instance)}"
        hint = None
        if isinstance(instance, str) and "integer" in _types(value):
            hint = "write the number without quotes or words, like `10`"
        elif isinstance(instance, str) and "boolean" in _types(value):
            hint = "write `true` or `false`"
        elif isinstance(instance, float) and "integer" in _types(value) and instance.is_integer():
            hint = f"write it without a decimal point, like `{int(instance)}`"
        return [error("E0301", message, value_span(path, spans, key_spans), hint)]

    if kind == "additionalProperties" and isinstance(instance, dict):
        allowed = list((schema.get("properties") or {}).keys())
        out = []
        for key in instance:
            if key in allowed:
                continue
            place = f"in `{where}`" if path else "at the top level"
            message = f"unknown key `{key}` {place}"
            hint = did_you_mean(str(key), allowed) or ("allowed here: " + ", ".join(f"`{k}`" for k in allowed))
            out.append(error("E0302", message, key_span(path + (key,), spans, key_spans), hint))
        return out

    if kind == "required" and isinstance(instance, dict):
        noun = _entry_noun(path, root)
        missing = [key for key in value if key not in instance]
        if noun and missing:
            # An id that is not defined: one diagnostic naming the ids there are (it is most often
            # a typo or a guess), not a missing setting per key.
            listed = _and_list([f"`{key}`" for key in missing])
            message = f"{noun} `{path[-1]}` is not one already defined, and a new {noun} needs {listed}"
            hint = _misspelt_entry(path, data) or _existing_entries(noun, path, data)
            return [error("E0303", message, key_span(path, spans, key_spans), hint)]
        out = []
        for key in value:
            if key in instance:
                continue
            full = dotted(path + (key,))
            message = f"missing setting `{full}`: a complete ruleset must set it"
            hint = _required_hint(key, schema)
            out.append(error("E0303", message, key_span(path, spans, key_spans), hint))
        return out

    # Everything else is a value that is not allowed.
    span = value_span(path, spans, key_spans)
    hint = None
    if "propertyNames" in problem.absolute_schema_path:
        # The error is about a key of the mapping at ``path``: point at the key.
        span = key_span(path + (instance,), spans, key_spans)
        owner = f"in `{where}`" if path else "at the top level"
        if kind == "pattern":
            message = (
                f"`{instance}` {owner} is not a valid id: use {_PATTERN_WORDS.get(value, 'the pattern ' + str(value))}"
            )
            suggestion = _as_id(str(instance))
            hint = f"write `{suggestion}`" if suggestion else None
        else:
            message = f"`{instance}` is not allowed as a key {owner}"
    elif kind == "enum":
        choices = ", ".join(f"`{format_value(c)}`" for c in value)
        message = f"`{where}` must be one of {choices}, not {describe_value(instance)}"
        hint = did_you_mean(str(instance), [str(c) for c in value]) if isinstance(instance, str) else None
    elif kind == "const":
        message = f"`{where}` must be `{format_value(value)}`, not {describe_value(instance)}"
    elif kind == "pattern":
        wanted = _PATTERN_WORDS.get(value, "text matching " + str(value))
        message = f"`{where}` must be {wanted}, not {describe_value(instance)}"
        suggestion = (
            _as_id(str(instance), "_" if value == _ID_PATTERN else "-")
            if value in _PATTERN_WORDS and "{" not in value
            else None
        )
        hint = f"write `{suggestion}`" if suggestion else None
    elif kind == "minimum":
        message = f"`{where}` must be at least {value}, not {format_value(instance)}"
    elif kind == "maximum":
        message = f"`{where}` must be at most {value}, not {format_value(instance)}"
    elif kind == "exclusiveMinimum":
        message = f"`{where}` must be more than {value}, not {format_value(instance)}"
    elif kind == "exclusiveMaximum":
        message = f"`{where}` must be less than {value}, not {format_value(instance)}"
    elif kind == "minLength":
        message = f"`{where}` must not be empty"
    elif kind == "maxLength":
        message = f"`{where}` is too long (at most {value} characters)"
    elif kind == "minItems":
        message = f"`{where}` must list at least {value} item{'s' if value != 1 else ''}"
    elif kind == "maxItems":
        message = f"`{where}` may list at most {value} item{'s' if value != 1 else ''}"
    elif kind == "minProperties":
        message = f"`{where}` must have at least {value} entr{'ies' if value != 1 else 'y'}"
    elif kind == "uniqueItems" and isinstance(instance, list):
        index = first_repeat(instance)
        if index is not None:
            span = value_span(path + (index,), spans, key_spans)
            message = f"`{where}` lists {describe_value(instance[index])} more than once"
        else:
            message = f"`{where}` must not repeat an item"
    else:
        message = f"`{where or 'the ruleset'}`: {problem.message}"
    return [error("E0304", message, span, hint)]


# --- helpers shared with check.py -----------------------------------------------------


def value_span(path: Path, spans: Mapping, key_spans: Mapping) -> Span | None:
    """The span of the value at ``path``, else of the nearest enclosing value written."""
    path = tuple(path)
    while True:
        if path in spans:
            return spans[path]
        if path in key_spans:
            return key_spans[path]
        if not path:
            return None
        path = path[:-1]


def key_span(path: Path, spans: Mapping, key_spans: Mapping) -> Span | None:
    """The span of the key of the mapping entry at ``path`` (the document for ``()``)."""
    path = tuple(path)
    if path in key_spans:
        return key_spans[path]
    return value_span(path, spans, key_spans)


def _types(value: Any) -> list[str]:
    return [value] if isinstance(value, str) else list(value)


def _expected_type(value: Any) -> str:
    words = [_TYPE_WORDS.get(t, t) for t in _types(value) if t != "null"] or ["null"]
    return " or ".join(words)


def describe_value(value: Any) -> str:
    """A value in words, as a YAML author wrote it."""
    if value is None:
        return "null (nothing)"
    if isinstance(value, bool):
        return "`true`" if value else "`false`"
    if isinstance(value, int):
        return f"the number {value}"
    if isinstance(value, float):
        return f"the number {value!r}" if value.is_integer() and abs(value) < 1e16 else f"the number {value:g}"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"the text `{shown}`" if shown else "empty text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def _as_id(name: str, separator: str = "_") -> str | None:
    """``Fesh-Fesh`` -> ``fesh_fesh``: the id an author probably meant, if any."""
    cleaned = "".join(c if c.isalnum() else separator for c in name.strip().lower()).strip(separator)
    while separator * 2 in cleaned:
        cleaned = cleaned.replace(separator * 2, separator)
    if cleaned and cleaned[0].isalpha() and cleaned.isascii() and cleaned != name:
        return cleaned
    return None


def _example_keys(root: Mapping) -> str:
    """`` (keys such as ...)`` from the schema (``x-targui-example-keys``), or nothing."""
    example = root.get("x-targui-example-keys")
    return f" ({example})" if isinstance(example, str) else ""


def _entry_noun(path: Path, root: Mapping) -> str | None:
    """What an entry at ``path`` is, when ``path`` is an id under a top-level mapping of entries
    ("territory kind" for ``territories.erg``: the schema's ``x-targui-entry``); else None."""
    if len(path) != 2:
        return None
    section = (root.get("properties") or {}).get(path[0])
    noun = section.get("x-targui-entry") if isinstance(section, dict) else None
    return noun if isinstance(noun, str) else None


def _misspelt_entry(path: Path, data: Any) -> str | None:
    """For an entry lacking settings: "did you mean `x`?" when its id is close to another one's."""
    if not isinstance(data, dict) or not isinstance(data.get(path[0]), dict):
        return None
    others = [k for k in data[path[0]] if k != path[1] and isinstance(k, str)]
    return did_you_mean(str(path[1]), others)


#: Most ids an "the cards there are" hint names; the rest are counted.
MAX_LISTED = 30


def _existing_entries(noun: str, path: Path, data: Any) -> str | None:
    """For an entry lacking settings whose id is close to none: the ids there are, to change one of them."""
    if not isinstance(data, dict) or not isinstance(data.get(path[0]), dict):
        return None
    others = sorted(k for k in data[path[0]] if k != path[1] and isinstance(k, str))
    if not others:
        return None
    shown = ", ".join(f"`{k}`" for k in others[:MAX_LISTED])
    more = f" and {len(others) - MAX_LISTED} more" if len(others) > MAX_LISTED else ""
    return f"to change one, use its id; the {noun}s there are: {shown}{more}"


def _and_list(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _required_hint(key: str, schema: Mapping) -> str:
    """How to give a missing setting: the schema's own words (``x-targui-required-hints``), or where to set it."""
    hints = schema.get("x-targui-required-hints")
    if isinstance(hints, dict) and isinstance(hints.get(key), str):
        return str(hints[key])
    return "set it here, or in the ruleset this one extends"
