"""Values that may differ by seat (``setup.cash``, ``setup.camels``).

A ruleset writes one number for every seat, a list (one number per seat,
seat 1 first), or a formula of the effect language over ``seat`` (1-based)
that is worked out when the ruleset is built. This module turns any of the
three into one number per seat; the checker (list lengths, the camel box)
and the build (formula diagnostics, the compiled tables) both use it.
"""

from __future__ import annotations

from typing import Any, Callable

from targui_dsl.effects import compile_formula
from targui_dsl.effects.code import CompiledCode
from targui_dsl.effects.runtime import MAX_BITS, MAX_VALUE, EffectBudgetExceeded, EffectValueTooLarge
from targui_dsl.frontend.diagnostics import Diagnostic, Span
from targui_dsl.games.targui.names import SEAT_PARAMS, environment

#: The settings that may differ by seat, as paths in the ruleset.
PER_SEAT = (("setup", "cash"), ("setup", "camels"))

#: What a per-seat formula may name: `seat`, and no game state.
SEAT_ENV = environment({}, {}, SEAT_PARAMS, only_params=True)


def compile_seat_formula(
    source: str, locate: Callable[[int], Span] | None = None
) -> tuple[CompiledCode | None, list[Diagnostic]]:
    return compile_formula(source, SEAT_ENV, locate)


def evaluate(code: CompiledCode, seats: int) -> tuple[tuple[int, ...] | None, str | None]:
    """The formula's value for seats 1..seats, or None and why not."""
    values = []
    for seat in range(1, seats + 1):
        try:
            value = code.function(None, seat)  # no game state: the formula names only `seat`
        except EffectValueTooLarge:
            return None, f"working it out for seat {seat} makes a number of more than {MAX_BITS} bits"
        except EffectBudgetExceeded:
            return None, f"working it out for seat {seat} takes too long"
        if not 0 <= value <= MAX_VALUE:
            return None, f"it gives {value} for seat {seat}; a starting value is from 0 to {MAX_VALUE}"
        values.append(value)
    return tuple(values), None


def seat_values(value: Any, seats: int) -> tuple[int, ...] | None:
    """One number per seat for seats 1..seats, or None when the setting cannot give them.

    (A list too short, a formula that does not compile or gives a value out
    of range: the checker and the build report why.)
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return (value,) * seats
    if isinstance(value, list):
        if len(value) < seats or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            return None
        return tuple(value[:seats])
    if isinstance(value, str):
        code, _ = compile_seat_formula(value)
        if code is None:
            return None
        return evaluate(code, seats)[0]
    return None
