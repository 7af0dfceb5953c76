"""`simulate` and `compare` take any bot spelling, keep it through workers and --out files, say which
bots played, and give each bot its win share (with parity) when the seats rotate."""

from __future__ import annotations

import json

import bot_fixtures
import pytest
from click.testing import CliRunner

from targui_cli.main import cli
from targui_dsl.agents import DEFAULT_BOTS

dice_bot = pytest.fixture(scope="module")(bot_fixtures.dice_bot)


def invoke(*args: str):
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return result


def test_simulate_keeps_spellings_through_workers_and_the_out_file(dice_bot, tmp_path):
    out = tmp_path / "study.jsonl"
    args = ("simulate", "swedish-12", "-p", "3", "-n", "12", "--bots", " dice:salt=5 , greedy,dice:salt=0",
            "--rotate", "--seed", "2", "--json")
    alone = json.loads(invoke(*args).stdout)
    pooled = json.loads(invoke(*args, "-w", "2", "--out", str(out)).stdout)
    resumed = json.loads(invoke(*args, "--out", str(out)).stdout)
    # canonical spellings: spaces gone, a parameter at its default left out
    assert alone["bots"] == ["dice:salt=5", "greedy", "dice"]
    assert json.loads(out.read_text().splitlines()[0])["study"]["bots"] == ["dice:salt=5", "greedy", "dice"]
    for key in ("wins", "wins_by_bot", "win_rates_by_bot", "draws"):
        assert alone[key] == pooled[key] == resumed[key]
    assert resumed["games_played"] == 0
    by_bot = alone["win_rates_by_bot"]
    assert set(by_bot) == {"dice:salt=5", "greedy", "dice"}
    assert sum(r["wins"] for r in by_bot.values()) + alone["draws"] == 12
    assert by_bot["greedy"]["parity"] == pytest.approx(1 / 3) and by_bot["greedy"]["seats"] == 1


def test_one_good_bot_against_three_gets_its_own_win_share_with_parity():
    result = invoke("simulate", "original-dutch", "-n", "8", "--bots", "greedy,random", "--rotate", "--seed", "1")
    lines = result.stdout.splitlines()
    assert "bots greedy, random, random, random (rotated)" in lines[0]
    greedy = next(line for line in lines if line.strip().startswith("bot greedy"))
    randoms = next(line for line in lines if line.strip().startswith("bot random (3 seats)"))
    assert greedy.split()[2:4] == ["8", "100.0%"] and greedy.endswith("parity 25.0%")
    assert randoms.endswith("parity 75.0%")
    unrotated = invoke("simulate", "original-dutch", "-n", "2", "--bots", "greedy,random").stdout
    assert "the bots kept their seats" in unrotated


def test_compare_reports_the_bots_and_their_spellings(dice_bot):
    result = invoke("compare", "original-dutch", "rulesets/examples/salt-caravan.yaml", "-n", "4", "-p", "2",
                    "--bots", "dice:salt=1,greedy", "--rotate", "--json")
    comparison = json.loads(result.stdout)
    assert comparison["bots"] == ["dice:salt=1", "greedy"]
    assert {"wins_by_bot.dice:salt=1", "wins_by_bot.greedy"} <= {row["key"] for row in comparison["rows"]}
    text = invoke("compare", "original-dutch", "rulesets/examples/salt-caravan.yaml", "-n", "4", "-p", "2",
                  "--bots", "dice:salt=1,greedy", "--rotate").stdout
    assert "bots dice:salt=1, greedy (rotated)" in text and "wins bot dice:salt=1" in text


def test_simulate_and_play_default_to_the_same_bots():
    simulated = json.loads(invoke("simulate", "swedish-12", "-n", "1", "--json").stdout)
    played = json.loads(invoke("play", "swedish-12", "--json").stdout)
    assert simulated["bots"] == [seat["bot"] for seat in played["seats"]] == [DEFAULT_BOTS] * 4


def test_run_games_defaults_like_the_commands_and_names_bots_canonically(dice_bot):
    from targui_dsl.study.simulate import run_games

    assert run_games("swedish-12", games=1, players=3, seed=1)["bots"] == [DEFAULT_BOTS] * 3
    figures = run_games("swedish-12", games=2, players=2, bots=" dice:salt=0 , dice:salt=7", seed=1)
    assert figures["bots"] == ["dice", "dice:salt=7"] and set(figures["wins_by_bot"]) == {"dice", "dice:salt=7"}
