"""`targui cards`: the (mis)fortune cards of a ruleset, as the rulebook prints them."""

from __future__ import annotations

import re
import shutil
import textwrap
from typing import Any

import click

from targui_cli.common import (
    RULESET_HELP,
    complete_ruleset,
    echo_json,
    format_option,
    load_or_exit,
    package_of,
    wants_json,
)
from targui_dsl.frontend.text import visible
from targui_dsl.games.targui.compiled import UI_LANGUAGE, CompiledRuleset

_LANGUAGE = re.compile(r"^[a-z]{2,3}$")


def card_entries(rs: CompiledRuleset, language: str | None = None) -> tuple[list[dict[str, Any]], str]:
    """The cards in number order with their text in ``language`` (default: English, the
    language of targui's screens).

    Returns the entries and the language asked for. A card without a text in
    that language gets one it has (:meth:`CompiledRuleset.card_text`: English,
    then the rulebook's own language, then the first in alphabetical order);
    its ``language`` says which, ``fallback`` that it is one.
    """
    wanted = language or UI_LANGUAGE
    in_deck = {card_id: i + 1 for i, card_id in enumerate(rs.deck)}
    entries = []
    for card in sorted(rs.cards.values(), key=lambda c: (c.number, c.id)):
        code, text = rs.card_text(card.id, wanted)
        entries.append({
            "number": card.number,
            "id": card.id,
            "title": card.title,
            "language": code,
            "fallback": code is not None and code != wanted,
            "text": text,
            "languages": sorted(c for c, t in card.texts.items() if isinstance(t, str) and t.strip()),
            "effect": card.effect.source,
            "in_deck": card.id in in_deck,
            "deck_position": in_deck.get(card.id),
            "file": card.effect.file,
            "line": card.effect.line,
        })
    return entries, wanted


def _width() -> int:
    return max(40, min(shutil.get_terminal_size((80, 24)).columns, 100))


@click.command(epilog=RULESET_HELP)
@click.argument("ruleset", metavar="RULESET", shell_complete=complete_ruleset)
@click.option("--lang", "language", metavar="CODE", default=None,
              help="Language of the rulebook texts (nl, sv, en, ...); default: en, where a card has it.")
@format_option
def cards(ruleset: str, language: str | None, output_format: str, as_json: bool) -> None:
    """List the cards of RULESET: Targui's (mis)fortune cards, Targi's decks.

    Targi (`targui cards targi`): its border, goods and tribe cards deck by
    deck, each with its id, symbol, cost, points and ability; with
    `--format json` one object per card (`deck`, `id`, `symbol`, `cost`,
    `points`, ...), for programs. Targui: its cards in number order.

    For each card: its number and title, the rulebook text and the effect as
    written in the effect language. Cards the ruleset defines but leaves out
    of its deck (the Swedish 12-round game's cards 2-5) are marked
    `[not in the deck]`. Texts are wrapped to the terminal width (the
    COLUMNS variable, at most 100); effects are printed as written.

    The text is in English, the language of targui's screens, wherever the
    card has one (the built-in variants quote the updated English rulebook
    for every card); --lang shows another, such as the rulebook's own (`nl`
    for original-dutch, `sv` for swedish-12). A card without a text in that
    language is shown in one it has (English, then the ruleset's own
    language), and a note on standard error says so once. A language no
    card has is refused, with the languages there are.

    \b
    Exit status: 0 listed, 1 the ruleset has errors (diagnostics printed),
    2 usage error (--lang not a language code, or one no card has).

    \b
    Examples:
      targui cards original-dutch
      targui cards swedish-12 --lang sv
      targui cards my-house-rule.yaml --json
    """
    language = language.lower() if language is not None else None
    if language is not None and not _LANGUAGE.match(language):
        raise click.BadParameter(f"{language!r} is not a language code such as nl, sv or en", param_hint="--lang")
    rs = load_or_exit(ruleset)
    listing = package_of(rs).cards
    if listing is not None:  # a game that lists its own cards, deck by deck
        if language is not None:
            raise click.BadParameter(f"{visible(rs.id)} has its texts in one language only", param_hint="--lang")
        _by_deck(rs, listing(rs), wants_json(output_format, as_json))
        return
    entries, wanted = card_entries(rs, language)
    available = sorted({code for e in entries for code in e["languages"]})
    if language is not None and wanted not in available:
        raise click.BadParameter(
            f"no card of {visible(rs.id)} has a text in `{wanted}`; texts exist in "
            f"{', '.join(available) or 'no language'}",
            param_hint="--lang")
    fallbacks = sorted({e["language"] for e in entries if e["fallback"]})
    missing = [e for e in entries if e["fallback"]]
    if wants_json(output_format, as_json):
        echo_json({"ruleset": rs.id, "title": rs.title, "language": wanted, "cards": entries})
    else:
        width = _width()
        languages = ", ".join(sorted({e["language"] for e in entries if e["language"]})) or "no language"
        click.echo(click.style(f"{visible(rs.title)} ({visible(rs.id)})", bold=True)
                   + f": {len(entries)} cards, {len(rs.deck)} in the deck, "
                   + (f"texts in {wanted}" if wanted in available else f"texts in {languages}")
                   + (f" (the rulebook's own: --lang {rs.language})"
                      if rs.language and rs.language != wanted and rs.language in available else ""))
        for entry in entries:
            click.echo()
            head = f"{entry['number']:>3}  {visible(entry['title'])}"
            if not entry["in_deck"]:
                head += "  " + click.style("[not in the deck]", fg="yellow")
            click.echo(click.style(head, bold=True) if entry["in_deck"] else head)
            if entry["text"]:
                label = f"({entry['language']}) " if entry["fallback"] else ""
                wrapped = textwrap.fill(visible(label + " ".join(entry["text"].split())), width=width,
                                        initial_indent="     ", subsequent_indent="     ")
                click.echo(wrapped)
            else:
                click.echo(click.style("     (no rulebook text)", dim=True))
            effect = entry["effect"].rstrip().splitlines()
            for i, line in enumerate(effect):
                click.echo(click.style(("     effect: " if i == 0 else "             ") + visible(line), fg="cyan"))
    if missing:
        click.echo(f"note: {len(missing)} card{'s have' if len(missing) != 1 else ' has'} no `{wanted}` text; "
                   f"shown in {', '.join(fallbacks)} instead", err=True)


def _by_deck(rs: Any, entries: list[dict[str, Any]], as_json: bool) -> None:
    """A game's own card listing: JSON as the game gives it, or one line a card under its deck's heading."""
    if as_json:
        echo_json({"ruleset": rs.id, "title": rs.title, "cards": entries})
        return
    width = _width()
    decks = list(dict.fromkeys(entry["deck"] for entry in entries))
    click.echo(click.style(f"{visible(rs.title)} ({visible(rs.id)})", bold=True)
               + ": " + ", ".join(f"{sum(e['deck'] == d for e in entries)} {d}" for d in decks) + " cards")
    for deck in decks:
        click.echo()
        click.echo(click.style(f"{deck} cards", bold=True))
        for entry in (e for e in entries if e["deck"] == deck):
            fields = [f"{k} {visible(_plain(v))}" for k, v in entry.items()
                      if k not in ("deck", "id", "text", "ability") and v not in (None, False, "", [], {})]
            click.echo(f"{entry['id']:>4}  " + "; ".join(fields))
            if entry.get("text"):
                click.echo(textwrap.fill(visible(entry["text"]), width=width, initial_indent="      ",
                                         subsequent_indent="      "))
            for line in (entry.get("ability") or "").rstrip().splitlines():
                click.echo(click.style("      " + visible(line), fg="cyan"))


def _plain(value: Any) -> str:
    """A card's value in words: amounts as `1 salt + 1 gold`, options joined by `or`."""
    if isinstance(value, dict):
        return " + ".join(f"{v} {k}" for k, v in value.items())
    if isinstance(value, list):
        return " or ".join(_plain(v) for v in value)
    return str(value)
