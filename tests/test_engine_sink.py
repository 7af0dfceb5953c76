"""The engine tells what happens to any event sink, and imports nothing of the log file."""

from __future__ import annotations

import ast
import random
from pathlib import Path
from typing import Any

import pytest
from engine_fixtures import any_ruleset

from targui_dsl.agents import make_agent
from targui_dsl.engine.loop import play
from targui_dsl.gamelog.events import EventLog
from targui_dsl.games.targui.game import Game
from targui_dsl.games.targui.metrics import METRICS
from targui_dsl.games.targui.phases import LABELS, encode_step, step_action, step_actor, step_phase
from targui_dsl.games.targui.told import EVERYTHING, kind_of, tells_for
from targui_dsl.study.games import CountingSink

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


class Reader:
    """A sink that reads some kinds of event only (``wants``) and keeps what it is told."""

    def __init__(self, wants: frozenset[str]) -> None:
        self.wants = wants
        self.events: list[dict[str, Any]] = []

    def begin(self, game: Any) -> None:
        pass

    def emit(self, event: dict[str, Any]) -> None:
        self.events.append(event)


def _examples(name: str) -> Any:
    return any_ruleset(str(Path(__file__).resolve().parent.parent / "rulesets" / "examples" / f"{name}.yaml"))


def test_a_sink_that_reads_some_kinds_is_told_exactly_those_of_the_full_log():
    # every kind alone, a study's counter's kinds, and decisions whole: the same events,
    # in the same order, as a log that reads everything, filtered by kind
    wanted = [frozenset({kind}) for kind in sorted(EVERYTHING)]
    wanted += [METRICS.counter().wants or frozenset(), frozenset({"decision", "chance"})]
    for ruleset, players, seed in ((any_ruleset("original-dutch"), 4, 3), (any_ruleset("updated-treasury"), 3, 8),
                                   (any_ruleset("swedish-12"), 2, 5), (_examples("caravan-choice"), 4, 1),
                                   (_examples("flash-flood"), 3, 2)):
        game = Game(ruleset, players=players, seed=seed)
        log = EventLog()
        finished = play(game.new_initial_state(log=log), [make_agent("random", s) for s in range(players)])
        full = log.events[1:]
        assert {kind_of(e) for e in full} <= EVERYTHING
        for wants in wanted:
            reader = Reader(wants)
            state = play(game.new_initial_state(log=reader), [make_agent("random", s) for s in range(players)])
            told = tells_for(wants)
            assert reader.events == [e for e in full if kind_of(e) in told or e["type"] in wants], sorted(wants)
            assert state.to_json() == finished.to_json()  # what a sink reads changes nothing of the game


def test_a_kind_no_event_has_is_refused_by_name():
    state = Game(any_ruleset("original-dutch"), players=4, seed=1).new_initial_state()
    with pytest.raises(ValueError, match="no event kind 'decision:bye'"):
        state.attach_sink(Reader(frozenset({"decision:bye"})))


def test_the_study_counter_counts_the_same_from_the_events_it_reads_as_from_every_event():
    for name, players in (("original-dutch", 4), ("updated-treasury", 3)):
        ruleset = any_ruleset(name)
        for seed in range(6):
            game = Game(ruleset, players=players, seed=seed)
            whole, light = METRICS.counter(), METRICS.counter()
            log = EventLog(keep=False)
            log.listeners.append(whole)
            play(game.new_initial_state(log=log), [make_agent("random", s) for s in range(players)])
            state = play(game.new_initial_state(log=CountingSink(light)),
                         [make_agent("random", s) for s in range(players)])
            assert light.end(state)  # camels bought: read from the finished game
            assert (light.per_game(), light.totals(), light.cards()) == (whole.per_game(), whole.totals(),
                                                                         whole.cards())
            assert whole.per_game()["camels_bought"] > 0
