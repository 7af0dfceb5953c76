"""targui: the board game Targui and its variants, written as data.

    from targui_dsl import load_ruleset, Game
    rs = load_ruleset("updated-treasury")     # a built-in name or a path
    state = Game(rs, players=4, seed=7).new_initial_state()

Loading never raises anything but :class:`RulesetError`, which carries every
diagnostic found.
"""

from .build import Report, build, load_ruleset
from .compiled import CompiledRuleset
from .diagnostics import Diagnostic, RulesetError, Span
from .engine import Game, GameState

__all__ = ["CompiledRuleset", "Diagnostic", "Game", "GameState", "Report", "RulesetError", "Span", "build", "load_ruleset"]
