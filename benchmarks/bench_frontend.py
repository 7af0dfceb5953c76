"""How long the front end takes, and how much memory, on the worst inputs we can build.

Every case is a ruleset file built here, at or near a size cap (256 KiB files, 5,000 values,
5,000-character snippets, 5,000-part formulas, 20,000 characters of snippets a ruleset), aimed at one stage: the
YAML loader, the schema, the effect parser and checker, the cost bound and
the rendering of diagnostics. For each the script prints the wall time of
``build()`` plus ``render_all()`` and the peak memory Python allocated
(tracemalloc, in a second run so it does not slow the timed one).

    python benchmarks/bench_frontend.py            # every case
    python benchmarks/bench_frontend.py sexagesimal unique   # cases whose name contains a word

The front end is meant to answer each of these in under a second; this
prints figures and asserts nothing (speed is measured here, not in tests).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Callable

from targui_dsl.frontend.build import build
from targui_dsl.frontend.diagnostics import render_all

MIB = 1024 * 1024
CAP = 256 * 1024  # the file size cap (yamlload.MAX_BYTES)
HEAD = "extends: original-dutch\nid: bench\n"


def _card(effect: str) -> str:
    return HEAD + f"cards:\n  sandstorm:\n    effect: \"{effect}\"\n"


def _fill(unit: str, budget: int) -> str:
    return unit * (budget // len(unit))


def _loops(depth: int) -> str:
    names = [f"v{i}" for i in range(depth)]
    text = f"{names[-1]}.camels += 1"
    for name in reversed(names):
        text = f"for {name} in territories {{ {text} }}"
    return text


def _many_cards(effect: str, count: int) -> str:
    """``count`` cards (at most what fits in the size cap), each with ``effect``, and a deck naming them."""
    entry = "  c@:\n    number: #\n    title: C\n    effect: \"" + effect + "\"\n"
    parts, total = [], len(HEAD) + 20 + 8 * count
    for i in range(count):
        text = entry.replace("@", str(i)).replace("#", str(1000 + i))
        if total + len(text) >= CAP:
            break
        parts.append(text)
        total += len(text)
    deck = "deck: [" + ", ".join(f"c{k}" for k in range(len(parts))) + "]\n"
    return HEAD + "cards:\n" + "".join(parts) + deck


CASES: dict[str, Callable[[], str]] = {
    # YAML 1.1: a base-60 number PyYAML would compute digit group by digit group
    "sexagesimal id, 256 KiB": lambda: "id: 1" + _fill(":1", CAP - 16) + "\n",
    "sexagesimal id, 1 MiB (over the size cap)": lambda: "id: 1" + _fill(":1", MIB - 16) + "\n",
    "sexagesimal key, 256 KiB": lambda: "? 1" + _fill(":1", CAP - 16) + "\n: x\n",
    # the schema: uniqueItems over a list that cannot be sorted
    "seating players 47 KB, one text": lambda: (
        HEAD + "seating:\n  - players: [x, " + ", ".join(str(i) for i in range(2, 9000))
        + "]\n    settle_in: sectors\n"),
    "seating players 100 KB, one text": lambda: (
        HEAD + "seating:\n  - players: [x, " + ", ".join(str(i) for i in range(2, 18000))
        + "]\n    settle_in: sectors\n"),
    "seating players 256 KiB, all repeated": lambda: (
        HEAD + "seating:\n  - players: [" + _fill("2, ", CAP - 200)
        + "2]\n    settle_in: sectors\n"),
    "seating players 256 KiB, distinct": lambda: (
        HEAD + "seating:\n  - players: [" + ", ".join(str(i) for i in range(2, 40000))
        + "]\n    settle_in: sectors\n"),
    "seating players at the value cap, distinct": lambda: (
        HEAD + "seating:\n  - players: [" + ", ".join(str(i) for i in range(2, 4990))
        + "]\n    settle_in: sectors\n"),
    "seating players at the value cap, one text": lambda: (
        HEAD + "seating:\n  - players: [x, " + ", ".join(str(i) for i in range(2, 4990))
        + "]\n    settle_in: sectors\n"),
    # the effect language: sizes at and over the caps
    "product of 65,536 factors": lambda: _card("x = " + "*".join(["1"] * 65536)),
    "snippet at the length cap, 2,500 factors": lambda: _card("t = " + "*".join(["1"] * 2490)),
    "formula near the part cap": lambda: HEAD + "levy: \"max(" + ", ".join(["player.cash"] * 400) + ")\"\n",
    "nested parentheses at the length cap": lambda: _card("x = " + "(" * 2490 + "1" + ")" * 2490),
    "237 KB effect of unknown names": lambda: _card(" ".join(["x = y;"] * 40000)),
    "unknown names, one line, under the part cap": lambda: _card(
        "for t in territories {" + "; ".join(["t.camels += b"] * 300) + "}"),
    "six nested loops over the territories": lambda: _card(_loops(6)),
    "five nested loops in a combat formula": lambda: (
        HEAD + "combat:\n  defender_loses: \"sum(1 for a in territories where count(b in territories"
        " where count(c in territories where count(d in territories where count(e in territories) > 0) > 0) > 0)"
        " > 0)\"\n"),
    # many snippets in one file
    # many snippets in one file, up to the value cap (five values a card)
    "500 cards, each with an error": lambda: _many_cards("for t in territories { t.camels += nope }", 500),
    "500 cards, each valid, two loops": lambda: _many_cards(
        "for p in players { for t in p.territories where t.camels > 1 { t.camels -= 1 } }", 500),
    "500 cards, each 21 errors": lambda: _many_cards("; ".join(["t.camels += b"] * 21), 500),
    "100 cards of 5 KB, each 300 errors": lambda: _many_cards(
        "for t in territories {" + "; ".join(["t.camels += b"] * 300) + "}", 100),
    "3 cards of 5 KB, each valid and wide": lambda: _many_cards(
        "for t in territories {" + "; ".join(["t.camels += 1"] * 300) + "}", 3),
    # did-you-mean hints over many names (each compares the name with every candidate)
    "3,000 misspelt deck ids, 200 cards": lambda: HEAD + "cards:\n" + "".join(
        f"  card_number_{i}:\n    number: {100 + i}\n    title: C\n"
        f"    effect: \"for p in players {{ p.cash += 1 }}\"\n" for i in range(200))
        + "deck: [" + ", ".join(f"card_numbr_{i}" for i in range(3000)) + "]\n",
    "680 misspelt kinds in effects, 400 kinds": lambda: HEAD + "territories:\n" + "".join(
        f"  kind_number_{i}:\n    name: K\n    economic: 1\n    strategic: 1\n    count: 0\n" for i in range(400))
        + "cards:\n" + "".join(
            f"  c{i}:\n    number: {100 + i}\n    title: C\n    effect: \"for t in territories {{ "
            + "; ".join(f"t.camels += kind_numbr_{k}" for k in range(170)) + " }\"\n" for i in range(4)),
    # loading: many problems, long lines
    "256 KiB of duplicate keys": lambda: "id: x\n" + _fill("id: x\n", CAP - 10),
    "256 KiB one-line flow mapping, yes-words": lambda: (
        "{" + ", ".join(f"k{i}: yes" for i in range(20000)) + "}\n"),
    "one 256 KiB line, an error at its end": lambda: (
        "{id: bench, extends: original-dutch, title: " + "x" * (CAP - 100) + ", rounds: {die: seven}}\n"),
    "256 KiB of comment lines": lambda: HEAD + _fill("# a comment line, nothing more\n", CAP - 100),
    "256 KiB double-quoted title of escapes": lambda: HEAD + 'title: "' + _fill("\\t", CAP - 100) + '"\n',
    "256 KiB folded title of short lines": lambda: HEAD + "title: >\n" + _fill("  x\n", CAP - 100),
    "1 MiB of anchors": lambda: "a: [" + ", ".join(f"&a{i} 1" for i in range(100000)) + "]\n",
}


def _run(text: str, folder: Path) -> tuple[list[str], int]:
    path = folder / "case.yaml"
    path.write_text(text, encoding="utf-8")
    report = build(str(path), cwd=folder)
    rendered = render_all(report.diagnostics, report.sources)
    return [d.code for d in report.diagnostics], len(rendered)


def main(words: list[str]) -> None:
    folder = Path(tempfile.mkdtemp(prefix="targui-bench-"))
    build("original-dutch")  # warm the schema, the grammar and the built-in files
    print(f"{'case':48} {'size':>9} {'time':>8} {'peak':>9} {'diags':>6} {'output':>8}  codes")
    for name, make in CASES.items():
        if words and not any(w in name for w in words):
            continue
        text = make()
        start = time.perf_counter()
        codes, output = _run(text, folder)
        elapsed = time.perf_counter() - start
        tracemalloc.start()
        _run(text, folder)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        size = len(text.encode("utf-8"))
        print(f"{name:48} {size / 1024:7.0f}KB {elapsed:7.3f}s {peak / MIB:7.1f}MB {len(codes):6} "
              f"{output / 1024:6.0f}KB  {' '.join(sorted(set(codes)))}",
              flush=True)
    for leftover in folder.iterdir():
        leftover.unlink()
    os.rmdir(folder)


if __name__ == "__main__":
    main(sys.argv[1:])
