"""Fuzzing the inputs strangers hand over (issue 21): bot spellings and their parameters, the
seats of a log header that `play --resume` seats again, house rules with hooks (let, loops,
choices, dice) and per-seat formulas, OpenSpiel state strings and saved states paused inside
an effect.

Whatever the input: a bot spelling is a bot with finite parameters within their documented
range, or one BotSpecError; a header's seats resume the game or end it with one line and
exit 1 or 2; a house rule is diagnostics, or a game that plays; a state string or a saved
state is a state (that serialises back to the same text) or one ValueError. Never another exception, never a traceback.

CI runs a small count; ``TARGUI_FUZZ_EXAMPLES=5000 pytest tests/test_strangers_fuzz.py``
runs more (the count of the last big run is in the issue's closing note).
"""

from __future__ import annotations

import json
import math
import os
import random
import re
from pathlib import Path

import pytest
from cli_run import no_crash, run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_effects_fuzz import block

from targui_dsl.agents import BOTS, BotSpecError, parse_bot
from targui_dsl.gamelog.header import seal_header

EXAMPLES = int(os.environ.get("TARGUI_FUZZ_EXAMPLES", "100"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

# --- bot spellings and parameters -----------------------------------------------------------------

_NAMES = sorted({p.name for kind in BOTS.values() for p in kind.params} | {"iterations", "x", ""})
_VALUES = st.one_of(
    st.integers(min_value=-10**30, max_value=10**30).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.sampled_from(["nan", "inf", "-inf", "+inf", "1e400", "1e-400", "0x10", "1_000", " 5 ", "", "=", ":", "9" * 5000,
                     "NaN", "Infinity", "1e5", "100000", "100001", "60", "60.0000001", "-0", "-0.0"]),
    st.text(max_size=20),
)


def _assert_bot_or_refused(text: str) -> None:
    try:
        spec = parse_bot(text)
    except BotSpecError as err:
        assert str(err) and "\n" not in str(err) and len(str(err)) < 600
        return
    for param in BOTS[spec.kind].params:
        value = spec.params[param.name]
        assert isinstance(value, param.kind)
        if isinstance(value, (int, float)):
            assert math.isfinite(value)
            assert param.minimum is None or value >= param.minimum
            assert param.maximum is None or value <= param.maximum
    assert parse_bot(spec.spelling()) == spec  # its canonical spelling reads back the same


@FUZZ
@given(st.text(max_size=80))
def test_any_bot_spelling_is_a_bot_or_one_bot_spec_error(text):
    _assert_bot_or_refused(text)


@FUZZ
@given(st.sampled_from(sorted(BOTS) + ["ismcts", "ismcts"]),
       st.lists(st.tuples(st.sampled_from(_NAMES), _VALUES), max_size=4))
def test_any_bot_parameters_are_finite_and_in_range_or_refused(kind, params):
    _assert_bot_or_refused(":".join([kind, *(f"{name}={value}" for name, value in params)]))


# --- the seats of a log header ----------------------------------------------------------------------

_SEAT = st.one_of(
    st.sampled_from(["human", "random", "greedy", "ismcts:iterations=1", "ismcts:seconds=inf", "ismcts:seconds=nan",
                     "ismcts:iterations=1000000000", "ismcts:depth=-1", "greedy:x=1", "", " ", "HUMAN",
                     "random,greedy"]),
    st.text(max_size=30),
    st.integers(), st.none(), st.booleans(), st.floats(), st.lists(st.text(max_size=5), max_size=2),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)
_SEATS = st.one_of(st.lists(_SEAT, min_size=0, max_size=5), _SEAT)


@pytest.fixture(scope="module")
def finished_log(tmp_path_factory) -> tuple[dict, list[str]]:
    path = tmp_path_factory.mktemp("fuzz") / "game.jsonl"
    assert run("play", "swedish-12", "-p", "2", "--seed", "5", "--bots", "random", "--log", str(path)).exit_code == 0
    lines = path.read_text(encoding="utf-8").splitlines()
    return json.loads(lines[0]), lines[1:]


@FUZZ
@given(seats=_SEATS, sealed=st.booleans())
def test_any_header_seats_resume_or_are_refused_in_one_line(finished_log, tmp_path_factory, seats, sealed):
    header, events = finished_log
    forged = {**header, "seats": seats}
    forged = seal_header(forged) if sealed else forged
    path = Path(tmp_path_factory.mktemp("seats")) / "game.jsonl"
    path.write_text("\n".join([json.dumps(forged), *events]) + "\n", encoding="utf-8")
    result = run("play", "--resume", str(path))
    assert result.exit_code in (0, 1, 2), result.output
    no_crash(result.output)


# --- house rules: hooks, let, choices, dice and per-seat formulas -------------------------------------

_PER_SEAT = st.one_of(
    st.integers(-5, 2000).map(str),
    st.sampled_from(["seat", "10 + 2 * (seat - 1)", "seat * seat * seat", "0 - seat", "1000000000 * seat", "round",
                     "nobody.cash", "seat // (seat - 1)", "seat % 0", "max(seat, 3)", "player.cash", "box", "roll(6)",
                     "10 if seat > 2 else 0 - 1", "(seat", "", "9" * 40]),
    st.text(alphabet="seat+-*/%()0123456789 ", max_size=20),
)


@st.composite
def _house_rule(draw) -> str:
    """A ruleset extending a built-in variant with generated hooks (effects of every statement:
    let, for, if, choices of territories, players and numbers, dice) and starting cash per seat."""
    base = draw(st.sampled_from(["original-dutch", "updated-treasury", "swedish-12"]))
    lines = [f"extends: {base}", "id: fuzzed", "title: Fuzzed house rule"]
    if draw(st.booleans()):
        lines += ["setup:", f"  cash: {json.dumps(draw(_PER_SEAT))}"]
    hooks = draw(st.dictionaries(st.sampled_from(["game_start", "round_start", "turn_start", "turn_end", "before_levy",
                                                  "after_levy", "round_end"]),
                                 st.lists(block([], 2), min_size=1, max_size=2), max_size=3))
    if hooks:
        lines.append("hooks:")
    for moment, snippets in hooks.items():
        lines.append(f"  {moment}:")
        for source in snippets:
            source = re.sub(r"\bsource\b", "player.settlement", source)  # the fuzzer's territory parameter
            if moment not in ("turn_start", "turn_end"):  # only turn hooks have `player`
                source = f"for player in players {{{source}}}"
            lines.append(f"    - {json.dumps(source)}")
    return "\n".join(lines) + "\n"


@FUZZ
@given(text=_house_rule(), seed=st.integers(0, 2**32), players=st.sampled_from([2, 3, 4]))
def test_a_house_rule_with_hooks_validates_in_diagnostics_and_plays(tmp_path_factory, text, seed, players):
    """Validate answers with diagnostics only; a valid rule plays (bots' random decisions, every
    choice and die its hooks ask) without an exception, or stops at a bound of the effect language."""
    from targui_dsl import Game, load_ruleset
    from targui_dsl.effects.runtime import EffectBudgetExceeded

    path = Path(tmp_path_factory.mktemp("rule")) / "fuzzed.yaml"
    path.write_text(text, encoding="utf-8")
    checked = run("validate", str(path))
    assert checked.exit_code in (0, 1), checked.output
    no_crash(checked.output)
    if checked.exit_code:
        return
    ruleset = load_ruleset(str(path))
    if players not in ruleset.player_counts:
        return
    state = Game(ruleset, players=players, seed=seed).new_initial_state()
    rng = random.Random(seed)
    try:
        for _ in range(400):
            if state.is_terminal():
                break
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
                                          else state.legal_actions()))
            if rng.random() < 0.02:  # a saved state reads back as the same state
                again = type(state).from_json(ruleset, json.loads(json.dumps(state.to_json())))
                assert again.to_json() == state.to_json()
    except EffectBudgetExceeded:
        pass  # a run past its step budget, its bits or its choices: the game stops with that message


# --- OpenSpiel state strings ----------------------------------------------------------------------

pyspiel = pytest.importorskip("pyspiel")

from targui_dsl.adapters import openspiel  # noqa: E402 - registers python_targui


@pytest.fixture(scope="module")
def states():
    game = pyspiel.load_game("python_targui", {"players": 2, "ruleset": "updated-treasury"})
    state = game.new_initial_state()
    rng = random.Random(11)
    texts = []
    for step in range(500):
        if state.is_terminal():
            break
        if step % 50 == 0:
            texts.append(state.serialize())
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    seat = max(0, state.current_player())
    sample = state.resample_from_infostate(seat, rng.random)
    texts.append(sample.serialize())  # one with no history: read by GameState.from_json
    return game, texts


def _state_or_value_error(game, text: str) -> None:
    try:
        state = game.deserialize_state(text)
    except ValueError as err:
        assert str(err)
        return
    assert game.deserialize_state(state.serialize()).serialize() == state.serialize()


@FUZZ
@given(st.text(max_size=300))
def test_any_text_is_a_state_or_one_value_error(states, text):
    game, _ = states
    _state_or_value_error(game, text)
    _state_or_value_error(game, "history=\nmove_number=0\ntargui=" + text)


@FUZZ
@given(data=st.data())
def test_a_mutated_state_string_is_a_state_or_one_value_error(states, data):
    game, texts = states
    text = data.draw(st.sampled_from(texts))
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(text)))
        kind = data.draw(st.sampled_from(["replace", "delete", "insert"]))
        piece = data.draw(st.sampled_from(["0", "1", "-", "9" * 30, ",", ":", "\n", '"', "]", "{}", "null", "1e999",
                                           "true", "-1", "99999999999", "x"]))
        if kind == "replace":
            text = text[:at] + piece + text[at + 1:]
        elif kind == "delete":
            text = text[:at] + text[at + len(piece):]
        else:
            text = text[:at] + piece + text[at:]
    _state_or_value_error(game, text)


def _json_mutations(value, draw, depth=0):
    """``value`` with some of its numbers, strings, lists and objects replaced or cut."""
    if depth > 6 or not draw(st.integers(0, 9)):
        return draw(st.one_of(st.integers(-2**70, 2**70), st.floats(), st.text(max_size=8), st.none(),
                              st.booleans(), st.just([]), st.just({})))
    if isinstance(value, dict):
        return {k: (_json_mutations(v, draw, depth + 1) if draw(st.integers(0, 7)) == 0 else v)
                for k, v in value.items() if draw(st.integers(0, 40))}
    if isinstance(value, list) and value:
        cut = draw(st.integers(0, len(value)))
        return [(_json_mutations(v, draw, depth + 1) if draw(st.integers(0, 5)) == 0 else v) for v in value[:cut]] \
            if draw(st.booleans()) else [_json_mutations(value[0], draw, depth + 1)] + value[1:]
    return _json_mutations(None, draw, 7)


@FUZZ
@given(data=st.data())
def test_a_state_with_mutated_json_is_a_state_or_one_value_error(states, data):
    game, texts = states
    text = data.draw(st.sampled_from(texts))
    head, saved = text.rsplit("\ntargui=", 1)
    changed = _json_mutations(json.loads(saved), data.draw)
    if data.draw(st.booleans()):
        head = "history=\nmove_number=0"  # read by GameState.from_json alone
    _state_or_value_error(game, f"{head}\ntargui={json.dumps(changed)}")


@FUZZ
@given(params=st.dictionaries(st.sampled_from(["ruleset", "players", "again_limit", "name", "seed"]),
                              st.one_of(st.integers(-10, 2**40).map(str), st.text(max_size=12),
                                        st.sampled_from(["original-dutch", "swedish-12", "/etc/passwd", "../x.yaml"])),
                              max_size=4))
def test_any_game_line_is_a_game_or_one_value_error(states, params):
    game, texts = states
    line = "python_targui(" + ",".join(f"{k}={v}" for k, v in params.items()) + ")"
    text = f"{openspiel._TEXT_HEADER}\n[Game]\n{line}\n[State]\n{texts[0]}\n"
    try:
        openspiel.deserialize_game_and_state(text)
    except ValueError as err:
        assert str(err)


# --- saved states paused inside a card or hook ------------------------------------------------------

PAUSING = """\
extends: updated-treasury
id: pausing
title: Choices and dice in hooks
hooks:
  turn_start:
    - |
      let d = roll(6)
      player chooses n in 0..d {
        player.cash -= n
        player.treasury += n
      }
      for p in players where p != player {
        p chooses t in p.territories where t.camels > 0 { t.camels += 1 }
      }
"""


@pytest.fixture(scope="module")
def paused_states(tmp_path_factory):
    """Saved states of a game with choices and dice in its hooks, most of them paused inside one."""
    from targui_dsl import Game, load_ruleset

    path = tmp_path_factory.mktemp("paused") / "pausing.yaml"
    path.write_text(PAUSING, encoding="utf-8")
    ruleset = load_ruleset(str(path))
    state = Game(ruleset, players=3, seed=4).new_initial_state()
    rng = random.Random(4)
    saved = []
    for _ in range(600):
        if state.is_terminal():
            break
        if state.choice() is not None or state.is_chance_node() and len(saved) < 40 and rng.random() < 0.3:
            saved.append(state.to_json())
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
                                      else state.legal_actions()))
    assert sum("effect" in s["state"] for s in saved) >= 10
    return ruleset, type(state), saved


@FUZZ
@given(data=st.data())
def test_a_mutated_state_paused_in_an_effect_is_a_state_or_one_value_error(paused_states, data):
    ruleset, state_type, saved = paused_states
    changed = _json_mutations(data.draw(st.sampled_from(saved)), data.draw)
    try:
        state = state_type.from_json(ruleset, changed)
    except ValueError as err:
        assert str(err)
        return
    # a state accepted is one the engine can go on from
    assert state_type.from_json(ruleset, state.to_json()).to_json() == state.to_json()
    from targui_dsl.effects.runtime import EffectBudgetExceeded

    rng = random.Random(0)
    try:
        for _ in range(30):
            if state.is_terminal():
                break
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
                                          else state.legal_actions()))
    except EffectBudgetExceeded:
        pass  # a run past a bound of the effect language: the game stops with that message
