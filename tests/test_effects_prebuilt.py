"""The built-in rulesets' snippets shipped as a module (effects/prebuilt.py, games/targui/_snippets.py).

The shipped module is what the code generator writes today, each built-in snippet takes its shipped
function, a snippet of another shape (or one that counts its steps) is compiled at its first call,
and a game plays the same with the shipped functions as with the compiled ones. The compiled build
registers the module (games/targui/state.py); plain Python does not, so these tests register it
themselves (`shipping`), and CI runs them on the compiled build too.
"""

from __future__ import annotations

import ast
import random

import pytest
from effect_fake import EFFECT_ENV

from targui_dsl import load_ruleset
from targui_dsl.effects import compile_effect
from targui_dsl.effects.compiler import _NAMESPACE
from targui_dsl.effects.prebuilt import PREBUILT, module_source, shape_key
from targui_dsl.games.targui import _snippets, prebuild
from targui_dsl.games.targui.drawing import compiled_snippets
from targui_dsl.games.targui.game import Game
from targui_dsl.games.targui.names import VOCABULARY

VARIANTS = ("original-dutch", "swedish-12", "updated-treasury")


@pytest.fixture
def shipping(monkeypatch):
    """The shipped module registered, as the compiled build registers it."""
    monkeypatch.setitem(PREBUILT, VOCABULARY.game, _snippets.PREBUILT)


def test_the_shipped_module_is_what_the_generator_writes_today():
    # (after a change to a built-in ruleset or to the code generator: python -m targui_dsl.games.targui.prebuild)
    assert prebuild.TARGET.read_text(encoding="utf-8") == prebuild.source()


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_built_in_snippet_takes_its_shipped_function(variant, shipping):
    shipped = set(_snippets.PREBUILT.values())
    for name, code in compiled_snippets(load_ruleset(variant)):
        assert code.function in shipped, name


def test_a_snippet_of_another_shape_is_compiled_at_its_first_call(shipping):
    code, problems = compile_effect("for p in players { p.cash += 7 }", EFFECT_ENV)
    assert problems == []
    assert shape_key(code.module) not in _snippets.PREBUILT
    assert code.function.__code__.co_filename.startswith("<effect")


def test_the_key_is_the_generated_code_not_its_places_and_tells_constants_apart():
    module = ast.parse("def effect(rt):\n    rt.set_cash(0, 1)\n")
    moved = ast.parse("\n\ndef effect(rt):\n        rt.set_cash(0, 1)\n")
    other = ast.parse("def effect(rt):\n    rt.set_cash(0, True)\n")
    assert shape_key(module) == shape_key(moved)
    assert shape_key(module) != shape_key(other)


def test_a_snippet_that_counts_its_steps_is_never_shipped():
    counted = ast.parse("def effect(rt):\n    _b = [0]\n    _take(_b, 3)\n")
    plain = ast.parse("def effect(rt):\n    rt.set_cash(0, 1)\n")
    text = module_source([counted, plain], _NAMESPACE, ("m", "Runtime"), "doc")
    assert repr(shape_key(plain)) in text and repr(shape_key(counted)) not in text
    assert text.count("\ndef _s") == 1


def test_a_shipped_function_is_given_to_its_own_game_only(monkeypatch):
    code, problems = compile_effect("for p in players { p.cash += 7 }", EFFECT_ENV)
    assert problems == []

    def shipped(rt):
        raise AssertionError("another game's function")

    monkeypatch.setitem(PREBUILT, "Another game", {shape_key(code.module): shipped})
    assert code.function is not shipped


def _play(variant: str, players: int, seed: int) -> list[tuple[list[int], dict]]:
    rs = load_ruleset(variant)  # (a fresh ruleset: its snippets are made at their first call)
    rng = random.Random(seed)
    state = Game(rs, players=players, seed=seed).new_initial_state()
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return [(state.history(), state.to_json())]


@pytest.mark.parametrize("variant", VARIANTS)
def test_games_play_the_same_with_the_shipped_functions_as_with_compiled_ones(variant, shipping, monkeypatch):
    shipped = [_play(variant, players, seed) for players in (2, 4) for seed in range(6)]
    monkeypatch.setitem(PREBUILT, VOCABULARY.game, {})
    rs = load_ruleset(variant)
    assert not any(code.function in set(_snippets.PREBUILT.values()) for _, code in compiled_snippets(rs))
    assert shipped == [_play(variant, players, seed) for players in (2, 4) for seed in range(6)]


def test_the_game_registers_its_shipped_snippets_where_they_run_compiled():
    import targui_dsl.games.targui.state  # noqa: F401  (registers, when compiled)
    from targui_dsl.engine.native import compiled

    registered = PREBUILT.get(VOCABULARY.game, {})
    if compiled(_snippets.__file__):
        assert registered == _snippets.PREBUILT
    else:
        assert not registered


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_shipped_formula_reads_what_a_player_sees_as_the_compiled_one_does(variant, shipping, monkeypatch):
    # (bots read the levy and the combat formulas over an observation, not over the game's own runtime)
    rs = load_ruleset(variant)
    rng = random.Random(3)
    state = Game(rs, players=4, seed=3).new_initial_state()
    views = []
    while not state.is_terminal() and len(views) < 40:
        for seat in range(4):
            rt = state.observation(seat).runtime
            views.append((rt, seat))
        state.apply_action(rng.choice(state.legal_actions()))
    shipped = [(rs.levy.function(rt, seat), rs.defender_loses.function(rt, 4, 0, 1)) for rt, seat in views[-8:]]
    assert rs.levy.function in set(_snippets.PREBUILT.values())
    monkeypatch.setitem(PREBUILT, VOCABULARY.game, {})
    fresh = load_ruleset(variant)
    assert fresh.levy.function not in set(_snippets.PREBUILT.values())
    assert shipped == [(fresh.levy.function(rt, seat), fresh.defender_loses.function(rt, 4, 0, 1))
                       for rt, seat in views[-8:]]
