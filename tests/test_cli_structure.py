"""The command line is thin and names no game: commands import shared modules, never each
other; errors are raised, and only the entry point exits; the game's words and drawings
live in its package (reached through ``GamePackage.drawing``)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

CLI = Path(__file__).resolve().parent.parent / "cli"
SOURCES = sorted(CLI.glob("*.py"))
SHARED = {"common", "studyopts"}  # what commands may import of the command line
NOT_COMMANDS = SHARED | {"main", "__init__"}
#: Targui's own words: they belong to targui_dsl/games/targui/, not to the command line.
GAME_WORDS = re.compile(r"camel|treasur|guelta|levy|silver|settlement", re.IGNORECASE)


def _cli_imports(path: Path) -> set[str]:
    """The command-line modules ``path`` imports, at its top or inside functions."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            if node.module.startswith("targui_cli."):
                found.add(node.module.split(".")[1])
            elif node.module == "targui_cli":
                found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name.split(".")[1] for a in node.names if a.name.startswith("targui_cli."))
    return found


def test_the_cli_sources_are_found():
    assert {"main", "common", "studyopts", "play", "replay", "simulate", "compare"} <= {p.stem for p in SOURCES}


@pytest.mark.parametrize("path", [p for p in SOURCES if p.stem not in NOT_COMMANDS], ids=lambda p: p.stem)
def test_a_command_imports_only_the_shared_modules(path):
    assert _cli_imports(path) <= SHARED, f"{path.name} imports {sorted(_cli_imports(path) - SHARED)}"


def test_the_shared_modules_import_no_command():
    for name in SHARED:
        assert _cli_imports(CLI / f"{name}.py") <= SHARED, name


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.stem)
def test_only_the_entry_point_exits(path):
    if path.stem == "main":
        return
    calls = [node for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "exit"
             and isinstance(node.func.value, ast.Name) and node.func.value.id == "sys"]
    assert not calls, f"{path.name}:{calls[0].lineno} calls sys.exit: raise a click exception instead"


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.stem)
def test_no_cli_line_names_the_game(path):
    text = path.read_text(encoding="utf-8")
    lines = [f"{path.name}:{n}: {line.strip()}" for n, line in enumerate(text.splitlines(), 1)
             if GAME_WORDS.search(line)]
    assert not lines, "\n".join(lines)


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.stem)
def test_no_cli_file_is_over_900_lines(path):
    assert len(path.read_text(encoding="utf-8").splitlines()) <= 900


def test_the_game_words_of_the_study_tables_come_from_the_game():
    """The per-game figures `simulate` prints are the game's, labelled in its words."""
    from click.testing import CliRunner

    from targui_cli.main import cli
    from targui_dsl.games import game_package

    study = game_package().drawing.study
    output = CliRunner().invoke(cli, ["simulate", "original-dutch", "-n", "2", "--bots", "random"]).output
    for words in study.metrics.values():
        assert f"\n  {words.label:<14}" in output, words.label
    for _, heading in study.card_columns:
        assert heading in output
