"""How a game is shown to people: the hooks of :class:`Drawing`, which a game's package
fills in (``GamePackage.drawing``) and the command line draws and words a game with.

The command line knows no game: it asks the game's drawing for the board, the end
screen, the picture, the table's console and narration, and for the words its help
and its study tables use. Each hook takes the game's own objects (its game, its
state) as the engine made them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Protocol


class Painter(Protocol):
    """Paints text for a terminal (ANSI codes), or leaves it alone (``colour`` false)."""

    @property
    def colour(self) -> bool: ...

    def paint(self, text: str, colour: str | None = None, bold: bool = False, dim: bool = False) -> str: ...


class TableListener(Protocol):
    """A log listener that remembers what the table has seen."""

    def observe(self, event: dict[str, Any]) -> None: ...


class TableNarration(Protocol):
    """An event as a line for the people at the table (None: not told), without what one of
    them may not see; ``state`` is the game's state once it exists."""

    state: Any

    def __call__(self, event: dict[str, Any]) -> str | None: ...


class TableConsole(TableListener, Protocol):
    """People at a terminal: shows them what they may see and reads their decisions."""

    def tell(self, line: str) -> None: ...
    def decide(self, state: Any) -> str: ...
    def finish(self, state: Any) -> None: ...


@dataclass(frozen=True)
class MetricWords:
    """A per-game figure of a study, in words: its label in a table, what B above or below A
    means in a comparison's verdict, and its unit there."""

    label: str  # "rounds"
    more: str  # "games last longer"
    fewer: str  # "games are shorter"
    unit: str  # "rounds"


@dataclass(frozen=True)
class StudyWords:
    """The words of `simulate`'s and `compare`'s tables for one game."""

    metrics: Mapping[str, MetricWords]  # a study's per-game means, in the order the tables list them

    def figures(self) -> str:
        """The per-game figures, listed for a command's help: `rounds, decisions, ...`."""
        return ", ".join(words.label for words in self.metrics.values())

    card_columns: tuple[tuple[str, str], ...]  # a card's per-draw figures: (key, column heading)
    modifier_note: str  # before the effects of a card that only changes rules for a while


@dataclass(frozen=True)
class Drawing:
    """How a game is shown to people, as hooks."""

    board: Callable[..., str]  # (state, record=None, *, style=, viewer=None, width=80) -> the board as text
    end_screen: Callable[..., str]  # (state, *, style=) -> the result, each seat's figures and why
    picture: Callable[..., str]  # (state, caption=None) -> the board as an SVG document
    style: Callable[[bool], Painter]  # (colour?) -> the painter of every drawing above
    table_record: Callable[[Any], TableListener]  # (game) -> what the table saw that a state does not keep
    narrator: Callable[[Any, frozenset[int]], TableNarration]  # (game, the humans' seats)
    console: Callable[..., TableConsole]  # (game, humans, *, style, record, echo, read, board, clear)
    left_table: type[Exception]  # what a console raises when a person leaves the game
    help_board: str  # `play --help`: what the board shows, and who sees what
    help_actions: str  # `play --help`: what a person types at the prompt
    help_end: str  # `play --help`: what the end screen tells
    help_picture: str  # `replay --help`: what the --svg picture shows
    snippets: Callable[[Any], list[tuple[str, Any]]]  # (compiled ruleset) -> (name, compiled code), `show --compiled`
    study: StudyWords
