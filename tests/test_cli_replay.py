"""`targui replay`: narrate a logged game, verify it event by event, draw its board."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from targui_cli.main import cli
from targui_dsl import load_ruleset
from targui_dsl.frontend.resources import rulesets_dir
from targui_dsl.gamelog.header import seal_header
from targui_dsl.gamelog.reader import LogError, read_game_log
from targui_dsl.gamelog.replay import replay_log, verify_log

SVG = "{http://www.w3.org/2000/svg}"


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> tuple[Path, str]:
    """A game logged by `targui play ... --log FILE`, and what play printed."""
    log = tmp_path_factory.mktemp("logs") / "game.jsonl"
    result = run("play", "original-dutch", "--seed", "5", "--bots", "greedy,random", "--no-board", "--log", str(log))
    assert result.exit_code == 0, result.output
    return log, result.stdout


def lines_of(log: Path) -> list[str]:
    return log.read_text(encoding="utf-8").splitlines()


def write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def tampered_die(log: Path, node: str) -> tuple[list[str], int, str, str]:
    """The log with the first die of ``node`` changed; the event number, old and new action."""
    lines = lines_of(log)
    for number, line in enumerate(lines):
        event = json.loads(line)
        if event["type"] == "chance" and event["node"] == node:
            old = event["action"]
            event["action"] = "die 6" if old != "die 6" else "die 1"
            lines[number] = json.dumps(event)
            return lines, number, old, event["action"]
    raise AssertionError(f"no {node} in the log")


def test_replay_tells_the_game_as_play_did(played):
    log, play_output = played
    result = run("replay", str(log))
    assert result.exit_code == 0
    # play prints a "Seats:" line, then the Narrator's lines; replay prints the same lines.
    assert result.stdout.splitlines() == play_output.splitlines()[1:]
    assert result.stdout.count("Game over after round") == 1  # the end screen, once


def test_numbers_name_each_line_by_its_event(played):
    log, _ = played
    result = run("replay", str(log), "--numbers")
    events = read_game_log(lines_of(log))
    first = result.stdout.splitlines()[0]
    assert first.split()[0] == "0" and "original-dutch" in first
    lines = result.stdout.splitlines()
    game_over = next(k for k, line in enumerate(lines) if "Game over" in line)  # then the end screen's table
    numbers = [int(line.split()[0]) for line in lines[:game_over + 1]]
    end = next(i for i, e in enumerate(events) if e["type"] == "end")
    assert max(numbers) <= len(events) - 1 and numbers[-1] == end
    assert any(line.split()[0] == str(end) and "Game over" in line for line in result.stdout.splitlines())


def test_a_logged_game_verifies(played):
    log, _ = played
    result = run("replay", str(log), "--verify", "--quiet")
    assert result.exit_code == 0, result.output
    events = len(lines_of(log)) - 1
    assert result.stdout == f"verified: all {events} events of {log} match the engine, re-run from seed 5\n"


@pytest.mark.parametrize("node", ["round_die", "attack_die", "defend_die"])
def test_one_die_changed_fails_verify_at_that_event(played, tmp_path, node):
    log, _ = played
    lines, number, old, new = tampered_die(log, node)
    bad = write(tmp_path / "tampered.jsonl", lines)
    result = run("replay", str(bad), "--verify", "-q")
    assert result.exit_code == 1
    assert f"verify FAILED at event {number} (line {number + 1})" in result.stderr
    assert f'"action": "{new}"' in result.stderr.split("log:")[1].split("engine:")[0]
    assert f'"action": "{old}"' in result.stderr.split("engine:")[1]
    assert "Traceback" not in result.output
    data = json.loads(run("replay", str(bad), "--verify", "--json").stdout)
    difference = data["verify"]["difference"]
    assert data["verify"]["ok"] is False and difference["event"] == number and difference["fields"] == ["action"]
    assert difference["log"]["action"] == new and difference["engine"]["action"] == old


def test_a_changed_decision_or_result_fails_verify(played, tmp_path):
    log, _ = played
    lines = lines_of(log)
    number = next(i for i, line in enumerate(lines) if json.loads(line)["type"] == "round_end")
    event = json.loads(lines[number])
    event["levy"][next(iter(event["levy"]))] += 1
    lines[number] = json.dumps(event)
    result = run("replay", str(write(tmp_path / "levy.jsonl", lines)), "--verify", "-q")
    assert result.exit_code == 1 and f"at event {number} " in result.stderr and "in levy" in result.stderr

    lines = lines_of(log)
    number = next(i for i, line in enumerate(lines)
                  if json.loads(line)["type"] == "decision" and json.loads(line)["action"].startswith("buy"))
    event = json.loads(lines[number])
    event["action"] = "buy 999 on " + event["action"].split()[-1]
    lines[number] = json.dumps(event)
    result = run("replay", str(write(tmp_path / "buy.jsonl", lines)), "--verify", "-q")
    assert result.exit_code == 1
    assert f"at event {number} " in result.stderr and "the engine rejects `buy 999 on" in result.stderr


def test_truncated_logs_fail_cleanly(played, tmp_path):
    log, _ = played
    lines = lines_of(log)
    # Cut in the middle of a line: not JSON.
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines[:300]) + "\n" + lines[300][: len(lines[300]) // 2], encoding="utf-8")
    result = run("replay", str(cut))
    assert result.exit_code == 1
    assert "line 301: not JSON" in result.stderr and "Traceback" not in result.output
    # Cut at a line: still a log, but --verify wants the whole game.
    short = write(tmp_path / "short.jsonl", lines[:300])
    told = run("replay", str(short))
    assert told.exit_code == 0 and "ends after event 299, before the game is over" in told.stderr
    verified = run("replay", str(short), "--verify", "-q")
    assert verified.exit_code == 1 and "verify FAILED at event 300" in verified.stderr
    # A game quit midway: --partial checks the events it has.
    partial = run("replay", str(short), "--verify", "--partial", "-q")
    assert partial.exit_code == 0 and "all 299 events" in partial.stdout and "not over" in partial.stdout
    tampered, number, _, _ = tampered_die(log, "round_die")
    assert number < 300
    failed = run("replay", str(write(tmp_path / "short-tampered.jsonl", tampered[:300])), "--verify", "--partial", "-q")
    assert failed.exit_code == 1 and f"verify FAILED at event {number} " in failed.stderr


@pytest.mark.parametrize("content, message", [
    ("hello, world\n", "line 1: not JSON"),
    ("", "the file is empty"),
    ("[1, 2, 3]\n", "line 1: not a log event"),
    ('{"type": "header", "format": "other/9"}\n', "the first line must be a 'targui-log/2' header"),
    ('{"type": "decision", "round": 1}\n', "the first line must be a 'targui-log/2' header"),
    ('{"type": "header", "format": "targui-log/1", "ruleset": "original-dutch", "players": 4}\n',
     "line 1: bad header event"),
])
def test_files_that_are_not_targui_logs(tmp_path, content, message):
    path = tmp_path / "not-a-log.jsonl"
    path.write_text(content, encoding="utf-8")
    result = run("replay", str(path), "--verify")
    assert result.exit_code == 1
    assert message in result.stderr and "Traceback" not in result.output


def test_bad_event_lines_and_unreadable_files(played, tmp_path):
    log, _ = played
    lines = lines_of(log)
    event = json.loads(lines[10])
    lines[10] = json.dumps({**event, "type": "teleport"})
    assert "line 11: unknown event type 'teleport'" in run("replay", str(write(tmp_path / "a.jsonl", lines))).stderr
    lines = lines_of(log)
    lines[12] = json.dumps({k: v for k, v in json.loads(lines[12]).items() if k != "round"})
    result = run("replay", str(write(tmp_path / "b.jsonl", lines)))
    assert result.exit_code == 1 and "line 13: bad" in result.stderr
    assert "'round' is a required property" in result.stderr
    missing = run("replay", str(tmp_path / "missing.jsonl"))
    assert missing.exit_code == 1 and "cannot read" in missing.stderr
    assert run("replay", str(tmp_path)).exit_code == 1


def test_a_log_whose_ruleset_cannot_be_loaded(played, tmp_path):
    log, _ = played
    lines = lines_of(log)
    header = json.loads(lines[0])
    lines[0] = json.dumps({**header, "ruleset": "lost-rule", "files": ["gone/lost-rule.yaml"]})
    lost = write(tmp_path / "lost.jsonl", lines)
    result = run("replay", str(lost))
    assert result.exit_code == 1
    assert "`lost-rule` is not built in and its file gone/lost-rule.yaml was not found" in result.stderr
    assert "--ruleset" in result.stderr
    # --ruleset must be the log's ruleset.
    other = run("replay", str(lost), "--ruleset", "original-dutch")
    assert other.exit_code == 1 and "is a game of ruleset `lost-rule`" in other.stderr
    # A ruleset file that exists but has errors: its diagnostics, exit 1.
    broken = tmp_path / "lost-rule.yaml"
    broken.write_text("extends: original-dutch\nid: lost-rule\ntitle: Lost\nsetup:\n  cash: lots\n", encoding="utf-8")
    result = run("replay", str(lost), "--ruleset", str(broken))
    assert result.exit_code == 1 and "error[" in result.stderr and "cannot be loaded" in result.stderr
    # A header whose players do not fit the ruleset.
    lines = lines_of(log)
    lines[0] = json.dumps({**header, "players": 3})
    result = run("replay", str(write(tmp_path / "players.jsonl", lines)))
    assert result.exit_code == 1 and "does not fit ruleset original-dutch" in result.stderr


def test_a_house_rule_log_finds_its_file_or_takes_ruleset(tmp_path):
    rule = tmp_path / "salt-caravan.yaml"
    # an id of its own: the example's id is a name targui finds by itself
    rule.write_bytes((rulesets_dir() / "examples" / "salt-caravan.yaml").read_bytes()
                     .replace(b"\nid: salt-caravan\n", b"\nid: my-salt-caravan\n"))
    log = tmp_path / "salt.jsonl"
    assert run("play", str(rule), "--players", "3", "--seed", "2", "--no-board", "--log", str(log)).exit_code == 0
    assert run("replay", str(log), "--verify", "-q").exit_code == 0  # the header's file path is absolute here
    moved = tmp_path / "moved"
    moved.mkdir()
    rule.rename(moved / "salt-caravan.yaml")
    assert run("replay", str(log), "-q").exit_code == 1
    assert run("replay", str(log), "--verify", "-q", "--ruleset", str(moved / "salt-caravan.yaml")).exit_code == 0


def owned_cells(svg: str) -> int:
    root = ET.fromstring(svg)
    return sum(1 for g in root.iter(f"{SVG}g") if g.get("class") == "cell" and g.get("data-owner"))


def test_svg_at_several_events(played, tmp_path):
    log, _ = played
    events = read_game_log(lines_of(log))
    settled = max(i for i, e in enumerate(events) if e["type"] == "decision" and e["action"].startswith("settle"))
    counts = []
    for at in (0, settled, len(events) // 2, len(events) - 1):
        out = tmp_path / f"board-{at}.svg"
        result = run("replay", str(log), "-q", "--svg", str(out), "--at", str(at))
        assert result.exit_code == 0, result.output
        text = out.read_text(encoding="utf-8")
        counts.append(owned_cells(text))
        assert f"after event {at} of {len(events) - 1}" in text
    assert counts[0] == 0 and counts[1] == 4  # before the deal; every settlement placed
    assert counts[2] > counts[1] and counts[3] > counts[1]
    # Without --at: the end of the log, the same as --at LAST.
    end = tmp_path / "end.svg"
    assert run("replay", str(log), "-q", "--svg", str(end)).exit_code == 0
    assert end.read_text() == (tmp_path / f"board-{len(events) - 1}.svg").read_text()


def test_svg_matches_the_engine_state_and_goes_to_stdout(played):
    log, _ = played
    events = read_game_log(lines_of(log))
    rs = load_ruleset("original-dutch")
    state = replay_log(rs, events, at=400).state
    result = run("replay", str(log), "--svg", "-", "--at", "400")
    assert result.exit_code == 0
    root = ET.fromstring(result.stdout)
    cells = {int(g.get("data-position")): g for g in root.iter(f"{SVG}g") if g.get("class") == "cell"}
    assert len(cells) == 49
    for cell, position in enumerate(state.game.position_of_cell):
        assert int(cells[position].get("data-camels")) == state.camels(cell)
        owner = state.owner(cell)
        assert cells[position].get("data-owner") == (state.game.tribe_ids[owner] if owner >= 0 else None)


def test_at_is_validated(played):
    log, _ = played
    last = len(lines_of(log)) - 1
    beyond = run("replay", str(log), "--svg", "x.svg", "--at", str(last + 1))
    assert beyond.exit_code == 2 and f"has events 0 to {last}" in beyond.stderr
    assert run("replay", str(log), "--svg", "x.svg", "--at", "-1").exit_code == 2
    assert run("replay", str(log), "--at", "3").exit_code == 2  # --at without --svg
    assert run("replay", str(log), "--svg", "-", "--json").exit_code == 2


def test_json_report(played, tmp_path):
    log, _ = played
    svg = tmp_path / "b.svg"
    result = run("replay", str(log), "--verify", "--json", "--svg", str(svg), "--at", "100")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    events = read_game_log(lines_of(log))
    assert data["ruleset"] == "original-dutch" and data["seed"] == 5 and data["players"] == 4
    assert data["events"] == len(events) - 1 and data["complete"] is True
    assert data["end"] == next(e for e in events if e["type"] == "end")
    assert data["verify"] == {"ok": True, "verdict": "verified", "chance_checked": True, "seal": "sealed",
                              "events": len(events) - 1, "game_over": True, "difference": None}
    assert data["svg"] == {"file": str(svg), "at": 100} and svg.is_file()
    assert data["narration"][0]["event"] == 0
    assert any(n["text"].startswith("Game over") for n in data["narration"])


def test_verify_log_and_replay_log_directly(played):
    log, _ = played
    events = read_game_log(lines_of(log))
    rs = load_ruleset("original-dutch")
    run_ = verify_log(rs, events)
    assert run_.ok and run_.state.is_terminal() and run_.events == len(events) - 1
    end = next(e for e in events if e["type"] == "end")
    assert [run_.state.game.tribe_ids[s] for s in run_.state.winners()] == end["winners"]
    assert run_.chance_checked and run_.seal == "sealed"
    # An explicit-chance log (chance outcomes fed from the log): its decisions check out, its chance is not checked.
    explicit = [seal_header(dict(events[0], explicit_chance=True))] + events[1:]
    checked = verify_log(rs, explicit)
    assert checked.ok and not checked.chance_checked
    # The flag turned on by an edit, without the seal: caught at the header.
    flipped = verify_log(rs, [dict(events[0], explicit_chance=True)] + events[1:])
    assert not flipped.ok and flipped.difference.event == 0 and "seal" in flipped.difference.reason
    # The state after an event: after the first round die, the round has begun.
    first_die = next(i for i, e in enumerate(events) if e["type"] == "chance" and e["node"] == "round_die")
    assert replay_log(rs, events, at=first_die - 1).state.round_die == 0
    assert replay_log(rs, events, at=first_die).state.round_die == int(events[first_die]["action"].split()[1])
    with pytest.raises(ValueError):
        replay_log(rs, events, at=len(events))
    with pytest.raises(LogError):
        read_game_log(["{}"])


def test_a_house_rule_log_replays_from_anywhere(tmp_path, monkeypatch):
    rules, logs, elsewhere = tmp_path / "rules", tmp_path / "logs", tmp_path / "elsewhere"
    for folder in (rules, logs, elsewhere):
        folder.mkdir()
    (rules / "mine.yaml").write_text(
        "extends: original-dutch\nid: mine\ntitle: Mine\nsetup:\n  cash: 20\n", encoding="utf-8")
    monkeypatch.chdir(rules)
    played = CliRunner().invoke(cli, ["play", "mine.yaml", "--seed", "3", "--log", str(logs / "game.jsonl"), "--json"])
    assert played.exit_code == 0, played.output
    monkeypatch.chdir(elsewhere)  # neither the log's folder nor the ruleset's
    result = CliRunner().invoke(cli, ["replay", str(logs / "game.jsonl"), "--verify"])
    assert result.exit_code == 0, result.output
    assert "verified" in result.output


def test_a_house_rule_that_reuses_a_builtin_id_replays_under_its_own_rules(tmp_path, monkeypatch):
    (tmp_path / "rich.yaml").write_text(
        "extends: original-dutch\nid: original-dutch\ntitle: Rich start\nsetup:\n  cash: 60\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    log = tmp_path / "game.jsonl"
    played = CliRunner().invoke(cli, ["play", "rich.yaml", "--seed", "3", "--log", str(log), "--json"])
    assert played.exit_code == 0, played.output
    result = CliRunner().invoke(cli, ["replay", str(log), "--verify"])
    assert result.exit_code == 0, result.output


def test_open_log_gives_every_reader_the_same_checked_log_or_one_error(played, tmp_path):
    from targui_dsl.frontend.diagnostics import RulesetError
    from targui_dsl.gamelog.opened import LogOpenError, open_log

    log, _ = played
    opened = open_log(str(log))
    header = json.loads(lines_of(log)[0])
    assert opened.header == header and opened.ruleset.id == "original-dutch" and opened.problems == []
    assert opened.game.players == header["players"] and opened.game.seed == header["seed"]
    run_ = opened.verify()
    assert run_.ok and run_.chance_checked and run_.events == len(lines_of(log)) - 1
    assert opened.replay(at=10).ok
    with pytest.raises(LogOpenError, match="the game is over"):
        opened.resumable()

    not_log = write(tmp_path / "not.jsonl", ["hello"])
    with pytest.raises(LogOpenError, match="line 1: not JSON"):
        open_log(str(not_log))
    lost = write(tmp_path / "lost.jsonl", [json.dumps({**header, "ruleset": "lost", "files": ["gone.yaml"]})])
    with pytest.raises(LogOpenError, match="`lost` is not built in") as missing:
        open_log(str(lost))
    assert missing.value.ruleset_missing
    broken = tmp_path / "lost.yaml"
    broken.write_text("extends: original-dutch\nid: lost\nsetup:\n  cash: lots\n", encoding="utf-8")
    with pytest.raises(LogOpenError, match="cannot be loaded") as unloadable:
        open_log(str(lost), str(broken))
    assert isinstance(unloadable.value.cause, RulesetError) and unloadable.value.cause.diagnostics
    with pytest.raises(LogOpenError, match="is a game of ruleset `lost`, but"):
        open_log(str(lost), "original-dutch")
