"""A ruleset says which game it is (`game:`); Targui when it does not say."""

from __future__ import annotations

from pathlib import Path

import pytest

from targui_dsl import RulesetError, load_ruleset
from targui_dsl.frontend.build import build
from targui_dsl.games import GAMES


def house(tmp_path: Path, line: str) -> str:
    path = tmp_path / "house.yaml"
    path.write_text(f"extends: original-dutch\nid: house\ntitle: House\n{line}\n", encoding="utf-8")
    return str(path)


def test_a_ruleset_without_game_is_targui():
    report = build("original-dutch")
    assert report.ok and report.game == "targui" and report.ruleset.game == "targui"


def test_a_ruleset_naming_targui_is_played_as_before(tmp_path):
    ruleset = load_ruleset(house(tmp_path, "game: targui"))
    assert ruleset.game == "targui"
    assert ruleset.deck == load_ruleset("original-dutch").deck


@pytest.mark.parametrize(("line", "message", "hint"), [
    ("game: targu", "`game` names a game targui does not play: the text `targu`",
     "did you mean `targui`? (targui plays `targi`, `targui`)"),
    ("game: chess", "`game` names a game targui does not play: the text `chess`", "targui plays `targi`, `targui`"),
    ("game: 7", "`game` must be the name of a game, not the number 7", "targui plays `targi`, `targui`"),
])
def test_e0305_a_game_targui_does_not_play(tmp_path, line, message, hint):
    report = build(house(tmp_path, line))
    (problem,) = report.diagnostics
    assert (problem.code, problem.message, problem.hint) == ("E0305", message, hint)
    assert (problem.span.line, problem.span.column) == (4, 7)
    assert report.ruleset is None and report.game is None
    with pytest.raises(RulesetError):
        load_ruleset(house(tmp_path, line))


def test_the_game_is_inherited_and_read_before_the_schema(tmp_path):
    # An unknown game stops the pipeline before its schema could report the unknown key.
    (tmp_path / "base.yaml").write_text("game: nope\nabstract: true\nid: b\nwhatever: 1\n", encoding="utf-8")
    (tmp_path / "child.yaml").write_text("extends: base.yaml\nid: c\n", encoding="utf-8")
    codes = [d.code for d in build(str(tmp_path / "child.yaml")).diagnostics]
    assert codes == ["E0305"]


def test_every_registered_game_has_the_front_end_hooks():
    from targui_dsl.games import game_package

    for name in GAMES:
        package = game_package(name)
        assert package.name == name
        assert callable(package.check) and callable(package.snippets) and callable(package.build)
        assert package.vocabulary.hook_moments
