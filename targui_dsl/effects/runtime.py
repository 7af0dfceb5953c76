"""What compiled effect code and a game exchange while a snippet runs.

Code compiled from the effect language calls only the runtime methods its
game's vocabulary names (:attr:`Vocabulary.runtime_methods`), on an object
passed in as ``rt``; Targui's are listed, with their contract, by
:class:`targui_dsl.games.targui.effect_api.EffectRuntime`. Method names are
chosen by the compiler from the vocabulary, never taken from ruleset text.
This module holds what every game shares: the requests a snippet pauses on,
the stops (budget, number size) and their caps.

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
from typing import Any, Callable, Final, Iterable

#: The largest amount a game stores (money, a value, a formula's result).
#: Rulesets and effect literals have the same cap, so no house rule (say a
#: formula of ``player.cash * player.cash``) can grow numbers without bound.
MAX_VALUE: Final = 10**9  # Final: a compiled build inlines it


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

#: The most choices one run of a snippet may ask a player: each is a decision of
#: the game and a line of its log, so a choice inside loops over the board
#: (49 x 49 of them a turn) would make games of hours and logs of gigabytes.
#: Past it the run stops (:class:`EffectTooManyChoices`). Dice are not counted:
#: the game throws them itself, and the step budget bounds them.
MAX_CHOICES = 100


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
    ``"player"`` (seat indices), ``"number"`` (whole numbers), ``"kind"``
    (territory kind indices) or ``"yes/no"`` (true and false, answered as 1
    and 0, in the order the ruleset wrote them). ``options``
    is never empty (a choice with no options is skipped without a request)
    and is in board, seat or number order. ``player`` is a seat index; it
    may be a player out of the game (``for p in seats { p chooses ... }``),
    who still answers. ``prompt`` is the choice as the
    ruleset wrote it, e.g. ``"choose one: t in p.territories where
    t.value > 0"``, for display.
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


class EffectTooManyChoices(EffectBudgetExceeded):
    """A run of a snippet asked more than MAX_CHOICES choices.

    Stopped like a run past its step budget: the engine ends the game with
    this message; effects already applied stay applied.
    """

    def __init__(self, file: str | None, line: int | None, budget: int = MAX_CHOICES) -> None:
        super().__init__(file, line, budget)
        where = f"{file}:{line}" if file is not None else "an effect"
        self.args = (
            f"the effect at {where} asked more than {budget} choices in one run;"
            " it was stopped",
        )

    def __reduce__(self) -> tuple[type, tuple[str | None, int | None, int]]:
        return (EffectTooManyChoices, (self.file, self.line, self.budget))


def check_choices(code: Any, asked: int) -> None:
    """A driver of a run calls this with the choices the run has asked so far, its new
    one included: past MAX_CHOICES the run is stopped (every driver, one rule)."""
    if asked > MAX_CHOICES:
        raise EffectTooManyChoices(code.file, code.line)


Request = RollRequest | ChoiceRequest


def budget_taker(file: str | None, line: int | None) -> Callable[[list[int], Any], Any]:
    """``_take(budget, items)``: the elements a loop will visit, fixed now and paid for.

    Loops select their elements once, before the body runs: the body cannot
    change which elements are visited. Each element costs one step of the
    run's budget (a one-item list holding the steps left, local to the run);
    the cost is paid before the loop starts, so a runaway stops at once.
    """

    def _take(budget: list[int], items: Any) -> Any:
        if type(items) is not range:  # a range is already fixed, and may be huge
            items = tuple(items)
            budget[0] -= len(items)
        else:  # len() of a range of more than 2**63 numbers is an OverflowError
            budget[0] -= max(0, items.stop - items.start)
        if budget[0] < 0:
            raise EffectBudgetExceeded(file, line)
        return items

    return _take


def multiplier(file: str | None, line: int | None) -> Callable[[int, int], int]:
    """``_mul(a, b)``: a product of two values not known when compiling, at most MAX_BITS bits long."""

    def _mul(a: int, b: int) -> int:
        size = a.bit_length() + b.bit_length()  # the product's length, or one bit less
        if size > MAX_BITS + 1:
            raise EffectValueTooLarge(file, line)
        product = a * b
        if product.bit_length() > MAX_BITS:
            raise EffectValueTooLarge(file, line)
        return product

    return _mul


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

    def __init__(self, code: Any, rt: Any, *args: Any) -> None:
        self.answers: list[int] = []
        self.request: Request | None = None
        self._code = code
        self._asked = 0
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
    def replay(cls, code: Any, rt: Any, answers: Iterable[int], *args: Any) -> "EffectRun":
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
            return
        if isinstance(self.request, ChoiceRequest):
            self._asked += 1
            check_choices(self._code, self._asked)
