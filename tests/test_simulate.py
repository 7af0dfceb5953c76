"""run_games, game records and summaries, and the `play` / `simulate` commands."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from engine_fixtures import any_ruleset

from targui_cli.main import cli
from targui_cli.play import play
from targui_cli.simulate import show_progress, simulate
from targui_dsl.study import game_seed, record_game
from targui_dsl.study.simulate import TIMING_FIELDS, play_game, run_games, seat_bots, without_timing


def test_run_games_summary():
    result = run_games(any_ruleset("swedish-12"), games=6, players=3, bots=["random"], seed=4)
    for key in ("ruleset", "players", "games", "seed", "wins", "draws", "rounds", "decisions", "seconds"):
        assert key in result
    assert result["ruleset"] == "swedish-12" and result["games"] == 6 and result["players"] == 3
    assert sum(result["wins"].values()) + result["draws"] == 6
    assert {"mean", "min", "max"} <= set(result["rounds"]) and result["rounds"]["max"] <= 12
    assert result["decisions"] > 0
    json.dumps(result)


def test_run_games_is_reproducible_and_seed_dependent():
    rs = any_ruleset("updated-treasury")
    a = run_games(rs, games=5, players=4, bots=["random"], seed=1)
    b = run_games(rs, games=5, players=4, bots=["random"], seed=1)
    c = run_games(rs, games=5, players=4, bots=["random"], seed=2)
    assert without_timing(a) == without_timing(b)  # cpu_seconds, like seconds, differs from run to run
    assert without_timing(a) != without_timing(c)


def test_bot_lists():
    assert seat_bots("greedy", 3) == ["greedy"] * 3
    assert seat_bots(["greedy", "random"], 4) == ["greedy", "random", "random", "random"]
    with pytest.raises(ValueError):
        seat_bots(["random"] * 5, 4)
    with pytest.raises(ValueError):
        run_games(any_ruleset("swedish-12"), games=1, bots=["nobody"])


def test_play_command_tells_the_game(tmp_path):
    log = tmp_path / "game.jsonl"
    result = CliRunner().invoke(play, ["original-dutch", "--players", "2", "--bots", "greedy,random", "--seed", "3",
                                       "--log", str(log)])
    assert result.exit_code == 0, result.output
    assert "-- round 16:" in result.output and "Game over after round" in result.output
    lines = log.read_text().splitlines()
    assert json.loads(lines[0])["type"] == "header" and json.loads(lines[-1])["type"] == "end"


def test_simulate_command_json_and_text():
    runner = CliRunner()
    result = runner.invoke(simulate, ["swedish-12", "--games", "3", "--seed", "1", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 3 and data["ruleset"] == "swedish-12"
    result = runner.invoke(simulate, ["swedish-12", "--games", "2", "--bots", "greedy,random"])
    assert result.exit_code == 0 and "bot greedy" in result.output


@pytest.mark.parametrize("command", [play, simulate])
def test_usage_errors_exit_2_and_bad_rulesets_exit_1(command, tmp_path):
    runner = CliRunner()
    assert runner.invoke(command, ["original-dutch", "--bots", "clever"]).exit_code == 2
    assert runner.invoke(command, ["original-dutch", "--players", "7"]).exit_code == 2
    assert runner.invoke(command, ["original-dutch", "--seed", "x"]).exit_code == 2
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: no-such-ruleset\n")
    result = runner.invoke(command, [str(bad)])
    assert result.exit_code == 1
    assert runner.invoke(command, ["--help"]).exit_code == 0


EXPECTED_ROUNDS = {"original-dutch": 16, "swedish-12": 12, "updated-treasury": 8}


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variant", sorted(EXPECTED_ROUNDS))
def test_simulate_200_games_last_as_long_as_the_deck(variant, players):
    result = CliRunner().invoke(
        cli, ["simulate", variant, "--games", "200", "--players", str(players), "--seed", "11", "--json"]
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["games"] == 200
    assert sum(summary["wins"].values()) + summary["draws"] == 200
    expected = EXPECTED_ROUNDS[variant]
    reasons = summary["end_reasons"]
    assert set(reasons) <= {"deck", "last_standing"}
    assert sum(reasons.values()) == 200
    # A game runs the whole deck unless one player is left alone earlier.
    assert summary["rounds"]["max"] == expected
    if reasons.get("last_standing", 0) == 0:
        assert summary["rounds"]["min"] == expected


# Balance studies: the detailed summary, workers, progress -----------------------



def test_summary_figures_are_consistent():
    games = 12
    result = run_games(any_ruleset("original-dutch"), games=games, players=4, bots=["random"], seed=3)
    rates = result["win_rates"]
    assert [r["seat"] for r in rates.values()] == [1, 2, 3, 4] and list(rates) == result["tribes"]
    for tribe, r in rates.items():
        assert r["wins"] == result["wins"][tribe] and r["rate"] == r["wins"] / games
        assert r["ci"][0] <= r["rate"] <= r["ci"][1]
    assert result["draw_rate"]["draws"] == result["draws"]
    assert result["win_rates_by_bot"]["random"]["seats"] == 4
    assert sum(result["rounds"]["distribution"].values()) == games
    assert result["rounds"]["mean"] == result["metrics"]["rounds"]["mean"]
    attacks = result["attacks"]
    assert attacks["count"] > 0 and attacks["count"] == attacks["won"] + attacks["failed"] + attacks["given_up"]
    assert attacks["per_game"] == attacks["count"] / games
    assert result["camels_bought"]["total"] > 0
    assert result["decisions"] == result["metrics"]["decisions"]["total"]
    for name in ("rounds", "attacks", "attacks_won", "camels_bought", "eliminations", "decisions"):
        m = result["metrics"][name]
        assert m["n"] == games and m["min"] <= m["mean"] <= m["max"]
    json.dumps(result)


def test_card_figures_match_what_the_cards_do():
    rs = any_ruleset("original-dutch")
    result = run_games(rs, games=10, players=4, bots=["random"], seed=8)
    cards = result["cards"]
    assert list(cards) == list(rs.deck)
    # a game of original-dutch draws the whole deck unless it ends early
    assert sum(c["drawn"] for c in cards.values()) == sum(r * n for r, n in (
        (int(k), v) for k, v in result["rounds"]["distribution"].items()))
    removes = ("sandstorm", "drought", "camel_plague", "poisoned_water")
    for card in removes:
        assert cards[card]["camels_removed"] > 0 and cards[card]["camels_added"] == 0
        assert cards[card]["per_draw"]["camels_removed"] == cards[card]["camels_removed"] / cards[card]["drawn"]
    assert cards["spring"]["camels_added"] > 0 and cards["spring"]["camels_removed"] == 0
    assert cards["caravan_raid"]["cash_given"] > 0 and cards["caravan_raid"]["cash_taken"] == 0
    assert cards["settlement_raid"]["cash_taken"] > 0
    assert cards["climate_change"]["camels_removed"] == cards["climate_change"]["camels_added"] == 0


def test_records_count_what_the_log_shows():
    from targui_dsl.engine.chance import derive_seed
    from targui_dsl.gamelog.events import EventLog
    from targui_dsl.games.targui.game import Game

    rs = any_ruleset("swedish-12")
    record = record_game(rs, 3, game_seed(2, 5), ["greedy", "random", "random"], index=5)
    log = EventLog()
    state = play_game(Game(rs, players=3, seed=derive_seed(2, 5)), ["greedy", "random", "random"], log=log)
    events = log.events
    assert list(record.winners) == state.winners() and record.rounds == state.round
    assert list(record.scores) == state.scores() and record.index == 5
    assert record.metrics["attacks"] == sum(1 for e in events if e["type"] == "attack_end")
    assert record.metrics["attacks_won"] == sum(1 for e in events if e["type"] == "attack_end" and e["result"] == "won")
    assert record.metrics["eliminations"] == sum(1 for e in events if e["type"] == "eliminated")
    bought = sum(int(e["action"].split()[1]) for e in events
                 if e["type"] == "decision" and e["action"].startswith("buy"))
    assert record.metrics["camels_bought"] == bought > 0
    assert sum(c[0] for c in record.cards.values()) == sum(1 for e in events if e["type"] == "card")


def test_rotation_seats_bots_in_turn():
    result = run_games(any_ruleset("swedish-12"), games=8, players=4, bots=["greedy", "random"], seed=1, rotate=True)
    assert result["win_rates_by_bot"]["greedy"]["seats"] == 1
    assert sum(result["wins_by_bot"].values()) + result["draws"] == 8


def test_workers_need_a_reference():
    with pytest.raises(ValueError, match="reference"):
        run_games(any_ruleset("swedish-12"), games=4, workers=2)


def test_workers_give_the_same_results_as_one():
    runner = CliRunner()
    outputs = []
    for workers in ("1", "2"):
        result = runner.invoke(cli, ["simulate", "swedish-12", "--games", "10", "--players", "3", "--seed", "9",
                                     "--bots", "greedy,random", "--rotate", "--workers", workers, "--json"])
        assert result.exit_code == 0, result.output
        outputs.append(json.loads(result.output))
    one, two = outputs
    assert one["workers"] == 1 and two["workers"] == 2
    assert without_timing(one) == without_timing(two)
    assert set(TIMING_FIELDS) <= set(one)


def test_simulate_text_reads_as_tables():
    result = CliRunner().invoke(simulate, ["original-dutch", "--games", "6", "--bots", "greedy,random", "--seed", "2"])
    assert result.exit_code == 0, result.output
    out = result.output
    for text in ("95% CI", "seat 1 Kel", "bot greedy", "bot random (3 seats)", "draws", "Rounds: mean",
                 "attacks won", "camels bought", "eliminations", "Cards (per draw)", "Sandstorms", "decisions/s"):
        assert text in out, text


def test_json_output_keeps_the_old_keys_and_adds_the_new():
    result = CliRunner().invoke(simulate, ["updated-treasury", "-n", "3", "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    for key in ("ruleset", "players", "games", "seed", "wins", "draws", "rounds", "decisions", "seconds",
                "win_rates", "win_rates_by_bot", "draw_rate", "end_reasons", "metrics", "attacks",
                "camels_bought", "eliminations", "cards", "mean_scores"):
        assert key in data, key
    assert {"mean", "min", "max", "sd", "distribution"} <= set(data["rounds"])


def test_progress_bar_only_on_a_terminal(monkeypatch):
    class Tty:
        def isatty(self):
            return True

    class Pipe:
        def isatty(self):
            return False

    assert show_progress(False, Tty()) and not show_progress(True, Tty()) and not show_progress(False, Pipe())
    runner = CliRunner()
    for args in (["--json"], []):
        result = runner.invoke(simulate, ["swedish-12", "-n", "2", *args])
        assert result.exit_code == 0 and result.stderr == ""
    assert json.loads(runner.invoke(simulate, ["swedish-12", "-n", "2", "--json"]).output)["games"] == 2
    # where stderr is a terminal the bar is drawn there, never into the report on stdout
    monkeypatch.setattr("targui_cli.simulate.show_progress", lambda as_json, stream=None: not as_json)
    result = runner.invoke(simulate, ["swedish-12", "-n", "2"])
    assert result.exit_code == 0 and "swedish-12" in result.stderr
    assert result.stdout.startswith("Targui")
    result = runner.invoke(simulate, ["swedish-12", "-n", "2", "--json"])
    assert result.stderr == "" and json.loads(result.stdout)["games"] == 2


@pytest.mark.parametrize("args", [["--workers", "-1"], ["--plot", "out.txt"], ["--games", "0"], ["--format", "xml"]])
def test_simulate_bad_flags_exit_2(args):
    assert CliRunner().invoke(simulate, ["swedish-12", *args]).exit_code == 2


def test_play_json_reports_the_result_of_a_bot_game():
    result = CliRunner().invoke(cli, ["play", "swedish-12", "--players", "3", "--seed", "4", "--json"])
    assert result.exit_code == 0, result.output
    outcome = json.loads(result.output)  # nothing but the JSON object: the game is not told
    assert outcome["ruleset"] == "swedish-12" and outcome["players"] == 3 and outcome["seed"] == 4
    assert [s["tribe"] for s in outcome["seats"]] == ["kel_ahaggar", "kel_ajjer", "kel_ilbakan"]
    assert outcome["end_reason"] in {"deck", "last_standing"}
    best = max(outcome["scores"].values())
    assert outcome["winners"] and all(outcome["scores"][w] == best for w in outcome["winners"]) or \
        outcome["end_reason"] == "last_standing"
    assert outcome["draw"] == (len(outcome["winners"]) != 1)


def test_play_json_with_a_human_is_a_usage_error():
    result = CliRunner().invoke(cli, ["play", "swedish-12", "--human", "1", "--json"])
    assert result.exit_code == 2


def test_a_study_game_builds_no_log(monkeypatch):
    # a log's header hashes the ruleset's files: a study that built one per game spent a quarter
    # of its time on logging; its counter is fed directly
    import targui_dsl.gamelog.events as events

    def no_log(*args, **kwargs):
        raise AssertionError("a study game built an event log")

    monkeypatch.setattr(events, "header_line", no_log)
    monkeypatch.setattr(events.EventLog, "__init__", no_log)
    record = record_game(any_ruleset("original-dutch"), 4, game_seed(7, 0), ["random"] * 4)
    assert record.decisions > 0 and sum(c[0] for c in record.cards.values()) > 0
