"""Mergeable partial summaries of games: what a chunk of games sends back instead of its games.

Every figure is an integer count, sum, sum of squares, minimum, maximum or
histogram, so merging is exact and does not depend on the order in which
chunks finish: any split of a study into chunks, run by any executor, merges
into the same :class:`StudySummary`. Sums of squares are Python integers:
large scores cannot overflow them into ``inf``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence, TypeVar

from targui_dsl.study.games import GameRecord

_T = TypeVar("_T")

__all__ = ["Moments", "StudySummary", "GENERAL_METRICS"]

# Per-game figures of every game, kept as moments (mean, sd, min, max, total) and compared with
# Welch's t-test: rounds first, decisions last; a game's own (its StudyMetrics.per_game) in between.
GENERAL_METRICS = ("rounds", "decisions")


@dataclass
class Moments:
    """n, sum, sum of squares, min and max of whole numbers: enough for a mean and a standard deviation."""

    n: int = 0
    total: int = 0
    squares: int = 0
    min: int | None = None
    max: int | None = None

    def add(self, value: int) -> None:
        self.n += 1
        self.total += value
        self.squares += value * value
        if self.min is None or value < self.min:
            self.min = value
        if self.max is None or value > self.max:
            self.max = value

    def add_all(self, values: Sequence[int]) -> None:
        """Count every value in (as :meth:`add` one by one, summed by the built-ins)."""
        if not values:
            return
        self.n += len(values)
        self.total += sum(values)
        self.squares += sum(v * v for v in values)
        low, high = min(values), max(values)
        if self.min is None or low < self.min:
            self.min = low
        if self.max is None or high > self.max:
            self.max = high

    def merge(self, other: Moments) -> Moments:
        low, high = self.min, self.max
        if other.min is not None and (low is None or other.min < low):
            low = other.min
        if other.max is not None and (high is None or other.max > high):
            high = other.max
        return Moments(self.n + other.n, self.total + other.total, self.squares + other.squares, low, high)

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else 0.0

    @property
    def sd(self) -> float:
        """The sample standard deviation (n - 1), exact up to the final division; 0 below two values."""
        if self.n < 2:
            return 0.0
        # n * sum(x^2) - (sum x)^2 is exact in integers: no cancellation, no overflow
        return math.sqrt((self.n * self.squares - self.total * self.total) / (self.n * (self.n - 1)))

    def to_json(self) -> list[int | None]:
        return [self.n, self.total, self.squares, self.min, self.max]

    @classmethod
    def from_json(cls, data: list) -> Moments:
        n, total, squares, low, high = data
        return cls(int(n), int(total), int(squares), low, high)


def _gather(columns: dict[str, list[_T]], values: Mapping[str, _T]) -> None:
    """Append each of one game's named values to its column (a chunk's values gathered by name)."""
    for name, value in values.items():
        column = columns.get(name)
        if column is None:
            columns[name] = [value]
        else:
            column.append(value)


def _merge_counts(a: dict, b: dict) -> dict:
    merged = dict(a)
    for key, n in b.items():
        merged[key] = merged.get(key, 0) + n
    return merged


def _merge_cards(a: dict[str, list[int]], b: dict[str, list[int]]) -> dict[str, list[int]]:
    merged = {card: list(counts) for card, counts in a.items()}
    for card, counts in b.items():
        into = merged.get(card)
        if into is None:
            merged[card] = list(counts)
        else:
            merged[card] = [x + y for x, y in zip(into, counts, strict=False)]
    return merged


def _merge_moments(a: dict[str, Moments], b: dict[str, Moments]) -> dict[str, Moments]:
    return {name: a.get(name, Moments()).merge(b.get(name, Moments())) for name in {**a, **b}}


#: The keys of a summary's JSON that are not a game's own figures.
_GENERAL_KEYS = frozenset({"games", "tribes", "wins_by_seat", "wins_by_bot", "draws", "end_reasons",
                           "rounds_histogram", *GENERAL_METRICS, "scores", "cards",
                           "per_seat"})


@dataclass
class StudySummary:
    """What some games of one study add up to (seat lists in seat order; ``tribes`` empty until a game).
    ``metrics``, ``totals`` and ``cards`` hold the game's own figures (see :class:`GameRecord`)."""

    games: int = 0
    tribes: tuple[str, ...] = ()
    wins_by_seat: tuple[int, ...] = ()
    wins_by_bot: dict[str, int] = field(default_factory=dict)
    draws: int = 0
    end_reasons: dict[str, int] = field(default_factory=dict)
    rounds_histogram: dict[int, int] = field(default_factory=dict)
    rounds: Moments = field(default_factory=Moments)
    decisions: Moments = field(default_factory=Moments)
    metrics: dict[str, Moments] = field(default_factory=dict)
    totals: dict[str, int] = field(default_factory=dict)
    scores: tuple[Moments, ...] = ()  # per seat
    cards: dict[str, list[int]] = field(default_factory=dict)
    per_seat: dict[str, tuple[Moments, ...]] = field(default_factory=dict)  # the game's figures per seat

    @classmethod
    def of(cls, records: Iterable[GameRecord]) -> StudySummary:
        summary = cls()
        summary.add_all(records)
        return summary

    def add(self, record: GameRecord) -> None:
        """Count one game in (in place)."""
        self.add_all((record,))

    def add_all(self, records: Iterable[GameRecord]) -> None:
        """Count games in (in place), a chunk at once: each figure's values are gathered in a
        column, then summed, squared and compared by the built-ins (a game at a time cost as much
        as a thirtieth of a random game)."""
        records = list(records)
        if not records:
            return
        if not self.tribes:
            self.tribes = tuple(records[0].tribes)
            self.wins_by_seat = (0,) * len(self.tribes)
            self.scores = tuple(Moments() for _ in self.tribes)
        wins = list(self.wins_by_seat)
        wins_by_bot, end_reasons, histogram = self.wins_by_bot, self.end_reasons, self.rounds_histogram
        metrics: dict[str, list[int]] = {}
        totals = self.totals
        seats: dict[str, list[list[int]]] = {}
        cards: dict[str, list[list[int]]] = {}
        for record in records:
            if record.tribes != self.tribes and tuple(record.tribes) != self.tribes:
                raise ValueError("games of one study seat the same tribes")
            if len(record.winners) == 1:
                seat = record.winners[0]
                wins[seat] += 1
                bot = record.bots[seat]
                wins_by_bot[bot] = wins_by_bot.get(bot, 0) + 1
            else:
                self.draws += 1
            end_reasons[record.end_reason] = end_reasons.get(record.end_reason, 0) + 1
            histogram[record.rounds] = histogram.get(record.rounds, 0) + 1
            _gather(metrics, record.metrics)
            for name, value in record.totals.items():
                totals[name] = totals.get(name, 0) + value
            _gather(seats, record.seats)
            _gather(cards, record.cards)
        self.games += len(records)
        self.wins_by_seat = tuple(wins)
        self.rounds.add_all([record.rounds for record in records])
        self.decisions.add_all([record.decisions for record in records])
        for name, column in metrics.items():
            moments = self.metrics.get(name)
            if moments is None:
                moments = self.metrics[name] = Moments()
            moments.add_all(column)
        for moments, seat_scores in zip(self.scores, zip(*(record.scores for record in records), strict=False),
                                        strict=False):
            moments.add_all(seat_scores)
        for name, rows in seats.items():
            per_seat = self.per_seat.get(name)
            if per_seat is None:
                per_seat = self.per_seat[name] = tuple(Moments() for _ in self.tribes)
            for moments, seat_values in zip(per_seat, zip(*rows, strict=False), strict=False):
                moments.add_all(seat_values)
        for card, rows in cards.items():
            sums = [sum(field) for field in zip(*rows, strict=False)]
            into = self.cards.get(card)
            self.cards[card] = sums if into is None else [x + y for x, y in zip(into, sums, strict=False)]

    def merge(self, other: StudySummary) -> StudySummary:
        """The summary of both sets of games (neither is changed)."""
        if not other.tribes:
            return self.copy()
        if not self.tribes:
            return other.copy()
        if self.tribes != other.tribes:
            raise ValueError("cannot merge summaries of games that seat different tribes")
        return StudySummary(
            games=self.games + other.games,
            tribes=self.tribes,
            wins_by_seat=tuple(a + b for a, b in zip(self.wins_by_seat, other.wins_by_seat, strict=False)),
            wins_by_bot=_merge_counts(self.wins_by_bot, other.wins_by_bot),
            draws=self.draws + other.draws,
            end_reasons=_merge_counts(self.end_reasons, other.end_reasons),
            rounds_histogram=_merge_counts(self.rounds_histogram, other.rounds_histogram),
            rounds=self.rounds.merge(other.rounds),
            decisions=self.decisions.merge(other.decisions),
            metrics=_merge_moments(self.metrics, other.metrics),
            totals=_merge_counts(self.totals, other.totals),
            scores=tuple(a.merge(b) for a, b in zip(self.scores, other.scores, strict=False)),
            cards=_merge_cards(self.cards, other.cards),
            per_seat={name: tuple(a.merge(b) for a, b in zip(self._seats(name), other._seats(name), strict=True))
                      for name in sorted(self.per_seat.keys() | other.per_seat.keys())},
        )

    def _seats(self, name: str) -> tuple[Moments, ...]:
        """A per-seat figure's moments, none counted yet when no game of these had it."""
        return self.per_seat.get(name) or tuple(Moments() for _ in self.tribes)

    def copy(self) -> StudySummary:
        """A copy sharing nothing that changes (every figure's lists and moments are new)."""
        def moments(m: Moments) -> Moments:
            return Moments(m.n, m.total, m.squares, m.min, m.max)

        # in the order a copy read back from its JSON has (to_json sorts these): tables list them so
        return StudySummary(
            self.games, self.tribes, self.wins_by_seat, dict(sorted(self.wins_by_bot.items())), self.draws,
            dict(sorted(self.end_reasons.items())), dict(sorted(self.rounds_histogram.items())),
            moments(self.rounds), moments(self.decisions), {name: moments(m) for name, m in self.metrics.items()},
            dict(self.totals), tuple(moments(m) for m in self.scores),
            {card: list(counts) for card, counts in sorted(self.cards.items())},
            {name: tuple(moments(m) for m in seats) for name, seats in sorted(self.per_seat.items())})

    # JSON, for the --out file of a resumable study --------------------------------
    # One flat object, as before games had their own figures: rounds, the game's per-game
    # figures, decisions, the game's totals, scores, cards (a --out file of an older run resumes).

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "tribes": list(self.tribes),
            "wins_by_seat": list(self.wins_by_seat),
            "wins_by_bot": dict(sorted(self.wins_by_bot.items())),
            "draws": self.draws,
            "end_reasons": dict(sorted(self.end_reasons.items())),
            "rounds_histogram": {str(k): v for k, v in sorted(self.rounds_histogram.items())},
            "rounds": self.rounds.to_json(),
            **{name: m.to_json() for name, m in self.metrics.items()},
            "decisions": self.decisions.to_json(),
            **self.totals,
            "scores": [m.to_json() for m in self.scores],
            "cards": {card: list(counts) for card, counts in sorted(self.cards.items())},
            "per_seat": {name: [m.to_json() for m in seats] for name, seats in sorted(self.per_seat.items())},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> StudySummary:
        own = {key: value for key, value in data.items() if key not in _GENERAL_KEYS}
        return cls(
            games=int(data["games"]),
            tribes=tuple(data["tribes"]),
            wins_by_seat=tuple(int(n) for n in data["wins_by_seat"]),
            wins_by_bot={str(k): int(v) for k, v in data["wins_by_bot"].items()},
            draws=int(data["draws"]),
            end_reasons={str(k): int(v) for k, v in data["end_reasons"].items()},
            rounds_histogram={int(k): int(v) for k, v in data["rounds_histogram"].items()},
            rounds=Moments.from_json(data["rounds"]),
            decisions=Moments.from_json(data["decisions"]),
            # the game's own figures: moments are lists, totals whole numbers
            metrics={str(k): Moments.from_json(v) for k, v in own.items() if isinstance(v, list)},
            totals={str(k): int(v) for k, v in own.items() if not isinstance(v, list)},
            scores=tuple(Moments.from_json(m) for m in data["scores"]),
            cards={str(card): [int(n) for n in values] for card, values in data["cards"].items()},
            # a --out file of an older run has none: its games count from here on
            per_seat={str(name): tuple(Moments.from_json(m) for m in seats)
                      for name, seats in data.get("per_seat", {}).items()},
        )
