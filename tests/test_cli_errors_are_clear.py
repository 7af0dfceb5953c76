"""Whatever the input, the command line gives a clear one-line error or diagnostics and the
documented exit status, never a Python traceback and never the "internal error" guard of
cli/main.py: outputs that cannot be written, absurd numbers, rulesets read from a pipe, paths
that are not UTF-8."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_run import no_crash, run, targui

# --- output files that cannot be written ------------------------------------------------

def test_play_log_in_a_missing_folder_is_refused_before_the_game(tmp_path):
    result = run("play", "original-dutch", "--log", str(tmp_path / "no-such-dir" / "game.jsonl"))
    assert result.exit_code == 1
    assert "cannot write" in result.stderr and "no-such-dir" in result.stderr
    assert "Seats:" not in result.stdout  # refused before any game was played


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_play_log_on_a_full_disk_is_a_clear_error():
    result = targui("play", "original-dutch", "--no-board", "--log", "/dev/full")
    assert result.returncode == 1, result.stderr
    no_crash(result.stderr)
    assert "cannot write /dev/full" in result.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["show", "original-dutch"], ["rulesets"], ["schema"],
                                  ["simulate", "swedish-12", "-n", "2"]])
def test_standard_output_on_a_full_disk_is_a_clear_error(args):
    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, "-m", "targui_cli.main", *args], stdout=full,
                                stderr=subprocess.PIPE, text=True, timeout=60)
    assert result.returncode == 1
    no_crash(result.stderr)
    assert "No space left on device" in result.stderr


def test_plot_to_a_missing_folder_is_refused_before_the_games(tmp_path):
    missing = tmp_path / "no-such-dir" / "plot.png"
    for args in (["simulate", "swedish-12"], ["compare", "swedish-12", "original-dutch"]):
        result = run(*args, "-n", "2", "--plot", str(missing))
        assert result.exit_code == 1 and "cannot write" in result.stderr
        assert result.stdout == ""  # no summary: nothing was played


# --- numbers on the command line --------------------------------------------------------

@pytest.mark.parametrize("args", [
    ["simulate", "original-dutch", "--games", str(10**12)],
    ["simulate", "original-dutch", "--games", "1" + "0" * 30],
    ["compare", "original-dutch", "swedish-12", "-n", str(10**7)],
    ["simulate", "original-dutch", "--workers", "100000"],
    ["compare", "original-dutch", "swedish-12", "-w", str(10**9)],
])
def test_absurd_batch_sizes_are_usage_errors(args):
    started = time.monotonic()
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert "is not in the range" in result.stderr
    assert time.monotonic() - started < 10


# --- rulesets the worker processes cannot read again -------------------------------------

def test_simulate_a_ruleset_from_a_pipe_with_workers(tmp_path):
    text = (Path(__file__).parents[1] / "rulesets" / "examples" / "rich-oases.yaml").read_text(encoding="utf-8")
    read, write = os.pipe()
    os.write(write, text.encode("utf-8"))
    os.close(write)
    try:
        result = targui("simulate", f"/dev/fd/{read}", "-n", "3", "-w", "2", "--json", pass_fds=(read,),
                        cwd=Path(__file__).parents[1] / "rulesets" / "examples")
    finally:
        os.close(read)
    no_crash(result.stderr)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["games"] == 3


# --- paths that are not UTF-8 ----------------------------------------------------------------

@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file names are bytes")
def test_json_output_stays_valid_utf8_for_a_path_that_is_not(tmp_path):
    name = os.fsdecode(b"\xff\xfe.yaml")
    result = subprocess.run([sys.executable, "-m", "targui_cli.main", "validate", "--json", name],
                            capture_output=True, timeout=60, cwd=tmp_path)
    assert result.returncode == 1
    report = json.loads(result.stdout.decode("utf-8"))
    assert report[0]["code"] == "E0108" and report[0]["ruleset"] == name
