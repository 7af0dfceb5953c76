"""The action syntax has one home (targui_dsl/games/targui/syntax.py): `help` at the prompt, `targui play --help`
and docs/engine.md all show the same table, and it names every verb the engine reads."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from targui_cli.play import play
from targui_dsl import load_ruleset
from targui_dsl.agents import make_agent
from targui_dsl.games.targui.console import HELP_TEXT, group_actions, interpret
from targui_dsl.games.targui.game import Game
from targui_dsl.games.targui.readable import DECISION_VERBS
from targui_dsl.games.targui.syntax import ACTION_SYNTAX, action_syntax_markdown

DOCS = Path(__file__).resolve().parents[1] / "docs" / "engine.md"


def squash(text: str) -> str:
    return " ".join(text.split())


def test_the_table_names_every_verb_the_engine_reads():
    assert {form.verb for form in ACTION_SYNTAX} == set(DECISION_VERBS)
    for form in ACTION_SYNTAX:  # each example is spelled with its own verb
        assert form.example == form.verb or form.example.startswith(form.verb + " ")


def test_help_at_the_prompt_and_play_help_show_every_row():
    help_text = CliRunner().invoke(play, ["--help"], terminal_width=200).output
    for form in ACTION_SYNTAX:
        row = re.compile(rf"^\s+{re.escape(form.example)}\s+{re.escape(form.meaning)}$", re.M)
        assert row.search(HELP_TEXT), form
        assert row.search(help_text), form


def test_the_docs_hold_the_same_table():
    docs = DOCS.read_text(encoding="utf-8")
    block = re.search(r"<!-- action syntax:[^\n]*-->\n(.*?)\n<!-- end of the action syntax -->", docs, re.S)
    assert block is not None, "docs/engine.md lost its action syntax table"
    assert block.group(1) == action_syntax_markdown()


def test_an_unknown_word_is_answered_with_the_verbs_of_this_decision():
    game = Game(load_ruleset("updated-treasury"), players=2, seed=3)
    state = game.new_initial_state()
    bot = make_agent("greedy", 1)
    while not (state.current_player() == 0 and state.phase_name == "deposit"):
        seat = state.current_player()
        state.apply_action(bot.choose(state.observation(seat), state.legal_actions()))
    reply = interpret("flibble 3", state, group_actions(state))
    assert reply.message == (
        "`flibble 3`: unknown action `flibble`; here: deposit, move, pass (`help` shows every action)")
    for word in ("card", "deal", "die", "turn"):  # the engine's chance outcomes are not offered to people
        assert f" {word}" not in reply.message
    assert "unknown action" not in (interpret("deposit 99", state, group_actions(state)).message or "")
