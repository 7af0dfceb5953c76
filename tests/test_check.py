"""The meaning checks (E04xx), each at the exact place of the offending value."""

from __future__ import annotations

from pathlib import Path

import pytest

from targui_dsl.frontend.diagnostics import Diagnostic
from targui_dsl.frontend.resolve import resolve
from targui_dsl.frontend.resources import rulesets_dir
from targui_dsl.frontend.schema import validate_schema
from targui_dsl.frontend.yamlload import load_yaml_file, load_yaml_text
from targui_dsl.games.targui.check import check_meaning

EXAMPLES = sorted(str(p) for p in (rulesets_dir() / "examples").glob("*.yaml"))


def house_rule(tmp_path: Path, text: str, name: str = "house.yaml", identity: bool = False) -> list[Diagnostic]:
    """Meaning diagnostics of a house rule (which must pass the schema first).

    These small files have no `id:`; the warning about that (E0417) is
    left out unless ``identity`` asks for it.
    """
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    resolved = resolve(str(path))
    assert resolved.diagnostics == [], resolved.diagnostics
    complete = resolved.data.get("abstract") is not True
    assert validate_schema(resolved.data, resolved.spans, resolved.key_spans, complete=complete) == []
    found = check_meaning(resolved.data, resolved.spans, resolved.key_spans, complete=complete)
    if not identity:
        found = [d for d in found if d.code != "E0417"]
    for d in found:
        assert d.span is not None and d.span.file.endswith(name), d
    return found


def where(diagnostics: list[Diagnostic]) -> list[tuple]:
    return [(d.code, d.severity, d.span.line, d.span.column) for d in diagnostics]


@pytest.mark.parametrize("ref", ["base", "original-dutch", "swedish-12", "updated-treasury"] + EXAMPLES)
def test_builtin_rulesets_and_examples_have_no_problems(ref):
    resolved = resolve(ref)
    complete = resolved.data.get("abstract") is not True
    assert check_meaning(resolved.data, resolved.spans, resolved.key_spans, complete=complete) == []


def test_accepts_a_resolved_value_too():
    resolved = resolve("original-dutch")
    assert check_meaning(resolved) == []


def test_E0401_unknown_kind_in_no_buying_on(tmp_path):
    found = house_rule(tmp_path, "extends: swedish-12\nturn:\n  no_buying_on: [guelta, salt_mines]\n")
    assert where(found) == [("E0401", "error", 3, 26)]
    assert found[0].message == "unknown territory kind `salt_mines` in `turn.no_buying_on`"
    assert found[0].hint == "did you mean `salt_mine`?"
    assert found[0].span.end_column == 36


def test_E0402_two_tribes_share_a_colour(tmp_path):
    found = house_rule(tmp_path, "extends: original-dutch\ntribes:\n  kel_ress:\n    colour: green\n")
    assert where(found) == [("E0402", "error", 4, 13)]
    assert "`kel_ahaggar` and `kel_ress` are both green" in found[0].message


def test_E0403_deck_names_a_missing_card_a_card_twice(tmp_path):
    found = house_rule(tmp_path, "extends: original-dutch\ndeck:\n  - haussa_raid\n  - sandstrom\n  - haussa_raid\n")
    assert where(found) == [("E0403", "error", 4, 5), ("E0403", "error", 5, 5)]
    assert found[0].message == "the deck names card `sandstrom`, which is not defined under `cards`"
    assert found[0].hint == "did you mean `sandstorm`?"
    assert found[1].message == "the deck names card `haussa_raid` twice; each card is played once"


def test_E0403_empty_deck(tmp_path):
    found = house_rule(tmp_path, "extends: original-dutch\ndeck: []\n")
    assert where(found) == [("E0403", "error", 2, 7)]


def test_E0404_duplicate_card_numbers_blame_the_house_rule(tmp_path):
    found = house_rule(
        tmp_path,
        "extends: original-dutch\ncards:\n  salt_caravan:\n    number: 7\n    title: Salt caravan\n"
        "    effect: for p in players { p.cash += 10 }\n",
    )
    # the new card is not in the deck either (E0418)
    assert where(found) == [("E0418", "warning", 3, 3), ("E0404", "error", 4, 13)]
    assert found[1].message == "cards `drought` and `salt_caravan` both have number 7"


def test_E0418_a_card_defined_here_but_never_in_the_deck(tmp_path):
    found = house_rule(
        tmp_path,
        "extends: original-dutch\ncards:\n  salt_caravan:\n    number: 17\n    title: Salt caravan\n"
        "    effect: for p in players { p.cash += 10 }\n",
    )
    assert where(found) == [("E0418", "warning", 3, 3)]
    assert found[0].message == "card `salt_caravan` is defined but not in the deck, so it is never played"
    assert "deck: {add: [salt_caravan]}" in found[0].hint


def test_E0418_not_for_a_parents_card_kept_out_of_the_deck(tmp_path):
    # swedish-12 keeps the four gifts out of its deck on purpose; retelling a card is not defining it
    found = house_rule(tmp_path, "extends: swedish-12\ncards:\n  gift_kel_ress:\n    title: Gift\n")
    assert where(found) == []


def test_E0405_tile_counts_do_not_fill_the_board(tmp_path):
    found = house_rule(tmp_path, "extends: original-dutch\nterritories:\n  guelta:\n    count: 8\n")
    assert where(found) == [("E0405", "error", 4, 12)]
    message = found[0].message
    assert "7 x 7 = 49 cells" in message and "there are 51 cards" in message
    assert "1 at fixed positions (salt_mine)" in message and "50 dealt (guelta 8, reg 12" in message
    assert found[0].hint.startswith("remove 2 dealt cards")


def test_E0405_a_larger_board_without_more_cards(tmp_path):
    found = house_rule(tmp_path, "extends: original-dutch\nboard:\n  rows: 8\n  columns: 7\n  numbering: " +
                       str([[r * 7 + c + 1 for c in range(7)] for r in range(8)]) + "\n")
    assert [(d.code, d.span.line, d.span.column) for d in found if d.code == "E0405"] == [("E0405", 3, 9)]
    assert "add 7 dealt cards" in [d for d in found if d.code == "E0405"][0].hint


def test_E0406_settlements_not_one_per_tribe(tmp_path):
    found = house_rule(tmp_path, "extends: original-dutch\ntribes:\n  kel_ress: null\n")
    # Blamed on the house rule's `tribes:`, not on the base's count it never touched.
    assert where(found) == [("E0406", "error", 2, 1), ("E0411", "error", 2, 1)]
    assert found[0].message == "there are 3 tribes but 4 settlement cards: one settlement per tribe"
    assert found[1].message == "4 players need 4 tribes, but this ruleset has 3"


def test_E0406_two_settlement_kinds(tmp_path):
    found = house_rule(tmp_path, "extends: original-dutch\nterritories:\n  mountain:\n    settlement: true\n")
    assert ("E0406", "error", 4, 17) in where(found)
    assert any("`settlement` and `mountain` are both settlement kinds" in d.message for d in found)


def test_E0407_numbering_not_a_permutation(tmp_path):
    text = (
        "extends: original-dutch\n"
        "board:\n"
        "  numbering:\n"
        "    - [43, 44, 45, 46, 47, 48, 49]\n"
        "    - [42, 21, 22, 23, 24, 25, 26]\n"
        "    - [41, 20, 7, 8, 9, 10, 27]\n"
        "    - [40, 19, 6, 1, 2, 11, 28]\n"
        "    - [39, 18, 5, 4, 3, 12, 29]\n"
        "    - [38, 17, 16, 15, 14, 13, 30]\n"
        "    - [37, 36, 35, 34, 33, 32, 50]\n"
    )
    found = house_rule(tmp_path, text)
    assert where(found) == [("E0407", "error", 10, 32)]
    assert found[0].message == "position 50 in `board.numbering` is outside 1-49"


def test_E0407_numbering_wrong_shape_and_repeats(tmp_path):
    text = (
        "extends: original-dutch\n"
        "board:\n"
        "  numbering:\n"
        "    - [43, 44, 45, 46, 47, 48, 49]\n"
        "    - [42, 21, 22, 23, 24, 25, 26]\n"
        "    - [41, 20, 7, 8, 9, 10, 27]\n"
        "    - [40, 19, 6, 1, 2, 11, 28]\n"
        "    - [39, 18, 5, 4, 3, 12, 29]\n"
        "    - [38, 17, 16, 15, 14, 13]\n"
        "    - [37, 36, 35, 34, 33, 32, 31, 1]\n"
    )
    found = house_rule(tmp_path, text)
    assert where(found) == [("E0407", "error", 9, 7), ("E0407", "error", 10, 7), ("E0407", "error", 10, 36)]
    assert found[0].message == "row 6 of `board.numbering` has 6 numbers, but the board has 7 columns"
    assert found[2].message == "position 1 appears twice in `board.numbering`"


def test_E0407_a_short_row(tmp_path):
    found = house_rule(tmp_path, "extends: original-dutch\nboard:\n  rows: 2\n  columns: 3\n"
                       "  numbering: [[1, 2, 3], [4, 5]]\n"
                       "  sectors: {north_west: null, north_east: null, south_west: null, south_east: null,"
                       " west: [4], east: [3]}\n"
                       "territories:\n  guelta: {count: 0}\n  reg: {count: 5}\n  erg: {count: 0}\n"
                       "  fesh_fesh: {count: 0}\n  mountain: {count: 0}\n  chott: {count: 0}\n"
                       "seating:\n  - players: [2]\n    settle_in: sectors\n"
                       "  - players: [3]\n    settle_in: positions\n    positions: [[2], [5], [6]]\n")
    assert where(found) == [("E0407", "error", 5, 26)]
    assert found[0].message == "row 2 of `board.numbering` has 2 numbers, but the board has 3 columns"


def test_E0409_inherited_sectors_on_a_resized_board_blame_the_resize(tmp_path):
    found = house_rule(tmp_path, "extends: original-dutch\nboard:\n  rows: 6\n  numbering: " +
                       str([[r * 7 + c + 1 for c in range(7)] for r in range(6)]) + "\n"
                       "territories:\n  reg: {count: 5}\n")
    assert where(found) == [("E0409", "error", 3, 9)] * 3
    assert [d.message for d in found] == [
        "sector `north_west` names positions 43, 44, 45, which are not on the board (positions 1-42)",
        "sector `north_east` names positions 47, 48, 49, which are not on the board (positions 1-42)",
        "seat 1 may settle on positions 47, 48, 49, which are not on the board (positions 1-42)",
    ]
    assert found[0].hint == "a resized board needs its own positions here"



def test_E0408_overlapping_sectors_blame_the_house_rule(tmp_path):
    found = house_rule(
        tmp_path,
        "extends: original-dutch\nboard:\n  sectors:\n    north_west: [20, 21, 22, 41, 42, 43, 44, 10]\n",
    )
    assert where(found) == [("E0408", "error", 4, 46)]
    assert found[0].message == "position 10 is in both sector `north_west` and sector `north_east`"


def test_E0409_positions_off_the_grid(tmp_path):
    found = house_rule(
        tmp_path,
        "extends: original-dutch\n"
        "board:\n"
        "  sectors:\n"
        "    south_east: [12, 13, 14, 29, 30, 31, 32, 60]\n"
        "seating:\n"
        "  - players: [2, 4]\n"
        "    settle_in: sectors\n"
        "  - players: [3]\n"
        "    settle_in: positions\n"
        "    positions: [[47, 48, 49], [31, 32, 33], [39, 40, 55]]\n"
        "territories:\n"
        "  salt_mine:\n"
        "    position: 50\n",
    )
    assert where(found) == [("E0409", "error", 4, 46), ("E0409", "error", 10, 54), ("E0409", "error", 13, 15)]
    assert found[0].message == "sector `south_east` names position 60, which is not on the board (positions 1-49)"
    assert found[0].hint is None


def test_E0410_double_turn_threshold_beyond_the_tribal_cards(tmp_path):
    found = house_rule(tmp_path, "extends: updated-treasury\nrounds:\n  double_turn_from: 5\n")
    assert where(found) == [("E0410", "error", 3, 21)]
    assert found[0].message == ("with double turns from 5, a die of 4 makes every player hand in 4 tribal cards, "
                                "but each holds only 3")


def test_E0410_pointless_threshold_is_a_warning(tmp_path):
    found = house_rule(tmp_path, "extends: original-dutch\nsetup:\n  tribal_cards: 6\nrounds:\n  double_turn_from: 9\n")
    assert where(found) == [("E0410", "warning", 5, 21)]
    assert found[0].hint == "write `double_turn_from: 7` to say there are no double turns"


def test_E0411_seating_problems(tmp_path):
    found = house_rule(
        tmp_path,
        "extends: original-dutch\n"
        "seating:\n"
        "  - players: [2, 4, 5]\n"
        "    settle_in: sectors\n"
        "  - players: [3, 4]\n"
        "    settle_in: positions\n"
        "    positions: [[47, 48, 49], [31, 32, 49], [39, 40, 41]]\n",
    )
    assert where(found) == [
        ("E0411", "error", 3, 21),  # 5 players > 4 tribes
        ("E0411", "error", 3, 21),  # 5 players > 4 sectors
        ("E0411", "error", 5, 18),  # 4 players seated twice
        ("E0411", "error", 7, 16),  # 4 players but 3 lists of positions
        ("E0411", "error", 7, 40),  # 49 offered to seats 1 and 2
    ]
    assert "5 players need 5 tribes, but this ruleset has 4" in found[0].message + found[1].message
    assert "position 49 is offered to both seat 1 and seat 2" == found[4].message


def test_E0411_a_position_offered_twice_to_one_seat(tmp_path):
    found = house_rule(
        tmp_path,
        "extends: original-dutch\nseating:\n  - players: [2, 4]\n    settle_in: sectors\n"
        "  - players: [3]\n    settle_in: positions\n    positions: [[47, 47, 49], [31, 32, 33], [39, 40, 41]]\n",
    )
    assert where(found) == [("E0411", "error", 7, 22)]
    assert found[0].message == "position 47 is offered to seat 1 twice"


def test_E0411_positions_ignored_when_settling_in_sectors_is_a_warning(tmp_path):
    found = house_rule(
        tmp_path,
        "extends: original-dutch\nseating:\n  - players: [2, 3, 4]\n    settle_in: sectors\n    positions: [[1]]\n",
    )
    assert where(found) == [("E0411", "warning", 5, 5)]


def test_E0412_two_kinds_fixed_to_one_position(tmp_path):
    found = house_rule(
        tmp_path,
        "extends: original-dutch\nterritories:\n  guelta:\n    count: 5\n  oasis:\n    name: Great oasis\n"
        "    economic: 4\n    strategic: 4\n    count: 1\n    position: 1\n",
    )
    assert where(found) == [("E0412", "error", 10, 15)]
    assert found[0].message == "`salt_mine` and `oasis` are both fixed to position 1"


def test_E0413_no_fortune_cards_per_round(tmp_path):
    found = house_rule(tmp_path, "extends: original-dutch\nrounds:\n  fortune_cards: 0\n")
    assert where(found) == [("E0413", "error", 3, 18)]


def test_E0413_more_fortune_cards_than_the_deck_is_a_warning(tmp_path):
    found = house_rule(tmp_path, "extends: original-dutch\nrounds:\n  fortune_cards: 20\n")
    assert where(found) == [("E0413", "warning", 3, 18)]


def test_E0414_ids_that_clash(tmp_path):
    found = house_rule(
        tmp_path,
        "extends: original-dutch\n"
        "tribes:\n"
        "  erg:\n"
        "    name: Sand people\n"
        "    colour: white\n"
        "territories:\n"
        "  chott: null\n"
        "  box:\n"
        "    name: Box canyon\n"
        "    economic: 0\n"
        "    strategic: 0\n"
        "    count: 4\n"
        "    passable: false\n"
        "  settlement:\n"
        "    count: 5\n",
    )
    assert where(found) == [("E0414", "error", 3, 3), ("E0414", "error", 8, 3)]
    assert found[0].message == "`erg` is both a territory kind and a tribe; card effects could not tell them apart"
    assert found[1].message == "`box` in `territories` is a name of the effect language and cannot be an id"


def test_E0415_fixed_kind_with_several_cards(tmp_path):
    found = house_rule(
        tmp_path,
        "extends: original-dutch\nterritories:\n  salt_mine:\n    count: 2\n",
    )
    assert where(found) == [("E0415", "error", 4, 12)]
    assert found[0].message == "`salt_mine` has a fixed position, so there is exactly one of it, not 2"


def test_E0416_camel_box_too_small_is_a_warning(tmp_path):
    found = house_rule(tmp_path, "extends: original-dutch\ncamels:\n  box: 30\n")
    assert where(found) == [("E0416", "warning", 3, 8)]
    assert found[0].message == "the camel box holds 30 camels, but 4 players start with 10 each (40)"


def test_E0417_a_house_rule_without_its_own_id_is_warned(tmp_path):
    found = house_rule(tmp_path, "extends: original-dutch\ncamels:\n  box: 300\n", identity=True)
    assert where(found) == [("E0417", "warning", 1, 1)]
    assert found[0].message.startswith("this ruleset has no `id` of its own: it inherits `original-dutch` from `")
    assert found[0].message.endswith("original-dutch.yaml`")
    assert house_rule(tmp_path, "extends: original-dutch\nid: cheap\ncamels:\n  box: 300\n", identity=True) == []


def test_every_problem_is_reported(tmp_path):
    found = house_rule(
        tmp_path,
        "extends: updated-treasury\n"
        "turn:\n"
        "  no_buying_on: [montain]\n"
        "rounds:\n"
        "  double_turn_from: 6\n"
        "  fortune_cards: 0\n"
        "deck: [haussa_raid, drougth]\n",
    )
    assert [d.code for d in found] == ["E0401", "E0410", "E0413", "E0403"]


def test_partial_and_odd_data_never_raise():
    samples = [
        {},
        {"rounds": {"die": 6}},
        {"board": {"rows": 2, "columns": 2, "numbering": [[1, 2], [3]]}},
        {"seating": [{"players": [3], "settle_in": "positions"}]},
        {"territories": {"x": {"count": 1, "position": 3}}},
    ]
    for data in samples:
        for complete in (False, True):
            for d in check_meaning(data, {}, {}, complete=complete):
                assert isinstance(d, Diagnostic)


def test_a_single_overlay_is_checked_for_what_it_holds():
    doc = load_yaml_text("turn:\n  no_buying_on: [salt_mine]\nrounds:\n  fortune_cards: 0\n", "overlay.yaml")
    found = check_meaning(doc.data, doc.spans, doc.key_spans, complete=False)
    assert [(d.code, d.span.line, d.span.column) for d in found] == [("E0413", 4, 18)]
    base = load_yaml_file(rulesets_dir() / "base.yaml")
    assert check_meaning(base.data, base.spans, base.key_spans, complete=False) == []
