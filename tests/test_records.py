"""The effect language's records (targui_dsl/effects/records.py) behave as the frozen dataclasses they
replaced: fields in order, defaults and default factories, value equality and hash, immutability,
copies, and the same refusals when built wrongly."""

from __future__ import annotations

import copy
import pickle
from dataclasses import FrozenInstanceError

import pytest

from targui_dsl.effects.records import Record, field, fields_of
from targui_dsl.effects.types import Type
from targui_dsl.effects.vocabulary import Environment, Memory
from targui_dsl.games.targui.names import VOCABULARY


class Point(Record):
    x: int
    y: int = 0
    tags: dict = field(default_factory=dict)


class Point3(Point):  # the base's fields first
    z: int = 5


def test_fields_defaults_and_factories():
    assert fields_of(Point3(1)) == ("x", "y", "tags", "z") == Point3.__match_args__
    assert Point(1) == Point(1, 0, {}) == Point(x=1) == Point(1, tags={})
    assert Point(1).tags is not Point(1).tags  # a factory makes one for each record
    assert Point3(1, z=7).z == 7 and Point3(1).z == 5
    assert repr(Point(1, 2)) == "Point(x=1, y=2, tags={})"


def test_equal_by_value_hashable_immutable_and_copied_by_value():
    memory = Memory("bid", Type.PLAYER, Type.INT, 0, 0, 0, 9, "owner")
    same = Memory("bid", Type.PLAYER, Type.INT, 0, 0, 0, 9, "owner", True, "")
    assert memory == same and hash(memory) == hash(same)
    assert memory != Memory("bid", None, Type.INT, 0, 0, 0, 9, "owner")
    assert copy.deepcopy(memory) == memory and pickle.loads(pickle.dumps(memory)) == memory
    with pytest.raises(FrozenInstanceError):
        memory.low = 1  # type: ignore[misc]
    with pytest.raises(AttributeError):
        memory.other = 1  # type: ignore[attr-defined]
    environment = Environment(VOCABULARY)
    assert environment.ids == {} and environment.memory_of("bid", None) is None


@pytest.mark.parametrize("make", [lambda: Point(), lambda: Point(1, 2, {}, 4), lambda: Point(1, x=2),
                                  lambda: Point(1, w=2)])
def test_built_wrongly_is_a_type_error(make):
    with pytest.raises(TypeError):
        make()


def test_a_field_without_default_after_one_with_is_refused():
    with pytest.raises(TypeError):
        class Wrong(Record):
            a: int = 1
            b: int


def test_dataclasses_helpers_read_a_record_as_a_frozen_dataclass():
    import dataclasses

    point = Point3(1, 2)
    assert dataclasses.is_dataclass(point) and dataclasses.is_dataclass(Point3)
    assert [f.name for f in dataclasses.fields(point)] == ["x", "y", "tags", "z"]
    assert [f.default for f in dataclasses.fields(Point3)][1::2] == [0, 5]
    moved = dataclasses.replace(point, y=7, z=8)
    assert moved == Point3(1, 7, {}, 8) and type(moved) is Point3 and point.y == 2
    assert dataclasses.asdict(point) == {"x": 1, "y": 2, "tags": {}, "z": 5}
    assert dataclasses.astuple(Point(3)) == (3, 0, {})
    with pytest.raises(TypeError):
        dataclasses.replace(point, w=1)


class Segment(Record):
    start: int
    end: int
    length: int = field(init=False, repr=False, compare=False)  # worked out, as a dataclass's

    def __post_init__(self) -> None:
        object.__setattr__(self, "length", self.end - self.start)


def test_a_worked_out_field_is_set_after_each_construction_and_neither_compared_nor_shown():
    import dataclasses

    segment = Segment(2, 5)
    assert segment.length == 3 and repr(segment) == "Segment(start=2, end=5)"
    assert segment == Segment(end=5, start=2) and hash(segment) == hash(Segment(2, 5))
    assert dataclasses.replace(segment, end=9).length == 7 and copy.copy(segment).length == 3
    assert pickle.loads(pickle.dumps(segment)).length == 3
    assert [f.name for f in dataclasses.fields(segment)] == ["start", "end", "length"]
    with pytest.raises(ValueError):
        dataclasses.replace(segment, length=1)
    with pytest.raises(TypeError):
        Segment(1, 2, 3)
    with pytest.raises(FrozenInstanceError):
        segment.length = 4  # type: ignore[misc]
