"""A study killed with SIGKILL leaves no worker behind (issue 21, item 8): each worker of
`simulate --workers N` dies with its parent (Linux: the kernel's parent-death signal)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from cli_run import session_processes

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death signal is Linux's")




@pytest.mark.parametrize("workers", [2])
def test_sigkill_of_a_study_leaves_no_worker_alive(tmp_path, workers):
    command = [sys.executable, "-m", "targui_cli.main", "simulate", "updated-treasury", "-n", "200000",
               "--bots", "random", "--workers", str(workers)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True, cwd=tmp_path)
    try:
        for _ in range(1200):  # the command and its workers, once they are all started
            if len(session_processes(process.pid)) >= workers + 1 or process.poll() is not None:
                break
            time.sleep(0.05)
        assert process.poll() is None, "the study ended before it could be killed"
        time.sleep(1)  # the workers are playing games
        assert len(session_processes(process.pid)) == workers + 1
        process.kill()  # SIGKILL: the parent cannot stop its workers itself
        process.wait()
        left = session_processes(process.pid)
        for _ in range(200):  # the kernel signals them at once; allow them a moment to go
            if not left:
                break
            time.sleep(0.05)
            left = session_processes(process.pid)
        assert left == [], "workers outlived their parent"
    finally:
        for pid in session_processes(process.pid):
            os.kill(pid, signal.SIGKILL)
