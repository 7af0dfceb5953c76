"""`targui play`: one game, told turn by turn; bots, or people at the terminal too."""

from __future__ import annotations

import secrets
import sys
from contextlib import contextmanager
from typing import Any, Callable, Iterator, TypeVar

import click

from targui_cli.common import (
    CLEAR_SCREEN,
    EXIT_INTERRUPTED,
    EXIT_OK,
    RULESET_HELP,
    check_bots_for,
    check_writable,
    complete_bots,
    complete_ruleset,
    echo_json,
    exit_with,
    fail,
    fail_opened,
    format_option,
    load_or_exit,
    new_game,
    open_log_or_exit,
    os_reason,
    package_of,
    parse_bots,
    players_for,
    seat_game,
    want_colour,
    wants_json,
)
from targui_dsl.agents import DEFAULT_BOTS
from targui_dsl.engine.drawing import TableConsole
from targui_dsl.frontend.safefile import same_file
from targui_dsl.frontend.text import visible
from targui_dsl.gamelog.events import EventLog
from targui_dsl.games import game_package
from targui_dsl.games.targui.compiled import CompiledRuleset

T = TypeVar("T")
SEED_RANGE = 10**9  # a fresh seed is short enough to type again


def seat_table(rs: CompiledRuleset, players: int, seed: int, kinds: list[str], humans: tuple[int, ...],
               bots_given: bool) -> tuple[Any, list[str | None]]:
    """(Game, per seat a bot kind or None for a human), or a usage error (exit 2).

    ``humans`` are 1-based seats. The bot list fills the other seats in seat
    order (a shorter list repeats its last kind); the default list is cut to
    the seats left, an explicit list may not be longer than them.
    """
    from targui_dsl.study.simulate import seat_bots

    kinds = check_bots_for(rs, kinds)
    game = new_game(rs, players, seed)
    seen: set[int] = set()
    for seat in humans:
        if not 1 <= seat <= players:
            raise click.BadParameter(f"seat {seat} is not one of 1..{players}", param_hint="--human")
        if seat in seen:
            raise click.BadParameter(f"seat {seat} is given twice", param_hint="--human")
        seen.add(seat)
    bot_seats = [s for s in range(players) if s + 1 not in seen]
    if not bot_seats:
        if bots_given:
            raise click.BadParameter("every seat has a human: no seat left for bots", param_hint="--bots")
        return game, [None] * players
    if not bots_given:
        kinds = kinds[:len(bot_seats)]
    try:
        padded = seat_bots(kinds, len(bot_seats))
    except ValueError:
        raise click.BadParameter(f"{len(kinds)} bots for {len(bot_seats)} seat(s) without a human",
                                 param_hint="--bots") from None
    seated: list[str | None] = [None] * players
    for seat, kind in zip(bot_seats, padded, strict=True):
        seated[seat] = kind
    return game, seated


_DRAWING = game_package().drawing  # the help describes the default game
HELP = """Play one game of RULESET and print its course.

\b
Every seat is a bot unless --human seats a person there. Bots' decisions,
throws, (mis)fortune cards and round ends are told one line each. Before
each decision of a human the board is drawn and the legal actions are
listed as a numbered menu; the human types a number or the action itself.

\b
""" + _DRAWING.help_board + """

\b
""" + _DRAWING.help_actions + """

\b
RESUMING
`quit` keeps the --log file; `targui play --resume LOG` sits down again
where the game stopped: the ruleset the log's header names (refused when
its file has changed since: the sha256 in the header), the same seed,
the same people and bots in the same seats (the header records them), or
new seats from --human/--bots. Every logged decision is made again, each
bot consulted at each of its seat's steps, so the bots play on as they
would have. The game goes on in LOG (or is written whole to --log), and
`targui replay LOG --verify` checks it as one game.

\b
""" + _DRAWING.help_end + """

\b
LEAVING AND EXIT STATUS
  0    the game was played to its end, or a human left it: `quit` or end
       of input (Ctrl-D); the unfinished game is not scored
  1    the ruleset is wrong (its diagnostics are printed), or the --log
       file cannot be written
  2    a usage error (a bad option, seat, bot or player count)
  130  interrupted by Ctrl-C
Whichever way the game ends, the --log file holds every event up to the
last one applied, as complete JSON lines.

\b
JSON
With --format json (bots only) nothing is told: one JSON object gives the
result: ruleset, players, seed, seats (tribe and bot), rounds, how the game
ended, scores, tie-break values, winners, whether it is a draw, decisions.

\b
EXAMPLES
  targui play original-dutch --players 4 --bots greedy,random --seed 1
  targui play original-dutch --players 2 --human 1
  targui play swedish-12 --players 3 --human 1 --human 2 --bots greedy
  targui play original-dutch --human 2 --log game.jsonl --colour never
  targui play --resume game.jsonl
  targui play --resume game.jsonl --bots greedy   (a bot takes over)

""" + RULESET_HELP


@click.command(help=HELP, short_help="Play one game: bots, or people at the terminal too.")
@click.argument("ruleset", metavar="[RULESET]", required=False, shell_complete=complete_ruleset)
@click.option("--resume", "resume_file", metavar="LOG", default=None,
              help="Continue the unfinished game of this log (left with `quit`) where it stopped: its ruleset, "
                   "seed and seats; --human/--bots seat people and bots anew. The log goes on in LOG, "
                   "or in --log.")
@click.option("--players", "-p", type=int, default=None,
              help="Number of players (the ruleset says which counts it seats).  [default: 4, or the most the"
                   " ruleset seats when that is fewer: 2 for Targi]")
@click.option("--human", "humans", type=int, multiple=True, metavar="SEAT",
              help="Seat a person at SEAT (1-based); repeat for several people at one terminal.")
@click.option("--bots", default=None, shell_complete=complete_bots,
              help="Bot per seat without a human, comma-separated, in seat order (see `targui bots`); "
                   f"a shorter list repeats its last bot.  [default: {DEFAULT_BOTS}]")
@click.option("--seed", type=int, default=None,
              help="Seed for dice, shuffles and bots: the same seed and decisions play the same game.  "
                   "[default: a fresh seed, drawn at random and printed]")
@click.option("--log", "log_file", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Also write the game's event log (JSON lines) to this file.")
@click.option("--board/--no-board", default=True, show_default=True,
              help="Draw the board (bots only: after setup and at the end; with humans: before their "
                   "decisions and at the end; `board` at the prompt draws it anyway).")
@click.option("--colour", "--color", "colour", type=click.Choice(["auto", "always", "never"]), default="auto",
              show_default=True,
              help="Colour the board of a game with humans: auto = only on a terminal, unless NO_COLOR "
                   "is set or TERM is dumb; always wins over NO_COLOR.")
@format_option
def play(ruleset: str | None, resume_file: str | None, players: int | None, humans: tuple[int, ...],
         bots: str | None, seed: int | None, log_file: str | None, board: bool, colour: str, output_format: str,
         as_json: bool) -> None:
    as_json = wants_json(output_format, as_json)
    if as_json and humans:
        raise click.UsageError("--format json is for games of bots: a game with --human is told in the terminal")
    kinds = parse_bots(bots if bots is not None else DEFAULT_BOTS)
    resume = None
    if resume_file is not None:
        for given, option in ((players, "--players"), (seed, "--seed")):
            if given is not None:
                raise click.BadParameter("a resumed game keeps the log's; leave it out", param_hint=option)
        resume = _read_resume(resume_file, ruleset)
        rs, players, seed = resume.ruleset, resume.header["players"], resume.header["seed"]
        if log_file is not None and same_file(log_file, resume_file):  # any spelling or link of it
            log_file = None  # the same file: go on in it
        resume.append = log_file is None
        if log_file is None:
            log_file = resume_file
    elif ruleset is None:
        raise click.UsageError("Missing argument 'RULESET' (or --resume LOG).")
    else:
        rs = load_or_exit(ruleset)
    players = players_for(rs, players)
    # a fresh game each time; the seed is told, so that the game can be played again
    drawn = seed is None
    seed = secrets.randbelow(SEED_RANGE) if seed is None else seed
    if log_file is not None and not (resume is not None and resume.append):
        check_writable(log_file, "--log")
    seated: list[str | None]
    if resume is not None and not humans and bots is None:
        seated = resume.seats_from_header()
    elif not humans:
        game, bots_seated = seat_game(rs, players, seed, kinds)
        seated = list(bots_seated)
    else:
        game, seated = seat_table(rs, players, seed, kinds, humans, bots is not None)
    if resume is not None:
        game = new_game(rs, players, seed, resume.header["tribes"])  # the log's tribes, in its seats
    if as_json and None in seated:
        raise click.UsageError("--format json is for games of bots: this game has people in it (--bots seats bots)")
    if drawn and not as_json:  # JSON results carry their seed
        click.echo(f"Seed {seed} (drawn at random; --seed {seed} plays this game again)")
    bots_only = [kind for kind in seated if kind is not None]
    if len(bots_only) == len(seated):
        with _log_errors(log_file):
            state = _play_bots(game, bots_only, log_file, board and not as_json, tell=not as_json, resume=resume)
        if as_json:
            echo_json(_result(state, bots_only))
        return
    with _log_errors(log_file):
        code = _play_with_humans(game, seated, log_file, board, colour, resume=resume)
    if code != EXIT_OK:
        exit_with(code)


class _Resume:
    """An unfinished game read from its log, to be continued (``targui play --resume``)."""

    def __init__(self, path: str, events: list[dict[str, Any]], ruleset: CompiledRuleset, torn: int | None = None,
                 whole_bytes: int | None = None) -> None:
        self.path, self.events, self.ruleset = path, events, ruleset
        self.header = events[0]
        self.append = True  # go on in the same file (else the whole game goes to --log)
        self.torn, self.whole_bytes = torn, whole_bytes  # a last line cut short, left out

    def seats_from_header(self) -> list[str | None]:
        """Who sat where, as the header records it (None for a human)."""
        seats = self.header.get("seats")
        if seats is None:
            raise click.UsageError(f"{self.path} does not record who sat where (a log of an older targui): "
                                   f"give the seats with --human SEAT and/or --bots")
        if len(seats) != self.header["players"]:
            fail(f"{self.path}: the header names {len(seats)} seats for {self.header['players']} players; "
                 f"give the seats with --human SEAT and/or --bots")
        seated: list[str | None] = []
        for seat in seats:
            if seat == "human":
                seated.append(None)
            else:
                try:
                    seated.append(parse_bots(seat)[0])
                except click.BadParameter as err:
                    fail(f"{self.path}: the header's seat `{visible(seat)}` is not a bot this targui knows "
                         f"({err.message}); give the seats with --human SEAT and/or --bots")
        return seated

    def replay(self, state: Any, log: "_TableLog", bots: list[Any]) -> None:
        """Bring a fresh game to where the log stops: every logged decision again, step by
        step, each bot consulted at every step of its seat so that its generator stands
        where it stood when the game was left."""
        from targui_dsl.gamelog.replay import feed_decisions

        def consult() -> None:
            seat = state.current_player()
            if bots[seat] is not None:
                bots[seat].choose(state.observation(seat), state.legal_actions())

        log.replaying = True
        try:
            feed_decisions(state, self.events, lambda: log.count, consult)
        except ValueError as err:  # verified before: only a log changed since could get here
            fail(f"{self.path}: cannot resume: {err}")
        log.replaying = False


def _read_resume(path: str, ruleset_ref: str | None) -> _Resume:
    """Open, check and verify the log of a game to continue (:func:`targui_dsl.gamelog.opened.open_log`);
    a clear line and exit 1 when it cannot be continued (not a log, a changed ruleset, over, or edited)."""
    from targui_dsl.gamelog.opened import LogOpenError

    # partial: a last line cut short by a crash is left out; the game goes on from the one before
    opened = open_log_or_exit(path, ruleset_ref, partial=True, prefix="cannot resume: ",
                              missing_hint="give it: targui play RULESET --resume LOG")
    try:
        opened.resumable()
        events = opened.events
    except LogOpenError as err:
        fail_opened(path, err, "cannot resume: ")
    if opened.torn is not None:
        click.echo(f"note: {path}: line {opened.torn} is cut short (a crash or a full disk while it was written); "
                   f"the game goes on from event {len(events) - 1}, the last complete one", err=True)
    return _Resume(path, events, opened.ruleset, opened.torn, opened.whole_bytes)


class _LogUnwritable(Exception):
    """Writing the --log file failed (a full disk, say)."""


class _LogFile:
    """The --log file: its write errors are told apart from those of standard output."""

    def __init__(self, path: str, append: bool = False, cut_to: int | None = None) -> None:
        self.path = path
        # locked: a second writer is refused
        from targui_dsl.gamelog.writer import open_log_for_appending, open_log_for_writing

        self._file = open_log_for_appending(path, cut_to=cut_to) if append else open_log_for_writing(path)

    def _guard(self, method: Callable[..., T], *args: Any) -> T:
        try:
            return method(*args)
        except OSError as err:
            raise _LogUnwritable(os_reason(err)) from None

    def write(self, text: str) -> int:
        return self._guard(self._file.write, text)

    def flush(self) -> None:
        self._guard(self._file.flush)

    def close(self) -> None:
        self._guard(self._file.close)


def _open_log(log_file: str | None, resume: _Resume | None) -> _LogFile | None:
    """The --log file, or the resumed log to go on in (cut back to its last complete line)."""
    if log_file is None:
        return None
    append = resume is not None and resume.append
    cut_to = resume.whole_bytes if append and resume is not None and resume.torn is not None else None
    try:
        return _LogFile(log_file, append, cut_to)
    except OSError as err:
        fail(f"cannot write {log_file}: {os_reason(err)}")


@contextmanager
def _log_errors(log_file: str | None) -> Iterator[None]:
    """The --log file cannot be written (a full disk): one line and exit 1."""
    try:
        yield
    except _LogUnwritable as err:
        fail(f"cannot write {log_file}: {err}")


def _result(state: Any, seated: list[str]) -> dict[str, Any]:
    """The outcome of a finished game of bots, for --format json."""
    game = state.game
    ids = game.tribe_ids
    return {
        "ruleset": game.ruleset.id,
        "players": game.players,
        "seed": game.seed,
        "seats": [{"seat": s + 1, "tribe": ids[s], "bot": kind} for s, kind in enumerate(seated)],
        "rounds": state.round,
        "end_reason": state.end_reason,
        "scores": {ids[s]: score for s, score in enumerate(state.scores())},
        "tie_breaks": {ids[s]: values for s, values in enumerate(state.tie_break_values())},
        "winners": [ids[s] for s in state.winners()],
        "draw": state.is_draw(),
        "decisions": state.decisions,
    }


def _play_bots(game: Any, seated: list[str], log_file: str | None, board: bool, tell: bool = True,
               resume: _Resume | None = None) -> Any:
    """Play a game of bots to its end (from where ``resume``'s log stops), telling it unless
    ``tell`` is false; the final state."""
    from targui_dsl.agents import seat_agents
    from targui_dsl.engine.loop import play
    drawing = package_of(game.ruleset).drawing
    narrate = drawing.narrate(game)
    if tell:
        click.echo("Seats: " + ", ".join(f"{s + 1} {visible(game.tribe_name(s))} ({kind})"
                                         for s, kind in enumerate(seated)))
    holder: dict = {}

    def tell_event(event: dict) -> None:
        if log.replaying:
            return
        if board and event["type"] == "round" and event["round"] == 1 and "state" in holder:
            click.echo(drawing.board(holder["state"]))  # the board as dealt and settled
        line = narrate(event) if event["type"] != "end" else None  # the end screen tells the result
        if line is not None:
            click.echo(line)

    seats: list[str | None] = list(seated)
    stream = _open_log(log_file, resume)
    log = _TableLog(stream, seats, resume)
    try:
        if tell:
            log.listeners.append(tell_event)
        agents = seat_agents(game.seed, seated, package_of(game.ruleset).name)
        state = holder["state"] = game.new_initial_state(log=log)
        if resume is not None:
            resume.replay(state, log, agents)
            if tell:
                click.echo(_resumed(resume, state, board))
        play(state, agents)
    finally:
        if stream is not None:
            try:
                log.flush()  # the events told since the last batch (a game stopped before its end)
            finally:
                stream.close()
    if board:
        click.echo(drawing.board(state))
    if tell:
        click.echo(drawing.end_screen(state))
    return state


def _play_with_humans(game: Any, seated: list[str | None], log_file: str | None, board: bool, colour: str,
                      resume: _Resume | None = None) -> int:
    """Play with people at the terminal (from where ``resume``'s log stops); the exit
    status (0, or 130 after Ctrl-C)."""
    from targui_dsl.agents import seat_agents
    from targui_dsl.engine.loop import play

    humans = frozenset(s for s, kind in enumerate(seated) if kind is None)
    # the same seeds as an all-bot game, so a bot plays as it would there
    bots = seat_agents(game.seed, [kind or "random" for kind in seated], package_of(game.ruleset).name)
    drawing = package_of(game.ruleset).drawing
    record = drawing.table_record(game)
    style = drawing.style(want_colour(colour, sys.stdout))
    # hot seat: the screen is cleared between two humans (only a terminal can be)
    clear = None
    if len(humans) > 1 and sys.stdout.isatty():
        def clear() -> None:
            click.echo(CLEAR_SCREEN, nl=False, color=True)  # not a colour: never stripped
    console = drawing.console(game, humans, style=style, record=record,
                      echo=lambda text: click.echo(text, color=style.colour), read=_reader(), board=board, clear=clear)
    narrate = drawing.narrator(game, humans)
    click.echo("Seats: " + ", ".join(f"{s + 1} {visible(game.tribe_name(s))} ({'human' if kind is None else kind})"
                                     for s, kind in enumerate(seated)))
    click.echo("Type a number from the menu or an action; `help` shows the syntax, `quit` or Ctrl-D leaves.")

    def tell(event: dict) -> None:
        record.observe(event)
        if log.replaying:
            return
        console.observe(event)
        line = narrate(event)
        if line is not None:
            console.tell(line)

    stream = _open_log(log_file, resume)
    state = None
    log = _TableLog(stream, seated, resume)
    try:
        log.listeners.append(tell)
        state = narrate.state = game.new_initial_state(log=log)
        if resume is not None:
            resume.replay(state, log, [None if kind is None else bots[s] for s, kind in enumerate(seated)])
            click.echo(_resumed(resume, state, False))
        seats = [_HumanSeat(console, state, log if stream is not None else None) if seat in humans else bots[seat]
                 for seat in range(game.players)]
        play(state, seats)
        console.finish(state)
        return EXIT_OK
    except drawing.left_table as why:
        click.echo(f"\n{_left(state, str(why))}{_kept(log_file)}", err=True)
        return EXIT_OK
    except KeyboardInterrupt:
        click.echo(f"\n{_left(state, 'interrupted')}{_kept(log_file)}", err=True)
        return EXIT_INTERRUPTED
    finally:
        if stream is not None:
            try:
                log.flush()  # the events told since the last batch: the game is kept up to where it stopped
            finally:
                stream.close()


def _resumed(resume: _Resume, state: Any, board: bool) -> str:
    """The line that says where a resumed game goes on (and its board, for a game of bots)."""
    where = f"round {state.round}" if state.round else "setup"
    line = (f"Resumed {resume.path} after event {len(resume.events) - 1}, in {where}"
            + ("" if resume.append else " (the whole game goes to the --log file)") + ".")
    return (package_of(state.game.ruleset).drawing.board(state) + "\n" + line) if board else line


class _TableLog(EventLog):
    """The event log of `targui play`: an ``EventLog`` whose header records who sits where
    (``seats``: `human` or a bot spelling per seat, so ``--resume`` can seat them again), and
    which, when a game is resumed into its own log, writes only the events after those the
    file already holds (checking that each one replayed is the one logged)."""

    def __init__(self, stream: Any, seated: list[str | None], resume: _Resume | None) -> None:
        super().__init__(stream, keep=False,
                         header_fields={"seats": ["human" if kind is None else kind for kind in seated]})
        self.logged = resume.events if resume is not None else []
        self.written = len(self.logged) if resume is not None and resume.append else 0
        self.count = 0  # events emitted so far, the header included
        self.replaying = False

    def emit(self, event: dict) -> None:
        n, self.count = self.count, self.count + 1
        if 0 < n < len(self.logged) and event != self.logged[n]:
            fail(f"cannot resume: the engine's event {n} is not the log's")
        if n < self.written:  # already in the file
            for listener in self.listeners:
                listener(event)
            return
        super().emit(event)


class _HumanSeat:
    """A person at the terminal, as a player of the game loop: the console shows them the
    table and reads their decision."""

    def __init__(self, console: TableConsole, state: Any, log: EventLog | None) -> None:
        self.console, self.state, self.log = console, state, log

    def choose(self, observation: Any, legal_actions: list[int]) -> str:
        if self.log is not None:
            self.log.flush()  # the log is whole in its file while a human thinks
        return self.console.decide(self.state)


def _left(state: Any, why: str) -> str:
    where = "" if state is None else (f" in round {state.round}" if state.round else " during setup")
    return f"Game left{where} ({why}), unfinished."


def _kept(log_file: str | None) -> str:
    return f" The log so far is in {log_file}; `targui play --resume {log_file}` goes on." if log_file else ""


def _reader() -> Callable[[str], str]:
    """`input`, with line editing and history when a person types at a terminal."""
    if sys.stdin.isatty():
        try:
            import readline  # noqa: F401 - importing it gives input() editing and history
        except ImportError:  # pragma: no cover - not on every platform
            pass
    return input
