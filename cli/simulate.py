"""`targui simulate`: many bot games, summed up."""

from __future__ import annotations

import json

import click

from .common import RULESET_HELP, load_or_exit
from .play import parse_bots, seat_game


@click.command(epilog=RULESET_HELP)
@click.argument("ruleset", metavar="RULESET")
@click.option("--games", "-n", type=click.IntRange(min=1), default=100, show_default=True, help="Number of games to play.")
@click.option("--players", "-p", type=int, default=4, show_default=True,
              help="Number of players (the ruleset says which counts it seats).")
@click.option("--bots", default="random", show_default=True,
              help="Bot per seat, comma-separated (random, greedy); a shorter list repeats its last bot.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Batch seed; game i is played with a seed derived from it and i.")
@click.option("--rotate/--no-rotate", default=False, show_default=True,
              help="Shift the bots one seat each game, so that no bot always plays first.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of a summary.")
def simulate(ruleset: str, games: int, players: int, bots: str, seed: int, rotate: bool, as_json: bool) -> None:
    """Play many bot games of RULESET: wins per tribe and per bot, draws, game length, speed."""
    from targui_dsl.simulate import run_games

    kinds = parse_bots(bots)
    rs = load_or_exit(ruleset)
    seat_game(rs, players, seed, kinds)  # usage errors before any game runs
    result = run_games(rs, games=games, players=players, bots=kinds, seed=seed, rotate=rotate)
    if as_json:
        click.echo(json.dumps(result, indent=2))
        return
    names = {t.id: t.name for t in rs.tribes}
    click.echo(f"{rs.title} ({rs.id}): {games} games, {players} players, bots {', '.join(result['bots'])}"
               f"{' (rotated)' if rotate else ''}, seed {seed}")
    for tribe, wins in result["wins"].items():
        if tribe in names and (wins or not rotate):
            click.echo(f"  {names[tribe]:<14} {wins:>6} wins  {100 * wins / games:5.1f}%")
    for kind, wins in result["wins_by_bot"].items():
        click.echo(f"  bot {kind:<10} {wins:>6} wins  {100 * wins / games:5.1f}%")
    click.echo(f"  draws          {result['draws']:>6}       {100 * result['draws'] / games:5.1f}%")
    rounds = result["rounds"]
    click.echo(f"  rounds: mean {rounds['mean']:.2f}, min {rounds['min']}, max {rounds['max']};"
               f" ends: {', '.join(f'{k} {v}' for k, v in sorted(result['end_reasons'].items()))}")
    click.echo(f"  {result['decisions']} decisions in {result['seconds']:.2f} s"
               f" ({result['games_per_second']} games/s, {result['decisions_per_second']} decisions/s)")
