"""A log that costs little writes the same bytes: the event encoder made once, events encoded
in batches (by orjson where it is installed, the bytes ``json`` writes), lines gathered into few
writes (flushed before a person thinks and at the end), the header's ruleset files and hashes
taken when the ruleset was loaded, not looked at again per log."""

from __future__ import annotations

import enum
import hashlib
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
from targui_dsl.gamelog.header import file_sha256, header_problems
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


def _header_of(ruleset, seed: int = 1) -> dict:
    log = io.StringIO()
    state = game_of(ruleset).new_game(ruleset, players=2, seed=seed).new_initial_state(log=EventLog(log, keep=False))
    play(state, seat_agents(seed, ["random"] * 2, "targui"))
    return json.loads(log.getvalue().splitlines()[0])


def test_a_header_names_the_files_the_game_was_played_from(tmp_path, monkeypatch):
    """Loaded from another folder than the working one, then edited: every log of the ruleset
    still names where its files are and what they held when loaded, and a replay that loads the
    edited file says it is not the one played."""
    from targui_dsl import load_ruleset

    rule = tmp_path / "rules" / "mine.yaml"
    rule.parent.mkdir()
    played = b"extends: original-dutch\nid: mine\ntitle: Mine\n"
    rule.write_bytes(played)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    ruleset = load_ruleset("mine.yaml", cwd=rule.parent)  # a name relative to a folder not the working one
    rule.write_bytes(played.replace(b"Mine", b"Edited"))  # after loading: not what is played
    header = _header_of(ruleset)
    assert header["files"][0] == str(rule) and all(os.path.isabs(f) and os.path.isfile(f) for f in header["files"])
    assert header["sha256"][0] == hashlib.sha256(played).hexdigest() != file_sha256(rule)
    assert header["sha256"][1:] == [file_sha256(f) for f in header["files"][1:]]  # the built-ins: as they are
    assert _header_of(ruleset, seed=2)["sha256"] == header["sha256"]  # the next log's the same
    assert header_problems(ruleset, header) == []
    edited = load_ruleset(str(rule))
    differs = f"{rule} is not the file the game was played with (its sha256 differs)"
    assert header_problems(edited, header)[-1] == differs


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
    """A ruleset's fields a header reads (its files' paths and hashes, a title of marks and escapes)."""

    def __init__(self, paths: tuple[str, ...], file_bytes: tuple[bytes | None, ...], title: str) -> None:
        self.paths, self.file_bytes, self.id, self.title = paths, file_bytes, "mine", title


class Seated:
    """A game's fields a header reads."""

    def __init__(self, ruleset: Ruleset, seed: object, explicit_chance: object = False) -> None:
        self.ruleset, self.seed, self.explicit_chance = ruleset, seed, explicit_chance
        self.players, self.tribe_ids = 2, ("kel_ress", "kel_ajjer")


@pytest.mark.parametrize("title", ["plain", "~seal~", "7316094285503862149", 'caf\u00e9 "100%" {int} \\'])
def test_a_header_line_is_json_dumps_of_the_sealed_header_game_after_game(title, tmp_path):
    # the header's texts are cut around the seed and seal once, and written for every seed from then on
    from targui_dsl.gamelog.header import build_header, header_line, seal_state

    paths = (str(tmp_path / "rules.yaml"), "/base.yaml")
    ruleset = Ruleset(paths, (b"a: 1\n", None), title)
    for seed in (0, 5, -3, 2**70, 5, True, 7316094285503862149, "7"):
        for game in (Seated(ruleset, seed), Seated(ruleset, seed, explicit_chance=1)):
            header, line = header_line(game)
            assert header == build_header(game) and list(header) == list(build_header(game))
            assert line == json.dumps(header, separators=(",", ":")) + "\n"
            assert seal_state(header) == "sealed" and header["files"] == list(paths)
            assert header["sha256"] == [hashlib.sha256(b"a: 1\n").hexdigest(), None]
            assert header["explicit_chance"] is game.explicit_chance and header["seed"] is seed
    extra = {"seats": ["human", "greedy"]}
    header, line = header_line(Seated(ruleset, 4), extra)
    assert header["seats"] == extra["seats"] and line == json.dumps(header, separators=(",", ":")) + "\n"
    other = Ruleset(paths, (b"a: 2\n", None), title)  # other bytes loaded: their hash, a new seal
    changed, line = header_line(Seated(other, 4))
    assert changed["sha256"] == [hashlib.sha256(b"a: 2\n").hexdigest(), None]
    assert changed == build_header(Seated(other, 4))
    assert changed["seal"] != header_line(Seated(ruleset, 4))[0]["seal"]
    assert line == json.dumps(changed, separators=(",", ":")) + "\n"
