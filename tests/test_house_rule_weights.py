"""A house rule that doubles what one territory kind is worth (rulesets/examples/double-gueltas.yaml,
double-regs.yaml) gets a learned score of its own that prizes that kind more than its base
variant's does (whose weights, reading no kind's value, judge it as in the base game), and the
search bot can play any ruleset with a built-in ruleset's learned score
(`ismcts:weights=NAME`), named from a table, never as a path."""

from __future__ import annotations

import math

import pytest
from cli_run import no_crash, run
from engine_fixtures import any_ruleset, put, settled_state

from targui_dsl import load_ruleset
from targui_dsl.agents import BotSpecError, ISMCTSAgent, make_agent, parse_bot
from targui_dsl.agents.borrowed import SearchWithWeights
from targui_dsl.agents.learned import feature_names_of, learned_score, read_score, shipped_path, weights_names
from targui_dsl.agents.training import train
from targui_dsl.games import game_package

PACKAGE = game_package("targui")

pytestmark = pytest.mark.usefixtures("own_score_cache")


HOUSE_RULES = [("double-gueltas", "guelta"), ("double-regs", "reg")]  # the example, the kind it doubles


@pytest.mark.parametrize("name, doubled", HOUSE_RULES)
def test_the_example_doubles_the_worth_of_one_kind_and_nothing_else(name, doubled):
    base, house = any_ruleset("updated-treasury").resolved, load_ruleset(name).resolved
    assert house["territories"][doubled]["economic"] == 2 * base["territories"][doubled]["economic"]
    for kind, values in base["territories"].items():
        if kind != doubled:
            assert house["territories"][kind] == values
    assert house["territories"][doubled]["strategic"] == base["territories"][doubled]["strategic"]


def _worth(rs, score, doubled: str) -> float:
    """What ``score`` makes of seat 0 gaining one territory of kind ``doubled`` at the start of
    a 2-player game of ``rs``: the change in its log-odds of winning against seat 1 (read
    through the game's features for ``rs``, by name: the territories of that kind held, now and
    times the levies to come, and the territories and strategic value held)."""
    score = score.named(feature_names_of(PACKAGE, rs))
    state = settled_state(rs, players=2)
    cells = state.game.cell_of_position
    worthless = {rs.kind_index(kind) for kind in ("chott", "salt_mine", "guelta", "reg")}
    free = next(p for p in range(2, 50) if state.owner(cells[p]) < 0 and state.kind(cells[p]) not in worthless)

    def log_odds() -> float:
        chances = score.win_chances(state, PACKAGE.features, 2)
        return math.log(chances[0] / chances[1])

    before = log_odds()
    camels = state.camels(cells[free])
    put(state, free, kind=doubled, owner=0, camels=max(1, camels))
    return log_odds() - before


@pytest.mark.parametrize("name, doubled", HOUSE_RULES)
def test_the_house_rules_learned_score_prizes_the_doubled_kind_more_than_the_base_one(name, doubled):
    # trained here (small), against the base variant's shipped weights (600 games)
    base = any_ruleset("updated-treasury")
    house = load_ruleset(name)
    house_score = train(house, 200, 1)
    base_score = read_score(shipped_path(base, PACKAGE), base, PACKAGE)
    assert house_score.ruleset_sha256 != base_score.ruleset_sha256
    assert house_score.feature_names == base_score.feature_names  # the same kinds, so the same features
    names = house_score.feature_names
    # the features of the doubled kind: held, and held times the levies to come
    for feature in (f"held:{doubled}", f"to_come:{doubled}"):
        assert house_score.weights[names.index(feature)] != base_score.weights[names.index(feature)]
    # the features read no kind's worth: the base weights judge the kind alike in both games ...
    base_worth = _worth(base, base_score, doubled)
    assert base_worth > 0  # it is worth having in the base game too
    assert _worth(house, base_score, doubled) == pytest.approx(base_worth)
    # ... and the house rule's weights, fitted to its games, prize it more
    house_worth = _worth(house, house_score, doubled)
    assert house_worth > 1.3 * base_worth, (house_worth, base_worth)


def test_weights_names_a_table_of_built_in_rulesets_of_the_game():
    assert weights_names(PACKAGE) == ["own", "original-dutch", "swedish-12", "updated-treasury"]
    assert weights_names(game_package("targi")) == ["own", "targi"]
    assert parse_bot("ismcts:weights=updated-treasury").spelling() == "ismcts:weights=updated-treasury"
    assert parse_bot("ismcts:weights=own").spelling() == "ismcts"
    for bad, hint in [("updated-tresury", "did you mean `updated-treasury`"), ("../trained/swedish-12.json", ""),
                      ("base", ""), ("double-gueltas", ""), ("targi", "")]:
        with pytest.raises(BotSpecError, match=f"`weights` cannot be .*{hint}.*it may be: own, original-dutch"):
            parse_bot(f"ismcts:weights={bad}")


@pytest.mark.parametrize("command", [
    ["simulate", "targi", "-n", "1", "-p", "2", "--seed", "1"],
    ["tournament", "targi", "-n", "2", "-p", "2", "--seed", "1"],
    ["train", "targi", "--games", "1"],
])
def test_another_games_weights_are_a_usage_error_in_every_command(command):
    bots = "ismcts:weights=updated-treasury,greedy" if command[0] != "train" else "ismcts:weights=swedish-12"
    result = run(*command, "--bots", bots)
    no_crash(result.output)
    assert result.exit_code == 2, result.output
    assert "`weights` cannot be `updated-treasury`" in result.output or "cannot be `swedish-12`" in result.output
    assert "it may be: own, targi" in result.output


def _decision(rs):
    state = settled_state(rs, players=2, explicit_chance=False)
    while len(state.legal_actions()) < 2:
        seat = state.current_player()
        state.apply_action(make_agent("greedy", 1).choose(state.observation(seat), state.legal_actions()))
    return state, state.current_player()


def test_a_built_in_rulesets_weights_on_itself_are_its_own_learned_score():
    state, seat = _decision(any_ruleset("updated-treasury"))
    own = ISMCTSAgent(5, iterations=30, learned=1)
    borrowed = SearchWithWeights(5, iterations=30, weights="updated-treasury")
    assert own.choose(state.observation(seat), state.legal_actions()) == \
        borrowed.choose(state.observation(seat), state.legal_actions())
    assert own.last_values == borrowed.last_values and own.last_visits == borrowed.last_visits


def test_a_house_rule_is_played_with_its_base_variants_weights_without_training(tmp_path, capsys):
    house = load_ruleset("double-gueltas")
    state, seat = _decision(house)
    hand = ISMCTSAgent(5, iterations=30, learned=0)
    borrowed = make_agent("ismcts:iterations=30:weights=updated-treasury", 5)
    for bot in (hand, borrowed):
        bot.choose(state.observation(seat), state.legal_actions())
    assert borrowed.last_values != hand.last_values  # it scores positions by the weights, not by hand
    assert "training" not in capsys.readouterr().err
    assert learned_score(house, PACKAGE) is None  # nothing trained for the house rule
    assert not (tmp_path / "cache").exists()
    result = run("simulate", "double-gueltas", "-n", "1", "-p", "2", "--seed", "2",
                 "--bots", "ismcts:iterations=8:weights=updated-treasury,greedy")
    assert result.exit_code == 0, result.output
    assert "bots ismcts:iterations=8:weights=updated-treasury, greedy" in result.output
    assert "training" not in result.output
