"""Targi at the table: action texts a player can read, the old spellings still read
(logs written before keep verifying), 240's stored gold as a choice, the board and the
hot seat as a player sees them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from targi_fixtures import centre, display, do, give, new, texts, tribe, turn

from targui_cli.main import cli
from targui_dsl.games.targi.greedy import GreedyAgent
from targui_dsl.games.targi.state import TargiState
from targui_dsl.games.targi.svg import board_svg
from targui_dsl.games.targi.terminal import render_board
from targui_dsl.games.targi.texts import old_text

OLD_LOGS = Path(__file__).resolve().parent / "targi_logs"


def run(*args: str, text: str = ""):
    return CliRunner().invoke(cli, list(args), input=text)


@pytest.mark.parametrize("name", ["greedy-random-seed4.jsonl", "greedy-greedy-seed1.jsonl"])
def test_a_targi_log_written_by_an_earlier_version_still_verifies(name):
    # written at 488352c (`play targi --bots greedy,random --seed 4 --log FILE`), with its ruleset file;
    # Targi logs from before the border cards became snippets (55055c8 and earlier) cannot replay
    result = run("replay", str(OLD_LOGS / name), "--verify", "--ruleset", str(OLD_LOGS / "targi-488352c.yaml"))
    assert result.exit_code == 0, result.output
    assert result.output.startswith("verified: all ")


# --- 1. prompts a player can read -----------------------------------------------------------------

def test_actions_read_as_the_border_card_the_centre_card_and_its_cost():
    state = new()
    centre(state, 0, 113, deck="goods")  # a good of choice
    centre(state, 1, 213)
    centre(state, 4, 115, deck="goods")
    turn(state, 0, border=(5, 2), spaces=(0, 1, 4))
    assert texts(state) == [
        "Dates (2)", "Merchant (5)",
        "centre 1: goods card 113 (1 good of choice)",
        "centre 2: tribe card 213 (targia, 2 pts, cost 1 date 1 salt 2 pepper)",
        "centre 5: goods card 115 (1 gold)",
        "end my turn"]
    give(state, 0, goods=(3, 1, 2), gold=0)
    do(state, "centre 2: tribe card 213 (targia, 2 pts, cost 1 date 1 salt 2 pepper)")
    assert texts(state) == ["keep in hand", "discard", "pay 1 date 1 salt 2 pepper"]


def test_a_slash_cost_reads_as_either_option():
    state = new()
    centre(state, 1, 226)
    turn(state, 0, spaces=(1,))
    text = texts(state)[0]
    assert text.startswith("centre 2: tribe card 226 (camp, ") and " or 1 gold)" in text


def test_every_legal_action_is_read_back_from_its_text_and_from_the_older_spelling():
    state = new(seed=5)
    seen = set()
    while not state.is_terminal() and len(seen) < 200:
        if not state.is_chance_node():
            player = state.current_player()
            for action in state.legal_actions():
                assert state.actions_from_text(state.action_to_string(player, action)) == [action]
                assert state.actions_from_text(old_text(state.rs, state.record, player, action)) == [action]
                seen.add(action)
        state.apply_action(state.legal_actions()[0] if state.is_chance_node() else state.legal_actions()[-1])
    assert len(seen) > 20


class Told:
    """Where a state's decision events go (a sink, as a log is one)."""

    wants = frozenset({"decision"})

    def __init__(self) -> None:
        self.actions: list[str] = []

    def emit(self, event: dict) -> None:
        if event["type"] == "decision":
            self.actions.append(event["action"])


def test_a_decision_typed_in_the_short_spelling_is_told_in_the_readable_text():
    state = new()
    turn(state, 0, border=(2,))
    told = Told()
    state.attach_sink(told)
    do(state, "border 2")
    assert told.actions == ["Dates (2)"]


def test_a_new_log_holds_the_readable_texts_and_verifies(tmp_path):
    log = tmp_path / "game.jsonl"
    assert run("play", "targi", "--bots", "greedy,random", "--seed", "4", "--log", str(log)).exit_code == 0
    actions = [json.loads(line)["action"] for line in log.read_text(encoding="utf-8").splitlines()
               if json.loads(line)["type"] == "decision"]
    assert "Tribal Expansion (14)" in actions and not [a for a in actions if a.startswith(("border ", "space "))]
    result = run("replay", str(log), "--verify")
    assert result.exit_code == 0, result.output


# --- 2. card 240's stored gold as a choice ----------------------------------------------------------

def stored_gold_and_a_card_to_buy(card_id: int, gold: int) -> TargiState:
    """Seat 0 has 240 displayed with its gold stored, ``gold`` in its supply, and draws ``card_id``
    at the Tribal Expansion, the goods of its cost in hand."""
    state = new()
    display(state, 0, 240)
    state.record.sides[0].stored_gold = 1
    state.record.piles[1] = [tribe(card_id)]
    give(state, 0, goods=(3, 3, 3), gold=gold)
    turn(state, 0, border=(14,))
    do(state, "Tribal Expansion (14)")
    return state


def test_card_240_the_player_chooses_stored_or_supply_gold_when_both_could_pay():
    state = stored_gold_and_a_card_to_buy(20, gold=1)  # 20: 1 pepper + 1 gold
    do(state, "pay 1 pepper 1 gold")
    assert texts(state) == ["pay 1 gold stored on a card", "pay 1 gold from my supply"]
    do(state, "pay 1 gold from my supply")
    side = state.record.sides[0]
    assert (side.gold, side.stored_gold) == (0, 1)  # the stored gold kept for a later card
    assert texts(state)[0].startswith("row 1")
    state = stored_gold_and_a_card_to_buy(20, gold=1)
    do(state, "pay 1 pepper 1 gold", "pay 1 gold stored on a card")
    side = state.record.sides[0]
    assert (side.gold, side.stored_gold) == (1, 0)


def test_card_240_no_question_when_only_one_gold_can_pay():
    state = stored_gold_and_a_card_to_buy(20, gold=0)
    do(state, "pay 1 pepper 1 gold")
    assert texts(state)[0].startswith("row 1") and state.record.sides[0].stored_gold == 0
    state = stored_gold_and_a_card_to_buy(20, gold=2)
    state.record.sides[0].stored_gold = 0
    do(state, "pay 1 pepper 1 gold")
    assert texts(state)[0].startswith("row 1") and state.record.sides[0].gold == 1


def test_card_240_each_gold_of_a_cost_is_a_choice_until_one_source_is_spent():
    state = stored_gold_and_a_card_to_buy(20, gold=2)
    do(state, "pay 1 pepper 1 gold")
    state.record.stack[-1]["left"] = 2  # a cost of 2 gold (no printed card has one; a house rule may)
    do(state, "pay 1 gold from my supply")
    assert state.record.stack[-1]["k"] == "gold_choice"  # asked again for the second gold
    do(state, "pay 1 gold stored on a card")
    side = state.record.sides[0]
    assert (side.gold, side.stored_gold) == (1, 0) and texts(state)[0].startswith("row 1")


@pytest.mark.parametrize(("gold", "source"), [(1, "pay 1 gold stored on a card"), (4, "pay 1 gold from my supply")])
def test_greedy_pays_with_supply_gold_the_round_end_limit_would_take_else_stored(gold, source):
    state = stored_gold_and_a_card_to_buy(20, gold=gold)
    do(state, "pay 1 pepper 1 gold")
    choice = GreedyAgent(1).choose(state.observation(0), state.legal_actions())
    assert state.action_to_string(0, choice) == source


# --- 3. the board and the table ---------------------------------------------------------------------

def screens(output: str) -> list[tuple[int, str]]:
    """The hot seat's screens: (the seat at the keyboard, what it was shown)."""
    parts = output.split("Hand the keyboard to player ")
    return [(int(part[0]) - 1, part) for part in parts[1:]]


def test_hot_seat_each_player_sees_their_own_hand_card_and_never_the_others():
    result = run("play", "targi", "--human", "1", "--human", "2", "--seed", "3", text="1\n" * 4000)
    assert result.exit_code == 0, result.output
    assert "Game over after round" in result.output
    shown = screens(result.output)
    assert len(shown) > 50 and {seat for seat, _ in shown} == {0, 1}
    kept = own = 0
    for seat, screen in shown:
        board = screen.split("\n")
        assert f"Player {seat + 1} (you):" in screen  # the board drawn for the player at the keyboard
        for i, line in enumerate(board):
            if line.startswith(f"Player {2 - seat}:") and "score now" in line:  # the other player's supply
                assert board[i + 1].startswith(("  hand: no card;", "  hand: 1 card;")), board[i + 1]
                kept += board[i + 1].startswith("  hand: 1 card;")
            if line.startswith(f"Player {seat + 1} (you):"):
                own += board[i + 1].startswith("  hand: tribe card ")
    assert kept and own  # hand cards were kept, shown only to their owners


def test_a_game_against_greedy_at_the_terminal_names_every_choice():
    result = run("play", "targi", "--human", "1", "--bots", "greedy", "--seed", "3", text="1\n" * 3000)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Player 1, place a Targi on a border card (3 to place):\n   1) Dates (2)\n" in out
    assert "Player 1, act with a Targi (its border card) or a tribe marker (its centre card)" in out
    assert "16 Raid 4        1 Noble         2 Dates         3 Salt          4 Raid 1" in out  # the square
    assert "Centre cards:\n  centre 1: goods card " in out and "Hand the keyboard" not in out
    assert not re.search(r"\) (border|space|option) \d", out)  # no bare numbers on the menus
    assert re.search(r"round \d+: player 2: \w.* \(\d+\)\n", out)  # the bot's placements by name
    assert "Player 1, give 1 good back: you keep at most 10 at the end of a round (you hold " in out
    assert "Player 1, give 1 good to the raid" in out and "Player 1, Raid 4 (16): what you give:" in out


def test_the_board_shows_face_down_cards_markers_stored_gold_and_the_last_round():
    state = new()
    display(state, 0, 240, 20, row=1)
    state.record.sides[0].stored_gold = 1
    state.record.centre_up[4] = False
    state.record.markers[1] = 1
    state.record.last_round = True
    state.record.robber = 0
    state.record.figures[2] = 0
    board = render_board(state, viewer=0)
    hidden = state.record.centre[4]
    assert "c5 face down" in board and "centre 5" not in board
    assert str(state.rs.goods_cards[hidden].id if state.record.centre_kind[4] == 0
               else state.rs.tribe_cards[hidden].id) not in board.split("c5 face down")[1].split("\n")[0]
    assert "marker P2" in board and "Targi P1" in board and "robber" in board
    assert "1 gold (+1 stored on a card)" in board and "  row 2: 240 well, 20 oasis, -, -" in board
    assert "last round" in board.split("\n")[0]


# --- 4. the picture -----------------------------------------------------------------------------------

def test_the_svg_picture_names_the_border_cards_and_shows_what_the_board_shows(tmp_path):
    import xml.etree.ElementTree as ET

    state = new()
    display(state, 0, 240, 20, row=1)
    state.record.sides[0].stored_gold = 1
    state.record.sides[1].hand = tribe(213)
    state.record.centre_up[4] = False
    state.record.markers[1] = 1
    state.record.robber, state.record.figures[2] = 0, 0
    picture = board_svg(state)
    root = ET.fromstring(picture)
    words = [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")]
    for name in ("Noble", "Dates", "Merchant", "Fata Morgana", "Silversmith", "Tribal", "Expansion", "Raid 4"):
        assert name in words, name
    assert "robber" in words and "P1" in words and "face down" in words
    assert any("(+1 stored on a card)" in w and "no card in hand" in w for w in words)
    assert any(w.startswith("Player 2:") and "1 card in hand" in w for w in words)
    assert not [w for w in words if "213" in w]  # a hand card is never drawn
    assert "row 2: 240 well, 20 oasis, -, -" in words
