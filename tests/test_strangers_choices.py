"""Choices from strangers' house rules: whatever numbers a choice offers, people type them,
bots take them, and their logs read back."""

from __future__ import annotations

from pathlib import Path

from cli_run import no_crash, run, targui

from targui_dsl import Game, load_ruleset
from targui_dsl.games.targui.phases import Phase

NEGATIVE = """\
extends: original-dutch
id: negative-choice
title: A choice among negative numbers
hooks:
  round_start:
    - |
      for p in players {
        p chooses n in -3..-1 {
          p.cash += 0 - n
        }
      }
"""


def _ruleset(tmp_path: Path) -> Path:
    path = tmp_path / "negative.yaml"
    path.write_text(NEGATIVE, encoding="utf-8")
    return path


def test_a_choice_among_negative_numbers_is_typed_as_shown(tmp_path: Path):
    state = Game(load_ruleset(str(_ruleset(tmp_path))), players=4, seed=1).new_initial_state()
    while state.phase != Phase.EFFECT_CHOICE:
        state.apply_action(state.legal_actions()[0])
    shown = [state.action_to_string(state.current_player(), a) for a in state.legal_actions()]
    assert shown == ["choose -3", "choose -2", "choose -1"]
    cash = state.cash(state.current_player())
    seat = state.current_player()
    state.apply_action("choose -2")  # as a person types it at the prompt
    assert state.cash(seat) == cash + 2


def test_a_bots_log_of_a_choice_among_negative_numbers_verifies(tmp_path: Path):
    log = tmp_path / "game.jsonl"
    played = run("play", str(_ruleset(tmp_path)), "--seed", "1", "--log", str(log), "--no-board")
    assert played.exit_code == 0, played.output
    assert '"action":"choose -' in log.read_text(encoding="utf-8")
    verified = run("replay", str(log), "--verify")
    assert verified.exit_code == 0 and "verified" in verified.output, verified.output


QUESTIONS = """\
extends: original-dutch
id: endless-questions
title: A choice inside loops over the board
hooks:
  turn_start:
    - |
      for t in territories {
        for u in territories {
          player chooses n in 1..2 {
            player.cash += 0
          }
        }
      }
"""


def test_an_effect_that_asks_thousands_of_choices_a_turn_is_stopped_with_a_clear_error(tmp_path: Path):
    from targui_dsl.effects.runtime import MAX_CHOICES

    path = tmp_path / "questions.yaml"
    path.write_text(QUESTIONS, encoding="utf-8")
    log = tmp_path / "game.jsonl"
    played = targui("play", str(path), "--seed", "1", "--log", str(log), "--no-board", timeout=120)
    assert played.returncode == 1
    assert f"asked more than {MAX_CHOICES} choices" in played.stderr
    no_crash(played.stdout + played.stderr)
    assert log.stat().st_size < 1_000_000  # the log stays small: the run stopped at the cap
