"""Targi's own diagnostic codes (E0420-E0427, raised by check.py), with what each means.

The shared stages' codes are in :mod:`targui_dsl.frontend.codes`; ``docs/diagnostics.md``
is tested against every game's.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

CODES: Mapping[str, str] = MappingProxyType({
    "E0420": "a tribe card whose symbol is not one of `symbols`",
    "E0421": "a cost, a gift or a take in something that is not a good, gold or points",
    "E0422": "the border ring is not numbered 1..n, or a pair, `robber_start` names a card not on it",
    "E0423": "a row bonus for a row length other than the display's width",
    "E0424": "a deck that cannot fill the centre (or an empty deck)",
    "E0425": "two cards share an id",
    "E0426": "a good or symbol id that clashes with another or with an effect-language name",
    "E0427": "`end_display` larger than the display holds",
})
