"""The tribe colours a ruleset may name, and how each is drawn: the one table.

The ruleset schema's `colour` enum (schemas/ruleset.schema.json) lists
exactly these names (a test holds the two together); the terminal paints
them with their ANSI code, the SVG board with their shade.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping


@dataclass(frozen=True)
class TribeColour:
    ansi: int  # SGR foreground code; black is bright black (grey), to show on a dark terminal
    svg: str  # a shade that reads well on the board's sand
    light: bool  # dark text on it, not white


TRIBE_COLOURS: Mapping[str, TribeColour] = MappingProxyType({
    "red": TribeColour(31, "#cf3a2c", light=False),
    "green": TribeColour(32, "#2e9d5a", light=False),
    "yellow": TribeColour(33, "#e3b21c", light=True),
    "blue": TribeColour(34, "#2f6cd0", light=False),
    "magenta": TribeColour(35, "#c2389b", light=False),
    "cyan": TribeColour(36, "#1fa5b8", light=True),
    "white": TribeColour(37, "#f4f4f4", light=True),
    "black": TribeColour(90, "#2b2b2b", light=False),
})

#: Colour name -> ANSI SGR code, for the terminal.
ANSI_COLOURS: Mapping[str, int] = MappingProxyType({name: c.ansi for name, c in TRIBE_COLOURS.items()})
