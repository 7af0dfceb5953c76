"""`targui bots`: a game's bots, how each is spelled, its parameters, levels and measured ladder."""

from __future__ import annotations

import click

from targui_cli.common import echo_json, fail, format_option, wants_json
from targui_dsl.agents import DEFAULT_BOTS, describe_bots
from targui_dsl.agents.spec import bots_of, defaults_of, levels_of
from targui_dsl.frontend.diagnostics import did_you_mean
from targui_dsl.games import DEFAULT_GAME, GAMES, game_package
from targui_dsl.study.ladder import LadderError, changed_since, read_ladder


def _game(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """A game's name as `ruleset: game:` spells it; anything else a usage error with a hint."""
    if value in GAMES:
        return value
    hint = did_you_mean(value, GAMES)
    raise click.BadParameter(f"no game `{value}`" + (f"; {hint}" if hint else "")
                             + f" (targui plays: {', '.join(sorted(GAMES))})")


@click.command(short_help="List a game's bots, levels and measured ladder.")
@click.option("--game", "game", default=DEFAULT_GAME, show_default=True, callback=_game, metavar="GAME",
              help=f"The game whose bots to list ({', '.join(sorted(GAMES))}): a ruleset's `game:`.")
@format_option
def bots(game: str, output_format: str, as_json: bool) -> None:
    """List the bots a game's commands know, with their parameters, the
    levels and the strength the ladder measured.

    A bot is spelled `kind` or `kind:name=value:name=value`, the same in
    `play --bots`, `simulate --bots`, `compare --bots` and studies. A list of
    bots is comma-separated, one per seat; a shorter list repeats its last
    bot. When no bots are named, every seat gets the default bot.

    The levels `easy`, `normal` and `hard` name one real bot each; a game may
    give a level its own bot (`hard` is a step up that game can afford), so
    they are listed per game, with what the ladder measured for each on the
    game's built-in rulesets.

    With --format json: the game, every bot's name, summary and parameters
    (name, type, the game's default, minimum, maximum, help), the default
    bots, the levels and the ladder's lines (each with the bots' settings
    as measured and `changed`: the bots whose settings differ today, null
    for a line that kept none).

    docs/bots.md describes how each bot plays.

    \b
    Exit status: 0; 1 for a ladder file that cannot be read; 2 for a usage
    error (a game targui does not play).

    \b
    Examples:
      targui bots
      targui bots --game targi
      targui bots --format json
      targui play original-dutch --bots greedy,random
      targui play swedish-12 --human 1 --bots hard
    """
    try:
        ladder = read_ladder(game_package(game))
    except LadderError as err:
        fail(str(err))
    levels = levels_of(game)
    if wants_json(output_format, as_json):
        kinds = bots_of(game)
        echo_json({
            "game": game,
            "bots": [{"name": name, "summary": kinds[name].summary,
                      "parameters": [{"name": p.name, "type": p.kind.__name__,
                                      "default": defaults_of(kinds[name], game)[p.name],
                                      "minimum": p.minimum, "maximum": p.maximum, "help": p.help}
                                     for p in kinds[name].params]}
                     for name in sorted(kinds)],
            "default": DEFAULT_BOTS,
            "levels": levels,
            # per line, the bots whose settings changed since it was measured (null: not recorded)
            "ladder": [{**row, "changed": changed_since(row, game)} for row in ladder],
        })
        return
    click.echo(f"{game_package(game).title}\n")
    click.echo(describe_bots(game))
    click.echo(f"\ndefault: {DEFAULT_BOTS} (in every seat)")
    click.echo("\nlevels: " + ", ".join(f"{level} = {spelling}" for level, spelling in levels.items()))
    if not ladder:
        click.echo("measured strength: not measured yet (benchmarks/ladder.py)")
    for row in ladder:
        rated = {bot["bot"]: bot for bot in row["table"]}
        click.echo(f"{row['ruleset']}, {row['players']} players, {row['games']} games: `{row['command']}`")
        changed = changed_since(row, game)
        if changed is None:
            click.echo("  (measured before a line kept its bots' settings: they may have changed since)")
        elif changed:
            click.echo(f"  (measured with other settings of {', '.join(f'`{b}`' for b in changed)} than "
                       "today's: run the ladder again)")
        for level, spelling in levels.items():
            bot = rated.get(spelling)
            if bot is None:  # the level's bot changed after this line was measured
                click.echo(f"  {level:<7} not measured as `{spelling}`: run the ladder again")
                continue
            low, high = bot["rating_ci"]
            click.echo(f"  {level:<7} rating {bot['rating']:.0f} ({low:.0f}-{high:.0f}), "
                       f"wins {100 * bot['share']:.1f}% of {bot['games']} games")
