"""Every log targui writes can be read back by every reader: each built-in variant and each
example ruleset, played by each bot, gives a log that `replay` tells, `replay --verify`
verifies, the stepper (`replay_log(..., at=N)`) steps through, and `play --resume` continues,
from a cut anywhere, to the very same game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_run import run

from targui_dsl import load_ruleset
from targui_dsl.frontend.resources import rulesets_dir
from targui_dsl.gamelog.replay import replay_log
from targui_dsl.games.targui.phases import CHANCE_PHASES

BUILT_IN = ["original-dutch", "swedish-12", "updated-treasury"]
EXAMPLES = sorted(str(p) for p in (rulesets_dir() / "examples").glob("*.yaml"))
BOTS = ["random", "greedy", "ismcts:iterations=5"]


def test_the_log_schema_names_every_chance_node_the_engine_logs():
    schema = json.loads((rulesets_dir().parent / "schemas" / "game-log.schema.json").read_text(encoding="utf-8"))
    nodes = schema["$defs"]["chance"]["properties"]["node"]["enum"]
    assert sorted(nodes) == sorted([p.label for p in CHANCE_PHASES] + ["draw"])  # Targi's draws from a deck


@pytest.mark.parametrize("bot", BOTS)
@pytest.mark.parametrize("ruleset", BUILT_IN + EXAMPLES, ids=lambda r: Path(r).stem)
def test_every_log_verifies_replays_steps_and_resumes(tmp_path, ruleset, bot):
    log = tmp_path / "game.jsonl"
    played = run("play", ruleset, "--players", "2", "--seed", "7", "--bots", bot, "--no-board", "--log", str(log))
    assert played.exit_code == 0, played.output
    text = log.read_text(encoding="utf-8")
    lines = text.splitlines()
    events = [json.loads(line) for line in lines]
    assert events[-1]["type"] == "end" or any(e["type"] == "end" for e in events)

    verified = run("replay", str(log), "--verify", "-q")
    assert verified.exit_code == 0, verified.output
    assert f"verified: all {len(lines) - 1} events" in verified.output
    told = run("replay", str(log), "-q")
    assert told.exit_code == 0, told.output

    # the stepper's moves: the board after an event, here after every die thrown and at the end
    rs = load_ruleset(ruleset)
    dice = [i for i, e in enumerate(events) if e["type"] == "chance" and e["action"].startswith("die")]
    for at in dice[:3] + dice[-2:] + [len(events) - 1]:
        step = replay_log(rs, events, at=at)
        assert step.ok, step.difference

    # cut in the middle (between two events, wherever that falls), then resumed to the same game
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(line + "\n" for line in lines[:len(lines) // 2]), encoding="utf-8")
    resumed = run("play", "--resume", str(cut), "--no-board")
    assert resumed.exit_code == 0, resumed.output
    assert cut.read_text(encoding="utf-8") == text
