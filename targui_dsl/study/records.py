"""``--records FILE``: one row per game, as CSV, JSON lines or Parquet, written as chunks finish.

A row is flat (no nested values), so ``pandas.read_csv``,
``pandas.read_json(lines=True)`` and ``pandas.read_parquet`` give the same
table: ``game`` (its index in the study), ``seed`` (the game's own seed),
``winner`` (seat number, empty for a draw), ``winner_tribe``, ``winner_bot``,
``draw``, ``rounds``, ``end_reason``, ``decisions``, then the game's own
per-game figures (its ``StudyMetrics.per_game``, docs/simulate.md), then per
seat ``tribe_N``, ``bot_N``, ``score_N`` and per card ``draws_CARD`` (times drawn).

The format is the file's extension's (.csv; .jsonl, .ndjson or .json; .parquet)
or the one named (``--records-format``); any other extension is refused rather
than guessed. Parquet (pyarrow: the `parquet` extra) keeps the
column types: integers stay integers, ``winner`` is an integer column whose
draws are null, read by pandas as its nullable ``Int64``.
"""

from __future__ import annotations

import csv
import io
import json
import os
from typing import IO, Any, Iterable, Sequence

from targui_dsl.frontend.safefile import check_output, open_output
from targui_dsl.study.games import GameRecord

__all__ = ["RECORD_FORMATS", "RecordWriter", "RecordsFormatError", "record_row", "records_format", "keep_rows"]


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
        for name, values in record.seats.items():  # the game's per-seat figures at the end: `silver_1`
            row[f"{name}_{seat}"] = values[seat - 1]
    for card in deck:
        counts = record.cards.get(card)
        row[f"draws_{card}"] = counts[0] if counts else 0
    return row


#: The formats of --records files, and the extensions that choose each.
RECORD_FORMATS: dict[str, tuple[str, ...]] = {
    "csv": (".csv",),
    "jsonl": (".jsonl", ".ndjson", ".json"),
    "parquet": (".parquet", ".pq"),
}

# Column types for Parquet: a column is an integer unless named here (a draw's
# winner columns are null, so their type cannot be read from the values).
_STRING_COLUMNS = ("winner_tribe", "winner_bot", "end_reason")
_STRING_PREFIXES = ("tribe_", "bot_")
_UNSIGNED_COLUMNS = ("seed",)  # 64-bit seeds: beyond a signed integer's range


class RecordsFormatError(ValueError):
    """A records file whose format cannot be told (or is not written here)."""


def records_format(path: str, given: str | None = None) -> str:
    """``csv``, ``jsonl`` or ``parquet``: ``given`` if named, else by the file's extension
    (RecordsFormatError for any other extension: a wrong guess would write a file that
    its own name misdescribes)."""
    if given is not None:
        if given not in RECORD_FORMATS:
            raise RecordsFormatError(f"unknown records format `{given}` (formats: {', '.join(RECORD_FORMATS)})")
        return given
    extension = os.path.splitext(path)[1].lower()
    for fmt, extensions in RECORD_FORMATS.items():
        if extension in extensions:
            return fmt
    known = ", ".join(e for extensions in RECORD_FORMATS.values() for e in extensions)
    raise RecordsFormatError(f"cannot tell the format of {path} from its extension `{extension or '(none)'}`: "
                             f"name the file with one of {known}, or give --records-format csv, jsonl or parquet")


def _arrow() -> Any:
    try:
        import pyarrow
        import pyarrow.parquet  # noqa: F401 - the writer lives in the submodule
    except ImportError:
        raise RecordsFormatError("Parquet records need pyarrow: pip install pyarrow "
                                 "(or write .csv or .jsonl)") from None
    return pyarrow


def _arrow_schema(pa: Any, columns: Sequence[str]) -> Any:
    fields = []
    for name in columns:
        if name == "draw":
            kind = pa.bool_()
        elif name in _STRING_COLUMNS or name.startswith(_STRING_PREFIXES):
            kind = pa.string()
        elif name in _UNSIGNED_COLUMNS:
            kind = pa.uint64()
        else:
            kind = pa.int64()
        fields.append(pa.field(name, kind))
    # pandas reads an integer column with nulls as float unless told: `winner` is its nullable Int64
    pandas = {"index_columns": [], "column_indexes": [], "columns": [
        {"name": "winner", "field_name": "winner", "pandas_type": "int64", "numpy_type": "Int64", "metadata": None}]}
    return pa.schema(fields).with_metadata({b"pandas": json.dumps(pandas).encode()})


class RecordWriter:
    """Appends rows to a file (a CSV header first if the file is empty), flushing after each chunk.

    A Parquet file gets one row group per chunk and is complete when closed (Parquet
    files cannot be appended to: ``append`` is refused for them)."""

    def __init__(self, path: str, append: bool = False, fmt: str | None = None):
        self.path = path
        self.format = records_format(path, fmt)
        self._writer: Any = None
        if self.format == "parquet":
            if append:
                raise RecordsFormatError(f"{path}: a Parquet file cannot be continued; write the records of a "
                                         "resumable study (--out) as .csv or .jsonl")
            self._pa = _arrow()
        # a FIFO, device or socket is refused (NotAFile, an OSError), never waited on
        fd = open_output(path, os.O_WRONLY | os.O_CREAT | (os.O_APPEND if append else os.O_TRUNC))
        if self.format == "parquet":
            self._file: IO[Any] = open(fd, "wb")
            return
        self._file = open(fd, "a" if append else "w", encoding="utf-8", newline="")
        self._header_written = append and os.path.getsize(path) > 0

    def write(self, rows: Iterable[dict[str, Any]]) -> None:
        if self.format == "parquet":
            rows = list(rows)
            if not rows:
                return
            if self._writer is None:
                self._schema = _arrow_schema(self._pa, list(rows[0]))
                self._writer = self._pa.parquet.ParquetWriter(self._file, self._schema)
            self._writer.write_table(self._pa.Table.from_pylist(rows, schema=self._schema))
        elif self.format == "jsonl":
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
        if self.format == "parquet" and self._writer is not None:
            self._writer.close()  # the footer: without it the file cannot be read
        self._file.close()


def keep_rows(path: str, games: set[int] | Any, fmt: str | None = None) -> int:
    """Drop the rows of games not in ``games`` (a container of game indices); returns the rows kept.

    Used when a study resumes: rows written for a chunk whose summary did not
    reach the --out file (the process was killed in between) are played again.
    """
    check_output(path)  # reading a FIFO would wait for a writer
    kept = 0
    temporary = path + ".partial"
    fmt = records_format(path, fmt)
    if fmt == "parquet":
        raise RecordsFormatError(f"{path}: a Parquet file cannot be continued")
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
