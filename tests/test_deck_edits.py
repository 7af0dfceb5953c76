"""Deck additions and removals without copying the list: `deck: {remove: [...], add: [...]}`."""

from __future__ import annotations

from pathlib import Path

from targui_dsl import load_ruleset
from targui_dsl.frontend.build import build
from targui_dsl.frontend.resolve import resolve
from targui_dsl.frontend.resources import rulesets_dir
from targui_dsl.study.simulate import run_games

HEAD = "extends: swedish-12\nid: house\n"


def built(tmp_path: Path, text: str):
    path = tmp_path / "house.yaml"
    path.write_text(text, encoding="utf-8")
    return build(str(path), cwd=tmp_path)


def where(report) -> list[tuple]:
    return [(d.code, d.severity, d.span.line, d.span.column) for d in report.diagnostics]


def test_remove_then_add_keeps_the_order_and_appends(tmp_path):
    report = built(tmp_path, HEAD + "deck:\n  remove: [invasion]\n  add: [gift_kel_ress]\n")
    assert report.ok, report.diagnostics
    parent = list(load_ruleset("swedish-12").deck)
    assert list(report.ruleset.deck) == [c for c in parent if c != "invasion"] + ["gift_kel_ress"]


def test_positions_point_at_the_file_that_wrote_each_entry(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text(HEAD + "deck:\n  remove: [haussa_raid]\n  add: [gift_kel_ress]\n", encoding="utf-8")
    resolved = resolve(str(path), cwd=tmp_path)
    deck = resolved.data["deck"]
    last = len(deck) - 1
    assert (resolved.spans[("deck", last)].file, resolved.spans[("deck", last)].line,
            resolved.spans[("deck", last)].column) == ("house.yaml", 5, 9)
    first = resolved.spans[("deck", 0)]
    assert first.file.endswith("swedish-12.yaml")  # `sandstorm`, now first, where swedish-12 wrote it
    assert deck[0] == "sandstorm"
    assert resolved.spans[("deck",)].file == "house.yaml"


def test_e0205_removing_a_card_not_in_the_deck(tmp_path):
    report = built(tmp_path, HEAD + "deck:\n  remove: [invasion, camel_plagu]\n")
    assert where(report) == [("E0205", "error", 4, 22)]
    assert report.diagnostics[0].message == "`deck.remove` names `camel_plagu`, which is not in the inherited deck"
    assert report.diagnostics[0].hint == "did you mean `camel_plague`?"


def test_e0205_unknown_key_in_a_deck_mapping(tmp_path):
    report = built(tmp_path, HEAD + "deck:\n  ad: [gift_kel_ress]\n")
    assert where(report) == [("E0205", "error", 4, 3)]
    assert report.diagnostics[0].hint == "did you mean `add`?"


def test_e0205_add_that_is_not_a_list(tmp_path):
    report = built(tmp_path, HEAD + "deck:\n  add: gift_kel_ress\n")
    assert where(report) == [("E0205", "error", 4, 8)]


def test_e0205_no_inherited_deck(tmp_path):
    report = built(tmp_path, "extends: base\nid: house\ndeck:\n  add: [sandstorm]\n")
    assert ("E0205", "error", 3, 1) in where(report)


def test_adding_a_card_already_in_the_deck_is_e0403_at_the_addition(tmp_path):
    report = built(tmp_path, HEAD + "deck:\n  add: [sandstorm]\n")
    assert where(report) == [("E0403", "error", 4, 9)]


def test_the_examples_play_with_their_edited_decks():
    for name, rounds in (("gifts-back", 16), ("salt-caravan", 17)):
        ruleset = load_ruleset(rulesets_dir() / "examples" / f"{name}.yaml")
        assert len(ruleset.deck) == rounds
        result = run_games(ruleset, games=2, players=4, bots=["random"], seed=3)
        assert result["rounds"]["max"] <= rounds and result["games"] == 2
    gifts = load_ruleset(rulesets_dir() / "examples" / "gifts-back.yaml")
    assert "camel_plague" not in gifts.deck and gifts.deck[-5:] == (
        "gift_kel_ress", "gift_kel_ilbakan", "gift_kel_ahaggar", "gift_kel_ajjer", "camel_cold")


def test_salt_caravan_resolves_to_the_deck_it_used_to_copy():
    dutch = load_ruleset("original-dutch").deck
    assert load_ruleset(rulesets_dir() / "examples" / "salt-caravan.yaml").deck == dutch + ("salt_caravan",)
