"""docs/diagnostics.md against the program: every code the library can raise is
documented once, every documented code exists, and every row renders inside a table."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

from targui_dsl.frontend.codes import CODES
from targui_dsl.games import GAMES

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "diagnostics.md"
CODE = re.compile(r"E\d{4}")


def code_table() -> dict[str, str]:
    """The shared table and every game's own."""
    table = dict(CODES)
    for module in GAMES.values():
        game_codes = importlib.import_module(module.rsplit(".", 1)[0] + ".codes").CODES
        assert not set(game_codes) & set(table), "a game reuses a shared code"
        table.update(game_codes)
    return table


def raised_codes() -> dict[str, set[str]]:
    """Every string in the library's code (not comments) that is a diagnostic code -> its files."""
    found: dict[str, set[str]] = {}
    for path in (ROOT / "targui_dsl").rglob("*.py"):
        if path.name == "codes.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                if CODE.fullmatch(node.value):
                    found.setdefault(node.value, set()).add(str(path.relative_to(ROOT)))
    return found


def doc_rows() -> list[tuple[int, str, str | None]]:
    """(line number, code, severity or None) of every table row naming a code in its first cell."""
    rows = []
    header: list[str] | None = None
    for number, line in enumerate(DOC.read_text(encoding="utf-8").splitlines(), 1):
        if not line.startswith("|"):
            header = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if header is None:
            header = cells
            continue
        if CODE.fullmatch(cells[0]):
            severity = cells[header.index("severity")] if "severity" in header else None
            rows.append((number, cells[0], severity))
    return rows


def test_every_code_raised_is_in_the_code_table_and_the_reverse():
    raised = raised_codes()
    table = code_table()
    assert sorted(set(raised) - set(table)) == [], "raised but not in a codes.py table"
    assert sorted(set(table) - set(raised)) == [], "in a codes.py table but never raised"


def test_every_code_in_the_table_is_documented_and_the_reverse():
    documented = {code for _, code, _ in doc_rows()}
    table = set(code_table())
    assert sorted(table - documented) == [], "in the code but not in docs/diagnostics.md"
    assert sorted(documented - table) == [], "in docs/diagnostics.md but not in the code"


def test_each_code_is_listed_once():
    seen: dict[tuple[str, str | None], int] = {}
    for number, code, severity in doc_rows():
        key = (code, severity)
        assert key not in seen, f"{code} ({severity or 'no severity'}) listed at lines {seen[key]} and {number}"
        seen[key] = number


def test_every_row_renders_inside_a_table():
    """A row is inside a table when a header row and a `|---|` separator start its block,
    and it has as many cells as the header: otherwise Markdown shows it as a paragraph."""
    lines = DOC.read_text(encoding="utf-8").splitlines()
    block: list[tuple[int, str]] = []
    blocks = []
    for number, line in enumerate(lines + [""], 1):
        if line.startswith("|"):
            block.append((number, line))
        elif block:
            blocks.append(block)
            block = []
    for block in blocks:
        number, header = block[0]
        assert len(block) >= 2, f"line {number}: a lone table row"
        separator = block[1][1]
        assert re.fullmatch(r"\|(\s*:?-+:?\s*\|)+", separator), f"line {number}: no `|---|` line under the header"
        width = header.count("|")
        before = lines[number - 2] if number >= 2 else ""
        assert before.strip() == "", f"line {number}: a table must follow a blank line"
        for row_number, row in block[2:]:
            # GitHub splits cells at every `|` not escaped, inside code spans too
            cells = len(row.replace("\\|", "").split("|")) - 1
            assert cells == width, f"line {row_number}: {cells - 1} cells, the header has {width - 1}"


def test_every_code_any_doc_names_exists():
    """A code named in any doc (effect-language.md's table, rulesets.md's prose, ...) is a real one."""
    table = code_table()
    for path in sorted((ROOT / "docs").rglob("*.md")) + [ROOT / "README.md"]:
        if not path.exists():
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for code in re.findall(r"\bE\d{4}\b", line):
                assert code in table, f"{path.relative_to(ROOT)}:{number} names {code}, which the program never gives"
