"""An earlier revision of this repository, for the benchmarks that measure side by side with it."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def unpack(revision: str, into: Path) -> Path:
    """The tree of ``revision`` of this repository, unpacked (``git archive``) under ``into``."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision], check=True, capture_output=True).stdout
    into.mkdir(parents=True, exist_ok=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into
