"""Ctrl-C stops a command and its worker processes without a traceback (exit 130)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_run import no_crash

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
