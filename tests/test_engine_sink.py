"""The engine tells what happens to any event sink, and imports nothing of the log file."""

from __future__ import annotations

import ast
import random
from pathlib import Path
from typing import Any

from engine_fixtures import any_ruleset

from targui_dsl.agents import make_agent
from targui_dsl.engine.loop import play
from targui_dsl.gamelog.events import EventLog
from targui_dsl.games.targui.game import Game
from targui_dsl.games.targui.phases import LABELS, encode_step, step_action, step_actor, step_phase

GAME_PACKAGE = Path(__file__).resolve().parent.parent / "targui_dsl" / "games" / "targui"


class Counter:
    """A sink that is not a log: counts events by type, and remembers the game it began with."""

    def __init__(self) -> None:
        self.began: list[Any] = []
        self.counts: dict[str, int] = {}

    def begin(self, game: Any) -> None:
        self.began.append(game)

    def emit(self, event: dict[str, Any]) -> None:
        self.counts[event["type"]] = self.counts.get(event["type"], 0) + 1


def test_any_sink_is_told_the_game_from_its_start_and_begun_once():
    game = Game(any_ruleset("original-dutch"), players=4, seed=2)
    sink = Counter()
    state = game.new_initial_state(log=sink)
    play(state, [make_agent("random", s) for s in range(4)])
    assert sink.began == [game]
    assert sink.counts["end"] == 1 and sink.counts["decision"] >= state.decisions // 2
    assert sink.counts["chance"] >= 40  # the deal at least


def test_a_sink_and_a_log_told_the_same_game_see_the_same_events():
    game = Game(any_ruleset("updated-treasury"), players=3, seed=9)
    log, sink = EventLog(), Counter()
    with_log, with_sink = game.new_initial_state(log=log), game.new_initial_state(log=sink)
    for state in (with_log, with_sink):
        play(state, [make_agent("greedy", 1), make_agent("random", 2), make_agent("random", 3)])
    assert log.events[0]["type"] == "header"  # EventLog.begin writes the header
    told: dict[str, int] = {}
    for event in log.events[1:]:
        told[event["type"]] = told.get(event["type"], 0) + 1
    assert told == sink.counts
    assert with_log.to_json() == with_sink.to_json()


def test_attach_sink_begins_the_sink_and_a_clone_tells_nobody():
    game = Game(any_ruleset("swedish-12"), players=2, seed=4)
    state = game.new_initial_state()
    sink = Counter()
    state.attach_sink(sink)
    assert sink.began == [game] and state.log is sink
    copy = state.clone()
    assert copy.log is None
    rng = random.Random(0)
    while not copy.is_terminal():
        copy.apply_action(rng.choice(copy.legal_actions()))
    assert sink.counts == {}  # the copy's game was told to nobody
    state.apply_action(state.legal_actions()[0])
    assert sink.counts


def test_the_game_package_imports_nothing_of_the_log_wing():
    for path in sorted(GAME_PACKAGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([node.module or ""] if isinstance(node, ast.ImportFrom)
                     else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            assert not any(name.startswith("targui_dsl.gamelog") for name in names), path.name


def test_the_history_decodes_to_each_step_its_phase_and_its_actor():
    game = Game(any_ruleset("updated-treasury"), players=4, seed=6)
    state = game.new_initial_state()
    rng = random.Random(6)
    chosen: list[tuple[int, str, int]] = []
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        chosen.append((action, state.phase_name, state.current_player()))
        state.apply_action(action)
    entries = state.record.history
    assert state.history() == [step_action(e) for e in entries]
    assert all(encode_step(step_action(e), step_phase(e), step_actor(e)) == e for e in entries)
    # the steps the players chose are in the history, in order, with the phase and the seat
    # they were chosen at (among the steps the engine took itself: forced ones and chance)
    decoded = iter((step_action(e), LABELS[step_phase(e)], step_actor(e)) for e in entries)
    assert all(any(step == entry for entry in decoded) for step in chosen)
    assert {step_actor(e) for e in entries} == {-1, 0, 1, 2, 3}
