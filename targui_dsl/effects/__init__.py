"""The effect language: card effects and rule formulas (docs/effect-language.md).

``compile_effect``/``compile_formula`` turn a snippet into a
:class:`~targui_dsl.effects.code.CompiledCode` or diagnostics (E05xx).
"""

from targui_dsl.effects.compiler import compile_effect, compile_formula
from targui_dsl.effects.parser import KEYWORDS, parse_effect, parse_formula
from targui_dsl.effects.runtime import ChoiceRequest, EffectBudgetExceeded, EffectRun, RollRequest
from targui_dsl.effects.types import BOOL, INT, PLAYER, PLAYERS, Type
from targui_dsl.effects.vocabulary import Environment

__all__ = [
    "BOOL",
    "INT",
    "KEYWORDS",
    "PLAYER",
    "PLAYERS",
    "ChoiceRequest",
    "EffectBudgetExceeded",
    "EffectRun",
    "RollRequest",
    "Environment",
    "Type",
    "compile_effect",
    "compile_formula",
    "parse_effect",
    "parse_formula",
]
