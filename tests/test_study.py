"""Studies: exact merging, any executor, resuming, records, and stop signals (targui_dsl.study)."""

from __future__ import annotations

import csv
import json
import math
import os
import signal
import subprocess
import sys
import time

import pytest
from cli_run import session_processes
from click.testing import CliRunner

from targui_cli.main import cli
from targui_dsl.study import (
    GameRecord,
    Moments,
    RulesetSource,
    Study,
    StudyFile,
    StudyInterrupted,
    StudyMismatch,
    StudySummary,
    local_pool,
    run_study,
)
from targui_dsl.study.simulate import without_timing
from targui_dsl.study.source import _compile


def study(ref: str = "swedish-12", games: int = 60, players: int = 3, bots=("greedy", "random", "random"),
          seed: int = 5, rotate: bool = True) -> Study:
    return Study(RulesetSource.from_reference(ref), games, players, tuple(bots), seed, rotate)


# Summaries -------------------------------------------------------------------------

def _record(index: int, rounds: int, score: int, winner: int | None) -> GameRecord:
    return GameRecord(index=index, seed=index, bots=("random", "greedy"), tribes=("a", "b"),
                      winners=(winner,) if winner is not None else (0, 1), scores=(score, -score), rounds=rounds,
                      end_reason="deck" if rounds > 3 else "last_standing", decisions=rounds * 10,
                      metrics={"attacks": rounds % 3}, totals={"attacks_failed": rounds % 2},
                      cards={"sandstorm": [1, rounds, 0, 0, 0]})


def test_merging_any_split_gives_the_summary_of_all_games():
    records = [_record(i, 1 + i % 7, (i * 37) % 11, None if i % 5 == 0 else i % 2) for i in range(40)]
    whole = StudySummary.of(records)
    for cut in (0, 1, 17, 39, 40):
        a, b = StudySummary.of(records[:cut]), StudySummary.of(records[cut:])
        assert a.merge(b) == whole == b.merge(a)
    assert whole.games == 40 and whole.draws == 8 and sum(whole.wins_by_seat) == 32
    assert whole.wins_by_bot == {"random": 16, "greedy": 16}
    assert whole.rounds_histogram[1] == 6 and whole.cards["sandstorm"][0] == 40
    # the game's own figures add up as the general ones do
    assert whole.metrics["attacks"].total == sum(r.metrics["attacks"] for r in records)
    assert whole.totals["attacks_failed"] == sum(r.totals["attacks_failed"] for r in records)
    assert whole.cards["sandstorm"][1] == sum(r.rounds for r in records)
    rounds = [r.rounds for r in records]
    mean = sum(rounds) / 40
    assert whole.rounds.mean == mean
    assert whole.rounds.sd == pytest.approx(math.sqrt(sum((x - mean) ** 2 for x in rounds) / 39))
    assert StudySummary.from_json(json.loads(json.dumps(whole.to_json()))) == whole


def test_huge_scores_neither_overflow_nor_lose_the_spread():
    m = Moments()
    for value in (10**9, 10**9 + 2) * 500_000:  # a million games at the engine's cap
        m.add(value)
    assert m.squares > 10**23 and isinstance(m.squares, int)
    assert m.mean == 10**9 + 1 and math.isfinite(m.sd) and m.sd == pytest.approx(1.0, rel=1e-5)
    big = Moments(3, 3 * 10**200, 3 * 10**400, 10**200, 10**200)  # past any float: still no inf for the spread
    assert big.sd == 0.0


# Sources -----------------------------------------------------------------------------

def test_a_house_rule_travels_as_text_with_its_extends_chain(tmp_path):
    (tmp_path / "house").mkdir()
    (tmp_path / "base.yaml").write_text("extends: original-dutch\nid: base-rule\ntitle: Base\nsetup:\n  cash: 30\n")
    (tmp_path / "house" / "rule.yaml").write_text("extends: ../base.yaml\nid: my-rule\ntitle: Mine\n")
    source = RulesetSource.from_reference(str(tmp_path / "house" / "rule.yaml"))
    assert [path for path, _ in source.files] == ["house/rule.yaml", "base.yaml"]
    assert [name for name, _ in source.builtins] == ["original-dutch", "base"]  # built-ins go by name
    for f in (tmp_path / "base.yaml", tmp_path / "house" / "rule.yaml"):
        f.unlink()  # a worker elsewhere has no such files
    compiled = _compile(source)
    assert compiled.id == "my-rule" and compiled.start_cash == (30,) * 4
    other = RulesetSource(source.reference, source.files, (("original-dutch", "0" * 64),))
    with pytest.raises(RuntimeError, match="differs"):
        _compile(other)


# Executors ------------------------------------------------------------------------------

def test_one_worker_two_workers_and_a_dask_cluster_give_identical_summaries():
    s = study(games=48)
    one = run_study(s)
    with local_pool(2, s.source) as pool:
        two = run_study(s, pool, window=8)
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) \
            as cluster, distributed.Client(cluster) as client:
        on_dask = run_study(s, client.get_executor(pure=False), window=16)
    assert one.summary.games == 48 and s.chunk_count > 2
    assert two.summary == one.summary
    assert on_dask.summary == one.summary
    # and not because every summary looks alike: another seed differs
    assert run_study(Study(s.source, 48, 3, s.bots, seed=6, rotate=True)).summary != one.summary


def test_the_cli_gives_the_same_figures_on_a_dask_cluster():
    distributed = pytest.importorskip("distributed")
    args = ["simulate", "swedish-12", "-n", "24", "-p", "3", "--seed", "2", "--json"]
    local = json.loads(CliRunner().invoke(cli, args).output)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) \
            as cluster:
        result = CliRunner().invoke(cli, [*args, "--scheduler", cluster.scheduler_address])
    assert result.exit_code == 0, result.output
    remote = json.loads(result.output)
    assert remote["workers"] == 2 and without_timing(remote) == without_timing(local)


def test_an_unreachable_scheduler_is_one_line_and_exit_1(monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr("targui_dsl.study.executors.CONNECT_SECONDS", 1.0)
    result = CliRunner().invoke(cli, ["simulate", "swedish-12", "-n", "2", "--scheduler", "tcp://127.0.0.1:9"])
    assert result.exit_code == 1
    assert result.output.strip().startswith("error: cannot reach the Dask scheduler at tcp://127.0.0.1:9")
    assert "Traceback" not in result.output


# Resuming ---------------------------------------------------------------------------------

class StopAfter:
    """A progress callback that interrupts the study, as a signal would, once ``games`` are done."""

    def __init__(self, games: int):
        self.games = games

    def __call__(self, done: int) -> None:
        if done >= self.games:
            raise StudyInterrupted(signal.SIGTERM)


def test_an_interrupted_study_resumed_equals_one_run_straight_through(tmp_path):
    s = study(games=60)
    straight = run_study(s, records=str(tmp_path / "straight.csv"))
    out, rows = str(tmp_path / "study.jsonl"), str(tmp_path / "games.csv")
    with pytest.raises(StudyInterrupted) as stopped:
        with local_pool(2, s.source) as pool:
            run_study(s, pool, out=out, records=rows, window=4, progress=StopAfter(20))
    assert 0 < stopped.value.chunks_kept < s.chunk_count == stopped.value.chunk_count
    with StudyFile(out, s) as kept:  # read, and its lock released
        pass
    assert len(kept.done) == stopped.value.chunks_kept and kept.summary.games < 60
    resumed = run_study(s, out=out, records=rows)
    assert resumed.chunks_resumed == stopped.value.chunks_kept
    assert resumed.games_played == 60 - kept.summary.games
    assert resumed.summary == straight.summary
    with open(rows) as f:
        got = sorted(csv.DictReader(f), key=lambda row: int(row["game"]))
    with open(tmp_path / "straight.csv") as f:
        assert got == list(csv.DictReader(f))
    # the finished study, run again, plays nothing and gives the same
    again = run_study(s, out=out)
    assert again.games_played == 0 and again.summary == straight.summary


def test_a_line_cut_short_by_a_kill_is_played_again(tmp_path):
    s = study(games=30)
    out = str(tmp_path / "study.jsonl")
    full = run_study(s, out=out)
    with open(out) as f:
        lines = f.readlines()
    with open(out, "w") as f:
        f.writelines(lines[:3])
        f.write(lines[3][:40])  # the process died while writing this chunk
    resumed = run_study(s, out=out)
    assert resumed.chunks_resumed == 2 and resumed.summary == full.summary
    assert len(open(out).readlines()) == len(lines)


def test_another_study_on_the_same_out_file_is_refused(tmp_path):
    out = str(tmp_path / "study.jsonl")
    runner = CliRunner()
    assert runner.invoke(cli, ["simulate", "swedish-12", "-n", "12", "--out", out]).exit_code == 0
    result = runner.invoke(cli, ["simulate", "swedish-12", "-n", "12", "--seed", "3", "--out", out])
    assert result.exit_code == 2
    assert "holds another study (seed 0 here, 3 now)" in result.output and "Traceback" not in result.output
    result = runner.invoke(cli, ["simulate", "original-dutch", "-n", "12", "--out", out])
    assert result.exit_code == 2 and "the rules differ" in result.output
    with pytest.raises(StudyMismatch):
        StudyFile(out, study(games=13))
    (tmp_path / "notes.txt").write_text("my notes\n")
    result = runner.invoke(cli, ["simulate", "swedish-12", "-n", "12", "--out", str(tmp_path / "notes.txt")])
    assert result.exit_code == 2 and "not a study record" in result.output
    assert (tmp_path / "notes.txt").read_text() == "my notes\n"


# Records ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["games.csv", "games.jsonl"])
def test_records_hold_one_row_per_game_that_add_up_to_the_summary(tmp_path, name):
    path = tmp_path / name
    result = CliRunner().invoke(cli, ["simulate", "original-dutch", "-n", "20", "-p", "3", "--bots", "greedy,random",
                                      "--rotate", "--records", str(path), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    if name.endswith(".csv"):
        with open(path) as f:
            rows = list(csv.DictReader(f))
    else:
        rows = [json.loads(line) for line in path.read_text().splitlines()]
    assert [int(r["game"]) for r in rows] == list(range(20))
    for tribe, wins in summary["wins"].items():
        assert sum(1 for r in rows if r["winner_tribe"] == tribe) == wins
    assert sum(int(r["rounds"]) for r in rows) == summary["metrics"]["rounds"]["total"]
    assert sum(int(r["camels_bought"]) for r in rows) == summary["camels_bought"]["total"]
    assert sum(int(r["draws_sandstorm"]) for r in rows) == summary["cards"]["sandstorm"]["drawn"]
    assert [r["bot_1"] for r in rows[:3]] == ["greedy", "random", "random"]  # rotated
    pandas = pytest.importorskip("pandas")
    table = pandas.read_csv(path) if name.endswith(".csv") else pandas.read_json(path, lines=True)
    assert len(table) == 20 and table["score_1"].dtype.kind == "i"
    assert table.groupby("winner_bot").size().to_dict() == {k: v for k, v in summary["wins_by_bot"].items() if v}


# Signals ------------------------------------------------------------------------------------



@pytest.mark.skipif(not os.path.isdir("/proc") or not hasattr(signal, "SIGTERM"), reason="needs Linux /proc")
def test_sigterm_stops_the_workers_keeps_the_chunks_and_prints_no_traceback(tmp_path):
    out = tmp_path / "study.jsonl"
    command = [sys.executable, "-c", "from targui_cli.main import main; main()", "simulate", "updated-treasury",
               "-n", "20000", "--bots", "random", "--workers", "2", "--out", str(out)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True, cwd=tmp_path)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and process.poll() is None:
            if out.exists() and len(out.read_text().splitlines()) >= 2 and len(session_processes(process.pid)) >= 3:
                break
            time.sleep(0.05)
        assert process.poll() is None, "the study ended before it could be stopped"
        assert len(session_processes(process.pid)) == 3  # the command and its two workers
        process.send_signal(signal.SIGTERM)
        stdout, stderr = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert process.returncode == 128 + signal.SIGTERM, stderr
    assert "Traceback" not in stderr and "leaked" not in stderr and stdout == ""
    assert "interrupted by SIGTERM" in stderr and "chunks kept in" in stderr
    deadline = time.monotonic() + 5
    while session_processes(process.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert session_processes(process.pid) == []  # no worker left behind
    s = Study(RulesetSource.from_reference("updated-treasury"), 20000, 4, ("random",) * 4)
    assert len(StudyFile(str(out), s).done) >= 1


# What a study counts besides wins, scores, rounds and decisions is the game's to say -----------

class _Passes:
    """A game's own study figures: the passes made, and the games with none."""

    def __init__(self) -> None:
        self.passes = 0

    def __call__(self, event):
        if event["type"] == "decision" and event["action"] == "pass":
            self.passes += 1

    def per_game(self):
        return {"passes": self.passes}

    def totals(self):
        return {"games_without_passes": 0 if self.passes else 1}

    def cards(self):
        return {}


def test_a_study_counts_and_shows_the_figures_its_game_reports(monkeypatch, tmp_path):
    from dataclasses import replace

    from targui_dsl.engine.protocol import Figure, StudyMetrics
    from targui_dsl.games import game_package
    from targui_dsl.study import figures, games
    from targui_dsl.study.simulate import run_games

    passes = Figure("passes", "passes a game", "passes", "more passes", "fewer passes", "passes a game")
    metrics = StudyMetrics(counter=_Passes, per_game=(passes,),
                           totals=("games_without_passes",),
                           figures=lambda moments, totals: {"passes": {"total": moments["passes"]["total"]}})
    package = replace(game_package("targui"), metrics=metrics)
    monkeypatch.setattr(games, "game_of", lambda ruleset: package)
    monkeypatch.setattr(figures, "game_of", lambda ruleset: package)
    result = run_games("swedish-12", games=6, players=2, bots=["greedy", "random"], seed=4)
    assert list(result["metrics"]) == ["rounds", "passes", "decisions"]
    assert result["passes"]["total"] == result["metrics"]["passes"]["total"] > 0
    assert "camels_bought" not in result and "attacks" not in result
    assert all(set(card) >= {"drawn", "per_draw"} and "camels_added" not in card for card in result["cards"].values())
    s = Study(RulesetSource.from_reference("swedish-12"), 6, 2, ("greedy", "random"), seed=4)
    rows = tmp_path / "rows.jsonl"
    summary = run_study(s, records=str(rows)).summary
    assert summary.totals["games_without_passes"] == 0 and summary.metrics["passes"].n == 6
    assert [json.loads(line)["passes"] for line in rows.read_text().splitlines()] != [0] * 6
