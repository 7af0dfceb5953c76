"""`targui play --human`: the terminal board, the menu, reading input, leaving; through CliRunner."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from targui_cli.common import want_colour
from targui_cli.play import play
from targui_dsl import load_ruleset
from targui_dsl.agents import make_agent
from targui_dsl.engine.loop import play as play_game
from targui_dsl.gamelog.events import EventLog
from targui_dsl.gamelog.reader import read_game_log
from targui_dsl.gamelog.replay import replay
from targui_dsl.games.targui.console import (
    Console,
    MenuItem,
    TableNarrator,
    group_actions,
    interpret,
    interpret_count,
    render_menu,
)
from targui_dsl.games.targui.game import Game
from targui_dsl.games.targui.labels import kind_labels
from targui_dsl.games.targui.terminal import Style, TableRecord, render_board, sector_labels

PROMPT = "Kel Ahaggar [1]> "
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def run(args, text=""):
    return CliRunner().invoke(play, args, input=text)


def log_events(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines, "the log is empty"
    return [json.loads(line) for line in lines]  # every line whole JSON, or this raises


def decisions(events, player=0):
    return [e["action"] for e in events if e["type"] == "decision" and e["player"] == player and not e["forced"]]


def state_at_first_move(variant="updated-treasury", players=2, seed=3):
    """A fresh game with seat 1 at its first movement phase (bots decide the rest)."""
    game = Game(load_ruleset(variant), players=players, seed=seed)
    state = game.new_initial_state()
    bot = make_agent("greedy", 1)
    while not (state.current_player() == 0 and state.phase_name in ("deposit", "move")):
        seat = state.current_player()
        state.apply_action(bot.choose(state.observation(seat), state.legal_actions()))
    return state


# -- a game at the prompt ---------------------------------------------------------


def test_garbage_is_answered_with_the_reason_and_the_prompt_again_then_eof_keeps_the_log(tmp_path):
    log = tmp_path / "game.jsonl"
    script = "flibble\nsector north_west\nsettle 99\nsettle 10\n1\n42\nmove 20 21\n3\n"
    result = run(["updated-treasury", "--players", "2", "--human", "1", "--seed", "3", "--log", str(log)], script)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Traceback" not in out
    # the board: every position of the 7 x 7 grid, with kinds and the legend
    grid = [line for line in out.splitlines() if line.startswith("|")]
    numbers = {int(n) for line in grid for n in re.findall(r"\|\s?(\d+) ", line)}
    assert numbers == set(range(1, 50))
    assert "| 1 Sal" in out and "kinds (economic/strategic now): Set: Settlement" in out
    # garbage, then the prompt again; an illegal settling place, with the allowed ones
    assert f"{PROMPT}`flibble`: unknown action `flibble`; here: sector (`help` shows every action)" in out
    assert f"{PROMPT}`settle 99`: no position 99 on the board\n{PROMPT}" in out
    assert f"{PROMPT}`settle 10`: cannot settle on 10 (allowed: 20 21 22 41 42 43 44 45)\n{PROMPT}" in out
    assert "there is no choice 42: pick 1.." in out
    # `move 20 21` names the pair: the count is asked next (and given at once here)
    assert "1) count 1..10" in out
    # a typed action, a numbered one, then end of input: a clean exit, the game unfinished
    assert "Kel Ahaggar: sector north_west" in out and "Kel Ahaggar: settle 20" in out
    assert "Kel Ahaggar: move 20 21 3" in out
    assert out.count(PROMPT) == 9  # 8 lines read, then the adding phase's prompt meets the end of input
    assert "Game left in round 1 (end of input), unfinished. The log so far is in" in out
    events = log_events(log)
    assert events[0]["type"] == "header" and events[-1]["type"] != "end"
    assert decisions(events) == ["sector north_west", "settle 20", "deposit 0", "move 20 21 3"]
    state = replay(load_ruleset("updated-treasury"), read_game_log(log.read_text().splitlines()))  # consistent
    assert not state.is_terminal() and state.camels(state.game.cell_of_position[21]) == 3


def test_a_numbered_range_asks_how_many_and_checks_the_count(tmp_path):
    log = tmp_path / "game.jsonl"
    # menu at the first move (seed 3): 1) deposit 1..10  2) move 20 42 1..10  3) move 20 21 1..10 ...
    script = "sector north_west\n1\n3\n11\nlots\n4\n"
    result = run(["updated-treasury", "--players", "2", "--human", "1", "--seed", "3", "--log", str(log)], script)
    assert result.exit_code == 0, result.output
    out = result.output
    assert ("move 20 21 1..10: how many? (1..10, empty to go back) 11 is out of range:"
            " move 20 21 1..10 takes 1..10") in out
    assert "`lots` is not a number" in out
    assert decisions(log_events(log)) == ["sector north_west", "settle 20", "deposit 0", "move 20 21 4"]


def test_help_board_menu_and_quit(tmp_path):
    script = "sector north_west\nhelp\nboard\nmenu\nquit\nsector south_east\n"
    result = run(["updated-treasury", "--players", "2", "--human", "1", "--seed", "3", "--no-board"], script)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "buy 5 on 12           buy 5 camels and place them on 12" in out  # the help text
    rules = [line for line in out.splitlines() if line.startswith("+--------+")]
    assert len(rules) == 8  # one board of 7 rows (--no-board: only when asked for)
    assert "setup; settling; cash 0; treasury 0" in out  # a status line instead
    assert out.count("1) settle 20") == 3  # the menu again: after `board` and after `menu`
    assert "Game left during setup (quit), unfinished." in out
    assert out.count(PROMPT) == 5 and "Kel Ahaggar: sector south_east" not in out  # nothing read after quit


def test_ctrl_c_exits_130_and_keeps_the_log(tmp_path, monkeypatch):
    log = tmp_path / "game.jsonl"
    answers = iter(["sector north_west", "1"])

    def typed(prompt=""):
        try:
            return next(answers)
        except StopIteration:
            raise KeyboardInterrupt from None

    monkeypatch.setattr("builtins.input", typed)
    result = run(["updated-treasury", "--players", "2", "--human", "1", "--seed", "3", "--log", str(log)])
    assert result.exit_code == 130, result.output
    assert "Traceback" not in result.output and "(interrupted), unfinished" in result.output
    assert decisions(log_events(log)) == ["sector north_west", "settle 20"]


def test_the_treasury_of_others_is_hidden_until_the_end(tmp_path):
    log = tmp_path / "game.jsonl"
    script = "sector north_west\n1\n" + "pass\n" * 300  # a passive human: the bot banks silver
    result = run(["updated-treasury", "--players", "2", "--human", "1", "--seed", "1", "--log", str(log)], script)
    assert result.exit_code == 0, result.output
    events = log_events(log)
    end = next(e for e in events if e["type"] == "end")
    banked = [e["treasury"]["kel_ajjer"] for e in events if e["type"] == "round_end"]
    assert max(banked[:-1]) > 0  # the bot had a treasury to hide before the end
    out = result.output
    during, end_text = out.rsplit("updated-treasury: round", 1)  # the last board: the end's

    def rows(text, name):  # (cash, treasury) of one seat in each players' table
        return re.findall(rf"^[> ] \d {name}(?: \(you\))?\s+(\S+)\s+(\S+)", text, re.M)

    # cash in hand is as secret as the treasury where there is one (docs/rules/targui.md section 8)
    assert rows(during, "Kel Ajjer") and set(rows(during, "Kel Ajjer")) == {("?", "?")}
    assert all(c.isdigit() and t.isdigit() for c, t in rows(during, "Kel Ahaggar"))  # the human's own is shown
    final = replay(load_ruleset("updated-treasury"), events)
    assert final.is_terminal() and end["winners"]
    # every treasury is shown at the end
    assert rows(end_text, "Kel Ajjer") == [(str(final.cash(1)), str(final.treasury(1)))]
    # deposits are told without the amount
    deposits = [e for e in events if e["type"] == "decision" and e["action"].startswith("deposit")
                and e["tribe"] == "kel_ajjer"]
    assert deposits and "Kel Ajjer: deposit" not in out
    nothing = [e for e in deposits if e["action"] == "deposit 0"]  # whether one deposited is public
    assert out.count("Kel Ajjer: puts silver into the treasury") == len(deposits) - len(nothing)
    assert out.count("Kel Ajjer: puts nothing into the treasury") == len(nothing)


def test_colour_only_when_asked_or_on_a_terminal(tmp_path, monkeypatch):
    args = ["original-dutch", "--players", "2", "--human", "2", "--seed", "2"]
    assert "\x1b[" in run(args + ["--colour", "always"]).output
    assert "\x1b[" not in run(args + ["--colour", "never"]).output
    assert "\x1b[" not in run(args).output  # auto: CliRunner's output is no terminal


def test_seats_humans_and_bots():
    result = run(["swedish-12", "--players", "3", "--human", "2", "--bots", "random", "--seed", "0"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Seats: 1 Kel Ahaggar (random), 2 Kel Ajjer (human), 3 Kel Ilbakan (random)")
    result = run(["swedish-12", "--players", "3", "--human", "1", "--human", "3"])
    assert "Seats: 1 Kel Ahaggar (human), 2 Kel Ajjer (greedy), 3 Kel Ilbakan (human)" in result.output


@pytest.mark.parametrize("args", [
    ["--human", "0"],
    ["--human", "5"],
    ["--players", "2", "--human", "3"],
    ["--human", "1", "--human", "1"],
    ["--human", "one"],
    ["--players", "2", "--human", "1", "--bots", "greedy,random"],  # two bots, one free seat
    ["--players", "2", "--human", "1", "--human", "2", "--bots", "random"],
    ["--human", "1", "--colour", "purple"],
])
def test_usage_errors_exit_2(args):
    result = run(["original-dutch", *args])
    assert result.exit_code == 2, result.output
    assert "Usage:" in result.output and "Traceback" not in result.output


def test_help_reads_like_a_manual():
    result = run(["--help"])
    assert result.exit_code == 0
    for heading in ("THE BOARD", "ACTIONS", "LEAVING AND EXIT STATUS", "EXAMPLES", "--human SEAT", "--colour"):
        assert heading in result.output
    assert "130  interrupted by Ctrl-C" in result.output and "move 12 13 4" in result.output


# -- the pure parts -------------------------------------------------------------------


def test_the_board_of_a_seat_hides_other_treasuries():
    state = state_at_first_move()
    state.edit().set_treasury(0, 111)
    state.edit().set_treasury(1, 237)
    mine = render_board(state, viewer=0)
    assert "111" in mine and "237" not in mine and "(you)" in mine
    theirs = render_board(state, viewer=1)
    assert "237" in theirs and "111" not in theirs
    everyone = render_board(state)
    assert "111" in everyone and "237" in everyone and "(you)" not in everyone


def test_the_board_follows_the_ruleset_board_and_colours():
    state = state_at_first_move("original-dutch", players=4, seed=5)
    plain = render_board(state, viewer=0)
    assert "treasury" not in plain  # no treasury in this variant
    grid = [line for line in plain.splitlines() if line.startswith("|")]
    assert len(grid) == 2 * state.game.ruleset.board.rows
    assert all(len(line) == 1 + 9 * state.game.ruleset.board.columns for line in grid)
    settlement = state.game.position_of_cell[state.settlement(0)]
    assert re.search(rf"\|\s?{settlement} Set#1", plain)
    coloured = render_board(state, viewer=0, style=Style(True))
    assert "\x1b[32m" in coloured and "\x1b[34m" in coloured  # Kel Ahaggar green, Kel Ress blue
    assert ANSI.sub("", coloured) == plain  # colour changes nothing else


def test_the_stack_and_the_last_card_are_told():
    game = Game(load_ruleset("updated-treasury"), players=2, seed=3)
    record = TableRecord(game)
    log = EventLog(keep=False)
    log.listeners.append(record.observe)
    state = game.new_initial_state(log=log)
    bot = make_agent("greedy", 1)
    while state.round < 2:
        seat = state.current_player()
        state.apply_action(bot.choose(state.observation(seat), state.legal_actions()))
    text = render_board(state, record, viewer=state.current_player())
    left = sum(state.tribal_cards_left(s) for s in range(state.game.players)) + state.fortune_cards_left()
    assert f"stack: {left} card" in text and "turned: " in text
    assert record.last_card is not None and f"last (mis)fortune card: {record.last_card['number']}" in text


def test_menu_groups_counts_and_reads_numbers():
    state = state_at_first_move()
    menu = group_actions(state)
    labels = [item.label for item in menu]
    home = state.game.position_of_cell[state.settlement(0)]
    step = next(int(label.split()[2]) for label in labels if label.startswith(f"move {home} "))
    assert labels[0] == "deposit 1..10" and f"move {home} {step} 1..10" in labels and labels[-1] == "pass"
    n = labels.index(f"move {home} {step} 1..10") + 1
    assert interpret(f"{n} 4", state, menu).action == f"move {home} {step} 4"
    assert interpret(str(n), state, menu).ask is menu[n - 1]
    assert interpret(str(len(menu)), state, menu).action == "pass"
    assert "there is no choice 0" in interpret("0", state, menu).message
    assert interpret(f"{n} 11", state, menu).message.startswith("11 is out of range")
    assert interpret(f"Move {home}  {step} 2", state, menu).action == f"Move {home}  {step} 2"
    assert interpret("buy 1 on 20", state, menu).message.startswith(
        "`buy 1 on 20`: `buy 1 on 20` is not an action here")
    assert interpret("", state, menu).command == "menu" and interpret("?", state, menu).command == "help"
    assert interpret_count("all", menu[n - 1]).action == f"move {home} {step} 10"
    assert interpret_count("", menu[n - 1]).command == "menu"
    text = render_menu(menu, width=80)
    assert all(len(line) <= 80 for line in text.splitlines()) and "  1) deposit 1..10" in text
    assert MenuItem("again").label == "again" and not MenuItem("again").ranged


def test_labels_are_short_and_unique():
    assert kind_labels(["guelta", "reg", "salt_mine", "salt_lake"]) == ["Gue", "Reg", "Sal", "Sat"]
    assert sector_labels(["north_west", "north_east", "east", "east_side"]) == ["NW", "NE", "EA", "ES"]
    assert len(set(sector_labels(["nw", "nw2"]))) == 2


def test_want_colour_respects_no_color_and_the_mode():
    class Tty:
        def isatty(self):
            return True

    assert want_colour("auto", Tty(), {}) is True
    assert want_colour("auto", Tty(), {"NO_COLOR": "1"}) is False
    assert want_colour("auto", Tty(), {"NO_COLOR": ""}) is True  # empty means unset
    assert want_colour("auto", Tty(), {"TERM": "dumb"}) is False
    assert want_colour("auto", object(), {}) is False
    assert want_colour("always", object(), {"NO_COLOR": "1"}) is True
    assert want_colour("never", Tty(), {}) is False


@pytest.mark.parametrize("variant,players", [("updated-treasury", 2), ("original-dutch", 4), ("swedish-12", 3)])
def test_a_whole_game_typed_at_the_console(variant, players):
    """A "human" types what the greedy bot would, alternately as text and as menu numbers:
    every phase (setup, deposits, attacks, conquests, buying) goes through the prompt."""
    game = Game(load_ruleset(variant), players=players, seed=7)
    humans = frozenset({0})
    bot = make_agent("greedy", 1)
    others = [make_agent("greedy", s + 1) for s in range(players)]
    shown, typed, holder = [], [], {}

    def read(prompt):
        # the bot's step, typed as its text, or every other time as its menu number
        state = holder["state"]
        text = state.action_to_string(bot.choose(state.observation(0), state.legal_actions()))
        if len(typed) % 2:
            menu = group_actions(state)
            number = next((i for i, item in enumerate(menu, 1) if not item.ranged and item.action == text), None)
            if number is not None:
                text = str(number)
        typed.append(text)
        if len(typed) > 5000:
            raise AssertionError("the console keeps asking: an answer is not taken")
        return text

    record = TableRecord(game)
    console = Console(game, humans, record=record, echo=shown.append, read=read, width=80)
    narrate = TableNarrator(game, humans)
    log = EventLog()
    log.listeners += [record.observe, console.observe, lambda e: shown.append(narrate(e) or "")]
    state = holder["state"] = game.new_initial_state(log=log)

    class Typist:
        def choose(self, observation, legal_actions):
            return console.decide(state)

    play_game(state, [Typist() if seat in humans else others[seat] for seat in range(players)])
    console.finish(state)
    made = [e["action"] for e in log.events if e["type"] == "decision" and e["player"] == 0 and not e["forced"]]
    assert len(typed) > 10 and len(made) <= len(typed)  # every decision came through the prompt
    verbs = {a.split()[0] for a in made}
    assert {"settle", "move", "buy"} <= verbs
    assert shown[-2].startswith(f"{variant}: round") and shown[-1].startswith("Game over after round")
    assert sum(line.count("Game over") for line in shown) == 1


def test_a_house_rule_board_of_another_shape(tmp_path):
    """5 x 9 cells, two sectors: the grid is the ruleset's, not a hard-coded 7 x 7."""
    import yaml

    rows, columns = 5, 9
    numbering = [[r * columns + c + 1 for c in range(columns)] for r in range(rows)]
    numbering[0][0], numbering[2][4] = numbering[2][4], 1  # the salt mine's position 1 in the middle
    rule = {
        "extends": "original-dutch", "id": "wide-desert", "title": "A wide desert",
        "territories": {"erg": {"count": 8}},  # 44 cards for the 44 positions besides the salt mine
        "board": {"rows": rows, "columns": columns, "numbering": numbering, "sectors": {
            "north_west": None, "north_east": None, "south_west": None, "south_east": None,
            "west": [numbering[r][c] for r in range(rows) for c in (0, 1)],
            "east": [numbering[r][c] for r in range(rows) for c in (7, 8)]}},
        "seating": [{"players": [2], "settle_in": "sectors"}],
    }
    path = tmp_path / "wide.yaml"
    path.write_text(yaml.safe_dump(rule, sort_keys=False), encoding="utf-8")
    result = run([str(path), "--players", "2", "--human", "1", "--seed", "2"], "sector west\n1\n")
    assert result.exit_code == 0, result.output
    last = result.output[result.output.rindex("wide-desert: round 1"):]
    grid = [line for line in last.splitlines() if line.startswith("|")]
    assert len(grid) == 2 * rows and all(line.count("|") == columns + 1 for line in grid)
    numbers = {int(n) for line in grid for n in re.findall(r"\|\s?(\d+) ", line)}
    assert numbers == set(range(1, rows * columns + 1))
    assert "(WE) west, (EA) east" in result.output  # the sectors of the rule, in the legend
