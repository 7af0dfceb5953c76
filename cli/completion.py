"""Shell completion of ruleset names and bot spellings (click's shell_complete callbacks).

click completes commands and options by itself once the shell is told to ask it
(README: "Shell completion"); these callbacks add the values only targui knows:
the names of the built-in and example rulesets, and how bots are spelled.
"""

from __future__ import annotations

import click
from click.shell_completion import CompletionItem


def complete_ruleset(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Ruleset names starting with ``incomplete``; file names too (the shell's own
    completion), which is all that is offered once the word looks like a path."""
    from targui_dsl.frontend.resolve import builtin_rulesets, example_rulesets, is_builtin_name

    # click's bash and zsh scripts fall back to file completion on a `file` item
    # only when no other item is offered, so names come after it
    items = [CompletionItem(incomplete, type="file")]
    if not is_builtin_name(incomplete):
        return items
    for ruleset in [r for r in builtin_rulesets() if not r.abstract] + example_rulesets():
        if ruleset.name.startswith(incomplete):
            items.append(CompletionItem(ruleset.name, help=ruleset.title))
    return items


def complete_bots(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """The last bot of a comma-separated list: its kind, or one of its parameters after a `:`."""
    from targui_dsl.agents import BOTS, bot_names

    head, comma, word = incomplete.rpartition(",")
    before = head + comma
    kind, colon, rest = word.partition(":")
    if not colon:
        return [CompletionItem(before + name, help=BOTS[name].summary) for name in bot_names()
                if name.startswith(word)]
    bot = BOTS.get(kind)
    if bot is None:
        return []
    done, _, last = word.rpartition(":")
    return [CompletionItem(f"{before}{done}:{p.name}=", help=p.help) for p in bot.params
            if p.name.startswith(last) and "=" not in last]
