"""The README says what the program does: its listings are the shipped files, its command
table names only arguments and options the commands take."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest

from targui_cli.main import cli
from targui_dsl.frontend.resources import rulesets_dir

README = Path(__file__).resolve().parent.parent / "README.md"


def readme() -> str:
    return README.read_text(encoding="utf-8")


def test_the_salt_caravan_listing_is_the_shipped_example():
    shipped = (rulesets_dir() / "examples" / "salt-caravan.yaml").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```\n", readme(), flags=re.S)
    listing = [b for b in blocks if "\nid: salt-caravan\n" in b]
    assert listing == [shipped]


def command_rows() -> list[tuple[str, list[str]]]:
    rows = re.findall(r"^\| `targui ([a-z]+)((?: [^`]*)?)` \|", readme(), flags=re.M)
    return [(name, rest.replace("\\|", "|").split()) for name, rest in rows]


def test_the_command_table_lists_every_command():
    assert sorted({name for name, _ in command_rows()}) == sorted(cli.commands)  # `play` has two rows


@pytest.mark.parametrize("name,words", command_rows(), ids=lambda v: v if isinstance(v, str) else "")
def test_a_command_row_names_only_what_the_command_takes(name, words):
    command = cli.commands[name]
    arguments = [p for p in command.params if isinstance(p, click.Argument)]
    options = {opt for p in command.params if isinstance(p, click.Option) for opt in p.opts}
    bare = " ".join(words)
    while re.search(r"\[[^\[\]]*\]", bare):  # optional parts, innermost first
        bare = re.sub(r"\[[^\[\]]*\]", " ", bare)
    by_name = {opt: p for p in command.params if isinstance(p, click.Option) for opt in p.opts}
    shown: list[str] = []
    tokens = iter(w for w in bare.split() if w != "...")  # `[--human SEAT]...`: the option repeats
    for word in tokens:
        if word.startswith("--"):  # a required option (`--bots A,B`, `--resume LOG`) and its value
            if word in by_name and not by_name[word].is_flag:
                next(tokens, None)
            continue
        shown.append(word)
    required = [a for a in arguments if a.required]
    assert len(required) <= len(shown) <= len(arguments), (name, shown)
    # strict=False: optional arguments the usage line leaves out are not compared (lengths checked above)
    for shown_word, argument in zip(shown, arguments, strict=False):
        assert shown_word.endswith("...") == (argument.nargs == -1), (name, shown_word)
    for option in re.findall(r"--[a-z][a-z-]*", " ".join(words)):
        assert option in options, (name, option)


def test_compare_takes_two_rulesets_or_more_as_the_readme_says():
    from click.testing import CliRunner

    assert CliRunner().invoke(cli, ["compare", "original-dutch"]).exit_code == 2
    assert "compare A B... [--games N]" in readme()
    assert "compare [OPTIONS] A B...\n" in CliRunner().invoke(cli, ["compare", "--help"]).output


def test_the_quick_start_says_where_to_run_it_and_keeps_its_commands():
    text = readme()
    quick = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    assert "virtual environment" in quick
    # one block: the virtual environment as a command, then install and play, install and test
    (block,) = re.findall(r"```sh\n(.*?)```", quick, flags=re.S)
    assert block.splitlines() == [
        "python -m venv .venv && . .venv/bin/activate",
        "pip install . && targui play original-dutch --players 4 --bots greedy,random --seed 1",
        "pip install '.[test]' && pytest",
    ]
    assert re.search(r"tests \(about \d+ minutes", quick)  # how long the tests take


def test_the_first_screen_names_both_games_and_shows_the_board():
    first = readme().split("## Quick start", 1)[0]
    assert "**Targui** (Jumbo,\n1988" in first
    assert "**Targi**" in first and "`targui play targi`" in first and "docs/targi.md" in first  # it plays now
    (picture,) = re.findall(r"!\[[^\]]+\]\(([^)]+)\)", first)
    assert picture == "docs/board.svg" and "<svg " in (README.parent / picture).read_text()[:200]


def test_license_and_changelog_ship():
    root = README.parent
    license_text = (root / "LICENSE").read_text(encoding="utf-8")
    assert license_text.startswith("MIT License\n\nCopyright (c) 2026 the targui developers\n")
    assert 'license = { text = "MIT" }' in (root / "pyproject.toml").read_text(encoding="utf-8")
    assert (root / "CHANGELOG.md").read_text(encoding="utf-8").startswith("# Changelog\n")


def test_references_stay_inside_the_repository():
    root = README.parent
    texts = [README, *sorted((root / "docs").rglob("*.md")), *sorted((root / "rulesets").rglob("*.yaml"))]
    for path in texts:
        text = path.read_text(encoding="utf-8")
        assert "shared/" not in text and "DESIGN.md" not in text and "seeds/" not in text, path
    for link in re.findall(r"`(docs/[a-z/-]+\.md)`", readme()):
        assert (root / link).is_file(), link


def test_install_hints_name_a_checkout_not_a_published_package():
    from targui_dsl.study.plots import INSTALL_HINT

    assert INSTALL_HINT.startswith("pip install '.[plot]'")
    assert "'targui[" not in text_of_docs()
    from click.testing import CliRunner

    for command in ("simulate", "compare", "lsp"):
        assert "'targui[" not in CliRunner().invoke(cli, [command, "--help"]).output


def text_of_docs() -> str:
    root = README.parent
    return "\n".join(p.read_text(encoding="utf-8") for p in [README, *sorted((root / "docs").glob("*.md"))])
