"""Shared by every test module."""

from __future__ import annotations

import signal

import pytest

# A run started in the background by a non-interactive shell (`pytest &`, nohup, some CI
# runners) inherits SIGINT ignored, and so would every child it starts: the Ctrl-C tests
# would then test nothing. Give children the default disposition, as a terminal would.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture
def own_score_cache(tmp_path, monkeypatch):
    """A cache folder of the test's own for learned weights, and weights looked up afresh
    (modules that train or read weights use it for every test)."""
    from targui_dsl.agents.learned import forget_all

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    forget_all()
    yield
    forget_all()
