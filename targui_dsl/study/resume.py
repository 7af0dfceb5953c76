"""``--out PATH``: a resumable study as JSON lines, one finished chunk a line.

The first line says which study the file holds::

    {"format": "targui-study/1", "fingerprint": "…", "study": {"ruleset": …, "games": …, …}, "chunks": 200}

and each further line is one finished chunk and its partial summary::

    {"chunk": 17, "start": 1700, "stop": 1800, "summary": {…}}

Chunks are appended as they finish, in any order. Running the same study
with the same file plays only the chunks that are missing; a file holding
another study is refused (:class:`StudyMismatch`). A last line cut short
(the process killed while writing it) is ignored and its chunk played again.
"""

from __future__ import annotations

import json
import os
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from targui_dsl.study.chunks import GamePlan

__all__ = ["StudyFile", "StudyMismatch"]


class StudyMismatch(ValueError):
    """The --out file holds another study (or is not a study file)."""


def _differences(theirs: dict[str, Any], ours: dict[str, Any]) -> str:
    names = {"rules": "the rules"}
    keys = [k for k in ours if k != "ruleset" and theirs.get(k) != ours[k]]
    if not keys:
        return "it was written by another version of targui"
    return ", ".join(f"{names.get(k, k)} {theirs.get(k)!r} here, {ours[k]!r} now" if k != "rules"
                     else "the rules differ (the ruleset or a file it extends changed)" for k in keys)


class StudyFile:
    """The --out file of one study: the chunks it already holds, and appending new ones."""

    def __init__(self, path: str, study: GamePlan):
        self.path = path
        self.study = study
        self.done: set[int] = set()  # chunks already in the file
        self.summary = study.new_summary()  # what they add up to
        self._file: IO[str] | None = None
        self._read()

    def _read(self) -> None:
        if not os.path.exists(self.path) or os.path.getsize(self.path) == 0:
            return
        good_bytes = 0
        with open(self.path, "rb") as f:
            lines = f.read().split(b"\n")
        for number, raw in enumerate(lines):
            last = number == len(lines) - 1
            if last and not raw:
                break
            try:
                entry = json.loads(raw)
                if not isinstance(entry, dict):
                    raise ValueError
            except ValueError:
                if last:  # cut short by a kill: drop it, play that chunk again
                    break
                raise StudyMismatch(f"{self.path} line {number + 1} is not a study record; "
                                    "use another --out file") from None
            if number == 0:
                self._check_header(entry)
            else:
                self._take(entry, number + 1)
            good_bytes += len(raw) + 1
        if good_bytes < os.path.getsize(self.path):
            with open(self.path, "r+b") as f:
                f.truncate(good_bytes)

    def _check_header(self, header: dict[str, Any]) -> None:
        kind = self.study.file_format.split("/")[0].removeprefix("targui-")  # study, tournament
        if header.get("format") != self.study.file_format:
            raise StudyMismatch(f"{self.path} is not a targui {kind} file; use another --out file")
        if header.get("fingerprint") != self.study.fingerprint:
            described = header.get("study")
            theirs: dict[str, Any] = described if isinstance(described, dict) else {}
            raise StudyMismatch(f"{self.path} holds another {kind} ({_differences(theirs, self.study.describe())});"
                                " run its own command to continue it, or use another --out file")

    def _take(self, entry: dict[str, Any], line: int) -> None:
        try:
            index = int(entry["chunk"])
            chunk = self.study.chunk(index)
            if not 0 <= index < self.study.chunk_count or (entry["start"], entry["stop"]) != (chunk.start, chunk.stop):
                raise ValueError
            if index in self.done:
                raise ValueError
            summary = self.study.summary_from_json(entry["summary"])
        except (KeyError, TypeError, ValueError):
            raise StudyMismatch(f"{self.path} line {line} is not a chunk of this study; "
                                "use another --out file") from None
        self.done.add(index)
        self.summary = self.summary.merge(summary)

    def append(self, index: int, summary: Any) -> None:
        """Record a finished chunk (written and flushed at once: a kill a moment later keeps it)."""
        if self._file is None:
            fresh = not os.path.exists(self.path) or os.path.getsize(self.path) == 0
            self._file = open(self.path, "a", encoding="utf-8")
            if fresh:
                header = {"format": self.study.file_format, "fingerprint": self.study.fingerprint,
                          "study": self.study.describe(), "chunks": self.study.chunk_count}
                self._file.write(json.dumps(header) + "\n")
        chunk = self.study.chunk(index)
        self._file.write(json.dumps({"chunk": index, "start": chunk.start, "stop": chunk.stop,
                                     "summary": summary.to_json()}, separators=(",", ":")) + "\n")
        self._file.flush()
        self.done.add(index)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
