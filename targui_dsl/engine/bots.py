"""A bot as a game's package declares it (``GamePackage.bots``) and the toolkit registers its own:
its name, how it is built, and the parameters it takes, each read from a spelling's text within its
bounds. How a spelling is parsed and which bots there are: :mod:`targui_dsl.agents.spec`."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from targui_dsl.engine.loop import Player

__all__ = ["TYPE_WORDS", "BotKind", "BotParam", "BotSpecError", "brief"]


class BotSpecError(ValueError):
    """A bot spelling that names no bot or gives a parameter it does not take (one line, with a hint)."""


@dataclass(frozen=True)
class BotParam:
    """One parameter a bot takes: its type decides how its text is read; a number must be
    finite and within ``minimum``..``maximum`` (a spelling may come from a stranger's log)."""

    name: str
    kind: type  # int, float or str
    default: Any
    help: str
    minimum: float | None = None
    maximum: float | None = None
    #: for a word: the words it may be, for a game (by its name); None: any word
    choices: Callable[[str], Sequence[str]] | None = None

    def read(self, bot: str, text: str) -> Any:
        try:
            value = self.kind(text)
        except ValueError:  # int() of more than 4,300 digits is a ValueError too
            raise BotSpecError(f"bot `{bot}`: `{self.name}` must be {TYPE_WORDS[self.kind]}, "
                               f"not `{brief(text)}`") from None
        if isinstance(value, float) and not math.isfinite(value):
            raise BotSpecError(f"bot `{bot}`: `{self.name}` must be a finite number, not `{brief(text)}`")
        if self.minimum is not None and value < self.minimum:
            raise BotSpecError(f"bot `{bot}`: `{self.name}` must be at least {self.minimum:g}, not `{brief(text)}`")
        if self.maximum is not None and value > self.maximum:
            raise BotSpecError(f"bot `{bot}`: `{self.name}` must be at most {self.maximum:g}, not `{brief(text)}`")
        return value

    def range_text(self) -> str:
        """The documented range: ``1..100000``, ``at least 0``, or empty."""
        if self.minimum is not None and self.maximum is not None:
            return f"{self.minimum:g}..{self.maximum:g}"
        if self.minimum is not None:
            return f"at least {self.minimum:g}"
        if self.maximum is not None:
            return f"at most {self.maximum:g}"
        return ""


def brief(text: str) -> str:
    """A stranger's text as quoted in an error: one line (control characters escaped) and
    short (a 5,000-digit value is not echoed whole)."""
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text[:200])
    return text if len(text) <= 40 else text[:20] + "…" + text[-10:]


TYPE_WORDS: dict[type, str] = {int: "a whole number", float: "a number", str: "a word"}


@dataclass(frozen=True)
class BotKind:
    """A bot by name: how to build one, what it takes, and one line on how it plays."""

    name: str
    factory: Callable[..., Player]  # factory(seed, **params), and game= (the GamePackage) when takes_game
    summary: str
    params: tuple[BotParam, ...] = ()
    takes_game: bool = False  # a shared bot that plays any game through its package (the search)
