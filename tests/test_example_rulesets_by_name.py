"""The example house rules are reached by name, listed after the built-in rulesets, and a
built-in name wins over an example's."""

from __future__ import annotations

import json
from pathlib import Path

from cli_run import run

from targui_dsl.frontend import resources
from targui_dsl.frontend.resources import builtin_ruleset_names, example_ruleset_names


def test_validate_an_example_by_its_name():
    result = run("validate", "salt-caravan")
    assert result.exit_code == 0, result.output
    assert "ok  salt-caravan" in result.output


def test_a_misspelt_example_is_suggested():
    result = run("validate", "salt-carvan")
    assert result.exit_code == 1
    assert "did you mean `salt-caravan`?" in result.output


def test_rulesets_all_lists_builtins_first_then_examples():
    plain = run("rulesets")
    every = run("rulesets", "--all")
    assert plain.exit_code == every.exit_code == 0
    names = [line.split()[0] for line in every.output.splitlines()]
    builtins = [n for n in builtin_ruleset_names() if n != "base"]
    assert names == builtins + example_ruleset_names()
    assert "salt-caravan" in names and "salt-caravan" not in plain.output
    assert all(line.endswith("(example)") for line in every.output.splitlines()[len(builtins):])
    rows = json.loads(run("rulesets", "--all", "--json").output)
    assert [r["kind"] for r in rows] == ["built-in"] * len(builtins) + ["example"] * len(example_ruleset_names())


def test_a_game_of_an_example_by_name_replays_and_verifies(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    played = run("play", "salt-caravan", "--bots", "random", "--seed", "4", "--log", "game.jsonl")
    assert played.exit_code == 0, played.output
    verified = run("replay", "game.jsonl", "--verify")
    assert verified.exit_code == 0, verified.output
    assert verified.output.startswith("verified: all")


def test_a_builtin_name_wins_over_an_example(tmp_path: Path, monkeypatch):
    (tmp_path / "examples").mkdir()
    for path in (tmp_path / "twin.yaml", tmp_path / "examples" / "twin.yaml", tmp_path / "examples" / "only.yaml"):
        path.write_text("id: x\n", encoding="utf-8")
    monkeypatch.setattr(resources, "rulesets_dir", lambda: tmp_path)
    assert resources.builtin_ruleset_path("twin") == tmp_path / "twin.yaml"
    assert resources.builtin_ruleset_path("only") == tmp_path / "examples" / "only.yaml"
    assert resources.builtin_ruleset_path("none") is None
