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


def _validate(tmp_path: Path, name: str, text: str):
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return run("validate", str(path))


def test_a_choice_inside_loops_over_the_board_is_warned_of_at_validate_time(tmp_path: Path):
    from targui_dsl.effects.runtime import MAX_CHOICES

    checked = _validate(tmp_path, "questions", QUESTIONS)
    assert checked.exit_code == 0, checked.output  # a warning: the ruleset is valid
    assert "questions.yaml:9:11: warning[E0523]" in checked.output
    assert "can ask up to 2,401 choices each time it runs" in checked.output
    assert f"a run that asks more than {MAX_CHOICES} is stopped" in checked.output
    # and it runs every turn: at most 100 a run (then it is stopped), 320 turns a game
    assert "questions.yaml:7:7: warning[E0428]" in checked.output
    assert "up to 32,000 choices a game" in checked.output


PER_TERRITORY = """\
extends: original-dutch
id: per-territory
title: A choice per territory every turn
hooks:
  turn_start:
    - |
      for t in player.territories {
        player chooses n in 0..1 {
          t.camels += n
        }
      }
  round_start:
    - |
      for t in territories {
        if t.camels > 3 {
          t.owner chooses n in 0..1 { t.camels -= n }
        } else {
          t.owner chooses n in 0..1 { t.camels += n }
        }
      }
"""


def test_a_hook_that_asks_a_choice_per_territory_every_turn_is_warned_of(tmp_path: Path):
    checked = _validate(tmp_path, "per-territory", PER_TERRITORY)
    assert checked.exit_code == 0, checked.output
    # turn_start: 49 a run (no E0523), 16 rounds x 4 players x 5 tribal cards = 320 runs
    assert "per-territory.yaml:7:7: warning[E0428]" in checked.output
    assert "320 times in a game of 4 players, and can ask up to 49 choices each time" in checked.output
    assert "E0523" not in checked.output
    # round_start: one of its two branches a territory, 49 a run, 16 runs: 784, no warning
    assert checked.output.count("warning[") == 1, checked.output


def test_a_choice_per_player_every_turn_is_no_warning(tmp_path: Path):
    checked = _validate(tmp_path, "per-player", NEGATIVE.replace("round_start", "turn_start"))
    assert checked.exit_code == 0 and "warning" not in checked.output, checked.output
    checked = run("validate", "caravan-choice")
    assert checked.exit_code == 0 and "warning" not in checked.output, checked.output
