"""targui: the board game Targui and its variants, written as data.

    from targui_dsl import load_ruleset, Game
    rs = load_ruleset("original-dutch")       # a built-in name or a path
    state = Game(rs, players=4, seed=7).new_initial_state()

Loading never raises anything but :class:`RulesetError`, which carries every
diagnostic found.
"""

from targui_dsl.frontend.build import Report, build, load_ruleset
from targui_dsl.frontend.diagnostics import Diagnostic, RulesetError, Span
from targui_dsl.games.targui.compiled import CompiledRuleset
from targui_dsl.games.targui.game import Game
from targui_dsl.games.targui.state import GameState

__all__ = [
    "CompiledRuleset",
    "Diagnostic",
    "Game",
    "GameState",
    "Report",
    "RulesetError",
    "Span",
    "build",
    "load_ruleset",
]
