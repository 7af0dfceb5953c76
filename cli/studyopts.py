"""What the study commands (`simulate`, `compare`, `tournament`) share: their options, the
checks before any game runs, playing a plan with a progress bar, the plot, and the tables'
figures. Commands import this module, never each other."""

from __future__ import annotations

import importlib.util
import os
import sys
from contextlib import ExitStack, contextmanager
from typing import TYPE_CHECKING, Any, Callable, Iterator

import click

from targui_cli.common import (
    F,
    Failure,
    check_writable,
    complete_bots,
    echo_json,
    exit_with,
    fail,
    format_option,
    load_or_exit,
    package_of,
    parse_bots,
    players_for,
    render_diagnostics,
    seat_game,
    use_colour,
)
from targui_dsl.agents import DEFAULT_BOTS
from targui_dsl.engine.protocol import GamePackage
from targui_dsl.frontend.text import visible

if TYPE_CHECKING:  # types only: the study modules load when games are played
    from targui_dsl.games.targui.compiled import CompiledRuleset
    from targui_dsl.study.chunks import Study
    from targui_dsl.study.runner import StudyResult
    from targui_dsl.study.source import RulesetSource
    from targui_dsl.study.tournament import Tournament

PLOT_SUFFIXES = (".png", ".svg", ".pdf")
MAX_GAMES = 5_000_000  # memory stays flat (docs/simulate.md); beyond this, hours turn into days
MAX_WORKERS = 256


def study_options(func: F) -> F:
    """The options `simulate` and `compare` share: which games, how many, where, how to report them."""
    options = [
        click.option("--games", "-n", type=click.IntRange(1, MAX_GAMES), default=100, show_default=True,
                     help=f"Number of games to play (per ruleset), 1 to {MAX_GAMES:,}."),
        click.option("--players", "-p", type=int, default=None,
                     help="Number of players (the ruleset says which counts it seats).  [default: 4, or the"
                          " most the ruleset seats when that is fewer: 2 for Targi]"),
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


def check_study(ruleset_refs: list[str], players: int | None, bots: str, seed: int, workers: int,
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
        _, seated = seat_game(rs, players_for(rs, players), seed, kinds)
    if plot_file is not None:
        from targui_dsl.study.plots import PlotUnavailable, require_matplotlib

        try:
            require_matplotlib()
        except PlotUnavailable as err:
            raise Failure(str(err), prefix="targui: ") from None
    workers = workers or os.cpu_count() or 1
    sources: list[RulesetSource | None] = []
    for ref, rs in zip(ruleset_refs, rulesets, strict=True):
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


def show_progress(as_json: bool, stream: Any = None) -> bool:
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
def executor_for(workers: int, scheduler: str | None, source: RulesetSource, rs: CompiledRuleset,
                 ) -> Iterator[tuple[Any, int, int]]:
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


def run_study(ref: str, rs: CompiledRuleset, source: RulesetSource | None, games: int, players: int | None,
              kinds: list[str],
              seed: int, rotate: bool,
              workers: int, progress: bool, label: str | None = None, scheduler: str | None = None,
              out: str | None = None, records: str | None = None, records_format: str | None = None,
              records_columns: dict[str, Any] | None = None) -> dict[str, Any]:
    """One study, with a progress bar if asked; its figures (with timing) as `--json` prints them.

    A stop signal (SIGINT, SIGTERM, SIGHUP) stops the workers, keeps the
    finished chunks in --out, and exits 128 + the signal's number.
    """
    players = players_for(rs, players)
    from targui_dsl.study import Study
    from targui_dsl.study.simulate import study_figures

    source = playable_source(source, rs)
    study = Study(source, games, players, tuple(kinds), seed, rotate)
    result, workers = play_plan(ref, rs, study, workers, progress, label, scheduler, out, records, records_format,
                                records_columns)
    return study_figures(result, rs, players, kinds, seed, rotate, workers)


def playable_source(source: RulesetSource | None, rs: CompiledRuleset) -> RulesetSource:
    """The source a plan plays: ``source``, or for a ruleset not in regular files (None) one that
    this process alone can play, from the ruleset already compiled."""
    from targui_dsl.study import RulesetSource
    from targui_dsl.study.source import remember_compiled

    if source is None:  # not in regular files: this process, from what was read
        source = RulesetSource(f"<{rs.id}>", builtins=((f"<compiled {id(rs)}>", ""),))
    remember_compiled(source, rs)
    return source


def play_plan(ref: str, rs: CompiledRuleset, plan: Study | Tournament, workers: int, progress: bool,
              label: str | None = None,
              scheduler: str | None = None, out: str | None = None, records: str | None = None,
              records_format: str | None = None, records_columns: dict[str, Any] | None = None
              ) -> tuple[StudyResult, int]:
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
                             window=window, progress=tick, records_columns=records_columns)
    except StudyInterrupted as err:
        kept = f": {err.chunks_kept} of {err.chunk_count} chunks kept in {out}; run the same command " \
               "again to continue" if out else ""
        click.echo(f"\ninterrupted by {err.signal_name}{kept}", err=True)
        exit_with(err.exit_code)
    except StudyMismatch as err:
        raise click.BadParameter(str(err), param_hint="--out") from None
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
        raise Failure(str(err), prefix="targui: ") from None
    except OSError as err:
        raise Failure(f"cannot write {plot_file}: {err.strerror or err}", prefix="targui: ") from None
    click.echo(f"plot written to {plot_file}", err=True)


# Text output shared by the study commands ----------------------------------------

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


def played_line(result: dict[str, Any], games: int) -> str:
    """The closing line of a study or tournament: how much was played, how fast, how many from --out."""
    workers = result.get("workers", 1)
    played = result.get("games_played", games)
    resumed = f"; {games - played} games taken from --out" if played < games else ""
    per_decision = f", {result['decisions_per_second']} decisions/s" if "decisions_per_second" in result else ""
    return (f"{result['decisions']} decisions; {played} games played in {result['seconds']:.2f} s"
            f" ({result['games_per_second']} games/s{per_decision}"
            f"{f', {workers} workers' if workers > 1 else ''}{resumed})")


# Rulesets compared (`compare`, `simulate --against`) ---------------------------------

def study_file_of(path: str, label: str) -> str:
    """The file of one ruleset's study in a comparison: ``games.csv`` for ``swedish-12`` is
    ``games.swedish-12.csv`` (the label: the ruleset's id, or its letter when ids repeat)."""
    stem, extension = os.path.splitext(path)
    return f"{stem}.{label}{extension}"


def run_compare(refs: list[str], games: int, players: int | None, bots: str, seed: int, rotate: bool,
                workers: int, scheduler: str | None, plot_file: str | None, as_json: bool,
                out: str | None = None, records: str | None = None, records_format: str | None = None) -> None:
    """`compare` and `simulate --against`: check everything, play a study per ruleset, report.

    With --out PATH and --records FILE, each ruleset's study has its own files, named
    from PATH and FILE by :func:`study_file_of`; a row of the records names its ruleset.
    """
    from targui_dsl.frontend.safefile import same_file
    from targui_dsl.study.figures import compare_figures, compare_many, study_labels

    if plot_file is not None and len(refs) > 2:
        raise click.BadParameter("a plot draws two rulesets; compare three or more without --plot",
                                 param_hint="--plot")
    needs_files = "--out" if out is not None else "--scheduler" if scheduler is not None else None
    rulesets, sources, kinds, workers = check_study(refs, players, bots, seed, workers, plot_file, needs_files)
    records_format = check_records_format(records, records_format, out)
    labels = study_labels([rs.id for rs in rulesets])
    outs = [study_file_of(out, label) if out is not None else None for label in labels]
    rows = [study_file_of(records, label) if records is not None else None for label in labels]
    for paths, flag in ((outs, "--out"), (rows, "--records")):
        for path in paths:
            if path is not None:
                check_writable(path, flag)
    for path_out, path_rows in zip(outs, rows, strict=True):
        if path_out is not None and path_rows is not None and same_file(path_out, path_rows):
            raise click.BadParameter("--out and --records need two different files", param_hint="--records")
    progress = show_progress(as_json)
    studies = [run_study(ref, rs, source, games, players, kinds, seed, rotate, workers, progress,
                         f"{letter(n)} {rs.id}", scheduler=scheduler, out=path_out,
                         records=path_rows, records_format=records_format,
                         records_columns={"ruleset": label} if path_rows is not None else None)
               for n, (ref, rs, source, label, path_out, path_rows)
               in enumerate(zip(refs, rulesets, sources, labels, outs, rows, strict=True))]
    package = package_of(rulesets[0])
    if len(studies) == 2:  # a pair: the table and the JSON of a two-ruleset comparison
        a, b = studies
        result = compare_figures(a, b)
        label_a, label_b = result["labels"]
        result["verdicts"] = [verdict(row, a, b, package, label_a, label_b)
                              for row in result["rows"] if row["significant"]]
        text = render_comparison
    else:
        result = compare_many(studies)
        first = result["labels"][0]
        pair_rows = zip(*(c["rows"] for c in result["comparisons"]), strict=True)  # a figure's row in each pair
        result["verdicts"] = [
            verdict({**pair_row, "p": difference["p_holm"]}, studies[0], studies[n + 1], package, first,
                    difference["ruleset"], "Holm-adjusted p")
            for row, pairs in zip(result["rows"], pair_rows, strict=True)
            for n, (difference, pair_row) in enumerate(zip(row["differences"], pairs, strict=True))
            if difference["significant"]]
        text = render_many
    if out is not None:
        result["out"] = [path for path in outs if path is not None]
    if records is not None:
        result["records"] = [path for path in rows if path is not None]
    if as_json:
        echo_json(result)
    else:
        click.echo(visible(text(result), keep_newlines=True))
        if out is not None or records is not None:
            played = sum(s.get("games_played", games) for s in studies)
            kept = ", ".join(result.get("out", []) + result.get("records", []))
            click.echo(f"\n{played} of {games * len(studies)} games played in this run; studies in {kept}")
    if plot_file is not None:
        write_plot("comparison", result, plot_file)


def letter(n: int) -> str:
    """The name of the n-th ruleset of a comparison (from 0): A, B, C..., then R27, R28..."""
    return chr(ord("A") + n) if n < 26 else f"R{n + 1}"


def render_many(result: dict[str, Any]) -> str:
    """Three rulesets or more: a column per ruleset, then per ruleset after the first its difference
    against the first, its 95% interval, p, Holm-adjusted p and whether it is significant after Holm."""
    labels = result["labels"]
    first = labels[0]
    letters = [letter(n) for n in range(len(labels))]
    lines = [f"{mark} = {s['title']} ({s['ruleset']})" for mark, s in zip(letters, result["summaries"].values(),
                                                                             strict=True)]
    lines.append(f"{result['games']} games each, {result['players']} players, bots {bots_text(result['bots'])}"
                 f"{' (rotated)' if result['rotate'] else ''}, seed {result['seed']}: the same seeds and bots for all")
    lines.append("")
    heading = ["metric", *labels]
    for mark in letters[1:]:
        heading += [f"{mark} - A", "95% CI", "p", "p Holm", "sig."]
    table = [tuple(heading)]
    for row in result["rows"]:
        rate = row["test"] == "z"
        cells = [row["metric"], *(f"{100 * v:.1f}%" if rate else f"{v:.2f}" for v in row["values"])]
        for d in row["differences"]:
            ci = d["ci"]
            if rate:
                cells += [f"{100 * d['difference']:+.1f} pt", f"{100 * ci[0]:+.1f}..{100 * ci[1]:+.1f}"]
            else:
                cells += [f"{d['difference']:+.2f}", f"{ci[0]:+.2f}..{ci[1]:+.2f}" if ci is not None else "n/a"]
            cells += [format_p(d["p"]), format_p(d["p_holm"]), "yes *" if d["significant"] else "no"]
        table.append(tuple(cells))
    widths = [max(len(r[i]) for r in table) for i in range(len(table[0]))]
    for n, r in enumerate(table):
        lines.append("  ".join([r[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(r[1:], widths[1:], strict=True)])
                     .rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    lines.append("")
    lines.append(f"Each ruleset against A ({first}): two-proportion z-test and Wald interval for rates, Welch's t-test "
                 "and interval for means;")
    lines.append(f"p Holm: p adjusted by Holm's step-down for the {len(labels) - 1} comparisons of each figure; "
                 f"sig.: p Holm < {result['alpha']}.")
    lines.append("")
    if result["verdicts"]:
        lines.append("Significant differences (after Holm):")
        lines.extend(f"  {v}" for v in result["verdicts"])
    else:
        lines.append(f"No significant difference at {result['alpha']} after Holm in {result['games']} games each.")
    return "\n".join(lines)


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

def _words(row: dict[str, Any], a: dict[str, Any], b: dict[str, Any],
           package: GamePackage) -> tuple[str, str, str]:
    """(words if B is above A, words if below, unit) for a row of the comparison; a per-game
    mean in the game's words (``package.metrics``)."""
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
    from targui_dsl.study.figures import end_figure, mean_figure, seat_figures

    if key.startswith("end_reasons."):
        ending = end_figure(package, key[len("end_reasons."):])
        return ending.more, ending.fewer, "%"

    if key.startswith(("scores.seat", "per_seat.")):  # a figure per seat at the end
        head, seat_key = key.rsplit(".", 1)
        seat = int(seat_key[len("seat"):])
        name_a = a["win_rates"][a["tribes"][seat - 1]]["name"]
        name_b = b["win_rates"][b["tribes"][seat - 1]]["name"]
        who = f"{name_a if name_a == name_b else f'{name_a} / {name_b}'} (seat {seat})"
        if head == "scores":
            return f"{who} scores more", f"{who} scores less", "points"
        figure = next(f for f in seat_figures(package) if f.key == head[len("per_seat."):])
        return figure.more.format(who=who), figure.fewer.format(who=who), figure.unit
    figure = mean_figure(package, key[len("metrics."):])
    return figure.more, figure.fewer, figure.unit


def format_figure(value: float, unit: str) -> str:
    """A figure of a comparison: a rate as a percentage, a mean with two decimals."""
    return f"{100 * value:.1f}%" if unit == "%" else f"{value:.2f}"


def verdict(row: dict[str, Any], a: dict[str, Any], b: dict[str, Any], package: GamePackage,
            label_a: str = "A", label_b: str = "B", p_name: str = "p") -> str:
    """One sentence for a difference, e.g. "Under B, games last longer: 17.00 rounds against 16.00 under A
    (p < 0.001)."; the game's figures in its words (``package``)."""
    more, fewer, unit = _words(row, a, b, package)
    words = more if row["difference"] > 0 else fewer
    value_a, value_b = format_figure(row["a"], unit), format_figure(row["b"], unit)
    unit_text = "" if unit == "%" else f" {unit}"
    p = format_p(row["p"])
    return (f"Under {label_b}, {words}: {value_b}{unit_text} against {value_a} under {label_a}"
            f" ({p_name} {p if p.startswith('<') else '= ' + p}).")
