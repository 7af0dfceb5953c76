"""The `targui` command: one click group, one small module per subcommand."""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Iterator, MutableMapping
from importlib import import_module

# Python's cyclic garbage collector runs after every 700 new objects and walks the young ones again
# and again, yet what start-up makes (click, the modules of the group and of the command) lives
# as long as the process: with the collector paused while they load, `targui --help` and
# `targui validate` run 2-4% fewer instructions. Paused here while this module loads, and from
# main() until the command starts (the group's callback); then everything made so far is frozen
# (never walked again: it would be found alive) and the collector runs as usual.
_COLLECTING = gc.isenabled()
try:  # a Ctrl-C while Python imports click ends quietly too
    gc.disable()
    import click

    from targui_cli.common import (
        EXIT_BAD_INPUT,
        EXIT_INTERRUPTED,
        colour_forbidden,
        install_visible_streams,
        targui_version,
    )
except KeyboardInterrupt:  # pragma: no cover - timing dependent
    sys.stderr.write("\ninterrupted\n")
    raise SystemExit(130) from None  # EXIT_INTERRUPTED, which may not be imported yet
finally:
    if _COLLECTING:  # on again at once, as the importing program (or main()) had it
        gc.freeze()
        gc.enable()

#: Every command, and the module that defines it (as a function of the same name). A module is
#: imported when its command is run or listed, so `targui validate` loads no engine or study code.
COMMAND_MODULES = {
    "rulesets": "targui_cli.show", "validate": "targui_cli.validate", "show": "targui_cli.show",
    "schema": "targui_cli.show", "cards": "targui_cli.cards", "diff": "targui_cli.diff", "play": "targui_cli.play",
    "replay": "targui_cli.replay", "simulate": "targui_cli.simulate", "compare": "targui_cli.compare",
    "tournament": "targui_cli.tournament", "bots": "targui_cli.bots", "lsp": "targui_cli.lsp",
    "train": "targui_cli.train",
}

#: What `targui --help` lists for each command, so that the list imports none of them (that was
#: nine tenths of `--help`): the start of its help (``help``: click shortens it to the line, as it
#: does a command's help) or its ``short_help``. tests/test_startup.py holds each to the command's own.
COMMAND_LINES: dict[str, dict[str, str]] = {
    "rulesets": {"help": "List the built-in rulesets with their titles (with --all, the examples too)."},
    "validate": {"help": "Check rulesets and report every problem found, not only the first."},
    "show": {"help": "Show a ruleset after `extends:` is merged, or what its effects compiled to."},
    "schema": {"help": "Print the JSON Schema (2020-12) of ruleset files, for editors and CI."},
    "cards": {"help": "List the cards of RULESET: Targui's (mis)fortune cards, Targi's decks."},
    "diff": {"help": "Show what changes from ruleset A to ruleset B, rule by rule."},
    "play": {"short_help": "Play one game: bots, or people at the terminal too."},
    "replay": {"help": "Tell a logged game again, turn by turn; verify it; draw its board."},
    "simulate": {"help": "Play many bot games of RULESET and sum them up."},
    "compare": {"help": "Play the same games (seeds and bots) under rulesets A, B (and C...) and compare them."},
    "tournament": {"short_help": "Bots play every seat in turn; wins and ratings."},
    "bots": {"short_help": "List a game's bots, levels and measured ladder."},
    "lsp": {"short_help": "Serve checks, hover, completion and definitions to editors."},
    "train": {"short_help": "Fit a ruleset's position score for the search bot."},
}


class LazyCommands(MutableMapping[str, click.Command]):
    """The group's ``commands``: lists every command at once, imports each when first looked up."""

    def __init__(self, modules: dict[str, str]) -> None:
        self._modules = dict(modules)
        self._loaded: dict[str, click.Command] = {}

    def __getitem__(self, name: str) -> click.Command:
        command = self._loaded.get(name)
        if command is None:
            if name not in self._modules:
                raise KeyError(name)
            try:
                command = self._loaded[name] = getattr(import_module(self._modules[name]), name)
            except KeyboardInterrupt:  # pragma: no cover - timing dependent
                sys.stderr.write("\ninterrupted\n")
                raise SystemExit(EXIT_INTERRUPTED) from None
        return command

    def __setitem__(self, name: str, command: click.Command) -> None:
        self._loaded[name] = command
        self._modules.setdefault(name, "")

    def __delitem__(self, name: str) -> None:
        del self._modules[name]
        self._loaded.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __len__(self) -> int:
        return len(self._modules)

    def listed(self, name: str) -> click.Command | None:
        """The command as `--help` lists it: itself once loaded, else a stand-in with its line."""
        command = self._loaded.get(name)
        if command is None and name in COMMAND_LINES:
            return click.Command(name, **COMMAND_LINES[name])  # type: ignore[arg-type]
        return command if command is not None else self.get(name)


class TarguiGroup(click.Group):
    """The group: its `--help` lists the commands without importing them."""

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        commands = self.commands
        if not isinstance(commands, LazyCommands):
            super().format_commands(ctx, formatter)
            return
        listed = [(name, commands.listed(name)) for name in self.list_commands(ctx)]
        shown = [(name, command) for name, command in listed if command is not None and not command.hidden]
        if shown:  # as click's own: three spaces and the longest name off the width
            limit = formatter.width - 6 - max(len(name) for name, _ in shown)
            with formatter.section("Commands"):
                formatter.write_dl([(name, command.get_short_help_str(limit)) for name, command in shown])


def _show_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        click.echo(f"targui {targui_version()}")
        ctx.exit()


@click.group(cls=TarguiGroup, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.option("--version", "-V", is_flag=True, expose_value=False, is_eager=True, callback=_show_version,
              help="Print targui's version and exit.")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """targui: play, check and study Targui (in its variants) and Targi, games written as data.

    A RULESET is a built-in name (`targui rulesets` lists them) or the path
    of a YAML file that may extend one.

    Colour is used only on a terminal, and never when NO_COLOR is set or
    TERM is dumb. `targui COMMAND --help` describes each command.

    Text read from rulesets and logs (titles, names, card texts, quoted
    lines) is printed with its control characters escaped (`\\x1b`), so a
    file cannot drive the terminal. Only files (and a shell's `<(...)`) are
    read: named pipes (FIFOs), devices and directories are refused.

    \b
    Exit status: 0 success, 1 bad input (diagnostics or an error printed),
    2 usage error, 3 `replay --verify` of a log whose chance outcomes were
    taken from the log (not checked), 130 interrupted by Ctrl-C.
    """
    if _STARTING["paused"]:  # main() paused the collector: start-up is over (see _COLLECTING)
        _STARTING["paused"] = False
        gc.freeze()
        gc.enable()
    if colour_forbidden():
        ctx.color = False  # click.echo then strips styles in every subcommand
    # Rulesets and logs come from strangers: no control character they hold reaches the terminal.
    install_visible_streams()


cli.commands = LazyCommands(COMMAND_MODULES)


def _quiet_streams() -> None:
    """After a failed write to stdout, make the interpreter's last flush harmless."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


#: Whether main() paused the cyclic garbage collector until the command starts.
_STARTING = {"paused": False}


def main() -> None:
    """Entry point: no Python traceback reaches a user, whatever the input."""
    if gc.isenabled():  # the command's own modules load without it too (see _COLLECTING)
        gc.disable()
        _STARTING["paused"] = True
    try:
        _run()
    finally:
        # The process ends here. Its objects go with it: the interpreter's last cyclic garbage
        # collection, which walks every object still alive, need not walk them (a tenth of
        # `targui validate`'s CPU). Only objects in reference cycles are then left unfinalized.
        gc.freeze()


def _run() -> None:
    try:
        # standalone_mode=False: a Ctrl-C reaches us as click.Abort (exit 130, not click's 1)
        code = cli.main(prog_name="targui", standalone_mode=False)
    except (click.exceptions.Abort, KeyboardInterrupt):
        click.echo("\ninterrupted", err=True)
        sys.exit(EXIT_INTERRUPTED)
    except click.ClickException as err:
        err.show()
        sys.exit(err.exit_code)
    except OSError as err:  # e.g. standard output on a full disk: the system's fault, not ours
        _quiet_streams()
        reason = err.strerror or str(err)
        filename = getattr(err, "filename", None)
        click.echo(f"error: {filename}: {reason}" if filename else f"error: cannot write output: {reason}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    except Exception as exc:  # noqa: BLE001 - the last line of defence
        # imported only now (it is loaded already if it was raised): the language stays unloaded
        # until a command needs it, and a Ctrl-C at start-up never lands in its import
        from targui_dsl.effects.runtime import EffectBudgetExceeded

        if isinstance(exc, EffectBudgetExceeded):  # a house rule's effect ran away: the game cannot go on
            click.echo(f"error: the game was stopped: {exc}", err=True)
            sys.exit(EXIT_BAD_INPUT)
        if os.environ.get("TARGUI_DEBUG"):
            raise
        click.echo(f"targui: internal error: {type(exc).__name__}: {exc}\n"
                   "This is a bug in targui; set TARGUI_DEBUG=1 to see the traceback.", err=True)
        sys.exit(EXIT_BAD_INPUT)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
