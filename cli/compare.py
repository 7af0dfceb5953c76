"""`targui compare A B`: the same bot games under two rulesets, and which differences are real."""

from __future__ import annotations

from typing import Any

import click

from targui_cli.common import RULESET_HELP, echo_json, wants_json
from targui_cli.completion import complete_ruleset
from targui_cli.simulate import bots_text, check_study, format_p, run_study, show_progress, study_options, write_plot
from targui_dsl.frontend.text import visible


@click.command(epilog=RULESET_HELP)
@click.argument("ruleset_a", metavar="A", shell_complete=complete_ruleset)
@click.argument("ruleset_b", metavar="B", shell_complete=complete_ruleset)
@study_options
def compare(ruleset_a: str, ruleset_b: str, games: int, players: int, bots: str, seed: int, rotate: bool,
            workers: int, scheduler: str | None, plot_file: str | None, output_format: str, as_json: bool) -> None:
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
      targui compare original-dutch updated-treasury
      targui compare original-dutch my-house-rule.yaml -n 2000 -w 0
      targui compare swedish-12 original-dutch -p 3 --json
      targui compare updated-treasury rulesets/examples/no-treasury.yaml --bots ismcts,greedy --rotate -w 0
      targui compare original-dutch swedish-12 --plot comparison.svg
      targui compare original-dutch my-rule.yaml -n 100000 --scheduler tcp://10.0.0.5:8786
    """
    run_compare(ruleset_a, ruleset_b, games, players, bots, seed, rotate, workers, scheduler, plot_file,
                wants_json(output_format, as_json))


def run_compare(ref_a: str, ref_b: str, games: int, players: int, bots: str, seed: int, rotate: bool,
                workers: int, scheduler: str | None, plot_file: str | None, as_json: bool) -> None:
    """`compare` and `simulate --against`: check everything, play both studies, report."""
    from targui_dsl.study.figures import compare_figures

    needs_files = "--scheduler" if scheduler is not None else None
    (rs_a, rs_b), (src_a, src_b), kinds, workers = check_study([ref_a, ref_b], players, bots, seed, workers,
                                                                plot_file, needs_files)
    progress = show_progress(as_json)
    a = run_study(ref_a, rs_a, src_a, games, players, kinds, seed, rotate, workers, progress, f"A {rs_a.id}",
                  scheduler=scheduler)
    b = run_study(ref_b, rs_b, src_b, games, players, kinds, seed, rotate, workers, progress, f"B {rs_b.id}",
                  scheduler=scheduler)
    result = compare_figures(a, b)
    label_a, label_b = result["labels"]
    result["verdicts"] = [verdict(row, a, b, label_a, label_b) for row in result["rows"] if row["significant"]]
    if as_json:
        echo_json(result)
    else:
        click.echo(visible(render_comparison(result), keep_newlines=True))
    if plot_file is not None:
        write_plot("comparison", result, plot_file)


def render_comparison(result: dict[str, Any]) -> str:
    """The comparison as a table (metric, A, B, difference, p, significant?) and one verdict per difference."""
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


# Wording: what a significant difference means, in one sentence ------------------------

# per-game means: words for B above / below A, and the unit
MEAN_WORDS = {
    "rounds": ("games last longer", "games are shorter", "rounds"),
    "attacks": ("there are more attacks", "there are fewer attacks", "attacks a game"),
    "attacks_won": ("more attacks succeed", "fewer attacks succeed", "won attacks a game"),
    "camels_bought": ("more camels are bought", "fewer camels are bought", "camels a game"),
    "eliminations": ("more players are eliminated", "fewer players are eliminated", "eliminations a game"),
    "decisions": ("players make more decisions", "players make fewer decisions", "decisions a game"),
}


def _words(row: dict[str, Any], a: dict[str, Any], b: dict[str, Any]) -> tuple[str, str, str]:
    """(words if B is above A, words if below, unit) for a row of the comparison."""
    key = row["key"]
    if key.startswith("wins.seat"):
        seat = int(key[len("wins.seat"):])
        name_a = a["win_rates"][a["tribes"][seat - 1]]["name"]
        name_b = b["win_rates"][b["tribes"][seat - 1]]["name"]
        name = name_a if name_a == name_b else f"{name_a} / {name_b}"
        return f"{name} (seat {seat}) wins more often", f"{name} (seat {seat}) wins less often", "%"
    if key.startswith("wins_by_bot."):
        kind = key[len("wins_by_bot."):]
        return f"the {kind} bot wins more often", f"the {kind} bot wins less often", "%"
    if key == "draws":
        return "more games are drawn", "fewer games are drawn", "%"
    if key == "end_reasons.last_standing":
        return "more games end early with one player left", "fewer games end early", "%"
    return MEAN_WORDS[key[len("metrics."):]]


def format_figure(value: float, unit: str) -> str:
    """A figure of a comparison: a rate as a percentage, a mean with two decimals."""
    return f"{100 * value:.1f}%" if unit == "%" else f"{value:.2f}"


def verdict(row: dict[str, Any], a: dict[str, Any], b: dict[str, Any], label_a: str = "A", label_b: str = "B") -> str:
    """One sentence for a difference, e.g. "Under B, games last longer: 17.00 rounds against 16.00 under A (p < 0.001)."."""
    more, fewer, unit = _words(row, a, b)
    words = more if row["difference"] > 0 else fewer
    value_a, value_b = format_figure(row["a"], unit), format_figure(row["b"], unit)
    unit_text = "" if unit == "%" else f" {unit}"
    p = format_p(row["p"])
    return (f"Under {label_b}, {words}: {value_b}{unit_text} against {value_a} under {label_a}"
            f" (p {p if p.startswith('<') else '= ' + p}).")
