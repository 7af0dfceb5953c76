"""A benchmark's child process: run, its report read, and under callgrind its instructions counted.

Each benchmark measures in children (a fresh process a tree, a way, a build), so that what one
measurement loads or fills is never charged to another. A child prints its report as JSON on its
last line. Under ``callgrind`` it runs in valgrind and each part of its work between two marks (a
call of ``os.getppid()``, which nothing else on the measured path calls) is dumped apart: the
instruction counts of the parts, exact under any load.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["run_child"]

_TOTAL = re.compile(r"^(?:summary|totals): (\d+)", re.M)


def run_child(command: list[str], cwd: str | Path | None = None, callgrind: bool = False,
              parts: int = 1) -> tuple[dict[str, Any], list[int]]:
    """Run ``command`` (without this process's PYTHONPATH: a child imports the tree it is given) in
    ``cwd`` (the temporary folder by default) and return its report and, with ``callgrind``, the
    instructions of its first ``parts`` parts (dump 1 is everything before the first mark)."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    with tempfile.TemporaryDirectory(prefix="targui-callgrind-") as marks:
        if callgrind:
            env["PYTHONHASHSEED"] = "0"  # (a set's order, and so a few instructions, the same in every child)
            command = ["valgrind", "--tool=callgrind", "--dump-before=os_getppid*",
                       f"--callgrind-out-file={marks}/cg.out", *command]
        out = subprocess.run(command, check=True, capture_output=True, text=True, env=env,
                             cwd=cwd or tempfile.gettempdir()).stdout
        report = json.loads(out.strip().splitlines()[-1])
        counts = [_instructions(Path(marks) / f"cg.out.{part}") for part in range(2, 2 + parts)] if callgrind else []
    return report, counts


def _instructions(dump: Path) -> int:
    found = _TOTAL.search(dump.read_text())
    if found is None:
        raise SystemExit(f"{dump}: no instruction count in callgrind's output")
    return int(found.group(1))
