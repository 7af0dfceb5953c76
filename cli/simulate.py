"""`targui simulate`: many bot games, summed up (and `--against B`: two rulesets compared)."""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from typing import Any, Callable, Iterator

import click

from targui_dsl.text import visible

from .common import (EXIT_BAD_INPUT, RULESET_HELP, check_writable, echo_json, fail, format_option, load_or_exit,
                     render_diagnostics, use_colour, wants_json)
from .play import parse_bots, seat_game

PLOT_SUFFIXES = (".png", ".svg", ".pdf")
MAX_GAMES = 1_000_000  # hours of play, and every game's record is kept in memory
MAX_WORKERS = 256


def study_options(func):
    """The options `simulate` and `compare` share: which games, how many, how to report them."""
    options = [
        click.option("--games", "-n", type=click.IntRange(1, MAX_GAMES), default=100, show_default=True,
                     help=f"Number of games to play (per ruleset), 1 to {MAX_GAMES:,}."),
        click.option("--players", "-p", type=int, default=4, show_default=True,
                     help="Number of players (the ruleset says which counts it seats)."),
        click.option("--bots", default="random", show_default=True,
                     help="Bot per seat, comma-separated (random, greedy); a shorter list repeats its last bot."),
        click.option("--seed", type=int, default=0, show_default=True,
                     help="Batch seed; game i is played with a seed derived from it and i."),
        click.option("--rotate/--no-rotate", default=False, show_default=True,
                     help="Shift the bots one seat each game, so that no bot always plays first."),
        click.option("--workers", "-w", type=click.IntRange(0, MAX_WORKERS), default=1, show_default=True,
                     help=f"Play in this many processes, at most {MAX_WORKERS} (0: one per CPU); the results "
                          "do not depend on it."),
        click.option("--plot", "plot_file", type=click.Path(dir_okay=False, writable=True), default=None,
                     help="Also draw the results to FILE (.png, .svg or .pdf; needs matplotlib)."),
    ]
    for option in reversed(options):
        func = option(func)
    return format_option(func)


def check_study(ruleset_refs: list[str], players: int, bots: str, seed: int, workers: int,
                plot_file: str | None) -> tuple[list, list[str], int]:
    """Usage checks before any game runs: (compiled rulesets, bot per seat, workers).

    Bad flags raise click usage errors (exit 2); a bad ruleset prints its
    diagnostics and exits 1; a plot without matplotlib exits 1.
    """
    kinds = parse_bots(bots)
    if plot_file is not None and os.path.splitext(plot_file)[1].lower() not in PLOT_SUFFIXES:
        raise click.BadParameter(f"a plot is written as {', '.join(PLOT_SUFFIXES)}; got {plot_file!r}",
                                 param_hint="--plot")
    if plot_file is not None:
        check_writable(plot_file, "--plot")
    rulesets = [load_or_exit(ref) for ref in ruleset_refs]
    for rs in rulesets:
        _, seated = seat_game(rs, players, seed, kinds)
    if plot_file is not None:
        from targui_dsl.plots import PlotUnavailable, require_matplotlib

        try:
            require_matplotlib()
        except PlotUnavailable as err:
            click.echo(f"targui: {err}", err=True)
            sys.exit(EXIT_BAD_INPUT)
    workers = workers or os.cpu_count() or 1
    if workers > 1 and not all(os.path.isfile(f) for rs in rulesets for f in rs.files):
        # worker processes load the ruleset again from its files: a pipe (`<(...)`) reads only once
        click.echo("note: a ruleset file is not a regular file (a pipe?): playing in one process", err=True)
        workers = 1
    return rulesets, seated, workers


def show_progress(as_json: bool, stream=None) -> bool:
    """A progress bar only for a person watching: stderr a terminal and text output."""
    stream = stream if stream is not None else sys.stderr
    return not as_json and hasattr(stream, "isatty") and stream.isatty()


@contextmanager
def progress_bar(games: int, label: str, enabled: bool) -> Iterator[Callable[[int], None] | None]:
    if not enabled:
        yield None
        return
    with click.progressbar(length=games, label=label, file=sys.stderr, show_eta=True, show_pos=True) as bar:
        yield lambda _index: bar.update(1)


def run_study(ref: str, rs, games: int, players: int, kinds: list[str], seed: int, rotate: bool,
              workers: int, progress: bool, label: str | None = None) -> dict[str, Any]:
    """One batch of games, with a progress bar if asked; worker processes load RULESET by its reference."""
    from targui_dsl.diagnostics import RulesetError
    from targui_dsl.simulate import run_games

    try:
        with progress_bar(games, label or rs.id, progress) as tick:
            return run_games(rs if workers == 1 else ref, games=games, players=players, bots=kinds, seed=seed,
                             rotate=rotate, progress=tick, workers=workers)
    except RulesetError as err:  # a worker process found the file changed since it was checked
        click.echo(render_diagnostics(err.diagnostics, err.sources, color=use_colour(sys.stderr)), err=True)
        fail(f"{ref} changed while the games were played")


def write_plot(kind: str, result: dict[str, Any], plot_file: str) -> None:
    from targui_dsl import plots

    try:
        (plots.plot_simulation if kind == "simulation" else plots.plot_comparison)(result, plot_file)
    except plots.PlotUnavailable as err:
        click.echo(f"targui: {err}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    except OSError as err:
        click.echo(f"targui: cannot write {plot_file}: {err.strerror or err}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    click.echo(f"plot written to {plot_file}", err=True)


@click.command(epilog=RULESET_HELP)
@click.argument("ruleset", metavar="RULESET")
@study_options
@click.option("--against", metavar="RULESET_B", default=None,
              help="Compare with another ruleset: the same as `targui compare RULESET RULESET_B`.")
def simulate(ruleset: str, games: int, players: int, bots: str, seed: int, rotate: bool, workers: int,
             plot_file: str | None, output_format: str, as_json: bool, against: str | None) -> None:
    """Play many bot games of RULESET and sum them up.

    Wins per seat (tribe) and per bot with 95% confidence intervals, draws,
    game lengths, attacks, camels bought, eliminations, how games end, and
    what each (mis)fortune card did. With --against, two rulesets are
    compared instead (see `targui compare`).

    Game i of the batch is played with a seed derived from --seed and i, so
    a batch gives the same figures whatever --workers is. A progress bar is
    drawn on standard error when it is a terminal (text format only).
    Ctrl-C stops the games and the worker processes.

    \b
    Exit status:
      0    the games were played and summed up
      1    the ruleset has errors (diagnostics printed), or --plot cannot
           be written (or matplotlib is missing)
      2    a usage error (a bad option, bot or player count)
      130  interrupted by Ctrl-C

    \b
    Examples:
      targui simulate original-dutch
      targui simulate updated-treasury -n 2000 -p 3 --bots greedy,random --rotate -w 0
      targui simulate swedish-12 -n 500 --json > summary.json
      targui simulate original-dutch -n 1000 --plot wins.png
    """
    as_json = wants_json(output_format, as_json)
    if against is not None:
        from .compare import run_compare

        run_compare(ruleset, against, games, players, bots, seed, rotate, workers, plot_file, as_json)
        return
    (rs,), kinds, workers = check_study([ruleset], players, bots, seed, workers, plot_file)
    result = run_study(ruleset, rs, games, players, kinds, seed, rotate, workers, show_progress(as_json))
    if as_json:
        echo_json(result)
    else:
        click.echo(visible(render_summary(result), keep_newlines=True))
    if plot_file is not None:
        write_plot("simulation", result, plot_file)


# Text output ------------------------------------------------------------------

def percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def ci_text(ci: list[float]) -> str:
    return f"{100 * ci[0]:.1f}-{100 * ci[1]:.1f}%"


def bots_text(bots: list[str]) -> str:
    """`random, random, random` -> `random in every seat`; mixed lists are listed seat by seat."""
    return f"{bots[0]} in every seat" if len(set(bots)) == 1 else ", ".join(bots)


def render_summary(result: dict[str, Any]) -> str:
    """The summary as tables for a person to read."""
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
        lines.append(f"  {label:<{width - 2}} {r['wins']:>6} {percent(r['rate']):>7}  {ci_text(r['ci'])}")
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

    labels = {"rounds": "rounds", "attacks": "attacks", "attacks_won": "attacks won",
              "camels_bought": "camels bought", "eliminations": "eliminations", "decisions": "decisions"}
    lines.append(f"{'Per game':<16} {'mean':>9} {'sd':>8} {'min':>6} {'max':>6} {'total':>9}")
    for key, label in labels.items():
        m = result["metrics"][key]
        lines.append(f"  {label:<14} {m['mean']:>9.2f} {m['sd']:>8.2f} {m['min']:>6} {m['max']:>6} {m['total']:>9}")
    attacks = result["attacks"]
    lines.append(f"Attacks: {attacks['count']}, won {attacks['won']} ({percent(attacks['won_share'])}), "
                 f"failed {attacks['failed']}, given up {attacks['given_up']}; "
                 f"eliminations in {result['eliminations']['games_with']} of {games} games")
    lines.append("")

    cards = result["cards"]
    if cards:
        titles = {card: f"{c['number']} {c['title']}" if c["number"] is not None else c["title"]
                  for card, c in cards.items()}
        width = min(34, max(len(t) for t in titles.values())) + 2
        lines.append(f"{'Cards (per draw)':<{width}} {'drawn':>6} {'camels -':>9} {'camels +':>9}"
                     f" {'silver -':>9} {'silver +':>9}")
        for card, c in cards.items():
            per = c["per_draw"]
            lines.append(f"  {titles[card][:width - 2]:<{width - 2}} {c['drawn']:>6} {per['camels_removed']:>9.2f}"
                         f" {per['camels_added']:>9.2f} {per['cash_taken']:>9.2f} {per['cash_given']:>9.2f}")
        lines.append("")

    workers = result.get("workers", 1)
    lines.append(f"{result['decisions']} decisions in {result['seconds']:.2f} s"
                 f" ({result['games_per_second']} games/s, {result['decisions_per_second']} decisions/s"
                 f"{f', {workers} workers' if workers > 1 else ''})")
    return "\n".join(lines)
