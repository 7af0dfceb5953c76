"""What the commands share: loading a RULESET argument, output formats, colour."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from targui_dsl.compiled import CompiledRuleset
from targui_dsl.diagnostics import RulesetError, render_all

# Exit codes, the same for every command.
EXIT_OK = 0
EXIT_BAD_INPUT = 1
EXIT_USAGE = 2

RULESET_HELP = "RULESET is a built-in name (see `targui rulesets`) or a path to a YAML file."


def format_option(func):
    """`--format text|json`, with `--json` as a shorthand."""
    func = click.option(
        "--json", "as_json", is_flag=True, help="Shorthand for --format json."
    )(func)
    return click.option(
        "--format",
        "output_format",
        type=click.Choice(["text", "json"]),
        default="text",
        show_default=True,
        help="Text for people, JSON for programs.",
    )(func)


def wants_json(output_format: str, as_json: bool) -> bool:
    return as_json or output_format == "json"


def use_colour(stream=None) -> bool:
    stream = stream or sys.stdout
    return hasattr(stream, "isatty") and stream.isatty()


def echo_json(value: Any) -> None:
    click.echo(json.dumps(value, indent=2, ensure_ascii=False))


def load_or_exit(ref: str) -> CompiledRuleset:
    """Load a RULESET argument; on bad input print the diagnostics and exit 1."""
    from targui_dsl import load_ruleset

    try:
        return load_ruleset(ref)
    except RulesetError as err:
        click.echo(render_all(err.diagnostics, err.sources, color=use_colour(sys.stderr)), err=True)
        sys.exit(EXIT_BAD_INPUT)
