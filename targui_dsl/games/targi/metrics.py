"""Targi's study figures: points by source, cards displayed, how the game ended, and per tribe
card how often it was displayed and how often by the game's winner."""

from __future__ import annotations

from typing import Any, Mapping

from targui_dsl.engine.protocol import Figure, StudyMetrics
from targui_dsl.games.targi.record import SEATS

PER_GAME: tuple[Figure, ...] = (
    Figure("points_tokens", "token points a game", "tokens", "more points come from tokens",
           "fewer points come from tokens", "points a game"),
    Figure("points_printed", "printed points a game", "printed", "more printed points", "fewer printed points",
           "points a game"),
    Figure("points_end", "END points a game", "END", "END abilities score more", "END abilities score less",
           "points a game"),
    Figure("points_rows", "row points a game", "rows", "rows score more", "rows score less", "points a game"),
    Figure("displayed", "cards displayed a game", "displayed", "more cards are displayed",
           "fewer cards are displayed", "cards a game"),
)
#: A figure per symbol of the game's ruleset (a house rule may add one), after PER_GAME.
SYMBOL_FIGURE = "displayed_"


def symbol_figure(key: str) -> Figure | None:
    """The figure of the cards of one symbol displayed a game (``displayed_<symbol>``)."""
    if not key.startswith(SYMBOL_FIGURE):
        return None
    symbol = key[len(SYMBOL_FIGURE):]
    return Figure(key, f"{symbol} cards displayed a game", symbol, f"more {symbol} cards are displayed",
                  f"fewer {symbol} cards are displayed", "cards a game")


TOTALS = ("ended_by_raid", "ended_by_display")
CARD_FIELDS = ("by_winner",)
CARD_COLUMNS = ("by winner",)  # the share of its displays made by the game's winner


class TargiCounter:
    """Counts one game's figures from its events."""

    # the game builds no other event (no chance draw, no decision, placement or raid)
    wants: frozenset[str] | None = frozenset({"display", "end"})

    def __init__(self) -> None:
        self.figures = {figure.key: 0 for figure in PER_GAME}  # and one per symbol, from `begin`
        self.ends = {key: 0 for key in TOTALS}
        self.shown: list[tuple[int, str]] = []  # (seat, card id) per display
        self._cards: dict[str, list[int]] = {}
        self._symbol: dict[str, str] = {}  # card id -> its symbol's figure, from the game's ruleset

    def begin(self, game: Any) -> None:
        """The game's ruleset: which symbol each tribe card carries."""
        rs = game.ruleset
        self.figures.update((SYMBOL_FIGURE + symbol, 0) for symbol in rs.symbols)
        self._symbol = {str(card.id): SYMBOL_FIGURE + rs.symbols[card.symbol] for card in rs.tribe_cards}

    def __call__(self, event: dict[str, Any]) -> None:
        kind = event["type"]
        if kind == "display":
            self.shown.append((event["player"], str(event["card"])))
            self.figures["displayed"] += 1
            symbol = self._symbol.get(str(event["card"]))
            if symbol in self.figures:
                self.figures[symbol] += 1
        elif kind == "end":
            for parts in event["parts"].values():
                for source, points in parts.items():
                    self.figures["points_" + source] += points
            self.ends["ended_by_" + event["reason"]] = 1
            winners = event["winners"]
            for seat, card in self.shown:
                counts = self._cards.setdefault(card, [0, 0])
                counts[0] += 1
                counts[1] += 1 if winners == [SEATS[seat]] else 0

    def per_game(self) -> dict[str, int]:
        return dict(self.figures)

    def totals(self) -> dict[str, int]:
        return dict(self.ends)

    def cards(self) -> dict[str, list[int]]:
        return self._cards


def study_figures(metrics: Mapping[str, Mapping[str, Any]], totals: Mapping[str, int]) -> dict[str, Any]:
    """Targi's blocks of `simulate --json`: points by source and how games ended."""
    return {
        "points_by_source": {f.key[len("points_"):]: metrics[f.key]["mean"] for f in PER_GAME
                             if f.key.startswith("points_")},
        "endings": {"raid": totals.get("ended_by_raid", 0), "display": totals.get("ended_by_display", 0)},
    }


def describe(figures: Mapping[str, Any]) -> list[str]:
    points = figures["points_by_source"]
    endings = figures["endings"]
    return ["Points a game (both players) by source: " + ", ".join(f"{k} {v:.1f}" for k, v in points.items())
            + f"; ended by the last raid {endings['raid']}, by a full display {endings['display']}"]


METRICS = StudyMetrics(
    counter=TargiCounter,
    per_game=PER_GAME,
    totals=TOTALS,
    card_fields=CARD_FIELDS,
    card_columns=CARD_COLUMNS,
    card_note="",
    card_heading="Tribe cards",
    card_count="shown",
    figures=study_figures,
    describe=describe,
    figure_of=symbol_figure,
    endings=(Figure("raid", "ended by the last raid", "last raid", "more games end at the last raid",
                    "fewer games end at the last raid", "%"),
             Figure("display", "ended by a full display", "full display", "more games end by a full display",
                    "fewer games end by a full display", "%")),
)
