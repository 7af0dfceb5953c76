"""Targi at the table: action texts a player can read, the old spellings still read
(logs written before keep verifying), 240's stored gold as a choice, the board and the
hot seat as a player sees them."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from targui_cli.main import cli

OLD_LOGS = Path(__file__).resolve().parent / "targi_logs"


def run(*args: str, text: str = ""):
    return CliRunner().invoke(cli, list(args), input=text)


@pytest.mark.parametrize("name", ["main-greedy-random-seed4.jsonl", "main-greedy-greedy-seed1.jsonl"])
def test_a_log_written_before_actions_had_readable_texts_still_verifies(name):
    # written by main at 55055c8 (`play targi --bots greedy,random --seed 4 --log`), with its ruleset file
    result = run("replay", str(OLD_LOGS / name), "--verify", "--ruleset", str(OLD_LOGS / "targi-55055c8.yaml"))
    assert result.exit_code == 0, result.output
    assert result.output.startswith("verified: all ")
