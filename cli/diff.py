"""`targui diff`: rule-by-rule differences between two rulesets, after `extends:`."""

from __future__ import annotations

import sys
from dataclasses import replace
from typing import Any

import click

from targui_cli.common import (
    EXIT_BAD_INPUT,
    RULESET_HELP,
    complete_ruleset,
    echo_json,
    exit_with,
    format_option,
    render_diagnostics,
    use_colour,
    wants_json,
)
from targui_dsl.frontend.build import build
from targui_dsl.frontend.diagnostics import sort_key
from targui_dsl.frontend.diffing import CARDS, DECK, IDENTITY, RULES, TEXTS, Change, RulesetDiff, diff_rulesets
from targui_dsl.frontend.paths import format_value
from targui_dsl.frontend.resolve import Resolved
from targui_dsl.frontend.resources import shown_file
from targui_dsl.frontend.text import visible


def _resolved_or_exit(ref: str) -> Resolved:
    """The merged data of a ruleset (abstract bases too); diagnostics and exit 1 on errors."""
    report = build(ref)
    if not report.ok or report.resolved is None or report.resolved.data is None:
        diagnostics = sorted(report.diagnostics, key=sort_key)
        click.echo(render_diagnostics(diagnostics, report.sources, color=use_colour(sys.stderr)), err=True)
        click.echo(f"FAIL  {ref}: cannot compare a ruleset with errors", err=True)
        exit_with(EXIT_BAD_INPUT)
    return report.resolved


@click.command(epilog=RULESET_HELP)
@click.argument("a", metavar="A", shell_complete=complete_ruleset)
@click.argument("b", metavar="B", shell_complete=complete_ruleset)
@click.option("--all", "show_all", is_flag=True,
              help="Also show identity keys (id, title, description, source, language) and card texts.")
@format_option
def diff(a: str, b: str, show_all: bool, output_format: str, as_json: bool) -> None:
    """Show what changes from ruleset A to ruleset B, rule by rule.

    Both rulesets are compared after their `extends:` chains are merged, so
    a house rule is compared with what it really plays, not with the few
    lines its file holds. Differences are grouped:

    \b
      rules  every changed, added (+) or removed (-) value by its dotted
             path: `rounds.double_turn_from: 6 -> 4`
      cards  (mis)fortune cards added or removed, and changes to a card's
             number, title or effect (old and new effect shown in full)
      deck   cards added to or removed from the deck, and cards moved
             (positions in the deck count from 1)

    Under each difference the file and line where A's and B's value were
    written: in the ruleset itself or in the file it extends.

    Keys that only name or describe a ruleset (id, title, description,
    source, language) and the rulebook texts of cards are left out; the
    summary says how many; --all shows them.

    \b
    Exit status:
      0  the comparison was made, whether or not the rulesets differ
         (read the summary line, or "same" in the JSON output)
      1  A or B cannot be read (its diagnostics are printed)
      2  the command line itself is wrong

    \b
    Examples:
      targui diff original-dutch swedish-12
      targui diff original-dutch my-house-rule.yaml
      targui diff swedish-12 rulesets/examples/rich-oases.yaml --json
    """
    left = _resolved_or_exit(a)
    right = _resolved_or_exit(b)
    result = diff_rulesets(left, right, include_identity=show_all)
    if wants_json(output_format, as_json):
        echo_json(result.to_json())
        return
    for line in render_diff(_visible_diff(result)):
        click.echo(line)


def _visible_diff(result: RulesetDiff) -> RulesetDiff:
    """The diff with every string the rulesets wrote made visible (control characters
    escaped; newlines kept in values, which are shown as blocks), before it is styled."""
    def value(v: Any) -> Any:
        if isinstance(v, str):
            return visible(v, keep_newlines=True)
        if isinstance(v, dict):
            return {key(k): value(x) for k, x in v.items()}
        if isinstance(v, list):
            return [value(x) for x in v]
        return v

    def key(k: Any) -> Any:
        return visible(k) if isinstance(k, str) else k

    def span(at: Any) -> Any:
        return replace(at, file=visible(shown_file(at.file) or at.file)) if at is not None else None

    changes = [replace(c, path=tuple(key(p) for p in c.path), old=value(c.old), new=value(c.new),
                       old_at=span(c.old_at), new_at=span(c.new_at)) for c in result.changes]
    return replace(result, a=visible(result.a), b=visible(result.b),
                   a_files=[visible(shown_file(f) or f) for f in result.a_files],
                   b_files=[visible(shown_file(f) or f) for f in result.b_files], changes=changes,
                   card_numbers={key(k): n for k, n in result.card_numbers.items()})


# --- text --------------------------------------------------------------------------------

_MARK = {"added": "+", "removed": "-", "changed": "~", "moved": ">"}
_COLOUR = {"added": "green", "removed": "red", "changed": "yellow", "moved": "cyan"}


def _at(change: Change) -> str:
    def where(span: Any) -> str:
        return f"{span.file}:{span.line}" if span is not None else "-"

    if change.kind == "added":
        return f"B {where(change.new_at)}"
    if change.kind == "removed":
        return f"A {where(change.old_at)}"
    return f"A {where(change.old_at)} | B {where(change.new_at)}"


def _locate(change: Change) -> str:
    return click.style("      " + _at(change), dim=True)


def _mark(change: Change) -> str:
    return click.style(_MARK[change.kind], fg=_COLOUR[change.kind], bold=True)


def _block(text: str, prefix: str, colour: str) -> list[str]:
    lines = str(text).rstrip("\n").splitlines() or [""]
    return [click.style(f"      {prefix} {line}", fg=colour) for line in lines]


def render_diff(result: RulesetDiff) -> list[str]:
    """The text report of a ruleset diff, one line per list item."""
    out = [
        click.style(f"--- A: {result.a} ({' <- '.join(result.a_files)})", bold=True),
        click.style(f"+++ B: {result.b} ({' <- '.join(result.b_files)})", bold=True),
    ]
    for section, heading in ((RULES, "rules"), (CARDS, "cards"), (TEXTS, "card texts"), (DECK, "deck"),
                             (IDENTITY, "identity")):
        changes = result.section(section)
        if not changes:
            continue
        out += ["", click.style(heading, bold=True, underline=True)]
        if section == CARDS:
            out += _render_cards(changes, result.card_numbers)
        elif section == DECK:
            out += _render_deck(changes)
        else:
            out += _render_values(changes)
    out += ["", _summary(result)]
    return out


def _render_values(changes: list[Change]) -> list[str]:
    out = []
    for change in changes:
        name = change.name
        if change.kind == "changed" and "\n" not in f"{change.old}{change.new}":
            out.append(f"  {_mark(change)} {name}: {format_value(change.old)} -> {format_value(change.new)}")
        elif change.kind == "changed":
            out.append(f"  {_mark(change)} {name}:")
            out += _block(change.old, "-", "red") + _block(change.new, "+", "green")
        else:
            value = change.new if change.kind == "added" else change.old
            out.append(f"  {_mark(change)} {name}: {format_value(value)}")
        out.append(_locate(change))
    return out


def _card_line(card_id: str, card: dict) -> str:
    number = card.get("number", "?") if isinstance(card, dict) else "?"
    title = card.get("title", "") if isinstance(card, dict) else ""
    return f"card {number} {card_id}" + (f": {title}" if title else "")


def _render_cards(changes: list[Change], numbers: dict[str, int]) -> list[str]:
    out = []
    for change in changes:
        card_id = change.path[1]
        name = f"card {numbers[card_id]} {card_id}" if card_id in numbers else f"card {card_id}"
        if change.kind in ("added", "removed") and len(change.path) == 2:
            card = change.new if change.kind == "added" else change.old
            out.append(f"  {_mark(change)} {_card_line(card_id, card)}")
            effect = card.get("effect") if isinstance(card, dict) else None
            if isinstance(effect, str) and effect.strip():
                lines = effect.rstrip().splitlines()
                out += [click.style(("      effect: " if i == 0 else "              ") + line, fg=_COLOUR[change.kind])
                        for i, line in enumerate(lines)]
            out.append(_locate(change))
            continue
        field_name = ".".join(str(k) for k in change.path[2:])
        if field_name == "effect" and change.kind == "changed":
            out.append(f"  {_mark(change)} {name}: effect changed")
            out += _block(change.old, "-", "red") + _block(change.new, "+", "green")
        elif change.kind == "changed":
            out.append(f"  {_mark(change)} {name}: {field_name}: "
                       f"{format_value(change.old)} -> {format_value(change.new)}")
        else:
            value = change.new if change.kind == "added" else change.old
            out.append(f"  {_mark(change)} {name}: {field_name}: {format_value(value)}")
        out.append(_locate(change))
    return out


def _render_deck(changes: list[Change]) -> list[str]:
    out = []
    for change in changes:
        card_id = change.path[1]
        if change.kind == "added":
            text = f"{card_id} (at {change.new})"
        elif change.kind == "removed":
            text = f"{card_id} (was at {change.old})"
        else:
            text = f"{card_id} moved: at {change.old} -> at {change.new}"
        out.append(f"  {_mark(change)} {text}")
        out.append(_locate(change))
    return out


def _summary(result: RulesetDiff) -> str:
    counts = {s: len(result.section(s)) for s in (RULES, CARDS, TEXTS, DECK, IDENTITY)}
    if result.same:
        text = f"no differences between {result.a} and {result.b}"
    else:
        total = sum(counts.values())
        parts = ", ".join(f"{name} {n}" for name, n in counts.items() if n)
        text = f"{total} difference{'s' if total != 1 else ''} ({parts})"
    hidden = result.hidden
    if hidden:
        what = []
        if hidden.get(IDENTITY):
            what.append(f"{hidden[IDENTITY]} in identity keys")
        if hidden.get(TEXTS):
            what.append(f"{hidden[TEXTS]} in card texts")
        text += f"; not shown: {' and '.join(what)} (--all shows them)"
    return text
