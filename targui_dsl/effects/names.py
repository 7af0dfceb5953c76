"""The effect language's own words: its keywords and functions.

A game's names (globals, fields, hook moments, formulas) are its
:class:`~targui_dsl.effects.vocabulary.Vocabulary`, in its package.
"""

from __future__ import annotations

from typing import Mapping

#: Words that can never be names (loop variables, ids, fields): the
#: grammar's keywords (grammar.lark; a test holds the two together).
KEYWORDS = frozenset(
    "for in where if else and or not true false nobody this round sum min max count any all"
    " let chooses move from to end game break".split()
)

#: Functions: name -> what it does. ``roll`` may pause the snippet (effects only).
FUNCTIONS: Mapping[str, str] = {
    "sum": "adds up a number for each element of a collection",
    "min": "the smallest of values, or over a collection",
    "max": "the largest of values, or over a collection",
    "count": "how many elements of a collection satisfy a condition",
    "any": "whether some element satisfies a condition",
    "all": "whether every element satisfies a condition",
    "roll": "throws an n-sided die: 1 to n (effects and hooks only)",
}
