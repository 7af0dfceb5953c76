"""Running the targui command in tests: in-process with click's runner, or as a real child
process (for streams, signals and the guard of main())."""

from __future__ import annotations

import os
import subprocess
import sys

from click.testing import CliRunner

from targui_cli.main import cli

COMMANDS = sorted(cli.commands)  # every command the group has, so a new one is held to the same standard


def run(*args: str, **kwargs):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False, **kwargs)


def targui(*args: str, timeout: float = 60, **kwargs) -> subprocess.CompletedProcess:
    """The real command in a child process (for streams, signals and the guard of main())."""
    return subprocess.run([sys.executable, "-m", "targui_cli.main", *args], capture_output=True, text=True,
                          timeout=timeout, **kwargs)


def no_crash(text: str) -> None:
    assert "Traceback" not in text and "internal error" not in text and "Exception ignored" not in text, text


def session_processes(sid: int) -> list[int]:
    """The live processes of session ``sid`` (a command started in its own session and its
    workers; zombies left out), read from Linux's /proc."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[3]) == sid and fields[0] != "Z":  # fields: state ppid pgrp session ...
                found.append(int(entry))
    return found
