"""What the front end needs of a game, in a module that imports nothing: checking a ruleset
(`targui validate`) and the command list (`targui --help`) load this, not
:mod:`targui_dsl.engine.protocol` with its drawing hooks and its classes for bots, studies
and adapters (a twelfth of `targui validate`)."""

from __future__ import annotations

from typing import Any, Callable


class FrontEnd:
    """What the front end (targui_dsl/frontend/build.py) needs of a game, and no more: its module
    (``targui_dsl/games/<name>/frontend.py``, ``FRONT_END``) imports no engine, bot or drawing, so
    that `targui validate` loads only what checks a ruleset. The game's
    :class:`~targui_dsl.engine.protocol.GamePackage` gives the same hooks (taken from here).
    Read-only once made. A plain class, not a dataclass: making a dataclass runs its generated
    methods through Python's compiler at import."""

    __slots__ = ("name", "schema", "check", "snippets", "build", "vocabulary")

    name: str  # what a ruleset's `game:` says
    # run in this order:
    schema: str  # its ruleset JSON Schema: a file in schemas/
    check: Callable[..., list[Any]]  # (data, spans, key_spans, complete=) -> meaning diagnostics
    snippets: Callable[..., dict[tuple, Any]]  # (resolved, diagnostics) -> its effects compiled, by path
    build: Callable[..., Any]  # (resolved, snippets, diagnostics) -> its compiled ruleset, or None after an error
    vocabulary: Any  # what its effects may name: a targui_dsl.effects.vocabulary.Vocabulary

    def __init__(self, *, name: str, schema: str, check: Callable[..., list[Any]],
                 snippets: Callable[..., dict[tuple, Any]], build: Callable[..., Any], vocabulary: Any) -> None:
        for slot, value in (("name", name), ("schema", schema), ("check", check), ("snippets", snippets),
                            ("build", build), ("vocabulary", vocabulary)):
            object.__setattr__(self, slot, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a FrontEnd is read-only: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a FrontEnd is read-only: cannot delete {name!r}")

    def __repr__(self) -> str:
        return f"<FrontEnd {self.name!r}: schema {self.schema}>"
