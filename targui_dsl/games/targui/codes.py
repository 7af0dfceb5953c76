"""Targui's own diagnostic codes (E04xx, raised by check.py and build.py), with what each means.

The shared stages' codes are in :mod:`targui_dsl.frontend.codes`; ``docs/diagnostics.md``
is tested against both (tests/test_docs_diagnostics.py).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

CODES: Mapping[str, str] = MappingProxyType({
    "E0401": "a territory kind that does not exist (`turn.no_buying_on`)",
    "E0402": "two tribes share a colour",
    "E0403": "the deck names a card that does not exist, names one twice, or is empty",
    "E0404": "two cards share a number",
    "E0405": "the territory cards do not fill the board",
    "E0406": "settlements: not exactly one settlement kind, or not one per tribe",
    "E0407": "the board numbering has the wrong shape or is not 1..rows*columns",
    "E0408": "sectors overlap (or repeat a position)",
    "E0409": "a position that is not on the board",
    "E0410": "the double-turn threshold and the tribal cards do not fit the die",
    "E0411": "the players cannot be seated as the seating rules say",
    "E0412": "two kinds fixed to one position",
    "E0413": "(mis)fortune cards per round below 1 (or more than the deck holds)",
    "E0414": "a kind or tribe id that clashes with another id or an effect-language name",
    "E0415": "a fixed-position kind that is not exactly one card, or a fixed settlement",
    "E0416": "the camel box cannot give every player the starting camels",
    "E0417": "a playable ruleset that inherits its parent's id (warning)",
    "E0418": "a card this file defines (writes its `number`) that the deck never names (warning)",
    "E0419": "a value per seat that cannot be one: a list shorter than the tribes, a formula out of range",
    "E0428": "a hook that can ask more than 10,000 choices in a game (warning)",
})
