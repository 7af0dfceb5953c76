"""A study counts a game's figures the cheap way (the events it asks for, then the finished
state) and gets what a counter told every event of the same game gets."""

from __future__ import annotations

from pathlib import Path

import pytest
from engine_fixtures import any_ruleset

from targui_dsl.frontend.build import load_ruleset
from targui_dsl.study.games import CountingSink, GameRecorder, game_seed

EXAMPLES = Path(__file__).resolve().parent.parent / "rulesets" / "examples"


def by_every_event(recorder: GameRecorder, seed: int, bots: list[str]) -> tuple:
    """The figures of a counter told every event (the event path: purchases and all)."""
    assert recorder.counter is not None
    counter = recorder.counter()
    counter.wants = None
    _, state = recorder.play(seed, bots, CountingSink(counter))
    return counter.per_game(), counter.totals(), counter.cards(), state.decisions


def cheap(recorder: GameRecorder, seed: int, bots: list[str]) -> tuple:
    record = recorder.record(seed, bots)
    return record.metrics, record.totals, record.cards, record.decisions


@pytest.mark.parametrize(("ruleset", "players", "bots"), [
    ("original-dutch", 4, ["random"]),
    ("original-dutch", 2, ["greedy", "random"]),
    ("swedish-12", 3, ["random"]),
    ("updated-treasury", 4, ["random"]),
    ("updated-treasury", 3, ["greedy", "random"]),
    (str(EXAMPLES / "market-day.yaml"), 3, ["random"]),  # hooks that change cash
    (str(EXAMPLES / "flash-flood.yaml"), 4, ["random"]),
    (str(EXAMPLES / "sudden-death.yaml"), 4, ["random"]),  # eliminations, games that end early
    ("targi", 2, ["random"]),
    ("targi", 2, ["greedy", "random"]),
])
def test_the_cheap_figures_are_those_of_every_event(ruleset, players, bots):
    recorder = GameRecorder(any_ruleset(ruleset) if "/" not in ruleset else load_ruleset(ruleset), players)
    seated = (bots * players)[:players]
    counted = [cheap(recorder, game_seed(5, i), seated) for i in range(6)]
    assert counted == [by_every_event(recorder, game_seed(5, i), seated) for i in range(6)]
    metrics = [figures for figures, *_ in counted]
    if recorder.game_name == "targui":
        assert sum(m["camels_bought"] for m in metrics) > 0 and sum(m["attacks"] for m in metrics) > 0
    else:
        assert sum(m["displayed"] for m in metrics) > 0


def house(tmp_path: Path, camels: str) -> GameRecorder:
    path = tmp_path / "house.yaml"
    path.write_text("extends: original-dutch\nid: house\n" + camels, encoding="utf-8")
    return GameRecorder(load_ruleset(str(path)), 4)


def test_free_camels_are_counted_from_their_purchases(tmp_path):
    # nothing is spent on a free camel: the counter asks to be told each purchase
    recorder = house(tmp_path, "camels:\n  box: 450\n  price: 0\n")
    assert recorder.counter is not None
    counter = recorder.counter()
    sink = CountingSink(counter)
    recorder.play(1, ["random"] * 4, sink)
    assert sink.wants is not None and "decision:buy" in sink.wants
    record = recorder.record(1, ["random"] * 4)
    assert record.metrics["camels_bought"] > 0
    assert (record.metrics, record.cards) == by_every_event(recorder, 1, ["random"] * 4)[::2]


def test_spending_at_the_cap_has_the_game_counted_again_from_every_event(tmp_path):
    # dear camels and a fortune every round: what a seat spent stops at the cap of every amount,
    # which can not tell how many camels were bought; the same game is played again, every event told
    recorder = house(tmp_path, "camels:\n  box: 450\n  price: 400000000\nhooks:\n  round_start:\n"
                               "    - for p in players { p.cash += 1000000000 }\n")
    assert recorder.counter is not None
    counter = recorder.counter()
    _, state = recorder.play(2, ["random"] * 4, CountingSink(counter))
    assert max(state.record.spent) == 10**9
    assert not counter.end(state)
    record = recorder.record(2, ["random"] * 4)
    assert record.metrics == by_every_event(recorder, 2, ["random"] * 4)[0]
    assert record.metrics["camels_bought"] > 10**9 // 400000000 * 4  # more than the spending shows
