"""The hand-written anchor (benchmarks/anchor_targui.py) plays Targui as targui does, so
bench_anchor.py's ratios compare like with like: the same policy gives games of the same length."""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from targui_dsl import load_ruleset
from targui_dsl.games.targui.game import Game

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from anchor_targui import BOX, VARIANTS, Anchor  # noqa: E402

GAMES = 40


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_anchor_and_targui_play_games_of_the_same_length(variant, players):
    rng = random.Random(5)
    anchor = []
    for _ in range(GAMES):
        game = Anchor(VARIANTS[variant], players, rng)
        game.play()
        assert game.over and game.winners
        assert game.box + sum(game.camels) == BOX  # every camel on the board or in the box
        anchor.append(game.decisions)
    ruleset = load_ruleset(variant)
    targui = []
    for seed in range(GAMES):
        state = Game(ruleset, players=players, seed=seed).new_initial_state()
        steps = 0
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        targui.append(steps)
    # decisions per game vary by about 11%; the means of 40 games agree within 10%
    assert statistics.mean(anchor) == pytest.approx(statistics.mean(targui), rel=0.10)


def test_callgrind_without_valgrind_is_a_usage_error(tmp_path):
    script = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_anchor.py"
    empty = tmp_path / "bin"
    empty.mkdir()
    result = subprocess.run([sys.executable, str(script), "--callgrind", "--games", "1"], capture_output=True,
                            text=True, env={**os.environ, "PATH": str(empty)}, timeout=60)
    assert result.returncode == 2
    assert "--callgrind" in result.stderr and "valgrind" in result.stderr and "Traceback" not in result.stderr
