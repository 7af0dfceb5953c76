"""Levels are per game: a level is every game's word, but each game may give it its own bot
(`hard` a step up that game affords); `targui bots --game GAME` shows that game's bots,
levels and measured ladder; each game's shipped ladder rates the levels as they are now."""

from __future__ import annotations

import json

import pytest
from cli_run import run

from targui_cli.common import check_bots_for, parse_bots
from targui_dsl import load_ruleset
from targui_dsl.agents.spec import LEVELS, bots_of, defaults_of, levels_of, parse_bot
from targui_dsl.games import GAMES, game_package
from targui_dsl.study.ladder import read_ladder


def _iterations(spelling: str, game: str) -> int:
    return int(parse_bot(spelling, game).params["iterations"])


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_level_is_its_games_bot_spelled_as_tables_show_it(game):
    levels = levels_of(game)
    assert list(levels) == list(LEVELS)  # a game neither renames nor adds a level
    for level, spelling in levels.items():
        assert parse_bot(level, game).spelling() == spelling  # canonical: the ladder finds it by this
    assert levels["easy"] == "greedy" and levels["normal"] == "ismcts"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_hard_searches_more_than_normal_but_within_reach_in_every_game(game):
    default = defaults_of(bots_of(game)["ismcts"], game)["iterations"]
    assert _iterations("normal", game) == default
    assert 3 * default <= _iterations("hard", game) <= 6 * default


def test_targi_sets_its_own_hard_and_targui_keeps_the_shared_one():
    assert levels_of("targui") == LEVELS
    assert levels_of("targi")["hard"] != LEVELS["hard"]
    assert parse_bot("hard", "targi").spelling() == game_package("targi").levels["hard"]


def test_the_command_line_resolves_a_level_for_the_rulesets_game():
    words = parse_bots("random,hard,ismcts:iterations=600")
    assert words == ["random", "hard", "ismcts:iterations=600"]  # the game is not known yet
    assert check_bots_for(load_ruleset("swedish-12"), words)[1] == LEVELS["hard"]
    assert check_bots_for(load_ruleset("targi"), words)[1] == levels_of("targi")["hard"]


def test_a_level_and_its_bot_are_one_bot_in_a_tournament_of_that_game():
    spelled = levels_of("targi")["hard"]
    result = run("tournament", "targi", "--bots", f"hard,{spelled}", "-n", "2")
    assert result.exit_code == 2 and f"`{spelled}` is named twice" in result.output


def test_the_default_game_is_targui_and_its_listing_differs_from_targis():
    plain = run("bots").output
    targui, targi = (run("bots", "--game", game).output for game in ("targui", "targi"))
    assert plain == targui != targi
    assert "Targui (Jumbo, 1988)" in plain and "original-dutch, 2 players" in plain and "targi, 2 players" not in plain


@pytest.mark.parametrize(("word", "hint"), [("targ", "did you mean `targi`?"), ("Targui", "did you mean `targui`?"),
                                            ("chess", "targui plays: targi, targui")])
def test_a_game_targui_does_not_play_is_a_usage_error_with_a_hint(word, hint):
    result = run("bots", "--game", word)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"no game `{word}`" in result.output and hint in result.output


def test_a_ladder_line_keeps_its_bots_settings_and_tells_those_changed_since(tmp_path):
    from dataclasses import replace

    from targui_cli import bots as bots_command
    from targui_dsl.study.ladder import changed_since, ladder_row, write_ladder

    searched = "ismcts:iterations=1:depth=0"
    played = run("tournament", "updated-treasury", "--bots", f"random,{searched}", "-n", "2", "--seed", "1", "--json")
    assert played.exit_code == 0, played.output
    row = ladder_row(json.loads(played.output), "targui tournament ...", "targui")
    assert row["settings"][searched]["iterations"] == 1 and row["settings"][searched]["depth"] == 0
    assert row["settings"]["random"] == {} and changed_since(row, "targui") == []
    then = {**row, "ruleset": "swedish-12", "settings": {**row["settings"],
                                                          searched: {**row["settings"][searched], "exploration": 2.0}}}
    old = {key: value for key, value in row.items() if key != "settings"} | {"ruleset": "original-dutch"}
    assert changed_since(then, "targui") == [searched] and changed_since(old, "targui") is None
    write_ladder([row, then, old], tmp_path / "ladder.json")
    original = bots_command.game_package
    bots_command.game_package = lambda name="targui": replace(original(name), trained=str(tmp_path))
    try:
        listing, data = run("bots").output, json.loads(run("bots", "--json").output)
    finally:
        bots_command.game_package = original
    assert f"(measured with other settings of `{searched}` than today's: run the ladder again)" in listing
    assert listing.count("(measured before a line kept its bots' settings") == 1
    assert [line["changed"] for line in data["ladder"]] == [[], [searched], None]
def test_targui_bots_for_targi_lists_its_bots_levels_and_ladder():
    listing = run("bots", "--game", "targi")
    assert listing.exit_code == 0, listing.output
    assert "Targi (Kosmos, 2012)" in listing.output
    assert "ismcts:iterations=... (a whole number 1..100000, default 40)" in listing.output
    assert "levels: " + ", ".join(f"{k} = {v}" for k, v in levels_of("targi").items()) in listing.output
    rows = read_ladder(game_package("targi"))
    assert [row["ruleset"] for row in rows] == ["targi"]
    assert f"`{rows[0]['command']}`" in listing.output
    for level in LEVELS:
        assert f"\n  {level:<7} rating " in listing.output
    data = json.loads(run("bots", "--game", "targi", "--json").output)
    assert data["game"] == "targi" and data["levels"] == levels_of("targi")
    assert data["ladder"] == [{**row, "changed": []} for row in rows]  # measured with today's settings
    ismcts = next(b for b in data["bots"] if b["name"] == "ismcts")
    assert next(p for p in ismcts["parameters"] if p["name"] == "iterations")["default"] == 40



@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_games_shipped_ladder_rates_its_levels_as_they_are(game):
    rows = read_ladder(game_package(game))
    assert rows, f"{game} ships no ladder (benchmarks/ladder.py)"
    for row in rows:
        assert game_package(game).name == load_ruleset(row["ruleset"]).game
        assert row["command"].startswith(f"targui tournament {row['ruleset']} --bots random,easy,normal,hard ")
        rated = {bot["bot"] for bot in row["table"]}
        assert set(levels_of(game).values()) <= rated, f"{row['ruleset']}: run the ladder again"
        assert sum(bot["games"] for bot in row["table"]) == 2 * row["games"]  # two seats a game
