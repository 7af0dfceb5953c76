"""The games targui plays, one package each, and the one table that names them.

A ruleset says which game it is (``game:``, Targui when absent); everything
outside this folder reaches a game through :func:`game_package`.
"""

from __future__ import annotations

import importlib
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Mapping

if TYPE_CHECKING:  # the protocol's module is the engine's: naming a game's modules loads none of it
    from targui_dsl.engine.front import FrontEnd
    from targui_dsl.engine.protocol import GamePackage

#: A ruleset's `game:` -> the module that defines that game's ``PACKAGE``. Our own names only.
GAMES: Mapping[str, str] = MappingProxyType({
    "targi": "targui_dsl.games.targi.package",
    "targui": "targui_dsl.games.targui.package",
})
DEFAULT_GAME = "targui"


def game_package(name: str = DEFAULT_GAME) -> GamePackage:
    """The package of the game called ``name`` (a ValueError naming the games there are)."""
    module = GAMES.get(name)
    if module is None:
        raise ValueError(f"unknown game {name!r}; targui plays {', '.join(sorted(GAMES))}")
    package: GamePackage = importlib.import_module(module).PACKAGE
    return package


def front_end(name: str = DEFAULT_GAME) -> FrontEnd:
    """What the front end needs of the game called ``name``: its ``frontend`` module, beside its
    ``package`` (checking a ruleset imports no engine, bot or drawing; a ValueError as
    :func:`game_package`)."""
    module = GAMES.get(name)
    if module is None:
        raise ValueError(f"unknown game {name!r}; targui plays {', '.join(sorted(GAMES))}")
    front: FrontEnd = importlib.import_module(module.rpartition(".")[0] + ".frontend").FRONT_END
    return front


def game_of(ruleset: Any) -> GamePackage:
    """The package of the game a compiled ruleset plays (its ``game``; the default game for a
    ruleset that names none)."""
    return game_package(getattr(ruleset, "game", None) or DEFAULT_GAME)
