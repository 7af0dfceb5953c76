"""Start-up: CPU time of whole `targui` processes (`--help`, `validate` of each built-in ruleset and
of examples), this tree side by side with another revision (issue 22 item 6: within 100 ms).

    python benchmarks/bench_startup.py [--baseline f1e86cd] [--rounds 7] [--instructions] [--few]

Each measurement is one fresh process, ``python -m targui_cli.main ARGS`` (what the installed
``targui`` script runs), and its CPU time is user + system as the kernel counts it for the child
(``getrusage(RUSAGE_CHILDREN)``): start-up, imports, the command, exit. The trees run
interleaved, round after round, so a drift in the machine's speed hits both alike; every tree's
modules are byte-compiled first (an installed package's are). With ``--baseline REV`` that
revision (unpacked by ``git archive``) is timed too. Prints the median CPU ms of each command in
each tree and their ratio. Not a test: nothing here asserts a time.

With ``--instructions`` each command runs once per tree under valgrind's callgrind and the
instructions it executed are printed instead: the same count on a loaded machine as on an idle
one (CPU times on a machine shared with other jobs drift by a fifth and more).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import baseline

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

#: What is timed: the group's help, each built-in ruleset, each example house rule (every one, or with
#: ``--few`` two: one of each game), `python -c pass`.
COMMANDS: list[tuple[str, list[str]]] = [
    ("--help", ["--help"]),
    *[(f"validate {name}", ["validate", name])
      for name in ("original-dutch", "swedish-12", "updated-treasury", "targi")],
    *[(f"validate examples/{path.name}", ["validate", f"rulesets/examples/{path.name}"])
      for path in sorted((ROOT / "rulesets" / "examples").glob("*.yaml"))],
]
FEW = ("examples/harsh-desert.yaml", "examples/targi-rich-start.yaml")


def unpack(revision: str, into: Path) -> Path:
    """The tree of ``revision`` of this repository under ``into``, with its `targui_cli` link."""
    tree = baseline.unpack(revision, into)
    (tree / ".dev").mkdir(exist_ok=True)
    (tree / ".dev" / "targui_cli").symlink_to("../cli")
    return tree


def _env(tree: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE")}
    env["PYTHONPATH"] = f"{tree}{os.pathsep}{tree / '.dev'}"
    return env


def cpu_ms(tree: Path, args: list[str]) -> float:
    """CPU milliseconds (user + system) of one `targui ARGS` process run in ``tree``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    argv = [sys.executable, "-c", "pass"] if not args else [sys.executable, "-m", "targui_cli.main", *args]
    done = subprocess.run(argv, cwd=tree, env=_env(tree), capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{tree}: targui {' '.join(args)} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    return 1000 * ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))


def instructions(tree: Path, args: list[str]) -> int:
    """Instructions executed by one `targui ARGS` process run in ``tree`` (valgrind's callgrind)."""
    argv = [sys.executable, "-c", "pass"] if not args else [sys.executable, "-m", "targui_cli.main", *args]
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv], cwd=tree,
                          env=_env(tree), capture_output=True, text=True)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"{tree}: valgrind targui {' '.join(args)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", help="also time this git revision (e.g. 55055c8)")
    parser.add_argument("--rounds", type=int, default=7, help="runs of each command in each tree (median shown)")
    parser.add_argument("--instructions", action="store_true",
                        help="count each command's instructions once under valgrind (callgrind) instead")
    parser.add_argument("--few", action="store_true", help="of the examples, only " + " and ".join(FEW))
    args = parser.parse_args()
    commands = [("python -c pass", []), *[(label, command) for label, command in COMMANDS
                                          if not args.few or "examples/" not in label or label.endswith(FEW)]]
    with tempfile.TemporaryDirectory(prefix="targui-startup-") as tmp:
        trees = [("this tree", ROOT)]
        if args.baseline:
            trees.append((args.baseline, unpack(args.baseline, Path(tmp) / "baseline")))
        for _, tree in trees:  # byte-compile every module a command imports, as an install has them
            for _, command in commands:
                cpu_ms(tree, command)
        if args.instructions:
            _print_instructions(trees, commands)
            return
        times: dict[tuple[str, str], list[float]] = {}
        for _ in range(args.rounds):
            for label, command in commands:
                for name, tree in trees:
                    times.setdefault((name, label), []).append(cpu_ms(tree, command))
    names = [name for name, _ in trees]
    width = max(len(label) for label, _ in commands)
    print(f"CPU ms (user+sys) of one process, median of {args.rounds}, interleaved")
    print(f"{'command':<{width}}  " + "  ".join(f"{name:>10}" for name in names)
          + (f"  {'ratio':>6}" if len(names) == 2 else ""))
    for label, _ in commands:
        medians = [statistics.median(times[(name, label)]) for name in names]
        ratio = f"  {medians[1] / medians[0]:>5.2f}x" if len(medians) == 2 and medians[0] else ""
        print(f"{label:<{width}}  " + "  ".join(f"{m:>10.0f}" for m in medians) + ratio)



def _print_instructions(trees: list[tuple[str, Path]], commands: list[tuple[str, list[str]]]) -> None:
    names = [name for name, _ in trees]
    width = max(len(label) for label, _ in commands)
    print("Millions of instructions of one process (valgrind --tool=callgrind)")
    print(f"{'command':<{width}}  " + "  ".join(f"{name:>10}" for name in names)
          + (f"  {'ratio':>6}" if len(names) == 2 else ""))
    for label, command in commands:
        counts = [instructions(tree, command) / 1e6 for _, tree in trees]
        ratio = f"  {counts[1] / counts[0]:>5.2f}x" if len(counts) == 2 and counts[0] else ""
        print(f"{label:<{width}}  " + "  ".join(f"{c:>10.0f}" for c in counts) + ratio)


if __name__ == "__main__":
    main()
