"""`targui bots`: the bots there are, how each is spelled, and its parameters."""

from __future__ import annotations

import click

from targui_cli.common import echo_json, fail, format_option, wants_json
from targui_dsl.agents import DEFAULT_BOTS, describe_bots
from targui_dsl.agents.spec import LEVELS, bots_of, defaults_of
from targui_dsl.games import game_package
from targui_dsl.study.ladder import LadderError, read_ladder


@click.command(short_help="List the bots and how to spell them.")
@format_option
def bots(output_format: str, as_json: bool) -> None:
    """List the bots every command knows, with their parameters.

    A bot is spelled `kind` or `kind:name=value:name=value`, the same in
    `play --bots`, `simulate --bots`, `compare --bots` and studies. A list of
    bots is comma-separated, one per seat; a shorter list repeats its last
    bot. When no bots are named, every seat gets the default bot.

    With --format json: every bot's name, summary and parameters (name,
    type, default, minimum, maximum, help), the default bots, the levels
    and the ladder's lines.

    docs/bots.md describes how each bot plays.

    \b
    Exit status: 0 (2 for a usage error).

    \b
    Examples:
      targui bots
      targui bots --format json
      targui play original-dutch --bots greedy,random
      targui play swedish-12 --human 1 --bots hard
    """
    try:
        ladder = read_ladder(game_package())
    except LadderError as err:
        fail(str(err))
    if wants_json(output_format, as_json):
        kinds = bots_of()
        echo_json({
            "bots": [{"name": name, "summary": kinds[name].summary,
                      # the default game's defaults, as the text lists them (a game may give its own)
                      "parameters": [{"name": p.name, "type": p.kind.__name__,
                                      "default": defaults_of(kinds[name])[p.name],
                                      "minimum": p.minimum, "maximum": p.maximum, "help": p.help}
                                     for p in kinds[name].params]}
                     for name in sorted(kinds)],
            "default": DEFAULT_BOTS,
            "levels": LEVELS,
            "ladder": ladder,
        })
        return
    click.echo(describe_bots())
    click.echo(f"\ndefault: {DEFAULT_BOTS} (in every seat)")
    click.echo("\nlevels: " + ", ".join(f"{level} = {spelling}" for level, spelling in LEVELS.items()))
    if not ladder:
        click.echo("measured strength: not measured yet (benchmarks/ladder.py)")
    for row in ladder:
        rated = {bot["bot"]: bot for bot in row["table"]}
        click.echo(f"{row['ruleset']}, {row['players']} players, {row['games']} games: `{row['command']}`")
        for level, spelling in LEVELS.items():
            bot = rated.get(spelling)
            if bot is not None:
                low, high = bot["rating_ci"]
                click.echo(f"  {level:<7} rating {bot['rating']:.0f} ({low:.0f}-{high:.0f}), "
                           f"wins {100 * bot['share']:.1f}% of {bot['games']} games")
