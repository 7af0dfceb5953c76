"""What the server knows of names: hover texts and completions, each from its one home.

The keys of a ruleset file and their meanings are the game's JSON Schema (titles and
descriptions); the names of the effect language are the game's vocabulary (globals,
fields, hook moments, parameters) and the language's own functions and keywords
(:mod:`targui_dsl.effects.names`); the ids a file defines (its kinds, cards...) are the
ruleset's own entries, read from every file of its ``extends`` chain.

A string the schema describes as written in the effect language is a snippet: that is
how the schema of every game says it, and how the server knows where to offer names.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Mapping

from targui_dsl.effects.names import FUNCTIONS, KEYWORDS
from targui_dsl.effects.types import Type
from targui_dsl.effects.vocabulary import Params, Vocabulary
from targui_dsl.frontend.paths import dotted
from targui_dsl.frontend.resources import shown_file
from targui_dsl.frontend.yamlload import LoadedDoc

#: How a schema describes a string written in the effect language.
SNIPPET_WORDS = "effect language"


# --- the schema -------------------------------------------------------------------------


def _deref(schema: Mapping, node: Any) -> dict:
    """``node`` with its ``$ref`` (to ``#/$defs/...``) followed; {} for anything else."""
    for _ in range(8):  # a ref to a ref: a few at most
        if not isinstance(node, dict):
            return {}
        ref = node.get("$ref")
        if not isinstance(ref, str) or not ref.startswith("#/$defs/"):
            return node
        node = schema.get("$defs", {}).get(ref.removeprefix("#/$defs/"))
    return node if isinstance(node, dict) else {}


def _types(node: Mapping) -> set[str]:
    kind = node.get("type")
    return {kind} if isinstance(kind, str) else set(kind) if isinstance(kind, list) else set()


def schema_node(schema: Mapping, path: tuple) -> dict | None:
    """The schema of the value at ``path`` (keys and list indices), or None where the schema has none."""
    node = _deref(schema, schema)
    for component in path:
        if isinstance(component, int):
            items = node.get("items")
            if not isinstance(items, dict):
                return None
            node = _deref(schema, items)
            continue
        properties = node.get("properties")
        if isinstance(properties, dict) and component in properties:
            node = _deref(schema, properties[component])
        elif isinstance(node.get("additionalProperties"), dict):
            node = _deref(schema, node["additionalProperties"])
        else:
            return None
    return node


def entry_sections(schema: Mapping) -> dict[str, str]:
    """The top-level sections that hold entries by id, and what one entry is called
    (``territories`` -> "territory kind"): the schema's ``x-targui-entry``."""
    properties = _deref(schema, schema).get("properties", {})
    return {name: node["x-targui-entry"] for name, node in properties.items()
            if isinstance(node, dict) and isinstance(node.get("x-targui-entry"), str)}


def is_snippet(node: Mapping | None) -> bool:
    """Whether the schema says a value here is written in the effect language."""
    return bool(node) and "string" in _types(node or {}) and SNIPPET_WORDS in str((node or {}).get("description", ""))


def is_mapping(node: Mapping | None) -> bool:
    """Whether the schema says a value here is a mapping of keys."""
    return node is not None and "object" in _types(node)


def snippet_params(vocabulary: Vocabulary, path: tuple) -> Params:
    """The parameters a snippet at ``path`` may name: a formula's, a hook moment's, or those of a
    place whose description names the path (``setup.cash``); none for a card's effect."""
    keys = tuple(p for p in path if isinstance(p, str))
    for formula in vocabulary.formulas:
        if formula.path == keys:
            return formula.params
    if len(keys) >= 2 and keys[-1] in vocabulary.hook_moments:
        return vocabulary.hook_moments[keys[-1]]
    for description, params in vocabulary.places.values():
        if f"`{dotted(keys)}`" in description:
            return params
    return {}


# --- the ruleset's own ids --------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One id a ruleset defines, as the files of its chain write it (the file itself first)."""

    section: str
    noun: str  # "territory kind"
    id: str
    fields: dict  # its scalar fields, a child's over its parent's
    docs: tuple[LoadedDoc, ...]  # the files that write it


def entries(docs: list[LoadedDoc], schema: Mapping, sections: tuple[str, ...] | None = None) -> dict[str, Entry]:
    """Every id the chain ``docs`` (the file first) defines in its entry sections, by id
    (a kind before a card of the same id, as the schema orders the sections)."""
    found: dict[str, Entry] = {}
    for section, noun in entry_sections(schema).items():
        if sections is not None and section not in sections:
            continue
        for doc in docs:
            written = doc.data.get(section) if isinstance(doc.data, dict) else None
            for key, value in (written.items() if isinstance(written, dict) else ()):
                if not isinstance(key, str) or value is None:
                    continue
                scalars = {k: v for k, v in value.items() if isinstance(v, (str, int, float, bool))} \
                    if isinstance(value, dict) else {}
                old = found.get(key)
                if old is None:
                    found[key] = Entry(section, noun, key, scalars, (doc,))
                elif old.section == section:
                    found[key] = Entry(section, noun, key, {**scalars, **old.fields}, old.docs + (doc,))
    return found


# --- hover --------------------------------------------------------------------------------


def describe_key(schema: Mapping, vocabulary: Vocabulary, path: tuple, entry: Entry | None) -> str | None:
    """Markdown for a key: its schema title and description; a hook moment's meaning and names."""
    node = schema_node(schema, path)
    name = path[-1] if path else ""
    parent = schema_node(schema, path[:-1])
    if entry is not None and parent is not None and isinstance(parent.get("x-targui-entry"), str):
        return describe_entry(entry)
    if node is None:
        return None
    lines = [f"**`{dotted(path)}`**: {node.get('title', name)}"]
    # a moment's list of effects (Targui's `hooks:`), or one effect (a Targi card's `hooks:`)
    holds_effects = isinstance(node.get("items"), dict) or node.get("type") == "string"
    if isinstance(name, str) and name in vocabulary.hook_meanings and holds_effects:
        lines.append(vocabulary.hook_meanings[name])
        params = vocabulary.hook_moments.get(name) or {}
        if params:
            lines.append("Names: " + ", ".join(f"`{p}` ({t.described})" for p, t in params.items()) + ".")
    elif node.get("description"):
        lines.append(str(node["description"]))
    if node.get("enum"):
        lines.append("One of " + ", ".join(f"`{v}`" for v in node["enum"] if v is not None) + ".")
    return "\n\n".join(lines)


def describe_entry(entry: Entry) -> str:
    """Markdown for an id the ruleset defines: what it is, and its scalar fields."""
    title = entry.fields.get("name") or entry.fields.get("title")
    head = f"**`{entry.id}`**: {entry.noun}" + (f", {title}" if isinstance(title, str) else "")
    shown = [f"`{k}`: {v}" for k, v in entry.fields.items() if k not in ("name", "title") and not isinstance(v, str)]
    effect = [f"```\n{v}\n```" for k, v in entry.fields.items() if k not in ("name", "title") and isinstance(v, str)]
    where = "Written in " + ", ".join(f"`{shown_file(doc.file)}`" for doc in entry.docs)
    return "\n\n".join([head] + ([", ".join(shown)] if shown else []) + effect + [where])


def describe_name(vocabulary: Vocabulary, word: str, after_dot: bool, params: Params) -> str | None:
    """Markdown for a name in a snippet: a field (after a `.`), a parameter, a global, a function."""
    if after_dot:
        found = [(kind, field) for kind, fields in vocabulary.fields.items()
                 for name, field in fields.items() if name == word]
        if not found:
            return None
        lines = [f"**`.{word}`**, a field"]
        for kind, field in found:
            change = "; can be changed" if field.setter else ""
            lines.append(f"- of {kind.described}: {field.type.described}, {field.meaning}{change}")
        return "\n".join(lines)
    if word in params:
        homes = [description for description, names in vocabulary.places.values() if word in names]
        return f"**`{word}`**: {params[word].described}, a parameter of " + "; of ".join(homes)
    spec = vocabulary.globals.get(word)
    if spec is not None:
        return f"**`{word}`**: {spec.type.described}: {spec.meaning}"
    if word in FUNCTIONS:
        return f"**`{word}(...)`**: {FUNCTIONS[word]}"
    procedure = vocabulary.procedures.get(word)
    if procedure is not None:
        return f"**`{word}({_arguments(procedure.params)})`**, a procedure of {vocabulary.game}: {procedure.meaning}"
    hint = vocabulary.parameter_hint(word)
    if hint is not None:
        return f"**`{word}`**: {hint}"
    return None


def _arguments(params: Params) -> str:
    """A procedure's arguments as a call writes them: ``noble = true``."""
    return ", ".join(f"{name} = {'true' if kind is Type.BOOL else '...'}" for name, kind in params.items())


# --- completion ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Offer:
    """One completion: the text, what kind of thing it is, a line of detail, its meaning."""

    label: str
    kind: str  # "key", "field", "global", "function", "procedure", "keyword", "parameter", "id", "value"
    detail: str
    meaning: str = ""
    insert: str | None = None  # the text to insert, when not the label


def key_offers(schema: Mapping, parent: tuple, known: Mapping[str, Entry]) -> Iterator[Offer]:
    """The keys a mapping at ``parent`` may hold (a section of entries: the ids already defined)."""
    node = schema_node(schema, parent)
    if node is None:
        return
    properties = node.get("properties")
    if isinstance(properties, dict):
        for name, sub in properties.items():
            sub = _deref(schema, sub)
            yield Offer(str(name), "key", str(sub.get("title", "")), str(sub.get("description", "")), f"{name}: ")
    noun = node.get("x-targui-entry")
    if isinstance(noun, str) and parent:
        for entry in known.values():
            if entry.section == parent[0] and len(parent) == 1:
                yield Offer(entry.id, "id", f"{noun} (inherited)", describe_entry(entry), f"{entry.id}:")


def value_offers(schema: Mapping, path: tuple) -> Iterator[Offer]:
    """The values the schema lists for ``path`` (an enum, true/false)."""
    node = schema_node(schema, path)
    if node is None:
        return
    for candidate in (node, _deref(schema, node.get("items"))):
        for value in candidate.get("enum") or ():
            if isinstance(value, str):
                yield Offer(value, "value", str(candidate.get("title", "")), str(candidate.get("description", "")))
        if "boolean" in _types(candidate):
            for value in ("true", "false"):
                yield Offer(value, "value", "true or false", str(candidate.get("description", "")))


def snippet_offers(
    vocabulary: Vocabulary, after_dot: bool, params: Params, ids: Mapping[str, Entry]
) -> Iterator[Offer]:
    """The names a snippet may use here: after a `.` every field; else the place's parameters,
    the globals, the functions, the keywords and the ruleset's ids the vocabulary lets it name."""
    if after_dot:
        by_name: dict[str, list[tuple[Type, Any]]] = {}
        for kind, fields in vocabulary.fields.items():
            for name, field in fields.items():
                by_name.setdefault(name, []).append((kind, field))
        for name, found in by_name.items():
            detail = "; ".join(f"{kind.described}: {field.type.described}" for kind, field in found)
            yield Offer(name, "field", detail, "; ".join(field.meaning for _, field in found))
        return
    for name, kind in params.items():
        yield Offer(name, "parameter", kind.described, "a parameter of this place")
    for name, spec in vocabulary.globals.items():
        yield Offer(name, "global", spec.type.described, spec.meaning)
    for name, meaning in FUNCTIONS.items():
        yield Offer(name, "function", "function", meaning)
    for name, procedure in vocabulary.procedures.items():
        yield Offer(name, "procedure", f"procedure({_arguments(procedure.params)})", procedure.meaning,
                    f"{name}({_arguments(procedure.params)})")
    for word in sorted(KEYWORDS - set(FUNCTIONS)):
        yield Offer(word, "keyword", "keyword")
    for entry in ids.values():
        if entry.section in vocabulary.id_sections:
            title = entry.fields.get("name") or entry.fields.get("title")
            yield Offer(entry.id, "id", entry.noun + (f": {title}" if isinstance(title, str) else ""),
                        describe_entry(entry))
