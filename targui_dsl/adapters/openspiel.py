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

Serialisation and strangers' strings. pyspiel serialises a Python game's
state as a base64 *pickle* and its ``pyspiel.deserialize_game_and_state``
(and the C++ ``DeserializeState`` behind it, and ``pickle.loads``) unpickle
whatever they are given: a crafted string runs code there, before any code of
targui's is called, and pyspiel gives no hook to prevent it. So targui's
state strings are JSON instead: ``state.serialize()`` writes one, and
``game.deserialize_state(text)`` and :func:`deserialize_game_and_state` read
one without unpickling or evaluating anything (every action of its history
replayed and checked, the state checked by ``GameState.from_json``); a
pickled string given to them is refused with a ``ValueError``. Those two are
the calls to use on untrusted input. ``pyspiel.serialize_game_and_state``
and ``pickle`` still work (OpenSpiel's own tests use them) but are for
strings a process wrote itself.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import numpy as np
import pyspiel

from targui_dsl.adapters._load import ruleset as _ruleset
from targui_dsl.adapters._tensor import seat_tensor
from targui_dsl.engine.protocol import AdapterHooks, RepeatRule
from targui_dsl.games import game_of
from targui_dsl.games.targui.compiled import CompiledRuleset
from targui_dsl.games.targui.state import GameState

__all__ = ["SHORT_NAME", "TarguiGame", "TarguiState", "TarguiObserver", "TarguiBot", "max_game_length",
           "serialize_game_and_state", "deserialize_game_and_state"]

SHORT_NAME = "python_targui"
DEFAULT_RULESET = "original-dutch"
DEFAULT_PLAYERS = 4
DEFAULT_AGAIN_LIMIT = 200
MAX_AGAIN_LIMIT = 100_000  # OpenSpiel keeps parameters and max_game_length in a C++ int
_INT_MAX = 2**31 - 1
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
STATE_TEXT_CAP = 16 << 20  # a state string's size; a whole game's is well under 1 MiB

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
    pickling (pyspiel's own serialisation, through the C++ ``Serialize``) is the
    engine's ``to_json``, read back by :class:`TarguiState`'s checks."""

    __slots__ = ("state", "again", "limit", "ref", "repeat", "tensors", "mover")

    def __init__(self, state: GameState, again: int, limit: int, ref: str, repeat: RepeatRule | None = None) -> None:
        self.state, self.again, self.limit, self.ref = state, again, limit, ref
        # the game's repeatable decision: given by the game (pyspiel makes a new state for every clone),
        # else looked up
        self.repeat = repeat if repeat is not None else _hooks(state.game.ruleset).repeat
        self.tensors: list[Any] | None = None  # per seat, made when first read: a keeper of its tensor
        # the engine's current player at this node, once asked (pyspiel asks it several times a step:
        # its C++ apply_action too); forgotten by every action applied through TarguiState
        self.mover: int | None = None

    def current_player(self) -> int:
        mover = self.mover
        if mover is None:
            mover = self.mover = self.state.current_player()
        return mover

    def tensor(self, player: int, width: int) -> list[float]:
        """``player``'s observation tensor (a seat), in the list of floats its keeper brings up to
        date (the keeper's own: copy it to hand it out): only what changed since that seat's last
        reading of this state is written again. The keeper keeps no array (pyspiel reads none):
        :meth:`TarguiObserver.set_from` fills its own from the list."""
        tensors = self.tensors
        if tensors is None:
            tensors = self.tensors = [None] * self.state.game.players
        keeper = tensors[player]
        if keeper is None:
            keeper = tensors[player] = seat_tensor(self.state.game, player, width, listed=True)
        return keeper.update(self.state)

    def __deepcopy__(self, memo: dict[int, Any]) -> "_Play":
        return _Play(self.state.clone(), self.again, self.limit, self.ref, self.repeat)

    def __reduce__(self) -> tuple[Any, tuple[str, dict[str, Any], int, int]]:
        return _restore, (self.ref, self.state.to_json(), self.again, self.limit)


class _Saved:
    """A pickled :class:`_Play`, not yet trusted: it becomes one only when a
    :class:`TarguiState` of a matching game takes it (its own ruleset, never a path
    the pickle names; the state through ``GameState.from_json``)."""

    __slots__ = ("ref", "data", "again", "limit")

    def __init__(self, ref: Any, data: Any, again: Any, limit: Any) -> None:
        self.ref, self.data, self.again, self.limit = ref, data, again, limit


def _restore(ref: str, data: dict[str, Any], again: int, limit: int) -> _Saved:
    return _Saved(ref, data, again, limit)  # nothing is loaded here: see TarguiState._play


def _checked_again(game: "TarguiGame", state: GameState, again: Any) -> int:
    """The continuations of the current attack, as a saved state gives them."""
    if type(again) is not int or not 0 <= again <= game.again_limit:
        raise ValueError(f"`again` must be a whole number from 0 to {game.again_limit}, not {again!r}")
    repeat = _hooks(game.ruleset).repeat
    if again and (repeat is None or not repeat.within(state)):
        raise ValueError("`again` counts the repetitions of a repeatable decision, and none is under way")
    return again


def _engine_state(game: "TarguiGame", data: Any) -> GameState:
    """``GameState.from_json`` for this game's ruleset and seats (a ValueError naming what is wrong)."""
    if not isinstance(data, dict):
        raise ValueError("the saved state is not a JSON object")
    if data.get("players") != game.num_players() or data.get("explicit_chance") is not True:
        raise ValueError(f"the saved state is not one of this game's ({game.num_players()} players, "
                         "explicit chance)")
    try:
        # the state class of the game played (Targui's GameState, Targi's TargiState...)
        return type(game._initial).from_json(game.ruleset, data)
    except (KeyError, TypeError, IndexError, AttributeError, OverflowError, RecursionError) as err:
        raise ValueError(f"the saved state is not a targui state ({type(err).__name__}: {err})") from None


class TarguiGame(pyspiel.Game):
    """One ruleset and number of players, as an OpenSpiel game."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_PARAMETERS, **(params or {})}
        ref, players, limit = params["ruleset"], params["players"], params["again_limit"]
        if not isinstance(ref, str):
            raise ValueError(f"ruleset must be a built-in name or a path, not {ref!r}")
        for name, value in (("players", players), ("again_limit", limit)):
            if type(value) is not int:
                raise ValueError(f"{name} must be a whole number, not {value!r}")
        if not 0 <= limit <= MAX_AGAIN_LIMIT:
            raise ValueError(f"again_limit must be from 0 to {MAX_AGAIN_LIMIT}, not {limit}")
        ruleset = _ruleset(ref)
        # ValueError: a player count the ruleset cannot seat
        engine_game = game_of(ruleset).new_game(ruleset, players=players, explicit_chance=True)
        information = (pyspiel.GameType.Information.PERFECT_INFORMATION if _hooks(ruleset).perfect_information(ruleset)
                       else pyspiel.GameType.Information.IMPERFECT_INFORMATION)
        counts = ruleset.player_counts
        length = max_game_length(ruleset, players, limit)
        if length > _INT_MAX:
            raise ValueError(f"this game may last {length} decisions, more than OpenSpiel counts "
                             f"({_INT_MAX}); lower again_limit (now {limit})")
        info = pyspiel.GameInfo(
            num_distinct_actions=engine_game.num_distinct_actions(),
            max_chance_outcomes=engine_game.max_chance_outcomes(),
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=length,
        )
        super().__init__(_game_type(information, min(counts), max(counts)), info,
                         {"ruleset": ref, "players": players, "again_limit": limit})
        self.ruleset_ref = ref
        self.again_limit = limit
        self.engine_game = engine_game
        self.repeat = _hooks(ruleset).repeat
        self._initial = engine_game.new_initial_state()
        self.tensor_width = engine_game.observation_tensor_shape()[0]

    @property
    def ruleset(self) -> CompiledRuleset:
        return self.engine_game.ruleset

    def new_initial_state(self) -> "TarguiState":
        return TarguiState(self, _Play(self._initial.clone(), 0, self.again_limit, self.ruleset_ref, self.repeat))

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> "TarguiObserver":
        return TarguiObserver(self, iig_obs_type, params)

    def deserialize_state(self, text: str) -> "TarguiState":
        """A state of this game from :meth:`TarguiState.serialize`'s text, safe on untrusted
        input: nothing is unpickled or evaluated; the history's actions are replayed one by
        one, each checked legal, and must lead to the saved state (a state with no history,
        one made by ``resample_from_infostate``, is read by ``GameState.from_json``).
        ``ValueError`` for anything else, a pickled pyspiel string included."""
        if not isinstance(text, str):
            raise ValueError(f"a targui state string is text, not {type(text).__name__}")
        if len(text) > STATE_TEXT_CAP:
            raise ValueError(f"a targui state string is at most {STATE_TEXT_CAP} characters; this one has {len(text)}")
        lines = text.split("\n")
        if len(lines) == 3 and lines[2].startswith("__dict__="):
            raise ValueError("this is pyspiel's pickled state format: targui never unpickles a state string "
                             "(it could run any code); use a string from state.serialize()")
        if len(lines) != 3 or not lines[0].startswith("history=") or not lines[1].startswith("move_number=") \
                or not lines[2].startswith("targui="):
            raise ValueError("not a targui state string (three lines: history=, move_number=, targui=)")
        history = _parse_history(lines[0].removeprefix("history="))
        try:
            saved = json.loads(lines[2].removeprefix("targui="))
        except (ValueError, RecursionError):
            raise ValueError("the targui= line is not JSON") from None
        if not isinstance(saved, dict) or set(saved) != {"again", "state"}:
            raise ValueError("the targui= line must be a JSON object of `again` and `state`")
        if history:
            state = self.new_initial_state()
            for player, action in history:
                if state.is_terminal():
                    raise ValueError("the history goes on after the end of the game")
                if player != state.current_player() or action not in state.legal_actions():
                    raise ValueError(f"the history's action {player}:{action} is not legal where it stands")
                state.apply_action(action)
            reached = json.loads(json.dumps(state.engine.to_json()))  # tuples as lists, as read
            if reached != saved["state"] or state._play.again != saved["again"]:
                raise ValueError("the saved state is not where its history leads")
        else:
            engine = _engine_state(self, saved["state"])
            state = TarguiState(self, _Play(engine, _checked_again(self, engine, saved["again"]),
                                            self.again_limit, self.ruleset_ref))
        if lines[1] != f"move_number={state.move_number()}":
            raise ValueError(f"move_number must be {state.move_number()} for this history")
        return state


def _parse_history(text: str) -> list[tuple[int, int]]:
    """``p:a,p:a`` (pyspiel's spelling of a history) as pairs of small integers."""
    if not text:
        return []
    pairs = []
    for item in text.split(","):
        player, sep, action = item.partition(":")
        if not sep or not _SMALL_INT.fullmatch(player) or not _SMALL_INT.fullmatch(action):
            raise ValueError(f"history: `{item[:40]}` is not player:action")
        pairs.append((int(player), int(action)))
    return pairs


_SMALL_INT = re.compile(r"-?[0-9]{1,9}")


class TarguiState(pyspiel.State):
    """A game in progress: the engine's :class:`GameState`, as ``state.engine``."""

    def __init__(self, game: TarguiGame, play: _Play) -> None:
        super().__init__(game)
        self._play = play  # the only attribute: pyspiel clones and pickles what it holds

    _play: _Play  # a plain attribute (read at every call from C++), set only through __setattr__'s check

    def __setattr__(self, name: str, value: Any) -> None:
        # pyspiel's C++ deserialisation and clone set the attributes they unpickled or copied: a
        # pickled _Play arrives as _Saved and is checked against this state's own game first
        if name == "_play":
            value = self._checked_play(value)
        super().__setattr__(name, value)

    def _checked_play(self, play: Any) -> _Play:
        if isinstance(play, _Saved):
            game = self.get_game()
            if play.ref != game.ruleset_ref or play.limit != game.again_limit:
                raise ValueError(f"the pickled state is of python_targui(ruleset={play.ref!r}, "
                                 f"again_limit={play.limit!r}), not of {game}")
            engine = _engine_state(game, play.data)
            return _Play(engine, _checked_again(game, engine, play.again), game.again_limit, game.ruleset_ref)
        if not isinstance(play, _Play):
            raise ValueError(f"a targui state holds a _Play, not {type(play).__name__}")
        return play

    def serialize(self) -> str:
        """The state as text for :meth:`TarguiGame.deserialize_state` (pyspiel's ``history=`` and
        ``move_number=`` lines, then ``targui=`` and the engine's JSON): no pickle in it."""
        history = ",".join(f"{p}:{a}" for p, a in ((item.player, item.action) for item in self.full_history()))
        saved = {"again": self._play.again, "state": self._play.state.to_json()}
        return (f"history={history}\nmove_number={self.move_number()}\n"
                f"targui={json.dumps(saved, separators=(',', ':'), sort_keys=True)}")

    def __reduce__(self) -> tuple[Any, tuple[str, bool]]:
        # pickle.dumps(state): the game string and serialize()'s text, read back as deserialize_state reads it
        return _unpickle_state, (serialize_game_and_state(self.get_game(), self), True)

    @property
    def engine(self) -> GameState:
        """The engine's state (read it; apply actions through this pyspiel state)."""
        return self._play.state

    def current_player(self) -> int:
        return self._play.current_player()  # CHANCE -1 and TERMINAL -4 are OpenSpiel's values

    # Asked from Python, these answer as pyspiel's own State does (PyState::LegalActions,
    # State::IsChanceNode), without its trip through C++ and back into this class: two or
    # three crossings, each as costly as a whole step of the engine. C++ callers still take
    # pyspiel's path, which ends in the same methods.
    def legal_actions(self, *args: Any, **kwargs: Any) -> list[int]:
        if kwargs or len(args) > 1 or (args and type(args[0]) is not int):
            return pyspiel.State.legal_actions(self, *args, **kwargs)  # what pyspiel makes of it
        play = self._play
        mover = play.mover
        if mover is None:
            mover = play.current_player()
        if mover == _TERMINAL:
            return []
        if mover == _CHANCE:  # (whichever player is named, as pyspiel answers)
            return [outcome for outcome, _ in play.state.chance_outcomes()]
        player = args[0] if args else mover
        if player == mover:
            return self._legal_actions(player)
        if player < 0:
            return pyspiel.State.legal_actions(self, player)  # pyspiel's error for a pseudo-player
        return []

    def is_chance_node(self) -> bool:
        return self._play.current_player() == _CHANCE

    def is_player_node(self) -> bool:
        return self._play.current_player() >= 0

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
        play.mover = None
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

    def observation_tensor(self, *args: Any) -> list[float]:
        """OpenSpiel's ``observation_tensor([player])``: the same numbers as pyspiel's own path
        (which builds the tensor afresh, and a new initial state to learn its size, at every
        call), read from the seat's array kept up to date. Anything but a seat goes to pyspiel,
        which refuses it as it always did."""
        play = self._play
        player = args[0] if args else play.current_player()
        if len(args) <= 1 and type(player) is int and 0 <= player:
            tensors = play.tensors
            if tensors is not None and player < len(tensors) and tensors[player] is not None:
                # (the common case, without asking pyspiel for the game); a copy: the caller's own list
                return tensors[player].update(play.state)[:]
            if player < play.state.game.players:
                return play.tensor(player, self.get_game().tensor_width)[:]
        return pyspiel.State.observation_tensor(self, *args)

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


_TEXT_HEADER = "# targui state, read by targui_dsl.adapters.openspiel.deserialize_game_and_state"


def serialize_game_and_state(game: TarguiGame, state: TarguiState) -> str:
    """The game and the state as one text, like ``pyspiel.serialize_game_and_state`` but
    with no pickle in it: read it back with :func:`deserialize_game_and_state`."""
    return f"{_TEXT_HEADER}\n[Game]\n{game.serialize()}\n[State]\n{state.serialize()}\n"


def deserialize_game_and_state(text: str, game: TarguiGame | None = None,
                               allow_paths: bool = False) -> tuple[TarguiGame, TarguiState]:
    """(game, state) from :func:`serialize_game_and_state`'s text; safe on untrusted input.

    The game must be a ``python_targui`` game: with ``game`` given, the text's game must
    be that one; otherwise its ruleset must be a built-in one, unless ``allow_paths`` (a
    stranger's text naming a ruleset file is refused: load the game yourself and pass it).
    The state is read by :meth:`TarguiGame.deserialize_state`. ``ValueError`` for
    anything else, pyspiel's pickled strings included."""
    from targui_dsl.frontend.resources import builtin_ruleset_names

    if not isinstance(text, str) or len(text) > STATE_TEXT_CAP + 4096:
        raise ValueError("not a targui game-and-state text (or larger than a state may be)")
    lines = text.split("\n")
    if len(lines) != 8 or lines[0] != _TEXT_HEADER or lines[1] != "[Game]" or lines[3] != "[State]" \
            or lines[7] != "":
        if "__dict__=" in text:
            raise ValueError("this is pyspiel's pickled format (serialize_game_and_state): targui never "
                             "unpickles a state string (it could run any code)")
        raise ValueError("not a targui game-and-state text (from openspiel.serialize_game_and_state)")
    try:
        params = dict(pyspiel.game_parameters_from_string(lines[2]))
    except (pyspiel.SpielError, RuntimeError, ValueError):
        raise ValueError("the [Game] line is not an OpenSpiel game string") from None
    if params.pop("name", None) != SHORT_NAME or not set(params) <= set(_PARAMETERS):
        raise ValueError(f"the [Game] line must name {SHORT_NAME} and only its parameters "
                         f"({', '.join(_PARAMETERS)})")
    if game is not None:
        if {**_PARAMETERS, **params} != {**_PARAMETERS, **game.get_parameters()}:
            raise ValueError(f"the text is a state of {lines[2]}, not of {game}")
    else:
        ref = params.get("ruleset", DEFAULT_RULESET)
        if not allow_paths and ref not in builtin_ruleset_names():
            raise ValueError(f"the text names the ruleset {str(ref)[:80]!r}, which is not a built-in one: "
                             "load that game yourself and pass it as `game`")
        game = TarguiGame(params)
    return game, game.deserialize_state("\n".join(lines[4:7]))


def _unpickle_state(text: str, allow_paths: bool) -> TarguiState:
    return deserialize_game_and_state(text, allow_paths=allow_paths)[1]


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
            if type(player) is int and 0 <= player < state.engine.game.players:
                self.tensor[:] = state._play.tensor(player, len(self.tensor))  # from the state's kept list
                return
            fill = getattr(state.engine, "observation_into", None)  # a game's faster verb, when it has one
            if fill is not None:
                fill(player, self.tensor)
            else:
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
        self.spelling, self._seed = spelling, seed
        self._agent = make_agent(spelling, seed)
        self._game = game_of(None).name  # the bot's game: made again for another game's state

    def step(self, state: TarguiState) -> int:
        from targui_dsl.agents import make_agent

        engine = state.engine
        game = game_of(engine.game.ruleset).name
        if game != self._game:
            self._agent, self._game = make_agent(self.spelling, self._seed, game), game
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
