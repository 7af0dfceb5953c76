"""Bot parameters from strangers (issue 21, item 10): a bot's numbers are finite and within
the ranges `targui bots` and docs/bots.md give, wherever the spelling comes from (--bots, a
study, an adapter, the header of a log `play --resume` continues)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from cli_run import no_crash, run, targui

from targui_dsl.agents import BOTS, BotSpecError, make_agent, parse_bot
from targui_dsl.gamelog.header import seal_header

ROOT = Path(__file__).parents[1]


@pytest.mark.parametrize("spelling, words", [
    ("ismcts:seconds=nan", "`seconds` must be a finite number, not `nan`"),
    ("ismcts:seconds=inf", "`seconds` must be a finite number, not `inf`"),
    ("ismcts:seconds=1e400", "`seconds` must be a finite number"),
    ("ismcts:exploration=-inf", "`exploration` must be a finite number"),
    ("ismcts:iterations=100000000000000000000000", "`iterations` must be at most 100000"),
    ("ismcts:iterations=1000000000", "`iterations` must be at most 100000"),
    ("ismcts:seconds=3600", "`seconds` must be at most 60"),
    ("ismcts:depth=" + "9" * 5000, "`depth` must be a whole number"),
])
def test_bot_parameters_must_be_finite_and_within_their_range(spelling, words):
    with pytest.raises(BotSpecError, match=re.escape(words)):
        parse_bot(spelling)
    result = run("play", "original-dutch", "--bots", spelling)
    assert result.exit_code == 2 and words in result.output
    assert len(result.output.splitlines()[-1]) < 200  # a 5,000-digit value is not echoed whole


def test_the_largest_documented_values_are_accepted():
    for kind in BOTS.values():
        for param in kind.params:
            if param.maximum is not None:
                spec = parse_bot(f"{kind.name}:{param.name}={param.maximum:g}")
                assert spec.params[param.name] == param.maximum


def test_every_bound_is_documented_in_targui_bots_and_docs_bots_md():
    listing = run("bots").output
    docs = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    for kind in BOTS.values():
        for param in kind.params:
            if param.kind in (int, float):
                assert param.minimum is not None and param.maximum is not None, param.name
                bounds = f"{param.minimum:g}..{param.maximum:g}"
                assert f"{kind.name}:{param.name}=... (" in listing and bounds in listing
                assert re.search(rf"\| `{param.name}` \| [^|]+ \| {re.escape(bounds)} \|", docs), param.name


def test_a_resealed_log_header_with_an_endless_bot_is_refused_by_resume(tmp_path):
    log = tmp_path / "game.jsonl"
    assert run("play", "original-dutch", "-p", "2", "--bots", "random", "--log", str(log)).exit_code == 0
    lines = log.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    for seat in ("ismcts:seconds=inf", "ismcts:iterations=1000000000"):
        forged = seal_header({**header, "seats": [seat, "random"]})
        log.write_text("\n".join([json.dumps(forged), *lines[1:60]]) + "\n", encoding="utf-8")
        result = targui("play", "--resume", str(log), timeout=120)
        assert result.returncode == 1, result.stderr
        assert "the header's seat" in result.stderr and ("finite" in result.stderr or "at most" in result.stderr)
        no_crash(result.stderr)


def test_make_agent_refuses_what_parse_bot_refuses():
    with pytest.raises(BotSpecError):
        make_agent("ismcts:seconds=inf")
