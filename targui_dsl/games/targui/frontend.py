"""Targui as the front end sees it (:class:`~targui_dsl.engine.front.FrontEnd`): checking a
ruleset loads these modules and none of the engine's, bots' or drawings'."""

from __future__ import annotations

from targui_dsl.engine.front import FrontEnd
from targui_dsl.games.targui.build import assemble, compile_snippets
from targui_dsl.games.targui.check import check_meaning
from targui_dsl.games.targui.names import VOCABULARY

FRONT_END = FrontEnd(
    name="targui",
    schema="ruleset.schema.json",
    check=check_meaning,
    snippets=compile_snippets,
    build=assemble,
    vocabulary=VOCABULARY,
)
