"""`targui simulate`: many bot games, summed up (and `--against B`: two rulesets compared)."""

from __future__ import annotations

from typing import Any

import click

from targui_cli.common import RULESET_HELP, check_writable, complete_ruleset, echo_json, package_of, wants_json
from targui_cli.studyopts import (
    bots_text,
    check_records_format,
    check_study,
    ci_text,
    format_p,
    percent,
    played_line,
    run_compare,
    run_study,
    show_progress,
    study_options,
    write_plot,
)
from targui_dsl.engine.protocol import GamePackage
from targui_dsl.frontend.safefile import same_file
from targui_dsl.frontend.text import visible
from targui_dsl.games import game_package
from targui_dsl.study.figures import card_fields, mean_figures, seat_figures, table_figures
from targui_dsl.study.records import RECORD_FORMATS

HELP = """Play many bot games of RULESET and sum them up.

Wins per seat (tribe) and per bot with 95% confidence intervals, draws,
the figures of a game ({figures}), how games end, and
what each (mis)fortune card did. With --against, two rulesets are
compared instead (see `targui compare`).

Games are played in chunks, locally (--workers) or on a Dask cluster
(--scheduler). Game i is played with a seed derived from --seed and i,
so a study gives the same figures whatever runs it. With --out, each
finished chunk is kept, and the same command run again continues the
study. A progress bar is drawn on standard error when it is a terminal
(text format only). Ctrl-C, SIGTERM and SIGHUP stop the games and the
workers and keep the finished chunks.

\b
Exit status:
  0    the games were played and summed up
  1    the ruleset has errors (diagnostics printed), --plot cannot be
       written (or matplotlib is missing), or the Dask scheduler
       cannot be reached
  2    a usage error (a bad option, bot or player count; an --out
       file that holds another study)
  130  interrupted by Ctrl-C (SIGINT); 143 by SIGTERM, 129 by SIGHUP
       (128 + the signal's number)

\b
Examples:
  targui simulate original-dutch
  targui simulate swedish-12 -n 2000 -p 3 --bots greedy,random --rotate -w 0
  targui simulate original-dutch -n 200 --bots ismcts:iterations=100,greedy --rotate -w 0
  targui simulate swedish-12 -n 500 --json > summary.json
  targui simulate original-dutch -n 1000 --plot wins.png
  targui simulate swedish-12 -n 1000000 -w 0 --out study.jsonl --records games.csv
  targui simulate my-rule.yaml -n 100000 --scheduler tcp://10.0.0.5:8786
""".replace("{figures}", ", ".join(f.label for f in mean_figures(game_package())))  # the default game's


@click.command(help=HELP, epilog=RULESET_HELP)
@click.argument("ruleset", metavar="RULESET", shell_complete=complete_ruleset)
@study_options
@click.option("--out", "out", metavar="PATH", type=click.Path(dir_okay=False), default=None,
              help="Keep each finished chunk of games in PATH (JSON lines); the same command run again "
                   "continues where it stopped.")
@click.option("--records", "records", metavar="FILE", type=click.Path(dir_okay=False), default=None,
              help="Write one row per game to FILE, in the format its extension names: .csv, .jsonl "
                   "(JSON lines; .ndjson, .json too) or .parquet (needs pyarrow).")
@click.option("--records-format", type=click.Choice(sorted(RECORD_FORMATS)), default=None,
              help="The format of --records FILE whatever its extension.  [default: by the extension]")
@click.option("--against", metavar="RULESET_B", default=None,
              help="Compare with another ruleset: the same as `targui compare RULESET RULESET_B`.")
def simulate(ruleset: str, games: int, players: int | None, bots: str, seed: int, rotate: bool, workers: int,
             scheduler: str | None, plot_file: str | None, output_format: str, as_json: bool, out: str | None,
             records: str | None, records_format: str | None, against: str | None) -> None:
    as_json = wants_json(output_format, as_json)
    if against is not None:
        for flag, value in (("--out", out), ("--records", records), ("--records-format", records_format)):
            if value is not None:
                raise click.BadParameter("not with --against (a comparison plays two studies)", param_hint=flag)
        run_compare([ruleset, against], games, players, bots, seed, rotate, workers, scheduler, plot_file, as_json)
        return
    needs_files = "--out" if out is not None else "--scheduler" if scheduler is not None else None
    (rs,), (source,), kinds, workers = check_study([ruleset], players, bots, seed, workers, plot_file, needs_files)
    records_format = check_records_format(records, records_format, out)
    for path, flag in ((out, "--out"), (records, "--records")):
        if path is not None:
            check_writable(path, flag)
    if out is not None and records is not None and same_file(out, records):  # any spelling, any link
        raise click.BadParameter("--out and --records need two different files", param_hint="--records")
    result = run_study(ruleset, rs, source, games, players, kinds, seed, rotate, workers, show_progress(as_json),
                       scheduler=scheduler, out=out, records=records, records_format=records_format)
    if as_json:
        echo_json(result)
    else:
        click.echo(visible(render_summary(result, package_of(rs)), keep_newlines=True))
    if plot_file is not None:
        write_plot("simulation", result, plot_file)


# Text output ------------------------------------------------------------------

def render_summary(result: dict[str, Any], package: GamePackage) -> str:
    """The summary as tables for a person to read, the game's figures in its words (``package.metrics``)."""
    games = result["games"]
    lines = [f"{result['title']} ({result['ruleset']}): {games} games, {result['players']} players, "
             f"bots {bots_text(result['bots'])}{' (rotated)' if result['rotate'] else ''}, seed {result['seed']}",
             ""]

    rows = [(f"seat {r['seat']} {r['name']}", r) for r in result["win_rates"].values()]
    rows += [(f"bot {kind}" + (f" ({r['seats']} seats)" if r["seats"] > 1 else ""), r)
             for kind, r in result["win_rates_by_bot"].items()]
    rows.append(("draws", {"wins": result["draws"], **result["draw_rate"]}))
    width = max(len(label) for label, _ in rows) + 2
    lines.append(f"{'Wins':<{width}} {'wins':>6} {'rate':>7}  95% CI (Wilson)")
    for label, r in rows:
        parity = f"  parity {percent(r['parity'])}" if "parity" in r and len(set(result["bots"])) > 1 else ""
        lines.append(f"  {label:<{width - 2}} {r['wins']:>6} {percent(r['rate']):>7}  {ci_text(r['ci']):<11}{parity}"
                     .rstrip())
    if len(set(result["bots"])) > 1 and not result["rotate"]:
        lines.append("  (the bots kept their seats: a bot's wins are also its seats'; --rotate moves them)")
    else:
        test = result["seat_test"]
        p = format_p(test["p"])
        lines.append(f"  seats alike? chi-square {test['statistic']:.2f}, df {test['df']:.0f}, "
                     f"p {p if p.startswith('<') else '= ' + p}"
                     " (games won alone, against equal shares per seat)")
    lines.append("")

    rounds = result["rounds"]
    lines.append(f"Rounds: mean {rounds['mean']:.2f} (sd {rounds['sd']:.2f}), min {rounds['min']}, max {rounds['max']};"
                 f" ends: {', '.join(f'{k} {v}' for k, v in result['end_reasons'].items())}")
    distribution = rounds["distribution"]
    top = max(distribution.values(), default=1)
    for length, count in distribution.items():
        bar = "#" * max(1, round(30 * count / top))
        lines.append(f"  {length:>3} {bar:<30} {count:>6} {percent(count / games):>7}")
    lines.append("")

    lines.append(f"{'Per game':<16} {'mean':>9} {'sd':>8} {'min':>6} {'max':>6} {'total':>9}")
    for figure in table_figures(package, [result["metrics"]]):
        m = result["metrics"][figure.key]
        lines.append(f"  {figure.label:<14} {m['mean']:>9.2f} {m['sd']:>8.2f} {m['min']:>6} {m['max']:>6}"
                     f" {m['total']:>9}")
    own = package.metrics
    if own is not None and own.describe is not None:
        lines.extend(own.describe(result))
    lines.append("")

    # per seat at the end: the score, then the game's own figures (its words)
    seat_rows = [("score", result["scores"])]
    seat_rows += [(f.label, result["per_seat"][f.key]) for f in seat_figures(package) if f.key in result["per_seat"]]
    seats = [(tribe, f"seat {r['seat']} {r['name']}") for tribe, r in result["win_rates"].items()
             if tribe in result["scores"]]
    width = max(len(f"{who} {label}") for _, who in seats for label, _ in seat_rows) + 2
    lines.append(f"{'At the end':<{width}} {'mean':>9} {'sd':>8} {'min':>6} {'max':>6}")
    for tribe, who in seats:
        for label, per_tribe in seat_rows:
            m = per_tribe[tribe]
            lines.append(f"  {who + ' ' + label:<{width - 2}} {m['mean']:>9.2f} {m['sd']:>8.2f} {m['min']:>6}"
                         f" {m['max']:>6}")
    lines.append("")

    cards = result["cards"]
    if cards:
        titles = {card: f"{c['number']} {c['title']}" if c["number"] is not None else c["title"]
                  for card, c in cards.items()}
        width = min(34, max(len(t) for t in titles.values())) + 2
        heading, count = (own.card_heading, own.card_count) if own is not None else ("Cards (per draw)", "drawn")
        lines.append(f"{heading:<{width}} {count:>6}"
                     + "".join(f" {heading:>9}" for heading in (own.card_columns if own is not None else ())))
        for card, c in cards.items():
            per = c["per_draw"]
            row = f"  {titles[card][:width - 2]:<{width - 2}} {c['drawn']:>6}"
            if c.get("this_round") and not any(per.values()):  # a modifier: nothing to count, say what it does
                note = own.card_note if own is not None else "this round"
                lines.append(f"{row}   {note}: {', '.join(c['this_round'])}")
                continue
            lines.append(row + "".join(f" {per[field]:>9.2f}" for field in card_fields(package)))
        lines.append("")

    lines.append(played_line(result, games))
    return "\n".join(lines)
