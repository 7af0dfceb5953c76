"""Hooks and per-seat values from YAML to the compiled ruleset: what the
engine receives, and every diagnostic at its exact line and column."""

from __future__ import annotations

from pathlib import Path

import pytest
from effect_fake import Cell, FakeRuntime, Seat, drive

from targui_dsl import load_ruleset
from targui_dsl.frontend.build import build
from targui_dsl.frontend.resources import rulesets_dir
from targui_dsl.games.targui.names import HOOK_MOMENTS


def built(tmp_path: Path, text: str):
    """Build a house rule over original-dutch; ``text`` starts on line 3 of the file."""
    path = tmp_path / "house.yaml"
    path.write_text("extends: original-dutch\nid: house\n" + text, encoding="utf-8")
    return build(str(path))


def where(report) -> list[tuple]:
    return sorted((d.code, d.severity, d.span.line, d.span.column) for d in report.diagnostics)


# --- hooks -----------------------------------------------------------------------------


def test_every_moment_is_present_and_the_variants_differ_by_data():
    for name in ("original-dutch", "swedish-12", "updated-treasury"):
        ruleset = load_ruleset(name)
        assert list(ruleset.hooks) == list(HOOK_MOMENTS)
        assert all(isinstance(v, tuple) for v in ruleset.hooks.values())
    treasury = load_ruleset("updated-treasury")
    (lost,) = treasury.hooks["before_levy"]
    assert lost.source == "for p in seats { p.cash = 0 }" and not lost.pauses
    assert sum(map(len, load_ruleset("original-dutch").hooks.values())) == 0


def test_updated_treasury_hook_empties_every_hand_and_nothing_else():
    (lost,) = load_ruleset("updated-treasury").hooks["before_levy"]
    rt = FakeRuntime([Cell("settlement", 0, 5), Cell("settlement", 1, 5)],
                     [Seat("kel_ress", 0, cash=12, treasury=4), Seat("kel_ajjer", 1, cash=3),
                      Seat("kel_ilbakan", None, cash=7)])
    lost.function(rt)
    # seat 2 owns nothing (out of the game) and loses its cash too, as the old switch did
    assert [(s.cash, s.treasury) for s in rt.seats] == [(0, 4), (0, 0), (0, 0)]


HOOKS = """\
hooks:
  game_start:
    - for p in players { p.cash += p.seat }
  round_start:
    - if round_die == 6 { for t in territories where t.kind == guelta { t.camels += 1 } }
  turn_start:
    - player.cash += 1
    - player chooses t in player.territories { t.camels += 1 }
  turn_end: [player.treasury += 0]
  before_levy:
    - for p in players { p.cash -= p.camels // 10 }
  after_levy: []
  round_end:
    - let d = roll(6)
"""


def test_hooks_compile_in_order_with_their_moments_names(tmp_path):
    report = built(tmp_path, HOOKS)
    assert report.ok, [d.headline() for d in report.diagnostics]
    hooks = report.ruleset.hooks
    assert {m: len(v) for m, v in hooks.items()} == {
        "game_start": 1, "round_start": 1, "turn_start": 2, "turn_end": 1,
        "before_levy": 1, "after_levy": 0, "round_end": 1,
    }
    assert hooks["turn_start"][0].params == ("player",) and hooks["before_levy"][0].params == ()
    assert hooks["turn_start"][0].source == "player.cash += 1"
    assert [h.pauses for h in hooks["turn_start"]] == [False, True] and hooks["round_end"][0].pauses
    # the turn hook runs for the player whose turn it is
    rt = FakeRuntime([Cell("settlement", 0, 5), Cell("guelta", 0, 2)], [Seat("kel_ress", 0, cash=0)])
    driven = drive(hooks["turn_start"][1], rt, 0, choose=[1])
    assert driven.requests[0].options == (0, 1) and rt.cells[1].camels == 3


def test_a_name_of_another_moment_is_an_error_at_its_place(tmp_path):
    report = built(tmp_path, "hooks:\n  before_levy:\n    - player.cash = 0\n"
                             "  round_start:\n    - |\n      let d = die\n")
    assert where(report) == [("E0502", "error", 5, 7), ("E0502", "error", 8, 15)]


def test_hooks_replace_the_parents_list_moment_by_moment(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text("extends: updated-treasury\nid: house\n"
                    "hooks:\n  after_levy:\n    - for p in players { p.cash += 1 }\n",
                    encoding="utf-8")
    ruleset = build(str(path)).ruleset
    assert [h.source for h in ruleset.hooks["before_levy"]] == ["for p in seats { p.cash = 0 }"]
    assert len(ruleset.hooks["after_levy"]) == 1
    path.write_text("extends: updated-treasury\nid: house\nhooks:\n  before_levy: []\n", encoding="utf-8")
    assert build(str(path)).ruleset.hooks["before_levy"] == ()


def test_unknown_moment_is_a_schema_error(tmp_path):
    report = built(tmp_path, "hooks:\n  before_levey:\n    - box = 1\n")
    assert where(report) == [("E0302", "error", 4, 3)]
    assert report.diagnostics[0].hint == "did you mean `before_levy`?"


# --- per-seat values -------------------------------------------------------------------------


@pytest.mark.parametrize("cash, expected", [
    ("10", (10, 10, 10, 10)),
    ("[10, 12, 14, 16]", (10, 12, 14, 16)),
    ("10 + 2 * (seat - 1)", (10, 12, 14, 16)),
    ("(5 if seat == 4 else 0) + 10", (10, 10, 10, 15)),
])
def test_starting_cash_per_seat(tmp_path, cash, expected):
    report = built(tmp_path, f"setup:\n  cash: {cash}\n")
    assert report.ok, [d.headline() for d in report.diagnostics]
    assert report.ruleset.start_cash == expected and report.ruleset.start_camels == (10, 10, 10, 10)


def test_starting_camels_per_seat_and_the_camel_box(tmp_path):
    report = built(tmp_path, "camels:\n  box: 40\nsetup:\n  camels: [8, 9, 10, 14]\n")  # line 3: `box: 40`
    assert report.ruleset.start_camels == (8, 9, 10, 14)
    assert where(report) == [("E0416", "warning", 4, 8)]
    assert report.diagnostics[0].message == "the camel box holds 40 camels, but 4 players start with 41 between them"


def test_e0418_a_list_shorter_than_the_tribes(tmp_path):
    report = built(tmp_path, "setup:\n  cash: [10, 12, 14]\n")
    assert where(report) == [("E0419", "error", 4, 9)]
    assert report.diagnostics[0].message == "`setup.cash` gives 3 values, but there are 4 tribes: one value per seat"
    assert report.ruleset is None


def test_e0418_a_list_longer_than_the_tribes_is_a_warning_at_the_first_extra(tmp_path):
    report = built(tmp_path, "setup:\n  camels: [10, 10, 10, 10, 99]\n")
    assert where(report) == [("E0419", "warning", 4, 28)]
    assert report.ruleset.start_camels == (10, 10, 10, 10)


def test_e0502_a_formula_of_seat_naming_the_game(tmp_path):
    report = built(tmp_path, "setup:\n  cash: 10 + box + count(t in territories)\n")
    assert where(report) == [("E0502", "error", 4, 14), ("E0502", "error", 4, 31)]
    first = report.diagnostics[0]
    assert first.message == "`box` cannot be used here: this value is worked out before the game starts"
    assert first.hint == "it may use only `seat` and numbers"


@pytest.mark.parametrize(
    ("formula", "column", "named"),
    [
        ("10 + round", 15, "`round`"),
        ("nobody.cash", 17, "`.cash`"),
        ("seat + nobody.settlement.camels", 24, "`.settlement`"),
    ],
)
def test_e0502_a_formula_of_seat_reading_the_round_or_a_field(tmp_path, formula, column, named):
    # Issue 21 item 5: these crashed `validate` (AttributeError) when the value was worked out.
    report = built(tmp_path, f'setup:\n  cash: "{formula}"\n')
    assert where(report) == [("E0502", "error", 4, column)]
    message = f"{named} cannot be used here: this value is worked out before the game starts"
    assert report.diagnostics[0].message == message
    assert report.ruleset is None


def test_e0418_a_formula_giving_a_value_out_of_range(tmp_path):
    report = built(tmp_path, "setup:\n  camels: 12 - 5 * seat\n")
    assert where(report) == [("E0419", "error", 4, 11)]
    assert report.diagnostics[0].message == (
        "`setup.camels` cannot be a starting value: it gives -3 for seat 3; a starting value is from 0 to 1000000000"
    )


def test_e0419_a_formula_of_seat_making_a_number_too_large(tmp_path):
    report = built(tmp_path, "setup:\n  cash: " + " * ".join(["(seat * 1000000000)"] * 40) + "\n")
    assert where(report) == [("E0419", "error", 4, 9)]
    assert report.diagnostics[0].message == (
        "`setup.cash` cannot be a starting value: working it out for seat 1 makes a number of more than 1024 bits"
    )


def test_a_per_seat_value_of_the_wrong_type(tmp_path):
    report = built(tmp_path, "setup:\n  cash: [10, ten, 14, 16]\n")
    assert where(report) == [("E0301", "error", 4, 14)]


def test_the_examples_and_builtins_still_validate():
    for path in sorted(rulesets_dir().glob("*.yaml")) + sorted((rulesets_dir() / "examples").glob("*.yaml")):
        report = build(str(path))
        assert report.ok, (path, [d.headline() for d in report.diagnostics])


# --- the house-rule examples, run on the fake board ---------------------------------------------
# (The fake board's kinds and tribes are in the base ruleset's order, so the
# compiled cards run on it as they will in a game.)


def example(name: str):
    return load_ruleset(rulesets_dir() / "examples" / f"{name}.yaml")


def test_example_upkeep_hooks_and_seats():
    from effect_fake import board

    ruleset = example("upkeep")
    assert ruleset.start_cash == (10, 12, 14, 16)
    rt = board()
    (upkeep,) = ruleset.hooks["after_levy"]
    upkeep.function(rt)
    assert [s.cash for s in rt.seats] == [12 - 3, 7 - 2, 9 - 0]
    (herd,) = ruleset.hooks["turn_start"]
    herd.function(rt, 0)  # seat 0 owns 39 camels: under 40, nothing
    herd.function(rt, 1)
    rt.cells[1].camels = 21
    herd.function(rt, 0)
    assert rt.cells[0].camels == 6


@pytest.mark.parametrize("throw, expected", [(5, [24, 0, 13]), (2, [16, 0, 5])])
def test_example_flash_flood(throw, expected):
    from effect_fake import board

    ruleset = example("flash-flood")
    card = ruleset.cards["flash_flood"].effect
    assert card.pauses and ruleset.deck[-1] == "flash_flood"
    rt = board()
    drive(card, rt, rolls=[throw])
    assert [rt.cells[c].camels for c in (1, 6, 11)] == expected
    rt = board()
    rt.die = 1
    (caravan,) = ruleset.hooks["round_start"]
    drive(caravan, rt, rolls=[4])
    assert rt.seats[1].cash == 7 + 4  # seat 1 owns the salt mine


def test_example_caravan_choice():
    from effect_fake import board

    card = example("caravan-choice").cards["caravan"].effect
    rt = board()
    driven = drive(card, rt, choose=lambda request: request.options[0])
    assert [(r.player, r.options) for r in driven.requests] == [(0, (0, 1, 8, 10)), (1, (2, 3, 4, 11))]
    assert [rt.cells[c].camels for c in (0, 2)] == [12, 7]


def test_example_land_grant_and_exile():
    from effect_fake import board

    ruleset = example("land-grant")
    rt = board()
    rt.cells[8].owner = 2  # seat 2 (fewest camels) holds its settlement again
    driven = drive(ruleset.cards["land_grant"].effect, rt, choose=[6])
    assert [(r.player, r.kind, r.options) for r in driven.requests] == [(2, "territory", (5, 6))]
    assert (rt.cells[6].owner, rt.cells[6].camels, rt.cells[8].camels) == (2, 3, 1)

    rt = board()
    box = rt.box_camels
    driven = drive(ruleset.cards["exile"].effect, rt, choose=lambda request: request.options[0])
    assert [(r.player, r.options) for r in driven.requests] == [(0, (8,)), (1, (2,))]
    assert rt.cells[8].owner is None and rt.cells[2].owner is None and rt.box_camels == box + 4 + 2
