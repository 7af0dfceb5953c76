"""The ladder: every level's measured strength on each built-in ruleset, as a data file.

``benchmarks/ladder.py`` plays a ``targui tournament`` per built-in ruleset with
the levels (and ``random``, the floor) and writes what it measured to
``ladder.json`` in the game's shipped folder (``GamePackage.trained``), with
the command that reproduces each line. ``targui bots`` shows it; docs/bots.md
prints the same table. Nothing here is measured by hand: no figure is written
in code. A line keeps every bot's settings as measured (``settings``: each
parameter's value), so a line measured before a bot's defaults changed is
told apart (:func:`changed_since`) instead of shown as today's strength.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from targui_dsl.agents.spec import parse_bot
from targui_dsl.engine.bots import BotSpecError
from targui_dsl.engine.protocol import GamePackage

__all__ = ["FORMAT", "LadderError", "changed_since", "ladder_path", "ladder_row", "read_ladder", "write_ladder"]

FORMAT = "targui-ladder/1"
MAX_BYTES = 1 << 20


class LadderError(ValueError):
    """A ladder file that is not one (one line, why)."""


def ladder_path(package: GamePackage) -> Path | None:
    return Path(package.trained) / "ladder.json" if package.trained else None


def ladder_row(tournament: dict[str, Any], command: str, game: str) -> dict[str, Any]:
    """One ruleset's line of the ladder from a tournament's figures (`targui tournament --json`)
    of ``game``, with each bot's settings as played."""
    return {
        "ruleset": tournament["ruleset"], "players": tournament["players"], "games": tournament["games"],
        "seed": tournament["seed"], "command": command,
        "table": [{"bot": row["bot"], "games": row["games"], "wins": row["wins"], "share": row["share"],
                   "ci": row["ci"], "rating": row["rating"], "rating_ci": row["rating_ci"]}
                  for row in tournament["table"]],
        "settings": {row["bot"]: dict(parse_bot(row["bot"], game).params) for row in tournament["table"]},
    }


def changed_since(row: dict[str, Any], game: str) -> list[str] | None:
    """The bots of a ladder line whose settings today differ from those it was measured with
    (a parameter added since is not counted); None for a line that recorded no settings."""
    recorded = row.get("settings")
    if not isinstance(recorded, dict):
        return None
    changed = []
    for bot in row["table"]:
        then = recorded.get(bot["bot"])
        try:
            now = parse_bot(bot["bot"], game).params
        except BotSpecError:  # a bot this targui no longer spells so
            changed.append(bot["bot"])
            continue
        if not isinstance(then, dict) or any(name not in now or now[name] != value for name, value in then.items()):
            changed.append(bot["bot"])
    return changed


def write_ladder(rows: list[dict[str, Any]], path: Path) -> None:
    path.write_text(json.dumps({"format": FORMAT, "rulesets": rows}, indent=1) + "\n", encoding="utf-8")


def read_ladder(package: GamePackage) -> list[dict[str, Any]]:
    """The ladder's lines for ``package``'s built-in rulesets ([] when it has none); LadderError
    for a file that is not a ladder (every number checked finite)."""
    path = ladder_path(package)
    if path is None or not path.is_file():
        return []
    data = path.read_bytes()[:MAX_BYTES + 1]
    try:
        doc = json.loads(data.decode("utf-8"))
        rows = doc["rulesets"] if doc.get("format") == FORMAT else None
        if not isinstance(rows, list):
            raise LadderError(f"{path}: not a {FORMAT} file")
        for row in rows:
            for bot in row["table"]:
                numbers = [bot["rating"], *bot["rating_ci"], bot["share"], *bot["ci"]]
                if not all(isinstance(v, (int, float)) and math.isfinite(v) for v in numbers):
                    raise LadderError(f"{path}: a figure of {row['ruleset']} is not a finite number")
    except (UnicodeDecodeError, ValueError, KeyError, TypeError, AttributeError) as err:
        if isinstance(err, LadderError):
            raise
        raise LadderError(f"{path}: not a {FORMAT} file ({err})") from None
    return rows
