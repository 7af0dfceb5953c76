"""Where a game's kept observation tensor (``AdapterHooks.tensor``) writes its numbers: a
float32 vector written in place, or with ``listed`` a list of floats instead (OpenSpiel's form:
listing a whole array costs a float object per number, and pyspiel never reads the array, so
the array is not kept as well: whoever wants one fills it from the list). Each game's keeper
subclasses :class:`KeptTensor` and decides what to write; how a number is written lives here."""

from __future__ import annotations

from array import array
from functools import partial
from itertools import compress
from operator import ne, setitem
from typing import Any, Final, Sequence

from targui_dsl.engine.native import compiled

__all__ = ["KeptTensor", "changed", "changed_items"]

#: Whether this module runs compiled (the compiled build, setup.py).
COMPILED: Final = compiled(__file__)


def changed(now: list[int], kept: list[int]) -> list[int]:
    """The places where ``now`` differs from ``kept`` (two lists of one length), in order."""
    if COMPILED:  # a loop mypyc turns into C (the map below costs it a Python comparison per place)
        places: list[int] = []
        for place in range(len(now)):
            if now[place] != kept[place]:
                places.append(place)
        return places
    return list(compress(range(len(now)), map(ne, now, kept)))  # the loop in C, for the interpreter


def changed_items(now: Sequence[object], kept: Sequence[object]) -> list[int]:
    """:func:`changed` for lists of anything (tuples, say), the loop in C either way."""
    return list(compress(range(len(now)), map(ne, now, kept)))


class KeptTensor:
    """``seat``'s tensor in ``out``, or with ``listed`` in the list :attr:`listed` alone (``out``
    then only a scratch the keeper may fill and read back: whoever wants an array fills one from
    the list): :attr:`_put` writes one number, :meth:`_write` a run. :attr:`kept` is what the
    keeper keeps (the array, or the list), what ``update`` returns."""

    __slots__ = ("seat", "out", "listed", "kept", "_mv", "_bytes", "_put", "_exact")

    def __init__(self, seat: int, out: Any, listed: bool, exact: bool = False) -> None:
        self.seat, self.out = seat, out
        # the list (of the array's length, the same list for the keeper's life: a caller may hold it)
        self.listed: list[float] | None = [0.0] * len(out) if listed else None
        self.kept: Any = out if self.listed is None else self.listed
        # exact: every number the keeper writes is one float32 holds exactly (a whole number below 2**24),
        # so a float given goes into the list as it is, not rounded to a float32 first
        self._exact = exact
        self._mv = memoryview(out).cast("B").cast("f")  # one number written costs ~30 ns this way
        if len(self._mv) != len(out):
            raise ValueError("a SeatTensor writes into a float32 vector")
        self._bytes = memoryview(out).cast("B")  # the same numbers as bytes (for _write_bytes)
        # one number written: straight into the array or the list (a C call), or through _set to round it;
        # setitem bound by partial, not the vector's __setitem__ (a slot wrapper: a tuple made per call)
        self._put: Any = (partial(setitem, self._mv) if self.listed is None else
                          partial(setitem, self.listed) if exact else self._set)

    def _set(self, at: int, value: float) -> None:
        """One number into the list, as a float32 holds it (the list of a keeper that is not exact):
        through the array, here a scratch (a memoryview's float is read in C; an array's through getargs)."""
        mv = self._mv
        mv[at] = value
        self.listed[at] = mv[at]  # type: ignore[index]

    def _write(self, at: int, values: Sequence[float] | array[float], floats: list[float] | None = None) -> None:
        """``values`` from ``at`` on; ``floats``: the same numbers as a list of floats, for the list
        (when the keeper is exact: an exact keeper's ``values`` given as a list are floats already)."""
        if not values:
            return
        end, listed = at + len(values), self.listed
        if listed is None:
            self._mv[at:end] = values if isinstance(values, array) else array("f", values)
        elif not self._exact:  # (rounded to float32s, as the array would hold them)
            listed[at:end] = (values if isinstance(values, array) else array("f", values)).tolist()
        elif floats is not None:
            listed[at:end] = floats
        else:
            listed[at:end] = values.tolist() if isinstance(values, array) else values

    def _write_bytes(self, at: int, data: bytes) -> None:
        """A run of numbers from their float32 bytes (``array("f", ...).tobytes()``, say, joined in C)."""
        end = at + len(data) // 4
        listed = self.listed
        if listed is None:
            self._bytes[4 * at:4 * end] = data
        else:
            listed[at:end] = array("f", data).tolist()
