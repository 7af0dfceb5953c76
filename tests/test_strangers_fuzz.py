"""Fuzzing the inputs strangers hand over (issue 21): bot spellings and their parameters, the
seats of a log header that `play --resume` seats again, and OpenSpiel state strings.

Whatever the input: a bot spelling is a bot with finite parameters within their documented
range, or one BotSpecError; a header's seats resume the game or end it with one line and
exit 1 or 2; a state string is a state (that serialises back to the same text) or one
ValueError. Never another exception, never a traceback.

CI runs a small count; ``TARGUI_FUZZ_EXAMPLES=5000 pytest tests/test_strangers_fuzz.py``
runs more (the count of the last big run is in the issue's closing note).
"""

from __future__ import annotations

import json
import math
import os
import random
from pathlib import Path

import pytest
from cli_run import no_crash, run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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
