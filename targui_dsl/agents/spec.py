"""How a bot is spelled: ``kind`` or ``kind:name=value:name=value``.

The one place that knows the bots by name: the shared bots registered here
(:func:`register`: ``random``, ``ismcts``) and each game's own, which its
package lists (``GamePackage.bots``: ``greedy``, the game's heuristic), looked
up by the name of the ruleset's game (``game=``, the default game when not
given). ``targui play --bots``, ``simulate``,
``compare``, ``tournament``, studies and the adapters all go through
:func:`parse_bot` and :func:`make_agent`, so a spelling that works in one works
in all of them, and its errors read the same everywhere.

Examples: ``random``, ``greedy``, ``ismcts:iterations=400``.
A spelling is written back in one canonical form (:meth:`BotSpec.spelling`):
parameters in the order the bot declares them, defaults left out, so that two
spellings of the same bot compare equal in a table of results.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from targui_dsl.engine.bots import TYPE_WORDS, BotKind, BotSpecError, brief
from targui_dsl.engine.loop import Player
from targui_dsl.frontend.diagnostics import did_you_mean
from targui_dsl.games import DEFAULT_GAME, game_package

#: The bots every command uses when none are named: the same in `play` and `simulate`.
DEFAULT_BOTS = "greedy"

#: Levels for people choosing an opponent: each a name for one real setting, written back as
#: that setting (a table of results shows `ismcts:iterations=600`, not `hard`). `greedy` is
#: every game's own heuristic. This is every game's table, except where a game's package gives
#: a level its own setting (``GamePackage.levels``: :func:`levels_of`). Their measured strength:
#: `targui bots` (from the ladder's file).
LEVELS: dict[str, str] = {
    "easy": "greedy",
    "normal": "ismcts",
    "hard": "ismcts:iterations=600",
}


@dataclass(frozen=True)
class BotSpec:
    """A parsed spelling: the kind and its parameter values (defaults filled in)."""

    kind: str
    params: dict[str, Any] = field(default_factory=dict)
    game: str = DEFAULT_GAME

    def spelling(self) -> str:
        """The canonical text: parameters in declared order, defaults left out."""
        kind = bots_of(self.game)[self.kind]
        defaults = defaults_of(kind, self.game)
        given = [f"{p.name}={_text(self.params[p.name])}" for p in kind.params
                 if self.params[p.name] != defaults[p.name]]
        return ":".join([self.kind, *given])

    def build(self, seed: int) -> Player:
        kind = bots_of(self.game)[self.kind]
        if kind.takes_game:
            return kind.factory(seed, game=game_package(self.game), **self.params)
        return kind.factory(seed, **self.params)


def _text(value: Any) -> str:
    """A parameter's value in a spelling: ``0.3``, ``1`` (as ever); a float that ``:g``
    would round is written whole, so that the spelling reads back as the same bot."""
    if isinstance(value, float):
        short = f"{value:g}"
        return short if float(short) == value else repr(value)
    return str(value)


BOTS: dict[str, BotKind] = {}


def register(kind: BotKind) -> None:
    """Add a bot under its name (each name once)."""
    if kind.name in BOTS:
        raise ValueError(f"bot `{kind.name}` is registered twice")
    BOTS[kind.name] = kind
    _parsed.clear()


def unregister(name: str) -> None:
    """Take a bot away again (tests that register their own)."""
    del BOTS[name]
    _parsed.clear()


def bots_of(game: str = DEFAULT_GAME) -> dict[str, BotKind]:
    """The bots that play ``game``: the shared ones and the game's own (its package's ``bots``)."""
    kinds = dict(BOTS)
    for kind in game_package(game).bots:
        if kind.name in kinds:
            raise ValueError(f"bot `{kind.name}` of {game} has the name of a shared bot")
        kinds[kind.name] = kind
    return kinds


def defaults_of(kind: BotKind, game: str = DEFAULT_GAME) -> dict[str, Any]:
    """A bot's parameter values when none is spelled: its declared defaults, and for a bot that
    plays any game (the search) the game's own where its package gives them (``search_defaults``)."""
    values = {p.name: p.default for p in kind.params}
    if kind.takes_game:
        own = game_package(game).search_defaults or {}
        values.update({name: value for name, value in own.items() if name in values})
    return values


def levels_of(game: str = DEFAULT_GAME) -> dict[str, str]:
    """The levels of ``game`` (level -> bot spelling): the shared :data:`LEVELS`, with the game's
    own setting for a level its package gives one (``GamePackage.levels``). A game renames no
    level and adds none: `hard` is a word in every game."""
    own = game_package(game).levels or {}
    return {level: own.get(level, spelling) for level, spelling in LEVELS.items()}


def bot_names(game: str = DEFAULT_GAME) -> list[str]:
    return sorted(bots_of(game))


def parse_bot(text: str, game: str = DEFAULT_GAME) -> BotSpec:
    """``ismcts:iterations=400`` -> BotSpec("ismcts", {...}); BotSpecError for anything else.
    ``game``: the game whose bots the spelling may name (the ruleset's game)."""
    kinds = bots_of(game)
    kind_text, *param_texts = text.strip().split(":")
    kind_text = kind_text.strip()
    levels = levels_of(game)
    if kind_text in levels and kind_text not in kinds:
        if param_texts:
            raise BotSpecError(f"level `{kind_text}` takes no parameters: it is `{levels[kind_text]}`; "
                               f"spell that bot with yours")
        return parse_bot(levels[kind_text], game)
    kind = kinds.get(kind_text)
    if kind is None:
        hint = did_you_mean(kind_text, [*kinds, *LEVELS])
        raise BotSpecError(f"unknown bot `{brief(kind_text)}`" + (f"; {hint}" if hint else "")
                           + f" (bots: {', '.join(sorted(kinds))}; levels: {', '.join(LEVELS)})")
    declared = {p.name: p for p in kind.params}
    values = defaults_of(kind, game)
    seen: set[str] = set()
    for item in param_texts:
        name, sep, value = (part.strip() for part in item.partition("="))
        if not sep or not name or not value:
            raise BotSpecError(f"bot `{kind.name}`: write a parameter as `name=value`, not `{brief(item)}`")
        param = declared.get(name)
        if param is None:
            if not declared:
                raise BotSpecError(f"bot `{kind.name}` takes no parameters")
            hint = did_you_mean(name, declared)
            raise BotSpecError(f"bot `{kind.name}` has no parameter `{brief(name)}`" + (f"; {hint}" if hint else "")
                               + f" (it takes: {', '.join(declared)})")
        if name in seen:
            raise BotSpecError(f"bot `{kind.name}`: `{name}` is given twice")
        seen.add(name)
        values[name] = param.read(kind.name, value)
        if param.choices is not None and values[name] not in (allowed := param.choices(game)):
            hint = did_you_mean(value, allowed)
            raise BotSpecError(f"bot `{kind.name}`: `{name}` cannot be `{brief(value)}`"
                               + (f"; {hint}" if hint else "") + f" (it may be: {', '.join(allowed)})")
    return BotSpec(kind.name, values, game)


def parse_bot_list(text: str, game: str = DEFAULT_GAME) -> list[BotSpec]:
    """``greedy,ismcts:iterations=100`` -> one spec per comma-separated spelling."""
    items = [item.strip() for item in text.split(",")]
    if not any(items):
        raise BotSpecError(f"no bot named (bots: {', '.join(bot_names(game))})")
    if not all(items):
        raise BotSpecError(f"an empty bot in `{brief(text)}`: write bots separated by single commas")
    return [parse_bot(item, game) for item in items]


def make_agent(spelling: str, seed: int = 0, game: str = DEFAULT_GAME) -> Player:
    """A bot of ``game`` from its spelling, seeded; BotSpecError (a ValueError) for a bad spelling."""
    spec = _parsed.get((game, spelling))
    if spec is None:  # a study makes a bot per seat per game: parse each spelling once
        spec = _parsed[(game, spelling)] = parse_bot(spelling, game)
    return spec.build(seed)


#: (game, spelling) already parsed (good ones only), forgotten when a bot is registered.
_parsed: dict[tuple[str, str], BotSpec] = {}


def describe_bots(game: str = DEFAULT_GAME) -> str:
    """Every bot of ``game``, its summary and its parameters: for `--help` texts and `targui bots`."""
    kinds = bots_of(game)
    lines = []
    for name in sorted(kinds):
        kind = kinds[name]
        lines.append(f"{name}: {kind.summary}")
        defaults = defaults_of(kind, game)
        for p in kind.params:
            bounds = f" {p.range_text()}" if p.range_text() else ""
            if p.choices is not None:
                bounds = f": {', '.join(p.choices(game))}"
            lines.append(f"    {name}:{p.name}=... ({TYPE_WORDS[p.kind]}{bounds}, default {_text(defaults[p.name])}) "
                         f"{p.help}")
    return "\n".join(lines)
