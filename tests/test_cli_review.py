"""Review of the command line as a user meets it: whatever the input, a clear
one-line error or diagnostics and the documented exit status, never a Python
traceback and never the "internal error" guard of cli/main.py."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from targui_cli.common import use_colour
from targui_cli.main import cli

COMMANDS = ["rulesets", "validate", "show", "cards", "diff", "schema", "play", "replay", "simulate", "compare"]


def run(*args: str, **kwargs):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False, **kwargs)


def targui(*args: str, timeout: float = 60, **kwargs) -> subprocess.CompletedProcess:
    """The real command in a child process (for streams, signals and the guard of main())."""
    return subprocess.run([sys.executable, "-m", "targui_cli.main", *args], capture_output=True, text=True,
                          timeout=timeout, **kwargs)


def no_crash(text: str) -> None:
    assert "Traceback" not in text and "internal error" not in text and "Exception ignored" not in text, text


@pytest.fixture(scope="module")
def game_log(tmp_path_factory) -> Path:
    log = tmp_path_factory.mktemp("review") / "game.jsonl"
    assert run("play", "original-dutch", "--seed", "1", "--no-board", "--log", str(log)).exit_code == 0
    return log


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


# --- game logs ---------------------------------------------------------------------------

def _with_header(game_log: Path, tmp_path: Path, **changes) -> Path:
    lines = game_log.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    for key, value in changes.items():
        if value is None:
            header.pop(key, None)
        else:
            header[key] = value
    path = tmp_path / "edited.jsonl"
    path.write_text("\n".join([json.dumps(header)] + lines[1:]) + "\n", encoding="utf-8")
    return path


def test_replay_of_a_header_without_its_optional_title(game_log, tmp_path):
    log = _with_header(game_log, tmp_path, title=None, seal=None)  # as an older targui wrote it
    result = run("replay", str(log))
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0].startswith("Targui (original Dutch rules) (original-dutch): 4 players")
    assert run("replay", str(log), "--verify", "-q").exit_code == 0


@pytest.mark.parametrize("changes", [
    {"ruleset": "a" * 5000, "files": None},
    {"ruleset": "house", "files": ["b" * 5000 + ".yaml"]},
    {"ruleset": "house", "files": ["bad\u0000name.yaml"]},
])
def test_replay_of_a_header_naming_an_impossible_file(game_log, tmp_path, changes):
    result = run("replay", str(_with_header(game_log, tmp_path, **changes)), "-q")
    assert result.exit_code == 1
    assert "is not built in" in result.stderr and "--ruleset" in result.stderr


def test_replay_partial_without_verify_tells_a_game_quit_midway(game_log, tmp_path):
    lines = game_log.read_text(encoding="utf-8").splitlines()
    short = tmp_path / "short.jsonl"
    short.write_text("\n".join(lines[:200]) + "\n", encoding="utf-8")
    result = run("replay", str(short), "--partial")
    assert result.exit_code == 0 and "before the game is over" not in result.stderr


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


# --- colour ------------------------------------------------------------------------------

class _Terminal:
    def isatty(self) -> bool:
        return True


def test_colour_only_on_terminals_and_never_with_no_color(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert use_colour(_Terminal())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_colour(_Terminal())
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.setenv("TERM", "dumb")
    assert not use_colour(_Terminal())


@pytest.mark.parametrize("args", [["cards", "original-dutch"], ["show", "original-dutch", "--compiled"],
                                  ["diff", "original-dutch", "updated-treasury"]])
def test_no_color_turns_styled_output_plain(args, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    result = run(*args, color=True)  # as on a terminal: click would keep the ANSI codes
    assert result.exit_code == 0
    assert "\x1b[" not in result.output


# --- Ctrl-C --------------------------------------------------------------------------------

@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="signals and /proc of Linux")
@pytest.mark.parametrize("delay", [0.2, 0.6, 1.0, 2.5])
def test_ctrl_c_during_simulate_stops_the_workers_without_a_traceback(delay):
    child = subprocess.Popen([sys.executable, "-m", "targui_cli.main", "simulate", "original-dutch",
                              "-n", "1000000", "-w", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, start_new_session=True)
    time.sleep(delay)
    err = None
    for _ in range(3):  # a Ctrl-C in the milliseconds the workers start is lost: a person presses again
        os.killpg(child.pid, signal.SIGINT)  # as a terminal does: the whole foreground process group
        try:
            _, err = child.communicate(timeout=5)
            break
        except subprocess.TimeoutExpired:
            continue
    if err is None:
        os.killpg(child.pid, signal.SIGKILL)
        child.communicate()
        pytest.fail("simulate did not stop after Ctrl-C")
    no_crash(err)
    # 130; or killed by SIGINT (-2, which a shell also shows as 130): CPython does that when a Ctrl-C
    # interrupted code it runs through exec(), as dataclasses does while modules are imported
    assert child.returncode in (130, -signal.SIGINT), err
    assert "interrupted" in err
    time.sleep(0.5)
    assert not _running_in_group(child.pid), "worker processes outlived simulate"


def _running_in_group(pgid: int) -> list[int]:
    """Live (not zombie) processes of a process group, from /proc."""
    alive = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()  # state, ppid, pgrp, ...
        if int(fields[2]) == pgid and fields[0] != "Z":
            alive.append(int(entry.name))
    return alive


# --- help ----------------------------------------------------------------------------------

@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_documents_exit_status_and_examples(command):
    result = run(command, "--help", terminal_width=100)
    assert result.exit_code == 0
    text = result.stdout.lower()
    assert "exit status" in text and "example" in text, command
    assert "\n      with --resolved" not in text  # docstring indentation leaking into the text


def test_play_bots_default_is_shown_plainly():
    assert "(greedy,random)" not in run("play", "--help").stdout


# --- paths that are not UTF-8 ----------------------------------------------------------------

@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file names are bytes")
def test_json_output_stays_valid_utf8_for_a_path_that_is_not(tmp_path):
    name = os.fsdecode(b"\xff\xfe.yaml")
    result = subprocess.run([sys.executable, "-m", "targui_cli.main", "validate", "--json", name],
                            capture_output=True, timeout=60, cwd=tmp_path)
    assert result.returncode == 1
    report = json.loads(result.stdout.decode("utf-8"))
    assert report[0]["code"] == "E0108" and report[0]["ruleset"] == name
