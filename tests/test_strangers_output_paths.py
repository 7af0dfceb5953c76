"""Output paths a user names (issue 21, item 6): no existing file is lost, two spellings of
one file are one file, one study file is written by one targui at a time, and a FIFO (or a
device) is refused at once instead of blocking for ever.

The commands run as child processes where the old code blocked, so that a regression fails
the test (by its timeout) instead of hanging the suite."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest
from cli_run import no_crash, run, targui

STUDY = ("simulate", "swedish-12", "-n", "12", "-w", "0")


def _study(out: str, *extra: str):
    return run(*STUDY, "--out", out, *extra)


def test_an_out_file_without_a_final_newline_is_refused_and_kept(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes, no newline at the end")
    result = _study(str(notes))
    assert result.exit_code == 2 and "not a study record" in result.output
    assert notes.read_text() == "my notes, no newline at the end"


def test_an_out_symlink_does_not_empty_its_target(tmp_path):
    target = tmp_path / "thesis.tex"
    target.write_text("\\chapter{One}")
    link = tmp_path / "study.jsonl"
    link.symlink_to(target)
    result = _study(str(link))
    assert result.exit_code == 2
    assert target.read_text() == "\\chapter{One}"


def test_a_study_cut_short_in_its_first_line_is_started_again(tmp_path):
    out = tmp_path / "study.jsonl"
    assert _study(str(out)).exit_code == 0
    whole = out.read_text()
    out.write_text(whole.splitlines()[0][:30])  # killed while writing the header
    result = _study(str(out))
    assert result.exit_code == 0, result.output
    assert out.read_text() == whole


@pytest.mark.parametrize("spelling", ["double slash", "symlink", "hard link", "dot dot"])
def test_records_naming_the_out_file_by_another_spelling_is_refused(tmp_path, spelling):
    out = tmp_path / "study.jsonl"
    assert _study(str(out)).exit_code == 0
    study = out.read_text()
    if spelling == "double slash":
        other = "/" + str(out)
    elif spelling == "dot dot":
        (tmp_path / "sub").mkdir()
        other = str(tmp_path / "sub" / ".." / "study.jsonl")
    elif spelling == "symlink":
        (tmp_path / "rows.jsonl").symlink_to(out)
        other = str(tmp_path / "rows.jsonl")
    else:
        os.link(out, tmp_path / "rows.jsonl")
        other = str(tmp_path / "rows.jsonl")
    result = _study(str(out), "--records", other)
    assert result.exit_code == 2 and "two different files" in result.output
    assert out.read_text() == study


def test_two_studies_on_one_out_file_cannot_run_at_once(tmp_path):
    """A second `simulate --out` is refused while the first holds the file (the first is
    a child process, held at its first chunk by a stop signal it has not yet had)."""
    out = tmp_path / "study.jsonl"
    first = subprocess.Popen([sys.executable, "-m", "targui_cli.main", "simulate", "swedish-12", "-n", "400000",
                              "-w", "0", "--out", str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             text=True)
    try:
        for _ in range(600):  # the first has opened (and locked) the file once it exists
            if out.exists() or first.poll() is not None:
                break
            time.sleep(0.1)
        assert out.exists() and first.poll() is None
        second = targui(*STUDY[:3], "400000", "-w", "0", "--out", str(out))
        assert second.returncode == 2, second.stderr
        assert "another targui is running a study with" in second.stderr
        no_crash(second.stderr)
    finally:
        first.terminate()
        first.communicate(timeout=60)
    # the first one's chunks are whole: the same command continues its study
    lines = out.read_text().splitlines()
    assert all(isinstance(json.loads(line), dict) for line in lines)


def _fifo(tmp_path, name: str) -> str:
    path = str(tmp_path / name)
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("option", ["--out", "--records"])
def test_a_fifo_as_a_study_output_is_refused_at_once(tmp_path, option):
    fifo = _fifo(tmp_path, "pipe.jsonl")
    result = targui(*STUDY, option, fifo, timeout=60)
    assert result.returncode == 1 and "named pipe (FIFO)" in result.stderr, result.stderr
    no_crash(result.stderr)


def test_a_fifo_as_a_tournament_out_is_refused_at_once(tmp_path):
    fifo = _fifo(tmp_path, "pipe.jsonl")
    result = targui("tournament", "swedish-12", "--bots", "random,greedy", "-n", "2", "-w", "0", "--out", fifo)
    assert result.returncode in (1, 2) and "named pipe (FIFO)" in result.stderr, result.stderr
    no_crash(result.stderr)


def test_a_fifo_as_a_game_log_is_refused_at_once(tmp_path):
    fifo = _fifo(tmp_path, "game.jsonl")
    result = targui("play", "original-dutch", "--bots", "random", "--log", fifo)
    assert result.returncode == 1 and "named pipe (FIFO)" in result.stderr, result.stderr
    no_crash(result.stderr)


def test_a_fifo_as_a_board_picture_is_refused_at_once(tmp_path):
    log = str(tmp_path / "game.jsonl")
    assert targui("play", "original-dutch", "--bots", "random", "-p", "2", "--log", log).returncode == 0
    fifo = _fifo(tmp_path, "board.svg")
    result = targui("replay", log, "--svg", fifo)
    assert result.returncode == 1 and "named pipe (FIFO)" in result.stderr, result.stderr
    no_crash(result.stderr)


def test_a_device_as_a_study_output_is_refused(tmp_path):
    # a format given, so the device is what is refused
    result = run(*STUDY, "--records", "/dev/zero", "--records-format", "csv")
    assert result.exit_code == 1 and "is a device" in result.output
