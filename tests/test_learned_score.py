"""The learned position score: shipped weights fit the built-in rulesets as they are now, a
weights file is used only for the ruleset and features it was fitted to, training learns
something a uniform guess does not know, a house rule gets its own weights, and the search
bot reads positions through them."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import pytest
from cli_run import run
from engine_fixtures import REAL_VARIANTS, any_ruleset

from targui_dsl import load_ruleset
from targui_dsl.agents import ISMCTSAgent, make_agent
from targui_dsl.agents.learned import (
    ScoreFileError,
    feature_names_of,
    forget_all,
    learned_score,
    read_score,
    ruleset_hash,
    shipped_path,
    write_score,
)
from targui_dsl.agents.training import train
from targui_dsl.games import game_package

PACKAGE = game_package("targui")

DOUBLE_GUELTAS = """\
extends: updated-treasury
id: double-gueltas
title: Gueltas worth double
territories:
  guelta:
    economic: 6
    strategic: 6
"""


pytestmark = pytest.mark.usefixtures("own_score_cache")


@pytest.mark.parametrize("variant", REAL_VARIANTS)
def test_the_shipped_weights_were_fitted_to_the_built_in_ruleset_as_it_is(variant):
    # a ruleset changed since its weights were fitted fails here: run `targui train VARIANT --out` again
    rs = any_ruleset(variant)
    path = shipped_path(rs, PACKAGE)
    score = read_score(path, rs, PACKAGE)
    assert score.feature_names == feature_names_of(PACKAGE, rs)
    assert learned_score(rs, PACKAGE) == score
    trained = score.trained
    assert trained["held_out_log_loss"] < trained["uniform_log_loss"]  # it predicts the winner better than chance


def test_each_territory_kind_a_seat_can_hold_has_features_named_by_the_ruleset():
    from engine_fixtures import put, settled_state

    rs = any_ruleset("updated-treasury")
    names = feature_names_of(PACKAGE, rs)
    held = [kind.id for kind in rs.kinds if kind.passable and not kind.settlement]
    assert held and "guelta" in held and "chott" not in held and "settlement" not in held
    assert names[-2 * len(held):] == tuple(f"{what}:{kind}" for kind in held for what in ("held", "to_come"))
    state = settled_state(rs, players=2)
    before = PACKAGE.features(state, 0)
    assert len(before) == len(names) == len(PACKAGE.feature_prior(state))
    cells = state.game.cell_of_position
    free = next(p for p in range(2, 50) if state.owner(cells[p]) < 0 and state.kind(cells[p]) != rs.kind_index("chott"))
    put(state, free, kind="guelta", owner=0, camels=1)
    after = PACKAGE.features(state, 0)
    levies = state.game.rounds - state.round + 1
    assert after[names.index("held:guelta")] == before[names.index("held:guelta")] + 1
    assert after[names.index("to_come:guelta")] == before[names.index("to_come:guelta")] + levies
    assert PACKAGE.features(state, 1) == PACKAGE.features(settled_state(rs, players=2), 1)


def test_weights_read_for_another_rulesets_features_go_by_name():
    rs = any_ruleset("swedish-12")
    score = read_score(shipped_path(rs, PACKAGE), rs, PACKAGE)
    assert score.named(score.feature_names) is score
    names = ("held:oasis_town", *reversed(score.feature_names[1:]))  # a kind it never saw; one it had is gone
    moved = score.named(names)
    weight = dict(zip(score.feature_names, score.weights, strict=True))
    assert moved.feature_names == names
    assert moved.weights == (0.0, *(weight[n] for n in names[1:]))


def _doc(rs) -> dict:
    return read_score(shipped_path(rs, PACKAGE), rs, PACKAGE).to_json()


@pytest.mark.parametrize("edit, why", [
    (lambda d: d.update(ruleset_sha256="0" * 64), "another version of the ruleset"),
    (lambda d: d["weights"].update(score=math.nan), "not a finite number"),
    (lambda d: d["weights"].update(score="1"), "not a finite number"),
    (lambda d: d["weights"].pop("score"), "not named as"),
    (lambda d: d.update(format="targui-score/0"), "not a targui-score/1 file"),
])
def test_a_weights_file_not_fitted_to_this_ruleset_is_refused(tmp_path, edit, why):
    rs = any_ruleset("swedish-12")
    doc = _doc(rs)
    edit(doc)
    path = tmp_path / "w.json"
    path.write_text(json.dumps(doc), encoding="utf-8")  # json writes NaN as NaN, which json reads back
    with pytest.raises(ScoreFileError, match=why):
        read_score(path, rs, PACKAGE)


def test_a_broken_weights_file_in_the_cache_is_passed_over(tmp_path):
    rs = load_ruleset(_house(tmp_path))
    path = Path(tmp_path / "cache" / "targui" / "scores" / f"{ruleset_hash(rs)}.json")
    path.parent.mkdir(parents=True)
    path.write_text("{not json", encoding="utf-8")
    assert learned_score(rs, PACKAGE) is None


def _house(tmp_path) -> Path:
    path = tmp_path / "double-gueltas.yaml"
    path.write_text(DOUBLE_GUELTAS, encoding="utf-8")
    return path


def test_a_house_rule_has_its_own_hash_and_learns_its_own_weights(tmp_path):
    base = any_ruleset("updated-treasury")
    house = load_ruleset(_house(tmp_path))
    assert ruleset_hash(house) != ruleset_hash(base)
    assert learned_score(house, PACKAGE) is None  # nothing fitted to it yet
    score = train(house, 200, 2)
    assert all(math.isfinite(w) for w in score.weights)
    assert score.weights != learned_score(base, PACKAGE).weights
    assert score.trained["held_out_log_loss"] < score.trained["uniform_log_loss"]
    write_score(score, tmp_path / "cache" / "targui" / "scores" / f"{ruleset_hash(house)}.json")
    forget_all()
    assert learned_score(house, PACKAGE) == score  # found in the cache, by the ruleset's hash


def test_the_same_seed_fits_the_same_weights():
    rs = any_ruleset("swedish-12")
    assert train(rs, 12, 5).weights == train(rs, 12, 5).weights


def test_targui_train_writes_weights_the_search_bot_then_uses(tmp_path):
    house = _house(tmp_path)
    result = run("train", str(house), "--games", "30", "--seed", "3")
    assert result.exit_code == 0, result.output
    assert "held-out log-loss" in result.output
    written = tmp_path / "cache" / "targui" / "scores" / f"{ruleset_hash(load_ruleset(house))}.json"
    assert f"written to {written}" in result.output
    forget_all()
    assert learned_score(load_ruleset(house), PACKAGE) is not None


def test_targui_train_refuses_a_bad_ruleset_and_a_bad_bot(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: swedish-12\nid: bad\nturn: 3\n", encoding="utf-8")
    result = run("train", str(bad), "--games", "2")
    assert result.exit_code == 1 and "no weights fitted" in result.output
    result = run("train", "swedish-12", "--games", "2", "--bots", "grredy")
    assert result.exit_code == 2 and "did you mean" in result.output


def test_the_search_reads_positions_through_the_features_when_it_has_weights():
    from engine_fixtures import settled_state

    asked = []

    def features(state, seat):
        asked.append(seat)
        return PACKAGE.features(state, seat)

    package = replace(PACKAGE, features=features)
    state = settled_state(any_ruleset("original-dutch"), explicit_chance=False)
    while len(state.legal_actions()) < 2:
        seat = state.current_player()
        state.apply_action(make_agent("greedy", 1).choose(state.observation(seat), state.legal_actions()))
    seat = state.current_player()
    bot = ISMCTSAgent(3, iterations=10, learned=1, game=package)
    assert bot.choose(state.observation(seat), state.legal_actions()) in state.legal_actions()
    assert len(asked) >= 10 * 2  # every seat in the game, at each iteration's cut-off
    asked.clear()
    ISMCTSAgent(3, iterations=10, learned=0, game=package).choose(state.observation(seat), state.legal_actions())
    assert not asked


def test_a_level_is_spelled_as_the_bot_it_stands_for():
    from targui_dsl.agents import BotSpecError, parse_bot
    from targui_dsl.agents.spec import LEVELS

    assert set(LEVELS) == {"easy", "normal", "hard"}
    for level, spelling in LEVELS.items():
        assert parse_bot(level).spelling() == parse_bot(spelling).spelling()
    assert parse_bot("hard").params["iterations"] > parse_bot("normal").params["iterations"]
    with pytest.raises(BotSpecError, match="level `hard` takes no parameters"):
        parse_bot("hard:depth=3")
    with pytest.raises(BotSpecError, match="did you mean `hard`"):
        parse_bot("hardd")


def test_simulate_seats_levels_and_names_their_bots():
    result = run("simulate", "swedish-12", "-n", "1", "-p", "2", "--bots", "easy,normal:", "--seed", "1")
    assert result.exit_code == 2  # a level with a parameter list, even an empty one, is refused
    result = run("simulate", "swedish-12", "-n", "1", "-p", "2", "--bots", "easy,normal", "--seed", "1")
    assert result.exit_code == 0, result.output
    assert "bots greedy, ismcts" in result.output


def test_targui_bots_shows_the_levels_and_what_the_ladder_measured(tmp_path, monkeypatch):
    from targui_dsl.study.ladder import ladder_path, read_ladder

    listing = run("bots").output
    assert "levels: easy = greedy, normal = ismcts, hard = ismcts:iterations=600" in listing
    rows = read_ladder(PACKAGE)
    if not rows:
        assert "not measured yet" in listing
        return
    for row in rows:
        assert f"`{row['command']}`" in listing
        assert row["command"].startswith(f"targui tournament {row['ruleset']} --bots random,easy,normal,hard")
        for bot in row["table"]:
            assert 0 <= bot["share"] <= 1 and bot["rating_ci"][0] <= bot["rating"] <= bot["rating_ci"][1]
    assert ladder_path(PACKAGE).is_file()


def test_a_broken_ladder_file_is_an_error_not_a_traceback(tmp_path):
    from targui_cli import bots as bots_command

    (tmp_path / "ladder.json").write_text('{"format": "targui-ladder/1", "rulesets": [{"ruleset": "x"}]}')
    original = bots_command.game_package
    bots_command.game_package = lambda name="targui": replace(PACKAGE, trained=str(tmp_path))
    try:
        result = run("bots")
    finally:
        bots_command.game_package = original
    assert result.exit_code == 1 and "not a targui-ladder/1 file" in result.output


def test_a_house_rule_is_trained_on_first_use_with_a_line_on_stderr(tmp_path, capsys):
    from engine_fixtures import settled_state

    from targui_dsl.agents.training import FIRST_USE_GAMES

    house = load_ruleset(_house(tmp_path))
    state = settled_state(house, players=2, explicit_chance=False)
    while len(state.legal_actions()) < 2:
        seat = state.current_player()
        state.apply_action(make_agent("greedy", 1).choose(state.observation(seat), state.legal_actions()))
    seat = state.current_player()
    make_agent("ismcts:iterations=4:learned=1", 1).choose(state.observation(seat), state.legal_actions())
    assert f"training a position score for double-gueltas ({FIRST_USE_GAMES} bot games" in capsys.readouterr().err
    cached = tmp_path / "cache" / "targui" / "scores" / f"{ruleset_hash(house)}.json"
    first = read_score(cached, house, PACKAGE)
    assert first.trained["games"] == FIRST_USE_GAMES
    forget_all()
    make_agent("ismcts:iterations=4:learned=1", 1).choose(state.observation(seat), state.legal_actions())
    assert "training" not in capsys.readouterr().err  # kept: trained once


def test_weights_trained_on_this_machine_come_before_the_shipped_ones():
    from targui_dsl.agents.learned import cached_path

    rs = any_ruleset("swedish-12")
    shipped = read_score(shipped_path(rs, PACKAGE), rs, PACKAGE)
    mine = replace(shipped, weights=tuple(2 * w for w in shipped.weights), trained={"games": 1})
    write_score(mine, cached_path(rs))
    assert learned_score(rs, PACKAGE) == mine
