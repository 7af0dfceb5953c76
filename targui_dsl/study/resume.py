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

import fcntl
import json
import os
from typing import TYPE_CHECKING, Any

from targui_dsl.frontend.safefile import open_output

if TYPE_CHECKING:
    from targui_dsl.study.chunks import GamePlan

__all__ = ["StudyFile", "StudyLocked", "StudyMismatch"]


class StudyMismatch(ValueError):
    """The --out file holds another study (or is not a study file)."""


def _differences(theirs: dict[str, Any], ours: dict[str, Any]) -> str:
    names = {"rules": "the rules"}
    keys = [k for k in ours if k != "ruleset" and theirs.get(k) != ours[k]]
    if not keys:
        return "it was written by another version of targui"
    return ", ".join(f"{names.get(k, k)} {theirs.get(k)!r} here, {ours[k]!r} now" if k != "rules"
                     else "the rules differ (the ruleset or a file it extends changed)" for k in keys)


class StudyLocked(StudyMismatch):
    """Another targui process is running a study with this --out file now."""


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


class StudyFile:
    """The --out file of one study: the chunks it already holds, and appending new ones.

    The file is opened (made if missing) and locked (``flock``, exclusive,
    non-blocking) at once, before it is read, and stays locked until
    :meth:`close`: a second targui on the same file is refused
    (:class:`StudyLocked`), as for ``play --log``. A FIFO, device or socket is
    refused without waiting (:class:`~targui_dsl.frontend.safefile.NotAFile`,
    an OSError). A file that holds anything but this study is refused and
    left as it is, whatever its last byte.
    """

    def __init__(self, path: str, study: GamePlan):
        self.path = path
        self.study = study
        self.done: set[int] = set()  # chunks already in the file
        self.summary = study.new_summary()  # what they add up to
        self._fd: int | None = open_output(path, os.O_RDWR | os.O_CREAT)
        try:
            try:
                fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise StudyLocked(f"another targui is running a study with {path} now; wait for it "
                                  "to finish or use another --out file") from None
            self._read()
        except BaseException:
            self.close()
            raise
        self._size = os.lseek(self._fd, 0, os.SEEK_END)

    def _header_text(self) -> str:
        header = {"format": self.study.file_format, "fingerprint": self.study.fingerprint,
                  "study": self.study.describe(), "chunks": self.study.chunk_count}
        return json.dumps(header)

    def _read(self) -> None:
        assert self._fd is not None
        size = os.fstat(self._fd).st_size
        if size == 0:
            return
        with open(os.dup(self._fd), "rb") as f:
            f.seek(0)
            lines = f.read().split(b"\n")
        if len(lines) == 1 and self._header_text().encode().startswith(lines[0]):
            os.ftruncate(self._fd, 0)  # our own header, cut short by a kill before any chunk was kept
            return
        good_bytes = 0
        for number, raw in enumerate(lines):
            last = number == len(lines) - 1
            if last and not raw:
                break
            try:
                entry = json.loads(raw)
                if not isinstance(entry, dict):
                    raise ValueError
            except ValueError:
                if last and number > 0:  # a chunk cut short by a kill: drop it, play that chunk again
                    break
                raise StudyMismatch(f"{self.path} line {number + 1} is not a study record; "
                                    "use another --out file") from None
            if number == 0:
                self._check_header(entry)
            else:
                self._take(entry, number + 1)
            good_bytes += len(raw) + 1
        if good_bytes < size:
            os.ftruncate(self._fd, good_bytes)

    def _check_header(self, header: dict[str, Any]) -> None:
        kind = self.study.file_format.split("/")[0].removeprefix("targui-")  # study, tournament
        if header.get("format") != self.study.file_format:
            raise StudyMismatch(f"{self.path} is not a targui {kind} file; use another --out file")
        if header.get("fingerprint") != self.study.fingerprint:
            study = header.get("study")
            theirs: dict[str, Any] = study if isinstance(study, dict) else {}
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
        """Record a finished chunk (written at once: a kill a moment later keeps it)."""
        if self._fd is None:
            raise ValueError(f"{self.path} is closed")
        text = ""
        if self._size == 0:
            text = self._header_text() + "\n"
        chunk = self.study.chunk(index)
        text += json.dumps({"chunk": index, "start": chunk.start, "stop": chunk.stop,
                            "summary": summary.to_json()}, separators=(",", ":")) + "\n"
        data = text.encode("utf-8")
        os.lseek(self._fd, self._size, os.SEEK_SET)
        _write_all(self._fd, data)
        self._size += len(data)
        self.done.add(index)

    def close(self) -> None:
        """Close the file, releasing its lock."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> StudyFile:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        if getattr(self, "_fd", None) is not None:
            self.close()  # a StudyFile only read and dropped releases its lock too
