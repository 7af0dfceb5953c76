"""`targui compare A B`: the same bot games under two rulesets, and which differences are real."""

from __future__ import annotations

from typing import Any

import click

from targui_dsl.text import visible

from .common import RULESET_HELP, echo_json, wants_json
from .simulate import bots_text, check_study, run_study, show_progress, study_options, write_plot


@click.command(epilog=RULESET_HELP)
@click.argument("ruleset_a", metavar="A")
@click.argument("ruleset_b", metavar="B")
@study_options
def compare(ruleset_a: str, ruleset_b: str, games: int, players: int, bots: str, seed: int, rotate: bool,
            workers: int, plot_file: str | None, output_format: str, as_json: bool) -> None:
    """Play the same games (seeds and bots) under rulesets A and B and compare them.

    For each figure (win rate per seat and per bot, draws, games ended early,
    rounds, attacks, camels bought, eliminations, decisions) it prints A, B,
    the difference B - A, the p-value (two-proportion z-test for rates,
    Welch's t-test for means) and whether it is significant at 0.05, then
    one sentence per significant difference.

    A and B are rulesets: a built-in name or a path to a YAML file, as for
    every command. Game i is played under both with the same seed (derived
    from --seed and i) and the same bots, so a difference comes from the
    rules, not from the luck of the draw. Both must seat --players.

    \b
    Exit status:
      0    the games were played and compared, whatever the differences
      1    A or B has errors (diagnostics printed), or --plot cannot be
           written (or matplotlib is missing)
      2    a usage error (a bad option, bot or player count)
      130  interrupted by Ctrl-C

    \b
    Examples:
      targui compare original-dutch updated-treasury
      targui compare original-dutch my-house-rule.yaml -n 2000 -w 0
      targui compare swedish-12 original-dutch -p 3 --json
      targui compare original-dutch swedish-12 --plot comparison.svg
    """
    run_compare(ruleset_a, ruleset_b, games, players, bots, seed, rotate, workers, plot_file,
                wants_json(output_format, as_json))


def run_compare(ref_a: str, ref_b: str, games: int, players: int, bots: str, seed: int, rotate: bool,
                workers: int, plot_file: str | None, as_json: bool) -> None:
    """`compare` and `simulate --against`: check everything, play both batches, report."""
    from targui_dsl.simulate import compare_summaries

    (rs_a, rs_b), kinds, workers = check_study([ref_a, ref_b], players, bots, seed, workers, plot_file)
    progress = show_progress(as_json)
    a = run_study(ref_a, rs_a, games, players, kinds, seed, rotate, workers, progress, f"A {rs_a.id}")
    b = run_study(ref_b, rs_b, games, players, kinds, seed, rotate, workers, progress, f"B {rs_b.id}")
    result = compare_summaries(a, b)
    if as_json:
        echo_json(result)
    else:
        click.echo(visible(render_comparison(result), keep_newlines=True))
    if plot_file is not None:
        write_plot("comparison", result, plot_file)


def render_comparison(result: dict[str, Any]) -> str:
    """The comparison as a table (metric, A, B, difference, p, significant?) and one verdict per difference."""
    from targui_dsl.simulate import format_p

    a, b = result["summaries"]["a"], result["summaries"]["b"]
    label_a, label_b = result["labels"]
    lines = [
        f"A = {a['title']} ({a['ruleset']})",
        f"B = {b['title']} ({b['ruleset']})",
        f"{result['games']} games each, {result['players']} players, bots {bots_text(result['bots'])}"
        f"{' (rotated)' if result['rotate'] else ''}, seed {result['seed']}: the same seeds and bots for both",
        "",
    ]
    table = [("metric", label_a, label_b, "difference", "p", "significant")]
    for row in result["rows"]:
        if row["test"] == "z":
            values = (f"{100 * row['a']:.1f}%", f"{100 * row['b']:.1f}%", f"{100 * row['difference']:+.1f} pt")
        else:
            values = (f"{row['a']:.2f}", f"{row['b']:.2f}", f"{row['difference']:+.2f}")
        table.append((row["metric"], *values, format_p(row["p"]), "yes *" if row["significant"] else "no"))
    widths = [max(len(r[i]) for r in table) for i in range(len(table[0]))]
    for n, r in enumerate(table):
        cells = [r[0].ljust(widths[0])] + [r[i].rjust(widths[i]) for i in range(1, 5)] + [r[5]]
        lines.append("  ".join(cells).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    lines.append("")
    lines.append(f"p: two-proportion z-test for rates, Welch's t-test for means; significant: p < {result['alpha']}.")
    lines.append("")
    if result["verdicts"]:
        lines.append("Significant differences:")
        lines.extend(f"  {v}" for v in result["verdicts"])
    else:
        lines.append(f"No significant difference at {result['alpha']} in {result['games']} games each.")
    return "\n".join(lines)
