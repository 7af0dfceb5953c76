"""The effect language's types: numbers, true/false and players are the language's; a territory or a
good is its game's, so a snippet of one game is never told about the other's elements."""

from __future__ import annotations

import ast
from pathlib import Path

import targui_dsl.effects as effects_package
from targui_dsl.effects import compile_effect
from targui_dsl.effects.types import Type
from targui_dsl.games.targi import names as targi_names
from targui_dsl.games.targui import names as targui_names

EFFECTS = Path(effects_package.__file__).parent

TARGI_GOODS = {"date": 0, "salt": 1, "pepper": 2}
TARGI_SYMBOLS = {"oasis": 0, "well": 1}


def targi_problem(source: str) -> tuple[str, str]:
    code, diagnostics = compile_effect(source, targi_names.environment(TARGI_GOODS, TARGI_SYMBOLS))
    assert code is None and diagnostics
    return diagnostics[0].code, diagnostics[0].message


def targui_problem(source: str) -> tuple[str, str]:
    env = targui_names.environment({"erg": 0}, {"kel_ajjer": 0}, {"p": Type.PLAYER})
    code, diagnostics = compile_effect(source, env)
    assert code is None and diagnostics
    return diagnostics[0].code, diagnostics[0].message


def test_each_game_tells_what_its_players_may_choose() -> None:
    assert targi_names.VOCABULARY.choosable == "a good, a card, a player, a number or yes/no (`[true, false]`)"
    assert targui_names.VOCABULARY.choosable == (
        "a territory, a kind, a player, a number or yes/no (`[true, false]`)"
    )


def test_a_list_of_what_no_player_chooses_is_refused_in_its_games_words() -> None:
    assert targi_problem("me chooses x in [oasis, well] { }") == (
        "E0504", "a list of symbols cannot be ranged over or chosen"
    )
    assert targui_problem("p chooses x in [p.tribe] { }") == (
        "E0504", "a list of tribes cannot be ranged over or chosen"
    )


def test_move_in_a_game_with_nothing_to_move_says_so() -> None:
    code, message = targi_problem("move 1 from me to opponent")
    assert (code, message) == ("E0504", "Targi has nothing to `move`")


def test_the_shared_effects_package_declares_only_the_languages_own_types() -> None:
    declared: list[str] = []
    for path in sorted(EFFECTS.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Type":
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):  # a collection: its `plural`
                    declared.append(first.value)
    assert sorted(declared) == ["a player", "a whole number", "true/false"]


def test_each_game_declares_its_own_element_types() -> None:
    assert {t.described for t in targui_names.VOCABULARY.types} == {"a territory", "a territory kind", "a tribe"}
    assert {t.described for t in targi_names.VOCABULARY.types} == {"a good", "a symbol", "a card"}
