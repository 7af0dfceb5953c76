"""`targui play`: one all-bot game, told turn by turn."""

from __future__ import annotations

import click

from targui_dsl.agents import agent_kinds

from .common import RULESET_HELP, load_or_exit


def parse_bots(value: str) -> list[str]:
    """`greedy,random` -> ["greedy", "random"]; unknown kinds are a usage error (exit 2)."""
    kinds = [k.strip() for k in value.split(",") if k.strip()]
    unknown = [k for k in kinds if k not in agent_kinds()]
    if not kinds or unknown:
        raise click.BadParameter(f"unknown bot {', '.join(map(repr, unknown)) or '(none given)'}; "
                                 f"bots: {', '.join(agent_kinds())}", param_hint="--bots")
    return kinds


def seat_game(rs, players: int, seed: int, kinds: list[str]):
    """(Game, bot per seat), or a usage error (exit 2) when the ruleset cannot seat them."""
    from targui_dsl.engine import Game
    from targui_dsl.simulate import seat_bots

    try:
        game = Game(rs, players=players, seed=seed)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--players") from None
    try:
        return game, seat_bots(kinds, players)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--bots") from None


@click.command(epilog=RULESET_HELP)
@click.argument("ruleset", metavar="RULESET")
@click.option("--players", "-p", type=int, default=4, show_default=True,
              help="Number of players (the ruleset says which counts it seats).")
@click.option("--bots", default="greedy,random", show_default=True,
              help="Bot per seat, comma-separated (random, greedy); a shorter list repeats its last bot.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed for dice, shuffles and bots: the same seed plays the same game.")
@click.option("--log", "log_file", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Also write the game's event log (JSON lines) to this file.")
@click.option("--board/--no-board", default=True, show_default=True,
              help="Print the board after setup and at the end.")
def play(ruleset: str, players: int, bots: str, seed: int, log_file: str | None, board: bool) -> None:
    """Play one game of RULESET between bots and print its course.

    One line per decision, throw, (mis)fortune card and round end, then the
    result. Every seat is a bot.
    """
    from targui_dsl.engine import EventLog, Narrator
    from targui_dsl.simulate import agents_for

    kinds = parse_bots(bots)
    rs = load_or_exit(ruleset)
    game, seated = seat_game(rs, players, seed, kinds)
    narrate = Narrator(game)
    click.echo("Seats: " + ", ".join(f"{s + 1} {game.tribe_name(s)} ({kind})" for s, kind in enumerate(seated)))
    holder: dict = {}

    def tell(event: dict) -> None:
        if board and event["type"] == "round" and event["round"] == 1 and "state" in holder:
            click.echo(str(holder["state"]))  # the board as dealt and settled
        line = narrate(event)
        if line is not None:
            click.echo(line)

    stream = open(log_file, "w", encoding="utf-8") if log_file else None
    try:
        log = EventLog(stream, keep=False)
        log.listeners.append(tell)
        agents = agents_for(game, seated)
        state = holder["state"] = game.new_initial_state(log=log)
        while not state.is_terminal():
            state.apply_action(agents[state.current_player()].choose(state))
    finally:
        if stream is not None:
            stream.close()
    if board:
        click.echo(str(state))
