"""`targui train`: fit a ruleset's position score to bot games, for the search bot."""

from __future__ import annotations

from pathlib import Path

import click

from targui_cli.common import (
    RULESET_HELP,
    check_bots_for,
    check_writable,
    complete_bots,
    complete_ruleset,
    echo_json,
    fail,
    format_option,
    load_or_exit,
    package_of,
    parse_bots,
    wants_json,
)
from targui_cli.studyopts import MAX_GAMES, progress_bar, show_progress

HELP = """Fit RULESET's position score to the results of bot games.

\b
The search bot (`ismcts`) ends each look-ahead with a position score. A
learned one is a chance to win per seat, a softmax over the seats still in
play of weighted numbers the game gives for each seat (for Targui: score,
pieces, money, its home, and the territories held of each kind the ruleset
lists, so a house rule's kinds are weighed as its games show them; for
Targi: score, goods, gold, the hand card, the display; some also weighed by
how far the game has gone).
`train` plays --games bot games (--bots, seats rotated, over every
player count the ruleset seats in turn), notes positions with who won in the
end, fits the weights by maximum likelihood (numpy), and writes them as JSON:
by default to the cache folder ($XDG_CACHE_HOME/targui/scores/, else
~/.cache/targui/scores/) under the ruleset's hash, where `ismcts` finds them.
A file is used only for the ruleset it was fitted to: change the ruleset and
it is trained again. The built-in rulesets ship theirs. docs/bots.md says more.

\b
The last fifth of the games is held out: the report gives the fit's log-loss
on it against the hand-written weights (scaled to odds) and a uniform guess,
and how often its favourite seat won. The built-in rulesets' shipped weights
are `targui train NAME --games 600 --seed 1 --out FILE`.

\b
A house rule gets weights of its own, trained on its games. To play it with
a built-in ruleset's learned score instead (its base variant's judgement,
say, to see what training for the house rule changed), spell the search bot
`ismcts:weights=NAME`: NAME is one of the built-in rulesets of the game
(`targui bots` lists them), never a file. `ismcts:learned=1` uses the
ruleset's own.

\b
Exit status:
  0    the weights were fitted and written
  1    the ruleset has errors (diagnostics printed), the game gives nothing to
       learn from, numpy is missing, or the file cannot be written
  2    a usage error (a bad option, an unknown bot)

\b
Examples:
  targui train rulesets/examples/rich-oases.yaml
  targui train swedish-12 --games 1000 --seed 3 --out swedish.json
  targui simulate rich-oases -n 200 -p 2 --rotate \\
      --bots ismcts:learned=1,ismcts:weights=swedish-12
"""


@click.command(help=HELP, epilog=RULESET_HELP, short_help="Fit a ruleset's position score for the search bot.")
@click.argument("ruleset", shell_complete=complete_ruleset)
@click.option("--games", "-n", type=click.IntRange(1, MAX_GAMES), default=600, show_default=True,
              help="Bot games to learn from.")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=1, show_default=True,
              help="Seed of the games (the same seed fits the same weights).")
@click.option("--bots", default="greedy", show_default=True, shell_complete=complete_bots,
              help="The bots that play them (seats rotated), spelled as in `targui bots`.")
@click.option("--out", "out", type=click.Path(dir_okay=False), default=None,
              help="Write the weights here instead of the cache folder.")
@format_option
def train(ruleset: str, games: int, seed: int, bots: str, out: str | None, output_format: str,
          as_json: bool) -> None:
    from targui_dsl.agents.learned import cached_path, remember, write_score
    from targui_dsl.agents.training import TrainingError
    from targui_dsl.agents.training import train as fit_score

    rs = load_or_exit(ruleset, "no weights fitted")
    if package_of(rs).features is None:
        fail(f"{package_of(rs).title} gives no features to learn a position score from")
    kinds = parse_bots(bots)
    kinds = check_bots_for(rs, kinds)
    path = Path(out) if out is not None else cached_path(rs)
    if out is not None:
        check_writable(out, "--out")
    with progress_bar(games, f"training {rs.id}", show_progress(as_json)) as progress:
        done = [0]

        def step(n: int) -> None:
            done[0] += n
            if progress is not None:
                progress(done[0])
        try:
            score = fit_score(rs, games, seed, kinds, step)
        except TrainingError as err:
            fail(str(err))
    try:
        write_score(score, path)
    except OSError as err:
        fail(f"cannot write {path}: {err.strerror or err}")
    remember(rs, score)
    if wants_json(output_format, as_json):
        echo_json({"path": str(path), **score.to_json()})
        return
    t = score.trained
    click.echo(f"{rs.id}: fitted to {t['positions']} positions of {games} games ({', '.join(kinds)})")
    click.echo(f"held-out log-loss {t['held_out_log_loss']:.3f} (the hand-written weights scaled to odds: "
               f"{t['hand_log_loss']:.3f}, a uniform guess: {t['uniform_log_loss']:.3f}); "
               f"its favourite won {100 * t['held_out_top_pick']:.1f}% of held-out positions")
    for name, weight in zip(score.feature_names, score.weights, strict=True):
        click.echo(f"  {name:<22} {weight:+.4f}")
    click.echo(f"written to {path}")
