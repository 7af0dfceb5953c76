"""The action syntax people type at `targui play`'s prompt: one table, the one home of it.

`help` at the prompt (:data:`targui_dsl.games.targui.console.HELP_TEXT`), the ACTIONS section of
`targui play --help` and the table in docs/engine.md are all made from
:data:`ACTION_SYNTAX`; tests/test_action_syntax.py checks that it names every
decision verb the engine reads (``DECISION_VERBS``) and that the docs agree.
Kept free of engine imports, so `targui --help` stays quick.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ActionForm:
    """One line of the action syntax: the engine's verb, an example as typed, what it does."""

    verb: str  # one of the engine's DECISION_VERBS
    example: str
    meaning: str


ACTION_SYNTAX: tuple[ActionForm, ...] = (
    ActionForm("sector", "sector north_west", "pick a free sector (setup, 2 and 4 players)"),
    ActionForm("settle", "settle 47", "put your settlement on position 47 (setup)"),
    ActionForm("deposit", "deposit 5", "put 5 silver from hand into your treasury (treasury variants)"),
    ActionForm("move", "move 12 13 4", "move 4 camels from 12 to 13 (own, unowned or undefended)"),
    ActionForm("attack", "attack 12 13", "attack the defended enemy cell 13 from 12"),
    ActionForm("again", "again", "after a defender's throw: throw again"),
    ActionForm("give up", "give up", "after a defender's throw: end the attack"),
    ActionForm("enter", "enter 3", "after a conquest: move 3 camels into the taken cell"),
    ActionForm("buy", "buy 5 on 12", "buy 5 camels and place them on 12 (`buy 5 12` too)"),
    ActionForm("count", "count 4", "how many, when a count is all that is asked"),
    ActionForm("choose", "choose 21", "a card asks you to choose: a position, a tribe or a number"),
    ActionForm("pass", "pass", "end the movement or the adding phase"),
)
ACTION_VERBS = frozenset(form.verb for form in ACTION_SYNTAX)


def action_syntax_lines(indent: str = "  ", column: int = 20) -> list[str]:
    """The action syntax as aligned text lines (`help`, `targui play --help`)."""
    return [f"{indent}{form.example:<{column}}  {form.meaning}" for form in ACTION_SYNTAX]


def action_syntax_markdown() -> str:
    """The action syntax as a Markdown table (docs/engine.md holds a copy; a test compares)."""
    rows = ["| you type | does |", "|---|---|"]
    rows += [f"| `{form.example}` | {form.meaning} |" for form in ACTION_SYNTAX]
    return "\n".join(rows)


