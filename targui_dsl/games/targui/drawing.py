"""How Targui is shown to people: the :class:`~targui_dsl.engine.drawing.Drawing` of its package.

The hooks are this package's terminal (:mod:`.terminal`, :mod:`.console`) and
picture (:mod:`.svg`); the words are what the command line's help and study
tables say of Targui, written here once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from targui_dsl.engine.drawing import Drawing, MetricWords, StudyWords
from targui_dsl.games.targui.compiled import CompiledCode, CompiledRuleset
from targui_dsl.games.targui.console import Console, LeaveGame, TableNarrator
from targui_dsl.games.targui.syntax import action_syntax_lines
from targui_dsl.games.targui.terminal import Style, TableRecord, render_board, render_end

if TYPE_CHECKING:
    from targui_dsl.games.targui.state import GameState

HELP_BOARD = """THE BOARD
Each cell shows its position number and a short label of its territory
kind (a legend follows the board), below it `[N] camels` for the seat that
owns it, drawn in the tribe's colour; `#N` marks seat N's settlement. Then
each player's cash, camels, territories, settlement and turns left in the
round's stack, the round, the stack (cards left, cards turned) and the
last (mis)fortune card. Each human sees what their seat may see (the
rulebook's section 8): where the variant has a treasury, other players'
cash in hand and treasury show as `?`, and deposits and cash lost are
told without amounts nobody at the keyboard may know, until the game
ends. With several humans (hot seat) the screen is cleared and the
keyboard handed over between two of them. The event log (--log)
records everything."""

HELP_ACTIONS = """ACTIONS (positions are the numbers on the board)
""" + "\n".join(action_syntax_lines(column=18)) + """
A menu entry with a range (`7) move 12 13 1..8`) takes its number and
then the count, or both at once (`7 5`). At the prompt `help` shows
this syntax, `board` redraws the board, `menu` lists the choices again
and `quit` leaves."""

HELP_END = """THE END
One end screen: the result, every seat's score and tie-break values (the
ruleset's tie-breaks, in order), which rule decided, and who could not
win and why (out of the game, or lost their own settlement)."""

HELP_PICTURE = "territory kinds, owners,\ncamels, and a legend with the players' cash (and treasury)"

STUDY_WORDS = StudyWords(
    metrics={
        "rounds": MetricWords("rounds", "games last longer", "games are shorter", "rounds"),
        "attacks": MetricWords("attacks", "there are more attacks", "there are fewer attacks", "attacks a game"),
        "attacks_won": MetricWords("attacks won", "more attacks succeed", "fewer attacks succeed",
                                   "won attacks a game"),
        "camels_bought": MetricWords("camels bought", "more camels are bought", "fewer camels are bought",
                                     "camels a game"),
        "eliminations": MetricWords("eliminations", "more players are eliminated", "fewer players are eliminated",
                                    "eliminations a game"),
        "decisions": MetricWords("decisions", "players make more decisions", "players make fewer decisions",
                                 "decisions a game"),
    },
    card_columns=(("camels_removed", "camels -"), ("camels_added", "camels +"), ("cash_taken", "silver -"),
                  ("cash_given", "silver +")),
    modifier_note="until the round's levy",
)



def board_picture(state: GameState, caption: str | None = None) -> str:
    """The board as an SVG document (:func:`targui_dsl.games.targui.svg.board_svg`)."""
    # loaded when a picture is drawn: its XML escaping pulls in urllib and ssl, a tenth of a
    # second that every other command (and `targui --help`) would pay
    from targui_dsl.games.targui.svg import board_svg

    return board_svg(state, caption=caption)


def compiled_snippets(rs: CompiledRuleset) -> list[tuple[str, CompiledCode]]:
    """Every piece of a ruleset's compiled code, by the key that holds it (`show --compiled`)."""
    snippets = [("combat.defender_loses", rs.defender_loses), ("combat.attacker_loses", rs.attacker_loses),
                ("levy", rs.levy), ("end.score", rs.score)]
    snippets += [(f"end.tie_breaks[{i}]", code) for i, code in enumerate(rs.tie_breaks)]
    snippets += [(f"hooks.{moment}[{i}]", code) for moment, codes in rs.hooks.items() for i, code in enumerate(codes)]
    snippets += [(f"cards.{card.id} (card {card.number}: {card.title})", card.effect)
                 for card in sorted(rs.cards.values(), key=lambda c: c.number)]
    return snippets


DRAWING = Drawing(
    board=render_board,
    end_screen=render_end,
    picture=board_picture,
    style=Style,
    table_record=TableRecord,
    narrator=TableNarrator,
    console=Console,
    left_table=LeaveGame,
    help_board=HELP_BOARD,
    help_actions=HELP_ACTIONS,
    help_end=HELP_END,
    help_picture=HELP_PICTURE,
    snippets=compiled_snippets,
    study=STUDY_WORDS,
)
