"""The pipeline end to end: a ruleset reference in, a compiled ruleset (or diagnostics) out.

    resolve (load + extends) -> game -> schema -> meaning -> snippets -> compiled ruleset

One pipeline for every game: the ruleset says which game it is (``game:``,
:data:`~targui_dsl.games.DEFAULT_GAME` when absent), and that game's front end
(:class:`~targui_dsl.engine.front.FrontEnd`, no engine or bot) gives the schema, the
meaning checks, the compiled snippets and the compiled ruleset.

Each stage reports every problem it can; a later stage runs only on input the
earlier ones accept, so that one mistake is reported once, where it was made.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from targui_dsl.engine.front import FrontEnd
from targui_dsl.frontend.diagnostics import (
    Diagnostic,
    RulesetError,
    Sources,
    did_you_mean,
    error,
    limit_per_file,
    with_hint_budget,
)
from targui_dsl.frontend.resolve import Resolved, resolve
from targui_dsl.frontend.resources import builtin_ruleset_names
from targui_dsl.frontend.schema import describe_value, validate_schema
from targui_dsl.games import DEFAULT_GAME, GAMES, front_end


@dataclass(repr=False)  # its own __repr__: dataclasses need not write one
class Report:
    """What the pipeline found for one ruleset reference."""

    ref: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    sources: Sources = field(default_factory=Sources)
    resolved: Resolved | None = None
    ruleset: Any = None  # the game's compiled ruleset
    abstract: bool = False
    game: str | None = None  # the game the ruleset is for, once known

    @property
    def ok(self) -> bool:
        return not any(d.is_error for d in self.diagnostics)

    def __repr__(self) -> str:  # one line; the ruleset and the sources have their own
        verdict = "ok" if self.ok else "errors"
        return f"<Report {self.ref!r}: {verdict}, {len(self.diagnostics)} diagnostics, ruleset {self.ruleset!r}>"


@with_hint_budget
def build(ref: str, cwd: Path | None = None, texts: Mapping[str, str] | None = None) -> Report:
    """Run the whole front end on a built-in name or a path; never raises for bad input.
    ``texts``: unsaved texts read instead of their files (``resolve``)."""
    report = Report(ref)
    resolved = resolve(ref, cwd, texts)
    report.resolved = resolved
    report.sources = resolved.sources
    report.diagnostics.extend(resolved.diagnostics)
    if not report.ok or resolved.data is None:
        return report

    data = resolved.data
    package = _game(resolved, report.diagnostics)
    if package is None:
        return report
    report.game = package.name
    report.abstract = data.get("abstract") is True
    complete = not report.abstract
    report.diagnostics.extend(
        validate_schema(data, resolved.spans, resolved.key_spans, complete=complete, schema=package.schema)
    )
    # The meaning checks read the data's shape as the schema promises it; the
    # snippets are compiled whatever the checks say, so that a typo elsewhere
    # does not hide an error in a card.
    if report.ok:
        report.diagnostics.extend(package.check(data, resolved.spans, resolved.key_spans, complete=complete))
    compiled = package.snippets(resolved, report.diagnostics)
    report.diagnostics = limit_per_file(report.diagnostics)
    if report.ok and complete:
        report.ruleset = package.build(resolved, compiled, report.diagnostics)
    return report


def _game(resolved: Resolved, diagnostics: list[Diagnostic]) -> FrontEnd | None:
    """The front end of the game the ruleset names (E0305 when it names none targui plays)."""
    name = resolved.data.get("game", DEFAULT_GAME) if resolved.data is not None else DEFAULT_GAME
    if isinstance(name, str) and name in GAMES:
        return front_end(name)
    games = "targui plays " + ", ".join(f"`{game}`" for game in sorted(GAMES))
    if isinstance(name, str):
        message = f"`game` names a game targui does not play: {describe_value(name)}"
        guess = did_you_mean(name, GAMES)
        hint = f"{guess} ({games})" if guess else games
    else:
        message = f"`game` must be the name of a game, not {describe_value(name)}"
        hint = games
    diagnostics.append(error("E0305", message, resolved.spans.get(("game",)), hint))
    return None


def load_ruleset(ref: str | os.PathLike, cwd: Path | None = None) -> Any:
    """A built-in name or a path to a playable ruleset: its game's compiled ruleset
    (Targui's :class:`~targui_dsl.games.targui.compiled.CompiledRuleset`); raises
    RulesetError with every diagnostic."""
    report = build(os.fspath(ref), cwd)
    if report.ruleset is None:
        diagnostics = report.diagnostics
        if report.ok and report.abstract:
            span = report.resolved.spans.get(("abstract",)) if report.resolved else None
            playable = builtin_ruleset_names()
            hint = "play a ruleset that extends it" + (f", such as `{playable[0]}`" if playable else "")
            abstract = error("E0001", f"`{ref}` is an abstract base and cannot be played", span, hint)
            diagnostics = diagnostics + [abstract]
        raise RulesetError(diagnostics, report.sources)
    return report.ruleset


