"""docs/effect-language.md against the program: every name it documents exists (globals,
fields, parameters, functions, hook moments, card ids), and what it says of `round` in
`game_start`, `nobody.tribe`, `p.seat` and `t.passable` is what a game does."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import yaml
from engine_fixtures import settled_state

from targui_dsl import load_ruleset
from targui_dsl.effects.names import FUNCTIONS
from targui_dsl.effects.types import Type
from targui_dsl.frontend.resources import rulesets_dir
from targui_dsl.games.targui.names import FIELDS, GLOBALS, HOOK_MOMENTS, KIND, PLACES, TERRITORY

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "effect-language.md"
TEXT = DOC.read_text(encoding="utf-8")
SHORT = {"t": TERRITORY, "p": Type.PLAYER, "KIND": KIND}


def tables(first: str) -> list[list[list[str]]]:
    """The rows (cells) of each table whose header's first cell is ``first``, table by table."""
    found: list[list[list[str]]] = []
    inside = False
    for line in TEXT.splitlines():
        if not line.startswith("|"):
            inside = False
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0] == first:
            inside = True
            found.append([])
        elif inside and not set(cells[0]) <= set("-: "):
            found[-1].append(cells)
    assert found, f"no table headed `{first}` in {DOC.name}"
    return found


def table(first: str) -> list[list[str]]:
    """The rows of every table headed ``first``, together."""
    return [row for rows in tables(first) for row in rows]


def names(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


def test_the_globals_table_is_the_vocabularys_globals():
    documented = {name for row in table("global") for name in names(row[0])}
    assert documented == set(GLOBALS)


def test_every_field_documented_exists_and_every_field_is_documented():
    documented: dict[Type, set[str]] = {}
    for row in table("field"):
        for written in names(row[0]):
            base, _, field = written.partition(".")
            documented.setdefault(SHORT[base], set()).add(field)
    for type_ in (TERRITORY, Type.PLAYER):
        assert documented[type_] == set(FIELDS[type_]), type_
    # the types table names each type's fields too
    kinds = {"territory": TERRITORY, "player": Type.PLAYER, "territory kind": KIND}
    for row in table("type"):
        if row[0] in kinds:
            assert set(names(row[2])) == set(FIELDS[kinds[row[0]]]), row[0]


def test_every_parameter_documented_exists():
    params = {name for _, given in PLACES.values() for name in given}
    documented = {name for row in table("parameter") for name in names(row[0])}
    assert documented == params


def test_the_hook_moments_are_the_programs():
    assert [names(row[0])[0] for row in table("moment")] == list(HOOK_MOMENTS)


def test_every_function_in_the_expressions_table_exists():
    called = {m for row in table("construct") for m in re.findall(r"\b([a-z_]+)\(", row[0])}
    assert called, "the expressions table names no function"
    assert called <= set(FUNCTIONS), called - set(FUNCTIONS)


def _card_blocks(text: str) -> list[dict]:
    blocks = re.findall(r"```yaml[^\n]*\n(.*?)^ *```", text, flags=re.S | re.M)
    found = []
    for block in blocks:
        data = yaml.safe_load(textwrap.dedent(block))
        if isinstance(data, dict) and isinstance(data.get("cards"), dict):
            found.append(data["cards"])
    return found


def test_every_card_id_in_the_docs_is_a_built_in_card_or_a_new_one_with_its_number():
    builtin: dict[str, dict] = {}
    for path in rulesets_dir().glob("*.yaml"):
        builtin.update((yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("cards") or {})
    blocks = []
    for doc in ("effect-language.md", "rulesets.md"):
        blocks += _card_blocks((ROOT / "docs" / doc).read_text(encoding="utf-8"))
    assert len(blocks) >= 3
    for cards in blocks:
        for card_id, card in cards.items():
            assert card_id in builtin or "number" in card, f"`{card_id}` is no built-in card and not a new one"


def test_the_sixteen_cards_are_the_base_rulesets_cards_as_written():
    section = TEXT[TEXT.index("## The sixteen cards"):]
    (cards,) = _card_blocks(section[: section.index("\n## ")])
    base = yaml.safe_load((rulesets_dir() / "base.yaml").read_text(encoding="utf-8"))["cards"]
    assert list(cards) == sorted(base, key=lambda c: base[c]["number"])
    for card_id, card in cards.items():
        assert card["effect"] == base[card_id]["effect"].strip(), card_id


def test_round_nobody_tribe_seat_and_passable_read_as_documented(tmp_path):
    house = tmp_path / "house.yaml"
    house.write_text(
        "extends: original-dutch\nid: house\nhooks:\n  game_start:\n"
        "    - for p in players { p.cash = count(t in territories where not t.passable) }\n"
        "    - for p in seats where p.seat == 1 { p.treasury = 100 * round }\n"
        "    - for p in seats where p.seat == 2 {"
        " p.treasury = count(t in territories where t.owner.tribe != kel_ress and not t.owned) }\n"
        "    - for p in seats where p.seat == 3 {"
        " p.treasury = count(t in territories where t.owner.tribe == kel_ress) }\n",
        encoding="utf-8",
    )
    ruleset = load_ruleset(str(house))
    state = settled_state(ruleset)
    game = state.game
    cells = len(game.position_of_cell)
    impassable = sum(1 for c in range(cells) if state.owner(c) < 0 and not game.kind_passable[state.kind(c)])
    assert impassable > 0
    assert [state.cash(seat) for seat in range(4)] == [impassable] * 4  # `not t.passable`: the chotts
    assert state.treasury(0) == 100  # `round` is 1 in game_start
    unowned = sum(1 for c in range(cells) if state.owner(c) < 0)
    assert state.treasury(1) == unowned  # nobody's tribe is no tribe: `!= kel_ress` holds
    assert state.treasury(2) == 1  # only Kel Ress's settlement; never an unowned cell


def _environment():
    from targui_dsl.effects.memory import read_memory
    from targui_dsl.games.targui.names import VOCABULARY, environment

    base = yaml.safe_load((rulesets_dir() / "base.yaml").read_text(encoding="utf-8"))
    kinds = {kind: i for i, kind in enumerate(base["territories"])}
    tribes = {tribe: i for i, tribe in enumerate(base["tribes"])}
    # the memory the doc declares ("Memory"), which its examples use
    (declared,) = [yaml.safe_load(block) for block in re.findall(r"```yaml\n(memory:.*?)```", TEXT, flags=re.S)]
    return environment(kinds, tribes, memory=read_memory(declared, VOCABULARY))


def test_every_effect_the_doc_shows_compiles_with_the_built_in_ids():
    """The construct table's examples and every `effect:` in a YAML block name only names that
    exist (kinds and tribes of the built-in rulesets, globals, fields, functions)."""
    from targui_dsl.effects import compile_effect

    env = _environment()
    at_a_glance = tables("construct")[0]
    shown = [names(row[1])[0] for row in at_a_glance if "(YAML)" not in row[1]]
    shown += re.findall(r"^ *effect: (.+)$", TEXT, flags=re.M)
    assert len(shown) > 30
    for source in shown:
        if source.strip() == "|":
            continue
        _, problems = compile_effect(source, env)
        assert problems == [], (source, [p.message for p in problems])
