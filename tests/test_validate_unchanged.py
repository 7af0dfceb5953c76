"""`targui validate` reports what it reported before the quick parser and the snippets compiled on
first call (issue 22 item 6): every built-in and example ruleset, and house rules broken in every
way a snippet can be, give the same diagnostics and the same compiled snippets with the quick
parser as with Lark's parser alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from targui_dsl.effects import parser, quick
from targui_dsl.frontend.build import build
from targui_dsl.frontend.resources import builtin_ruleset_names, example_ruleset_names

#: Snippets wrong in every way the parser and the checker tell apart, and some right ones.
SNIPPETS = ["", "x.field =", "for x in { }", "if a b", "1 + + 2", "let = 3", "((1)", "sum(", "x in [a, b",
            "x.f = 'text", "move a to", "12abc", "end end", "p.cash = (1", "for t in territories { t.camels }",
            "let d = roll(6); p.cash += d", "x.f = " + "-" * 120 + "1", "for a in b { " * 17 + "}" * 17,
            "p.cash += 1 +", "me.points += 1", "for c in me.display { me.gold += 1 }", "if true { break }",
            "nobody.cash = 1", "owner.cash = (2 if true else 3)"]


def _outcome(ref: str, cwd: Path | None = None) -> tuple:
    parser._parse.cache_clear()
    report = build(ref, cwd)
    compiled = None if report.ruleset is None else repr(report.ruleset)
    return [d.to_json() for d in report.diagnostics], report.ok, compiled


def _lark_only(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object) -> object:
        raise quick.Fallback

    monkeypatch.setattr(quick, "parse", refuse)


SHIPPED = builtin_ruleset_names() + [f"rulesets/examples/{name}.yaml" for name in example_ruleset_names()]


@pytest.mark.parametrize("ref", SHIPPED)
def test_every_shipped_ruleset_validates_as_with_lark_alone(ref, monkeypatch):
    root = Path(__file__).resolve().parent.parent
    ours = _outcome(ref, root)
    _lark_only(monkeypatch)
    assert _outcome(ref, root) == ours
    assert ours[1]


@pytest.mark.parametrize("base, place", [("original-dutch", "cards:\n  flash_flood:\n    effect: "),
                                         ("targi", None)])
def test_broken_house_rules_report_as_with_lark_alone(base, place, tmp_path, monkeypatch):
    files = []
    for i, snippet in enumerate(SNIPPETS):
        path = tmp_path / f"house-{i}.yaml"
        quoted = snippet.replace("'", "''")
        if place is not None:
            body = f"{place}'{quoted}'\n"
        else:
            body = f"border:\n  - number: 1\n    name: Odd\n    action: '{quoted}'\n"
        path.write_text(f"extends: {base}\nid: house-{i}\ntitle: House {i}\n{body}", encoding="utf-8")
        files.append(str(path))
    ours = [_outcome(f) for f in files]
    _lark_only(monkeypatch)
    assert [_outcome(f) for f in files] == ours
    assert sum(not ok for _, ok, _ in ours) > 10  # most are wrong, and reported
