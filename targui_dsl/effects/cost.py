"""A static bound on what one snippet can cost, and divisions that can be by zero.

The estimate counts *steps*: one step is one node of the snippet evaluated
once. A loop (``for``, ``sum/min/max(... for ...)``, ``count/any/all(...)``,
or any node with a ``binder``) costs its collection plus, for each element
the collection can hold, its ``where`` and its body; nesting multiplies.
Collections are as large as the ruleset allows: the game says how large
each collection it names can be (:class:`Sizes`; Targui's: ``territories``
and ``p.territories`` hold every cell, ``players`` the most players the
seating rules allow, ``t.neighbours`` eight), a list holds its items.

The walker is generic: any node type it does not know costs one step plus
its children, found from the node's fields, so constructs added to the
language later are estimated without a change here (a new loop is
recognised by its ``binder``).

Above :data:`WARN_STEPS` a snippet gets warning E0531 with its estimate;
above :data:`ERROR_STEPS` (a game would stall on it) error E0531. A ``//``
or ``%`` whose divisor is not a non-zero number or provably positive gets
warning E0532 (a division by zero gives 0 at run time, silently).

Choices are counted apart (:func:`choice_bound`): the most a run can ask,
a choice inside a loop once per element. Above the run-time cap
(:data:`~targui_dsl.effects.runtime.MAX_CHOICES`, where a run is stopped)
a snippet gets warning E0523; a game says how often each snippet runs and
warns of a game of too many choices itself.
See ``docs/diagnostics.md``.
"""

from __future__ import annotations

import math
from typing import Callable, Iterator, Mapping

from targui_dsl.effects import nodes as n
from targui_dsl.effects.records import Record
from targui_dsl.effects.runtime import MAX_CHOICES
from targui_dsl.frontend.diagnostics import Diagnostic, Span, error, sort_key, warning

#: A snippet estimated above this many steps gets a warning (E0531): about a
#: tenth of a second of play per run on an ordinary machine.
WARN_STEPS = 1_000_000

#: Above this, an error (E0531): at least tens of seconds every time it runs.
ERROR_STEPS = 100_000_000

#: All the snippets of one ruleset together (parsing costs about 10 us a
#: character, and each snippet about 3 ms to check and compile): past
#: either cap the rest are not compiled (E0530). The built-in rulesets
#: have about 25 snippets and 3,000 characters.
MAX_TOTAL_CHARS = 20_000
MAX_SNIPPETS = 150

Locate = Callable[[int], Span]


class SnippetBudget:
    """Characters of effect-language text one ruleset may have compiled in all."""

    def __init__(self, most: int = MAX_TOTAL_CHARS, snippets: int = MAX_SNIPPETS):
        self.left = most
        self.most = most
        self.snippets_left = snippets
        self.snippets = snippets
        self.refused = False

    def refuses(self, source: str, locate: Locate, diagnostics: list[Diagnostic]) -> bool:
        """False when ``source`` fits in what is left; else True, and E0530 (once) in ``diagnostics``."""
        self.left -= len(source)
        self.snippets_left -= 1
        if self.left >= 0 and self.snippets_left >= 0:
            return False
        if not self.refused:
            self.refused = True
            diagnostics.append(self._refusal(locate))
        return True

    def _refusal(self, locate: Locate) -> Diagnostic:
        if self.snippets_left < 0:
            what = f"this ruleset has more than {self.snippets:,} effects and formulas"
        else:
            what = f"the effects and formulas of this ruleset are more than {self.most:,} characters long together"
        return error("E0530", f"{what}; this one and those after it are not checked", locate(0),
                     "a ruleset needs far fewer: shorten or remove effects")


class Sizes(Record):
    """What the estimate knows of one ruleset, from its game: how large the
    collections a snippet can name may be, and which fields are never below 0."""

    names: Mapping[str, int]  # a global collection's name -> the most elements it holds
    fields: Mapping[str, int]  # a field holding a collection -> the most elements it holds
    non_negative: frozenset[str]  # fields never below 0 (a divisor made of them and a positive part is not 0)
    described: str  # the sizes in words, for the message: "25 cells, up to 4 players, ..."
    narrow: str  # how to loop over fewer elements, in the game's words
    #: Declared memory (a field `p.bid` or a name `held`) never below 0, and never below 1: bounded
    #: like the game's own amounts, so a divisor made of them is judged the same way.
    non_negative_memory: frozenset[str] = frozenset()
    positive_memory: frozenset[str] = frozenset()

    def largest(self) -> int:
        return max([*self.names.values(), *self.fields.values(), 1])


# --- the estimate ---------------------------------------------------------------------


def _children(node: n.Node) -> Iterator[tuple[str, n.Node]]:
    """(field name, child node) for every node held by ``node``, in field order."""
    for name in n.fields_of(node):
        value = getattr(node, name)
        if isinstance(value, n.Node):
            yield name, value
        elif isinstance(value, tuple):
            for item in value:
                if isinstance(item, n.Node):
                    yield name, item


def domain_size(collection: n.Node, sizes: Sizes) -> int:
    """How many elements ``collection`` can hold at most."""
    if isinstance(collection, n.ListLit):
        return len(collection.items)
    if isinstance(collection, n.RangeLit) and isinstance(collection.low, n.IntLit) \
            and isinstance(collection.high, n.IntLit):
        return max(0, collection.high.value - collection.low.value + 1)  # `1..20`: written out
    if isinstance(collection, n.Name) and collection.name in sizes.names:
        return sizes.names[collection.name]
    if isinstance(collection, n.Field) and collection.name in sizes.fields:
        return sizes.fields[collection.name]
    return sizes.largest()  # not known here: as large as any collection can be


def estimate(node: n.Node, sizes: Sizes) -> int:
    """Worst-case steps to evaluate ``node`` once."""
    binder = getattr(node, "binder", None)
    if isinstance(binder, n.Binder):
        size = domain_size(binder.collection, sizes)
        each = 1 + (estimate(binder.where, sizes) if binder.where is not None else 0)
        each += sum(estimate(child, sizes) for name, child in _children(node) if child is not binder)
        return 1 + estimate(binder.collection, sizes) + size * each
    cost = 1 + sum(estimate(child, sizes) for _, child in _children(node))
    if isinstance(node, n.Field) and node.name in sizes.fields:
        cost += domain_size(node, sizes)  # building the collection walks it
    return cost


def choice_bound(node: n.Node, sizes: Sizes) -> int:
    """The most choices one run of ``node`` can ask: a choice is one, plus what its body
    asks; a loop asks its body's for every element its collection can hold; an ``if``
    the more of its two branches. Expressions never ask (a choice is a statement)."""
    if isinstance(node, n.Choose):
        return 1 + sum(choice_bound(child, sizes) for child in node.body)
    if isinstance(node, n.If):
        return max(sum(choice_bound(c, sizes) for c in node.body), sum(choice_bound(c, sizes) for c in node.orelse))
    if isinstance(node, n.For):
        inner = sum(choice_bound(child, sizes) for child in node.body)
        return domain_size(node.binder.collection, sizes) * inner if inner else 0
    if isinstance(node, n.Effect):
        return sum(choice_bound(child, sizes) for child in node.body)
    return 0


def _first_looped_choice(node: n.Node, looped: bool = False) -> n.Choose | None:
    """The first choice inside a loop."""
    if isinstance(node, n.Choose) and looped:
        return node
    inside = looped or isinstance(node, n.For)
    for _, child in _children(node):
        found = _first_looped_choice(child, inside)
        if found is not None:
            return found
    return None


def describe_steps(steps: int) -> str:
    """``12,345`` below a billion, ``about 1.4e+10`` above (any size: no float overflow)."""
    if steps < 10**9:
        return f"{steps:,}"
    exponent = math.floor(math.log10(steps))  # exact enough for any int; float(steps) could overflow
    mantissa = 10 ** (math.log10(steps) - exponent)
    if round(mantissa, 1) >= 10:
        mantissa, exponent = mantissa / 10, exponent + 1
    return f"about {mantissa:.1f}e+{exponent:02d}"


def _loop_depth(node: n.Node) -> int:
    inner = max((_loop_depth(child) for _, child in _children(node)), default=0)
    return inner + (1 if isinstance(getattr(node, "binder", None), n.Binder) else 0)


# --- divisions by zero -----------------------------------------------------------------


def _positive(node: n.Node, sizes: Sizes) -> bool:
    """Whether ``node`` is a whole number above 0 in every game state."""
    if isinstance(node, n.IntLit):
        return node.value > 0
    if isinstance(node, (n.Name, n.Field)) and _named(node) in sizes.positive_memory:
        return True
    if isinstance(node, n.RoundLit):
        return True  # rounds count from 1
    if isinstance(node, n.Call) and node.func == "max":
        return any(_positive(arg, sizes) for arg in node.args)
    if isinstance(node, n.Call) and node.func == "min":
        return bool(node.args) and all(_positive(arg, sizes) for arg in node.args)
    if isinstance(node, n.BinOp) and node.op == "+":
        return (_positive(node.left, sizes) and _non_negative(node.right, sizes)) or (
            _non_negative(node.left, sizes) and _positive(node.right, sizes)
        )
    if isinstance(node, n.BinOp) and node.op == "*":
        return _positive(node.left, sizes) and _positive(node.right, sizes)
    if isinstance(node, n.IfExp):
        return _positive(node.then, sizes) and _positive(node.orelse, sizes)
    return False


def _non_negative(node: n.Node, sizes: Sizes) -> bool:
    if _positive(node, sizes) or (isinstance(node, n.IntLit) and node.value == 0):
        return True
    if isinstance(node, n.Quantifier) and node.func == "count":
        return True
    if isinstance(node, n.Field) and node.name in sizes.non_negative:
        return True
    if isinstance(node, (n.Name, n.Field)) and _named(node) in sizes.non_negative_memory:
        return True
    if isinstance(node, n.BinOp) and node.op in ("+", "*"):
        return _non_negative(node.left, sizes) and _non_negative(node.right, sizes)
    if isinstance(node, n.Call) and node.func == "max":
        return any(_non_negative(arg, sizes) for arg in node.args)
    return False


def _named(node: n.Name | n.Field) -> str:
    """The name a global or a field is read by (`held`, `p.bid`: `bid`)."""
    return node.name


def _nonzero_literal(node: n.Node) -> bool:
    if isinstance(node, n.Neg):
        return _nonzero_literal(node.operand)
    return isinstance(node, n.IntLit) and node.value != 0


def _divisions(node: n.Node) -> Iterator[n.BinOp]:
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, n.BinOp) and current.op in ("//", "%"):
            yield current
        stack.extend(child for _, child in _children(current))


# --- diagnostics -------------------------------------------------------------------------


def _span(locate: Locate | None, pos: n.Pos, file: str) -> Span:
    """The file span of a node: all of it when it stays on one line of the file."""
    if locate is None:
        return Span(file, pos.line, pos.column, pos.end_line, pos.end_column)
    first = locate(pos.start)
    last = locate(max(pos.start, pos.end - 1))
    if last.file == first.file and last.line == first.line and last.column >= first.column:
        return Span(first.file, first.line, first.column, first.line, last.column + 1)
    return first


def cost_diagnostics(tree: n.Node, sizes: Sizes, what: str, locate: Locate | None = None,
                     file: str = "<effect>") -> list[Diagnostic]:
    """E0531 (too costly) and E0532 (a division that can be by zero) for one parsed snippet.

    ``what`` names the snippet in messages ("this effect", "this formula").
    """
    out: list[Diagnostic] = []
    steps = estimate(tree, sizes)
    if steps > WARN_STEPS:
        depth = _loop_depth(tree)
        message = (f"{what} can take {describe_steps(steps)} steps each time it runs "
                   f"({depth} nested loop{'s' if depth != 1 else ''}, on a board of {sizes.described}); "
                   f"the budget is {WARN_STEPS:,}")
        hint = f"loop over fewer elements: {sizes.narrow}, or compute a value once before the loop"
        report = error if steps > ERROR_STEPS else warning
        at = tree.pos if not isinstance(tree, (n.Effect, n.Formula)) else _first_pos(tree)
        out.append(report("E0531", message, _span(locate, at, file), hint))
    choices = choice_bound(tree, sizes)
    if choices > MAX_CHOICES:
        looped = _first_looped_choice(tree)
        out.append(warning(
            "E0523",
            f"{what} can ask up to {choices:,} choices each time it runs (a choice inside a loop, on a board of "
            f"{sizes.described}); a run that asks more than {MAX_CHOICES} is stopped, and the game with it",
            _span(locate, (looped or tree).pos, file),
            "ask once before the loop, or loop over fewer elements: " + sizes.narrow))
    for division in _divisions(tree):
        divisor = division.right
        if _nonzero_literal(divisor) or _positive(divisor, sizes):
            continue
        zero = isinstance(divisor, n.IntLit) and divisor.value == 0
        message = ("this divides by zero, which gives 0" if zero
                   else f"the divisor of `{division.op}` can be 0, and a division by zero gives 0")
        advice = None if zero else "if it should be at least 1, write `max(1, ...)` around it"
        out.append(warning("E0532", message, _span(locate, divisor.pos, file), advice))
    return sorted(out, key=sort_key)


def _first_pos(tree: n.Node) -> n.Pos:
    """Where a snippet's text starts (its first statement or expression)."""
    for _, child in _children(tree):
        return child.pos
    return tree.pos


def snippet_choices(source: str, start: str, sizes: Sizes) -> int:
    """:func:`choice_bound` of the source of a snippet that compiled (0 if it does not parse)."""
    from targui_dsl.effects.parser import parse

    tree, problems = parse(source, start)
    return 0 if tree is None or problems else choice_bound(tree, sizes)


def snippet_cost(source: str, start: str, sizes: Sizes, locate: Locate | None = None) -> list[Diagnostic]:
    """:func:`cost_diagnostics` for the source of a snippet that compiled (``start``: "effect" or "formula")."""
    from targui_dsl.effects.parser import parse  # here, not at the top: the parser module is heavier to import

    tree, problems = parse(source, start)
    if tree is None or problems:
        return []
    return cost_diagnostics(tree, sizes, f"this {start}", locate)
