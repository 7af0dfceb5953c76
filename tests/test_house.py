"""The shape of the house: no import circles, no giant files, a game's words only in its package.

These hold what docs/internals.md promises about the layout; each failure names the files.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = {"targui_dsl": ROOT / "targui_dsl", "targui_cli": ROOT / "cli"}
MAX_LINES = 900
#: Targui's own words: outside targui_dsl/games/ no source line may name them.
TARGUI_WORDS = re.compile(r"camel|treasur|guelta|\blev(y|ies)\b", re.IGNORECASE)


def _sources() -> dict[str, Path]:
    modules = {}
    for package, base in PACKAGES.items():
        for path in sorted(base.rglob("*.py")):
            parts = list(path.relative_to(base).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join([package, *parts])] = path
    return modules


def _imports(module: str, path: Path, known: set[str]) -> set[str]:
    """Every module of ours that ``module`` imports, at the top, inside functions or under TYPE_CHECKING."""
    is_package = path.name == "__init__.py"
    package = module if is_package else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        else:
            continue
        found.update(name for name in names if name in known and name != module)
    return found


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    result: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                result.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return result


def test_no_module_imports_one_that_imports_it_back():
    sources = _sources()
    graph = {module: _imports(module, path, set(sources)) for module, path in sources.items()}
    assert _circles(graph) == []


def test_no_source_file_is_over_900_lines():
    long = {str(path.relative_to(ROOT)): n for path in _sources().values()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def test_outside_the_games_no_source_line_names_a_targui_concept():
    games = PACKAGES["targui_dsl"] / "games"
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
             for path in _sources().values() if games not in path.parents
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if TARGUI_WORDS.search(line)]
    assert found == []
