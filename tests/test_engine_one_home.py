"""Facts of the engine with one home, held there: a copy elsewhere fails here."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE_FILES = sorted([*(ROOT / "targui_dsl" / "games" / "targui").glob("*.py"),
                       *(ROOT / "targui_dsl" / "engine").glob("*.py")])
SOURCES = sorted(p for folder in ("targui_dsl", "cli", "benchmarks") for p in (ROOT / folder).rglob("*.py"))


def test_the_splitmix64_constants_live_in_engine_chance_only():
    constants = re.compile(r"0x9E3779B97F4A7C15|0xBF58476D1CE4E5B9|0x94D049BB133111EB", re.IGNORECASE)
    homes = {p.relative_to(ROOT).as_posix() for p in SOURCES if constants.search(p.read_text(encoding="utf-8"))}
    assert homes == {"targui_dsl/engine/chance.py"}


def test_the_history_layout_is_decoded_by_name_only():
    # the shifts and masks of a history entry (phases.encode_step and step_*) written as numbers
    magic = re.compile(r"(<<|>>)\s*[49]\b|&\s*(511|31|15)\b")
    found = [f"{p.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}"
             for p in ENGINE_FILES for text in [p.read_text(encoding="utf-8")] for m in magic.finditer(text)]
    assert found == []


def test_phase_numbers_are_declared_in_phases_only():
    for path in ENGINE_FILES:
        if path.name == "phases.py":
            continue
        text = path.read_text(encoding="utf-8")
        # a phase as an int is phases.MOVE and the like, never a module's own int(Phase.MOVE)
        assert not re.search(r"int\(Phase\.", text), path.name
        assert "class Phase" not in text, path.name


def test_no_engine_module_writes_another_objects_private_fields():
    for path in ENGINE_FILES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        own: set[str] = set()  # the private slots of the classes this module defines
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, ast.Assign) and any(
                            isinstance(t, ast.Name) and t.id == "__slots__" for t in item.targets):
                        own |= {c.value for c in ast.walk(item.value)
                                if isinstance(c, ast.Constant) and isinstance(c.value, str)}
        for node in ast.walk(tree):
            targets = (node.targets if isinstance(node, ast.Assign)
                       else [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else [])
            for target in targets:
                for attribute in ast.walk(target):
                    if (isinstance(attribute, ast.Attribute) and attribute.attr.startswith("_")
                            and not attribute.attr.startswith("__") and attribute.attr not in own
                            and not (isinstance(attribute.value, ast.Name) and attribute.value.id in ("self", "cls"))):
                        raise AssertionError(f"{path.name}:{attribute.lineno} writes {ast.unparse(attribute)}")


def test_the_engines_inlined_die_draws_what_chance_below_draws():
    import random

    from engine_fixtures import any_ruleset

    from targui_dsl.engine.chance import below
    from targui_dsl.games.targui.flow import sample_chance
    from targui_dsl.games.targui.game import Game
    from targui_dsl.games.targui.phases import ATTACK_DIE

    game = Game(any_ruleset("original-dutch"), players=2, seed=0)
    record = game.new_initial_state().record
    record.phase = ATTACK_DIE
    rng = random.Random(1)
    for _ in range(2000):
        start = record.rng = rng.getrandbits(64)
        expected_state, expected = below(start, game.die_sides)
        assert sample_chance(record) == expected and record.rng == expected_state
