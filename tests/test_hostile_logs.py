"""Issue 12, items 2-5: logs and paths from strangers.

A log cannot make targui read another file, pass a forged game as verified,
or be lost by a second writer or a full disk; nothing that is not a file is
read, and nothing is read without bound. Each test builds its hostile file
and checks the exit status and what was printed.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from targui_cli.main import cli
from targui_dsl import load_ruleset
from targui_dsl.gamelog.events import EventLog
from targui_dsl.gamelog.header import seal, seal_header
from targui_dsl.gamelog.reader import LINE_CAP, TOTAL_CAP, read_log_file
from targui_dsl.gamelog.writer import LogLocked, open_log_for_writing
from targui_dsl.games.targui.game import Game

RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
ROOT = Path(__file__).parents[1]


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def targui(*args: str, timeout: float = 60, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "targui_cli.main", *args], capture_output=True, text=True,
                          timeout=timeout, **kwargs)


def no_crash(text: str) -> None:
    assert "Traceback" not in text and "internal error" not in text, text
    assert RAW.search(text) is None, repr(text)


def lines_of(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def write_log(path: Path, header: dict, lines: list[str]) -> Path:
    path.write_text("\n".join([json.dumps(header)] + lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def game_log(tmp_path_factory) -> Path:
    log = tmp_path_factory.mktemp("logs") / "game.jsonl"
    result = run("play", "original-dutch", "--seed", "7", "--no-board", "--log", str(log))
    assert result.exit_code == 0, result.output
    return log


# --- 2. self-contained, checked logs -----------------------------------------------------

@pytest.mark.parametrize("sha", [None, "0" * 64, "same"])
def test_a_header_naming_another_file_never_has_it_read(game_log, tmp_path, sha):
    secret = tmp_path / "secret.txt"
    secret.write_text("root:x:0:0:SECRET-CONTENT:/root:/bin/bash\n", encoding="utf-8")
    lines = lines_of(game_log)
    header = json.loads(lines[0])
    header.update(ruleset="house", files=[str(secret)])
    if sha is None:
        header.pop("sha256")
    else:
        header["sha256"] = ["0" * 64 if sha != "same" else header["sha256"][0]]
    log = write_log(tmp_path / "evil.jsonl", seal_header(header), lines[1:])
    for args in ([], ["--verify"]):
        result = run("replay", str(log), *args)
        assert result.exit_code == 1
        no_crash(result.output)
        assert "SECRET" not in result.output and "root:x" not in result.output
        assert "not built in" in result.stderr and "--ruleset" in result.stderr


def test_a_changed_ruleset_file_is_not_loaded_nor_quoted(tmp_path):
    rule = tmp_path / "mine.yaml"
    rule.write_text("extends: original-dutch\nid: mine\ntitle: Mine\nsetup:\n  cash: 20\n", encoding="utf-8")
    log = tmp_path / "game.jsonl"
    assert run("play", str(rule), "--seed", "3", "--no-board", "--log", str(log)).exit_code == 0
    assert run("replay", str(log), "--verify", "-q").exit_code == 0
    rule.write_text("SECRET-LINE: [unclosed\n", encoding="utf-8")  # not the file the game was played with
    result = run("replay", str(log), "--verify")
    assert result.exit_code == 1
    no_crash(result.output)
    assert "SECRET" not in result.output and "was not found with the content the log records" in result.stderr
    # Given on the command line, the same changed file is loaded (its own diagnostics)
    rule.write_text("extends: original-dutch\nid: mine\ntitle: Mine\nsetup:\n  cash: 25\n", encoding="utf-8")
    result = run("replay", str(log), "--verify", "-q", "--ruleset", str(rule))
    assert result.exit_code == 1 and "is not the file the game was played with (its sha256 differs)" in result.stderr


def test_the_header_title_is_checked_against_the_ruleset(game_log, tmp_path):
    lines = lines_of(game_log)
    header = seal_header({**json.loads(lines[0]), "title": "A \x1b]0;pwned\x07 title"})
    log = write_log(tmp_path / "title.jsonl", header, lines[1:])
    told = run("replay", str(log), "-q")
    assert told.exit_code == 0 and "is not the ruleset's title" in told.stderr
    no_crash(told.output)
    verified = run("replay", str(log), "--verify", "-q")
    assert verified.exit_code == 1 and "is not the ruleset's title" in verified.stderr
    no_crash(verified.output)


# --- 3. honest verification --------------------------------------------------------------

def forged_game(path: Path) -> Path:
    """A whole game played with explicit chance where the forger chose every die: always
    a six. The engine takes each chance outcome from the caller, so the log is consistent
    with itself; only its dice were never thrown."""
    from targui_dsl.agents import seat_agents

    rs = load_ruleset("original-dutch")
    game = Game(rs, players=4, seed=1, explicit_chance=True)
    agents = seat_agents(game.seed, ["greedy", "random", "random", "random"])
    sixes = 0
    with path.open("w", encoding="utf-8") as stream:
        state = game.new_initial_state(log=EventLog(stream, keep=False))
        while not state.is_terminal():
            if state.is_chance_node():
                texts = [state.action_to_string(a) for a in state.legal_actions()]
                pick = "die 6" if "die 6" in texts else texts[0]
                sixes += pick == "die 6"
                state.apply_action(pick)
            else:
                seat = state.current_player()
                state.apply_action(agents[seat].choose(state.observation(seat), state.legal_actions()))
    assert sixes > 10
    return path


def test_a_forged_log_with_explicit_chance_is_never_reported_verified(tmp_path):
    log = forged_game(tmp_path / "forged.jsonl")
    header = json.loads(lines_of(log)[0])
    assert header["explicit_chance"] is True and header["seal"] == seal(header)
    result = run("replay", str(log), "--verify", "-q")
    assert result.exit_code == 3, result.output
    assert "decisions legal; chance outcomes taken from the log, not checked" in result.output
    assert "verified" not in result.output
    data = json.loads(run("replay", str(log), "--verify", "--json").stdout)
    assert data["verify"]["verdict"] == "chance-unchecked" and data["verify"]["chance_checked"] is False


def test_flipping_the_chance_flag_in_a_seeded_log_fails(game_log, tmp_path):
    lines = lines_of(game_log)
    header = json.loads(lines[0])
    flipped = write_log(tmp_path / "flipped.jsonl", {**header, "explicit_chance": True}, lines[1:])
    result = run("replay", str(flipped), "--verify", "-q")
    assert result.exit_code == 1 and "seal does not match" in result.stderr and "verified" not in result.output
    # Resealed by whoever flipped it: at best "not checked", never "verified"
    resealed = write_log(tmp_path / "resealed.jsonl", seal_header({**header, "explicit_chance": True}), lines[1:])
    result = run("replay", str(resealed), "--verify", "-q")
    assert result.exit_code == 3 and "verified" not in result.output
    # And a die edited in the seeded log itself is caught where it is
    for i, line in enumerate(lines):
        event = json.loads(line)
        if event["type"] == "chance" and event["action"].startswith("die "):
            event["action"] = "die 6" if event["action"] != "die 6" else "die 1"
            lines[i] = json.dumps(event)
            break
    result = run("replay", str(write_log(tmp_path / "die.jsonl", header, lines[1:])), "--verify", "-q")
    assert result.exit_code == 1 and f"verify FAILED at event {i}" in result.stderr


# --- 4. logs that survive ----------------------------------------------------------------

def test_three_players_on_one_log_path_at_once(tmp_path):
    """Three `play --log same.jsonl` at once: one writes (it waits for a human's move, so
    the lock is held while the others start), the others are refused with one line."""
    log = tmp_path / "same.jsonl"
    procs = [subprocess.Popen([sys.executable, "-m", "targui_cli.main", "play", "original-dutch", "--human", "1",
                               "--seed", str(seed), "--log", str(log), "--colour", "never"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for seed in (1, 2, 3)]
    try:
        deadline = time.monotonic() + 60
        while sum(p.poll() is not None for p in procs) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        refused = [p for p in procs if p.poll() is not None]
        assert len(refused) == 2, "two of the three must be refused while the first one writes"
        for p in refused:
            err = p.stderr.read()
            assert p.returncode == 1
            assert err.strip().splitlines() == [
                f"error: cannot write {log}: another targui is writing this log now; "
                "wait for it to finish or choose another file"]
        (writer,) = [p for p in procs if p.poll() is None]
        writer.stdin.close()  # the human leaves: the game so far stays in the log
        assert writer.wait(timeout=60) == 0
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    result = run("replay", str(log), "--verify", "--partial", "-q")
    assert result.exit_code == 0 and "verified" in result.stdout


def test_a_second_writer_is_refused_and_leaves_the_log_whole(tmp_path):
    path = tmp_path / "log.jsonl"
    with open_log_for_writing(str(path)) as first:
        first.write('{"type":"a"}\n')
        with pytest.raises(LogLocked):
            open_log_for_writing(str(path))
        first.write('{"type":"b"}\n')
    assert path.read_text() == '{"type":"a"}\n{"type":"b"}\n'


def test_a_log_written_over_a_longer_file_keeps_nothing_of_it(tmp_path):
    # (the writer empties the file under its lock: a new file and an old one alike)
    path = tmp_path / "log.jsonl"
    path.write_text('{"type":"old"}\n' * 100)
    with open_log_for_writing(str(path)) as writer:
        writer.write('{"type":"a"}\n')
    assert path.read_text() == '{"type":"a"}\n'
    with open_log_for_writing(str(tmp_path / "new.jsonl")) as writer:
        writer.write('{"type":"b"}\n')
    assert (tmp_path / "new.jsonl").read_text() == '{"type":"b"}\n'


@pytest.mark.parametrize("kind", ["new", "file", "link to a file", "link to nothing", "directory", "device"])
def test_a_log_goes_where_its_path_leads_whatever_is_there(tmp_path, kind):
    # a new path is made as the log; any other is looked at first: each kind as it always was
    path, target = tmp_path / "log.jsonl", tmp_path / "target.jsonl"
    if kind == "file":
        path.write_text('{"type":"old"}\n' * 3)
    elif kind.startswith("link"):
        if kind == "link to a file":
            target.write_text('{"type":"old"}\n' * 3)
        path.symlink_to(target)
    elif kind == "directory":
        path.mkdir()
    elif kind == "device":
        path = Path(os.devnull)
    if kind == "directory":
        with pytest.raises(IsADirectoryError):
            open_log_for_writing(str(path))
        return
    with open_log_for_writing(str(path)) as writer:
        assert writer.regular == (kind != "device")
        if writer.regular:
            with pytest.raises(LogLocked):
                open_log_for_writing(str(path))
        writer.write('{"type":"a"}\n')
    if kind != "device":
        assert (target if kind.startswith("link") else path).read_text() == '{"type":"a"}\n'
        assert path.is_symlink() == kind.startswith("link")


def full_disk_after(limit: int):
    """os.write on a disk with ``limit`` bytes left: a short write, then ENOSPC."""
    left = {"bytes": limit}

    def write(fd: int, data) -> int:
        if left["bytes"] <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        n = os.write(fd, bytes(data[: left["bytes"]]))
        left["bytes"] -= n
        return n

    return write


def test_a_full_disk_leaves_a_log_ending_at_its_last_complete_event(game_log, tmp_path):
    lines = lines_of(game_log)
    path = tmp_path / "full.jsonl"
    limit = sum(len(line) + 1 for line in lines[:500]) + 40  # the disk fills 40 bytes into event 500
    writer = open_log_for_writing(str(path), write=full_disk_after(limit))
    with pytest.raises(OSError) as err:
        for line in lines:
            writer.write(line + "\n")
    writer.close()
    assert err.value.errno == errno.ENOSPC
    data = path.read_bytes()
    assert data.endswith(b"\n") and data.decode().splitlines() == lines[:500]
    result = run("replay", str(path), "--verify", "--partial", "-q")
    assert result.exit_code == 0 and "all 499 events" in result.stdout


def test_play_on_a_full_disk(tmp_path):
    """The real command with a file size limit (the system's own full-disk error, EFBIG)."""
    log = tmp_path / "game.jsonl"

    def small_disk() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (20_000, 20_000))

    result = targui("play", "original-dutch", "--seed", "3", "--no-board", "--log", str(log), preexec_fn=small_disk)
    assert result.returncode == 1 and f"error: cannot write {log}: File too large" in result.stderr
    no_crash(result.stderr)
    data = log.read_bytes()
    assert 0 < len(data) <= 20_000 and data.endswith(b"\n")
    assert run("replay", str(log), "--verify", "--partial", "-q").exit_code == 0


def test_a_log_cut_by_a_crash_replays_with_partial(game_log, tmp_path):
    lines = lines_of(game_log)
    torn = tmp_path / "torn.jsonl"
    torn.write_text("\n".join(lines[:300]) + "\n" + lines[300][:25], encoding="utf-8")
    refused = run("replay", str(torn), "--verify", "-q")
    assert refused.exit_code == 1 and "line 301: not JSON: the log is cut short here" in refused.stderr
    assert "--partial" in refused.stderr
    result = run("replay", str(torn), "--verify", "--partial", "-q")
    assert result.exit_code == 0, result.output
    assert "line 301 is cut short" in result.stderr and "up to event 299" in result.stderr
    assert "all 299 events" in result.stdout
    assert read_log_file(torn, partial=True).torn == 301


# --- 5. inputs that are not files --------------------------------------------------------

READERS = [
    ["validate", "{p}"], ["show", "{p}"], ["cards", "{p}"], ["diff", "{p}", "original-dutch"],
    ["play", "{p}", "--seed", "1"], ["simulate", "{p}", "-n", "1"], ["compare", "{p}", "original-dutch", "-n", "1"],
    ["replay", "{p}"],
]


@pytest.mark.parametrize("kind", ["fifo", "device", "directory"])
@pytest.mark.parametrize("args", READERS, ids=lambda a: a[0])
def test_every_command_refuses_what_is_not_a_file(tmp_path, kind, args):
    if kind == "fifo":
        path = tmp_path / "rules.yaml"
        os.mkfifo(path)  # nobody writes: reading it would wait forever
        reason = "is a named pipe (FIFO), not a file"
    elif kind == "device":
        path, reason = Path("/dev/zero"), "is a device, not a file"  # never ends
    else:
        path = tmp_path / "folder.yaml"
        path.mkdir()
        reason = "is a directory, not a file"
    result = targui(*[a.replace("{p}", str(path)) for a in args], timeout=30)
    assert result.returncode == 1, result.stderr
    output = result.stdout + result.stderr  # validate prints its diagnostics on standard output
    no_crash(output)
    assert len([line for line in output.splitlines() if reason in line]) == 1, output


def test_log_size_caps(game_log, tmp_path):
    lines = lines_of(game_log)
    long_line = tmp_path / "long.jsonl"
    long_line.write_text(lines[0] + "\n" + '{"type": "x", "pad": "' + "a" * LINE_CAP + '"}\n', encoding="utf-8")
    result = run("replay", str(long_line))
    assert result.exit_code == 1 and "line 2: longer than 1 MiB" in result.stderr
    huge = tmp_path / "huge.jsonl"
    with huge.open("wb") as handle:
        handle.truncate(TOTAL_CAP + 10)  # sparse: no disk used
    result = run("replay", str(huge))
    assert result.exit_code == 1 and "larger than 64 MiB" in result.stderr


@pytest.mark.parametrize("edit, message", [
    (lambda line: re.sub(r'"seed":\s*\d+', '"seed": ' + "9" * 5000, line), "line 1: not JSON"),
    (lambda line: re.sub(r'"seed":\s*\d+', '"seed": ' + "9" * 30, line), "line 1: the seed is out of range"),
    (lambda line: re.sub(r'"title":\s*"[^"]*"', r'"title": "\\ud800"', line), "line 1: title is not text"),
    (lambda line: line.replace('"kel_ahaggar"', '"kel_\\udfff"', 1), "line 1: tribes[0] is not text"),
])
def test_header_fields_are_validated(game_log, tmp_path, edit, message):
    lines = lines_of(game_log)
    path = tmp_path / "edited.jsonl"
    path.write_text("\n".join([edit(lines[0])] + lines[1:]) + "\n", encoding="utf-8")
    for args in ([], ["--verify"], ["--json"]):
        result = targui("replay", str(path), *args)
        assert result.returncode == 1, result.stderr
        assert message in result.stderr
        no_crash(result.stdout + result.stderr)


def test_a_ruleset_read_from_a_pipe_gets_no_hash(tmp_path):
    """A pipe can be read once: its hash is recorded as null, not as the hash of nothing."""
    from targui_dsl.gamelog.header import file_sha256

    read, write = os.pipe()
    os.write(write, b"id: x\n")
    os.close(write)
    try:
        assert file_sha256(f"/dev/fd/{read}") is None
    finally:
        os.close(read)
    plain = tmp_path / "r.yaml"
    plain.write_bytes(b"id: x\n")
    assert file_sha256(plain) == hashlib.sha256(b"id: x\n").hexdigest()


def test_a_log_never_grows_past_what_a_reader_reads(tmp_path, monkeypatch):
    """The writer refuses the event that would take a log past the readers' cap (64 MiB; here
    lowered to 30 kB so that one ordinary game reaches it): the game stops with one line, and
    its log reads back whole up to its last event."""
    import targui_dsl.gamelog.writer as writer

    monkeypatch.setattr(writer, "TOTAL_CAP", 30_000)
    log = tmp_path / "game.jsonl"
    result = run("play", "original-dutch", "--seed", "7", "--no-board", "--log", str(log))
    assert result.exit_code == 1
    assert (f"error: cannot write {log}: the log reached 30,000 bytes, the most a log may hold (no reader reads"
            " more); the game was stopped there, its log whole up to its last event") in result.output
    data = log.read_bytes()
    assert 29_000 < len(data) <= 30_000 and data.endswith(b"\n")
    monkeypatch.undo()
    told = run("replay", str(log), "--verify", "--partial", "-q")
    assert told.exit_code == 0 and f"all {len(data.splitlines()) - 1} events" in told.stdout, told.output
