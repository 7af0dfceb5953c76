"""Where a game's kept observation tensor (``AdapterHooks.tensor``) writes its numbers: a
float32 vector written in place, and with ``listed`` a list of floats kept in step with it
(OpenSpiel's form: listing a whole array costs a float object per number). Each game's keeper
subclasses :class:`KeptTensor` and decides what to write; how a number is written lives here."""

from __future__ import annotations

from array import array
from itertools import compress
from operator import ne
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
    """``seat``'s tensor in ``out``: :attr:`_put` writes one number, :meth:`_write` a run."""

    __slots__ = ("seat", "out", "listed", "_mv", "_bytes", "_put", "_exact")

    def __init__(self, seat: int, out: Any, listed: bool, exact: bool = False) -> None:
        self.seat, self.out = seat, out
        self.listed: list[float] | None = [] if listed else None
        # exact: every number the keeper writes is one float32 holds exactly (a whole number below 2**24),
        # so a list of floats given to _write goes into the list as it is, not read back from the array
        self._exact = exact
        self._mv = memoryview(out).cast("B").cast("f")  # one number written costs ~30 ns this way
        if len(self._mv) != len(out):
            raise ValueError("a SeatTensor writes into a float32 vector")
        self._bytes = memoryview(out).cast("B")  # the same numbers as bytes (for _write_bytes)
        # one number written: straight into the array (a C call), or through _set to keep the list too
        self._put: Any = self._mv.__setitem__ if self.listed is None else self._set

    def _set(self, at: int, value: float) -> None:
        mv = self._mv
        mv[at] = value
        listed = self.listed
        if listed is not None:
            listed[at] = mv[at]  # the float32 read back: the number the array holds

    def _write(self, at: int, values: Sequence[float] | array[float], floats: list[float] | None = None) -> None:
        """``values`` from ``at`` on; ``floats``: the same numbers as a list of floats, for the list
        (when the keeper is exact), which then need not be read back from the array."""
        if not values:
            return
        end, mv = at + len(values), self._mv
        mv[at:end] = values if isinstance(values, array) else array("f", values)
        listed = self.listed
        if listed is not None:
            if len(listed) < len(mv):  # (before the first whole reading fills it)
                listed = self.listed = [0.0] * len(mv)
            if floats is None and self._exact and isinstance(values, list):
                floats = values
            # the float32s read back (the numbers the array holds) unless they are the floats given
            listed[at:end] = floats if floats is not None and self._exact else mv[at:end].tolist()

    def _write_bytes(self, at: int, data: bytes) -> None:
        """A run of numbers from their float32 bytes (``array("f", ...).tobytes()``, say, joined in C)."""
        end = at + len(data) // 4
        self._bytes[4 * at:4 * end] = data
        listed = self.listed
        if listed is not None:
            if len(listed) < len(self._mv):  # (before the first whole reading fills it)
                listed = self.listed = [0.0] * len(self._mv)
            listed[at:end] = self._mv[at:end].tolist()
