"""Colour only on a terminal, never with NO_COLOR or TERM=dumb."""

from __future__ import annotations

import pytest
from cli_run import run

from targui_cli.common import use_colour

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
