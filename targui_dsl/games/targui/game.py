"""``Game``: one ruleset, a number of players and their tribes, a seed; it starts games.

Its tables are :class:`~targui_dsl.games.targui.tables.GameTables`; it is
defined next to the state it starts (:mod:`.state`), so that neither module
imports the other back, and named here, where the toolkit imports it from.
"""

from __future__ import annotations

from targui_dsl.games.targui.state import Game

__all__ = ["Game"]
