"""targui: the board game Targui and its variants, written as data.

    from targui_dsl import load_ruleset, Game
    rs = load_ruleset("original-dutch")       # a built-in name or a path
    state = Game(rs, players=4, seed=7).new_initial_state()

Loading never raises anything but :class:`RulesetError`, which carries every
diagnostic found.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from targui_dsl.frontend.build import Report, build, load_ruleset
    from targui_dsl.frontend.diagnostics import Diagnostic, RulesetError, Span
    from targui_dsl.games.targui.compiled import CompiledRuleset
    from targui_dsl.games.targui.game import Game
    from targui_dsl.games.targui.state import GameState

# Each name is imported when first asked for: importing one module of the package (the CLI's
# `targui --help`, a worker's study) does not load the front end, the effect language and the engine.
_HOMES = {
    "Report": "targui_dsl.frontend.build",
    "build": "targui_dsl.frontend.build",
    "load_ruleset": "targui_dsl.frontend.build",
    "Diagnostic": "targui_dsl.frontend.diagnostics",
    "RulesetError": "targui_dsl.frontend.diagnostics",
    "Span": "targui_dsl.frontend.diagnostics",
    "CompiledRuleset": "targui_dsl.games.targui.compiled",
    "Game": "targui_dsl.games.targui.game",
    "GameState": "targui_dsl.games.targui.state",
}

__all__ = ["CompiledRuleset", "Diagnostic", "Game", "GameState", "Report", "RulesetError", "Span", "build",
           "load_ruleset"]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'targui_dsl' has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value  # asked once
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
