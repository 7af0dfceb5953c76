"""Issue 12, item 1: no control character from a ruleset or a log reaches the output raw.

Every test builds a hostile ruleset (double-quoted YAML escapes: a set-title
sequence ``ESC ] 0 ; ... BEL``, colour codes, a C1 CSI, a bidi override)
and checks a command's exit status and that what it printed holds no raw
control character, on standard output and standard error alike.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from targui_cli.main import cli
from targui_dsl.frontend.text import json_text, visible, visible_output

# Every control character visible() promises to escape (newlines and tabs are checked apart).
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff]")

HOSTILE = r'''extends: original-dutch
id: hostile
title: "Evil \e]0;pwned\a title \u202Eevil"
tribes:
  kel_ahaggar:
    name: "Kel \e[31mRed\e[0m \x9b2J"
cards:
  haussa_raid:
    title: "Raid \e]0;card\a"
    text:
      nl: "text \e]0;text\a here \x07\n\e[31mRed second line"
'''


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def clean(text: str) -> None:
    """No raw control character; the hostile strings are there, escaped."""
    assert RAW.search(text) is None, repr(RAW.search(text))


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("hostile") / "hostile.yaml"
    path.write_text(HOSTILE, encoding="utf-8")
    return path


def test_visible_escapes_controls_and_keeps_plain_text():
    assert visible("Evil \x1b]0;pwned\x07") == "Evil \\x1b]0;pwned\\x07"
    assert visible("a\u202eb\x9b\ud800") == "a\\u202eb\\x9b\\ud800"
    assert visible("two\nlines\tand tab") == "two\\nlines\\tand tab"
    assert visible("two\nlines", keep_newlines=True) == "two\nlines"
    assert visible("Kel Ahaggar, Tamanrasset — é") == "Kel Ahaggar, Tamanrasset — é"
    # targui's own colours pass the output net; a set-title sequence does not
    assert visible_output("\x1b[1;31merror\x1b[0m \x1b]0;x\x07") == "\x1b[1;31merror\x1b[0m \\x1b]0;x\\x07"
    value = "a\x1b\x9b\u202e\ud800"
    text = json_text(json.dumps(value, ensure_ascii=False))
    assert RAW.search(text) is None and json.loads(text) == value


def test_cards_escapes_titles_names_and_texts(hostile):
    result = run("cards", str(hostile))
    assert result.exit_code == 0, result.output
    clean(result.output)
    assert "Evil \\x1b]0;pwned\\x07 title \\u202eevil" in result.stdout
    assert "Raid \\x1b]0;card\\x07" in result.stdout


def test_json_output_escapes_as_json_does(hostile):
    result = run("cards", str(hostile), "--json")
    assert result.exit_code == 0
    clean(result.stdout)
    data = json.loads(result.stdout)
    assert data["title"] == "Evil \x1b]0;pwned\x07 title \u202eevil"  # the value itself, unchanged
    assert "\\u001b]0;pwned\\u0007" in result.stdout and "\\u202e" in result.stdout


@pytest.mark.parametrize("args", [["show", "{r}"], ["show", "{r}", "--compiled"], ["show", "{r}", "--json"],
                                  ["validate", "{r}"], ["diff", "original-dutch", "{r}"]])
def test_show_validate_diff(hostile, args):
    result = run(*[a.replace("{r}", str(hostile)) for a in args])
    assert result.exit_code == 0, result.output
    clean(result.output)


def test_play_and_replay_tell_the_game_with_names_escaped(hostile, tmp_path):
    log = tmp_path / "game.jsonl"
    played = run("play", str(hostile), "--seed", "4", "--no-board", "--log", str(log))
    assert played.exit_code == 0, played.output
    clean(played.output)
    assert "Kel \\x1b[31mRed\\x1b[0m \\x9b2J" in played.stdout
    told = run("replay", str(log), "--verify", "--verbose")
    assert told.exit_code == 0, told.output
    clean(told.output)
    assert "Evil \\x1b]0;pwned\\x07" in told.stdout  # the title read from the log's header
    as_json = run("replay", str(log), "--json", "-q")
    assert as_json.exit_code == 0
    clean(as_json.stdout)
    json.loads(as_json.stdout)


def test_simulate_and_compare(hostile):
    for args in (["simulate", str(hostile), "-n", "2", "-w", "1"],
                 ["compare", str(hostile), "original-dutch", "-n", "2", "-w", "1"]):
        result = run(*args)
        assert result.exit_code == 0, result.output
        clean(result.output)


def test_validate_quotes_source_lines_and_keys_escaped(tmp_path):
    # A raw ESC byte in the file (YAML refuses it: the diagnostic quotes the line), and
    # an unknown key spelled with escapes (the diagnostic names the key).
    raw = tmp_path / "raw.yaml"
    raw.write_bytes(b"extends: original-dutch\nid: raw\ntitle: a \x1b]0;pwned\x07 b\n")
    key = tmp_path / "key.yaml"
    key.write_text('extends: original-dutch\nid: key\n"ti\\e]0;pwned\\atle": x\n', encoding="utf-8")
    for path in (raw, key):
        result = run("validate", str(path))
        assert result.exit_code == 1, result.output
        clean(result.output)
        assert "pwned" in result.output  # quoted, escaped


def test_validate_in_colour_keeps_only_targuis_colours(tmp_path):
    """On a terminal the diagnostics are coloured: an escape sequence written into the
    file itself (raw bytes, or a key spelled with escapes) is still shown as text."""
    from targui_cli.common import render_diagnostics
    from targui_dsl.frontend.build import build

    raw = tmp_path / "raw.yaml"
    raw.write_bytes(b"extends: original-dutch\nid: raw\ntitle: a \x1b[31mRED\x1b]0;x\x07\n")
    key = tmp_path / "key.yaml"
    key.write_bytes(b'extends: original-dutch\nid: key\n"k\\e[5mblink": 1\n')
    for path, shown in ((raw, "\\x1b[31mRED\\x1b]0;x\\x07"), (key, "k\\x1b[5mblink")):
        report = build(str(path))
        text = render_diagnostics(report.diagnostics, report.sources, color=True)
        assert "\x1b[1;31m" in text  # targui's own colour
        assert shown in text, text
        assert "\x1b[31m" not in text and "\x1b[5m" not in text and "\x07" not in text


@pytest.mark.parametrize("args", [["cards", "{r}"], ["diff", "original-dutch", "{r}", "--all"],
                                  ["show", "{r}", "--compiled"], ["validate", "{r}"]])
def test_in_colour_only_targuis_colours(hostile, args):
    """With colour on (as on a terminal), styles are targui's; the ruleset's ESC[31m is text."""
    result = CliRunner().invoke(cli, [a.replace("{r}", str(hostile)) for a in args], color=True,
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "\x1b[31mRed" not in result.output and "\x07" not in result.output
    assert "\x1b]" not in result.output and "\x9b" not in result.output


def _table(hostile) -> str:
    result = CliRunner().invoke(cli, ["play", str(hostile), "--human", "1", "--seed", "2", "--colour", "always"],
                                input="1\n1\nquit\n", color=True, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_play_at_the_table_escapes_names(hostile):
    """A person at the table (menus, the players' table, the board) sees the names escaped."""
    output = _table(hostile)
    assert "Kel \\x1b[31mRed\\x1b[0m \\x9b2J (seat 1)" in output
    # no raw control character at all but targui's colours
    assert RAW.search(output.replace("\x1b[", "")) is None
    shown = "\n".join(line for line in output.splitlines() if not line.startswith("Seats: "))
    assert "\x1b[31mRed" not in shown


def test_play_seats_line_escapes_names(hostile):
    assert "\x1b[31mRed" not in _table(hostile)
