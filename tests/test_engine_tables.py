"""Games of one ruleset and seating share their tables, by name (a compiled build has no __dict__)."""

from __future__ import annotations

from targui_dsl import load_ruleset
from targui_dsl.games.targui.game import Game
from targui_dsl.games.targui.tables import TABLES

PER_GAME = {"seed", "explicit_chance", "initial_rng"}


def test_tables_names_every_table_the_build_sets():
    ruleset = load_ruleset("swedish-12")
    built = Game(ruleset, players=3, seed=0, tribes=("kel_ress", "kel_ajjer", "kel_ahaggar"))
    assert set(vars(built)) - PER_GAME == set(TABLES)


def test_a_second_game_shares_the_first_ones_tables_and_keeps_its_own_seed():
    ruleset = load_ruleset("original-dutch")
    first = Game(ruleset, players=2, seed=1)
    second = Game(ruleset, players=2, seed=2, explicit_chance=True)
    for name in TABLES:
        assert getattr(second, name) is getattr(first, name), name
    assert (second.seed, second.explicit_chance) == (2, True)
    assert second.initial_rng != first.initial_rng
    assert [second.new_initial_state().legal_actions() for _ in range(2)][0] == \
        first.new_initial_state().legal_actions()


def test_a_game_that_shares_tables_has_exactly_the_tables_and_its_own_names():
    ruleset = load_ruleset("updated-treasury")
    first = Game(ruleset, players=4, seed=1)
    second = Game(ruleset, players=4, seed=2)
    assert set(vars(second)) - PER_GAME == set(TABLES)
    second.camel_price = first.camel_price + 7  # a name set on one game is that game's alone
    assert Game(ruleset, players=4, seed=3).camel_price == first.camel_price != second.camel_price


def test_the_compiled_builds_share_sets_exactly_the_tables():
    # (compiled, a game shares its tables by GameTables._share, which names each one)
    ruleset = load_ruleset("original-dutch")
    first = Game(ruleset, players=4, seed=1)
    other = Game.__new__(Game)
    other._share(first)
    assert set(vars(other)) == set(TABLES)
    for name in TABLES:
        assert getattr(other, name) is getattr(first, name), name
