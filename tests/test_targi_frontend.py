"""Targi's ruleset through the shared front end: the card sheet, the commands, the meaning checks."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from cli_run import no_crash, run

from targui_dsl import load_ruleset
from targui_dsl.frontend.build import build


def test_cards_targi_json_agrees_with_the_card_sheet():
    result = run("cards", "targi", "--format", "json")
    assert result.exit_code == 0, result.output
    cards = json.loads(result.output)["cards"]
    assert Counter(card["deck"] for card in cards) == {"border": 16, "goods": 19, "tribe": 45}
    tribe = [card for card in cards if card["deck"] == "tribe"]
    assert Counter(card["symbol"] for card in tribe) == {s: 9 for s in ("oasis", "camel_rider", "well", "camp",
                                                                        "targia")}
    assert sum(card["points"] for card in tribe) == 80
    by_id = {card["id"]: card for card in tribe}
    # the sheet's readings of the images: 226's slash, 228's pepper, 241's two points
    assert by_id[226]["cost"] == [{"date": 1, "pepper": 2}, {"gold": 1}]
    assert by_id[228]["cost"] == [{"salt": 2, "pepper": 1}]
    assert by_id[241]["points"] == 2
    assert sum(1 for card in tribe if all("gold" in option for option in card["cost"])) == 26
    assert sum(1 for card in tribe if not any("gold" in option for option in card["cost"])) == 17
    assert Counter(card["when"] for card in tribe) == {None: 15, "END": 9, "PERM": 15, "ONCE": 6}
    goods = [card for card in cards if card["deck"] == "goods"]
    assert sum(card["gives"].get("choice", 0) for card in goods) == 3
    assert sum(card["gives"].get("gold", 0) for card in goods) == 3


def test_targi_is_listed_validated_and_shown():
    listed = run("rulesets")
    assert "targi" in listed.output and "Targi (Kosmos 2012)" in listed.output
    assert run("validate", "targi").exit_code == 0
    shown = run("show", "targi")
    no_crash(shown.output)
    assert shown.exit_code == 0 and "tribe_cards" in shown.output


def test_cards_targi_text_lists_the_decks():
    result = run("cards", "targi")
    assert result.exit_code == 0
    assert "16 border, 19 goods, 45 tribe cards" in result.output
    assert "226  symbol camp; cost 1 date + 2 pepper or 1 gold; points 1; when PERM" in result.output


def house(tmp_path: Path, text: str) -> str:
    path = tmp_path / "house.yaml"
    path.write_text("extends: targi\nid: house\ntitle: House\n" + text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(("text", "code", "where", "hint"), [
    ("tribe_cards:\n" + "".join(f"  - {{id: {i}, symbol: oasys, cost: [{{gold: 1}}], points: 1}}\n"
                                for i in range(4)), "E0420", (5, 21), "did you mean `oasis`?"),
    ("goods_cards:\n" + "".join(f"  - {{id: {i}, gives: {{peper: 1}}}}\n" for i in range(5)),
     "E0421", (5, 21), "did you mean `pepper`?"),
    ("row_bonus: {length: 5, same: 4, different: 2}\n", "E0423", (4, 21),
     "set `row_bonus.length` to 4, or `display.columns` to 5"),
    ("goods_cards:\n  - {id: 10, gives: {date: 1}}\n", "E0424", (5, 3),
     "add goods cards or deal fewer from that deck in `centre`"),
    ("end_display: 13\n", "E0427", (4, 14), "at most 12"),
    ("goods: [date, salt, gold]\n", "E0426", (4, 21), "rename it, say `gold_1`"),
])
def test_meaning_checks_are_positioned_diagnostics_with_a_hint(tmp_path, text, code, where, hint):
    report = build(house(tmp_path, text))
    found = [d for d in report.diagnostics if d.code == code]
    assert found, report.diagnostics
    assert (found[0].span.line, found[0].span.column) == where
    assert found[0].hint == hint
    assert report.ruleset is None


def test_a_house_rule_changes_a_number_and_plays(tmp_path):
    rs = load_ruleset(house(tmp_path, "supply: {date: 3, salt: 3, pepper: 3, gold: 2, points: 0}\n"))
    assert rs.start_goods == (3, 3, 3) and rs.start_gold == 2 and rs.start_points == 0
