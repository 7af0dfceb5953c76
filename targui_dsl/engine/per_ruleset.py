"""What a module works out once per ruleset: made on first use, then looked up.

A compiled ruleset never changes, so what depends on it alone (a table of its cards, the texts of
its border cards) is made once. Each entry is kept by the ruleset's ``id`` together with the ruleset
itself, so that the id cannot be reused by another ruleset while the entry stands.
"""

from __future__ import annotations

from typing import Any, Callable, TypeVar

__all__ = ["per_ruleset"]

T = TypeVar("T")


def per_ruleset(make: Callable[[Any], T], cap: int = 16) -> Callable[[Any], T]:
    """A function of a ruleset giving ``make(ruleset)``, made once per ruleset object. At most ``cap``
    rulesets are kept; one more forgets them all (a game meets one or two; a process that loads
    many, such as the tests or a comparison of house rules, must not keep them all)."""
    kept: dict[int, tuple[Any, T]] = {}

    def of(ruleset: Any) -> T:
        entry = kept.get(id(ruleset))
        if entry is None or entry[0] is not ruleset:
            if len(kept) >= cap:
                kept.clear()
            entry = kept[id(ruleset)] = (ruleset, make(ruleset))
        return entry[1]

    return of
