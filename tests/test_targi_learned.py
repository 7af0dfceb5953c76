"""Targi's learned position score: Targi gives its own features, ships weights fitted to the
built-in ruleset as it is, a Targi house rule learns its own, and the search bot plays with them."""

from __future__ import annotations

import pytest
from cli_run import run

from targui_dsl import load_ruleset
from targui_dsl.agents import ISMCTSAgent
from targui_dsl.agents.learned import forget_all, learned_score, read_score, ruleset_hash, shipped_path
from targui_dsl.frontend.resources import rulesets_dir
from targui_dsl.games import game_package

PACKAGE = game_package("targi")
DOUBLE_RAIDS = rulesets_dir() / "examples" / "targi-double-raids.yaml"


pytestmark = pytest.mark.usefixtures("own_score_cache")


def test_targi_gives_one_number_per_feature_name_for_each_seat():
    state = PACKAGE.new_game(load_ruleset("targi"), players=2, seed=4).new_initial_state()
    for seat in range(2):
        numbers = PACKAGE.features(state, seat)
        assert numbers is not None and len(numbers) == len(PACKAGE.feature_names)
    assert len(PACKAGE.feature_prior(state)) == len(PACKAGE.feature_names)


def test_the_shipped_targi_weights_were_fitted_to_targi_as_it_is_and_beat_the_hand_written_score():
    # a changed targi.yaml fails here: run `targui train targi --games 600 --seed 1 --out FILE` again
    rs = load_ruleset("targi")
    score = read_score(shipped_path(rs, PACKAGE), rs, PACKAGE)
    assert learned_score(rs, PACKAGE) == score
    trained = score.trained
    assert trained["held_out_log_loss"] < trained["hand_log_loss"] < trained["uniform_log_loss"]


def test_a_targi_house_rule_learns_weights_of_its_own(tmp_path):
    result = run("train", str(DOUBLE_RAIDS), "--games", "40", "--seed", "2")
    assert result.exit_code == 0, result.output
    house = load_ruleset(DOUBLE_RAIDS)
    written = tmp_path / "cache" / "targui" / "scores" / f"{ruleset_hash(house)}.json"
    assert f"written to {written}" in result.output
    forget_all()
    own = learned_score(house, PACKAGE)
    base = learned_score(load_ruleset("targi"), PACKAGE)
    assert own is not None and base is not None and own.weights != base.weights


def test_the_search_bot_with_the_learned_score_plays_a_targi_game_to_its_end():
    state = PACKAGE.new_game(load_ruleset("targi"), players=2, seed=9).new_initial_state()
    bots = [ISMCTSAgent(1, iterations=8, learned=1, game=PACKAGE), ISMCTSAgent(2, iterations=8, game=PACKAGE)]
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        action = bots[seat].choose(state.observation(seat), legal)
        assert action in legal
        state.apply_action(action)
    assert sorted(state.returns()) in ([0.0, 1.0], [0.5, 0.5])  # a winner, or a draw

