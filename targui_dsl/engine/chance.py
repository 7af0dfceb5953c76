"""A small seeded random generator whose whole state is one integer.

splitmix64 (Steele, Lea and Flood, 2014): one 64-bit word of state, a fixed
increment and an output mix.  The state is a plain ``int``, so cloning a game
state copies it for free, JSON holds it exactly, and the sequence is the
same on every Python version (unlike :mod:`random`, whose algorithms and
seeding may change).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from targui_dsl.engine.native import compiled

if TYPE_CHECKING:  # only annotations name it (a machine word where mypyc compiles this module)
    from mypy_extensions import i64

#: Whether this module runs compiled (the build of setup.py's COMPILED): :func:`below` then draws on
#: machine words (:func:`below_words`), which make the same draws as the big-int formulas below.
NATIVE: Final = compiled(__file__)

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
    if NATIVE and 0 < n < WORD_LIMIT:
        return below_words(state, n)
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


# The same generator on 32-bit halves, for the compiled build. Compiled, a value over 2**62 is a
# heap object and each operation on it a call (the big-int formulas above spent a quarter of the
# compiled engine's time); here every value, every product included, fits a signed 64-bit word, so mypyc
# keeps them in machine words (i64) and the plain interpreter computes the very same numbers
# (tests/test_chance.py holds the two to each other on both builds).
M32: Final[i64] = 0xFFFFFFFF
GOLDEN_HI: Final[i64] = GOLDEN >> 32
GOLDEN_LO: Final[i64] = GOLDEN & 0xFFFFFFFF
MIX_A_HI: Final[i64] = MIX_A >> 32
MIX_A_LO: Final[i64] = MIX_A & 0xFFFFFFFF
MIX_B_HI: Final[i64] = MIX_B >> 32
MIX_B_LO: Final[i64] = MIX_B & 0xFFFFFFFF
HALF: Final = 1 << 63
TWO64: Final = 1 << 64
#: :func:`below_words` draws among fewer than this many (its remainders' products stay in a word).
WORD_LIMIT: Final = 1 << 31


def low_product(x: i64, y: i64) -> i64:
    """(x * y) mod 2**32 for x, y below 2**32, each product below 2**48."""
    return ((x & 0xFFFF) * y + ((((x >> 16) * y) & 0xFFFF) << 16)) & M32


def word_of(state: int) -> i64:
    """The word a game's record keeps for a state (0 <= state < 2**64). Compiled, its two's
    complement: a signed machine word, which compiled code keeps as a C integer where a state
    above 2**62 is a heap object. Plain Python keeps the state itself (what its big-int draws
    take and give: a conversion at every draw made plain games slower); every reader masks a
    word to its 64 bits or reads it through :func:`state_of`, so either form is the same state.
    With :func:`state_of`, the one home of the conversion."""
    return state - TWO64 if NATIVE and state >= HALF else state


def state_of(word: i64) -> int:
    """The state (0..2**64-1) a record's word stands for (:func:`word_of`; either form)."""
    return int(word) + TWO64 if word < 0 else int(word)


def below_word(word: i64, n: int) -> tuple[i64, int]:
    """:func:`below` on a state kept as its word (:func:`word_of`): (the new word, a uniform
    integer in 0..n-1), the same draws."""
    if NATIVE and 0 < n < WORD_LIMIT:
        return draw_words(word, n)
    state, drawn = below(state_of(word), n)
    return word_of(state), drawn


def below_words(state: int, n: int) -> tuple[int, int]:
    """:func:`below` for 0 < n < :data:`WORD_LIMIT`, on 32-bit halves: the same draws."""
    word, drawn = draw_words(state - TWO64 if state >= HALF else state, n)
    return state_of(word), drawn


def draw_words(word: i64, n: int) -> tuple[i64, int]:
    """:func:`below_word` for 0 < n < :data:`WORD_LIMIT`, on 32-bit halves."""
    high: i64 = (word >> 32) & M32
    low: i64 = word & M32
    size: i64 = n
    # 2**32 % n, and 2**64 % n: a draw among the top 2**64 % n words is redrawn
    # (draw_limit(n) = 2**64 - 2**64 % n)
    unit: i64 = 0x100000000 % size
    spare: i64 = unit * unit % size
    while True:
        low += GOLDEN_LO
        high = (high + GOLDEN_HI + (low >> 32)) & M32
        low &= M32
        # mix64() on the word's halves (bits_high, bits_low), each below 2**32, inlined (compiled,
        # its own function's call and returned pair were 8% of a draw's instructions)
        # z ^= z >> 30, then z *= MIX_A (mod 2**64): low * MIX_A_LO in 16-bit pieces, the cross terms mod 2**32
        bits_low = low ^ (((high << 2) & M32) | (low >> 30))
        bits_high = high ^ (high >> 30)
        part = (bits_low & 0xFFFF) * MIX_A_LO
        upper = (bits_low >> 16) * MIX_A_LO
        part += (upper & 0xFFFF) << 16
        bits_high = ((part >> 32) + (upper >> 16) + low_product(bits_low, MIX_A_HI)
                     + low_product(bits_high, MIX_A_LO)) & M32
        bits_low = part & M32
        # z ^= z >> 27, then z *= MIX_B
        bits_low ^= ((bits_high << 5) & M32) | (bits_low >> 27)
        bits_high ^= bits_high >> 27
        part = (bits_low & 0xFFFF) * MIX_B_LO
        upper = (bits_low >> 16) * MIX_B_LO
        part += (upper & 0xFFFF) << 16
        bits_high = ((part >> 32) + (upper >> 16) + low_product(bits_low, MIX_B_HI)
                     + low_product(bits_high, MIX_B_LO)) & M32
        bits_low = part & M32
        # z ^= z >> 31
        bits_low ^= ((bits_high << 1) & M32) | (bits_low >> 31)
        bits_high ^= bits_high >> 31
        if not spare or bits_high != M32 or bits_low < 0x100000000 - spare:
            word = ((high - ((high >> 31) << 32)) << 32) | low  # the high half signed
            return word, int(((bits_high % size) * unit + bits_low) % size)
