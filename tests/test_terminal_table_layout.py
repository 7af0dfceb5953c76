"""The terminal's player table keeps its columns in line, and `board` at the prompt shows the menu again."""

from __future__ import annotations

from click.testing import CliRunner

from targui_cli.play import play
from targui_dsl import load_ruleset
from targui_dsl.agents import make_agent
from targui_dsl.games.targui.game import Game
from targui_dsl.games.targui.terminal import render_players


def state_in_round_one(variant="original-dutch", players=4, seed=5):
    game = Game(load_ruleset(variant), players=players, seed=seed)
    state = game.new_initial_state()
    bot = make_agent("greedy", 1)
    while state.round < 1:
        seat = state.current_player()
        state.apply_action(bot.choose(state.observation(seat), state.legal_actions()))
    return state


def test_rows_that_say_lost_out_keep_the_columns_in_line():
    state = state_in_round_one()
    game = state.game
    edit = state.edit()
    # seat 3 loses everything to seat 1, its settlement included: `NN lost (out)`
    for cell in list(state.cells_of(2)):
        edit.put(game.position_of_cell[cell], owner=0, camels=1)
    # seat 4 loses only its settlement: `NN lost`
    edit.put(game.position_of_cell[state.settlement(3)], owner=0, camels=1)
    assert not state.in_game(2) and not state.holds_own_settlement(3)
    lines = render_players(state, viewer=0)
    assert "lost (out)" in lines[3] and "lost" in lines[4]
    header = lines[0]
    # every row ends where the header ends (the last column is right-aligned under "turns left")
    assert {len(line) for line in lines} == {len(header)}
    # and the settlement column starts at the same place in every row
    start = header.index("settlement")
    for line in lines[1:]:
        assert line[start - 2:start] == "  " and line[start] != " "


def test_board_at_the_prompt_shows_the_menu_again():
    result = CliRunner().invoke(play, ["updated-treasury", "--players", "2", "--human", "1", "--seed", "3",
                                       "--no-board"], input="sector north_west\nboard\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.output
    after_board = out[out.rindex("+--------+"):]  # the end of the board drawn on request
    assert "1) settle 20" in after_board and after_board.rstrip().endswith("(quit), unfinished.")
