"""Targui as the toolkit sees it: the hooks of :class:`~targui_dsl.engine.protocol.GamePackage`."""

from __future__ import annotations

from targui_dsl.engine.protocol import GamePackage
from targui_dsl.games.targui.drawing import DRAWING
from targui_dsl.games.targui.game import Game

PACKAGE = GamePackage(
    name="targui",
    title="Targui (Jumbo, 1988)",
    new_game=Game,
    drawing=DRAWING,
)
