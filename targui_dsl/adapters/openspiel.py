"""Targui as an OpenSpiel game: ``pyspiel.load_game("python_targui")``.

Importing this module registers ``python_targui`` with pyspiel (install the
extra: ``pip install 'targui[openspiel]'``, i.e. ``pip install '.[openspiel]'``
in a clone). Parameters:

* ``ruleset``: a built-in name (``targui rulesets`` lists them) or a path to a
  ruleset file; default ``original-dutch``.
* ``players``: how many seats (what the ruleset seats); default 4.
* ``again_limit``: how many times in a row a player may repeat a decision the
  game lets repeat without end (its ``RepeatRule``: in Targui an attack goes
  on ``again``); default 200. The rules put no limit on it, but OpenSpiel
  needs a finite ``max_game_length``: after ``again_limit`` repeats the only
  legal action is the one that stops (``give up``). Targui's ``greedy`` never
  starts or continues a fight longer than 200 throws either, so no bot of
  targui notices the limit.

The game is the engine's, unchanged: its integer action ids
(``num_distinct_actions``), its chance nodes as explicit chance outcomes
(``max_chance_outcomes``), its observation tensor and strings, its returns
(``1/len(winners)`` for each winner, 0 for the others: constant-sum 1). The
game type follows the compiled ruleset, as its game says (``GamePackage.adapter``):
perfect information when every seat sees everything, imperfect otherwise.
Clone, serialisation and pickling go through the engine's ``clone()`` and
``to_json()``/``from_json()``; a pyspiel state holds nothing else, and the
compiled ruleset is shared, never copied.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from targui_dsl.adapters._load import ruleset as _ruleset
from targui_dsl.engine.protocol import AdapterHooks, RepeatRule
from targui_dsl.games import game_of
from targui_dsl.games.targui.compiled import CompiledRuleset
from targui_dsl.games.targui.state import GameState

__all__ = ["SHORT_NAME", "TarguiGame", "TarguiState", "TarguiObserver", "TarguiBot", "max_game_length"]

SHORT_NAME = "python_targui"
DEFAULT_RULESET = "original-dutch"
DEFAULT_PLAYERS = 4
DEFAULT_AGAIN_LIMIT = 200

_PARAMETERS: dict[str, Any] = {"ruleset": DEFAULT_RULESET, "players": DEFAULT_PLAYERS,
                               "again_limit": DEFAULT_AGAIN_LIMIT}


def _game_type(information: Any, min_players: int, max_players: int) -> Any:
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="Targui (targui rules engine)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=information,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_PARAMETERS,
    )


def max_game_length(ruleset: CompiledRuleset, players: int, again_limit: int = DEFAULT_AGAIN_LIMIT) -> int:
    """An upper bound on the decisions (player actions, chance outcomes not counted) of
    one game, derived from the ruleset by its game (``GamePackage.adapter``); OpenSpiel's
    ``max_game_length``. ``again_limit``: how often a repeatable decision may be repeated."""
    return _hooks(ruleset).max_game_length(ruleset, players, again_limit)


def _hooks(ruleset: CompiledRuleset) -> AdapterHooks:
    package = game_of(ruleset)
    if package.adapter is None:
        raise ValueError(f"{package.title} cannot be played through OpenSpiel (its package gives no adapter hooks)")
    return package.adapter


class _Play:
    """What a pyspiel state holds: the engine's state and the continuations of the
    current attack. ``copy.deepcopy`` (pyspiel's clone) is the engine's ``clone``;
    pickling (pyspiel's serialisation) is the engine's ``to_json``."""

    __slots__ = ("state", "again", "limit", "ref", "repeat")

    def __init__(self, state: GameState, again: int, limit: int, ref: str, repeat: RepeatRule | None = None) -> None:
        self.state, self.again, self.limit, self.ref = state, again, limit, ref
        # the game's repeatable decision: given by the game (pyspiel makes a new state for every clone),
        # else looked up
        self.repeat = repeat if repeat is not None else _hooks(state.game.ruleset).repeat

    def __deepcopy__(self, memo: dict[int, Any]) -> "_Play":
        return _Play(self.state.clone(), self.again, self.limit, self.ref, self.repeat)

    def __reduce__(self) -> tuple[Any, tuple[str, dict[str, Any], int, int]]:
        return _restore, (self.ref, self.state.to_json(), self.again, self.limit)


def _restore(ref: str, data: dict[str, Any], again: int, limit: int) -> _Play:
    return _Play(GameState.from_json(_ruleset(ref), data), again, limit, ref)


class TarguiGame(pyspiel.Game):
    """One ruleset and number of players, as an OpenSpiel game."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_PARAMETERS, **(params or {})}
        ref, players, limit = str(params["ruleset"]), int(params["players"]), int(params["again_limit"])
        if limit < 0:
            raise ValueError(f"again_limit must be 0 or more, not {limit}")
        ruleset = _ruleset(ref)
        # ValueError: a player count the ruleset cannot seat
        engine_game = game_of(ruleset).new_game(ruleset, players=players, explicit_chance=True)
        information = (pyspiel.GameType.Information.PERFECT_INFORMATION if _hooks(ruleset).perfect_information(ruleset)
                       else pyspiel.GameType.Information.IMPERFECT_INFORMATION)
        counts = ruleset.player_counts
        info = pyspiel.GameInfo(
            num_distinct_actions=engine_game.num_distinct_actions(),
            max_chance_outcomes=engine_game.max_chance_outcomes(),
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=max_game_length(ruleset, players, limit),
        )
        super().__init__(_game_type(information, min(counts), max(counts)), info,
                         {"ruleset": ref, "players": players, "again_limit": limit})
        self.ruleset_ref = ref
        self.again_limit = limit
        self.engine_game = engine_game
        self.repeat = _hooks(ruleset).repeat
        self._initial = engine_game.new_initial_state()

    @property
    def ruleset(self) -> CompiledRuleset:
        return self.engine_game.ruleset

    def new_initial_state(self) -> "TarguiState":
        return TarguiState(self, _Play(self._initial.clone(), 0, self.again_limit, self.ruleset_ref, self.repeat))

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> "TarguiObserver":
        return TarguiObserver(self, iig_obs_type, params)


class TarguiState(pyspiel.State):
    """A game in progress: the engine's :class:`GameState`, as ``state.engine``."""

    def __init__(self, game: TarguiGame, play: _Play) -> None:
        super().__init__(game)
        self._play = play  # the only attribute: pyspiel clones and pickles what it holds

    @property
    def engine(self) -> GameState:
        """The engine's state (read it; apply actions through this pyspiel state)."""
        return self._play.state

    def current_player(self) -> int:
        return self._play.state.current_player()  # CHANCE -1 and TERMINAL -4 are OpenSpiel's values

    def _legal_actions(self, player: int) -> list[int]:
        play = self._play
        repeat = play.repeat
        if repeat is not None and play.again >= play.limit and repeat.asks(play.state):
            return [repeat.stop]
        return play.state.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._play.state.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        play = self._play
        state = play.state
        repeat = play.repeat
        if repeat is not None and action == repeat.again and repeat.asks(state):
            if play.again >= play.limit:
                raise ValueError(f"`{state.action_to_string(repeat.again)}` may be chosen {play.limit} times in a "
                                 f"row (again_limit): `{state.action_to_string(repeat.stop)}` now")
            play.again += 1
        state.apply_action(int(action))
        if play.again and repeat is not None and not repeat.within(state):
            play.again = 0

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> "TarguiState":
        """A state ``player_id`` cannot tell from this one (the engine's
        ``resample_from_infostate``, seeded from OpenSpiel's sampler), for OpenSpiel's ISMCTSBot."""
        play = self._play
        rng = random.Random(int(probability_sampler() * 2**53))
        sample = play.state.resample_from_infostate(player_id, rng)
        return TarguiState(self.get_game(), _Play(sample, play.again, play.limit, play.ref, play.repeat))

    def _action_to_string(self, player: int, action: int) -> str:
        return self._play.state.action_to_string(action)

    def is_terminal(self) -> bool:
        return self._play.state.is_terminal()

    def returns(self) -> list[float]:
        return self._play.state.returns()

    def rewards(self) -> list[float]:
        return self._play.state.rewards()

    def __str__(self) -> str:
        state = self._play.state
        return f"{state}\n{state.phase_name} player {state.current_player()} again {self._play.again}"


class TarguiObserver:
    """OpenSpiel's observer (``make_py_observer``): the engine's observation tensor and
    string for the default observation type (public information plus the seat's own
    secrets, no recall), and the engine's information state string (everything the seat
    has seen, step by step) for ``perfect_recall``. Other observation types are refused."""

    def __init__(self, game: TarguiGame, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        recall = False
        if iig_obs_type is not None:
            recall = bool(iig_obs_type.perfect_recall)
            if not iig_obs_type.public_info or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
                raise ValueError("targui observes public information and the seat's own secrets only")
        self._recall = recall
        if recall:
            self.tensor = None
            self.dict: dict[str, np.ndarray] = {}
        else:
            self.tensor = np.zeros(game.engine_game.observation_tensor_shape(), np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state: TarguiState, player: int) -> None:
        if self.tensor is not None:
            self.tensor[:] = state.engine.observation_tensor(player)

    def string_from(self, state: TarguiState, player: int) -> str:
        if self._recall:
            return state.engine.information_state_string(player)
        return state.engine.observation_string(player)


class TarguiBot(pyspiel.Bot):
    """A targui bot (``make_agent(spelling, seed)``) as an OpenSpiel bot: it decides from
    its seat's observation (``state.engine.observation(seat)``), never from the true state."""

    def __init__(self, spelling: str, seed: int = 0) -> None:
        from targui_dsl.agents import make_agent

        super().__init__()
        self.spelling = spelling
        self._agent = make_agent(spelling, seed)

    def step(self, state: TarguiState) -> int:
        engine = state.engine
        seat = engine.current_player()
        choice = self._agent.choose(engine.observation(seat), engine.legal_actions())
        # a readable action may stand for several steps: take its first, the rest is asked again
        action = engine.actions_from_text(choice)[0] if isinstance(choice, str) else int(choice)
        legal = state.legal_actions()
        return action if action in legal else legal[0]  # only `give up` past again_limit

    def restart_at(self, state: TarguiState) -> None:
        pass

    def inform_action(self, state: TarguiState, player_id: int, action: int) -> None:
        pass


# Registered as the general case; each game's own type says what its ruleset is (its
# information, its player counts).
pyspiel.register_game(_game_type(pyspiel.GameType.Information.IMPERFECT_INFORMATION, 1, 64), TarguiGame)
