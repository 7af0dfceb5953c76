"""targui_dsl.frontend.resolve: extends chains, the merge rules, positions across files, E02xx."""

from __future__ import annotations

import tempfile
import textwrap
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

import targui_dsl.frontend.resolve as resolve_module
from targui_dsl.frontend.diagnostics import Span
from targui_dsl.frontend.resolve import MAX_CHAIN, resolve


def write(directory: Path, name: str, text: str) -> Path:
    path = directory / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def codes(resolved) -> list[str]:
    return [d.code for d in resolved.diagnostics]


@pytest.fixture
def builtins(tmp_path, monkeypatch):
    """A private folder of built-in rulesets, so no test depends on the real ones."""
    folder = tmp_path / "builtin"
    folder.mkdir()

    def path_of(name: str):
        path = folder / f"{name}.yaml"
        return path if path.is_file() else None

    monkeypatch.setattr(resolve_module, "builtin_ruleset_path", path_of)
    monkeypatch.setattr(resolve_module, "builtin_ruleset_names",
                        lambda: sorted(p.stem for p in folder.glob("*.yaml")))
    return folder


# --- one file ----------------------------------------------------------------------------


def test_a_single_file(tmp_path):
    write(tmp_path, "solo.yaml", "id: solo\ncamels: {box: 450}\n")
    r = resolve("solo.yaml", cwd=tmp_path)
    assert r.diagnostics == []
    assert r.data == {"id": "solo", "camels": {"box": 450}}
    assert r.files == ["solo.yaml"]
    assert r.sources.texts == {"solo.yaml": "id: solo\ncamels: {box: 450}\n"}
    assert r.spans[("camels", "box")] == Span("solo.yaml", 2, 15, 2, 18)
    assert r.key_spans[("camels",)] == Span("solo.yaml", 2, 1, 2, 7)


def test_absolute_path_outside_cwd_is_shown_absolute(tmp_path):
    path = write(tmp_path / "elsewhere", "x.yaml", "id: x\n")
    (tmp_path / "work").mkdir()
    r = resolve(str(path), cwd=tmp_path / "work")
    assert r.files == [str(path)]
    assert r.spans[("id",)].file == str(path)


def test_missing_top_level_file_is_e0108(tmp_path):
    r = resolve("nothing.yaml", cwd=tmp_path)
    assert codes(r) == ["E0108"]
    assert r.diagnostics[0].span == Span("nothing.yaml", 1, 1)
    assert r.data is None and r.files == ["nothing.yaml"]


def test_load_diagnostics_of_the_ruleset_are_passed_through(tmp_path):
    write(tmp_path, "bad.yaml", "id: x\nid: z\n")
    r = resolve("bad.yaml", cwd=tmp_path)
    assert codes(r) == ["E0103"]
    assert r.data is None


# --- merging ---------------------------------------------------------------------------------


@pytest.fixture
def chain(tmp_path):
    """house.yaml -> rules/variant.yaml -> rules/base.yaml, paths relative to each file."""
    write(tmp_path, "rules/base.yaml", """\
        id: base
        abstract: true
        camels:
          box: 450
          price: 3
        territories:
          erg: {name: Erg, economic: 1}
          reg: {name: Reg, economic: 2}
          chott: {name: Chott, economic: 0}
        deck: [c1, c2, c3]
        levy: player.cash
        """)
    write(tmp_path, "rules/variant.yaml", """\
        extends: base.yaml
        id: variant
        camels:
          price: 4
        territories:
          chott: null
          reg: {economic: 5}
        deck: [c9]
        """)
    write(tmp_path, "house.yaml", """\
        extends: rules/variant.yaml
        id: house
        territories:
          erg: {name: Big erg}
        levy: |
          player.cash + 1
        """)
    return tmp_path


def test_chain_of_three_merges_child_over_parent(chain):
    r = resolve("house.yaml", cwd=chain)
    assert r.diagnostics == []
    assert r.files == ["house.yaml", "rules/variant.yaml", "rules/base.yaml"]
    assert r.data == {
        "id": "house",
        "camels": {"box": 450, "price": 4},  # mappings merge key by key
        "territories": {
            "erg": {"name": "Big erg", "economic": 1},
            "reg": {"name": "Reg", "economic": 5},  # chott deleted by null
        },
        "deck": ["c9"],  # lists replace
        "levy": "player.cash + 1\n",  # scalars replace
    }
    assert "extends" not in r.data
    assert set(r.sources.texts) == set(r.files)


def test_abstract_is_not_inherited(chain):
    assert "abstract" not in resolve("house.yaml", cwd=chain).data
    assert resolve("rules/base.yaml", cwd=chain).data["abstract"] is True


def test_every_value_keeps_the_position_of_the_file_that_wrote_it(chain):
    r = resolve("house.yaml", cwd=chain)
    assert r.spans[("camels", "box")] == Span("rules/base.yaml", 4, 8, 4, 11)
    assert r.spans[("camels", "price")] == Span("rules/variant.yaml", 4, 10, 4, 11)
    assert r.key_spans[("camels", "price")] == Span("rules/variant.yaml", 4, 3, 4, 8)
    assert r.spans[("territories", "erg", "name")].file == "house.yaml"
    assert r.spans[("territories", "erg", "economic")].file == "rules/base.yaml"
    assert r.spans[("territories", "reg", "economic")] == Span("rules/variant.yaml", 7, 19, 7, 20)
    assert r.spans[("deck",)].file == "rules/variant.yaml"
    assert r.spans[("deck", 0)] == Span("rules/variant.yaml", 8, 8, 8, 10)
    assert r.key_spans[("id",)] == Span("house.yaml", 2, 1, 2, 3)
    # a mapping written in several files is credited to the nearest one
    assert r.spans[("camels",)].file == "rules/variant.yaml"
    assert r.spans[()].file == "house.yaml"


def test_replaced_and_deleted_values_leave_no_positions_behind(chain):
    r = resolve("house.yaml", cwd=chain)
    assert ("territories", "chott") not in r.spans
    assert ("territories", "chott") not in r.key_spans
    assert ("territories", "chott", "name") not in r.spans
    assert ("deck", 1) not in r.spans and ("deck", 2) not in r.spans
    assert ("extends",) not in r.spans and ("abstract",) not in r.spans
    # and every value left has one
    def paths(value, path=()):
        yield path
        if isinstance(value, dict):
            for k, v in value.items():
                yield from paths(v, path + (k,))
        elif isinstance(value, list):
            for i, v in enumerate(value):
                yield from paths(v, path + (i,))
    assert set(paths(r.data)) == set(r.spans)


def test_locate_delegates_to_the_file_that_wrote_the_string(chain):
    r = resolve("house.yaml", cwd=chain)
    assert r.locate(("levy",), 7) == Span("house.yaml", 6, 10, 6, 11)
    assert r.locate(("territories", "reg", "name"), 2) == Span("rules/base.yaml", 8, 17, 8, 18)
    assert r.locate(("territories", "erg", "name"), 4) == Span("house.yaml", 4, 19, 4, 20)


def test_null_for_a_key_no_parent_has_just_leaves_it_out(tmp_path):
    write(tmp_path, "p.yaml", "id: p\n")
    write(tmp_path, "a.yaml", "extends: p.yaml\nid: a\nlevy: ~\nsetup: {cash: null, camels: 3, deep: {x: null}}\n")
    r = resolve("a.yaml", cwd=tmp_path)
    assert r.data == {"id": "a", "setup": {"camels": 3, "deep": {}}}
    assert ("setup", "cash") not in r.spans and ("setup", "cash") not in r.key_spans
    # the same for a file that extends nothing: a null in resolved data never means anything
    assert resolve("p.yaml", cwd=tmp_path).data == {"id": "p"}
    write(tmp_path, "solo.yaml", "id: s\nlevy: null\n")
    assert resolve("solo.yaml", cwd=tmp_path).data == {"id": "s"}


def test_a_mapping_replaces_a_scalar_and_the_other_way_round(tmp_path):
    write(tmp_path, "p.yaml", "a: 1\nb: {x: 1}\n")
    write(tmp_path, "c.yaml", "extends: p.yaml\na: {w: 2}\nb: 3\n")
    r = resolve("c.yaml", cwd=tmp_path)
    assert r.data == {"a": {"w": 2}, "b": 3}
    assert ("b", "x") not in r.spans
    assert r.spans[("a", "w")].file == "c.yaml"


def test_the_resolved_data_does_not_share_structure_with_the_files(chain):
    r = resolve("house.yaml", cwd=chain)
    r.data["camels"]["box"] = 0
    assert r.docs[-1].data["camels"]["box"] == 450


# --- built-in names ------------------------------------------------------------------------------


def test_extends_a_builtin_by_name(tmp_path, builtins):
    write(builtins, "classic.yaml", "id: classic\nsetup: {cash: 10}\n")
    write(tmp_path, "mine.yaml", "extends: classic\nsetup: {camels: 2}\n")
    r = resolve("mine.yaml", cwd=tmp_path)
    assert r.diagnostics == []
    assert r.data == {"id": "classic", "setup": {"cash": 10, "camels": 2}}
    assert r.files == ["mine.yaml", "builtin/classic.yaml"]  # built-ins under cwd are shown relative


def test_resolve_a_builtin_name(tmp_path, builtins):
    write(builtins, "classic.yaml", "id: classic\n")
    assert resolve("classic", cwd=tmp_path).data == {"id": "classic"}


def test_e0201_unknown_builtin_name_in_extends_suggests_a_name(tmp_path, builtins):
    write(builtins, "original-dutch.yaml", "id: od\n")
    write(tmp_path, "mine.yaml", "id: mine\nextends: orginal-dutch\n")
    r = resolve("mine.yaml", cwd=tmp_path)
    assert codes(r) == ["E0201"]
    d = r.diagnostics[0]
    assert d.span == Span("mine.yaml", 2, 10, 2, 23)
    assert d.hint == "did you mean `original-dutch`?"
    assert r.data is None


def test_e0201_unknown_builtin_name_as_the_ruleset(tmp_path, builtins):
    write(builtins, "swedish-12.yaml", "id: sv\n")
    r = resolve("swedish12", cwd=tmp_path)
    assert codes(r) == ["E0201"]
    assert r.diagnostics[0].span is None
    assert "`swedish-12`" in r.diagnostics[0].hint


def test_e0201_unknown_name_with_nothing_close_lists_the_builtins(tmp_path, builtins):
    write(builtins, "classic.yaml", "id: c\n")
    write(tmp_path, "mine.yaml", "extends: zzz\n")
    hint = resolve("mine.yaml", cwd=tmp_path).diagnostics[0].hint
    assert "`classic`" in hint and ".yaml" in hint


# --- E0201 .. E0204 --------------------------------------------------------------------------------


def test_e0201_missing_parent_file_points_at_the_extends_value(tmp_path):
    write(tmp_path, "child.yaml", "# house rules\nextends: ../parent.yaml\nid: c\n")
    r = resolve("child.yaml", cwd=tmp_path)
    assert codes(r) == ["E0201"]
    d = r.diagnostics[0]
    assert d.span == Span("child.yaml", 2, 10, 2, 24)
    assert "parent.yaml" in d.message
    assert r.files == ["child.yaml"]


def test_e0202_cycle_names_the_chain(tmp_path):
    write(tmp_path, "a.yaml", "extends: b.yaml\nid: a\n")
    write(tmp_path, "b.yaml", "id: b\nextends: a.yaml\n")
    r = resolve("a.yaml", cwd=tmp_path)
    assert codes(r) == ["E0202"]
    d = r.diagnostics[0]
    assert "a.yaml -> b.yaml -> a.yaml" in d.message
    assert d.span == Span("b.yaml", 2, 10, 2, 16)
    assert r.data is None


def test_e0202_a_file_extending_itself(tmp_path):
    write(tmp_path, "sub/me.yaml", "extends: ../sub/me.yaml\n")
    r = resolve("sub/me.yaml", cwd=tmp_path)
    assert codes(r) == ["E0202"]
    assert "sub/me.yaml -> sub/me.yaml" in r.diagnostics[0].message
    assert r.diagnostics[0].span == Span("sub/me.yaml", 1, 10, 1, 24)


@pytest.mark.parametrize("value, column", [("3", 10), ("[a.yaml]", 10), ("", 9), ('""', 10), ("{file: a.yaml}", 10)])
def test_e0203_extends_not_a_string(tmp_path, value, column):
    write(tmp_path, "c.yaml", f"id: c\nextends: {value}\n")
    r = resolve("c.yaml", cwd=tmp_path)
    assert codes(r) == ["E0203"]
    assert (r.diagnostics[0].span.line, r.diagnostics[0].span.column) == (2, column)


def test_e0204_chain_longer_than_the_cap(tmp_path):
    for n in range(MAX_CHAIN + 1):
        write(tmp_path, f"r{n}.yaml", f"extends: r{n + 1}.yaml\nn{n}: {n}\n" if n < MAX_CHAIN else "base: 1\n")
    r = resolve("r0.yaml", cwd=tmp_path)
    assert codes(r) == ["E0204"]
    assert r.diagnostics[0].span == Span(f"r{MAX_CHAIN - 1}.yaml", 1, 10, 1, 10 + len(f"r{MAX_CHAIN}.yaml"))
    assert len(r.files) == MAX_CHAIN


def test_a_chain_of_exactly_the_cap_is_fine(tmp_path):
    for n in range(MAX_CHAIN):
        write(tmp_path, f"r{n}.yaml", f"extends: r{n + 1}.yaml\nn{n}: {n}\n" if n < MAX_CHAIN - 1 else "base: 1\n")
    r = resolve("r0.yaml", cwd=tmp_path)
    assert r.diagnostics == []
    assert len(r.files) == MAX_CHAIN and r.data["n0"] == 0 and r.data["base"] == 1


def test_load_errors_in_a_parent_are_passed_through_with_its_name(tmp_path):
    write(tmp_path, "p.yaml", "id: p\nopen: yes\n")
    write(tmp_path, "c.yaml", "extends: p.yaml\nid: c\n")
    r = resolve("c.yaml", cwd=tmp_path)
    assert codes(r) == ["E0104"]
    assert r.diagnostics[0].span == Span("p.yaml", 2, 7, 2, 10)
    assert r.files == ["c.yaml", "p.yaml"]
    assert r.sources.line("p.yaml", 2) == "open: yes"
    assert r.data is None


# --- the merge rules against a model -----------------------------------------------------------------

keys = st.sampled_from(["a", "b", "c", "d"])
leaves = st.one_of(st.none(), st.integers(-3, 3), st.sampled_from(["x", "z", "w"]))
trees = st.recursive(leaves, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(keys, inner, max_size=3),
                     max_leaves=8)
rulesets = st.dictionaries(keys, trees, max_size=4)


def without_nulls(value):
    """Resolved data never holds null in a mapping, at any depth (lists keep theirs)."""
    if isinstance(value, dict):
        return {k: without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [without_nulls(v) for v in value]
    return value


def model_merge(parent: dict, child: dict) -> dict:
    out = without_nulls(parent)
    for key, value in child.items():
        if value is None:
            out.pop(key, None)
        elif isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = model_merge(out[key], value)
        else:
            out[key] = without_nulls(value)
    return out


def all_paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from all_paths(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from all_paths(v, path + (i,))


@settings(max_examples=60, deadline=None)
@given(rulesets, rulesets, rulesets)
def test_merging_a_chain_matches_the_model(grandparent, parent, child):
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        (folder / "g.yaml").write_text(yaml.safe_dump({"id": "g", **grandparent}), encoding="utf-8")
        (folder / "p.yaml").write_text(yaml.safe_dump({"extends": "g.yaml", **parent}), encoding="utf-8")
        (folder / "c.yaml").write_text(yaml.safe_dump({"extends": "p.yaml", **child}), encoding="utf-8")
        r = resolve("c.yaml", cwd=folder)
    assert r.diagnostics == []
    expected = model_merge(model_merge({"id": "g", **grandparent}, parent), child)
    assert r.data == expected
    assert set(r.spans) == set(all_paths(r.data))
    assert {p for p in r.key_spans} == {p for p in all_paths(r.data) if p and isinstance(p[-1], str)}


def test_a_path_no_file_can_have_is_reported_as_a_missing_parent(tmp_path):
    write(tmp_path, "c.yaml", 'extends: "bad\\0name.yaml"\n')
    r = resolve("c.yaml", cwd=tmp_path)
    assert codes(r) == ["E0201"]
    assert r.diagnostics[0].span == Span("c.yaml", 1, 10, 1, 26)
