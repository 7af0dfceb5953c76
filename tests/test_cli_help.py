"""Every command's --help documents its exit status and examples, plainly."""

from __future__ import annotations

import pytest
from cli_run import COMMANDS, run

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
