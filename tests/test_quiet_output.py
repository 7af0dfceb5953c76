"""Output without noise: built-in files by name, hints that offer only what can be used,
one-line reprs, and a per-card table that says what a modifier card did."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from targui_cli.main import cli
from targui_dsl import load_ruleset
from targui_dsl.effects.parser import round_long_changes
from targui_dsl.frontend.build import build
from targui_dsl.frontend.resolve import resolve
from targui_dsl.frontend.resources import rulesets_dir


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture
def elsewhere(tmp_path: Path, monkeypatch):
    """Work in a folder that does not hold the built-in rulesets (as with an installed package)."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


BUILTIN_FOLDER = str(rulesets_dir().resolve())


@pytest.mark.parametrize("args", [("show", "swedish-12"), ("show", "swedish-12", "--compiled"),
                                  ("diff", "original-dutch", "swedish-12")])
def test_built_in_files_are_named_not_given_by_their_install_path(elsewhere, args):
    result = run(*args)
    assert result.exit_code == 0
    assert BUILTIN_FOLDER not in result.stdout and str(rulesets_dir()) not in result.stdout
    assert "built-in swedish-12.yaml" in result.stdout or "built-in base.yaml" in result.stdout


def test_the_show_header_and_diff_locations_name_built_in_files(elsewhere):
    assert run("show", "swedish-12").stdout.splitlines()[0] == \
        "# swedish-12: merged from built-in swedish-12.yaml <- built-in base.yaml"
    diff = run("diff", "original-dutch", "swedish-12").stdout
    assert "--- A: original-dutch (built-in original-dutch.yaml <- built-in base.yaml)" in diff
    assert re.search(r"A built-in original-dutch\.yaml:\d+ \| B built-in swedish-12\.yaml:\d+", diff)


def test_a_house_rule_outside_the_checkout_keeps_its_own_path(elsewhere):
    (elsewhere / "mine.yaml").write_text("extends: original-dutch\nid: mine\ntitle: Mine\nsetup: {cash: 12}\n",
                                         encoding="utf-8")
    header = run("show", "mine.yaml").stdout.splitlines()[0]
    assert header == "# mine: merged from mine.yaml <- built-in original-dutch.yaml <- built-in base.yaml"


def test_no_such_ruleset_never_offers_the_abstract_base():
    result = run("show", "bas")
    assert result.exit_code == 1
    assert "`base`" not in result.stderr
    assert "`original-dutch`, `swedish-12`, `targi`, `updated-treasury`" in result.stderr


def test_extends_may_still_be_pointed_at_the_base(tmp_path: Path):
    (tmp_path / "r.yaml").write_text("extends: bse\nid: r\ntitle: R\n", encoding="utf-8")
    diagnostics = resolve("r.yaml", cwd=tmp_path).diagnostics
    assert any("did you mean `base`?" in (d.hint or "") for d in diagnostics)


def test_rulesets_lists_only_what_can_be_played():
    names = [row["name"] for row in json.loads(run("rulesets", "--json").stdout)]
    assert names == ["original-dutch", "swedish-12", "targi", "updated-treasury"]


def test_printing_a_ruleset_takes_one_line():
    rs = load_ruleset("original-dutch")
    for value in (rs, rs.cards["spring"], rs.levy, rs.board, resolve("original-dutch"), build("original-dutch"),
                  resolve("original-dutch").docs[0]):
        text = repr(value)
        assert "\n" not in text and len(text) < 300, text
    assert repr(rs) == ("<CompiledRuleset 'original-dutch' (Targui (original Dutch rules)): 4 tribes, 7x7 board, "
                        "16 cards, 16 in the deck, 16 rounds>")


def test_round_long_changes_come_from_the_effect_not_the_card():
    assert round_long_changes("erg.strategic = 3 this round") == ("erg.strategic = 3",)
    assert round_long_changes("for t in territories where t.kind == erg { t.camels -= 3 }") == ()
    assert round_long_changes("if round > 2 { reg.economic += 1 this round }") == ("reg.economic += 1",)
    assert round_long_changes("this is not an effect {") == ()


def test_the_per_card_table_says_what_a_modifier_did(tmp_path: Path):
    rule = tmp_path / "calm.yaml"  # card 6 becomes a modifier, so no card number can be behind it
    rule.write_text("extends: original-dutch\nid: calm\ntitle: Calm\n"
                    "cards:\n  sandstorm:\n    effect: reg.strategic = 4 this round\n", encoding="utf-8")
    result = run("simulate", str(rule), "--games", "4", "--seed", "2")
    assert result.exit_code == 0, result.output
    table = result.stdout.split("Cards (per draw)", 1)[1]
    rows = {m.group(1): m.group(0) for m in re.finditer(r"^\s+(\d+) .*$", table, flags=re.M)}
    assert "until the round's levy: reg.strategic = 4" in rows["6"]
    assert "until the round's levy: erg.strategic = 3" in rows["13"]
    assert "until the round's levy: mountain.economic = 3" in rows["16"]
    assert "until the round's levy" not in rows["7"]  # drought moves camels: counted as before
    cards = json.loads(run("simulate", str(rule), "--games", "2", "--seed", "2", "--json").stdout)["cards"]
    assert cards["sandstorm"]["this_round"] == ["reg.strategic = 4"]
    assert cards["drought"]["this_round"] == []


def test_an_installed_copy_is_named_built_in_even_inside_the_working_directory(tmp_path: Path, monkeypatch):
    import shutil

    from targui_dsl.frontend import resources

    package = tmp_path / "venv" / "site-packages" / "targui_dsl"
    shutil.copytree(rulesets_dir(), package / "rulesets")
    monkeypatch.setattr(resources, "_PACKAGE", package)
    monkeypatch.chdir(tmp_path)  # the installed files are below the working directory
    header = run("show", "swedish-12").stdout.splitlines()[0]
    assert header == "# swedish-12: merged from built-in swedish-12.yaml <- built-in base.yaml"
    assert "site-packages" not in run("diff", "original-dutch", "swedish-12").stdout
