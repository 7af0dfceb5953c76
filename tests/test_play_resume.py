"""`targui play --resume LOG`: a game quit midway goes on exactly where it stopped (the same
ruleset, seed and seats; bots play on as they would have), and its log verifies as one game."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from targui_cli.main import cli
from targui_dsl.gamelog.header import seal_header

SETUP = ["sector north_west", "1"]
ARGS = ["original-dutch", "--players", "2", "--human", "1", "--bots", "random", "--seed", "3", "--no-board"]


def run(*args: str, text: str = ""):
    return CliRunner().invoke(cli, list(args), input=text)


def events_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def human_decisions(events: list[dict]) -> list[dict]:
    return [e for e in events if e["type"] == "decision" and e["player"] == 0 and not e["forced"]]


def quit_in_round_3(tmp_path: Path) -> tuple[Path, Path, list[str]]:
    """The game played straight through, and the same game quit in round 3: (straight, quit, script)."""
    script = SETUP + ["pass"] * 400  # a human who sets up, then only passes
    straight = tmp_path / "straight.jsonl"
    result = run("play", *ARGS, "--log", str(straight), text="\n".join(script) + "\n")
    assert result.exit_code == 0, result.output
    mine = human_decisions(events_of(straight))
    before = sum(1 for e in mine if e["round"] <= 2)
    assert any(e["round"] == 3 for e in mine), "the human must still decide in round 3"
    quit_log = tmp_path / "game.jsonl"
    typed = script[:before + 1]  # every decision of rounds 1 and 2, and one of round 3
    result = run("play", *ARGS, "--log", str(quit_log), text="\n".join(typed + ["quit"]) + "\n")
    assert result.exit_code == 0, result.output
    assert "Game left in round 3 (quit), unfinished." in result.output
    return straight, quit_log, script[len(typed):]


def test_a_game_quit_in_round_3_and_resumed_ends_as_if_played_straight_through(tmp_path):
    straight, log, rest = quit_in_round_3(tmp_path)
    kept = log.read_text(encoding="utf-8")
    assert events_of(log)[-1]["round"] == 3 and not any(e["type"] == "end" for e in events_of(log))
    result = run("play", "--resume", str(log), "--no-board", text="\n".join(rest) + "\n")
    assert result.exit_code == 0, result.output
    assert "Seats: 1 Kel Ahaggar (human), 2 Kel Ajjer (random)" in result.output  # as the header records them
    assert f"Resumed {log} after event {len(kept.splitlines()) - 1}, in round 3." in result.output
    text = log.read_text(encoding="utf-8")
    assert text.startswith(kept)  # appended to the same file
    assert text == straight.read_text(encoding="utf-8")  # the same game, event for event, to the same end
    verified = run("replay", str(log), "--verify", "-q")
    assert verified.exit_code == 0, verified.output
    assert f"verified: all {len(text.splitlines()) - 1} events of {log} match the engine" in verified.output


def test_resumed_with_other_seats_and_into_another_log(tmp_path):
    _, log, _ = quit_in_round_3(tmp_path)
    kept = log.read_text(encoding="utf-8")
    people = run("play", "--resume", str(log), "--json")  # the header seats a human: no JSON report
    assert people.exit_code == 2 and "this game has people in it" in people.output
    other = tmp_path / "whole.jsonl"
    result = run("play", "--resume", str(log), "--bots", "greedy,random", "--log", str(other), "--no-board")
    assert result.exit_code == 0, result.output
    assert "Seats: 1 Kel Ahaggar (greedy), 2 Kel Ajjer (random)" in result.output
    assert "Game over after round" in result.output
    assert log.read_text(encoding="utf-8") == kept  # the quit game's log is left as it was
    whole = events_of(other)
    assert whole[0]["seats"] == ["greedy", "random"]  # the header says who sits where now
    assert [e for e in whole[1:len(kept.splitlines())]] == events_of(log)[1:]  # the game so far, then more
    assert any(e["type"] == "end" for e in whole)
    assert run("replay", str(other), "--verify", "-q").exit_code == 0


def test_a_changed_ruleset_is_refused(tmp_path):
    rule = tmp_path / "house.yaml"
    rule.write_text("extends: original-dutch\nid: house\ntitle: A house rule\n", encoding="utf-8")
    log = tmp_path / "game.jsonl"
    result = run("play", str(rule), "--players", "2", "--human", "1", "--seed", "2", "--log", str(log),
                 "--no-board", text="sector north_west\n1\nquit\n")
    assert result.exit_code == 0, result.output
    rule.write_text(rule.read_text(encoding="utf-8") + "setup:\n  cash: 50\n", encoding="utf-8")
    before = log.read_text(encoding="utf-8")
    refused = run("play", "--resume", str(log), str(rule))
    assert refused.exit_code == 1
    assert "cannot resume: the ruleset has changed since the game began" in refused.output
    assert "Traceback" not in refused.output and log.read_text(encoding="utf-8") == before


def test_what_cannot_be_resumed_says_why(tmp_path):
    finished = tmp_path / "over.jsonl"
    assert run("play", "original-dutch", "--players", "2", "--seed", "1", "--no-board", "--log",
               str(finished)).exit_code == 0
    over = run("play", "--resume", str(finished))
    assert over.exit_code == 1 and "the game is over (round 16); there is nothing to resume" in over.output
    usage = run("play", "--resume", str(finished), "--seed", "4")
    assert usage.exit_code == 2 and "a resumed game keeps the log's" in usage.output
    assert run("play").exit_code == 2  # neither a ruleset nor --resume


def test_an_older_log_without_seats_needs_them_given(tmp_path):
    _, log, rest = quit_in_round_3(tmp_path)
    lines = log.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    del header["seats"]
    lines[0] = json.dumps(seal_header(header), separators=(",", ":"))
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    asked = run("play", "--resume", str(log))
    assert asked.exit_code == 2 and "does not record who sat where" in asked.output
    given = run("play", "--resume", str(log), "--human", "1", "--bots", "random", "--no-board",
                text="\n".join(rest) + "\n")
    assert given.exit_code == 0, given.output
    assert run("replay", str(log), "--verify", "-q").exit_code == 0


def bots_game(tmp_path: Path) -> tuple[Path, list[str]]:
    log = tmp_path / "straight.jsonl"
    result = run("play", "original-dutch", "--players", "2", "--bots", "greedy,random", "--seed", "8", "--no-board",
                 "--log", str(log))
    assert result.exit_code == 0, result.output
    return log, log.read_text(encoding="utf-8").splitlines()


def test_a_log_cut_between_two_events_resumes_from_its_last_whole_decision(tmp_path):
    straight, lines = bots_game(tmp_path)
    # just after a move that caused more events (the next turn, dice...): a crash before they were written
    cut_at = next(i for i, line in enumerate(lines) if i > len(lines) // 2 and json.loads(line)["type"] == "decision"
                  and json.loads(lines[i + 1])["type"] != "decision")
    log = tmp_path / "cut.jsonl"
    log.write_text("".join(line + "\n" for line in lines[:cut_at + 1]), encoding="utf-8")
    result = run("play", "--resume", str(log), "--no-board")
    assert result.exit_code == 0, result.output
    assert f"Resumed {log} after event {cut_at}" in result.output
    assert log.read_text(encoding="utf-8") == straight.read_text(encoding="utf-8")  # the same game, to the end


def test_a_log_cut_in_the_middle_of_a_line_resumes_without_it(tmp_path):
    straight, lines = bots_game(tmp_path)
    middle = len(lines) // 2
    log = tmp_path / "torn.jsonl"
    log.write_text("".join(line + "\n" for line in lines[:middle]) + lines[middle][:20], encoding="utf-8")
    result = run("play", "--resume", str(log), "--no-board")
    assert result.exit_code == 0, result.output
    assert f"line {middle + 1} is cut short" in result.stderr
    assert f"Resumed {log} after event {middle - 1}" in result.output
    assert log.read_text(encoding="utf-8") == straight.read_text(encoding="utf-8")  # the torn line written whole
    assert run("replay", str(log), "--verify", "-q").exit_code == 0
