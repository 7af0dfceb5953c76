"""`targui compare A B [C]...`: the same bot games under two rulesets or more, and which differences are real."""

from __future__ import annotations

import click

from targui_cli.common import RULESET_HELP, complete_ruleset, wants_json
from targui_cli.studyopts import run_compare, study_options
from targui_dsl.games import game_package
from targui_dsl.study.figures import mean_figures
from targui_dsl.study.records import RECORD_FORMATS

HELP = """Play the same games (seeds and bots) under rulesets A, B (and C...) and compare them.

For each figure (win rate per seat and per bot, draws, games ended early,
{figures}) it prints each ruleset's value,
the difference against A, the p-value (two-proportion z-test for rates,
Welch's t-test for means) and whether it is significant at 0.05, then
one sentence per significant difference.

A, B, C... are rulesets: a built-in name or a path to a YAML file, as
for every command. Game i is played under each with the same seed
(derived from --seed and i) and the same bots, so a difference comes
from the rules, not from the luck of the draw. All must seat --players.
With three rulesets or more, each is compared with A, with a 95%
interval for the difference (Wald for rates, Welch for means), and the
p-values of each figure are adjusted for the number of comparisons by
Holm's step-down: significant means significant after Holm.

With --out PATH, each ruleset's study keeps its finished chunks in its
own file named from PATH and the ruleset (study.jsonl becomes
study.original-dutch.jsonl for original-dutch; letters A, B... when an
id repeats), and the same command run again continues. --records
FILE writes one row per game to FILE's counterparts named the same way,
each row with a `ruleset` column.

\b
Exit status:
  0    the games were played and compared, whatever the differences
  1    a ruleset has errors (diagnostics printed), --plot cannot be
       written (or matplotlib is missing), or the Dask scheduler
       cannot be reached
  2    a usage error (a bad option, bot or player count, fewer than
       two rulesets, an --out file that holds another study)
  130  interrupted by Ctrl-C (SIGINT); 143 by SIGTERM, 129 by SIGHUP

\b
Examples:
  targui compare original-dutch rulesets/examples/harsh-desert.yaml
  targui compare original-dutch my-house-rule.yaml -n 2000 -w 0
  targui compare swedish-12 original-dutch -p 3 --json
  targui compare original-dutch rulesets/examples/rich-oases.yaml --bots ismcts,greedy --rotate -w 0
  targui compare original-dutch swedish-12 --plot comparison.svg
  targui compare original-dutch swedish-12 my-rule.yaml -n 200 --seed 1 --out study.jsonl --records games.csv
  targui compare original-dutch my-rule.yaml -n 100000 --scheduler tcp://10.0.0.5:8786
""".replace("{figures}", ", ".join(f.label for f in mean_figures(game_package())))  # the default game's


@click.command(help=HELP, epilog=RULESET_HELP)
@click.argument("ruleset_a", metavar="A", shell_complete=complete_ruleset)
@click.argument("others", metavar="B...", nargs=-1, required=True, shell_complete=complete_ruleset)
@study_options
@click.option("--out", "out", metavar="PATH", type=click.Path(dir_okay=False), default=None,
              help="Keep each ruleset's finished chunks of games in a file named from PATH and the ruleset "
                   "(study.jsonl: study.RULESET.jsonl); the same command run again continues where it stopped.")
@click.option("--records", "records", metavar="FILE", type=click.Path(dir_okay=False), default=None,
              help="Write one row per game, with a `ruleset` column, to a file per ruleset named from FILE "
                   "(games.csv: games.RULESET.csv), in the format its extension names: .csv, .jsonl or .parquet.")
@click.option("--records-format", type=click.Choice(sorted(RECORD_FORMATS)), default=None,
              help="The format of the --records files whatever their extension.  [default: by the extension]")
def compare(ruleset_a: str, others: tuple[str, ...], games: int, players: int | None,
            bots: str, seed: int, rotate: bool,
            workers: int, scheduler: str | None, plot_file: str | None, output_format: str, as_json: bool,
            out: str | None, records: str | None, records_format: str | None) -> None:
    run_compare([ruleset_a, *others], games, players, bots, seed, rotate, workers, scheduler, plot_file,
                wants_json(output_format, as_json), out, records, records_format)
