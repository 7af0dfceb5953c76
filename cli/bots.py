"""`targui bots`: the bots there are, how each is spelled, and its parameters."""

from __future__ import annotations

import click

from targui_dsl.agents import DEFAULT_BOTS, describe_bots


@click.command(short_help="List the bots and how to spell them.")
def bots() -> None:
    """List the bots every command knows, with their parameters.

    A bot is spelled `kind` or `kind:name=value:name=value`, the same in
    `play --bots`, `simulate --bots`, `compare --bots` and studies. A list of
    bots is comma-separated, one per seat; a shorter list repeats its last
    bot. When no bots are named, every seat gets the default bot.

    docs/bots.md describes how each bot plays.

    \b
    Exit status: 0.

    \b
    Examples:
      targui bots
      targui play original-dutch --bots greedy,random
    """
    click.echo(describe_bots())
    click.echo(f"\ndefault: {DEFAULT_BOTS} (in every seat)")
