"""The built-in rulesets say what docs/rules/targui.md says: components, board, setup, cards, switches."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from targui_dsl.frontend.resolve import resolve
from targui_dsl.frontend.resources import rulesets_dir
from targui_dsl.frontend.yamlload import load_yaml_file
from targui_dsl.games import DEFAULT_GAME, game_package

VARIANTS = ["original-dutch", "swedish-12", "updated-treasury"]
SEEDS = Path("/work/shared/seeds")
RULESET_FILES = sorted(rulesets_dir().glob("*.yaml")) + sorted((rulesets_dir() / "examples").glob("*.yaml"))

# docs/rules/targui.md section 1: id -> (name, economic, strategic, count)
KINDS = {
    "settlement": ("Settlement", 4, 4, 4),
    "salt_mine": ("Central salt mine", 5, 5, 1),
    "guelta": ("Guelta (oasis)", 3, 3, 6),
    "reg": ("Reg (gravel bank)", 2, 0, 12),
    "erg": ("Erg (sand dunes)", 1, 0, 12),
    "fesh_fesh": ("Fesh-fesh (sand plain)", 0, 2, 8),
    "mountain": ("Mountains", 0, 1, 6),
    "chott": ("Chott (salt lake)", 0, 0, 4),
}
TRIBES = {"kel_ahaggar": ("Kel Ahaggar", "green"), "kel_ajjer": ("Kel Ajjer", "yellow"),
          "kel_ilbakan": ("Kel Ilbakan", "red"), "kel_ress": ("Kel Ress", "blue")}
CARDS = ["haussa_raid", "gift_kel_ress", "gift_kel_ilbakan", "gift_kel_ahaggar", "gift_kel_ajjer", "sandstorm",
         "drought", "caravan_raid", "camel_plague", "invasion", "heavy_rain", "spring", "climate_change",
         "poisoned_water", "settlement_raid", "silver_in_mountains"]  # in number order, 1..16

# docs/rules/targui.md section 7
SWITCHES = {
    "original-dutch": dict(tribal_cards=5, double_turn_from=6, fortune_cards=1, deck=list(range(1, 17)),
                           no_buying_on=[], cash_lost=False, treasury=False,
                           score="sum(t.economic for t in player.territories)",
                           tie_breaks=["player.camels + player.cash"], rounds=16, language="nl"),
    "swedish-12": dict(tribal_cards=5, double_turn_from=6, fortune_cards=1, deck=[1] + list(range(6, 17)),
                       no_buying_on=["salt_mine"], cash_lost=False, treasury=False,
                       score="sum(t.economic for t in player.territories)",
                       tie_breaks=["player.cash + player.camels"], rounds=12, language="sv"),
    "updated-treasury": dict(tribal_cards=3, double_turn_from=4, fortune_cards=2, deck=list(range(1, 17)),
                             no_buying_on=["salt_mine"], cash_lost=True, treasury=True,
                             score="player.treasury + player.cash", tie_breaks=["player.camels"], rounds=8,
                             language="en"),
}
SEED_OF = {"nl": "001_81a1da053536f0cc.txt", "sv": "003_adca2eabef628084.txt", "en": "000_669e8e010494587f.txt"}
# The only changes made to the rulebook texts: scanning errors (see the comments in the files).
OCR_FIXES = {
    ("nl", 13): ("[3].", "\\blacktriangle ."),
    ("sv", 13): ("Låt detta", "Lät detta"),
    ("sv", 15): ("allt guld", "allt gula"),
}


def merged(name: str) -> dict:
    resolved = resolve(name)
    assert not resolved.diagnostics, resolved.diagnostics
    return resolved.data


@pytest.fixture(scope="module")
def base() -> dict:
    return merged("base")


@pytest.fixture(scope="module", params=VARIANTS)
def variant(request) -> tuple[str, dict]:
    return request.param, merged(request.param)


def spiral(size: int) -> list[list[int]]:
    """The clockwise spiral of docs/rules/targui.md section 2, computed: E1 S1 W2 N2 E3 S3 ..."""
    grid = [[0] * size for _ in range(size)]
    r = c = size // 2
    number, step = 1, 1
    grid[r][c] = number
    moves = [(0, 1), (1, 0), (0, -1), (-1, 0)]
    turn = 0
    while number < size * size:
        for _ in range(2):
            dr, dc = moves[turn % 4]
            for _ in range(step):
                if number == size * size:
                    break
                r, c = r + dr, c + dc
                number += 1
                grid[r][c] = number
            turn += 1
        step += 1
    return grid


def test_base_is_abstract_and_variants_are_not(base):
    assert base["abstract"] is True
    for name in VARIANTS:
        assert "abstract" not in merged(name)  # never inherited


def test_territory_kinds(base):
    assert list(base["territories"]) == list(KINDS)
    for kind_id, (name, economic, strategic, count) in KINDS.items():
        spec = base["territories"][kind_id]
        assert (spec["name"], spec["economic"], spec["strategic"], spec["count"]) == (name, economic, strategic, count)
    assert base["territories"]["settlement"]["settlement"] is True
    assert base["territories"]["salt_mine"]["position"] == 1
    assert base["territories"]["chott"]["passable"] is False
    flagged = {k for k, v in base["territories"].items() if "passable" in v or "settlement" in v or "position" in v}
    assert flagged == {"settlement", "salt_mine", "chott"}
    assert sum(v["count"] for v in base["territories"].values()) == 53  # "53 gebiedskaartjes"


def test_tribes_camels_setup_die(base):
    assert {k: (v["name"], v["colour"]) for k, v in base["tribes"].items()} == TRIBES
    assert base["camels"] == {"box": 450, "price": 1}
    assert base["setup"] == {"camels": 10, "cash": 10}
    assert base["rounds"] == {"die": 6}


def test_board_is_the_spiral_with_diagonal_adjacency(base):
    board = base["board"]
    assert (board["rows"], board["columns"], board["adjacency"]) == (7, 7, "diagonal")
    assert board["numbering"] == spiral(7)
    assert board["numbering"][3][3] == 1 and board["numbering"][3][4] == 2 and board["numbering"][2][4] == 9


def test_sectors_are_corner_blocks_without_their_inner_cell(base):
    numbering = base["board"]["numbering"]
    expected = {}
    for name, rows, columns, inner in [("north_west", range(0, 3), range(0, 3), (2, 2)),
                                       ("north_east", range(0, 3), range(4, 7), (2, 4)),
                                       ("south_west", range(4, 7), range(0, 3), (4, 2)),
                                       ("south_east", range(4, 7), range(4, 7), (4, 4))]:
        expected[name] = sorted(numbering[r][c] for r in rows for c in columns if (r, c) != inner)
    assert {k: sorted(v) for k, v in base["board"]["sectors"].items()} == expected
    assert sorted(base["board"]["sectors"]["north_west"]) == [20, 21, 22, 41, 42, 43, 44, 45]  # the rules, section 2


def test_seating(base):
    assert base["seating"] == [
        {"players": [2, 4], "settle_in": "sectors"},
        {"players": [3], "settle_in": "positions", "positions": [[47, 48, 49], [31, 32, 33], [39, 40, 41]]},
    ]


def test_combat_and_levy_formulas(base):
    assert base["combat"] == {"defender_loses": "(die + source.strategic) // 2",
                              "attacker_loses": "(die + target.strategic) // 2"}
    assert base["levy"] == "sum(t.economic for t in player.territories) if player.holds_own_settlement else 0"


def test_sixteen_cards_numbered_in_rulebook_order(base):
    cards = base["cards"]
    assert list(cards) == CARDS
    assert [cards[c]["number"] for c in CARDS] == list(range(1, 17))
    for spec in cards.values():
        assert spec["title"] and spec["effect"]


@pytest.mark.parametrize("card, tribe", [("gift_kel_ress", "kel_ress"), ("gift_kel_ilbakan", "kel_ilbakan"),
                                         ("gift_kel_ahaggar", "kel_ahaggar"), ("gift_kel_ajjer", "kel_ajjer")])
def test_camel_gifts_reach_only_the_tribe_holding_its_own_settlement(base, card, tribe):
    effect = base["cards"][card]["effect"]
    assert f"p.tribe == {tribe} and p.holds_own_settlement" in effect
    assert "p.settlement.camels += 10" in effect


def test_card_effects_as_decided(base):
    effects = {k: v["effect"] for k, v in base["cards"].items()}
    assert effects["haussa_raid"] == "for t in territories where t.kind == salt_mine { t.camels = 0 }"
    assert effects["sandstorm"] == "for t in territories where t.kind == erg { t.camels -= 3 }"
    assert effects["drought"] == "for t in territories where t.kind == guelta { t.camels = min(t.camels, 15) }"
    assert effects["caravan_raid"] == "for p in players where p.holds_own_settlement { p.cash += 10 }"
    assert effects["camel_plague"] == "for t in territories where t.kind == settlement { t.camels -= t.camels // 2 }"
    assert effects["invasion"] == "for t in territories where t.camels > 0 { t.camels -= 1 }"
    assert effects["heavy_rain"] == "for t in territories where t.kind == reg { t.camels -= 5 }"
    assert effects["spring"] == "for t in territories where t.kind == guelta and t.owned { t.camels += 5 }"
    assert effects["climate_change"] == "erg.strategic = 3 this round"
    assert effects["poisoned_water"] == "for t in territories where t.kind == guelta { t.camels -= 10 }"
    assert "any(t in p.territories where t.kind == settlement)" in effects["settlement_raid"]
    assert "p.cash = 0" in effects["settlement_raid"] and "treasury" not in effects["settlement_raid"]
    assert effects["silver_in_mountains"] == "mountain.economic = 3 this round"


def test_variant_switches(variant):
    name, data = variant
    want = SWITCHES[name]
    assert data["setup"]["tribal_cards"] == want["tribal_cards"]
    assert data["rounds"]["double_turn_from"] == want["double_turn_from"]
    assert data["rounds"]["fortune_cards"] == want["fortune_cards"]
    # "all cash in hand is lost" is a before_levy hook, not a switch
    hooks = (data.get("hooks") or {}).get("before_levy") or []
    assert hooks == (["for p in seats { p.cash = 0 }"] if want["cash_lost"] else [])
    assert data["turn"] == {"treasury": want["treasury"], "no_buying_on": want["no_buying_on"]}
    assert data["end"] == {"score": want["score"], "tie_breaks": want["tie_breaks"],
                           "own_settlement_required_to_win": True}
    assert [data["cards"][c]["number"] for c in data["deck"]] == want["deck"]
    rounds = -(-len(data["deck"]) // data["rounds"]["fortune_cards"])
    assert rounds == want["rounds"]
    # Shared values really are shared: nothing else differs from the base.
    assert data["camels"]["box"] == 450 and data["setup"]["camels"] == 10 and data["rounds"]["die"] == 6


def test_variants_differ_only_in_their_switches():
    datas = {name: merged(name) for name in VARIANTS}
    shared = ["territories", "tribes", "camels", "board", "seating", "combat", "levy"]
    for key in shared:
        assert datas["original-dutch"][key] == datas["swedish-12"][key] == datas["updated-treasury"][key]
    for name in VARIANTS:
        assert {k: v["effect"] for k, v in datas[name]["cards"].items()} == \
               {k: v["effect"] for k, v in datas["original-dutch"]["cards"].items()}


def test_variant_identity_is_written_in_the_variant_itself():
    for name in VARIANTS:
        own = load_yaml_file(rulesets_dir() / f"{name}.yaml").data
        assert own["extends"] == "base"
        assert own["id"] == name
        for key in ("title", "description", "source"):
            assert isinstance(own[key], str) and own[key]
        assert own["language"] == SWITCHES[name]["language"]


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the rulebooks' texts are not in the repository")
def test_card_texts_are_quoted_from_the_rulebook(variant):
    name, data = variant
    language = SWITCHES[name]["language"]
    seed = (SEEDS / SEED_OF[language]).read_text(encoding="utf-8")
    for card_id, spec in data["cards"].items():
        text = spec["text"][language]
        fix = OCR_FIXES.get((language, spec["number"]))
        if fix is not None:
            assert fix[0] in text
            text = text.replace(*fix)
        assert text in seed, (card_id, text)
        # Each card's text is its own (cards 2-5 share one line in the English rulebook).
        if language != "en" or spec["number"] not in (2, 3, 4, 5):
            assert re.search(rf"(^|\n){spec['number']}\.?\s+{re.escape(text)}", seed), card_id


def test_card_texts_name_the_right_tribe(variant):
    name, data = variant
    language = SWITCHES[name]["language"]
    if language == "en":
        return  # one shared line for cards 2-5
    for card_id in ("gift_kel_ress", "gift_kel_ilbakan", "gift_kel_ahaggar"):
        assert card_id.replace("gift_kel_", "Kel ").lower() in data["cards"][card_id]["text"][language].lower()


@pytest.mark.parametrize("path", RULESET_FILES, ids=lambda p: p.name)
def test_files_load_cleanly_and_name_the_schema(path: Path):
    text = path.read_text(encoding="utf-8")
    depth = "../../" if path.parent.name == "examples" else "../"
    doc = load_yaml_file(path)
    # each file names its own game's schema (a Targi file Targi's, every other Targui's)
    schema = game_package(resolve(str(path)).data.get("game") or DEFAULT_GAME).schema
    assert text.splitlines()[0] == f"# yaml-language-server: $schema={depth}schemas/{schema}"
    # The loader refuses anchors, aliases, duplicate keys and unquoted yes/no/on/off.
    assert doc.diagnostics == [] and doc.data is not None


def test_examples_extend_a_variant_and_change_numbers_and_cards():
    examples = sorted((rulesets_dir() / "examples").glob("*.yaml"))
    assert len(examples) >= 2
    for path in examples:
        own = load_yaml_file(path).data
        assert own["id"] == path.stem and own["title"]
        if own["extends"] == "targi":  # a house rule of the other game: it changes some of its numbers
            assert set(own) - {"extends", "id", "title", "description", "language", "source"}
            assert resolve(str(path)).diagnostics == []
            continue
        assert own["extends"] in VARIANTS
        # each changes rules, not only its name: cards, hooks, a rule switch of the turn
        # (no-treasury.yaml, the balance study's ruleset, switches the treasury off) or what a
        # territory kind is worth (double-gueltas.yaml)
        assert "cards" in own or "hooks" in own or "turn" in own or "territories" in own
        assert any(key in own for key in ("camels", "setup", "rounds", "turn", "cards", "hooks", "territories"))
        resolved = resolve(str(path))
        assert resolved.diagnostics == []
        assert resolved.data["id"] == path.stem
