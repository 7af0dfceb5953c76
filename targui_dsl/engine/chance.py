"""A small seeded random generator whose whole state is one integer.

splitmix64 (Steele, Lea and Flood, 2014): one 64-bit word of state, a fixed
increment and an output mix.  The state is a plain ``int``, so cloning a game
state copies it for free, JSON holds it exactly, and the sequence is the
same on every Python version (unlike :mod:`random`, whose algorithms and
seeding may change).
"""

from __future__ import annotations

from typing import Final

MASK64: Final = (1 << 64) - 1
GOLDEN: Final = 0x9E3779B97F4A7C15
MIX_A: Final = 0xBF58476D1CE4E5B9  # the output mix's multipliers
MIX_B: Final = 0x94D049BB133111EB


def mix64(z: int) -> int:
    """The splitmix64 output function: a bijection on 64-bit words."""
    z &= MASK64
    z = ((z ^ (z >> 30)) * MIX_A) & MASK64
    z = ((z ^ (z >> 27)) * MIX_B) & MASK64
    return z ^ (z >> 31)


def seed_state(seed: int) -> int:
    """The generator state for a user seed (any int, negative too)."""
    return mix64(seed & MASK64)


def derive_seed(seed: int, index: int) -> int:
    """A seed for sub-stream ``index`` (game ``index`` of a batch): stable and well spread."""
    return mix64((seed & MASK64) ^ mix64((index + 1) * GOLDEN))


def next_u64(state: int) -> tuple[int, int]:
    """(new state, 64 random bits)."""
    state = (state + GOLDEN) & MASK64
    return state, mix64(state)


def draw_limit(n: int) -> int:
    """The largest multiple of ``n`` below 2**64: draws at or above it are redrawn."""
    if n <= 0:
        raise ValueError("below() needs n >= 1")
    return (1 << 64) - ((1 << 64) % n)


#: :func:`draw_limit(n) <draw_limit>` for n below 256 (0 for n = 0): what the engine draws among at
#: every turn (a round's stack, a deck, a deal pool) is that small, and a table read is cheaper than
#: the 64-bit remainder.
LIMITS: Final = tuple(0 if n == 0 else (1 << 64) - ((1 << 64) % n) for n in range(256))


def below(state: int, n: int, limit: int = 0) -> tuple[int, int]:
    """(new state, a uniform integer in 0..n-1), without modulo bias. ``limit`` is
    :func:`draw_limit(n) <draw_limit>` when the caller keeps it (a die drawn again and again)."""
    if not limit:
        limit = LIMITS[n] if 0 < n < 256 else draw_limit(n)
    # next_u64() and mix64() inlined: the engine draws here at every die and reveal
    while True:
        state = (state + GOLDEN) & MASK64
        bits = ((state ^ (state >> 30)) * MIX_A) & MASK64
        bits = ((bits ^ (bits >> 27)) * MIX_B) & MASK64
        bits ^= bits >> 31
        if bits < limit:
            return state, bits % n
