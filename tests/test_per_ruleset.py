"""engine/per_ruleset.py: what a module works out once per ruleset (Targi's texts and tensor tables,
Targui's feature slots) is made once for each ruleset, never shared between two, and not kept for
every ruleset a long process meets."""

from __future__ import annotations

from targui_dsl import load_ruleset
from targui_dsl.engine.per_ruleset import per_ruleset
from targui_dsl.games.targi.texts import texts_of


def test_a_table_is_made_once_per_ruleset_and_each_ruleset_has_its_own():
    made = []
    of = per_ruleset(lambda ruleset: made.append(ruleset) or len(made))
    first, second = load_ruleset("original-dutch"), load_ruleset("original-dutch")
    assert of(first) == of(first) == 1
    assert of(second) == 2
    assert of(first) == 1
    assert made == [first, second]


def test_no_more_rulesets_are_kept_than_the_cap():
    made = []
    of = per_ruleset(lambda ruleset: made.append(ruleset) or ruleset, cap=2)
    rulesets = [load_ruleset("targi") for _ in range(3)]
    for ruleset in rulesets:
        assert of(ruleset) is ruleset
    assert of(rulesets[0]) is rulesets[0]  # forgotten when the third came: made again
    assert made == [*rulesets, rulesets[0]]


def test_targi_texts_are_those_of_the_ruleset_asked_for():
    plain, other = load_ruleset("targi"), load_ruleset("targi")
    assert texts_of(plain) is texts_of(plain)
    assert texts_of(other) is not texts_of(plain)
