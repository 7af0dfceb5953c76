"""targui_dsl.games.targui.svg.board_svg: a valid, self-contained SVG picture that shows the state."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from targui_dsl import Game, load_ruleset
from targui_dsl.agents import make_agent
from targui_dsl.games.targui.svg import board_svg, tribe_colour

NS = "{http://www.w3.org/2000/svg}"


def play(name: str, players: int = 4, seed: int = 3, decisions: int | None = None):
    rs = load_ruleset(name)
    state = Game(rs, players=players, seed=seed).new_initial_state()
    bots = [make_agent("greedy", seed + s) for s in range(players)]
    made = 0
    while not state.is_terminal() and (decisions is None or made < decisions):
        seat = state.current_player()
        state.apply_action(bots[seat].choose(state.observation(seat), state.legal_actions()))
        made += 1
    return state


def cells(root: ET.Element) -> dict[int, ET.Element]:
    return {int(g.get("data-position")): g for g in root.iter(f"{NS}g") if g.get("class") == "cell"}


def texts(root: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in root.iter(f"{NS}text")]


@pytest.mark.parametrize("name", ["original-dutch", "swedish-12", "updated-treasury"])
def test_parses_and_draws_every_cell_of_the_board(name):
    state = play(name, decisions=60)
    svg = board_svg(state)
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    board = state.game.ruleset.board
    drawn = cells(root)
    assert sorted(drawn) == sorted(board.position_of_cell)
    assert len(drawn) == board.rows * board.columns
    assert state.game.ruleset.title in texts(root)


def test_cells_show_kind_owner_and_camels_of_the_state():
    state = play("original-dutch", decisions=150)
    root = ET.fromstring(board_svg(state))
    game = state.game
    for cell, g in ((c, cells(root)[game.position_of_cell[c]]) for c in range(game.cells)):
        kind = state.kind(cell)
        assert g.get("data-kind") == game.kind_ids[kind]
        assert int(g.get("data-camels")) == state.camels(cell)
        owner = state.owner(cell)
        assert g.get("data-owner") == (game.tribe_ids[owner] if owner >= 0 else None)
        words = ["".join(t.itertext()) for t in g.iter(f"{NS}text")]
        assert str(game.position_of_cell[cell]) in words
        name = game.ruleset.kinds[kind].name.split(" (")[0]
        assert name in words
        if owner >= 0:
            assert str(state.camels(cell)) in words
            colour = tribe_colour(game.ruleset.tribes[game.seat_tribes[owner]].colour)
            assert any(r.get("stroke") == colour for r in g.iter(f"{NS}rect"))  # the owner's frame


def test_legend_has_players_cash_treasury_round_and_kinds():
    state = play("updated-treasury", decisions=200)
    words = texts(ET.fromstring(board_svg(state)))
    joined = "\n".join(words)
    assert f"round {state.round} of 8" in joined
    for seat in range(4):
        assert any(w.startswith(state.game.tribe_name(seat)) for w in words)
        assert f"cash {state.cash(seat)}, treasury {state.treasury(seat)}" in joined
    for kind in state.game.ruleset.kinds:
        assert kind.name in words
    dutch = "\n".join(texts(ET.fromstring(board_svg(play("original-dutch", decisions=200)))))
    assert "treasury" not in dutch


def test_end_of_game_names_the_winner():
    state = play("swedish-12", seed=4)
    assert state.is_terminal()
    words = texts(ET.fromstring(board_svg(state, caption="the end")))
    assert any(w.startswith("game over after round") and w.endswith("· the end") for w in words)
    winner = state.game.tribe_name(state.winners()[0])
    assert any(w.startswith(winner) and ("(winner)" in w or "(draw)" in w) for w in words)


def test_before_the_deal_cards_are_face_down():
    state = Game(load_ruleset("original-dutch"), players=4, seed=1, explicit_chance=True).new_initial_state()
    root = ET.fromstring(board_svg(state))
    drawn = cells(root)
    assert sum(1 for g in drawn.values() if g.get("data-kind") is None) == 48  # all but the salt mine
    assert drawn[1].get("data-kind") == "salt_mine"
    assert not any(g.get("data-owner") for g in drawn.values())


def test_self_contained_and_text_escaped(tmp_path: Path):
    rule = tmp_path / "odd.yaml"
    rule.write_text(
        "extends: original-dutch\nid: odd\ntitle: 'Odd <names> & \"quotes\"'\n"
        "tribes:\n  kel_ress:\n    name: 'Kel <Ress> & Co'\n    colour: magenta\n"
        "territories:\n  guelta:\n    name: 'Oasis & <pool>'\n",
        encoding="utf-8")
    rs = load_ruleset(str(rule))
    state = Game(rs, players=4, seed=2).new_initial_state()
    bots = [make_agent("random", s) for s in range(4)]
    for _ in range(40):
        seat = state.current_player()
        state.apply_action(bots[seat].choose(state.observation(seat), state.legal_actions()))
    svg = board_svg(state)
    root = ET.fromstring(svg)  # parses: everything escaped
    words = texts(root)
    assert 'Odd <names> & "quotes"' in words
    assert any(w.startswith("Kel <Ress> & Co") for w in words)
    assert "Oasis & <pool>" in words
    assert "<script" not in svg and "<image" not in svg and "<style" not in svg
    # Only references into the document itself; no fonts, images or styles from elsewhere.
    assert re.findall(r"url\(([^)]*)\)", svg) and all(ref.startswith("#") for ref in re.findall(r"url\(([^)]*)\)", svg))
    assert "href" not in svg and "@import" not in svg and "http://" not in svg.replace("http://www.w3.org/2000/svg", "")


def test_tribe_colours():
    assert tribe_colour("green") != "green"  # a shade chosen for the board
    assert tribe_colour("#123abc") == "#123abc" and tribe_colour("teal") == "teal"
    assert tribe_colour("red; stroke: url(http://x)") == "#7d7d7d"


def test_same_state_same_picture():
    a = play("original-dutch", seed=8, decisions=100)
    b = play("original-dutch", seed=8, decisions=100)
    assert board_svg(a) == board_svg(b)
    assert board_svg(a) != board_svg(play("original-dutch", seed=8, decisions=101)) or a.is_terminal()
