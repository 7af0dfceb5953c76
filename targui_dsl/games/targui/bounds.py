"""What the framework adapters (:mod:`targui_dsl.adapters`) ask of Targui: a bound on a
game's length, whether everything is open, and the one decision a player may repeat
without end (an attack goes on ``again`` until someone gives up).

The adapters know no game: they reach this module through
``GamePackage.adapter`` (an :class:`~targui_dsl.engine.protocol.AdapterHooks`).
"""

from __future__ import annotations

from targui_dsl.effects.runtime import MAX_CHOICES, MAX_VALUE
from targui_dsl.engine.protocol import AdapterHooks, RepeatRule
from targui_dsl.games.targui.actions import AGAIN, GIVE_UP, count_digits
from targui_dsl.games.targui.compiled import CompiledRuleset
from targui_dsl.games.targui.game import Game
from targui_dsl.games.targui.names import hook_runs
from targui_dsl.games.targui.phases import Phase
from targui_dsl.games.targui.state import GameState
from targui_dsl.games.targui.tensor import SeatTensor

__all__ = ["ADAPTER", "max_game_length", "perfect_information"]

_ATTACK = frozenset({Phase.ATTACK_DIE, Phase.DEFEND_DIE, Phase.ATTACK_CHOICE})


def max_game_length(ruleset: CompiledRuleset, players: int, again_limit: int) -> int:
    """An upper bound on the decisions (player actions, chance outcomes not counted) of
    one game, derived from the ruleset; OpenSpiel's ``max_game_length``.

    * setup: a sector per seat (when seats pick sectors) and a settlement per seat;
    * rounds: the deck drawn out at ``fortune_cards`` per round (a game also ends
      earlier when one player is left);
    * per round and seat, the most movement+adding cycles any die gives: a double turn
      is one turn of two cycles, otherwise ``min(die, tribal_cards)`` turns of one;
    * per cycle: a deposit (treasury variants) and the purchase count, each a count up
      to ``MAX_VALUE`` (every amount is capped there: at most 4 base-256 steps); the
      move (one step, ``pass`` included) and then either its count or an attack: at
      most ``again_limit + 1`` again/give-up decisions and the count that enters;
      the purchase cell or ``pass``;
    * effects that ask players to choose: a run of a card or a hook asks at most
      ``MAX_CHOICES`` times (past that it is stopped); runs: each round's cards and
      every hook as often as its moment comes (:func:`hook_runs`).
    """
    game = Game(ruleset, players=players)
    per = ruleset.fortune_cards_per_round  # at least 1: the checker refuses a deck that never runs out
    rounds = max(1, ruleset.rounds)  # an empty deck: the game ends with its first round
    setup = (players if game.picks_sectors else 0) + players
    count = count_digits(MAX_VALUE)  # steps of any count: every amount is capped at MAX_VALUE
    cycle = (count if ruleset.treasury else 0) + 1 + max(count, again_limit + 1 + count) + 1 + count
    turns = cycles = 0
    for die in range(1, ruleset.die_sides + 1):
        if die >= ruleset.double_turn_from:
            t, c = 1, 2
        else:
            t = min(die, ruleset.tribal_cards)
            c = t
        turns, cycles = max(turns, t), max(cycles, c)
    length = setup + rounds * players * cycles * cycle
    if game.effects_pause:
        runs = rounds * per + sum(len(snippets) * hook_runs(moment, rounds, players, turns)
                                  for moment, snippets in ruleset.hooks.items())
        length += runs * MAX_CHOICES
    return length


def perfect_information(ruleset: CompiledRuleset) -> bool:
    """Everything open: without a treasury (with one, other seats' cash and treasury are secret)."""
    return not ruleset.treasury


def _asks_again(state: GameState) -> bool:
    return state.phase == Phase.ATTACK_CHOICE


def _in_attack(state: GameState) -> bool:
    return state.phase in _ATTACK


ADAPTER = AdapterHooks(
    max_game_length=max_game_length,
    perfect_information=perfect_information,
    repeat=RepeatRule(again=AGAIN, stop=GIVE_UP, asks=_asks_again, within=_in_attack),
    tensor=SeatTensor,
)
