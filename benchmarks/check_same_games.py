"""Same seed, same game: fingerprints of many seeded games, to compare two engine versions.

    python benchmarks/check_same_games.py --write before.json     # on the reference version
    python benchmarks/check_same_games.py --check before.json     # after a change: exit 1 on any difference
    python benchmarks/check_same_games.py --installed --require-compiled --check before.json  # the compiled build

For every built-in ruleset and example house rule of both games (Targui with
4 players, Targi with its 2) it plays ``--games`` seeded games three ways and
hashes everything a user could notice: uniform random play through
``legal_actions()``/``apply_action()`` (every legal list in order, every chance
outcome list, the history where the game keeps one, the final ``to_json()``),
the random bot and the greedy bot through ``engine.play`` with an event log
(every event, the final ``to_json()``), and a few clones, JSON round trips and
observations along the way. ``--game`` plays one game's rulesets only. A file
written before Targi was fingerprinted is still checked: only the keys it has
are compared. Not a test of speed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if "--installed" not in sys.argv:  # this checkout's targui; with --installed, the interpreter's own
    sys.path.insert(0, str(ROOT))

from targui_dsl import load_ruleset  # noqa: E402
from targui_dsl.agents import make_agent  # noqa: E402
from targui_dsl.engine.loop import play  # noqa: E402
from targui_dsl.frontend.resolve import resolve  # noqa: E402
from targui_dsl.gamelog.events import EventLog  # noqa: E402
from targui_dsl.games import game_of  # noqa: E402

EXAMPLES = sorted(str(p) for p in (ROOT / "rulesets" / "examples").glob("*.yaml"))
#: Each game's built-in rulesets and example house rules, and the players its games are fingerprinted with.
VARIANTS = {
    "targui": ["original-dutch", "swedish-12", "updated-treasury"]
    + [p for p in EXAMPLES if (resolve(p).data or {}).get("game", "targui") == "targui"],
    "targi": ["targi"] + [p for p in EXAMPLES if (resolve(p).data or {}).get("game") == "targi"],
}
PLAYERS = {"targui": 4, "targi": 2}


def dump(value: object) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode()


def new_state(ruleset, seed: int, log=None, **options):
    game = game_of(ruleset).new_game(ruleset, players=PLAYERS[ruleset.game], seed=seed, **options)
    return game.new_initial_state(log=log)


def legal_way(ruleset, seed: int) -> str:
    h = hashlib.sha256()
    rng = random.Random(seed * 7919 + 1)
    state = new_state(ruleset, seed)
    step = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        h.update(dump([state.current_player(), state.phase_name, legal, state.legal_actions_mask().count(1)]))
        if step % 37 == 0:  # copies and saves must play on identically
            h.update(dump(state.clone().to_json()))
            h.update(dump(type(state).from_json(ruleset, state.to_json()).legal_actions()))
            h.update(state.observation_string(state.current_player()).encode())
            h.update(dump(state.observation_tensor(state.current_player())))
            h.update(dump([state.action_to_string(a) for a in legal]))
        state.apply_action(rng.choice(legal))
        step += 1
    if hasattr(state, "history"):  # Targi keeps none: its legal lists above are the history
        h.update(dump(state.history()))
    h.update(dump(state.to_json()))
    h.update(dump([state.scores(), state.winners(), state.returns()]))
    return h.hexdigest()


def chance_way(ruleset, seed: int) -> str:
    """Explicit chance: every chance node's outcomes and probabilities."""
    h = hashlib.sha256()
    rng = random.Random(seed * 104729 + 3)
    state = new_state(ruleset, seed, explicit_chance=True)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            h.update(dump(outcomes))
            state.apply_action(rng.choice(outcomes)[0])
        else:
            legal = state.legal_actions()
            h.update(dump(legal))
            state.apply_action(rng.choice(legal))
    h.update(dump(state.to_json()))
    return h.hexdigest()


def bot_way(ruleset, seed: int, kind: str) -> str:
    log = EventLog()
    state = new_state(ruleset, seed, log=log)
    play(state, [make_agent(kind, seed * 8 + s, ruleset.game) for s in range(PLAYERS[ruleset.game])])
    events = [e for e in log.events or [] if e.get("type") != "header"]
    h = hashlib.sha256(dump(events))
    h.update(dump(state.to_json()))
    return h.hexdigest()


def bot_nolog_way(ruleset, seed: int, kind: str) -> str:
    state = new_state(ruleset, seed)
    play(state, [make_agent(kind, seed * 8 + s, ruleset.game) for s in range(PLAYERS[ruleset.game])])
    return hashlib.sha256(dump(state.to_json())).hexdigest()


def fingerprints(games: int, which: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for variant in [v for game in which for v in VARIANTS[game]]:
        ruleset = load_ruleset(variant)
        name = Path(variant).stem
        for seed in range(games):
            out[f"{name}/legal/{seed}"] = legal_way(ruleset, seed)
            out[f"{name}/random/{seed}"] = bot_way(ruleset, seed, "random")
            out[f"{name}/random-nolog/{seed}"] = bot_nolog_way(ruleset, seed, "random")
            if seed % 4 == 0:
                out[f"{name}/greedy/{seed}"] = bot_way(ruleset, seed, "greedy")
                out[f"{name}/chance/{seed}"] = chance_way(ruleset, seed)
        print(f"{name}: done", file=sys.stderr)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--game", choices=sorted(VARIANTS), help="only this game's rulesets (default: both games')")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", type=Path)
    group.add_argument("--check", type=Path)
    parser.add_argument("--installed", action="store_true",
                        help="play the targui installed in this interpreter, not this checkout's")
    parser.add_argument("--require-compiled", action="store_true",
                        help="exit 2 unless the engine's modules are the compiled build (setup.py, TARGUI_COMPILE=1)")
    args = parser.parse_args()
    from targui_dsl.games.targui import flow, state

    compiled = not flow.__file__.endswith(".py") and not state.__file__.endswith(".py")
    print(f"targui from {Path(flow.__file__).parent} ({'compiled' if compiled else 'pure Python'})", file=sys.stderr)
    if args.require_compiled and not compiled:
        print("the engine's modules are not compiled", file=sys.stderr)
        return 2
    got = fingerprints(args.games, [args.game] if args.game else sorted(VARIANTS, reverse=True))
    if args.write:
        args.write.write_text(json.dumps(got, indent=0, sort_keys=True))
        print(f"{len(got)} fingerprints written to {args.write}")
        return 0
    want = json.loads(args.check.read_text())
    if args.game:  # the other game's keys of the file were not played
        names = {Path(variant).stem for variant in VARIANTS[args.game]}
        want = {key: value for key, value in want.items() if key.split("/")[0] in names}
    differ = sorted(k for k in want if got.get(k) != want[k])
    print(f"{len(want)} fingerprints compared, {len(differ)} differ"
          + (": " + ", ".join(differ[:10]) if differ else ""))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
