"""The built-in rulesets for the engine tests, and short helpers to reach a position.

Every engine test plays the real rulesets: a built-in ruleset that does not
load fails the test that asks for it (no fallback). Positions are arranged
with the engine's own :class:`~targui_dsl.engine.PositionEditor`.
"""

from __future__ import annotations

from functools import lru_cache

from targui_dsl import load_ruleset
from targui_dsl.games.targui.compiled import CompiledRuleset
from targui_dsl.games.targui.game import Game
from targui_dsl.games.targui.state import GameState

REAL_VARIANTS = ("original-dutch", "swedish-12", "updated-treasury")


@lru_cache(maxsize=None)
def any_ruleset(name: str) -> CompiledRuleset:
    """A built-in ruleset, loaded through the whole front end (raises if it does not load)."""
    return load_ruleset(name)


def put(state: GameState, position: int, kind: str | None = None, owner: int | None = None,
        camels: int | None = None, unowned: bool = False) -> int:
    """Arrange one cell (see PositionEditor.put); returns its cell index."""
    return state.edit().put(position, kind=kind, owner=owner, camels=camels, unowned=unowned)


def settled_state(ruleset: CompiledRuleset, players: int = 4, seed: int = 1, explicit_chance: bool = True) -> GameState:
    """A state just after setup, stopped at the first round's die (explicit chance): seats take
    the sectors in order and settle on their lowest allowed position number."""
    state = Game(ruleset, players=players, seed=seed, explicit_chance=explicit_chance).new_initial_state()
    game = state.game
    while state.round == 0:
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        elif state.phase_name == "settle":
            cells = state.settle_cells()
            state.apply_action(f"settle {min(game.position_of_cell[c] for c in cells)}")
        else:
            state.apply_action(state.legal_actions()[0])
    return state


def start_turn(state: GameState, seat: int, double: bool = False) -> GameState:
    """From a round-die chance node: roll a small die and reveal ``seat``'s tribal card."""
    state.apply_action(f"die {state.game.ruleset.double_turn_from if double else 1}")
    state.apply_action(f"turn {state.game.tribe_ids[seat]}")
    return state


TURN_PHASES = ("deposit", "move", "move_count", "buy_cell", "buy_count")


def pass_turn(state: GameState) -> None:
    """Pass every phase of the current player's turn (both halves of a double turn)."""
    seat = state.current_player()
    while state.current_player() == seat and state.phase_name in TURN_PHASES:
        state.apply_action("pass")


def finish_round(state: GameState) -> None:
    """Reveal the rest of the round stack in a fixed order (tribal cards first, by seat), every
    player passing, until the round ends. Explicit-chance states only."""
    start = state.round
    while state.round == start and not state.is_terminal():
        if state.phase_name == "reveal":
            state.apply_action(state.chance_outcomes()[0][0])
        elif state.phase_name in TURN_PHASES:
            pass_turn(state)
        else:
            raise AssertionError(f"finish_round stopped at {state.phase_name}")
