"""The game engine: an OpenSpiel-like state over a CompiledRuleset.

    from targui_dsl import load_ruleset
    from targui_dsl.engine import Game
    game = Game(load_ruleset("original-dutch"), players=4, seed=7)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])      # integer action ids
    state.returns(), state.winners(), state.to_json()

See ``docs/engine.md``.
"""

from .actions import ActionSpace, IllegalAction
from .game import Game
from .log import LOG_FORMAT, EventLog, Narrator, ReplayMismatch, attach_log, read_log, replay
from .loop import Player, play
from .observation import Observation
from .phases import CHANCE, TERMINAL, Phase
from .setup import PositionEditor
from .state import STATE_FORMAT, GameState

__all__ = [
    "ActionSpace", "CHANCE", "EventLog", "Game", "GameState", "IllegalAction", "LOG_FORMAT", "Narrator", "Observation",
    "Phase", "Player", "PositionEditor", "ReplayMismatch", "STATE_FORMAT", "TERMINAL", "attach_log", "play",
    "read_log", "replay",
]
