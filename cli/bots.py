"""`targui bots`: the bots there are, how each is spelled, and its parameters."""

from __future__ import annotations

import click

from targui_cli.common import echo_json, format_option, wants_json
from targui_dsl.agents import DEFAULT_BOTS, describe_bots
from targui_dsl.agents.spec import bots_of


@click.command(short_help="List the bots and how to spell them.")
@format_option
def bots(output_format: str, as_json: bool) -> None:
    """List the bots every command knows, with their parameters.

    A bot is spelled `kind` or `kind:name=value:name=value`, the same in
    `play --bots`, `simulate --bots`, `compare --bots` and studies. A list of
    bots is comma-separated, one per seat; a shorter list repeats its last
    bot. When no bots are named, every seat gets the default bot.

    With --format json: every bot's name, summary and parameters (name,
    type, default, minimum, maximum, help), and the default bots.

    docs/bots.md describes how each bot plays.

    \b
    Exit status: 0 (2 for a usage error).

    \b
    Examples:
      targui bots
      targui bots --format json
      targui play original-dutch --bots greedy,random
    """
    if wants_json(output_format, as_json):
        kinds = bots_of()
        echo_json({
            "bots": [{"name": name, "summary": kinds[name].summary,
                      "parameters": [{"name": p.name, "type": p.kind.__name__, "default": p.default,
                                      "minimum": p.minimum, "maximum": p.maximum, "help": p.help}
                                     for p in kinds[name].params]}
                     for name in sorted(kinds)],
            "default": DEFAULT_BOTS,
        })
        return
    click.echo(describe_bots())
    click.echo(f"\ndefault: {DEFAULT_BOTS} (in every seat)")
