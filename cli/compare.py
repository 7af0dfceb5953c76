"""`targui compare A B`: the same bot games under two rulesets, and which differences are real."""

from __future__ import annotations

import click

from targui_cli.common import RULESET_HELP, complete_ruleset, wants_json
from targui_cli.studyopts import run_compare, study_options
from targui_dsl.games import game_package
from targui_dsl.study.figures import mean_figures

HELP = """Play the same games (seeds and bots) under rulesets A and B and compare them.

For each figure (win rate per seat and per bot, draws, games ended early,
{figures}) it prints A, B,
the difference B - A, the p-value (two-proportion z-test for rates,
Welch's t-test for means) and whether it is significant at 0.05, then
one sentence per significant difference.

A and B are rulesets: a built-in name or a path to a YAML file, as for
every command. Game i is played under both with the same seed (derived
from --seed and i) and the same bots, so a difference comes from the
rules, not from the luck of the draw. Both must seat --players.
Exactly two rulesets, because every test compares a pair: to weigh a
third, compare it with A in a second run (the same --seed plays the
same games).

\b
Exit status:
  0    the games were played and compared, whatever the differences
  1    A or B has errors (diagnostics printed), --plot cannot be
       written (or matplotlib is missing), or the Dask scheduler
       cannot be reached
  2    a usage error (a bad option, bot or player count)
  130  interrupted by Ctrl-C (SIGINT); 143 by SIGTERM, 129 by SIGHUP

\b
Examples:
  targui compare original-dutch rulesets/examples/harsh-desert.yaml
  targui compare original-dutch my-house-rule.yaml -n 2000 -w 0
  targui compare swedish-12 original-dutch -p 3 --json
  targui compare original-dutch rulesets/examples/rich-oases.yaml --bots ismcts,greedy --rotate -w 0
  targui compare original-dutch swedish-12 --plot comparison.svg
  targui compare original-dutch my-rule.yaml -n 100000 --scheduler tcp://10.0.0.5:8786
""".replace("{figures}", ", ".join(f.label for f in mean_figures(game_package())))  # the default game's


@click.command(help=HELP, epilog=RULESET_HELP)
@click.argument("ruleset_a", metavar="A", shell_complete=complete_ruleset)
@click.argument("ruleset_b", metavar="B", shell_complete=complete_ruleset)
@study_options
def compare(ruleset_a: str, ruleset_b: str, games: int, players: int, bots: str, seed: int, rotate: bool,
            workers: int, scheduler: str | None, plot_file: str | None, output_format: str, as_json: bool) -> None:
    run_compare(ruleset_a, ruleset_b, games, players, bots, seed, rotate, workers, scheduler, plot_file,
                wants_json(output_format, as_json))
