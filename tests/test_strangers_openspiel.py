"""OpenSpiel state strings from strangers (issue 21, items 1 and 12): targui's state strings
are JSON, read back by replaying and checking, never unpickled; a pickled string (pyspiel's
own format) is refused by targui's readers; a pickle pyspiel itself reads cannot name
another ruleset or an unchecked state; again_limit is validated with a clear error."""

from __future__ import annotations

import base64
import os
import pickle
import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from targui_dsl.adapters import openspiel  # noqa: E402 - registers python_targui
from targui_dsl.games.targui.phases import Phase  # noqa: E402


class _Shell:
    """What a crafted pickle does when it is loaded: run a shell command."""

    def __init__(self, command: str) -> None:
        self.command = command

    def __reduce__(self):
        return os.system, (self.command,)


def _crafted_state(marker) -> str:
    payload = base64.b64encode(pickle.dumps({"_play": _Shell(f"touch {marker}")})).decode()
    return f"history=\nmove_number=0\n__dict__={payload}"


def _played(game, steps: int, seed: int = 1):
    state = game.new_initial_state()
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.fixture(scope="module")
def game():
    return pyspiel.load_game("python_targui", {"players": 2})


def test_a_crafted_openspiel_state_string_runs_no_code(game, tmp_path):
    marker = tmp_path / "ran"
    crafted = _crafted_state(marker)
    with pytest.raises(ValueError, match="never unpickles"):
        game.deserialize_state(crafted)
    whole = f"{openspiel._TEXT_HEADER}\n[Game]\n{game}\n[State]\n{crafted}\n"
    with pytest.raises(ValueError, match="never unpickles"):
        openspiel.deserialize_game_and_state(whole)
    pyspiel_text = f"[Meta]\nVersion: 1\n\n[Game]\n{game}\n[State]\n{crafted}\n"
    with pytest.raises(ValueError, match="pickled"):
        openspiel.deserialize_game_and_state(pyspiel_text)
    assert not marker.exists()


def test_a_state_string_has_no_pickle_in_it_and_reads_back_the_same(game):
    state = _played(game, 400)
    text = state.serialize()
    assert "__dict__" not in text and text.count("\n") == 2
    again = game.deserialize_state(text)
    assert str(again) == str(state) and again.history() == state.history()
    assert again.move_number() == state.move_number()
    assert again.legal_actions() == state.legal_actions()
    both = openspiel.serialize_game_and_state(game, state)
    other_game, other = openspiel.deserialize_game_and_state(both)
    assert str(other_game) == str(game) and str(other) == str(state)
    assert str(pickle.loads(pickle.dumps(state))) == str(state)


def test_a_resampled_state_reads_back_from_its_json(game):
    state = _played(game, 300, seed=4)
    sample = state.resample_from_infostate(state.current_player() if state.current_player() >= 0 else 0,
                                           random.Random(2).random)
    again = game.deserialize_state(sample.serialize())
    assert str(again) == str(sample)


def test_a_mid_attack_state_keeps_its_continuations(game):
    state = game.new_initial_state()
    rng = random.Random(7)
    for _ in range(20000):
        if state.engine.phase == Phase.ATTACK_CHOICE and state._play.again:
            break
        if state.is_terminal():
            state = game.new_initial_state()
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert state._play.again > 0, "no attack was continued"
    assert game.deserialize_state(state.serialize())._play.again == state._play.again


@pytest.mark.parametrize("edit, words", [
    (lambda t: t.replace("history=", "history=0:9999,", 1), "is not legal"),
    (lambda t: t.replace("history=", "history=x:y,", 1), "is not player:action"),
    (lambda t: t.replace("move_number=", "move_number=9", 1), "move_number must be"),
    (lambda t: t.replace('"again":0', '"again":5', 1), "not where its history leads"),
    (lambda t: t.replace("targui={", "targui=[", 1), "not JSON"),
    (lambda t: t.split("\n", 1)[1], "three lines"),
    (lambda t: t.replace("targui=", "targui=" + "[" * 100000, 1), "not JSON"),
])
def test_an_edited_state_string_is_refused_with_a_reason(game, edit, words):
    text = _played(game, 120).serialize()
    with pytest.raises(ValueError, match=words):
        game.deserialize_state(edit(text))


def test_a_state_without_history_is_checked_against_the_game(game):
    text = _played(game, 120).serialize()
    lines = text.split("\n")
    bare = "\n".join(["history=", "move_number=0", lines[2]])
    assert str(game.deserialize_state(bare)) == str(game.deserialize_state(text))
    three = pyspiel.load_game("python_targui", {"players": 3})
    with pytest.raises(ValueError, match="not one of this game's"):
        three.deserialize_state(bare)
    with pytest.raises(ValueError, match="`again` must be"):
        game.deserialize_state(bare.replace('"again":0', '"again":-1'))


def test_an_honest_pickle_cannot_name_another_ruleset_or_an_unchecked_state(game, tmp_path):
    """pyspiel's own reader unpickles (nothing prevents that); what it unpickles from targui's
    pickle is checked against the game it loads, never taken as it comes."""
    state = _played(game, 60)
    play = state._play
    marker = tmp_path / "loaded.yaml"

    def forged(ref, data, again, limit) -> str:
        payload = base64.b64encode(pickle.dumps({"_play": _Forged(ref, data, again, limit)})).decode()
        return f"[Meta]\nVersion: 1\n\n[Game]\n{game}\n[State]\nhistory=\nmove_number=0\n__dict__={payload}\n"

    data = play.state.to_json()
    assert pyspiel.deserialize_game_and_state(forged(play.ref, data, 0, play.limit))[1].engine.to_json() == data
    for args, words in [((str(marker), data, 0, play.limit), "not of python_targui"),
                        (("swedish-12", data, 0, play.limit), "not of python_targui"),
                        ((play.ref, data, 0, 10**6), "not of python_targui"),
                        ((play.ref, {**data, "players": 4}, 0, play.limit), "not one of this game's"),
                        ((play.ref, data, -3, play.limit), "`again` must be"),
                        ((play.ref, [1, 2], 0, play.limit), "not a JSON object")]:
        with pytest.raises(Exception, match=words):
            pyspiel.deserialize_game_and_state(forged(*args))


class _Forged:
    """Pickles as targui's own _Play does, with whatever arguments the forger chose."""

    def __init__(self, *args) -> None:
        self.args = args

    def __reduce__(self):
        return openspiel._restore, self.args


def test_a_text_naming_a_ruleset_file_needs_its_game(game, tmp_path):
    state = _played(game, 30)
    text = openspiel.serialize_game_and_state(game, state).replace("ruleset=original-dutch",
                                                                    f"ruleset={tmp_path}/rules.yaml")
    with pytest.raises(ValueError, match="not a built-in one"):
        openspiel.deserialize_game_and_state(text)
    other = openspiel.serialize_game_and_state(game, state).replace("python_targui(", "kuhn_poker(")
    with pytest.raises(ValueError, match="must name python_targui"):
        openspiel.deserialize_game_and_state(other)
    with pytest.raises(ValueError, match="not of python_targui"):
        openspiel.deserialize_game_and_state(openspiel.serialize_game_and_state(game, state),
                                             game=pyspiel.load_game("python_targui", {"players": 3}))


@pytest.mark.parametrize("limit", [10**6, 2**31 - 1, -1])
def test_an_again_limit_out_of_range_is_a_clear_error(limit):
    with pytest.raises(ValueError, match="again_limit must be from 0 to 100000"):
        pyspiel.load_game("python_targui", {"again_limit": limit})
    with pytest.raises(ValueError, match="again_limit must be from 0 to 100000"):
        openspiel.TarguiGame({"again_limit": 10**12})
