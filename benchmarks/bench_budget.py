"""The step budget: how long a runaway effect runs before it is stopped, and
what the budget costs an effect that stays within it.

    python benchmarks/bench_budget.py [--ruleset original-dutch] [--repeat 3]

Runs compiled effects on a real game state (4 players, just after setup, on
the ruleset's board). Not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import time

from targui_dsl import load_ruleset
from targui_dsl.effects import compile_effect
from targui_dsl.effects.runtime import STEP_BUDGET, EffectBudgetExceeded
from targui_dsl.games.targui.game import Game
from targui_dsl.games.targui.names import environment


def nested(depth: int) -> str:
    """`depth` loops over the territories, one inside the other."""
    names = [f"t{i}" for i in range(depth)]
    opening = " ".join(f"for {name} in territories {{" for name in names)
    return f"{opening} {names[-1]}.camels += 0 {'}' * depth}"


def settled(ruleset):
    state = Game(ruleset, players=4, seed=1, explicit_chance=True).new_initial_state()
    while state.round == 0:
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(state.legal_actions()[0])
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="original-dutch")
    parser.add_argument("--repeat", type=int, default=3, help="best of this many runs")
    args = parser.parse_args()
    ruleset = load_ruleset(args.ruleset)
    env = environment({k.id: k.index for k in ruleset.kinds}, {t.id: t.index for t in ruleset.tribes})
    state = settled(ruleset)
    cells = ruleset.board.cells
    print(f"{args.ruleset}: {cells} territories, step budget {STEP_BUDGET}")
    print(f"{'loops nested':>12} {'steps needed':>14} {'outcome':>9} {'seconds':>9}")
    for depth in range(1, 7):
        code, problems = compile_effect(nested(depth), env)
        assert not problems, problems
        needed = sum(cells**level for level in range(1, depth + 1))
        best, outcome = float("inf"), "done"
        for _ in range(args.repeat):
            start = time.perf_counter()
            try:
                code.function(state)
                outcome = "done"
            except EffectBudgetExceeded:
                outcome = "stopped"
            best = min(best, time.perf_counter() - start)
        print(f"{depth:>12} {needed:>14} {outcome:>9} {best:>9.3f}")


if __name__ == "__main__":
    main()
