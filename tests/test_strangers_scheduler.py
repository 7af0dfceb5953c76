"""Cluster addresses from strangers (issue 21, item 7): `--scheduler` is checked before
anything connects, and whatever answers (or does not) at the address, the command ends
with one line of error and exit 1 within its connect timeout, with nothing printed
after it when the process exits. The servers here listen on 127.0.0.1 only."""

from __future__ import annotations

import socket
import threading
from contextlib import contextmanager
from typing import Iterator

import pytest
from cli_run import targui

pytest.importorskip("distributed")

STUDY = ("simulate", "swedish-12", "-n", "2")


def _one_error_line(result) -> str:
    assert result.returncode == 1, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr  # no traceback, no `Client.__del__` complaint at exit
    assert lines[0].startswith("error: ") and "Traceback" not in result.stderr
    assert result.stdout == ""
    return lines[0]


@contextmanager
def _server(greeting: bytes | None) -> Iterator[int]:
    """A TCP server on 127.0.0.1 that accepts, sends ``greeting`` (if any) and then says
    nothing, holding every connection open until the test ends."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    held: list[socket.socket] = []
    stop = threading.Event()

    def serve() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                continue
            held.append(conn)
            if greeting:
                conn.sendall(greeting)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1]
    finally:
        stop.set()
        thread.join()
        for conn in held:
            conn.close()
        listener.close()


@pytest.mark.parametrize("address", ["garbage", "tcp://", "inproc://x", "tcp://127.0.0.1", "tcp://127.0.0.1:99999",
                                     "tls://127.0.0.1:8786", "tcp://user@127.0.0.1:8786", "127.0.0.1:80/path"])
def test_a_malformed_scheduler_address_is_one_line_and_exit_1(address):
    line = _one_error_line(targui(*STUDY, "--scheduler", address))
    assert "tcp://HOST:PORT" in line


def test_a_server_that_sends_garbage_is_not_taken_for_a_scheduler():
    with _server(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n") as port:
        line = _one_error_line(targui(*STUDY, "--scheduler", f"tcp://127.0.0.1:{port}"))
    assert line == f"error: cannot reach the Dask scheduler at tcp://127.0.0.1:{port}: " \
                   "it answers, but not as a Dask scheduler"
    assert "MemoryError" not in line


def test_a_server_that_accepts_and_says_nothing_is_given_up_on():
    with _server(None) as port:
        line = _one_error_line(targui(*STUDY, "--scheduler", f"127.0.0.1:{port}", timeout=120))
    assert line.endswith("no answer within 4 s")


def test_a_refused_port_is_one_line_and_exit_1():
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()  # nothing listens there now
    line = _one_error_line(targui(*STUDY, "--scheduler", f"tcp://127.0.0.1:{port}"))
    assert line.endswith("connection refused")


def test_a_real_scheduler_on_tcp_passes_the_check_and_plays():
    from cli_run import run
    from distributed import LocalCluster

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp",
                      dashboard_address=None) as cluster:
        assert cluster.scheduler_address.startswith("tcp://127.0.0.1:")
        result = run(*STUDY, "--json", "--scheduler", cluster.scheduler_address)
    assert result.exit_code == 0, result.output
    assert '"games": 2' in result.output
