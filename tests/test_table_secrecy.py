"""What each person at the table sees (docs/rules/targui.md section 8): two people at one keyboard
(hot seat) through a real pseudo-terminal; the screen is cleared between them, the
second never sees the first one's deposit or treasury, and the end shows everything."""

from __future__ import annotations

import json
import re

import pytest

pytest.importorskip("pty")  # POSIX only

from pty_session import Session, plain  # noqa: E402

from targui_cli.common import CLEAR_SCREEN  # noqa: E402

A, B = "Kel Ahaggar", "Kel Ajjer"
PROMPTS = [f"{A} [1]> ", f"{B} [2]> ", "then press Enter "]


def row(screen: str, name: str) -> tuple[str, str] | None:
    """(cash, treasury) in the last players' table of a screen."""
    rows = re.findall(rf"^[> ] \d {name}(?: \(you\))?\s+(\S+)\s+(\S+)\s+\d+\s+\d+", screen, re.M)
    return rows[-1] if rows else None


@pytest.fixture
def session():
    sessions = []

    def start(*args):
        sessions.append(Session(list(args)))
        return sessions[-1]

    yield start
    for s in sessions:
        s.close()


def test_hot_seat_hides_one_human_from_the_other_and_the_end_shows_all(session, tmp_path):
    log = tmp_path / "game.jsonl"
    game = session("play", "updated-treasury", "--players", "2", "--human", "1", "--human", "2", "--seed", "4",
                   "--log", str(log), "--colour", "never")
    deposited = None
    for _ in range(400):
        prompt, screen = game.expect_any(PROMPTS + ["Game over"], timeout=30)
        if prompt == "Game over":
            break
        if prompt == "then press Enter ":
            game.send(b"\n")
            continue
        menu = re.search(r"1\) deposit 1\.\.(\d+)", screen)
        if prompt.startswith(A) and deposited is None and menu and int(menu.group(1)) >= 3:
            deposited = min(7, int(menu.group(1)))
            game.send(f"deposit {deposited}\n".encode())
        elif re.search(r"\d\) pass", screen):
            game.send(b"pass\n")
        else:
            game.send(b"1\n")  # setup: the first sector, the first place to settle; a count
    else:
        raise AssertionError("the game did not end")
    assert game.wait(30) == 0
    assert deposited is not None
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert any(e["type"] == "decision" and e["player"] == 0 and e["action"] == f"deposit {deposited}" for e in events)

    # The screens: what is on the terminal between two clears.
    screens = [plain(part) for part in game.raw.split(CLEAR_SCREEN.encode())]
    handed_to_b = [i + 1 for i, s in enumerate(screens[:-1]) if f"Pass the keyboard to {B}" in s]
    assert handed_to_b, "the keyboard was never handed over"
    def before_the_end(screen: str) -> str:  # the end (its board, then Game over) reveals all: not before
        if "Game over" not in screen:
            return screen
        return screen[:screen.rindex("updated-treasury: round", 0, screen.index("Game over"))]

    b_screens = [before_the_end(screens[i]) for i in handed_to_b]
    for screen in b_screens:
        assert f"{B} [2]> " in screen  # this is B's turn at the keyboard
        assert f"deposit {deposited}" not in screen and f"{A}: deposit" not in screen
        assert f"{A} (you)" not in screen
        table = row(screen, A)
        assert table == ("?", "?"), table  # neither A's cash in hand nor A's treasury
        assert not re.search(rf"cash lost:[^;\n]*{A}", screen)
    assert any(f"{A}: puts silver into the treasury" in s for s in b_screens)  # that A deposited is public
    # the end reveals every treasury, as the log's last round end has them
    last = [e for e in events if e["type"] == "round_end"][-1]
    end_screen = screens[-1]
    for name, tribe in ((A, "kel_ahaggar"), (B, "kel_ajjer")):
        assert row(end_screen, name) == (str(last["cash"][tribe]), str(last["treasury"][tribe]))
    assert last["treasury"]["kel_ahaggar"] >= deposited


def test_told_lines_leave_out_amounts_a_human_may_not_see():
    from targui_dsl import load_ruleset
    from targui_dsl.games.targui.console import TableNarrator
    from targui_dsl.games.targui.game import Game

    game = Game(load_ruleset("updated-treasury"), players=2, seed=1)
    state = game.new_initial_state()
    round_end = {"type": "round_end", "round": 1, "cash_lost": {"kel_ahaggar": 6, "kel_ajjer": 5},
                 "levy": {"kel_ahaggar": 7, "kel_ajjer": 4}, "cash": {}, "treasury": {}}
    card = {"type": "card", "round": 1, "card": "caravan_raid", "number": 9, "title": "Caravan raid",
            "changes": {"camels": {}, "cash": {"kel_ahaggar": [6, 3], "kel_ajjer": [5, 2]},
                        "treasury": {"kel_ajjer": [4, 0]}, "box": [0, 0], "kinds": {}}}
    deposit = {"type": "decision", "round": 1, "player": 1, "tribe": "kel_ajjer", "action": "deposit 5",
               "forced": False}
    one = TableNarrator(game, {0}, state)
    assert one(round_end) == "  cash lost: Kel Ahaggar 6; levy: Kel Ahaggar 7, Kel Ajjer 4"
    assert one(card) == "  card 9 Caravan raid: Kel Ahaggar cash 6->3; Kel Ajjer cash ?; Kel Ajjer treasury ?"
    assert one(deposit) == "    Kel Ajjer: puts silver into the treasury"
    both = TableNarrator(game, {0, 1}, state)  # hot seat: what one of them may not see is not told
    assert "cash lost" not in both(round_end)
    assert both(card) == "  card 9 Caravan raid: Kel Ahaggar cash ?; Kel Ajjer cash ?; Kel Ajjer treasury ?"
    nobody = TableNarrator(game, (), state)  # bots only: everything
    assert "Kel Ajjer 5" in nobody(round_end) and "Kel Ajjer treasury 4->0" in nobody(card)
    assert nobody(deposit) == "    Kel Ajjer: deposit 5"
