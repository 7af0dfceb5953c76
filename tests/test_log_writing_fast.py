"""A log that costs little writes the same bytes: the event encoder made once, lines gathered
into few writes (flushed before a person thinks and at the end), ruleset files hashed again
only when they change."""

from __future__ import annotations

import json
import os
from pathlib import Path

from engine_fixtures import any_ruleset

from targui_dsl.agents import make_agent
from targui_dsl.engine.loop import play
from targui_dsl.gamelog import events as events_module
from targui_dsl.gamelog.events import EventLog
from targui_dsl.gamelog.header import file_sha256, source_hashes
from targui_dsl.gamelog.writer import BATCH, open_log_for_writing
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
