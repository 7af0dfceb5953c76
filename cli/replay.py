"""`targui replay`: tell a logged game again, verify it against the engine, draw its board."""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import click

from targui_cli.common import (
    CLEAR_SCREEN,
    EXIT_BAD_INPUT,
    EXIT_UNCHECKED,
    echo_json,
    exit_with,
    fail,
    fail_opened,
    format_option,
    open_log_or_exit,
    package_of,
    want_colour,
    wants_json,
)
from targui_dsl.engine.drawing import Painter, TableListener
from targui_dsl.frontend.text import visible
from targui_dsl.gamelog.opened import LogOpenError
from targui_dsl.gamelog.reader import LogError
from targui_dsl.gamelog.replay import LogDifference, replay_log
from targui_dsl.games import game_package
from targui_dsl.games.targui.compiled import CompiledRuleset


def describe_difference(diff: LogDifference) -> list[str]:
    """A difference as lines of text: where, what the log says, what the engine produced."""
    lines = [f"event {diff.event} (line {diff.event + 1}): {diff.reason}"]
    if diff.fields:
        lines[0] += f" in {', '.join(diff.fields)}"
    compact: dict[str, Any] = {"separators": (", ", ": "), "ensure_ascii": False}
    lines.append("  log:    " + (json.dumps(diff.logged, **compact) if diff.logged is not None
                                 else "(nothing: the log has ended)"))
    lines.append("  engine: " + (json.dumps(diff.produced, **compact) if diff.produced is not None else "(nothing)"))
    return lines


HELP = """Tell a logged game again, turn by turn; verify it; draw its board.

LOG is a game log (JSON lines, format targui-log/2, or 1) as written by
`targui play --log FILE`. Its header names the ruleset, the players,
their tribes and the seed; the game is told in the lines `targui play`
prints.

Events are numbered from the header, which is event 0: event N is line
N+1 of the file. --numbers shows the numbers, to pick one for --at.

--verify plays the game again and says exactly what it checked. A log
written by `targui play` is re-run from the seed in its header, fed only
the logged decisions: the engine throws every die and draws every card
itself, and every event it reports must equal the logged one
("verified", exit 0). A log whose chance outcomes were supplied from
outside (`explicit_chance` in its header) can only be checked for legal
decisions: "decisions legal; chance outcomes taken from the log, not
checked" (exit 3), never "verified". The header's seal binds the chance
mode to the seed and the ruleset: a header edited by hand fails. At the
first difference --verify stops and names it: the event number, what
the log says and what the engine produced. A log that stops before the
game is over fails too, unless --partial accepts a game quit midway.

A log cut short while it was written (a crash, a full disk: its last
line is not a whole event) is refused, naming the line, unless
--partial, which replays it up to its last complete event.

--verify prints only its verdict (and a difference, on standard error);
--verbose tells the game first.

--svg FILE draws the board as an SVG picture: {picture}, at the end
of the log or, with --at EVENT, as it stood after that event.

--step, at a terminal, shows the board after one event at a time, with
the lines told up to it; keys: n, space, Enter or right arrow: the next
event; p, Backspace or left arrow: the previous one; t / T: the next /
previous turn; r / R: the next / previous round; g: go to an event by
its number; Home / End (or 0 / $): the first / last event; q: quit.
Not at a terminal it is a usage error.

The ruleset is the file the header names, if it still has the sha256
the header records for it (looked for as written, then from the log's
folder; no other file is ever opened), else the built-in of the header's
id; --ruleset gives it when it has moved. Its id and player setup must
fit the header; a different title or file content is noted, and fails
--verify. LOG must be a regular file (not a FIFO, device or directory),
at most 64 MiB, no line over 1 MiB.

\b
Exit status:
  0  told (and with --verify: verified, every event matches the
     engine re-run from the seed; with --svg: written)
  1  not a readable targui log, its ruleset cannot be loaded, the
     engine cannot follow it, or --verify found a difference (named
     on standard error)
  2  the command line itself is wrong (e.g. --at beyond the log)
  3  --verify: decisions legal, but the chance outcomes were taken from
     the log (explicit chance), not checked

\b
Examples:
  targui play original-dutch --seed 3 --log game.jsonl
  targui replay game.jsonl
  targui replay game.jsonl --verify -q
  targui replay cut.jsonl --verify --partial
  targui replay game.jsonl --svg board.svg --at 300
  targui replay game.jsonl --step
""".replace("{picture}", game_package().drawing.help_picture)  # the default game's


@click.command(help=HELP)
@click.argument("log_file", metavar="LOG")
@click.option("--verify", is_flag=True,
              help="Re-run the game from the log's header and decisions; fail at the first event that differs.")
@click.option("--partial", is_flag=True,
              help="Accept a log that stops before the game is over (a game quit midway, or a last line cut "
                   "short by a crash or a full disk, which is left out); with --verify every event it has "
                   "must still match.")
@click.option("--svg", "svg_file", metavar="FILE", default=None,
              help="Write a picture of the board (SVG) to FILE (`-`: standard output), at the end of the log "
                   "or after event --at.")
@click.option("--at", "at", metavar="EVENT", type=click.IntRange(min=0), default=None,
              help="With --svg: draw the board after this event (0 = the header, before the deal; "
                   "event N is line N+1 of the log).")
@click.option("--ruleset", "ruleset_ref", metavar="RULESET", default=None,
              help="Load the ruleset from here instead of the name or file the log's header gives.")
@click.option("--numbers", is_flag=True, help="Put each event's number in front of its line.")
@click.option("--quiet", "-q", is_flag=True, help="Do not tell the game (text format): only problems and results.")
@click.option("--verbose", "-v", is_flag=True, help="With --verify: tell the game too, before the verdict.")
@click.option("--step", is_flag=True,
              help="At a terminal: step through the game, the board redrawn at each event (keys below).")
@format_option
def replay(log_file: str, verify: bool, partial: bool, svg_file: str | None, at: int | None, ruleset_ref: str | None,
           numbers: bool, quiet: bool, verbose: bool, step: bool, output_format: str, as_json: bool) -> None:
    if svg_file == "-" and wants_json(output_format, as_json):
        raise click.BadParameter("the picture and the JSON report cannot both go to standard output",
                                 param_hint="--svg")
    if step:
        clash = next((o for o, given in (("--verify", verify), ("--svg", svg_file is not None),
                                         ("--format json", wants_json(output_format, as_json))) if given), None)
        if clash:
            raise click.UsageError(f"--step shows the game at a terminal; it does not go with {clash}")
        if not (sys.stdin.isatty() and sys.stdout.isatty()):
            raise click.UsageError("--step needs a terminal (standard input and output): it reads keys and "
                                   "redraws the board; without one, use --numbers and --svg FILE --at EVENT")
    if at is not None and svg_file is None:
        raise click.BadParameter("--at chooses the moment of the --svg picture; give --svg FILE too",
                                 param_hint="--at")
    opened = open_log_or_exit(log_file, ruleset_ref, partial=partial, missing_hint="give it with --ruleset PATH")
    rs, game, header = opened.ruleset, opened.game, opened.header
    if not verify:
        for problem in opened.problems:
            click.echo(f"note: {log_file}: {visible(problem)}", err=True)

    # The engine goes first, reading the log as it goes: a log it parts from at event 60
    # is not read past event 60, however long it is.
    failed = unchecked = False
    run = followed = None
    try:
        if verify:
            run = opened.verify(unfinished=partial)
            failed = run.difference is not None
        else:
            followed = opened.replay()
        events = opened.stream.events if failed or (followed is not None and not followed.ok) else opened.events
    except LogOpenError as err:
        fail_opened(log_file, err)
    if opened.torn is not None:
        click.echo(f"note: {log_file}: line {opened.torn} is cut short (a crash or a full disk while it was "
                   f"written); replaying up to event {len(events) - 1}, the last complete one", err=True)
    last = len(events) - 1
    whole = opened.stream.done
    if at is not None and at > last and whole:
        raise click.BadParameter(f"{log_file} has events 0 to {last}, not {at}", param_hint="--at")

    narrate = package_of(rs).drawing.narrate(game)
    told = [(i, line) for i, line in ((i, narrate(e)) for i, e in enumerate(events)) if line is not None]
    # The end event is normally the last line; a game won by conquest may log the attack's end after it.
    end = next((e for e in reversed(events) if e["type"] == "end"), None)
    complete = end is not None
    machine = wants_json(output_format, as_json)
    to_stdout = svg_file == "-"
    tell = not machine and not quiet and not to_stdout and not step and (verbose or not verify)
    if tell:
        width = len(str(last))
        for i, line in told:
            if events[i]["type"] != "end":  # the end screen below tells the result
                click.echo(f"{i:>{width}}  {line}" if numbers else line)
        # the end screen from the final state the engine reached (verified, or followed)
        final = next((r.state for r in (followed, run) if r is not None and r.ok and r.state.is_terminal()), None)
        if complete and final is not None:
            _tell_end(final, events, numbers, width)

    report: dict[str, Any] = {
        "log": log_file, "ruleset": rs.id, "players": header["players"], "tribes": header["tribes"],
        "seed": header["seed"], "events": last, "complete": complete,
        "end": end,
        "narration": [{"event": i, "text": line} for i, line in told],
        "verify": None, "svg": None,
    }
    if followed is not None and followed.difference is not None and not step and (svg_file is None or at is None):
        lines = describe_difference(followed.difference)
        fail(f"{log_file}: the engine cannot follow the log past " + "\n".join(visible(line) for line in lines)
             + "\n  (the rest of the log is not read)")
    if followed is not None and followed.difference is not None:
        click.echo(f"note: {log_file}: the engine cannot follow the log past event {followed.difference.event} "
                   f"({visible(followed.difference.reason)}); the rest of the log is not read", err=True)
    elif not complete and not verify and not partial and not step:
        click.echo(f"note: {log_file} ends after event {last}, before the game is over", err=True)
    if step:
        _step_through(rs, game, events, told)
        return

    if run is not None:
        verdict = "failed" if not run.ok else ("verified" if run.chance_checked else "chance-unchecked")
        report["verify"] = {"ok": run.ok, "verdict": verdict, "chance_checked": run.chance_checked,
                            "seal": run.seal, "events": run.events, "game_over": run.complete,
                            "difference": run.difference.to_json() if run.difference else None}
        if run.difference is not None:
            lines = describe_difference(run.difference)
            click.echo(f"{log_file}: verify FAILED at " + "\n".join(visible(line) for line in lines), err=True)
        else:
            unfinished = "" if run.complete else " (the game is not over: the log stops midway)"
            older = " (an older log without a seal)" if run.seal == "unsealed" else ""
            if run.chance_checked:
                message = (f"verified: all {run.events} events of {log_file} match the engine, re-run from seed "
                           f"{header['seed']}{unfinished}{older}")
            else:
                unchecked = True
                message = (f"decisions legal; chance outcomes taken from the log, not checked: {run.events} "
                           f"events of {log_file} (explicit chance){unfinished}{older}")
            if not machine:
                click.echo(message, err=to_stdout)

    if svg_file is not None and not failed:
        _write_svg(rs, events, at, svg_file, report, machine)

    if machine:
        echo_json(report)
    if failed:
        exit_with(EXIT_BAD_INPUT)
    if unchecked:
        exit_with(EXIT_UNCHECKED)


STEP_KEYS = {
    "n": "next", " ": "next", "\r": "next", "\n": "next", "\x1b[C": "next", "l": "next",
    "p": "previous", "\x7f": "previous", "\x08": "previous", "\x1b[D": "previous", "h": "previous",
    "t": "next turn", "T": "previous turn", "r": "next round", "R": "previous round",
    "0": "first", "\x1b[H": "first", "\x1b[1~": "first", "$": "last", "\x1b[F": "last", "\x1b[4~": "last",
    "g": "go to", "q": "quit", "\x04": "quit", "\x1b": "quit",
}
STEP_HELP = ("n/→ next  p/← previous  t/T turn  r/R round  g go to event  0/$ first/last  q quit")


def step_target(events: list[dict], current: int, move: str) -> int:
    """Where a step from event ``current`` goes: the next or previous event, turn or round,
    the first or last event (the same event when there is no such one)."""
    last = len(events) - 1
    if move == "next":
        return min(current + 1, last)
    if move == "previous":
        return max(current - 1, 0)
    if move == "first":
        return 0
    if move == "last":
        return last
    kind = move.split()[1]
    forward = move.startswith("next")
    span = range(current + 1, last + 1) if forward else range(current - 1, -1, -1)
    return next((i for i in span if events[i]["type"] == kind), current)


def step_screen(state: Any, record: TableListener | None, events: list[dict], told: list[tuple[int, str]], current: int,
                style: Painter,
                width: int, context: int = 6, note: str = "") -> str:
    """One screen of ``replay --step``: the board after event ``current``, where it stands,
    and the lines told up to it (the last one marked)."""
    event = events[current]
    where = f"round {event['round']}" if "round" in event else ("before the deal" if current == 0 else "")
    head = f"event {current} of {len(events) - 1}: {event['type']}" + (f", {where}" if where else "")
    drawing = package_of(state.game.ruleset).drawing
    lines = [drawing.board(state, record, style=style, width=width), style.paint(head, bold=True)]
    recent = [(i, line) for i, line in told if i <= current][-context:]
    digits = len(str(len(events) - 1))
    lines += [f"{'>' if i == current else ' '} {i:>{digits}}  {line}" for i, line in recent]
    if note:
        lines.append(note)
    lines.append(style.paint(STEP_HELP, dim=True))
    return "\n".join(lines)


def _step_through(rs: CompiledRuleset, game: Any, events: list[dict], told: list[tuple[int, str]]) -> None:
    """The interactive loop of --step: redraw the board at each event until `q`. The
    terminal reads key by key (no echo) all along, so no key pressed early is lost."""
    import termios
    import tty

    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        _step_loop(rs, game, events, told, fd, saved)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def _step_loop(rs: CompiledRuleset, game: Any, events: list[dict], told: list[tuple[int, str]], fd: int,
               cooked: list[Any]) -> None:
    import shutil

    drawing = package_of(rs).drawing
    style = drawing.style(want_colour("auto", sys.stdout))
    current, note = 0, ""
    while True:
        try:
            run = replay_log(rs, events, at=current)
        except LogError as err:
            fail(str(err))
        if run.difference is not None:
            note = "the engine cannot follow the log here: " + run.difference.reason
        record = drawing.table_record(game)
        for event in events[1:current + 1]:
            record.observe(event)
        width = max(60, min(120, shutil.get_terminal_size((80, 24)).columns))
        click.echo(CLEAR_SCREEN, nl=False, color=True)
        click.echo(step_screen(run.state, record, events, told, current, style, width, note=visible(note)),
                   color=style.colour)
        note = ""
        move = STEP_KEYS.get(_read_key(fd))
        if move == "quit":
            return
        if move == "go to":
            answer = _read_line(f"go to event (0..{len(events) - 1}): ", fd, cooked)
            if answer.isdigit() and int(answer) <= len(events) - 1:
                current = int(answer)
            elif answer:
                note = f"`{visible(answer)}` is not an event of this log: 0 to {len(events) - 1}"
            continue
        if move is None:
            note = "keys: " + STEP_HELP
            continue
        target = step_target(events, current, move)
        if target == current and move not in ("first", "last"):
            note = f"no {move.split()[-1]} {'after' if move.startswith('next') else 'before'} event {current}"
        current = target


def _read_key(fd: int) -> str:
    """One key press (an arrow key's whole escape sequence); "q" at end of input."""
    import select

    data = os.read(fd, 1)
    if data == b"\x1b":
        while select.select([fd], [], [], 0.05)[0]:  # the rest of an escape sequence
            data += os.read(fd, 1)
            if len(data) >= 6 or data[-1:].isalpha() or data[-1:] == b"~":
                break
    return data.decode("utf-8", "replace") if data else "q"


def _read_line(prompt: str, fd: int, cooked: list[Any]) -> str:
    """A line typed with echo and editing (the terminal as it was), then key by key again."""
    import termios
    import tty

    termios.tcsetattr(fd, termios.TCSADRAIN, cooked)
    try:
        click.echo(prompt, nl=False)
        line = sys.stdin.readline()
    finally:
        tty.setcbreak(fd)
    return line.strip()


def _tell_end(state: Any, events: list[dict], numbers: bool, width: int) -> None:
    """The end screen, as `targui play` shows it (the final state: the log replayed)."""
    lines = package_of(state.game.ruleset).drawing.end_screen(state).splitlines()
    end = next(i for i, e in enumerate(events) if e["type"] == "end")
    for k, line in enumerate(lines):
        click.echo((f"{end if k == 0 else '':>{width}}  {line}") if numbers else line)


def _write_svg(rs: CompiledRuleset, events: list[dict], at: int | None, svg_file: str, report: dict[str, Any],
               machine: bool) -> None:
    try:
        run = replay_log(rs, events, at=at)
    except (LogError, ValueError) as err:  # ValueError: --at beyond the events the engine could follow
        fail(str(err))
    if run.difference is not None:
        fail("cannot draw the board: " + "\n".join(describe_difference(run.difference)))
    moment = len(events) - 1 if at is None else at
    event = events[moment]
    caption = f"after event {moment} of {len(events) - 1} ({event['type']})"
    text = package_of(rs).drawing.picture(run.state, caption=caption)
    if svg_file == "-":
        click.echo(text, nl=False)
    else:
        try:
            from targui_dsl.frontend.safefile import open_output

            # a FIFO or device is refused, never waited on
            with open(open_output(svg_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as err:
            fail(f"cannot write {svg_file}: {err.strerror or err}")
        if not machine:
            click.echo(f"board after event {moment} written to {os.path.normpath(svg_file)}", err=True)
    report["svg"] = {"file": svg_file, "at": moment}
