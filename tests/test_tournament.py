"""`targui tournament`: a fair schedule, a table that adds up, ratings that order the bots, and
clear refusals; with the ratings' arithmetic on known data."""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter

import bot_fixtures
import pytest
from click.testing import CliRunner

from targui_cli.main import cli
from targui_dsl.study.ratings import Outcome, fit_ratings, pairwise_points
from targui_dsl.study.tournament import round_size, rounded_games, seating

dice_bot = pytest.fixture(scope="module")(bot_fixtures.dice_bot)


def run(*args: str):
    return CliRunner().invoke(cli, ["tournament", *args])


def table_json(*args: str) -> dict:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


# --- the schedule ---------------------------------------------------------------------------


@pytest.mark.parametrize("bots,seats", [(2, 2), (3, 2), (3, 3), (4, 3), (4, 4), (5, 4), (6, 4)])
def test_every_round_seats_every_bot_in_every_seat_equally(bots, seats):
    size = round_size(bots, seats)
    for start in (0, size, 3 * size):  # any whole round, not only the first
        games = [seating(g, bots, seats) for g in range(start, start + size)]
        assert all(len(set(game)) == seats for game in games)  # each bot once a game
        per_seat = Counter((bot, seat) for game in games for seat, bot in enumerate(game))
        assert set(per_seat.values()) == {size * seats // bots // seats}  # every bot, every seat, alike
        assert len(per_seat) == bots * seats
        meetings = Counter(pair for game in games for pair in itertools.combinations(sorted(game), 2))
        assert len(meetings) == math.comb(bots, 2) and len(set(meetings.values())) == 1


@pytest.mark.parametrize("bots,seats", [(3, 3), (4, 4), (5, 4)])
def test_the_seating_orders_cycle_until_every_seating_is_played_once(bots, seats):
    cycle = round_size(bots, seats) * math.factorial(seats - 1)
    games = [seating(g, bots, seats) for g in range(cycle)]
    assert len(set(games)) == cycle == math.perm(bots, seats)


def test_games_are_rounded_up_to_whole_rounds():
    assert round_size(5, 4) == 20 and rounded_games(30, 5, 4) == 40 and rounded_games(40, 5, 4) == 40
    result = run("original-dutch", "--bots", "random,greedy", "-n", "5", "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["games"] == 6
    assert "note: 5 games rounded up to 6" in result.stderr


# --- the table ------------------------------------------------------------------------------


def test_the_table_adds_up_and_the_json_has_its_shape(dice_bot):
    t = table_json("swedish-12", "--bots", "random,dice:salt=1,dice:salt=2", "-p", "2", "-n", "12", "--seed", "4",
                   "--resamples", "50")
    assert t["players"] == 2 and t["games"] == 12 and t["round"] == 6
    assert t["bots"] == ["random", "dice:salt=1", "dice:salt=2"]  # the spellings, parameters and all
    assert {"ruleset", "title", "seed", "tribes", "parity", "draws", "rating", "table", "head_to_head",
            "seconds", "games_played"} <= set(t)
    assert sorted(row["bot"] for row in t["table"]) == sorted(t["bots"])
    assert sum(row["wins"] for row in t["table"]) == pytest.approx(t["games"])  # draws split, nothing lost
    for row in t["table"]:
        assert row["games"] == 8  # 12 games, 2 seats, 3 bots
        assert [s["games"] for s in row["seats"]] == [4, 4]
        assert sum(s["wins"] for s in row["seats"]) == pytest.approx(row["wins"])
        assert row["share"] == pytest.approx(row["wins"] / row["games"])
        assert row["ci"][0] <= row["share"] <= row["ci"][1]
        assert row["rating_ci"][0] <= row["rating"] <= row["rating_ci"][1]
    assert sum(row["rating"] for row in t["table"]) / 3 == pytest.approx(1500)
    ratings = [row["rating"] for row in t["table"]]
    assert ratings == sorted(ratings, reverse=True)  # best first


def test_greedy_is_rated_above_random():
    t = table_json("original-dutch", "--bots", "random,greedy", "-n", "20", "--seed", "1", "--resamples", "200")
    greedy, random_ = t["table"]
    assert (greedy["bot"], random_["bot"]) == ("greedy", "random")
    # greedy wins about 499 of 500 games against random: 20 games separate them beyond the intervals
    assert greedy["share"] >= 0.9 and greedy["ci"][0] > 0.5
    assert greedy["rating_ci"][0] > random_["rating_ci"][1]
    text = run("original-dutch", "--bots", "random,greedy", "-n", "20", "--seed", "1", "--resamples", "200").stdout
    lines = text.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("bot "))
    assert lines[header + 2].startswith("greedy") and lines[header + 3].startswith("random")
    assert "seat 1" in lines[header] and "rating" in lines[header]


def test_a_tournament_is_the_same_whatever_runs_it_and_resumes_from_out(dice_bot, tmp_path):
    args = ("original-dutch", "--bots", "dice:salt=3,random,greedy", "-p", "2", "-n", "6", "--seed", "2",
            "--resamples", "50")
    one = table_json(*args)
    two = table_json(*args, "-w", "2", "--out", str(tmp_path / "t.jsonl"))
    again = table_json(*args, "--out", str(tmp_path / "t.jsonl"))
    assert one["table"] == two["table"] == again["table"]
    assert two["games_played"] == 6 and again["games_played"] == 0
    header = json.loads((tmp_path / "t.jsonl").read_text().splitlines()[0])
    assert header["format"] == "targui-tournament/1" and header["study"]["bots"][0] == "dice:salt=3"
    other = run(*args[:-4], "--seed", "3", "--out", str(tmp_path / "t.jsonl"))
    assert other.exit_code == 2 and "holds another tournament (seed 2 here, 3 now)" in other.stderr


def test_the_rating_interval_narrows_with_more_games():
    outcome = lambda n: [Outcome((0, 1), (0, 1), 3 * n), Outcome((0, 1), (1, 0), n)]  # noqa: E731
    few, many = fit_ratings(outcome(10), 2, 200, 1), fit_ratings(outcome(1000), 2, 200, 1)
    width = lambda fit: fit.intervals[0][1] - fit.intervals[0][0]  # noqa: E731
    assert width(many) < width(few) / 5


def test_ratings_are_the_bradley_terry_fit_on_the_elo_scale():
    # 300 wins to 100 and one drawn meeting of prior: 300.5 / 100.5 on the Elo scale, 1500 on average
    fit = fit_ratings([Outcome((0, 1), (0, 1), 300), Outcome((1, 0), (0, 1), 100)], 2, resamples=0)
    assert fit.ratings[0] - fit.ratings[1] == pytest.approx(400 * math.log10(300.5 / 100.5))
    assert sum(fit.ratings) / 2 == pytest.approx(1500)
    # a four-player game is its six pairwise placings; a shared first place is a draw for the pair
    games = [Outcome((0, 1, 2, 3), (0, 0, 1, 1), 50)]
    points, meetings = pairwise_points(((o, o.count) for o in games), 4)
    assert (points[0][1], points[1][0], meetings[0][1]) == (25, 25, 50) and (points[0][2], points[2][0]) == (50, 0)
    fit = fit_ratings(games, 4, 0)
    assert fit.ratings[0] == pytest.approx(fit.ratings[1]) and fit.ratings[2] == pytest.approx(fit.ratings[3])
    assert fit.ratings[1] > fit.ratings[2] + 300


def test_a_bot_that_won_every_meeting_still_has_a_wide_interval():
    fit = fit_ratings([Outcome((0, 1), (0, 1), 10), Outcome((1, 0), (1, 0), 10)], 2, 200, 1)
    assert fit.intervals[0][1] - fit.intervals[0][0] > 200  # 20 games cannot say how much stronger


# --- refusals -------------------------------------------------------------------------------


@pytest.mark.parametrize("args,message", [
    (["--bots", "random,greedy,clever"], "unknown bot `clever`"),
    (["--bots", "greedy"], "a tournament needs at least two bots"),
    (["--bots", "random,greedy", "-n", "0"], "0 is not in the range"),
    (["--bots", "random,greedy,random"], "`random` is named twice"),
    (["--bots", "random,greedy", "-p", "4"], "4 seats need at least 4 bots"),
    (["--bots", "random,greedy", "-p", "5"], "seats 2, 3, 4 players, not 5"),
    (["--bots", "random,dice:depth=2"], "bot `dice` has no parameter `depth`"),
])
def test_bad_input_is_one_clear_line_and_exit_2(args, message, dice_bot):
    result = run("original-dutch", *args)
    assert result.exit_code == 2
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and message in errors[0], result.stderr
    assert "Traceback" not in result.output and result.stdout == ""


def test_help_reads_like_a_man_page():
    text = run("--help").stdout
    for part in ("Exit status:", "Examples:", "round", "Bradley-Terry", "--games", "--out", "--workers"):
        assert part in text
    assert "tournament" in CliRunner().invoke(cli, ["--help"]).stdout


def test_in_a_played_tournament_every_bot_played_every_seat_equally(dice_bot):
    t = table_json("original-dutch", "--bots", "random,dice:salt=1,dice:salt=2,dice:salt=3", "-p", "3", "-n", "12",
                   "--seed", "5", "--resamples", "0")
    assert t["round"] == 12 and t["games"] == 12 and t["parity"] == pytest.approx(1 / 3)
    for row in t["table"]:
        assert [s["games"] for s in row["seats"]] == [3, 3, 3]  # 12 games x 3 seats / 4 bots, a third each seat
    assert sum(row["wins"] for row in t["table"]) == pytest.approx(12)
    meetings = {(a, b): h["meetings"] for a, others in t["head_to_head"].items() for b, h in others.items()}
    assert set(meetings.values()) == {6}  # every two bots met in the same number of games


def test_a_dask_cluster_plays_the_same_tournament(dice_bot):
    distributed = pytest.importorskip("distributed")
    args = ("original-dutch", "--bots", "random,dice:salt=4,greedy", "-p", "2", "-n", "6", "--seed", "3",
            "--resamples", "20")
    local = table_json(*args)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) \
            as cluster:
        remote = table_json(*args, "--scheduler", cluster.scheduler_address)
    assert remote["workers"] == 2 and remote["table"] == local["table"]


def test_tournament_records_a_row_per_game_with_the_seats_bots(tmp_path):
    import csv

    runner = CliRunner()
    out, records = str(tmp_path / "t.jsonl"), str(tmp_path / "games.csv")
    args = ["tournament", "swedish-12", "--bots", "random,greedy", "-n", "8", "--seed", "5", "--json"]
    data = json.loads(runner.invoke(cli, [*args, "--out", out, "--records", records]).output)
    with open(records) as f:
        rows = list(csv.DictReader(f))
    assert [int(r["game"]) for r in rows] == list(range(8)) and data["draws"] == 0
    for entry in data["table"]:  # the table's games per seat and wins are the records'
        for seat in entry["seats"]:
            assert sum(r[f"bot_{seat['seat']}"] == entry["bot"] for r in rows) == seat["games"]
        assert sum(r["winner_bot"] == entry["bot"] for r in rows) == entry["wins"]
    assert all({r["bot_1"], r["bot_2"]} == {"random", "greedy"} for r in rows)
    again = json.loads(runner.invoke(cli, [*args, "--out", out, "--records", records]).output)
    assert again["games_played"] == 0 and again["table"] == data["table"]
    with open(records) as f:
        assert list(csv.DictReader(f)) == rows  # resumed: the rows of the finished chunks kept, none twice
    same = runner.invoke(cli, [*args, "--out", out, "--records", out])
    assert same.exit_code == 2 and "two different files" in same.output
