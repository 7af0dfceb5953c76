"""Parse effect-language snippets into :mod:`~targui_dsl.effects.nodes`.

One Lark grammar (``grammar.lark``, LALR, basic lexer so keywords are
reserved) with two start symbols.  Syntax errors never escape as
exceptions: they come back as :class:`Problem` values with character
offsets, which the compiler turns into file positions.
"""

from __future__ import annotations

import dataclasses
import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Mapping

from targui_dsl.effects import nodes as n
from targui_dsl.effects import quick
from targui_dsl.effects.names import KEYWORDS
from targui_dsl.effects.records import Record

if TYPE_CHECKING:
    # The grammar's parser, generated from grammar.lark as plain Python (targui_dsl/effects/standalone.py):
    # loaded only for a text the quick parser leaves to it (a syntax error, a limit).
    from targui_dsl.effects._lalr import Lark, Meta, Token, Transformer, Tree, UnexpectedInput, UnexpectedToken

#: Lark's terminal names for the keywords ("FOR", "ROUND", ...).
KEYWORD_TYPES = frozenset(k.upper() for k in KEYWORDS)

#: Deeper trees are refused (E0511): the checker and Python's compiler recurse.
MAX_DEPTH = 100

#: Bodies in braces nested deeper are refused (E0511): Python compiles at
#: most 20 nested loops ("too many statically nested blocks").
MAX_BLOCKS = 16

#: Longer snippets are refused before parsing (E0530); the longest card of
#: the built-in rulesets is under 200 characters.
MAX_CHARS = 5_000

#: Snippets with more parts (nodes of the parse tree and tokens) are refused
#: (E0530): checking, compiling and estimating stay well under a second.
MAX_NODES = 5_000

#: Longest integer literal kept exactly; anything longer is over the limit anyway.
_MAX_DIGITS = 30


class Problem(Record):
    """A diagnostic before it has a file position: offsets into the snippet."""

    code: str
    message: str
    start: int
    end: int  # exclusive; == start for "end of effect" (a point, not a range)
    hint: str | None = None
    #: The hint shows an example in the game's words: which one (``SYNTAX_EXAMPLES``'s keys),
    #: written where the hint says ``<example>``.
    example: str | None = None

    def with_example(self, syntax: Mapping[str, str]) -> "Problem":
        """This problem with its hint's example in the words of ``syntax``."""
        if self.example is None or self.hint is None:
            return self
        return dataclasses.replace(self, hint=self.hint.replace("<example>", syntax[self.example]), example=None)


#: The examples a syntax hint shows, when no game gives its own (a game's vocabulary does:
#: ``Examples.syntax``, with the same keys).
SYNTAX_EXAMPLES: Mapping[str, str] = {
    "block": "for x in COLLECTION { ... }",
    "change": "x.field = 3",
    "statement": "x.field += 1",
    "list": "x in [a, b]",
}


@lru_cache(maxsize=1)
def _lark() -> Lark:
    from targui_dsl.effects._lalr import Lark_StandAlone

    return Lark_StandAlone()


def _pos(meta: Any) -> n.Pos:  # Lark's Meta or the quick parser's
    if getattr(meta, "empty", True):
        return n.Pos(1, 1, 1, 1, 0, 0)
    return n.Pos(meta.line, meta.column, meta.end_line, meta.end_column, meta.start_pos, meta.end_pos)


def _tpos(tok: Token | quick.Token) -> n.Pos:
    return n.Pos(_at(tok.line), _at(tok.column), _at(tok.end_line), _at(tok.end_column), _at(tok.start_pos),
                 _at(tok.end_pos))


def _at(place: int | None) -> int:
    # Lark types a token's place as optional; a token from the lexer always has one.
    return place if place is not None else 0


#: What a rule's method receives: its children, already transformed (nodes, tokens, tuples, None).
_Children = list[Any]


class _ToNodes:
    """A rule's node from its place and its children (nodes, tokens, tuples, None). Method names are
    the grammar's rule names and aliases; the quick parser calls them as it reduces, Lark's
    parser's Transformer (:func:`_transformer`) on the tree it built."""

    # snippets
    def effect(self, meta: Meta, children: _Children) -> n.Effect:
        return n.Effect(_pos(meta), tuple(children))

    def formula(self, meta: Meta, children: _Children) -> n.Formula:
        return n.Formula(_pos(meta), children[0])

    # statements
    def block(self, meta: Meta, children: _Children) -> tuple[Any, ...]:
        return tuple(children)

    def binder(self, meta: Meta, children: _Children) -> n.Binder:
        var, collection, where = children
        return n.Binder(_pos(meta), str(var), _tpos(var), collection, where)

    def for_stmt(self, meta: Meta, children: _Children) -> n.For:
        binder, body = children
        return n.For(_pos(meta), binder, body)

    def range_lit(self, meta: Meta, children: _Children) -> n.RangeLit:
        low, _, high = children
        return n.RangeLit(_pos(meta), low, high)

    def let_stmt(self, meta: Meta, children: _Children) -> n.Let:
        name, _, value = children
        return n.Let(_pos(meta), str(name), _tpos(name), value)

    def choose_stmt(self, meta: Meta, children: _Children) -> n.Choose:
        chooser, binder, body = children
        return n.Choose(_pos(meta), chooser, binder, body)

    def move_stmt(self, meta: Meta, children: _Children) -> n.Move:
        count, source, target = children
        return n.Move(_pos(meta), count, source, target)

    def end_stmt(self, meta: Meta, children: _Children) -> n.EndGame:
        (text,) = children
        return n.EndGame(_pos(meta), str(text)[1:-1], _tpos(text))

    def break_stmt(self, meta: Meta, children: _Children) -> n.Break:
        return n.Break(_pos(meta))

    def do_stmt(self, meta: Meta, children: _Children) -> n.Perform:
        name, *args = children
        return n.Perform(_pos(meta), str(name), _tpos(name), tuple(a for a in args if a is not None))

    def do_arg(self, meta: Meta, children: _Children) -> n.Argument:
        name, _, value = children
        return n.Argument(_pos(meta), str(name), _tpos(name), value)

    def if_stmt(self, meta: Meta, children: _Children) -> n.If:
        cond, body = children
        return n.If(_pos(meta), cond, body, ())

    def if_else(self, meta: Meta, children: _Children) -> n.If:
        cond, body, orelse = children
        return n.If(_pos(meta), cond, body, orelse)

    def if_elif(self, meta: Meta, children: _Children) -> n.If:
        cond, body, nested = children
        return n.If(_pos(meta), cond, body, (nested,))

    def assign(self, meta: Meta, children: _Children) -> n.Assign:
        target, op, value, this_round = children
        return n.Assign(_pos(meta), target, str(op), _tpos(op), value, this_round)

    def this_round(self, meta: Meta, children: _Children) -> n.Pos:
        return _pos(meta)

    # expressions
    def ifexp(self, meta: Meta, children: _Children) -> n.IfExp:
        then, cond, orelse = children
        return n.IfExp(_pos(meta), cond, then, orelse)

    def or_op(self, meta: Meta, children: _Children) -> n.BoolOp:
        return n.BoolOp(_pos(meta), "or", children[0], children[1])

    def and_op(self, meta: Meta, children: _Children) -> n.BoolOp:
        return n.BoolOp(_pos(meta), "and", children[0], children[1])

    def not_op(self, meta: Meta, children: _Children) -> n.Not:
        return n.Not(_pos(meta), children[0])

    def compare(self, meta: Meta, children: _Children) -> n.Compare:
        left, op, right = children
        return n.Compare(_pos(meta), str(op), left, right, _tpos(op))

    def in_op(self, meta: Meta, children: _Children) -> n.Membership:
        return n.Membership(_pos(meta), False, children[0], children[1])

    def not_in_op(self, meta: Meta, children: _Children) -> n.Membership:
        return n.Membership(_pos(meta), True, children[0], children[1])

    def list(self, meta: Meta, children: _Children) -> n.ListLit:
        (args,) = children
        return n.ListLit(_pos(meta), tuple(args or ()))

    def args(self, meta: Meta, children: _Children) -> tuple[Any, ...]:
        return tuple(children)

    def binop(self, meta: Meta, children: _Children) -> n.BinOp:
        left, op, right = children
        return n.BinOp(_pos(meta), str(op), left, right, _tpos(op))

    def neg(self, meta: Meta, children: _Children) -> n.Neg:
        return n.Neg(_pos(meta), children[1])

    def field(self, meta: Meta, children: _Children) -> n.Field:
        base, name = children
        return n.Field(_pos(meta), base, str(name), _tpos(name))

    def int_lit(self, meta: Meta, children: _Children) -> n.IntLit:
        text = str(children[0])
        # Past _MAX_DIGITS the exact value does not matter (it is over the
        # limit) and int() of a huge string is slow or refused.
        value = int(text) if len(text) <= _MAX_DIGITS else 10**_MAX_DIGITS
        return n.IntLit(_pos(meta), value, text)

    def true_lit(self, meta: Meta, children: _Children) -> n.BoolLit:
        return n.BoolLit(_pos(meta), True)

    def false_lit(self, meta: Meta, children: _Children) -> n.BoolLit:
        return n.BoolLit(_pos(meta), False)

    def nobody_lit(self, meta: Meta, children: _Children) -> n.NobodyLit:
        return n.NobodyLit(_pos(meta))

    def round_lit(self, meta: Meta, children: _Children) -> n.RoundLit:
        return n.RoundLit(_pos(meta))

    def name(self, meta: Meta, children: _Children) -> n.Name:
        return n.Name(_pos(meta), str(children[0]))

    def aggregate(self, meta: Meta, children: _Children) -> n.Aggregate:
        func, element, binder = children
        return n.Aggregate(_pos(meta), str(func), _tpos(func), element, binder)

    def call(self, meta: Meta, children: _Children) -> n.Call:
        func, args = children
        return n.Call(_pos(meta), str(func), _tpos(func), tuple(args or ()))

    def quantifier(self, meta: Meta, children: _Children) -> n.Quantifier:
        func, binder = children
        return n.Quantifier(_pos(meta), str(func), _tpos(func), binder)


_NODES = _ToNodes()
#: What builds each rule's node, by the rule's (or alias's) name.
BUILDERS: dict[str, Any] = {name: getattr(_NODES, name) for name in vars(_ToNodes) if not name.startswith("_")}


@lru_cache(maxsize=1)
def _transformer() -> Transformer:
    """Lark's Transformer over :data:`BUILDERS`, for the trees of Lark's parser."""
    from targui_dsl.effects._lalr import Transformer, Tree

    class ToNodes(Transformer):
        def __default__(self, data: str, children: list[Any], meta: Meta) -> Any:
            builder = BUILDERS.get(data)
            return Tree(data, children, meta) if builder is None else builder(meta, children)

    return ToNodes()


def _measure(tree: Tree) -> tuple[int, int, Tree | None]:
    """(depth, parts, the first block nested too deep or None) of a Lark tree.

    Without recursion (the input may be hostile); stops counting once any
    is over its cap.
    """
    from targui_dsl.effects._lalr import Tree
    deepest, parts = 0, 0
    stack = [(tree, 1, 0)]
    while stack:
        node, depth, blocks = stack.pop()
        deepest = max(deepest, depth)
        parts += 1
        if node.data == "block":
            blocks += 1
            if blocks > MAX_BLOCKS:
                return deepest, parts, node
        if deepest > MAX_DEPTH or parts > MAX_NODES:
            break
        for child in node.children:
            if isinstance(child, Tree):
                stack.append((child, depth + 1, blocks))
            elif child is not None:
                parts += 1
    return deepest, parts, None


def parse(
    source: str, start: str, syntax: Mapping[str, str] | None = None
) -> tuple[n.Effect | n.Formula | None, list[Problem]]:
    """Parse ``source`` as an ``"effect"`` or a ``"formula"``.

    Returns the node and no problems, or None and one problem (E0501 for a
    syntax error, E0511 for nesting over :data:`MAX_DEPTH`, E0530 for a
    snippet over :data:`MAX_CHARS` or :data:`MAX_NODES`). ``syntax``: the
    examples hints show, in a game's words (:data:`SYNTAX_EXAMPLES` when None).
    """
    tree, problems = _parse(source, start)
    return tree, [p.with_example(syntax or SYNTAX_EXAMPLES) for p in problems]


# The compiler and the cost bound both parse each snippet; nodes and
# problems are immutable, so the second parse is a cache hit.
@lru_cache(maxsize=256)
def _parse(source: str, start: str) -> tuple[n.Effect | n.Formula | None, tuple[Problem, ...]]:
    tree, problems = _parse_uncached(source, start)
    return tree, tuple(problems)


def _parse_uncached(source: str, start: str) -> tuple[n.Effect | n.Formula | None, list[Problem]]:
    if len(source) <= MAX_CHARS:
        try:
            return quick.parse(source, start, BUILDERS, MAX_DEPTH, MAX_NODES, MAX_BLOCKS), []
        except quick.Fallback:
            pass  # Lark's parser says what is wrong
    return _parse_lark(source, start)


def _parse_lark(source: str, start: str) -> tuple[n.Effect | n.Formula | None, list[Problem]]:
    """What Lark's parser makes of ``source``: its node, or the problem with it."""
    what = "effect" if start == "effect" else "formula"
    if len(source) > MAX_CHARS:
        return None, [
            Problem("E0530", f"this {what} is {len(source):,} characters long; the most is {MAX_CHARS:,}", 0, 1,
                    "split it into several cards or simpler parts")
        ]
    from targui_dsl.effects._lalr import UnexpectedInput

    try:
        tree = _lark().parse(source, start=start)
    except UnexpectedInput as exc:
        return None, [_syntax_problem(exc, source, what)]
    depth, parts, too_deep = _measure(tree)
    if too_deep is not None and depth <= MAX_DEPTH:
        offset: int = getattr(too_deep.meta, "start_pos", 0)
        return None, [
            Problem(
                "E0511",
                f"statements are nested more than {MAX_BLOCKS} deep here (bodies in braces inside bodies)",
                offset,
                offset + 1,
                "take the inner part out into a separate loop, or combine conditions with `and`",
            )
        ]
    if parts > MAX_NODES and depth <= MAX_DEPTH:
        end = len(source.rstrip())
        return None, [
            Problem(
                "E0530",
                f"this {what} has more than {MAX_NODES:,} parts (names, numbers, operators); it is too large to check",
                0,
                max(end, 1),
                "split it into several cards or simpler parts",
            )
        ]
    if depth > MAX_DEPTH:
        end = len(source.rstrip())
        return None, [
            Problem(
                "E0511",
                f"this {what} is nested too deeply (more than {MAX_DEPTH} levels)",
                0,
                max(end, 1),
                "split it into simpler parts",
            )
        ]
    return _transformer().transform(tree), []


def parse_effect(source: str) -> tuple[n.Effect | None, list[Problem]]:
    return parse(source, "effect")  # type: ignore[return-value]


def parse_formula(source: str) -> tuple[n.Formula | None, list[Problem]]:
    return parse(source, "formula")  # type: ignore[return-value]


def round_long_changes(source: str) -> tuple[str, ...]:
    """The changes an effect makes `this round` (``erg.strategic = 3``), as written.

    Such a card moves nothing when it is revealed: it changes a value for the
    rest of the round. A report of what cards did
    names these instead of showing zeros. Empty for an effect that does not parse.
    """
    tree, _ = parse_effect(source)
    found: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, n.Assign) and node.this_round is not None:
            found.append(" ".join(source[node.target.pos.start:node.value.pos.end].split()))
        if isinstance(node, tuple):
            for item in node:
                walk(item)
        elif isinstance(node, n.Node):
            for name in n.fields_of(node):
                walk(getattr(node, name))

    walk(tree)
    return tuple(found)


# Syntax error messages ------------------------------------------------------

# Terminals that can start an expression / a statement, and binary operators:
# an expected set holding them is summarised in one phrase.
_EXPR_START = frozenset(
    "NAME INT LPAR MINUS NOT TRUE FALSE NOBODY ROUND SUM MIN MAX COUNT ANY ALL".split()
)
_STMT_START = frozenset("FOR IF NAME SEMICOLON LET MOVE END BREAK".split())
_OPERATORS = frozenset(
    "PLUS MINUS STAR DSLASH SLASH PERCENT EQEQ NE LT LE GT GE AND OR IN NOT IF DOT".split()
)
_WORDS = {"NAME": "a name", "INT": "a number", "STRING": "a reason in quotes"}


def _terminal_text(name: str) -> str:
    from targui_dsl.effects._lalr import PatternStr

    if name in _WORDS:
        return _WORDS[name]
    try:
        pattern = _lark().get_terminal(name).pattern
    except KeyError:
        return name.lower()
    if isinstance(pattern, PatternStr):
        return f"`{pattern.value}`"
    return name.lower()


def _or_list(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


def describe_expected(expected: set[str], what: str) -> str:
    """Plain words for a set of Lark terminal names: what could come next.

    Groups become phrases ("an expression", "a statement", "an operator"),
    so no list of raw tokens is shown.
    """
    rest = set(expected)
    phrases: list[str] = []
    if "INT" in rest:
        rest -= _EXPR_START
        phrases.append("an expression")
    if "FOR" in rest:
        rest -= _STMT_START
        phrases.append("a statement")
    if len(rest & _OPERATORS) >= 2:
        rest -= _OPERATORS
        phrases.append("an operator")
    if "THIS" in rest:
        rest.discard("THIS")
        phrases.append("`this round`")
    end = "$END" in rest
    rest.discard("$END")
    tokens = sorted(_terminal_text(t) for t in rest)
    return _or_list(tokens + phrases + ([f"end of {what}"] if end else []))


def _acceptable(exc: UnexpectedToken) -> set[str]:
    """The terminals that could really come next.

    Lark's ``expected`` is the LALR table's set, which merged states make
    too wide (a `)` with no `(` open); ``accepts()`` tries each one.
    """
    try:
        return set(exc.interactive_parser.accepts())
    except Exception:  # noqa: BLE001 - a best effort for the message; the table's set is still right
        return set(exc.expected)


def _syntax_problem(exc: UnexpectedInput, source: str, what: str) -> Problem:
    from targui_dsl.effects._lalr import UnexpectedCharacters, UnexpectedToken
    if isinstance(exc, UnexpectedCharacters):
        start = _at(exc.pos_in_stream)
        char = source[start] if start < len(source) else ""
        hint = None
        example = None
        if char == ":":
            hint = "blocks are written in braces: `<example>`"
            example = "block"
        elif char in "\"'":
            hint = 'the effect language has no text values, but for the reason of `end game "..."`'
        elif char == "&":
            hint = "write `and`"
        elif char == "|":
            hint = "write `or`"
        elif char == "!":
            hint = "write `not`, or `!=` for not equal"
        shown = char if char.isprintable() else repr(char)
        return Problem("E0501", f"unexpected character `{shown}`", start, start + 1, hint, example)

    assert isinstance(exc, UnexpectedToken)
    token = exc.token
    acceptable = _acceptable(exc)
    expected = describe_expected(acceptable, what)
    if token.type == "$END":
        # Point just past the last thing written, not at trailing newlines.
        start = len(source.rstrip(" \t\r\n\f"))
        hint, example = None, None
        if "STRING" in acceptable:
            hint = _REASON_HINT
        elif "RPAR" in acceptable or "RBRACE" in acceptable or "RSQB" in acceptable:
            closing = next(c for t, c in (("RBRACE", "}"), ("RPAR", ")"), ("RSQB", "]")) if t in acceptable)
            hint = f"a bracket is still open: close it with `{closing}`"
        else:
            unknown = _unknown_statement(source[:start], "", acceptable)
            if unknown is not None:
                hint, example = unknown.replace("<change>", "<example>"), "change"
        return Problem("E0501", f"expected {expected} but found end of {what}", start, start, hint, example)
    start, end = _at(token.start_pos), _at(token.end_pos)
    hint, example = _token_hint(token, acceptable, source)
    return Problem("E0501", f"expected {expected} but found `{token.value}`", start, end, hint, example)


def _token_hint(token: Token, acceptable: set[str], source: str) -> tuple[str | None, str | None]:
    """The likely fix for an unexpected token, when one is clear, and the example it shows."""
    hint = _token_fix(token, acceptable, source)
    for key in SYNTAX_EXAMPLES:
        if hint is not None and f"<{key}>" in hint:
            return hint.replace(f"<{key}>", "<example>"), key
    return hint, None


#: A word standing where a statement starts (after the start, a newline, `;`, `{` or `}`).
_STATEMENT_WORD = re.compile(r"(?:^|[\n;{}])[ \t]*([A-Za-z_]\w*)$")


def _unknown_statement(before: str, found: str, acceptable: set[str]) -> str | None:
    """For a statement the grammar does not know (`stop game`, `print x`, `while ...`): which
    statements there are. Recognised by a lone word where a statement starts that is not
    followed by `=`, `+=`, `-=` or `.` (the parser still expects one of them)."""
    if "EQ" not in acceptable:
        return None
    match = _STATEMENT_WORD.search(before.rstrip(" \t"))
    if match is None:
        return None
    # Quote the next word too (`stop game`), not a bracket (`print(`).
    written = match.group(1) + (f" {found}" if found.isalnum() else "")
    return (
        f"the language has no statement `{written}`: a statement is `for`, `if`, `let`, `move`,"
        ' `end game "REASON"`, a choice (`p chooses ...`) or a change such as `<change>`'
    )


#: `end game` without its reason, or `end` without `game`.
_REASON_HINT = 'the game ends with a reason in quotes: `end game "a player holds 12 territories"`'


def _token_fix(token: Token, acceptable: set[str], source: str) -> str | None:
    before = source[: _at(token.start_pos)].rstrip(" \t")
    if "STRING" in acceptable or acceptable == {"GAME"}:
        return _REASON_HINT
    if token.type in ("PLUS", "MINUS") and before.endswith("=") and not before.endswith(("==", "!=", "<=", ">=")):
        return f"did you mean `{token.value}=`?"
    if token.type == "EQ" and "EQEQ" in acceptable:
        return "use `==` to compare"
    if token.type == "EQEQ" and "EQ" in acceptable:
        return "a statement changes something (`<change>`); to test a value write `if ... == ... { ... }`"
    if token.type == "ELSE" and "LBRACE" in acceptable:
        return "a conditional value in an assignment needs parentheses: `x = (a if c else b)`"
    if token.type in KEYWORD_TYPES and acceptable == {"NAME"}:
        return f"`{token.value}` is a reserved word and cannot be used as a name"
    if "LBRACE" in acceptable and token.type != "LBRACE" and "INT" not in acceptable:
        return "the body of `if` or `for` is written in braces: `if CONDITION { ... }`"
    if "RPAR" in acceptable and "INT" not in acceptable:
        return "a `(` is still open: close it with `)`"
    if "RSQB" in acceptable and "INT" not in acceptable:
        return "a `[` is still open: close it with `]`"
    if "FOR" in acceptable and token.type in ("INT", "LPAR", "TRUE", "FALSE"):
        return "a statement starts with `for`, `if` or what it changes (`<statement>`); a value alone does nothing"
    unknown = _unknown_statement(before, str(token.value), acceptable)
    if unknown is not None:
        return unknown
    if token.type in ("RBRACE", "RPAR", "RSQB") and token.type not in acceptable:
        return f"this `{token.value}` closes nothing that is open: remove it, or add its opening bracket"
    if token.type == "LSQB" and "INT" in acceptable:
        return "a list `[...]` is only allowed after `in`: `<list>`"
    return None
