"""A log that costs little writes the same bytes: the event encoder made once, events encoded
in batches (by orjson where it is installed, the bytes ``json`` writes), lines gathered into few
writes (flushed before a person thinks and at the end), ruleset files hashed again only when
they change."""

from __future__ import annotations

import enum
import io
import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from engine_fixtures import any_ruleset

from targui_cli.main import cli
from targui_dsl.agents import make_agent, seat_agents
from targui_dsl.engine.loop import play
from targui_dsl.gamelog import events as events_module
from targui_dsl.gamelog.events import BATCH_EVENTS, EventLog, encode_lines
from targui_dsl.gamelog.header import file_sha256, source_hashes
from targui_dsl.gamelog.writer import BATCH, open_log_for_writing
from targui_dsl.games import game_of
from targui_dsl.games.targui.game import Game

EXAMPLES = Path(__file__).resolve().parent.parent / "rulesets" / "examples"


def test_every_event_is_written_as_json_dumps_writes_it():
    odd = {"type": "t\u00e9\u2028\x00\"\\/", "n": [0, -1, 2**64 - 1, 2**80], "x": 1.5e300, "ok": False,
           "none": None, "nested": {"k\u00fc": [[], {}, "\u00e9"]}}
    assert events_module._encode(odd) == json.dumps(odd, separators=(",", ":"))
    for ruleset, players, seed in ((any_ruleset("original-dutch"), 4, 1), (any_ruleset("updated-treasury"), 3, 2),
                                   (any_ruleset(str(EXAMPLES / "caravan-choice.yaml")), 4, 3)):
        log = EventLog()
        play(Game(ruleset, players=players, seed=seed).new_initial_state(log=log),
             [make_agent("random", s) for s in range(players)])
        assert len(log.events) > 100
        for event in log.events:
            assert events_module._encode(event) == json.dumps(event, separators=(",", ":"))


def test_lines_wait_for_a_batch_or_a_flush_and_reach_the_file_whole(tmp_path):
    path = tmp_path / "log.jsonl"
    writes: list[int] = []

    def counted(fd: int, data: memoryview) -> int:
        writes.append(len(data))
        return os.write(fd, data)

    writer = open_log_for_writing(str(path), write=counted)
    writer.write('{"type":"a"}\n{"type":')
    assert path.read_bytes() == b"" and writes == []  # gathered
    writer.flush()
    assert path.read_bytes() == b'{"type":"a"}\n'  # the whole line; the unfinished one waits
    writer.write('"b"}\n')
    line = '{"type":"c","pad":"' + "x" * 100 + '"}\n'
    for _ in range(2 * BATCH // len(line)):
        writer.write(line)
    assert writes[0] == len('{"type":"a"}\n') and len(writes) == 2  # the flush, then one batch of lines
    assert writes[1] >= BATCH and path.read_bytes().endswith(b"\n")
    writer.close()
    text = path.read_text()
    assert text.startswith('{"type":"a"}\n{"type":"b"}\n') and text.count(line) == 2 * BATCH // len(line)


def test_a_game_logged_through_the_writer_is_the_game_logged_in_memory(tmp_path):
    game = Game(any_ruleset("swedish-12"), players=3, seed=7)
    path = tmp_path / "game.jsonl"
    memory = EventLog()
    play(game.new_initial_state(log=memory), [make_agent("random", s) for s in range(3)])
    with open_log_for_writing(str(path)) as writer:
        play(game.new_initial_state(log=EventLog(writer, keep=False)), [make_agent("random", s) for s in range(3)])
    assert path.read_text().splitlines() == [json.dumps(e, separators=(",", ":")) for e in memory.events]


def test_a_ruleset_file_is_hashed_again_once_it_changes(tmp_path):
    rule = tmp_path / "mine.yaml"
    rule.write_text("extends: original-dutch\nid: mine\n", encoding="utf-8")
    first = source_hashes([str(rule)])
    assert first == [file_sha256(rule)] and source_hashes([str(rule)]) == first
    rule.write_text("extends: original-dutch\nid: yours\n", encoding="utf-8")
    assert source_hashes([str(rule)]) == [file_sha256(rule)] != first
    rule.unlink()
    assert source_hashes([str(rule)]) == [None]


def dumped(events: list[dict]) -> str:
    return "".join(json.dumps(event, separators=(",", ":")) + "\n" for event in events)


def logged_events(name: str, seed: int) -> list[dict]:
    rs = any_ruleset(name)
    package = game_of(rs)
    players = 4 if 4 in rs.player_counts else max(rs.player_counts)
    game = package.new_game(rs, players=players, seed=seed)
    log = EventLog()
    play(game.new_initial_state(log=log), seat_agents(game.seed, ["random"] * players, package.name))
    return log.events


class Tribe(enum.IntEnum):
    AJJER = 2


class Word(str):
    pass


#: events whose every value json writes, and orjson may not write alike (or at all)
ODD = [{"type": "f", "x": 1e-07}, {"type": "f", "x": 2.5e-05}, {"type": "f", "x": float("nan")},
       {"type": "f", "x": float("-inf")}, {"type": "f", "x": 1.5e300, "y": -0.0}, {"type": "i", "n": 2**64},
       {"type": "i", "n": -(2**63) - 1}, {"type": "k", 3: "three"}, {"type": "s", "s": "caf\u00e9 \u2028"},
       {"type": "s", "s": "del\x7f"}, {"type": "s", "s": "lone \ud800"}, {"type": "e", "tribe": Tribe.AJJER},
       {"type": "w", Word("k"): Word("v")}, {"type": "z", "none": None, "t": (1, [2, {"a": ()}])},
       {"type": "c", "s": "\x00\x1f\"\\/\b\f\n\r\t"}]


@pytest.mark.parametrize("odd", ODD, ids=lambda e: json.dumps(e)[:40])
def test_a_batch_holding_any_json_value_is_written_as_json_dumps_writes_it(odd):
    plain = {"type": "decision", "round": 1, "player": 0, "tribe": "kel_ajjer", "action": "pass", "forced": False}
    for batch in ([odd], [plain, odd, plain], [odd] * 3):
        assert encode_lines(batch) == dumped(batch)


@pytest.mark.parametrize("name", ["original-dutch", "swedish-12", "updated-treasury", "targi"])
def test_orjson_writes_a_real_game_and_the_bytes_json_writes(name):
    pytest.importorskip("orjson")  # the fast-logs extra
    events = logged_events(name, 5)
    assert len(events) > 100
    body = events[1:]  # the header names files by path (dots): json writes it
    for start in range(0, len(body), BATCH_EVENTS):
        batch = body[start:start + BATCH_EVENTS]
        encoders = events_module._orjson_encoders()
        assert encoders is not None and encoders[0](batch) == dumped(batch)  # taken, not left to json
    assert encode_lines(events) == dumped(events)


def test_a_log_file_has_the_same_bytes_with_orjson_or_without(tmp_path, monkeypatch):
    pytest.importorskip("orjson")
    rs = any_ruleset("updated-treasury")
    files = []
    for without in (False, True):
        if without:  # as where orjson is not installed
            monkeypatch.setattr(events_module, "_orjson_lines", None)
            monkeypatch.setattr(events_module, "_orjson_tried", True)
        path = tmp_path / f"game-{without}.jsonl"
        game = Game(rs, players=4, seed=11)
        with open_log_for_writing(str(path)) as writer:
            play(game.new_initial_state(log=EventLog(writer, keep=False)), seat_agents(game.seed, ["random"] * 4))
        files.append(path.read_bytes())
    assert files[0] == files[1] and files[0].count(b"\n") > 300


def test_events_reach_the_stream_in_batches_at_the_end_and_at_a_flush():
    stream = io.StringIO()
    log = EventLog(stream, keep=True)
    state = Game(any_ruleset("original-dutch"), players=4, seed=2).new_initial_state(log=log)
    assert stream.getvalue() == dumped(log.events[:1])  # the header at once
    agents = seat_agents(state.game.seed, ["random"] * 4)
    while len(log.events) < 5 or len(log.events) % BATCH_EVENTS in (0, 1):
        state.apply_action(agents[state.current_player()].choose(state.observation(state.current_player()),
                                                                 state.legal_actions()))
    written = len(log.events) // BATCH_EVENTS * BATCH_EVENTS or 1
    assert stream.getvalue() == dumped(log.events[:written])  # the rest waits for its batch
    log.flush()  # a game stopped midway: whoever stops it flushes
    assert stream.getvalue() == dumped(log.events)
    play(state, agents)
    assert log.events[-1]["type"] == "end" and stream.getvalue() == dumped(log.events)  # the end writes the rest


class LineByLine(io.RawIOBase):
    """A person's standard input: one line at each read, the --log file noted as it stands then."""

    def __init__(self, lines: list[str], log: Path) -> None:
        self.lines, self.log, self.seen = [line.encode() + b"\n" for line in lines], log, []

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:  # type: ignore[override]
        if not self.lines or not len(buffer):
            return 0
        self.seen.append(self.log.read_text(encoding="utf-8"))
        line = self.lines.pop(0)
        buffer[:len(line)] = line
        return len(line)


def test_the_log_file_holds_every_event_while_a_person_thinks(tmp_path):
    log = tmp_path / "game.jsonl"
    typed = LineByLine(["sector north_west", "1"] + ["pass"] * 400, log)
    result = CliRunner().invoke(cli, ["play", "original-dutch", "--players", "2", "--human", "1", "--bots", "random",
                                      "--seed", "3", "--no-board", "--log", str(log)], input=typed)
    assert result.exit_code == 0, result.output
    final = log.read_text(encoding="utf-8").splitlines()
    assert len(typed.seen) > 20
    for asked, seen in enumerate(typed.seen):  # at every prompt: the whole game so far, up to the person's decision
        lines = seen.splitlines()
        assert seen.endswith("\n") and lines == final[:len(lines)]
        events = [json.loads(line) for line in final[:len(lines) + 1]]
        decided = [e for e in events if e["type"] == "decision" and e["player"] == 0 and not e["forced"]]
        assert len(decided) == asked + 1 and decided[-1] is events[-1]  # each one typed before, and the next


@pytest.mark.parametrize("name", ["original-dutch", "updated-treasury", "targi"])
def test_a_batch_written_later_holds_each_event_as_it_was_when_told(name):
    # a log writes an event up to 256 events after it was told: the game never changes it since
    rs = any_ruleset(name)
    package = game_of(rs)
    players = 4 if 4 in rs.player_counts else max(rs.player_counts)
    for seed in (1, 2):
        stream = io.StringIO()
        log = EventLog(stream, keep=False)
        at_once: list[str] = []
        log.listeners.append(lambda event, lines=at_once: lines.append(json.dumps(event, separators=(",", ":")) + "\n"))
        game = package.new_game(rs, players=players, seed=seed)
        play(game.new_initial_state(log=log), seat_agents(game.seed, ["greedy"] + ["random"] * (players - 1),
                                                          package.name))
        assert len(at_once) > BATCH_EVENTS and stream.getvalue() == "".join(at_once)


class Ruleset:
    """A ruleset's fields a header reads (files relative and absolute, a title of marks and escapes)."""

    def __init__(self, files: tuple[str, ...], title: str) -> None:
        self.files, self.id, self.title = files, "mine", title


class Seated:
    """A game's fields a header reads."""

    def __init__(self, ruleset: Ruleset, seed: object, explicit_chance: object = False) -> None:
        self.ruleset, self.seed, self.explicit_chance = ruleset, seed, explicit_chance
        self.players, self.tribe_ids = 2, ("kel_ress", "kel_ajjer")


@pytest.mark.parametrize("title", ["plain", "~seal~", "7316094285503862149", 'caf\u00e9 "100%" {int} \\'])
def test_a_header_line_is_json_dumps_of_the_sealed_header_game_after_game(title, tmp_path, monkeypatch):
    # the header's texts are cut around the seed and seal once, and written for every seed from then on
    from targui_dsl.gamelog.header import build_header, header_line, seal_state

    monkeypatch.chdir(tmp_path)
    (tmp_path / "rules.yaml").write_text("a: 1\n")
    ruleset = Ruleset(("rules.yaml", str(tmp_path / "sub" / ".." / "rules.yaml")), title)
    for seed in (0, 5, -3, 2**70, 5, True, 7316094285503862149, "7"):
        for game in (Seated(ruleset, seed), Seated(ruleset, seed, explicit_chance=1)):
            header, line = header_line(game)
            assert header == build_header(game) and list(header) == list(build_header(game))
            assert line == json.dumps(header, separators=(",", ":")) + "\n"
            assert seal_state(header) == "sealed" and header["files"] == [str(tmp_path / "rules.yaml")] * 2
            assert header["explicit_chance"] is game.explicit_chance and header["seed"] is seed
    extra = {"seats": ["human", "greedy"]}
    header, line = header_line(Seated(ruleset, 4), extra)
    assert header["seats"] == extra["seats"] and line == json.dumps(header, separators=(",", ":")) + "\n"
    (tmp_path / "rules.yaml").write_text("a: 2\n")  # a file changed since: its new hash, a new seal
    changed, _ = header_line(Seated(ruleset, 5))
    assert changed["sha256"] != header["sha256"] and changed == build_header(Seated(ruleset, 5))
    os.mkdir("elsewhere")
    os.chdir("elsewhere")  # a relative path is the working directory's
    moved, line = header_line(Seated(ruleset, 5))
    assert moved["files"][0] == str(tmp_path / "elsewhere" / "rules.yaml") and moved["sha256"][0] is None
    assert line == json.dumps(moved, separators=(",", ":")) + "\n"
