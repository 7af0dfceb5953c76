"""Conventions a user relies on across commands: -V, one meaning per short option, a fresh
seed that is told, `bots --format json`, and completion of ruleset names and bot spellings."""

from __future__ import annotations

import json
import re
from pathlib import Path

import click
from cli_run import COMMANDS, run, targui
from click.shell_completion import ShellComplete

from targui_cli.main import cli
from targui_dsl.agents import BOTS, DEFAULT_BOTS, bot_names, parse_bot

ROOT = Path(__file__).resolve().parent.parent


def test_version_short_and_long():
    declared = re.search(r'^version = "([^"]+)"', (ROOT / "pyproject.toml").read_text(), re.M).group(1)
    for flag in ("-V", "--version"):
        result = targui(flag)
        assert result.returncode == 0, result.stderr
        assert result.stdout == f"targui {declared}\n"


def test_each_short_option_means_one_thing_in_every_command():
    meaning: dict[str, set[str]] = {}
    for name in COMMANDS:
        for param in cli.commands[name].params:
            if isinstance(param, click.Option):
                longs = sorted(o for o in param.opts + param.secondary_opts if o.startswith("--"))
                for short in (o for o in param.opts if re.fullmatch(r"-[A-Za-z]", o)):
                    meaning.setdefault(short, set()).add(longs[0])
    assert meaning["-n"] == {"--games"}
    assert {short: longs for short, longs in meaning.items() if len(longs) > 1} == {}
    assert run("replay", "x.jsonl", "-n").exit_code == 2  # no longer --numbers


def test_play_without_seed_draws_a_fresh_one_and_tells_it():
    args = ("play", "swedish-12", "--players", "2", "--bots", "random", "--no-board")
    first, second = run(*args), run(*args)
    assert first.exit_code == second.exit_code == 0, first.output
    told = re.match(r"Seed (\d+) \(drawn at random; --seed \1 plays this game again\)\n", first.output)
    assert told is not None, first.output[:200]
    assert first.output.splitlines()[0] != second.output.splitlines()[0]
    again = run(*args, "--seed", told.group(1))
    assert again.exit_code == 0
    assert again.output == first.output[told.end():]  # the same game, told the same way


def test_play_json_without_seed_carries_its_seed():
    result = run("play", "swedish-12", "--players", "2", "--bots", "random", "--json")
    assert result.exit_code == 0
    seed = json.loads(result.output)["seed"]
    again = json.loads(run("play", "swedish-12", "--players", "2", "--bots", "random", "--json",
                           "--seed", str(seed)).output)
    assert again == json.loads(result.output)


def test_bots_format_json():
    for args in (("bots", "--format", "json"), ("bots", "--json")):
        result = run(*args)
        assert result.exit_code == 0
        data = json.loads(result.output)
        assert data["default"] == DEFAULT_BOTS
        assert [b["name"] for b in data["bots"]] == bot_names()
        ismcts = next(b for b in data["bots"] if b["name"] == "ismcts")
        iterations = next(p for p in ismcts["parameters"] if p["name"] == "iterations")
        # the default game's (Targui's own, as the text listing says), not the shared default
        assert iterations["type"] == "int" and iterations["default"] == parse_bot("ismcts").params["iterations"]
        assert iterations["default"] != BOTS["ismcts"].params[0].default
    assert "default: greedy" in run("bots").output


def completions(*words: str) -> list[tuple[str, str]]:
    *args, incomplete = words
    return [(item.type, item.value)
            for item in ShellComplete(cli, {}, "targui", "_TARGUI_COMPLETE").get_completions(args, incomplete)]


def test_completion_of_commands_rulesets_and_bots():
    assert ("plain", "simulate") in completions("sim")
    assert completions("validate", "salt") == [("file", "salt"), ("plain", "salt-caravan")]
    assert ("plain", "updated-treasury") in completions("play", "upd")
    assert completions("compare", "original-dutch", "sw") == [("file", "sw"), ("plain", "swedish-12")]
    assert completions("show", "rulesets/ex") == [("file", "rulesets/ex")]  # a path: the shell's files
    assert ("plain", "--bots") in completions("play", "original-dutch", "--bo")
    assert completions("play", "original-dutch", "--bots", "greedy,ra") == [("plain", "greedy,random")]
    assert completions("simulate", "original-dutch", "--bots", "ismcts:it") == [("plain", "ismcts:iterations=")]
