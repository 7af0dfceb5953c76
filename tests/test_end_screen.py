"""The end screen explains the result: scores, the tie-break values and the rule that
decided, who could not win and why, and `Game over` once."""

from __future__ import annotations

from click.testing import CliRunner

from targui_cli.play import play
from targui_dsl import load_ruleset
from targui_dsl.agents import make_agent
from targui_dsl.games.targui.actions import PASS
from targui_dsl.games.targui.game import Game
from targui_dsl.games.targui.terminal import render_end


def passive_finish(state) -> None:
    """Play on to the end without anyone moving, attacking or buying."""
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(PASS if PASS in legal else legal[0])


def last_round(variant: str, players: int = 2, seed: int = 3):
    game = Game(load_ruleset(variant), players=players, seed=seed)
    state = game.new_initial_state()
    bot = make_agent("greedy", 1)
    while state.round < game.ruleset.rounds:
        seat = state.current_player()
        state.apply_action(bot.choose(state.observation(seat), state.legal_actions()))
    return state


def strip_to_settlements(state, camels: list[int]) -> None:
    """Each seat keeps only its own settlement (equal scores), with the given camels on it."""
    game = state.game
    edit = state.edit()
    for cell in range(game.cells):
        if state.owner(cell) >= 0:
            edit.put(game.position_of_cell[cell], unowned=True, camels=0)
    for seat, n in enumerate(camels):
        edit.put(game.position_of_cell[state.settlement(seat)], owner=seat, camels=n)


def test_equal_scores_name_the_tie_break_that_decided():
    state = last_round("original-dutch")
    strip_to_settlements(state, [30, 12])
    passive_finish(state)
    scores, ties = state.scores(), state.tie_break_values()
    assert scores[0] == scores[1] and ties[0][0] > ties[1][0]  # equal scores, more camels + cash for seat 1
    text = render_end(state)
    assert text.count("Game over") == 1
    assert "tie-break 1: player.camels + player.cash" in text.splitlines()[1]  # the column, as the ruleset writes it
    assert f"Kel Ahaggar and Kel Ajjer scored {scores[0]} each: the ruleset's tie-breaks decide, in order." in text
    assert (f"Tie-break 1, player.camels + player.cash: Kel Ahaggar {ties[0][0]}, Kel Ajjer {ties[1][0]}; "
            f"decided for Kel Ahaggar.") in text
    assert "Kel Ahaggar wins." in text.splitlines()[0]


def test_a_draw_after_every_tie_break_is_named():
    state = last_round("updated-treasury", seed=5)
    strip_to_settlements(state, [9, 9])
    for seat in range(2):
        state.edit().set_cash(seat, 0)
        state.edit().set_treasury(seat, 20)
    passive_finish(state)
    assert state.is_draw(), (state.scores(), state.tie_break_values())
    text = render_end(state)
    assert "a draw between Kel Ahaggar and Kel Ajjer" in text and "Still equal after every tie-break: a draw." in text


def test_who_lost_their_settlement_could_not_win_and_the_screen_says_why():
    state = last_round("original-dutch", seed=4)
    game = state.game
    strip_to_settlements(state, [5, 5])
    # seat 2's settlement falls to seat 1: a higher score, but no right to win
    edit = state.edit()
    edit.put(game.position_of_cell[state.settlement(1)], owner=0, camels=5)
    edit.put(1, owner=1, camels=40)  # the salt mine, worth more than a settlement
    passive_finish(state)
    assert state.winners() == [0]
    text = render_end(state)
    where = game.position_of_cell[state.settlement(1)]
    assert "Could not win:" in text
    assert f"  Kel Ajjer lost their own settlement ({where}), and who does not hold it cannot win" in text


def test_play_says_game_over_once():
    result = CliRunner().invoke(play, ["original-dutch", "--players", "2", "--seed", "3", "--bots", "greedy,random"])
    assert result.exit_code == 0, result.output
    assert result.output.count("Game over") == 1
    assert "score  tie-break 1: player.camels + player.cash" in result.output



def test_the_last_player_owning_territory_wins_whatever_the_scores():
    # a human who only passes is overrun by the bot
    result = CliRunner().invoke(play, ["original-dutch", "--players", "2", "--human", "1", "--bots", "random",
                                       "--seed", "3", "--no-board"], input="sector north_west\n1\n" + "pass\n" * 400)
    assert result.exit_code == 0, result.output
    end = result.output[result.output.index("Game over"):]
    assert end.startswith("Game over after round") and "(only one player owns territory): Kel Ajjer wins." in end
    assert "Only Kel Ajjer still owns territory: Kel Ajjer wins, whatever the scores." in end
    assert "Could not win:\n  Kel Ahaggar is out of the game (no territory left)" in end
