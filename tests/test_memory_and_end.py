"""Declared memory (`memory:`) and `end game`: checked in the front end, run by the engine,
kept in saved states, logged, seen as declared, and the example house rules that use them."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from cli_run import run

from targui_dsl import load_ruleset
from targui_dsl.agents import make_agent
from targui_dsl.engine.loop import play
from targui_dsl.frontend.build import build
from targui_dsl.games.targui.game import Game
from targui_dsl.games.targui.state import GameState

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "rulesets" / "examples"
HEAD = "extends: original-dutch\nid: house\n"


class Events:
    """A sink keeping every event."""

    def __init__(self) -> None:
        self.events: list[dict] = []

    def begin(self, game) -> None:
        pass

    def emit(self, event: dict) -> None:
        self.events.append(event)


def built(tmp_path: Path, text: str):
    path = tmp_path / "house.yaml"
    path.write_text(text, encoding="utf-8")
    return build(str(path), cwd=tmp_path)


def problems(report) -> list[tuple[str, int, int]]:
    return [(d.code, d.span.line, d.span.column) for d in report.diagnostics]


def played(ruleset, seed: int, players: int = 4, bots: str = "random") -> tuple[GameState, list[dict]]:
    sink = Events()
    state = Game(ruleset, players=players, seed=seed).new_initial_state(log=sink)
    agents = [make_agent(bots, seed * 10 + seat) for seat in range(players)]
    return play(state, agents), sink.events


# --- the front end ---------------------------------------------------------------------------

def test_memory_is_read_and_changed_by_effects_and_formulas(tmp_path):
    report = built(tmp_path, HEAD + (
        "memory:\n"
        "  bid: {of: player, max: 10}\n"
        "  marked: {of: territory, value: flag}\n"
        "  held: {}\n"
        "levy: sum(t.economic for t in player.territories) + player.bid\n"
        "hooks:\n"
        "  round_start:\n"
        "    - 'for p in players { p.bid += 2 }'\n"
        "    - 'for t in territories where t.owned and not t.marked { t.marked = true; held += 1 }'\n"))
    assert problems(report) == []
    assert [m.name for m in report.ruleset.memory] == ["bid", "marked", "held"]


def test_an_undeclared_name_cannot_be_assigned_and_a_declared_one_is_suggested(tmp_path):
    report = built(tmp_path, HEAD + "memory:\n  auctions: {}\nhooks:\n  round_start: ['auction = 3']\n")
    (d,) = report.diagnostics
    assert (d.code, d.span.line, d.span.column) == ("E0505", 6, 18)
    assert d.message == "`auction` cannot be assigned: only fields and declared memory can be changed"
    assert d.hint == "did you mean `auctions`?"
    report = built(tmp_path, HEAD + "hooks:\n  round_start: ['auction = 3']\n")
    assert report.diagnostics[0].hint.startswith("to keep a value of your own, declare it under `memory:`")


def test_a_misspelt_memory_field_is_suggested(tmp_path):
    report = built(tmp_path, HEAD + "memory:\n  bid: {of: player}\n"
                   "hooks:\n  round_start: ['for p in players { p.bidd = 1 }']\n")
    (d,) = report.diagnostics
    assert (d.code, d.message) == ("E0503", "a player has no field `bidd`")
    assert d.hint.startswith("did you mean `bid`?")


@pytest.mark.parametrize("effect, code, message", [
    ("open += 1", "E0505", "`+=` needs a number, but `open` is a flag (true/false)"),
    ("open = 3", "E0504", "`open` holds true/false, but this is a whole number"),
    ("count_ = 1 this round", "E0508", "`this round` applies only to a territory kind's value, not to `count_`"),
    ('end game ""', "E0524", "an `end game` needs a reason: it is what the end screen and the studies show"),
    ('end game "' + "x" * 81 + '"', "E0524", "this reason is 81 characters long; the most is 80"),
])
def test_memory_and_end_game_misuse_is_refused_where_written(tmp_path, effect, code, message):
    text = HEAD + "memory:\n  open: {value: flag}\n  count_: {}\nhooks:\n  round_start:\n    - '" + effect + "'\n"
    (d,) = built(tmp_path, text).diagnostics
    assert (d.code, d.message, d.span.line) == (code, message, 8)
    assert d.hint or code == "E0504"


@pytest.mark.parametrize("declared, code, line, column, message", [
    ("  cash: {of: player}", "E0540", 4, 3, "memory `cash` has the name of a field of a player"),
    ("  erg: {}", "E0540", 4, 3, "memory `erg` has the name of a name the language or the ruleset already gives "
                                 "a meaning"),
    ("  bid: {min: 5, start: 2}", "E0541", 4, 24, "memory `bid` starts at 2, outside its bounds 5..1000000000"),
    ("  bid: {min: 5, max: 1}", "E0541", 4, 14, "memory `bid`: `min` (5) is above `max` (1)"),
    ("  bid: {value: flag, max: 1}", "E0541", 4, 27, "memory `bid` is a flag (true/false): it has no `max`"),
    ("  bid: {visible: owner}", "E0542", 4, 18, "memory `bid` is not a player's: no one owns it to see it"),
    ("  bid: {of: tribe}", "E0304", 4, 13, None),
    ("  bid: {hidden: true}", "E0302", 4, 9, None),
])
def test_declarations_that_cannot_be_are_refused_at_the_value(tmp_path, declared, code, line, column, message):
    report = built(tmp_path, HEAD + "memory:\n" + declared + "\n")
    d = report.diagnostics[0]
    assert (d.code, d.span.line, d.span.column) == (code, line, column), d
    if message is not None:
        assert d.message == message
        assert d.hint
    assert report.ruleset is None


# --- the engine ------------------------------------------------------------------------------

def _counter(tmp_path: Path, past_bounds: str):
    return built(tmp_path, HEAD + (
        "memory:\n"
        f"  tally: {{max: 10, start: 4, past_bounds: {past_bounds}}}\n"
        "  seen_cards: {}\n  seen_rounds_left: {}\n  seen_played: {}\n"
        "hooks:\n"
        "  game_start: ['tally = 50; seen_cards = cards_left; seen_rounds_left = rounds_left']\n"
        "  round_end: ['tally -= 1; seen_played = rounds_played']\n")).ruleset


def test_past_its_bounds_a_value_is_clamped_or_the_change_refused_and_every_change_is_logged(tmp_path):
    ruleset = _counter(tmp_path, "clamp")
    state, events = played(ruleset, seed=1)
    tallies = [e for e in events if e["type"] == "memory" and e["name"] == "tally"]
    assert tallies[0] == {"type": "memory", "round": 1, "name": "tally", "value": [4, 10]}  # 50 clamped to 10
    assert [e["value"] for e in tallies[1:4]] == [[10, 9], [9, 8], [8, 7]]
    assert all("tribe" not in e and "position" not in e for e in tallies)

    refusing = _counter(tmp_path, "refuse")
    state, events = played(refusing, seed=1)
    tallies = [e for e in events if e["type"] == "memory" and e["name"] == "tally"]
    assert tallies[0]["value"] == [4, 3]  # 50 refused: the first change is round 1's -1
    assert tallies[0]["round"] == 1


def test_cards_left_rounds_left_and_rounds_played_are_what_the_game_says(tmp_path):
    ruleset = _counter(tmp_path, "clamp")
    state, events = played(ruleset, seed=2)
    values = {name: state.record.memory[ruleset.memory.index(slot)]
              for name, slot in ((m.name, m) for m in ruleset.memory)}
    assert values["seen_cards"] == len(ruleset.deck) == 16
    assert values["seen_rounds_left"] == ruleset.rounds - 1  # in game_start: the rounds after the first
    assert values["seen_played"] == state.round - 1  # the last round_end hook: rounds before the last


def test_memory_is_saved_with_the_state_and_checked_when_read_back():
    ruleset = load_ruleset(str(EXAMPLES / "auction.yaml"))
    state = Game(ruleset, players=3, seed=4).new_initial_state()
    rng = random.Random(4)
    while not state.is_terminal() and state.round < 3:
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    saved = json.loads(json.dumps(state.to_json()))
    assert len(saved["state"]["memory"]) == 3 + 3 + 1  # a bid and a count of wins per seat, the auctions held
    again = GameState.from_json(ruleset, saved)
    assert again.record.memory == state.record.memory
    assert again.to_json() == state.to_json()
    saved["state"]["memory"][0] = 99  # a bid above its max of 10
    with pytest.raises(ValueError, match=r"`memory\[0\] \(bid\)`: 99 is outside 0..10"):
        GameState.from_json(ruleset, saved)
    # a ruleset without memory saves none, and refuses a state that has some
    plain = load_ruleset("original-dutch")
    plain_saved = Game(plain, players=3, seed=4).new_initial_state().to_json()
    assert "memory" not in plain_saved["state"]
    plain_saved["state"]["memory"] = [1]
    with pytest.raises(ValueError, match="this ruleset keeps no memory"):
        GameState.from_json(plain, plain_saved)


def test_the_auction_plays_keeps_secret_bids_and_pays_the_one_highest_bidder():
    ruleset = load_ruleset(str(EXAMPLES / "auction.yaml"))
    state, events = played(ruleset, seed=3)
    memory = [e for e in events if e["type"] == "memory"]
    bids = [e for e in memory if e["name"] == "bid"]
    wins = [e for e in memory if e["name"] == "auctions_won"]
    assert bids and wins
    assert all(0 <= e["value"][1] <= 10 for e in bids)
    # each win follows the round's bids, and the winner's bid was the one highest
    first = wins[0]
    round_bids = {e["tribe"]: e["value"][1] for e in bids if e["round"] == first["round"] and e["value"][0] == 0}
    top = max(round_bids.values())
    assert round_bids[first["tribe"]] == top and list(round_bids.values()).count(top) == 1
    held = state.record.memory[state.record.game.memory_base[-1]]  # auctions_held, the game's one value
    assert held == len(wins)
    # the bid is the owner's: seat 1 sees its own, not seat 2's
    assert "bid[1]=" in state.observation_string(0) and "bid[2]=" not in state.observation_string(0)
    assert "auctions_won[2]=" in state.observation_string(0)


def test_sudden_death_ends_the_game_with_its_reason_on_the_end_screen_and_in_the_log(tmp_path):
    ruleset = load_ruleset(str(EXAMPLES / "sudden-death.yaml"))
    reasons = set()
    for seed in range(1, 7):
        state, events = played(ruleset, seed=seed)
        end = events[-1]
        assert end["type"] == "end" and end["reason"] == state.end_reason
        reasons.add(state.end_reason)
        if state.end_reason == "six rounds played":
            assert state.round == 6 and end["rounds"] == 6
        if state.end_reason == "a tribe holds 10 territories":
            assert max(len(state.cells_of(s)) for s in range(4)) >= 10
    assert reasons >= {"a tribe holds 10 territories"}
    log = tmp_path / "game.jsonl"
    result = run("play", str(EXAMPLES / "sudden-death.yaml"), "--players", "4", "--bots", "random", "--seed", "3",
                 "--no-board", "--log", str(log))
    assert result.exit_code == 0, result.output
    assert "Game over after round 6 (a tribe holds 10 territories): Kel Ress wins." in result.output
    verified = run("replay", "--verify", str(log))
    assert verified.exit_code == 0 and verified.output.startswith("verified:"), verified.output


def test_the_auctions_log_replays_and_its_story_tells_public_memory_only(tmp_path):
    log = tmp_path / "game.jsonl"
    result = run("play", str(EXAMPLES / "auction.yaml"), "--players", "3", "--bots", "random", "--seed", "3",
                 "--no-board", "--log", str(log))
    assert result.exit_code == 0, result.output
    assert "auctions_won: 0->1" in result.output and "auctions_held: 0->1" in result.output
    assert "bid:" not in result.output  # a bid is its owner's secret
    logged = [json.loads(line) for line in log.read_text().splitlines()]
    assert any(e["type"] == "memory" and e["name"] == "bid" for e in logged)  # the log keeps everything
    verified = run("replay", "--verify", str(log))
    assert verified.exit_code == 0 and verified.output.startswith("verified:"), verified.output


def test_a_studys_end_reasons_count_the_rules_reasons():
    result = run("simulate", str(EXAMPLES / "sudden-death.yaml"), "--players", "4", "--games", "6",
                 "--seed", "1", "--bots", "random", "--format", "json")
    assert result.exit_code == 0, result.output
    reasons = json.loads(result.output)["end_reasons"]
    assert sum(reasons.values()) == 6 and set(reasons) <= {"deck", "last_standing", "a tribe holds 10 territories",
                                                           "six rounds played"}
    assert set(reasons) - {"deck", "last_standing"}


def test_memory_is_bounded_like_every_amount_in_the_division_check(tmp_path):
    def warnings(declared: str, effect: str) -> list[str]:
        report = built(tmp_path, HEAD + "memory:\n" + declared + "\nhooks:\n  round_start: ['" + effect + "']\n")
        assert report.ruleset is not None, report.diagnostics
        return [d.code for d in report.diagnostics]

    assert warnings("  bid: {of: player, min: 1, start: 1}", "for p in players { p.cash = 30 // p.bid }") == []
    assert warnings("  bid: {of: player}", "for p in players { p.cash = 30 // p.bid }") == ["E0532"]
    assert warnings("  held: {}", "held = 30 // (held + 1)") == []
    assert warnings("  held: {min: -5}", "held = 30 // (held + 1)") == ["E0532"]


def test_the_tensor_holds_memory_as_the_seat_may_see_it():
    ruleset = load_ruleset(str(EXAMPLES / "auction.yaml"))
    state, _ = played(ruleset, seed=3, players=3)
    record = state.record
    size = state.game.observation_tensor_shape()[0]
    mine, theirs = state.observation_tensor(0), state.observation_tensor(1)
    assert len(mine) == len(theirs) == size
    values = len(record.memory)  # the tensor ends with the memory: bids (3), wins (3), auctions held
    record.memory[1] = 7  # seat 2's bid: seen by seat 2 only
    assert state.observation_tensor(0)[-values:][1] == 0.0
    assert state.observation_tensor(1)[-values:][1] == 7.0
    assert state.observation_tensor(0)[-values:][3:] == [float(v) for v in record.memory[3:]]  # public
