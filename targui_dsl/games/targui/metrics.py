"""Targui's study figures: what a study counts in each game besides wins, scores and rounds.

The study package (:mod:`targui_dsl.study`) knows no game: it asks the game's
package (``GamePackage.metrics``, a :class:`~targui_dsl.engine.protocol.StudyMetrics`)
for a counter per game, fed the game's events (the `targui-log/2` events,
docs/engine.md), and sums what the counters report. Targui counts attacks
(won, failed, given up), camels bought, eliminations and, per card (and per
hook, as ``MOMENT hook N``, each time it changed something), the camels it
removed and added and the silver (cash and treasury) it took and gave.
"""

from __future__ import annotations

from typing import Any, Mapping

from targui_dsl.effects.runtime import MAX_VALUE
from targui_dsl.engine.protocol import Figure, StudyMetrics

__all__ = ["CARD_FIELDS", "METRICS", "PER_GAME", "PER_SEAT", "TarguiCounter", "describe", "seat_values",
           "study_figures", "unlogged_in"]

#: Per-game figures kept as moments (between rounds and decisions in every table).
PER_GAME: tuple[Figure, ...] = (
    Figure("attacks", "attacks a game", "attacks", "there are more attacks", "there are fewer attacks",
           "attacks a game"),
    Figure("attacks_won", "attacks won a game", "attacks won", "more attacks succeed", "fewer attacks succeed",
           "won attacks a game"),
    Figure("camels_bought", "camels bought a game", "camels bought", "more camels are bought",
           "fewer camels are bought", "camels a game"),
    Figure("eliminations", "eliminations a game", "eliminations", "more players are eliminated",
           "fewer players are eliminated", "eliminations a game"),
)

#: Per card, after the times it was drawn: what it removed and added, and their headings.
CARD_FIELDS = ("camels_removed", "camels_added", "cash_taken", "cash_given")
CARD_COLUMNS = ("camels -", "camels +", "silver -", "silver +")


class TarguiCounter:
    """An event listener counting one game's figures. It reads attacks' ends, eliminations,
    cards and hooks (``wants``): a study's game builds no other event. Camels bought are read
    from the finished game (:meth:`end`), not from a purchase event per buy (the commonest
    decision of a game): only a ruleset whose camels are free has them told (:meth:`begin`)."""

    wants: frozenset[str] | None = frozenset({"attack_end", "eliminated", "card", "hook"})

    def __init__(self) -> None:
        self.attacks = self.attacks_won = self.attacks_failed = self.attacks_given_up = 0
        self.camels_bought = self.eliminations = 0
        self._cards: dict[str, list[int]] = {}  # card -> [drawn, *CARD_FIELDS]

    def begin(self, game: Any) -> None:
        """Before the first event: free camels (price 0) leave no trace in what a seat spent,
        so their purchases are read from the events."""
        if game.camel_price <= 0 and self.wants is not None:
            self.wants = self.wants | {"decision:buy"}

    def end(self, state: Any) -> bool:
        """The finished game's figures that are read from it rather than counted: camels bought,
        the silver spent on camels (a purchase's only cost) over the price. False when the state
        cannot tell (a seat's spending reached the cap of every amount) and the purchases were
        not told: the game is to be counted again from every event."""
        wants = self.wants
        if wants is None or "decision:buy" in wants:
            return True  # counted from the events
        spent = state.record.spent
        if max(spent) >= MAX_VALUE:
            return False
        self.camels_bought = sum(spent) // state.game.camel_price
        return True

    def __call__(self, event: dict[str, Any]) -> None:
        kind = event["type"]
        if kind == "attack_end":
            self.attacks += 1
            result = event["result"]
            if result == "won":
                self.attacks_won += 1
            elif result == "failed":
                self.attacks_failed += 1
            else:
                self.attacks_given_up += 1
        elif kind == "card" or kind == "hook":
            # a hook is counted as a card is, under its moment and place (`round_start hook 1`),
            # each time it changed something
            key = event["card"] if kind == "card" else f"{event['moment']} hook {event['hook']}"
            counts = self._cards.get(key)
            if counts is None:
                counts = self._cards[key] = [0] * (1 + len(CARD_FIELDS))
            counts[0] += 1
            changes = event["changes"]
            for before, after in changes["camels"].values():
                if after < before:
                    counts[1] += before - after
                else:
                    counts[2] += after - before
            for where in ("cash", "treasury"):
                for before, after in changes[where].values():
                    if after < before:
                        counts[3] += before - after
                    else:
                        counts[4] += after - before
        elif kind == "decision":
            action = event["action"]
            if action[:4] == "buy ":  # `buy N on P`
                self.camels_bought += int(action[4:action.index(" ", 4)])
        elif kind == "eliminated":
            self.eliminations += 1

    def per_game(self) -> dict[str, int]:
        return {"attacks": self.attacks, "attacks_won": self.attacks_won, "camels_bought": self.camels_bought,
                "eliminations": self.eliminations}

    def totals(self) -> dict[str, int]:
        return {"attacks_failed": self.attacks_failed, "attacks_given_up": self.attacks_given_up,
                "games_with_eliminations": 1 if self.eliminations else 0}

    def cards(self) -> dict[str, list[int]]:
        return self._cards


def study_figures(metrics: Mapping[str, Mapping[str, Any]], totals: Mapping[str, int]) -> dict[str, Any]:
    """Targui's blocks of `targui simulate --json` (after ``metrics``): attacks, camels bought, eliminations.
    ``metrics``: each per-game figure's moments (n, mean, sd, min, max, total); ``totals``: the sums."""
    attacks, won = metrics["attacks"]["total"], metrics["attacks_won"]["total"]
    return {
        "attacks": {
            "count": attacks,
            "won": won,
            "failed": totals.get("attacks_failed", 0),
            "given_up": totals.get("attacks_given_up", 0),
            "per_game": metrics["attacks"]["mean"],
            "won_share": won / attacks if attacks else 0.0,
        },
        "camels_bought": {"total": metrics["camels_bought"]["total"], "per_game": metrics["camels_bought"]["mean"]},
        "eliminations": {
            "total": metrics["eliminations"]["total"],
            "per_game": metrics["eliminations"]["mean"],
            "games_with": totals.get("games_with_eliminations", 0),
        },
    }


def describe(figures: Mapping[str, Any]) -> list[str]:
    """The attacks and eliminations of a study, in one line of its text report."""
    attacks = figures["attacks"]
    return [f"Attacks: {attacks['count']}, won {attacks['won']} ({100 * attacks['won_share']:.1f}%), "
            f"failed {attacks['failed']}, given up {attacks['given_up']}; "
            f"eliminations in {figures['eliminations']['games_with']} of {figures['games']} games"]


def unlogged_in(log_format: str, event: dict[str, Any]) -> bool:
    """Whether a log of ``log_format`` never held ``event``: format 1 told no hook and no
    chosen `deposit 0` (format 2 tells both)."""
    if log_format != "targui-log/1":
        return False
    return event["type"] == "hook" or (event["type"] == "decision" and event["action"] == "deposit 0")


#: Per seat at the game's end: the silver it holds, in hand and in its treasury.
PER_SEAT: tuple[Figure, ...] = (
    Figure("silver", "silver at the end", "silver", "{who} ends with more silver", "{who} ends with less silver",
           "silver"),
)


def seat_values(state: Any) -> dict[str, list[int]]:
    """The per-seat figures of a finished game (:data:`PER_SEAT`)."""
    seats = range(state.game.players)
    return {"silver": [state.cash(s) + state.treasury(s) for s in seats]}


METRICS = StudyMetrics(
    counter=TarguiCounter,
    per_game=PER_GAME,
    totals=("attacks_failed", "attacks_given_up", "games_with_eliminations"),
    card_fields=CARD_FIELDS,
    card_columns=CARD_COLUMNS,
    card_note="until the round's levy",
    figures=study_figures,
    describe=describe,
    per_seat=PER_SEAT,
    seat_values=seat_values,
    endings=(Figure("last_standing", "ended early (one player left)", "ended early",
                    "more games end early with one player left", "fewer games end early", "%"),),
    usual_end="deck",
)
