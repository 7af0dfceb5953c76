"""The authoring commands as a user meets them: validate, show, schema, rulesets."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from targui_cli.main import cli
from targui_dsl.frontend.resources import rulesets_dir

VARIANTS = ["original-dutch", "swedish-12", "updated-treasury"]
EXAMPLES = sorted(str(p) for p in (rulesets_dir() / "examples").glob("*.yaml"))


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def run(runner: CliRunner, *args: str):
    return runner.invoke(cli, list(args), catch_exceptions=False)


def test_builtin_variants_and_examples_validate(runner):
    assert len(EXAMPLES) >= 2
    result = run(runner, "validate", *VARIANTS, *EXAMPLES)
    assert result.exit_code == 0, result.output
    for name in VARIANTS:
        assert f"ok  {name}" in result.output


def test_validate_reports_every_error_with_caret_and_exit_1(runner, tmp_path: Path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "extends: original-dutch\n"
        "rounds:\n"
        "  double_turn_form: 5\n"
        "cards:\n"
        "  sandstorm:\n"
        "    effect: for t in territories where t.kind == gueltta { t.camels -= 3 }\n",
        encoding="utf-8",
    )
    result = run(runner, "validate", str(bad))
    assert result.exit_code == 1
    out = result.output
    # Both problems in one run, each at its place, quoted with a caret.
    # the file is named as given, or relative to the working directory when under it
    assert "bad.yaml:3:3: error[E0302]" in out
    assert "did you mean `double_turn_from`?" in out
    assert "bad.yaml:6:" in out and "error[E0502]" in out
    assert "did you mean `guelta`?" in out
    assert "^" in out


def test_validate_json_lists_objects(runner, tmp_path: Path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: original-dutch\nsetup:\n  tribal_cards: ten\n", encoding="utf-8")
    result = run(runner, "validate", "--format", "json", str(bad))
    assert result.exit_code == 1
    items = json.loads(result.output)
    assert [(i["line"], i["column"], i["code"], i["severity"]) for i in items] == [(3, 17, "E0301", "error")]
    assert set(items[0]) >= {"file", "line", "column", "severity", "code", "message", "hint"}


def test_validate_usage_error_exits_2(runner):
    assert run(runner, "validate").exit_code == 2
    assert run(runner, "validate", "--format", "xml", "original-dutch").exit_code == 2


def test_validate_unknown_name_suggests_builtin(runner):
    result = run(runner, "validate", "orginal-dutch")
    assert result.exit_code == 1
    assert "did you mean `original-dutch`?" in result.output


def test_show_resolved_merges_extends(runner):
    result = run(runner, "show", "swedish-12", "--format", "json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["id"] == "swedish-12"
    assert "extends" not in data
    assert len(data["deck"]) == 12
    assert data["territories"]["guelta"]["economic"] == 3  # from the shared base


def test_show_compiled_shows_python_for_every_card(runner):
    result = run(runner, "show", "original-dutch", "--compiled", "--json")
    assert result.exit_code == 0
    items = json.loads(result.output)
    names = [i["name"] for i in items]
    assert "combat.defender_loses" in names and "levy" in names
    assert sum(1 for n in names if n.startswith("cards.")) == 16
    for item in items:
        compile(item["python"], "<shown>", "exec")  # readable and real Python


def test_schema_is_a_valid_2020_12_schema(runner):
    result = run(runner, "schema")
    assert result.exit_code == 0
    schema = json.loads(result.output)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)


def test_rulesets_lists_playable_variants(runner):
    result = run(runner, "rulesets", "--json")
    assert result.exit_code == 0
    names = [row["name"] for row in json.loads(result.output)]
    assert names == sorted([*VARIANTS, "targi"])  # both games


def test_every_command_has_help(runner):
    for command in ["rulesets", "validate", "show", "schema"]:
        result = run(runner, command, "--help")
        assert result.exit_code == 0
        assert "Usage: " in result.output and len(result.output.splitlines()) > 4


def test_show_compiled_shows_the_hooks(runner):
    items = json.loads(run(runner, "show", "updated-treasury", "--compiled", "--json").output)
    (hook,) = [i for i in items if i["name"].startswith("hooks.")]
    assert hook["name"] == "hooks.before_levy[0]" and hook["source"] == "for p in seats { p.cash = 0 }"
    assert hook["file"].endswith("updated-treasury.yaml") and "rt.set_cash(" in hook["python"]
