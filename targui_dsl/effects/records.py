"""Frozen records with slots, made without generating code.

``class Pos(Record): line: int; ...`` is what ``@dataclass(frozen=True, slots=True)`` made: the
fields are the annotations (a base's first), set once at construction by position or by name,
with defaults written in the class body (``= value``, or ``= field(default_factory=dict)``), and
values worked out from them (``= field(init=False, repr=False, compare=False)``, set by the class's
``__post_init__``, which runs after every construction, with ``object.__setattr__``);
records are compared, hashed and shown by value, copied and pickled through their constructor,
and matched by position. dataclasses writes the source of five functions for each class and
compiles it at every start: for the effect language's 45 classes that was a seventh of
`targui validate`. Here one shared ``__init__`` sets each slot through its descriptor (no slower
than the generated one). Type checkers read a record as a frozen dataclass (``dataclass_transform``),
and so do ``dataclasses.fields``, ``replace``, ``asdict`` and ``is_dataclass``: a record describes its
fields as a dataclass does (``__dataclass_fields__``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import MISSING, Field, FrozenInstanceError, field
from typing import TYPE_CHECKING, Any, Callable, ClassVar

if TYPE_CHECKING:
    from typing_extensions import dataclass_transform
else:  # only type checkers read it (typing has it from Python 3.11 on)

    def dataclass_transform(**_: object) -> Callable[[type], type]:
        return lambda cls: cls

__all__ = ["Record", "fields_of", "field"]

_NONE: Any = object()  # a field without a default


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
class _RecordType(type):
    """Makes each class a frozen record of its annotated fields."""

    _fields: tuple[str, ...]
    _defaults: tuple[Any, ...]  # per field: _NONE, a value, or a Field whose factory makes one
    _setters: tuple[Callable[[Any, Any], None], ...]
    _post_init: Callable[[Any], None] | None  # the class's __post_init__, if it has one
    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    def __new__(mcs, name: str, bases: tuple[type, ...], namespace: dict[str, Any]) -> _RecordType:
        annotated = tuple(f for f, kind in namespace.get("__annotations__", {}).items()
                          if not str(kind).startswith(("ClassVar", "typing.ClassVar")))
        worked_out = tuple(f for f in annotated if _worked_out(name, f, namespace.get(f)))
        for f in worked_out:
            del namespace[f]
        own = tuple(f for f in annotated if f not in worked_out)
        defaults = [_default(name, f, namespace.pop(f, _NONE)) for f in own]
        fields = tuple(f for base in bases for f in getattr(base, "_fields", ())) + own
        defaults = [d for base in bases for d in getattr(base, "_defaults", ())] + defaults
        for f, before, this in zip(fields[1:], defaults, defaults[1:], strict=False):  # pairs in a row
            if before is not _NONE and this is _NONE:
                raise TypeError(f"{name}: field {f!r} without a default follows one with a default")
        described = {name: f for base in bases for name, f in getattr(base, "__dataclass_fields__", {}).items()}
        annotations = namespace.get("__annotations__", {})
        for f, default in zip(own, defaults[len(defaults) - len(own):], strict=True):
            described[f] = _described(f, annotations[f], default)
        for f in worked_out:
            described[f] = _described(f, annotations[f], field(init=False, repr=False, compare=False))
        namespace.update(__slots__=own + worked_out, __match_args__=fields, _fields=fields,
                         _defaults=tuple(defaults), __dataclass_fields__=described)
        cls = super().__new__(mcs, name, bases, namespace)
        cls._post_init = getattr(cls, "__post_init__", None)
        # each slot's own descriptor, found in the class that declares it: the fastest way to set it
        cls._setters = tuple(next(k.__dict__[f] for k in cls.__mro__ if f in k.__dict__).__set__ for f in fields)
        return cls


def _worked_out(cls: str, name: str, value: Any) -> bool:
    """Whether the field is a value worked out by ``__post_init__``, not given to the constructor."""
    if not isinstance(value, Field) or value.init:
        return False
    if value.repr or value.compare or value.default is not MISSING or value.default_factory is not MISSING:
        raise TypeError(f"{cls}.{name}: a worked-out field is field(init=False, repr=False, compare=False)")
    return True


def _described(name: str, kind: Any, default: Any) -> Field[Any]:
    """The field as dataclasses describes one (what ``fields`` and ``replace`` read)."""
    if default is _NONE:
        described: Field[Any] = field()
    elif isinstance(default, Field) and not default.init:
        described = default
    elif isinstance(default, Field):
        described = field(default_factory=default.default_factory)
    else:
        described = field(default=default)
    described.name, described.type = name, kind
    described._field_type = dataclasses._FIELD  # type: ignore[attr-defined]  # a field, not a ClassVar
    return described


def _default(cls: str, name: str, value: Any) -> Any:
    if isinstance(value, Field):
        if value.default is MISSING and value.default_factory is MISSING:
            return _NONE
        if not (value.init and value.repr and value.compare and value.hash is None and not value.metadata):
            raise TypeError(f"{cls}.{name}: a record's field() takes a default or a default_factory, nothing else")
        return value.default if value.default_factory is MISSING else value
    return value


class Record(metaclass=_RecordType):
    """What every record shares: construction, equality, hash, repr, copying."""

    def __init__(self, *values: Any, **named: Any) -> None:
        cls = type(self)
        if named or len(values) != len(cls._fields):
            values = _complete(cls, values, named)
        for set_value, value in zip(cls._setters, values, strict=True):
            set_value(self, value)
        if cls._post_init is not None:
            cls._post_init(self)

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in type(self)._fields)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Record)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in type(self)._fields)
        return f"{type(self).__qualname__}({shown})"

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:  # copy and pickle by value, through __init__
        return type(self), self._values()


def _complete(cls: _RecordType, values: tuple[Any, ...], named: dict[str, Any]) -> tuple[Any, ...]:
    """Every field's value in order: the positional ones, then the named ones, then the defaults."""
    if len(values) > len(cls._fields):
        raise TypeError(f"{cls.__name__}() takes at most {len(cls._fields)} values ({', '.join(cls._fields)}), "
                        f"not {len(values)}")
    rest = cls._fields[len(values):]
    unknown = set(named) - set(rest)
    if unknown:
        raise TypeError(f"{cls.__name__}() got unexpected or repeated fields: {', '.join(sorted(unknown))}")
    out = list(values)
    for name, default in zip(rest, cls._defaults[len(values):], strict=True):
        if name in named:
            out.append(named[name])
        elif isinstance(default, Field):
            out.append(default.default_factory())  # type: ignore[operator]  # a factory: see _default
        elif default is _NONE:
            raise TypeError(f"{cls.__name__}() is missing the field {name!r}")
        else:
            out.append(default)
    return tuple(out)


def fields_of(record: Record) -> tuple[str, ...]:
    """The names of a record's fields, in order (what ``dataclasses.fields`` gives a dataclass)."""
    return type(record)._fields
