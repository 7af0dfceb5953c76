"""`targui simulate`: many bot games, summed up (and `--against B`: two rulesets compared)."""

from __future__ import annotations

import importlib.util
import os
import sys
from contextlib import ExitStack, contextmanager
from typing import Any, Callable, Iterator

import click

from targui_cli.common import (
    EXIT_BAD_INPUT,
    RULESET_HELP,
    check_writable,
    echo_json,
    fail,
    format_option,
    load_or_exit,
    render_diagnostics,
    use_colour,
    wants_json,
)
from targui_cli.completion import complete_bots, complete_ruleset
from targui_cli.play import parse_bots, seat_game
from targui_dsl.agents import DEFAULT_BOTS
from targui_dsl.frontend.text import visible
from targui_dsl.study.records import RECORD_FORMATS

PLOT_SUFFIXES = (".png", ".svg", ".pdf")
MAX_GAMES = 5_000_000  # memory stays flat (docs/simulate.md); beyond this, hours turn into days
MAX_WORKERS = 256


def study_options(func):
    """The options `simulate` and `compare` share: which games, how many, where, how to report them."""
    options = [
        click.option("--games", "-n", type=click.IntRange(1, MAX_GAMES), default=100, show_default=True,
                     help=f"Number of games to play (per ruleset), 1 to {MAX_GAMES:,}."),
        click.option("--players", "-p", type=int, default=4, show_default=True,
                     help="Number of players (the ruleset says which counts it seats)."),
        click.option("--bots", default=DEFAULT_BOTS, show_default=True, shell_complete=complete_bots,
                     help="Bot per seat, comma-separated, spelled as `targui bots` lists them, parameters and "
                          "all (ismcts:iterations=100); a shorter list repeats its last bot. The default is "
                          "`targui play`'s: greedy in every seat."),
        click.option("--seed", type=int, default=0, show_default=True,
                     help="Study seed; game i is played with a seed derived from it and i."),
        click.option("--rotate/--no-rotate", default=False, show_default=True,
                     help="Shift the bots one seat each game, so that no bot always plays first."),
        click.option("--workers", "-w", type=click.IntRange(0, MAX_WORKERS), default=1, show_default=True,
                     help=f"Play in this many local processes, at most {MAX_WORKERS} (0: one per CPU); the "
                          "results do not depend on it."),
        click.option("--scheduler", metavar="ADDRESS", default=None,
                     help="Play on the Dask cluster whose scheduler is at ADDRESS (e.g. tcp://host:8786; "
                          "needs pip install '.[dask]' in a checkout); --workers is then ignored."),
        click.option("--plot", "plot_file", type=click.Path(dir_okay=False, writable=True), default=None,
                     help="Also draw the results to FILE (.png, .svg or .pdf; needs matplotlib)."),
    ]
    for option in reversed(options):
        func = option(func)
    return format_option(func)


def check_study(ruleset_refs: list[str], players: int, bots: str, seed: int, workers: int,
                plot_file: str | None, needs_files: str | None = None) -> tuple[list, list, list[str], int]:
    """Usage checks before any game runs: (compiled rulesets, their sources, bot per seat, workers).

    Bad flags raise click usage errors (exit 2); a bad ruleset prints its
    diagnostics and exits 1; a plot without matplotlib exits 1. A source is
    None for a ruleset that is not in regular files (a pipe is read once):
    it is played in this process, and ``needs_files`` (an option that needs
    the files, such as --out) is then a usage error.
    """
    from targui_dsl.study import RulesetSource

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
        from targui_dsl.study.plots import PlotUnavailable, require_matplotlib

        try:
            require_matplotlib()
        except PlotUnavailable as err:
            click.echo(f"targui: {err}", err=True)
            sys.exit(EXIT_BAD_INPUT)
    workers = workers or os.cpu_count() or 1
    sources = []
    for ref, rs in zip(ruleset_refs, rulesets):
        if all(os.path.isfile(f) for f in rs.files):
            sources.append(RulesetSource.from_reference(ref))
            continue
        # a pipe (`<(...)`) can be read only once: play here, from what was read
        if needs_files is not None:
            raise click.BadParameter(f"{ref} is not a regular file (a pipe?): it cannot be read again to "
                                     "resume or to send to other machines", param_hint=needs_files)
        if workers > 1:
            click.echo("note: a ruleset file is not a regular file (a pipe?): playing in one process", err=True)
            workers = 1
        sources.append(None)
    return rulesets, sources, seated, workers


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
        yield lambda done: bar.update(done - bar.pos)


@contextmanager
def executor_for(workers: int, scheduler: str | None, source, rs) -> Iterator[tuple[Any, int, int]]:
    """(executor, workers, chunks in flight): a Dask cluster, a local process pool, or this process.

    A few chunks in flight per worker keep it busy; a cluster gets at least
    32, as a task's round trip through its scheduler takes tens of milliseconds.
    """
    from targui_dsl.study import ExecutorUnavailable, dask_executor, local_pool

    if scheduler is not None:
        with ExitStack() as stack:
            try:
                executor, threads = stack.enter_context(dask_executor(scheduler))
            except ExecutorUnavailable as err:
                fail(str(err))
            yield executor, threads, max(32, 4 * threads)
    elif workers > 1:
        with local_pool(workers, source, rs) as pool:
            yield pool, workers, 4 * workers
    else:
        yield None, 1, 1


def run_study(ref: str, rs, source, games: int, players: int, kinds: list[str], seed: int, rotate: bool,
              workers: int, progress: bool, label: str | None = None, scheduler: str | None = None,
              out: str | None = None, records: str | None = None, records_format: str | None = None
              ) -> dict[str, Any]:
    """One study, with a progress bar if asked; its figures (with timing) as `--json` prints them.

    A stop signal (SIGINT, SIGTERM, SIGHUP) stops the workers, keeps the
    finished chunks in --out, and exits 128 + the signal's number.
    """
    from targui_dsl.study import Study
    from targui_dsl.study.figures import summary_figures
    from targui_dsl.study.simulate import timing

    source = playable_source(source, rs)
    study = Study(source, games, players, tuple(kinds), seed, rotate)
    result, workers = play_plan(ref, rs, study, workers, progress, label, scheduler, out, records, records_format)
    figures = summary_figures(result.summary, rs, players, kinds, seed, rotate)
    figures.update(timing(result.games_played, result.decisions_played, result.seconds, result.cpu_seconds,
                          workers))
    return figures


def playable_source(source, rs):
    """The source a plan plays: ``source``, or for a ruleset not in regular files (None) one that
    this process alone can play, from the ruleset already compiled."""
    from targui_dsl.study import RulesetSource
    from targui_dsl.study.source import remember_compiled

    if source is None:  # not in regular files: this process, from what was read
        source = RulesetSource(f"<{rs.id}>", builtins=((f"<compiled {id(rs)}>", ""),))
    remember_compiled(source, rs)
    return source


def play_plan(ref: str, rs, plan, workers: int, progress: bool, label: str | None = None,
              scheduler: str | None = None, out: str | None = None, records: str | None = None,
              records_format: str | None = None):
    """Play a plan of games (a study or a tournament) on the executor asked for, with a progress bar if
    asked: (the runner's StudyResult, workers used). Every failure is one line and its exit status."""
    from targui_dsl.frontend.diagnostics import RulesetError
    from targui_dsl.study import SourceMismatch, StopOnSignals, StudyInterrupted, StudyMismatch
    from targui_dsl.study import run_study as run

    workers = min(workers, plan.chunk_count)
    try:
        with StopOnSignals(), progress_bar(plan.games, label or rs.id, progress) as tick:
            with executor_for(workers, scheduler, plan.source, rs) as (executor, workers, window):
                result = run(plan, executor, out=out, records=records, records_format=records_format,
                             window=window, progress=tick)
    except StudyInterrupted as err:
        kept = f": {err.chunks_kept} of {err.chunk_count} chunks kept in {out}; run the same command " \
               "again to continue" if out else ""
        click.echo(f"\ninterrupted by {err.signal_name}{kept}", err=True)
        sys.exit(err.exit_code)
    except StudyMismatch as err:
        raise click.BadParameter(str(err), param_hint="--out")
    except SourceMismatch as err:
        fail(str(err))
    except RulesetError as err:  # a worker found the file changed since it was checked
        click.echo(render_diagnostics(err.diagnostics, err.sources, color=use_colour(sys.stderr)), err=True)
        fail(f"{ref} changed while the games were played")
    except OSError as err:
        fail(f"cannot write {err.filename or out or records}: {err.strerror or err}")
    return result, workers


def check_records_format(records: str | None, given: str | None, out: str | None) -> str | None:
    """The format --records FILE is written in; a usage error when it cannot be told, when
    pyarrow is missing for Parquet, or for Parquet in a resumable study (it cannot be continued)."""
    from targui_dsl.study.records import RecordsFormatError, records_format

    if records is None:
        if given is not None:
            raise click.BadParameter("needs --records FILE", param_hint="--records-format")
        return None
    try:
        fmt = records_format(records, given)
    except RecordsFormatError as err:
        raise click.BadParameter(str(err), param_hint="--records") from None
    if fmt == "parquet":
        if out is not None:
            raise click.BadParameter("a Parquet file cannot be continued when a study resumes: with --out, "
                                     "write the records as .csv or .jsonl", param_hint="--records")
        if importlib.util.find_spec("pyarrow") is None:
            fail("Parquet records need pyarrow: pip install pyarrow (or write .csv or .jsonl)")
    return fmt


def write_plot(kind: str, result: dict[str, Any], plot_file: str) -> None:
    from targui_dsl.study import plots

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
def simulate(ruleset: str, games: int, players: int, bots: str, seed: int, rotate: bool, workers: int,
             scheduler: str | None, plot_file: str | None, output_format: str, as_json: bool, out: str | None,
             records: str | None, records_format: str | None, against: str | None) -> None:
    """Play many bot games of RULESET and sum them up.

    Wins per seat (tribe) and per bot with 95% confidence intervals, draws,
    game lengths, attacks, camels bought, eliminations, how games end, and
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
      targui simulate updated-treasury -n 2000 -p 3 --bots greedy,random --rotate -w 0
      targui simulate original-dutch -n 200 --bots ismcts:iterations=100,greedy --rotate -w 0
      targui simulate swedish-12 -n 500 --json > summary.json
      targui simulate original-dutch -n 1000 --plot wins.png
      targui simulate updated-treasury -n 1000000 -w 0 --out study.jsonl --records games.csv
      targui simulate my-rule.yaml -n 100000 --scheduler tcp://10.0.0.5:8786
    """
    as_json = wants_json(output_format, as_json)
    if against is not None:
        for flag, value in (("--out", out), ("--records", records), ("--records-format", records_format)):
            if value is not None:
                raise click.BadParameter("not with --against (a comparison plays two studies)", param_hint=flag)
        from targui_cli.compare import run_compare

        run_compare(ruleset, against, games, players, bots, seed, rotate, workers, scheduler, plot_file, as_json)
        return
    needs_files = "--out" if out is not None else "--scheduler" if scheduler is not None else None
    (rs,), (source,), kinds, workers = check_study([ruleset], players, bots, seed, workers, plot_file, needs_files)
    records_format = check_records_format(records, records_format, out)
    for path, flag in ((out, "--out"), (records, "--records")):
        if path is not None:
            check_writable(path, flag)
    if out is not None and records is not None and os.path.abspath(out) == os.path.abspath(records):
        raise click.BadParameter("--out and --records need two different files", param_hint="--records")
    result = run_study(ruleset, rs, source, games, players, kinds, seed, rotate, workers, show_progress(as_json),
                       scheduler=scheduler, out=out, records=records, records_format=records_format)
    if as_json:
        echo_json(result)
    else:
        click.echo(visible(render_summary(result), keep_newlines=True))
    if plot_file is not None:
        write_plot("simulation", result, plot_file)


# Text output ------------------------------------------------------------------

def format_p(p: float | None) -> str:
    """A p-value as tables print it: `n/a`, `< 0.001`, or three decimals."""
    if p is None:
        return "n/a"
    if p < 0.001:
        return "< 0.001"
    return f"{p:.3f}"


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
            row = f"  {titles[card][:width - 2]:<{width - 2}} {c['drawn']:>6}"
            if c.get("this_round") and not any(per.values()):  # a modifier: nothing to count, say what it does
                lines.append(f"{row}   until the round's levy: {', '.join(c['this_round'])}")
                continue
            lines.append(f"{row} {per['camels_removed']:>9.2f}"
                         f" {per['camels_added']:>9.2f} {per['cash_taken']:>9.2f} {per['cash_given']:>9.2f}")
        lines.append("")

    lines.append(played_line(result, games))
    return "\n".join(lines)


def played_line(result: dict[str, Any], games: int) -> str:
    """The closing line of a study or tournament: how much was played, how fast, how many from --out."""
    workers = result.get("workers", 1)
    played = result.get("games_played", games)
    resumed = f"; {games - played} games taken from --out" if played < games else ""
    per_decision = f", {result['decisions_per_second']} decisions/s" if "decisions_per_second" in result else ""
    return (f"{result['decisions']} decisions; {played} games played in {result['seconds']:.2f} s"
            f" ({result['games_per_second']} games/s{per_decision}"
            f"{f', {workers} workers' if workers > 1 else ''}{resumed})")
