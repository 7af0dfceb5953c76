"""The interface between compiled effect code and a game.

Code compiled from the effect language calls only the methods below, on an
object passed in as ``rt``.  The engine's game state implements them; tests
may implement them on a small fake.  Method names are chosen by the compiler
from a fixed table (``targui_dsl.effects.compiler``), never taken from
ruleset text.

Identities are small integers:

- a territory is a board cell index, ``row * columns + column``;
- a player is a seat index, 0-based; "nobody" is ``None``;
- a kind is its index in ``CompiledRuleset.kinds``;
- a tribe is its index in ``CompiledRuleset.tribes``.

Mutations are total: they clamp instead of failing, so an effect can never
put the game into an impossible state.

Pausing
-------

A snippet that throws a die (``roll(n)``) or asks a player to choose
(``chooses``) compiles to a *generator function* (``CompiledCode.pauses``
is True). Calling it returns a generator; the engine drives it::

    gen = code.function(rt)
    answer = None
    while True:
        try:
            request = gen.send(answer)   # the first send must be None
        except StopIteration:
            break
        answer = ...  # an int 1..request.sides for a RollRequest,
                      # one of request.options for a ChoiceRequest

:class:`EffectRun` does this bookkeeping (and checks the answers). A snippet
that cannot pause stays a plain function that returns None, so the variants'
hot path is unchanged. The game state may change between
two requests only through the generator itself.

Steps
-----

Every run of a compiled snippet may consider at most :data:`STEP_BUDGET`
elements over all its loops, aggregates (``sum``, ``count``...) and
choices; past it the run stops with :class:`EffectBudgetExceeded`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Protocol

#: The largest amount a game stores: cash, treasury, a kind's value, a levy.
#: Rulesets and effect literals have the same cap, so no house rule (say a
#: levy of ``player.cash * player.cash``) can grow numbers without bound.
MAX_VALUE = 10**9


def clamp(amount: int) -> int:
    """An amount as the game stores it: between 0 and MAX_VALUE."""
    return min(MAX_VALUE, max(0, int(amount)))


#: Elements one run of a snippet may consider, over all its loops, aggregates
#: and choices together (a loop over the 49 territories inside another costs
#: 49 + 49 * 49 = 2450). About a second of work on a slow machine: no
#: sensible rule comes near it, and no rule can stall a game.
STEP_BUDGET = 1_000_000

#: The most bits a number may have while a snippet runs (about 300 digits).
#: Only a product can grow a number fast (each one may double its length: a
#: chain of `let`s squaring a value would need days); a product past this
#: stops the snippet (:class:`EffectValueTooLarge`). Sums grow a number by a
#: bit at most, and a snippet has at most a few thousand of them.
MAX_BITS = 1024

#: The most sides ``roll(n)`` may have (a larger n throws this die).
MAX_ROLL_SIDES = 100

#: The most numbers a number choice offers (``p chooses n in 1..6``): a
#: longer range is cut after its first MAX_CHOICE_NUMBERS numbers.
MAX_CHOICE_NUMBERS = 256


@dataclass(frozen=True, slots=True)
class RollRequest:
    """``roll(sides)``: the answer sent back is a whole number 1..sides.

    The engine throws it with the game's seeded generator (or, with explicit
    chance, makes it a chance node with ``sides`` equally likely outcomes).
    ``sides`` is always between 1 and MAX_ROLL_SIDES.
    """

    sides: int


@dataclass(frozen=True, slots=True)
class ChoiceRequest:
    """A player must choose: the answer sent back is one of ``options``.

    ``kind`` says what the options are: ``"territory"`` (cell indices),
    ``"player"`` (seat indices) or ``"number"`` (whole numbers). ``options``
    is never empty (a choice with no options is skipped without a request)
    and is in board, seat or number order. ``player`` is a seat index; it
    may be a player out of the game (``for p in seats { p chooses ... }``),
    who still answers. ``prompt`` is the choice as the
    ruleset wrote it, e.g. ``"choose a territory: t in p.territories where
    t.camels > 0"``, for display.
    """

    player: int
    kind: str
    options: tuple[int, ...]
    prompt: str


class EffectBudgetExceeded(Exception):
    """A run of a snippet considered more than STEP_BUDGET elements.

    ``file``/``line`` are where the snippet starts in the ruleset. The engine
    ends the game with a clear error; effects already applied stay applied.
    """

    def __init__(self, file: str | None, line: int | None, budget: int = STEP_BUDGET) -> None:
        self.file, self.line, self.budget = file, line, budget
        where = f"{file}:{line}" if file is not None else "an effect"
        super().__init__(
            f"the effect at {where} ran past its budget of {budget} steps "
            "(elements visited by its loops, sums and counts); it was stopped"
        )

    def __reduce__(self) -> tuple[type, tuple[str | None, int | None, int]]:
        # rebuilt from its fields, so it crosses from a worker process intact
        return (EffectBudgetExceeded, (self.file, self.line, self.budget))


class EffectValueTooLarge(EffectBudgetExceeded):
    """A run of a snippet made a number of more than MAX_BITS bits (a product of products).

    Stopped like a run past its step budget: the engine ends the game with
    this message; effects already applied stay applied.
    """

    def __init__(self, file: str | None, line: int | None, budget: int = MAX_BITS) -> None:
        super().__init__(file, line, budget)
        where = f"{file}:{line}" if file is not None else "an effect"
        self.args = (
            f"the effect at {where} made a number of more than {budget} bits (about {budget * 3 // 10} digits)"
            " by multiplying; it was stopped",
        )

    def __reduce__(self) -> tuple[type, tuple[str | None, int | None, int]]:
        return (EffectValueTooLarge, (self.file, self.line, self.budget))


class EffectRuntime(Protocol):
    # Collections ---------------------------------------------------------
    def all_territories(self) -> Iterable[int]:
        """Every cell of the board, in cell order."""

    def all_players(self) -> Iterable[int]:
        """Seats still in the game (owning at least one territory), in seat order."""

    def all_seats(self) -> Iterable[int]:
        """Every seat at the table, out of the game or not, in seat order (``seats``)."""

    def territories_of(self, player: int | None) -> Iterable[int]:
        """Cells owned by ``player``, in cell order; nothing for nobody."""

    def neighbours(self, territory: int) -> Iterable[int]:
        """Cells adjacent to ``territory`` on the board."""

    def all_kinds(self) -> Iterable[int]:
        """Every territory kind, in ruleset order (``for k in kinds``)."""

    # Territory fields ----------------------------------------------------
    def kind(self, territory: int) -> int: ...

    def camels(self, territory: int) -> int: ...

    def owner(self, territory: int) -> int | None: ...

    def strategic(self, territory: int) -> int:
        """Current strategic value, round modifiers included."""

    def economic(self, territory: int) -> int:
        """Current economic value, round modifiers included."""

    def position(self, territory: int) -> int:
        """The printed position number of the cell (1 = the centre)."""

    def set_camels(self, territory: int, count: int) -> None:
        """Set the camels on a cell.

        Below zero reads as zero. Camels removed go back to the box. Camels
        added come from the box and are limited by what it holds; none are
        added to a cell that nobody owns or that is impassable.
        """

    def set_owner(self, territory: int, player: int | None) -> None:
        """Give a cell to ``player``, or to nobody (``t.owner = ...``).

        The rules' invariants hold afterwards: an impassable cell (a chott)
        is never owned, so giving one away does nothing; a cell with camels
        always has an owner, so making such a cell ownerless sends its
        camels back to the box. Camels on a cell that changes owner change
        sides with it. A settlement card given away is captured, as in an
        attack (its tribe no longer holds its own settlement). A player
        left owning nothing is out of the game, as after an attack; a player
        out of the game who is given a cell owns territory again, so
        ``all_players`` lists them again.
        """

    def move_camels(self, source: int, target: int, count: int) -> int:
        """Move ``min(count, camels on source)`` camels from ``source`` to ``target``.

        Returns how many moved. Nothing moves when ``count`` is below 1,
        source and target are the same cell, or the target is impassable.
        The camels do not pass through the box (a low box does not matter).
        An unowned target becomes the source owner's; an owned target keeps
        its owner (the camels join that player). The source keeps its owner
        even when emptied.
        """

    # Player fields -------------------------------------------------------
    def tribe(self, player: int) -> int: ...

    def seat(self, player: int) -> int:
        """1-based seat number, as players count."""

    def cash(self, player: int) -> int: ...

    def set_cash(self, player: int, amount: int) -> None:
        """Clamped between 0 and MAX_VALUE."""

    def treasury(self, player: int) -> int: ...

    def set_treasury(self, player: int, amount: int) -> None:
        """Clamped between 0 and MAX_VALUE."""

    def player_camels(self, player: int) -> int:
        """Camels on every cell the player owns."""

    def settlement(self, player: int) -> int | None:
        """The cell holding this player's own settlement card (whoever owns it now)."""

    def holds_own_settlement(self, player: int) -> bool: ...

    # Kinds ---------------------------------------------------------------
    def kind_strategic(self, kind: int) -> int: ...

    def kind_economic(self, kind: int) -> int: ...

    def set_kind_value(self, kind: int, field: str, value: int, this_round: bool) -> None:
        """Set a kind's ``"strategic"`` or ``"economic"`` value (``=``).

        A kind has a lasting value and a round value (what the game reads;
        it starts every round equal to the lasting one). With ``this_round``
        only the round value becomes ``value``, until the round-long changes
        expire at the end of the round. Without, both become ``value``.
        ``value`` is never negative (the compiler makes sure).
        """

    def add_kind_value(self, kind: int, field: str, delta: int, this_round: bool) -> None:
        """Add ``delta`` (may be negative) to a kind's value (``+=``, ``-=``).

        With ``this_round`` only the round value changes. Without, the delta
        is added to the lasting value *and* to the round value, each kept at
        0 or above: a round-long change never leaks into the lasting value
        (``reg.economic += 1 this round`` then ``reg.economic -= 1`` leaves
        reg at 1 for the rest of the game and at 2 until the round ends).
        """

    # Globals -------------------------------------------------------------
    def round_number(self) -> int:
        """The current round, counting from 1."""

    def box(self) -> int:
        """Camels left in the box."""

    def camel_price(self) -> int:
        """Silver per camel bought in the adding phase (``camel_price``)."""

    def round_die(self) -> int:
        """What the round's die showed (``round_die``); 0 before round 1's die."""

    def current_player(self) -> int | None:
        """Whose turn it is (``current_player``); None outside turns.

        During a turn: from its turn_start hooks to its turn_end hooks.
        (Mis)fortune cards are revealed between turns: None for them.
        """


Request = RollRequest | ChoiceRequest


class EffectRun:
    """One run of a compiled snippet, which may pause: what it waits for, and the answers so far.

    ``EffectRun(code, rt, *args)`` starts the run at once: a snippet that
    cannot pause runs to its end there; one that can runs to its first
    request. ``request`` is then the pending RollRequest or ChoiceRequest,
    or None when the run is over; :meth:`answer` gives the answer and runs
    on to the next request.

    A paused Python generator cannot be copied. To copy a game paused
    inside an effect, keep the state as it was when the effect started and
    the answers so far, and :meth:`replay` them on a copy of that state:
    the run is deterministic, so it reaches the same request.
    """

    def __init__(self, code: Any, rt: EffectRuntime, *args: Any) -> None:
        self.answers: list[int] = []
        self.request: Request | None = None
        result = code.function(rt, *args)
        self._generator = result if code.pauses else None
        if self._generator is not None:
            self._send(None)

    @property
    def done(self) -> bool:
        return self.request is None

    def answer(self, value: int) -> None:
        """Answer the pending request; ValueError for an answer it does not allow."""
        request = self.request
        if request is None:
            raise ValueError("this effect is not waiting for an answer")
        if isinstance(request, RollRequest):
            if not (type(value) is int and 1 <= value <= request.sides):
                raise ValueError(f"a {request.sides}-sided die cannot show {value!r}")
        elif value not in request.options:
            raise ValueError(f"{value!r} is not one of the options {request.options}")
        self.answers.append(value)
        self._send(value)

    @classmethod
    def replay(cls, code: Any, rt: EffectRuntime, answers: Iterable[int], *args: Any) -> "EffectRun":
        """Run again on ``rt`` (the state as the effect found it), giving ``answers`` in order."""
        run = cls(code, rt, *args)
        for value in answers:
            run.answer(value)
        return run

    def _send(self, value: int | None) -> None:
        try:
            self.request = self._generator.send(value)  # type: ignore[union-attr]
        except StopIteration:
            self.request = None
            self._generator = None
