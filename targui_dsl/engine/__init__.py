"""The game engine: an OpenSpiel-like state over a CompiledRuleset.

    from targui_dsl import load_ruleset
    from targui_dsl.engine import Game
    state = Game(load_ruleset("original-dutch"), players=4, seed=7).new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    state.returns(), state.winners(), state.to_json()

See ``docs/engine.md``.
"""

from .actions import Action, IllegalAction, parse_action
from .flow import CHANCE, TERMINAL
from .game import Game
from .log import LOG_FORMAT, EventLog, Narrator, ReplayMismatch, attach_log, read_log, replay
from .state import STATE_FORMAT, GameState

__all__ = [
    "Action", "CHANCE", "EventLog", "Game", "GameState", "IllegalAction", "LOG_FORMAT", "Narrator", "ReplayMismatch",
    "STATE_FORMAT", "TERMINAL", "attach_log", "parse_action", "read_log", "replay",
]
