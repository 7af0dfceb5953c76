"""Every example in the README and docs/ that shows a targui command with its output is run,
and its output compared: a change that alters a figure fails here until the docs follow.

The convention (README.md, "Examples that are checked"):

- A fenced block whose info string is ``console`` holds commands and their output. A line
  ``$ targui ARGS`` is a command (``# ...`` at its end is a comment); the lines after it,
  up to the next ``$`` line, are what it prints (standard output and error, as a terminal
  shows them).
- In the output, a line ``...`` (or ``... a note``) stands for any number of lines left
  out; everything else must match line by line (trailing spaces aside).
- A prompt line ``Name [N]> TEXT`` is a person typing TEXT: the command is fed those lines
  on standard input, in order, and what it prints is compared with them echoed after their
  prompts, as on a terminal.
- A fenced block whose info string has ``file=NAME`` (```` ```yaml file=my-rule.yaml ````)
  is a file: it is written as NAME before the document's commands run.
- Each document's commands run in order in a fresh folder of their own holding a copy of
  ``rulesets/`` (so ``rulesets/examples/salt-caravan.yaml`` is found), without colour, 80 columns wide.
  What varies from run to run is normalised: timings and speeds, and that folder's path.

Commands without their output go in ``sh`` blocks, which are not run; showing a
``$ targui`` line anywhere but in a ``console`` block is refused here, so no output escapes
the check.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^( *)```([^\n]*)\n(.*?)^\1```[ \t]*$", re.M | re.S)  # indented in a list item too
ELISION = re.compile(r"^\s*\.\.\.(\s.*)?$")
PROMPT = re.compile(r"^(.*\[\d+\]> )(.*)$")
# what differs between two runs of the same command: wall and CPU time, speeds
TIMING = [
    (re.compile(r"played in [\d.]+ s \([^)]*\)"), "played in <time>"),
]


@dataclass
class Command:
    args: list[str]
    expected: list[str]
    line: int  # of the `$` line in the document


@dataclass
class Block:
    document: Path
    line: int
    commands: list[Command]

    @property
    def name(self) -> str:
        return f"{self.document.relative_to(ROOT).as_posix()}:{self.line}"


def fences(document: Path) -> list[tuple[str, str, int]]:
    """(info string, body without the fence's indentation, line of the opening fence) of every fenced block."""
    text = document.read_text(encoding="utf-8")
    found = []
    for m in FENCE.finditer(text):
        indent = m.group(1)
        body = "".join(line[len(indent):] if line.startswith(indent) else line.lstrip(" ")
                       for line in m.group(3).splitlines(keepends=True))
        found.append((m.group(2).strip(), body, text.count("\n", 0, m.start()) + 1))
    return found


def files_of(document: Path) -> dict[str, str]:
    found = {}
    for info, body, _ in fences(document):
        for word in info.split()[1:]:
            if word.startswith("file="):
                found[word[len("file="):]] = body
    return found


def parse_block(document: Path, body: str, line: int) -> Block:
    commands: list[Command] = []
    for number, text in enumerate(body.splitlines(), start=line + 1):
        if text.startswith("$ "):
            words = shlex.split(text[2:], comments=True)
            assert words and words[0] == "targui", f"{document.name}:{number}: a console block runs targui only"
            commands.append(Command(words[1:], [], number))
        else:
            assert commands, f"{document.name}:{number}: a console block starts with a `$ targui` line"
            commands[-1].expected.append(text)
    return Block(document, line, commands)


def blocks_of(document: Path) -> list[Block]:
    return [parse_block(document, body, line) for info, body, line in fences(document) if info == "console"]


BLOCKS = [block for document in DOCUMENTS for block in blocks_of(document)]


def normalise(lines: list[str], folder: Path) -> list[str]:
    out = []
    for text in lines:
        text = text.replace(str(folder) + os.sep, "").replace(str(folder), ".")
        for pattern, replacement in TIMING:
            text = pattern.sub(replacement, text)
        out.append(text.rstrip())
    return out


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether ``actual`` is ``expected`` with each elision line standing for any lines."""
    segments: list[list[str]] = [[]]
    for text in expected:
        if ELISION.match(text):
            segments.append([])
        else:
            segments[-1].append(text)
    if len(segments) == 1:
        return actual == expected
    first, *middle, last = segments
    if actual[:len(first)] != first or (last and actual[len(actual) - len(last):] != last):
        return False
    at, end = len(first), len(actual) - len(last)
    if end < at:
        return False
    for segment in middle:
        for start in range(at, end - len(segment) + 1):
            if actual[start:start + len(segment)] == segment:
                at = start + len(segment)
                break
        else:
            return False
    return True


def echo_typing(output: str, typed: list[str]) -> str:
    """What a terminal shows: each typed line after its prompt (``input()`` off a terminal echoes nothing)."""
    pieces, rest = [], output
    for text in typed:
        found = re.search(r"\[\d+\]> ", rest)
        if found is None:
            break
        pieces.append(rest[:found.end()] + text + "\n")
        rest = rest[found.end():]
    return "".join(pieces) + rest


def run_command(command: Command, folder: Path) -> list[str]:
    typed = [m.group(2) for m in map(PROMPT.match, command.expected) if m]
    env = {**os.environ, "NO_COLOR": "1", "TERM": "dumb", "COLUMNS": "80", "PYTHONUNBUFFERED": "1"}
    env.pop("TARGUI_DEBUG", None)
    result = subprocess.run([sys.executable, "-m", "targui_cli.main", *command.args], cwd=folder, env=env,
                            input="".join(t + "\n" for t in typed), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, timeout=900)
    return echo_typing(result.stdout, typed).splitlines()


@pytest.fixture(scope="module")
def folders(tmp_path_factory) -> dict[Path, Path]:
    """One folder per document, shared by its blocks in order (a log written by one is replayed by the next)."""
    made = {}
    for document in DOCUMENTS:
        folder = tmp_path_factory.mktemp(document.stem)
        shutil.copytree(ROOT / "rulesets", folder / "rulesets")
        for name, body in files_of(document).items():
            target = folder / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(body, encoding="utf-8")
        made[document] = folder
    return made


@pytest.mark.parametrize("block", BLOCKS, ids=[b.name for b in BLOCKS])
def test_the_documented_output_is_what_targui_prints(block: Block, folders):
    folder = folders[block.document]
    for command in block.commands:
        actual = normalise(run_command(command, folder), folder)
        expected = normalise(command.expected, folder)
        assert matches(expected, actual), (
            f"{block.document.name}:{command.line}: `targui {shlex.join(command.args)}` prints:\n"
            + "\n".join(actual))


def test_examples_are_checked_and_none_is_shown_unchecked():
    assert len(BLOCKS) >= 10  # the collector finds the examples (a changed convention would find none)
    for document in DOCUMENTS:
        for info, body, line in fences(document):
            if info != "console":
                assert not re.search(r"^\$ targui", body, re.M), (
                    f"{document.relative_to(ROOT)}:{line}: a `$ targui` example outside a console block is "
                    "never checked: make it a console block with its output, or drop the `$ ` for a sh block")


def test_the_matcher_elides_and_anchors():
    assert matches(["a", "...", "c"], ["a", "b", "b", "c"])
    assert matches(["a", "... (more rows)", "c", "..."], ["a", "c", "d"])
    assert not matches(["a", "...", "c"], ["a", "b", "c", "d"])
    assert not matches(["a", "c"], ["a", "b", "c"])
    assert not matches(["...", "x", "..."], ["a", "b"])
    assert matches(["...", "b"], ["a", "b"])
    assert echo_typing("Kel Ress [4]> ok\nKel Ress [4]> \n", ["pass"]) == "Kel Ress [4]> pass\nok\nKel Ress [4]> \n"
