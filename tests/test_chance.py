"""The seeded generator draws the same numbers plain and compiled.

Plain, ``below`` runs the big-int formulas and ``below_words`` is checked
against them; in the compiled build (.ci/run runs this file on it) ``below``
itself runs on machine words, so both are checked against splitmix64 written
out here from its definition, and the known first output of state 0.
"""

from __future__ import annotations

import random

import pytest

from targui_dsl.engine import chance
from targui_dsl.engine.chance import GOLDEN, WORD_LIMIT, below, below_words, seed_state

MASK = (1 << 64) - 1


def reference_below(state: int, n: int) -> tuple[int, int]:
    """splitmix64 (Steele, Lea, Flood 2014) and a rejection draw, on Python's unbounded ints."""
    limit = (1 << 64) - (1 << 64) % n
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        z ^= z >> 31
        if z < limit:
            return state, z % n


def unmix(z: int) -> int:
    """The state whose output word is ``z`` (splitmix64's mix is a bijection)."""
    z ^= (z >> 31) ^ (z >> 62)
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & MASK
    z ^= (z >> 27) ^ (z >> 54)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & MASK
    return z ^ (z >> 30) ^ (z >> 60)


EDGE_STATES = [0, 1, MASK, 1 << 63, (1 << 63) - 1, (1 << 32) - 1, 1 << 32, (1 << 64) - GOLDEN,
               (1 << 64) - GOLDEN - 1, (1 << 64) - GOLDEN + 1]
SEEDS = [0, 1, -1, MASK, 1 << 63, -(1 << 63), 12345, 2**64 + 7]
SIZES = [1, 2, 3, 5, 6, 7, 8, 12, 16, 45, 100, 255, 256, 257, 1000, 65536, 1_000_003,
         WORD_LIMIT - 1, WORD_LIMIT, 1 << 40, (1 << 64) - 1]


def test_the_first_output_of_state_zero_is_splitmix64s():
    _, word = below(0, 1 << 64)
    assert word == 0xE220A8397B1DCDAF


@pytest.mark.parametrize("n", SIZES)
def test_every_draw_is_splitmix64s_on_edge_states_and_seeds(n: int):
    rng = random.Random(n)
    starts = EDGE_STATES + [seed_state(seed) for seed in SEEDS] + [rng.getrandbits(64) for _ in range(60)]
    for start in starts:
        ours = words = theirs = start
        for _ in range(12):
            ours, drawn = below(ours, n)
            theirs, expected = reference_below(theirs, n)
            assert (ours, drawn) == (theirs, expected), (start, n)
            if n < WORD_LIMIT:
                words, drawn = below_words(words, n)
                assert (words, drawn) == (theirs, expected), (start, n)


@pytest.mark.parametrize("n", [3, 5, 6, 7, 100, 1_000_003, WORD_LIMIT - 1])
def test_a_word_in_the_biased_top_is_drawn_again(n: int):
    spare = (1 << 64) % n  # the top `spare` words would favour the low outcomes: redrawn
    for word, redrawn in ((MASK, True), ((1 << 64) - spare, True), ((1 << 64) - spare - 1, False)):
        start = (unmix(word) - GOLDEN) & MASK  # the next output word is `word`
        assert reference_below(start, 1 << 64)[1] == word
        expected = reference_below(start, n)
        assert below(start, n) == expected
        assert below_words(start, n) == expected
        steps = 2 if redrawn else 1
        assert expected[0] == (start + steps * GOLDEN) & MASK
        if not redrawn:
            assert expected[1] == word % n


def played(variant: str, seeds: range) -> list[dict]:
    from targui_dsl import load_ruleset
    from targui_dsl.games.targui.game import Game

    rs, rng, out = load_ruleset(variant), random.Random(1), []
    for seed in seeds:
        state = Game(rs, players=3, seed=seed).new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        out.append(state.to_json())
    return out


@pytest.mark.parametrize("variant", ["original-dutch", "updated-treasury"])
def test_the_machine_word_draws_play_the_same_games(monkeypatch, variant: str):
    # compiled, the deal and the dice draw through below() on machine words (flow's NATIVE
    # roads); forced here in the interpreter, the same seeds play the same games
    from targui_dsl.games.targui import flow

    big_ints = played(variant, range(3))
    monkeypatch.setattr(chance, "NATIVE", True)
    monkeypatch.setattr(flow, "NATIVE", True)
    assert played(variant, range(3)) == big_ints


@pytest.mark.parametrize("n", [1, 3, 6, 45, 1_000_003, WORD_LIMIT - 1, WORD_LIMIT, 1 << 40])
def test_a_word_draws_what_its_state_draws(monkeypatch, n: int):
    # a record keeps the state as a word (chance.word_of): compiled a signed machine word, plain
    # the state itself; both forms, in the interpreter and on machine words, draw what the state does
    # (compiled, NATIVE is compiled in: only the machine words, which are all a word may be there)
    rng = random.Random(n)
    for start in EDGE_STATES + [rng.getrandbits(64) for _ in range(40)]:
        expected = reference_below(start, n)
        signed = start - (1 << 64) if start >= 1 << 63 else start
        for native in (True,) if chance.NATIVE else (False, True):
            monkeypatch.setattr(chance, "NATIVE", native)
            word = chance.word_of(start)
            assert word == (signed if native else start)
            assert chance.state_of(word) == start
            for form in {word, signed} if native else {start, signed}:
                after, drawn = chance.below_word(form, n)
                assert (chance.state_of(after), drawn) == expected, (start, n, native)
                assert -(1 << 63) <= after < (1 << 63) or not native
