"""The ladder of docs/bots.md: a tournament of `random` and the levels on each built-in ruleset.

    python benchmarks/ladder.py [--games 24] [--players 2] [--seed 1] [--out FILE] [--keep DIR] [RULESET ...]
    python benchmarks/ladder.py targi                   (Targi's ladder: its own file, its own levels)
    python benchmarks/ladder.py --merge FILE FILE ...   (lines measured apart, into the shipped file)

Each ruleset's tournament is exactly the command printed with it (`targui tournament
RULESET --bots random,easy,normal,hard ...`, seats rotated through every order; a level is
the ruleset's game's bot); the figures are written to that game's shipped ``ladder.json``
(read by `targui bots --game GAME`) and printed as the Markdown table docs/bots.md holds.
The rulesets named in one run are of one game. With --keep DIR each tournament keeps its
finished games in DIR/RULESET.chunks.jsonl (`targui tournament --out`): the same command
run again goes on where a stopped run was.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from targui_dsl import load_ruleset
from targui_dsl.agents.spec import LEVELS, levels_of
from targui_dsl.games import game_of
from targui_dsl.study.ladder import ladder_path, ladder_row, read_ladder, write_ladder

BUILT_IN = ("original-dutch", "swedish-12", "updated-treasury")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulesets", nargs="*", default=list(BUILT_IN))
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=None, help="write here instead of the game's shipped ladder.json")
    parser.add_argument("--merge", nargs="+", default=None, help="ladder files whose lines to add to the shipped one")
    parser.add_argument("--keep", default=None, help="a folder where each tournament keeps its finished games")
    args = parser.parse_args()
    if args.merge:  # the game of the files' lines
        first = json.loads(Path(args.merge[0]).read_text(encoding="utf-8"))["rulesets"][0]["ruleset"]
        package = game_of(load_ruleset(first))
    else:
        package = game_of(load_ruleset(args.rulesets[0] if args.rulesets else BUILT_IN[0]))
    games = {game_of(load_ruleset(r)).name for r in args.rulesets}
    if games - {package.name}:
        parser.error(f"the rulesets are of {len(games)} games: a ladder file is one game's; run each apart")
    shipped = ladder_path(package)
    assert shipped is not None
    path = Path(args.out) if args.out else shipped
    rows = {row["ruleset"]: row for row in read_ladder(package)} if not args.out else {}
    if args.merge:
        for name in args.merge:
            for row in json.loads(Path(name).read_text(encoding="utf-8"))["rulesets"]:
                rows[row["ruleset"]] = row
        write_ladder([rows[r] for r in sorted(rows)], shipped)
        print(markdown([rows[r] for r in sorted(rows)], package.name))
        return
    bots = ",".join(["random", *LEVELS])
    for ruleset in args.rulesets:
        command = (f"targui tournament {ruleset} --bots {bots} -n {args.games} -p {args.players} "
                   f"--seed {args.seed} -w 1")
        keep = ["--out", str(Path(args.keep) / f"{Path(ruleset).stem}.chunks.jsonl")] if args.keep else []
        out = subprocess.run([sys.executable, "-m", "targui_cli.main", *command.split()[1:], "--json", *keep],
                             check=True, capture_output=True, text=True).stdout
        rows[ruleset] = ladder_row(json.loads(out), command, package.name)
        write_ladder([rows[r] for r in sorted(rows)], path)
        print(f"{ruleset}: done", file=sys.stderr)
    print(markdown([rows[r] for r in sorted(rows)], package.name))


def markdown(rows: list[dict], game: str) -> str:
    level_of = {spelling: level for level, spelling in levels_of(game).items()}
    lines = ["| ruleset | bot | level | wins / games | share (95% CI) | rating (95% CI) |",
             "|---|---|---|---|---|---|"]
    for row in rows:
        for i, bot in enumerate(row["table"]):
            lo, hi = bot["ci"]
            rlo, rhi = bot["rating_ci"]
            share = f"{100 * bot['share']:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%)"
            lines.append(f"| {row['ruleset'] if i == 0 else ''} | `{bot['bot']}` | {level_of.get(bot['bot'], '')} "
                         f"| {bot['wins']:g} / {bot['games']} | {share} | {bot['rating']:.0f} ({rlo:.0f}-{rhi:.0f}) |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
