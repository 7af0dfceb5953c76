"""``--records FILE``: one row per game, as CSV or JSON lines, written as chunks finish.

A row is flat (no nested values), so ``pandas.read_csv`` and
``pandas.read_json(lines=True)`` give the same table: ``game`` (its index in
the study), ``seed`` (the game's own seed), ``winner`` (seat number, empty
for a draw), ``winner_tribe``, ``winner_bot``, ``draw``, ``rounds``,
``end_reason``, ``decisions``, then the game's own per-game figures (its
``StudyMetrics.per_game``, docs/simulate.md), then per seat ``tribe_N``,
``bot_N``, ``score_N`` and per card ``draws_CARD`` (times drawn).
"""

from __future__ import annotations

import csv
import io
import json
import os
from typing import IO, Any, Iterable, Sequence

from targui_dsl.frontend.safefile import check_output, open_output
from targui_dsl.study.games import GameRecord

__all__ = ["RecordWriter", "record_row", "records_format", "keep_rows"]


def record_row(record: GameRecord, deck: Sequence[str]) -> dict[str, Any]:
    """One game as a flat row; ``deck`` lists the ruleset's cards (one column each)."""
    alone = len(record.winners) == 1
    winner = record.winners[0] if alone else None
    row: dict[str, Any] = {
        "game": record.index,
        "seed": record.seed,
        "winner": winner + 1 if winner is not None else None,
        "winner_tribe": record.tribes[winner] if winner is not None else None,
        "winner_bot": record.bots[winner] if winner is not None else None,
        "draw": not alone,
        "rounds": record.rounds,
        "end_reason": record.end_reason,
        "decisions": record.decisions,
        **record.metrics,
    }
    for seat, (tribe, bot, score) in enumerate(zip(record.tribes, record.bots, record.scores, strict=False), start=1):
        row[f"tribe_{seat}"] = tribe
        row[f"bot_{seat}"] = bot
        row[f"score_{seat}"] = score
    for card in deck:
        counts = record.cards.get(card)
        row[f"draws_{card}"] = counts[0] if counts else 0
    return row


def records_format(path: str) -> str:
    """``csv`` for a .csv file, else ``jsonl`` (JSON lines: .jsonl, .ndjson, .json)."""
    return "csv" if os.path.splitext(path)[1].lower() == ".csv" else "jsonl"


class RecordWriter:
    """Appends rows to a file (a CSV header first if the file is empty), flushing after each chunk."""

    def __init__(self, path: str, append: bool = False):
        self.path = path
        self.format = records_format(path)
        # a FIFO, device or socket is refused (NotAFile, an OSError), never waited on
        fd = open_output(path, os.O_WRONLY | os.O_CREAT | (os.O_APPEND if append else os.O_TRUNC))
        self._file: IO[str] = open(fd, "a" if append else "w", encoding="utf-8", newline="")
        self._header_written = append and os.path.getsize(path) > 0
        self._writer: Any = None

    def write(self, rows: Iterable[dict[str, Any]]) -> None:
        if self.format == "jsonl":
            self._file.writelines(json.dumps(row, separators=(",", ":")) + "\n" for row in rows)
        else:
            for row in rows:
                if self._writer is None:
                    self._writer = csv.DictWriter(self._file, fieldnames=list(row), lineterminator="\n")
                    if not self._header_written:
                        self._writer.writeheader()
                        self._header_written = True
                self._writer.writerow({k: "" if v is None else v for k, v in row.items()})
        self._file.flush()

    def close(self) -> None:
        self._file.close()


def keep_rows(path: str, games: set[int] | Any) -> int:
    """Drop the rows of games not in ``games`` (a container of game indices); returns the rows kept.

    Used when a study resumes: rows written for a chunk whose summary did not
    reach the --out file (the process was killed in between) are played again.
    """
    check_output(path)  # reading a FIFO would wait for a writer
    kept = 0
    temporary = path + ".partial"
    fmt = records_format(path)
    with open(path, encoding="utf-8", newline="") as source, \
            open(temporary, "w", encoding="utf-8", newline="") as target:
        if fmt == "csv":
            header = source.readline()
            target.write(header)
            for line in source:
                first = next(csv.reader(io.StringIO(line)), [""])[0]
                if first.isdigit() and int(first) in games and line.endswith("\n"):
                    target.write(line)
                    kept += 1
        else:
            for line in source:
                try:
                    game = json.loads(line)["game"]
                except (ValueError, KeyError, TypeError):
                    continue  # a line cut short when the process was killed
                if game in games:
                    target.write(line)
                    kept += 1
    os.replace(temporary, path)
    return kept
