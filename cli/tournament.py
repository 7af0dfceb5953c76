"""`targui tournament`: bots play every seat in turn; a table of wins and ratings with intervals."""

from __future__ import annotations

import os
from typing import Any

import click

from targui_cli.common import (
    RULESET_HELP,
    check_bots_for,
    check_writable,
    complete_bots,
    complete_ruleset,
    echo_json,
    format_option,
    load_or_exit,
    parse_bots,
    wants_json,
)
from targui_cli.studyopts import (
    MAX_GAMES,
    MAX_WORKERS,
    check_records_format,
    play_plan,
    playable_source,
    played_line,
    show_progress,
)
from targui_dsl.frontend.safefile import same_file
from targui_dsl.frontend.text import visible
from targui_dsl.games.targui.compiled import CompiledRuleset
from targui_dsl.study.records import RECORD_FORMATS

MAX_RESAMPLES = 100_000

HELP = """Play a tournament of bots on RULESET and rate them.

\b
Every bot plays every seat equally often. With k bots and n seats (k >= n),
a round is every choice of n of the k bots, each played n times with the
bots shifted one seat a game: C(k, n) * n games, in which each bot plays
each seat equally often and meets each other bot equally often. Rounds
then cycle through the (n-1)! orders in which the chosen bots sit, so that
after (n-1)! rounds every seating has been played once. --games is rounded
up to whole rounds (a note on standard error says so).

\b
A tournament needs at least two bots, each named once, and at least as many
bots as seats: it seats each bot at most once a game and refuses to fill
seats with copies. --players defaults to the largest player count the
ruleset seats that is not above the number of bots (two bots: two players).

\b
The table, best rated first, gives per bot its games, its wins (a draw's
win is split between its winners), its win share with a 95% Wilson
interval (parity is one game in n), a rating with a 95% interval, and its
wins in each seat. The rating is a Bradley-Terry fit on the Elo scale
(mean 1500) to every game's pairwise placings (winners first, the others
by final score); its interval is the wider of a bootstrap over games
(--resamples) and the model's own. docs/tournament.md explains both.

\b
Game i is played with a seed derived from --seed and i, so a tournament
gives the same table whatever runs it: one process, --workers, or a Dask
cluster (--scheduler). With --out, each finished chunk of games is kept
and the same command run again continues the tournament; --records
FILE writes one row per game (the bot in each seat included). A progress bar
is drawn on standard error when it is a terminal (text format only).
Bots are spelled as everywhere (`targui bots`), parameters included:
`ismcts:iterations=100`.

\b
Exit status:
  0    the games were played and the bots rated
  1    the ruleset has errors (diagnostics printed), an --out file cannot
       be written, or the Dask scheduler cannot be reached
  2    a usage error: an unknown or repeated bot, fewer than two bots,
       fewer bots than seats, a player count the ruleset cannot seat, a
       bad option, an --out file that holds another tournament
  130  interrupted by Ctrl-C (SIGINT); 143 by SIGTERM, 129 by SIGHUP

\b
Examples:
  targui tournament original-dutch --bots random,greedy --games 200
  targui tournament swedish-12 --bots random,greedy,ismcts -n 600 -w 0
  targui tournament swedish-12 --bots greedy,ismcts:iterations=100,ismcts:iterations=400 --json
  targui tournament original-dutch --bots random,greedy -n 100000 -w 0 --out tournament.jsonl
  targui tournament swedish-12 --bots random,greedy -n 200 --records games.csv
"""


def default_players(rs: CompiledRuleset, bots: int) -> int:
    """The largest player count the ruleset seats that the bots can fill (each bot once a game)."""
    fitting = [n for n in rs.player_counts if n <= bots]
    if not fitting:
        raise click.BadParameter(f"{rs.id} seats {', '.join(map(str, rs.player_counts))} players: name at least "
                                 f"{min(rs.player_counts)} bots", param_hint="--bots")
    return max(fitting)


def _check_once_each(spellings: list[str]) -> None:
    repeated = sorted({b for b in spellings if spellings.count(b) > 1})
    if repeated:
        raise click.BadParameter(f"`{repeated[0]}` is named twice: each bot plays once a game "
                                 "(give a copy other parameters to rate it apart)", param_hint="--bots")


@click.command(help=HELP, epilog=RULESET_HELP, short_help="Bots play every seat in turn; wins and ratings.")
@click.argument("ruleset", metavar="RULESET", shell_complete=complete_ruleset)
@click.option("--bots", required=True, metavar="BOT,BOT,...", shell_complete=complete_bots,
              help="The bots, comma-separated, at least two, each once (see `targui bots`).")
@click.option("--games", "-n", type=click.IntRange(1, MAX_GAMES), default=100, show_default=True,
              help="Games to play, rounded up to whole rounds.")
@click.option("--players", "-p", type=int, default=None,
              help="Seats a game [default: the most the ruleset seats, at most one per bot].")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Tournament seed; game i is played with a seed derived from it and i.")
@click.option("--workers", "-w", type=click.IntRange(0, MAX_WORKERS), default=1, show_default=True,
              help="Play in this many local processes (0: one per CPU); the results do not depend on it.")
@click.option("--scheduler", metavar="ADDRESS", default=None,
              help="Play on the Dask cluster whose scheduler is at ADDRESS (pip install 'targui[dask]').")
@click.option("--out", metavar="PATH", type=click.Path(dir_okay=False), default=None,
              help="Keep each finished chunk of games in PATH; the same command run again continues.")
@click.option("--records", "records", metavar="FILE", type=click.Path(dir_okay=False), default=None,
              help="Write one row per game to FILE (the seats' bots in bot_1, bot_2...), in the format its "
                   "extension names: .csv, .jsonl or .parquet (needs pyarrow), as `targui simulate --records`.")
@click.option("--records-format", type=click.Choice(sorted(RECORD_FORMATS)), default=None,
              help="The format of --records FILE whatever its extension.  [default: by the extension]")
@click.option("--resamples", type=click.IntRange(0, MAX_RESAMPLES), default=1000, show_default=True,
              help="Bootstrap resamples for the rating intervals (0: the model's interval only).")
@format_option
def tournament(ruleset: str, bots: str, games: int, players: int | None, seed: int, workers: int,
               scheduler: str | None, out: str | None, records: str | None, records_format: str | None,
               resamples: int, output_format: str, as_json: bool) -> None:
    from targui_dsl.study import RulesetSource
    from targui_dsl.study.simulate import timing
    from targui_dsl.study.tournament import Tournament, round_size, rounded_games, tournament_figures

    as_json = wants_json(output_format, as_json)
    spellings = parse_bots(bots)
    _check_once_each(spellings)
    if len(spellings) < 2:
        raise click.BadParameter("a tournament needs at least two bots (one bot alone: `targui simulate`)",
                                 param_hint="--bots")
    rs = load_or_exit(ruleset)
    spellings = check_bots_for(rs, spellings)
    _check_once_each(spellings)  # a level is its game's bot: `hard` and that bot's spelling are one bot
    if players is None:
        players = default_players(rs, len(spellings))
    elif players not in rs.player_counts:
        raise click.BadParameter(f"ruleset {rs.id} seats {', '.join(map(str, rs.player_counts))} players, "
                                 f"not {players}", param_hint="--players")
    if len(spellings) < players:
        raise click.BadParameter(f"{players} seats need at least {players} bots: a tournament seats each bot "
                                 f"once a game (name more bots, or use --players {len(spellings)} if the ruleset "
                                 "seats that many)", param_hint="--bots")
    size = round_size(len(spellings), players)
    played = rounded_games(games, len(spellings), players)
    if played > MAX_GAMES:
        raise click.BadParameter(f"{games} games round up to {played}, more than {MAX_GAMES:,}", param_hint="--games")
    if played != games:
        click.echo(f"note: {games} games rounded up to {played}, whole rounds of {size}, so that every bot "
                   "plays every seat equally often", err=True)
    records_format = check_records_format(records, records_format, out)
    for path, flag in ((out, "--out"), (records, "--records")):
        if path is not None:
            check_writable(path, flag)
    if out is not None and records is not None and same_file(out, records):  # any spelling, any link
        raise click.BadParameter("--out and --records need two different files", param_hint="--records")
    if not all(os.path.isfile(f) for f in rs.files):
        if out is not None or scheduler is not None:
            raise click.BadParameter(f"{ruleset} is not a regular file (a pipe?): it cannot be read again to "
                                     "resume or to send to other machines",
                                     param_hint="--out" if out is not None else "--scheduler")
        source = playable_source(None, rs)
        workers = 1
    else:
        source = playable_source(RulesetSource.from_reference(ruleset), rs)
    workers = workers or os.cpu_count() or 1
    plan = Tournament(source, played, players, tuple(spellings), seed)
    result, workers = play_plan(ruleset, rs, plan, workers, show_progress(as_json), f"{rs.id} tournament",
                                scheduler, out, records, records_format)
    figures = tournament_figures(result.summary, plan, rs, resamples)
    figures["games_asked"] = games
    figures.update(timing(result.games_played, result.decisions_played, result.seconds, result.cpu_seconds,
                          workers))
    if as_json:
        echo_json(figures)
    else:
        click.echo(visible(render_tournament(figures), keep_newlines=True))


def _number(value: float) -> str:
    """A count of wins: whole, or with the halves (thirds...) of split draws."""
    return f"{value:.0f}" if value == int(value) else f"{value:.1f}"


def render_tournament(result: dict[str, Any]) -> str:
    """The tournament as a table for a person to read."""
    players, games = result["players"], result["games"]
    rounds = result["rounds_played"]
    lines = [f"{result['title']} ({result['ruleset']}): tournament of {len(result['bots'])} bots, {players} players,"
             f" {games} games ({rounds:g} round{'s' if rounds != 1 else ''} of {result['round']}),"
             f" seed {result['seed']}",
             f"parity: {100 * result['parity']:.1f}% of the wins each; {result['draws']} drawn games, "
             "their wins split between the winners",
             ""]
    header = ["bot", "games", "wins", "share", "95% CI", "rating", "95% CI"]
    header += [f"seat {s + 1}" for s in range(players)]
    rows = [header]
    for row in result["table"]:
        low, high = row["ci"]
        rows.append([row["bot"], str(row["games"]), _number(row["wins"]), f"{100 * row['share']:.1f}%",
                     f"{100 * low:.1f}-{100 * high:.1f}%", f"{row['rating']:.0f}",
                     f"{row['rating_ci'][0]:.0f}-{row['rating_ci'][1]:.0f}",
                     *(_number(seat["wins"]) for seat in row["seats"])])
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    for n, r in enumerate(rows):
        cells = [r[0].ljust(widths[0])] + [r[i].rjust(widths[i]) for i in range(1, len(r))]
        lines.append("  ".join(cells).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    per_seat = result["table"][0]["seats"][0]["games"] if result["table"] else 0
    lines.append("")
    lines.append(f"seat N: wins in seat N, of {per_seat} games each bot played there.")
    rating = result["rating"]
    interval = (f"the wider of a bootstrap over games ({rating['resamples']} resamples) and the model's"
                if rating["resamples"] else "the model's (no bootstrap)")
    lines.append("rating: Bradley-Terry fit to pairwise placings, Elo scale, mean 1500; "
                 f"95% interval: {interval}.")
    lines.append("")
    lines.append(played_line(result, games))
    return "\n".join(lines)


__all__ = ["render_tournament", "tournament"]
