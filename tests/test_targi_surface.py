"""Targi at the table and in studies: a game quit and resumed (`play --resume`), stepped
through at a terminal (`replay --step`), and the study's counter (cards displayed per symbol,
only the events it reads built)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from targui_cli.main import cli
from targui_dsl import load_ruleset
from targui_dsl.gamelog.events import EventLog
from targui_dsl.games.targi.metrics import TargiCounter
from targui_dsl.games.targi.state import Game
from targui_dsl.study.games import CountingSink, play_game

RS = load_ruleset("targi")

ARGS = ["targi", "--human", "1", "--bots", "random", "--seed", "3", "--no-board"]


def run(*args: str, text: str = ""):
    return CliRunner().invoke(cli, list(args), input=text)


def events_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_a_targi_game_quit_in_round_2_and_resumed_ends_as_if_played_straight_through(tmp_path):
    script = ["1"] * 2000  # a person who always takes the first choice
    straight = tmp_path / "straight.jsonl"
    result = run("play", *ARGS, "--log", str(straight), text="\n".join(script) + "\n")
    assert result.exit_code == 0, result.output
    mine = [e for e in events_of(straight) if e["type"] == "decision" and e["player"] == 0 and not e["forced"]]
    before = sum(1 for e in mine if e["round"] <= 1)
    assert any(e["round"] == 2 for e in mine)
    log = tmp_path / "game.jsonl"
    typed = script[:before + 1]  # all of round 1, one decision of round 2
    result = run("play", *ARGS, "--log", str(log), text="\n".join(typed + ["quit"]) + "\n")
    assert result.exit_code == 0, result.output
    assert "Game left in round 2" in result.output and "unfinished" in result.output
    kept = log.read_text(encoding="utf-8")
    assert not any(e["type"] == "end" for e in events_of(log))
    result = run("play", "--resume", str(log), "--no-board", text="\n".join(script[before + 1:]) + "\n")
    assert result.exit_code == 0, result.output
    assert f"Resumed {log} after event {len(kept.splitlines()) - 1}, in round 2." in result.output
    text = log.read_text(encoding="utf-8")
    assert text.startswith(kept) and text == straight.read_text(encoding="utf-8")
    verified = run("replay", str(log), "--verify", "-q")
    assert verified.exit_code == 0, verified.output


def test_stepping_through_a_targi_log_forward_and_back_at_a_terminal(tmp_path):
    pytest.importorskip("pty")
    from pty_session import Session

    log = tmp_path / "game.jsonl"
    assert run("play", "targi", "--bots", "random,random", "--seed", "1", "--log", str(log)).exit_code == 0
    events = events_of(log)
    last = len(events) - 1
    game = Session(["replay", str(log), "--step"])
    try:
        def screen_at(n):
            return game.expect(f"event {n} of {last}") + game.expect("q quit")

        screen_at(0)
        game.send(b"n")
        screen_at(1)
        game.send(b"g")
        game.expect(f"go to event (0..{last}): ")
        game.send(b"100\n")
        at_100 = screen_at(100)
        assert "> 100  " in at_100  # the line told at this event is marked
        game.send(b"p")
        screen_at(99)
        game.send(b"$")
        end = screen_at(last)
        assert f"the game ends ({events[-1]['reason']})" in end and "robber on" in end  # the board at the end
        game.send(b"q")
        assert game.wait() == 0
        assert "Traceback" not in game.text
    finally:
        game.close()


class Reading(CountingSink):
    """A study's sink that also keeps what it was told."""

    __slots__ = ("told",)

    def __init__(self, counter: TargiCounter) -> None:
        super().__init__(counter)
        self.told: list[dict] = []
        count = self.emit

        def emit(event: dict) -> None:
            self.told.append(event)
            count(event)
        self.emit = emit


def test_the_counter_reads_displays_and_the_end_only_and_counts_each_symbol():
    counter = TargiCounter()
    sink = Reading(counter)
    play_game(Game(RS, seed=4), ["greedy", "greedy"], sink)
    assert {e["type"] for e in sink.told} == {"display", "end"}  # no draw, decision, placement or raid built
    everything = TargiCounter()  # the same game, every event built, counted from a log
    log = EventLog()
    log.listeners.append(everything)
    everything.begin(Game(RS, seed=4))
    play_game(Game(RS, seed=4), ["greedy", "greedy"], log)
    assert len(log.events or []) > 5 * len(sink.told)
    assert counter.per_game() == everything.per_game() and counter.cards() == everything.cards()
    figures = counter.per_game()
    assert figures["displayed"] == sum(1 for e in sink.told if e["type"] == "display") > 0
    assert sum(figures[f"displayed_{s}"] for s in RS.symbols) == figures["displayed"]


def test_a_sink_that_wants_a_kind_targi_never_tells_is_refused_by_name():
    class Typo:
        wants = frozenset({"display", "dispaly"})

        def emit(self, event):
            raise AssertionError("never told")

    state = Game(RS, seed=1).new_initial_state()
    with pytest.raises(ValueError, match="dispaly"):
        state.attach_sink(Typo())


def test_simulate_reports_cards_displayed_per_symbol():
    result = run("simulate", "targi", "-n", "4", "--bots", "greedy,greedy", "--json")
    assert result.exit_code == 0, result.output
    metrics = json.loads(result.output)["metrics"]
    per_symbol = sum(metrics[f"displayed_{s}"]["mean"] for s in RS.symbols)
    assert per_symbol == pytest.approx(metrics["displayed"]["mean"]) and per_symbol > 0
