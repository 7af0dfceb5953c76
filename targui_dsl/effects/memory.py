"""Declared memory: the values a ruleset keeps from one moment of a game to the next.

A ruleset declares them under ``memory:`` (docs/effect-language.md, "Memory")::

    memory:
      bid: {of: player, value: number, start: 0, min: 0, max: 50, visible: owner}
      auction_open: {of: game, value: flag, start: false}

Each is held once per value of a holder the game offers (its vocabulary's
``memory_holders``: Targui's players and territories) or once for the game,
is a whole number or a flag, starts at ``start`` and stays within ``min`` and
``max`` (``past_bounds: clamp``, the default, or ``refuse``: the change is not
made). Effects and formulas read them like fields or globals (``p.bid``,
``auction_open``) and effects change them like any field. The game keeps them
with its state, logs every change and shows each as its ``visible`` says.

This module is the language's, naming no game: :func:`read_memory` makes the
compiler's :class:`~targui_dsl.effects.vocabulary.Memory` slots from the data,
:func:`check_memory` the meaning checks (E0540-E0542) a game runs with its own.
"""

from __future__ import annotations

from typing import Any, Callable, Collection, Mapping

from targui_dsl.effects.runtime import MAX_VALUE
from targui_dsl.effects.types import Type
from targui_dsl.effects.vocabulary import Memory, Vocabulary
from targui_dsl.frontend.diagnostics import Diagnostic, Span, error

#: The key of a ruleset's declarations.
KEY = "memory"
#: Who may see a value: everybody, its player only (memory `of: player`), nobody (the rules only).
VISIBILITY = ("public", "owner", "hidden")
#: What a value is: a whole number, or a flag (true/false, kept as 0/1).
TYPES: Mapping[str, Type] = {"number": Type.INT, "flag": Type.BOOL}
#: The most values one ruleset may declare (each is a column of every saved state and observation).
MAX_MEMORY = 32

Where = Callable[..., "Span | None"]


def _whole(value: Any, default: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _entries(data: Mapping[str, Any]) -> list[tuple[str, dict]]:
    section = data.get(KEY)
    if not isinstance(section, dict):
        return []
    return [(name, spec) for name, spec in section.items() if isinstance(name, str) and isinstance(spec, dict)]


def read_memory(data: Mapping[str, Any], vocabulary: Vocabulary) -> dict[str, Memory]:
    """The declared memory of (merged) ruleset data, by name, in the order written; an entry
    this cannot read (a holder the game does not offer, a type not listed) is left out: the
    schema and :func:`check_memory` report it, and a snippet naming it gets "unknown name"."""
    slots: dict[str, Memory] = {}
    for name, spec in _entries(data):
        holder_name, type_name = spec.get("of", "game"), spec.get("value", "number")
        if holder_name not in vocabulary.memory_holders or type_name not in TYPES:
            continue
        type_ = TYPES[type_name]
        if type_ == Type.BOOL:
            low, high = 0, 1
            start = 1 if spec.get("start") is True else 0
        else:
            low, high = _whole(spec.get("min"), 0), _whole(spec.get("max"), MAX_VALUE)
            start = _whole(spec.get("start"), max(low, min(0, high)))
        visible = spec.get("visible", "public")
        slots[name] = Memory(
            name=name, holder=vocabulary.memory_holders[holder_name], type=type_, index=len(slots),
            start=max(low, min(high, start)), low=low, high=high,
            visible=visible if visible in VISIBILITY else "hidden",
            clamp=spec.get("past_bounds", "clamp") != "refuse", meaning=str(spec.get("about", "")),
        )
    return slots


def check_memory(
    data: Mapping[str, Any], vocabulary: Vocabulary, ids: Collection[str], at: Where, key_at: Where
) -> list[Diagnostic]:
    """The meaning checks of schema-valid declarations: names that clash (E0540), bounds and
    start values that do not fit (E0541), a visibility its holder cannot have (E0542).

    ``ids``: the ruleset's own names a snippet may use (kinds, tribes...); ``at(*path)`` and
    ``key_at(*path)``: the span of a value and of a key.
    """
    out: list[Diagnostic] = []
    taken = vocabulary.reserved_names | frozenset(ids)
    holders = vocabulary.memory_holders
    entries = _entries(data)
    if entries and not holders:
        return [error("E0540", "this game keeps no declared memory", key_at(KEY),
                      "remove `memory:`: its effects cannot keep values of their own")]
    for name, spec in entries:
        holder = holders.get(spec.get("of", "game"))
        fields = vocabulary.fields.get(holder, {}) if holder is not None else {}
        if name in taken or name in fields:
            what = (f"a field of {holder.described}" if name in fields and holder is not None
                    else "a name the language or the ruleset already gives a meaning")
            out.append(error("E0540", f"memory `{name}` has the name of {what}", key_at(KEY, name),
                             "choose another name, such as `my_" + name + "`"))
        out.extend(_check_values(name, spec, at))
        if spec.get("visible") == "owner" and holder != Type.PLAYER:
            out.append(error("E0542", f"memory `{name}` is not a player's: no one owns it to see it",
                             at(KEY, name, "visible"), "`visible: owner` is for `of: player`; use public or hidden"))
    return out


def _check_values(name: str, spec: dict, at: Where) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    start = spec.get("start")
    if spec.get("value", "number") == "flag":
        for key in ("min", "max"):
            if key in spec:
                out.append(error("E0541", f"memory `{name}` is a flag (true/false): it has no `{key}`",
                                 at(KEY, name, key), f"remove `{key}`, or make it `value: number`"))
        if start is not None and not isinstance(start, bool):
            out.append(error("E0541", f"memory `{name}` is a flag, so it starts `true` or `false`, not {start!r}",
                             at(KEY, name, "start"), "write `start: false` or `start: true`"))
        return out
    low, high = _whole(spec.get("min"), 0), _whole(spec.get("max"), MAX_VALUE)
    if low > high:
        out.append(error("E0541", f"memory `{name}`: `min` ({low}) is above `max` ({high})",
                         at(KEY, name, "min"), "swap them, or lower `min`"))
    elif isinstance(start, bool):
        out.append(error("E0541", f"memory `{name}` is a number, so it starts at a number, not {str(start).lower()}",
                         at(KEY, name, "start"), f"write `start: {low}`, or make it `value: flag`"))
    elif isinstance(start, int) and not low <= start <= high:
        out.append(error("E0541", f"memory `{name}` starts at {start}, outside its bounds {low}..{high}",
                         at(KEY, name, "start"), f"start it between {low} and {high}"))
    elif start is None and not low <= 0 <= high:
        out.append(error("E0541", f"memory `{name}` starts at 0 when no `start` is given, outside {low}..{high}",
                         at(KEY, name), f"give it a `start` between {low} and {high}"))
    return out
