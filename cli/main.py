"""The `targui` command: one click group, one small module per subcommand."""

from __future__ import annotations

import os
import sys

import click

from .cards import cards
from .common import EXIT_BAD_INPUT
from .compare import compare
from .diff import diff
from .play import play
from .replay import replay
from .show import rulesets, schema, show
from .simulate import simulate
from .validate import validate


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="targui")
def cli() -> None:
    """targui: play, check and study Targui and its variants, written as data.

    A RULESET is a built-in name (`targui rulesets` lists them) or the path
    of a YAML file that may extend one.

    \b
    Exit status: 0 success, 1 bad input (diagnostics printed), 2 usage error.
    """


for command in (rulesets, validate, show, schema, cards, diff, play, replay, simulate, compare):
    cli.add_command(command)


def main() -> None:
    """Entry point: no Python traceback reaches a user, whatever the input."""
    try:
        cli.main(prog_name="targui", standalone_mode=True)
    except KeyboardInterrupt:
        click.echo("\ninterrupted", err=True)
        sys.exit(130)
    except Exception as exc:  # noqa: BLE001 - the last line of defence
        if os.environ.get("TARGUI_DEBUG"):
            raise
        click.echo(f"targui: internal error: {type(exc).__name__}: {exc}\n"
                   "This is a bug in targui; set TARGUI_DEBUG=1 to see the traceback.", err=True)
        sys.exit(EXIT_BAD_INPUT)


if __name__ == "__main__":
    main()
