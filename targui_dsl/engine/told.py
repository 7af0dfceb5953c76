"""Events told as tuples: ``(kind, value, ...)``, and how a kind turns them into a dict or a log line.

A game tells a sink an event as one tuple, its :class:`EventKind` first and the event's values
after it, in the order of the kind's slots. A kind is made once (a module constant of the game's
package) from the event's shape, written as the event reads::

    TURN = EventKind("turn", {"round": "{int}", "player": "{int}", "tribe": "{text}", "double_turn": "{flag}"})
    MOVE = EventKind("decision", {"round": "{int}", "player": "{int}", "tribe": "{text}",
                                  "action": "move {int} {int} {int}", "forced": "{flag}"})

A field is one slot (``{int}``: an integer; ``{text}``: a string; ``{flag}``: true or false;
``{json}``: any JSON value, lists and dicts too), a list of slots (``["{int}", "{int}"]``: a list
of two integers), a dict of slots by their keys (``{"kel_ress": "{int}", "kel_ajjer": "{int}"}``:
a dict of two integers, its keys written in the kind), a text of words and slots (``{int}`` and
``{text}`` only; a text without slots is a constant), or a constant ``True``/``False`` or integer
(a kind per value of a field that has few, as a seat's: a value fewer to tell and to write).
``(MOVE, 3, 0, "kel_ress", 12, 13, 2, False)`` is ``{"type": "decision", "round": 3, "player": 0,
"tribe": "kel_ress", "action": "move 12 13 2", "forced": false}``: a readable action's text is
made only when someone reads the event, and a log writes it straight into its line.

A kind's :meth:`~EventKind.event` makes the dict, :meth:`~EventKind.line` the log line: the text
``json.dumps(event, separators=(",", ":"))`` writes, and a newline, built without the dict (the keys,
separators and words as one literal text, each value written by its slot: an integer by ``str``, a
string by json's C ``encode_basestring_ascii``, a flag as ``true``/``false``, a JSON value by the C
encoder). Both are functions compiled once per kind from ``ast`` nodes (the keys and words only ever
as string constants), on first use. A kind with neither a flag nor a JSON value also has a
``template``, its line as a ``%`` format: :func:`lines_of` writes a batch of such events by one
format (a flag is best made two kinds, :func:`by_flag`: ``TURN[double_turn]``). A sink that reads
tuples has ``told_tuple(event)`` (the event log); any other sink is given dicts (:func:`tellers`).
"""

from __future__ import annotations

import ast
import json
import json.encoder
import re
from itertools import chain
from operator import attrgetter, itemgetter
from typing import Any, Callable

__all__ = ["EventKind", "Made", "by_flag", "encode_json", "json_encoder", "lines_of", "made", "refuse_json",
           "tellers"]

_SLOT = re.compile(r"\{(int|text|flag|json)\}")
_FLAGS = ("false", "true")  # a flag's JSON, by the flag (False: 0, True: 1)


def refuse_json(value: Any) -> Any:
    """The encoders' ``default``: a value that is not JSON is an error."""
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def json_encoder(sort_keys: bool = False) -> Callable[[Any], str]:
    """``json.dumps(value, separators=(",", ":"), sort_keys=sort_keys)``, the same text, made once:
    ``dumps`` makes a new encoder at every call, and ``JSONEncoder.encode`` a new C encoder. The C
    encoder is called directly where it exists and says the same as ``dumps`` (an event holds no
    cycle: no check for one); else the encoder's own ``encode``."""
    encode = json.JSONEncoder(separators=(",", ":"), sort_keys=sort_keys).encode
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return encode
    try:
        chunks = make(None, refuse_json, json.encoder.encode_basestring_ascii, None, ":", ",", sort_keys, False,
                      True)
    except TypeError:  # another signature: not this Python's C encoder
        return encode
    join = "".join

    def fast(value: Any) -> str:
        return join(chunks(value, 0))

    sample = {"type": "t\u00e9\n", "n": [1, -2, 2**70], "f": 0.5, "b": True, "z": None, "d": {"k": [False], "a": 1}}
    return fast if fast(sample) == encode(sample) else encode


#: ``json.dumps(value, separators=(",", ":"))``: the one JSON text of an event and of its values.
encode_json = json_encoder()
_quote = json.encoder.encode_basestring_ascii  # a string as JSON, quoted (C where there is C)


def _value(index: int) -> ast.expr:
    """``e[index]``: the event's value in that place."""
    return ast.Subscript(value=ast.Name(id="e", ctx=ast.Load()), slice=ast.Constant(value=index), ctx=ast.Load())


def _call(name: str, arg: ast.expr) -> ast.expr:
    return ast.Call(func=ast.Name(id=name, ctx=ast.Load()), args=[arg], keywords=[])


def _formatted(value: ast.expr, spec: str = "") -> ast.FormattedValue:
    return ast.FormattedValue(value=value, conversion=-1,
                              format_spec=ast.JoinedStr(values=[ast.Constant(value=spec)]) if spec else None)


def _percent(text: str) -> str:
    """Literal text in a ``%`` format."""
    return text.replace("%", "%%")


def _joined(parts: list[str | ast.expr]) -> ast.expr:
    """An f-string of literal texts and values (adjacent texts joined)."""
    values: list[ast.expr] = []
    text = ""
    for part in parts:
        if isinstance(part, str):
            text += part
            continue
        if text:
            values.append(ast.Constant(value=text))
            text = ""
        values.append(part if isinstance(part, ast.FormattedValue) else _formatted(part))
    if text:
        values.append(ast.Constant(value=text))
    return ast.JoinedStr(values=values)


def _function(body: ast.expr, where: str, encoder: bool = False) -> Callable[..., Any]:
    """``lambda e: body``, compiled; its names are only the encoders below (``encoder``: ``lambda e,
    encode: body``, the JSON values' encoder given)."""
    arguments = ast.arguments(posonlyargs=[], args=[ast.arg(arg="e")] + ([ast.arg(arg="encode")] if encoder else []),
                              vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
    tree = ast.fix_missing_locations(ast.Expression(body=ast.Lambda(args=arguments, body=body)))
    names = {"__builtins__": {}, "quote": _quote, "encode": encode_json, "FLAGS": _FLAGS}
    function: Callable[..., Any] = eval(compile(tree, where, "eval"), names)  # noqa: S307 (our ast)
    return function


class EventKind:
    """One kind of event a game tells as a tuple ``(kind, value, ...)``: its ``type`` and its fields,
    each a pattern of slots, a list of slots or a constant true/false or integer (module docstring). ``slots``
    is how many values follow the kind.

    ``template``: the kind's line as a ``%`` format of its values (``%d`` an integer, ``"%s"`` a
    text), for a log that writes a batch of events by one format when no text of the batch needs
    an escape (:func:`lines_of`); None for a kind with a flag or a JSON value, whose line is made
    by :meth:`line` when it is told (``special``, as the game's ``end``, after which a log writes
    what it holds)."""

    def __init__(self, type_: str, fields: dict[str, str | list[str] | dict[str, str] | bool | int]) -> None:
        self.type = type_
        self.fields = dict(fields)
        self.ends = type_ == "end"  # the last event of a game: a log writes what it holds
        slots = 0
        template: list[str] | None = [_percent('{"type":' + _quote(type_))]
        for key, pattern in self.fields.items():
            piece = "," + _quote(key) + ":"
            if isinstance(pattern, bool):
                piece += _FLAGS[pattern]
                if template is not None:
                    template.append(_percent(piece))
                continue
            if isinstance(pattern, int):  # a constant integer: its digits
                piece += str(pattern)
                if template is not None:
                    template.append(_percent(piece))
                continue
            listed = isinstance(pattern, (list, dict))
            keyed = list(pattern) if isinstance(pattern, dict) else None  # a dict's keys, in order
            if keyed == []:  # an empty dict: a constant
                piece += "{}"
                if template is not None:
                    template.append(_percent(piece))
                continue
            for place, one in enumerate(pattern.values() if isinstance(pattern, dict)
                                        else pattern if isinstance(pattern, list) else [pattern]):
                pieces = _SLOT.split(one)  # text, slot, text, slot, ..., text
                for text in pieces[::2]:
                    if "{" in text or "}" in text:
                        raise ValueError(f"event {type_!r}, field {key!r}: {one!r} has a brace outside a slot")
                whole = len(pieces) == 3 and pieces[0] == pieces[2] == ""
                if listed and not whole:
                    raise ValueError(f"event {type_!r}, field {key!r}: a list or dict holds whole slots, not {one!r}")
                for slot in pieces[1::2]:
                    if not whole and slot in ("flag", "json"):
                        raise ValueError(f"event {type_!r}, field {key!r}: a {{{slot}}} is a whole field, not in a "
                                         "text")
                    if slot in ("flag", "json"):
                        template = None
                    slots += 1
                if template is None:
                    continue
                piece = _percent(piece) + ("[" if listed and place == 0 else "," if listed else "")
                if keyed is not None:  # a dict's next key
                    piece = piece[:-1] + ("{" if place == 0 else ",") + _percent(_quote(keyed[place]) + ":")
                if whole and pieces[1] == "int":
                    piece += "%d"
                else:  # a text: its words, and its slots (a text slot's value, unescaped: a plain batch)
                    piece += '"' + "".join(_percent(_quote(part)[1:-1]) if index % 2 == 0 else "%d" if part == "int"
                                           else "%s" for index, part in enumerate(pieces)) + '"'
                if listed and place == len(pattern) - 1:
                    piece += "}" if keyed is not None else "]"
                template.append(piece)
                piece = ""
        self.slots = slots
        self.template = None if template is None else "".join(template) + "}\n"
        self.special = self.template is None or self.ends

    def __repr__(self) -> str:
        return f"EventKind({self.type!r}, {self.fields!r})"

    def _build(self, as_line: bool, encoder: bool = False) -> Callable[..., Any]:
        index = 0

        def whole(slot: str) -> tuple[ast.expr, ast.expr]:
            """The next value, and its JSON text."""
            nonlocal index
            index += 1
            value = _value(index)
            return value, (_formatted(value, "d") if slot == "int" else _call("quote", value) if slot == "text"
                           else ast.Subscript(value=ast.Name(id="FLAGS", ctx=ast.Load()), slice=value, ctx=ast.Load())
                           if slot == "flag" else _call("encode", value))

        keys: list[ast.expr | None] = [ast.Constant(value="type")]
        values: list[ast.expr] = [ast.Constant(value=self.type)]
        line: list[str | ast.expr] = ['{"type":' + _quote(self.type)]
        for key, pattern in self.fields.items():
            line.append("," + _quote(key) + ":")
            keys.append(ast.Constant(value=key))
            if isinstance(pattern, bool):  # a constant true or false
                values.append(ast.Constant(value=pattern))
                line.append(_FLAGS[pattern])
                continue
            if isinstance(pattern, int):  # a constant integer
                values.append(ast.Constant(value=pattern))
                line.append(str(pattern))
                continue
            if isinstance(pattern, (list, dict)):  # a list or a dict of values
                items = []
                line.append("[" if isinstance(pattern, list) else "{")
                for place, one in enumerate(pattern.values() if isinstance(pattern, dict) else pattern):
                    item, text = whole(_SLOT.split(one)[1])
                    items.append(item)
                    if isinstance(pattern, dict):
                        line.append(_quote(list(pattern)[place]) + ":")
                    line.extend([text, ","] if place < len(pattern) - 1 else [text])
                line.append("]" if isinstance(pattern, list) else "}")
                values.append(ast.List(elts=items, ctx=ast.Load()) if isinstance(pattern, list) else
                              ast.Dict(keys=[ast.Constant(value=name) for name in pattern], values=items))
                continue
            pieces = _SLOT.split(pattern)
            if len(pieces) == 3 and pieces[0] == pieces[2] == "":  # one slot: the value itself
                value, text = whole(pieces[1])
                values.append(value)
                line.append(text)
                continue
            words: list[str | ast.expr] = []  # the dict's string
            line.append('"')
            for place, piece in enumerate(pieces):
                if place % 2 == 0:
                    words.append(piece)
                    line.append(_quote(piece)[1:-1])
                    continue
                index += 1
                value = _value(index)
                words.append(_formatted(value, "d") if piece == "int" else value)
                line.append(_formatted(value, "d") if piece == "int" else  # digits and a sign: no escape
                            ast.Subscript(value=_call("quote", value), slice=ast.Slice(lower=ast.Constant(value=1),
                                                                                       upper=ast.Constant(value=-1)),
                                          ctx=ast.Load()))
            line.append('"')
            values.append(_joined(words) if len(pieces) > 1 else ast.Constant(value=pieces[0]))
        line.append("}\n")
        where = f"<event {self.type}>"
        if as_line:
            return _function(_joined(line), where, encoder)
        return _function(ast.Dict(keys=keys, values=values), where)

    def event(self, told: tuple[Any, ...]) -> dict[str, Any]:
        """The event as a dict, as a sink reads it (its ``type`` first)."""
        made = self._build(as_line=False)
        self.event = made  # type: ignore[method-assign]  # compiled on first use, then called straight
        return made(told)

    def line(self, told: tuple[Any, ...]) -> str:
        """The event's log line: ``json.dumps(self.event(told), separators=(",", ":"))`` and a newline."""
        made = self._build(as_line=True)
        self.line = made  # type: ignore[method-assign]
        return made(told)

    def line_with(self, told: tuple[Any, ...], encode: Callable[[Any], str]) -> str:
        """The event's log line as :meth:`line` writes it, its JSON values by ``encode`` (one that
        writes what ``json.dumps(value, separators=(",", ":"))`` writes: orjson, checked)."""
        made = self._build(as_line=True, encoder=True)
        self.line_with = made  # type: ignore[method-assign]
        return made(told, encode)


def by_flag(type_: str,
            fields: dict[str, str | list[str] | dict[str, str] | bool | int]) -> tuple[EventKind, EventKind]:
    """The kind of an event with one ``{flag}`` field, as two kinds: the flag false, and true
    (told as ``KIND[flag]``): a kind without a flag's slot has a ``template``."""
    flags = [key for key, pattern in fields.items() if pattern == "{flag}"]
    if len(flags) != 1:
        raise ValueError(f"event {type_!r}: by_flag wants one {{flag}} field, not {len(flags)}")
    return EventKind(type_, {**fields, flags[0]: False}), EventKind(type_, {**fields, flags[0]: True})


class Made:
    """A line made already (a special kind's, when it was told), kept as ``(Made(line),)``: a kind of
    its own with no values, whose ``template`` is the line (a ``%`` doubled), so that a batch's
    values are only the slots' numbers and texts."""

    __slots__ = ("text", "template")

    def __init__(self, text: str) -> None:
        self.text = text
        self.template = text.replace("%", "%%") if "%" in text else text  # (replace costs more than in)

    def line(self, told: tuple[Any, ...]) -> str:
        return self.text


_ESCAPED = re.compile(r'[\\"]|[^ -~]')  # what JSON writes otherwise than as it is (ensure_ascii)
_kind = itemgetter(0)
_values = itemgetter(slice(1, None))
_template = attrgetter("template")
#: Values met in a batch already, each an integer or a text that needs no escape: a batch of
#: none but these is checked by one look-up a value, without a set made of them (cleared when full).
_KNOWN: set[Any] = set()
_KNOWN_CAP = 4096


def made(event: tuple[Any, ...], line: str | None = None) -> tuple[Any, ...]:
    """A special kind's event as its line (``line``, or its kind's) made now: :func:`lines_of`
    writes it as it is."""
    return (Made(event[0].line(event) if line is None else line),)


def lines_of(events: list[tuple[Any, ...]]) -> str:
    """Told events (each of a kind with a ``template``, or :func:`made`) as log lines. When no
    text of theirs needs an escape (a quote, a backslash, a control or non-ASCII character), one
    ``%`` format of their templates writes them all; else each kind's :meth:`EventKind.line`.
    The values met before (most of a game's: its ids and small numbers) are not looked into
    again."""
    try:
        values = tuple(chain.from_iterable(map(_values, events)))
        if not _KNOWN.issuperset(values):
            new = set(values).difference(_KNOWN)
            if _ESCAPED.search("".join([value for value in new if isinstance(value, str)])) is not None:
                return "".join([event[0].line(event) for event in events])
            if len(_KNOWN) + len(new) > _KNOWN_CAP:
                _KNOWN.clear()
            _KNOWN.update(new)
        return "".join(map(_template, map(_kind, events))) % values
    except TypeError:  # a value not hashed or not formatted as its slot says: each event's own line
        pass
    return "".join([event[0].line(event) for event in events])


def tellers(sink: Any) -> tuple[Callable[[tuple[Any, ...]], None], Callable[[tuple[Any, ...]], None]]:
    """How a game tells ``sink`` its events: ``(tell, tell_last)``, ``tell_last`` for a game's last
    event (``end``), ``tell`` for every other. A sink that reads tuples has ``told_tuple(event)``;
    if its ``told_list()`` gives a list, ``tell`` appends to it (no call into the sink: it reads
    the list when next told an event). A sink without ``told_tuple`` is given each event as a
    dict, by its ``emit``."""
    told = getattr(sink, "told_tuple", None)
    if told is None:
        emit = sink.emit

        def tell(event: tuple[Any, ...]) -> None:
            emit(event[0].event(event))

        return tell, tell
    listing = getattr(sink, "told_list", None)
    listed = listing() if listing is not None else None
    return (told if listed is None else listed.append), told
