"""Wins per bot from a study's records (`targui simulate ... --records FILE.jsonl`).

    python benchmarks/wins_per_bot.py FILE.jsonl [FILE.jsonl ...]

`targui simulate` prints wins per bot itself; this reads the per-game rows,
so that a study stopped early (SIGTERM, a deadline) still gives its figures
for the games it finished. Per bot: games seated (a game counts once however
many seats the bot has), games won, the win share and its 95% Wilson interval.
Draws are counted apart and win nothing.
"""

from __future__ import annotations

import json
import sys

from targui_dsl.study.stats import wilson_interval


def main(paths: list[str]) -> None:
    for path in paths:
        games = draws = 0
        seated: dict[str, int] = {}
        won: dict[str, int] = {}
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                row = json.loads(line)
                games += 1
                bots = {value for key, value in row.items() if key.startswith("bot_")}
                for bot in bots:
                    seated[bot] = seated.get(bot, 0) + 1
                if row["draw"]:
                    draws += 1
                elif row["winner_bot"] is not None:
                    won[row["winner_bot"]] = won.get(row["winner_bot"], 0) + 1
        print(f"{path}: {games} games, {draws} draws")
        for bot in sorted(seated):
            wins = won.get(bot, 0)
            low, high = wilson_interval(wins, seated[bot])
            print(f"  {bot:<30} {wins:>4}/{seated[bot]:<4} {100 * wins / seated[bot]:5.1f}%"
                  f"  95% CI {100 * low:.1f}-{100 * high:.1f}%")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
