"""A hand-written Targui engine: the anchor that targui's speed is measured against.

Written from docs/rules/targui.md alone, the way someone writing one Targui
program by hand would: the three built-in variants as constants, plain lists
indexed by board position, the cards as functions, Python's ``random`` for
the dice, the shuffles and the policy. It knows nothing of targui (it imports
none of it) and plays a uniformly random policy: at each decision, a uniform
choice among the legal options (a decision with one option is taken without
asking, as targui takes forced steps). A compound move is decided as targui
decides it, a step at a time (the move, then how many camels; the cell to buy
on, then how many), so both play the same policy and games of the same length.

    python benchmarks/anchor_targui.py [--variant original-dutch] [--players 4] [--games 100]

``benchmarks/bench_anchor.py`` times it against targui's public path.
"""

from __future__ import annotations

import argparse
import random
import time

# ------------------------------------------------------------------------------------------
# The components and the board (rules sections 1 and 2)
# ------------------------------------------------------------------------------------------
SETTLEMENT, SALT_MINE, GUELTA, REG, ERG, FESH_FESH, MOUNTAIN, CHOTT = range(8)
ECONOMIC = (4, 5, 3, 2, 1, 0, 0, 0)
STRATEGIC = (4, 5, 3, 0, 0, 2, 1, 0)
DEALT = [GUELTA] * 6 + [REG] * 12 + [ERG] * 12 + [FESH_FESH] * 8 + [MOUNTAIN] * 6 + [CHOTT] * 4
KEL_AHAGGAR, KEL_AJJER, KEL_ILBAKAN, KEL_RESS = range(4)  # the tribes, seats take them in this order
BOX = 450
START_CAMELS = START_CASH = 10

NUMBERING = (
    (43, 44, 45, 46, 47, 48, 49),
    (42, 21, 22, 23, 24, 25, 26),
    (41, 20, 7, 8, 9, 10, 27),
    (40, 19, 6, 1, 2, 11, 28),
    (39, 18, 5, 4, 3, 12, 29),
    (38, 17, 16, 15, 14, 13, 30),
    (37, 36, 35, 34, 33, 32, 31),
)
SECTORS = (
    (20, 21, 22, 41, 42, 43, 44, 45),
    (10, 24, 25, 26, 27, 47, 48, 49),
    (16, 17, 18, 35, 36, 37, 38, 39),
    (12, 13, 14, 29, 30, 31, 32, 33),
)
THREE_PLAYER_POSITIONS = ((47, 48, 49), (31, 32, 33), (39, 40, 41))


def _neighbours() -> list[list[int]]:
    """Per position 1..49 (index 0 unused), the positions of its 8-neighbourhood."""
    near: list[list[int]] = [[] for _ in range(50)]
    for row in range(7):
        for col in range(7):
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    if (dr or dc) and 0 <= row + dr < 7 and 0 <= col + dc < 7:
                        near[NUMBERING[row][col]].append(NUMBERING[row + dr][col + dc])
    return [sorted(n) for n in near]


NEIGHBOURS = _neighbours()


# ------------------------------------------------------------------------------------------
# The variants (rules section 7)
# ------------------------------------------------------------------------------------------
class Variant:
    def __init__(self, tribal_cards: int, double_from: int, fortune_per_round: int, deck: list[int],
                 buy_on_salt_mine: bool, treasury: bool, tie_break: str) -> None:
        self.tribal_cards = tribal_cards
        self.double_from = double_from
        self.fortune_per_round = fortune_per_round
        self.deck = deck
        self.buy_on_salt_mine = buy_on_salt_mine
        self.treasury = treasury  # also: cash lost before the levy, and the score is treasury + cash
        self.tie_break = tie_break


VARIANTS = {
    "original-dutch": Variant(5, 6, 1, list(range(1, 17)), True, False, "camels+cash"),
    "swedish-12": Variant(5, 6, 1, [1] + list(range(6, 17)), False, False, "cash+camels"),
    "updated-treasury": Variant(3, 4, 2, list(range(1, 17)), False, True, "camels"),
}


class Anchor:
    """One game of Targui, played to its end by :meth:`play` with a uniformly random policy."""

    def __init__(self, variant: Variant, players: int, rng: random.Random) -> None:
        self.v = variant
        self.players = players
        self.rng = rng
        self.kind = [-1] * 50  # per position; index 0 unused
        self.owner = [-1] * 50
        self.camels = [0] * 50
        self.box = BOX
        self.cash = [0] * players
        self.treasury = [0] * players
        self.settlement = [0] * players
        self.tribe = list(range(players))  # seat s plays tribe s (Kel Ahaggar, Kel Ajjer, ...)
        self.territories = [0] * players  # how many cells each seat owns
        self.strategic = list(STRATEGIC)
        self.economic = list(ECONOMIC)
        self.stack: list[int] = []  # the round's stack: a seat (tribal card) or -card number
        self.deck: list[int] = []
        self.round = 0
        self.over = False
        self.winners: list[int] = []
        self.decisions = 0

    # the policy: a uniform choice among the legal options; one option is no decision
    def choose(self, options: list) -> object:
        if len(options) == 1:
            return options[0]
        self.decisions += 1
        return self.rng.choice(options)

    def choose_number(self, low: int, high: int) -> int:
        if low == high:
            return low
        self.decisions += 1
        return self.rng.randint(low, high)

    # ---------------------------------------------------------------------------------- setup
    def setup(self) -> None:
        rng = self.rng
        if self.players == 3:
            allowed = [list(p) for p in THREE_PLAYER_POSITIONS]
        else:
            free = [0, 1, 2, 3]
            allowed = []
            for _ in range(self.players):
                sector = self.choose(free)
                free.remove(sector)
                allowed.append(list(SECTORS[sector]))
        cards = DEALT[:]
        rng.shuffle(cards)
        self.kind[1] = SALT_MINE
        self.kind[2:] = cards
        taken: set[int] = set()
        for seat in range(self.players):
            cell = self.choose([c for c in allowed[seat] if c not in taken])
            taken.add(cell)
            self.kind[cell] = SETTLEMENT
            self.settlement[seat] = cell
            self.owner[cell] = seat
            self.territories[seat] = 1
            self.camels[cell] = START_CAMELS
            self.box -= START_CAMELS
            self.cash[seat] = START_CASH
        self.deck = self.v.deck[:]
        rng.shuffle(self.deck)
        self.round = 1

    # ---------------------------------------------------------------------------------- rounds
    def play(self) -> None:
        self.setup()
        v = self.v
        while not self.over:
            die = self.rng.randint(1, 6)
            double = die >= v.double_from
            tribal = 1 if double else min(die, v.tribal_cards)
            stack = [seat for seat in range(self.players) if self.territories[seat] for _ in range(tribal)]
            for _ in range(min(v.fortune_per_round, len(self.deck))):
                stack.append(-self.deck.pop())
            self.rng.shuffle(stack)
            self.stack = stack
            while stack and not self.over:
                top = stack.pop()
                if top >= 0:
                    self.turn(top, double)
                else:
                    self.card(-top)
            if not self.over:
                self.end_round()

    def end_round(self) -> None:
        if self.v.treasury:
            self.cash = [0] * self.players
        for seat in range(self.players):
            if self.territories[seat] and self.owner[self.settlement[seat]] == seat:
                self.cash[seat] += self.levy(seat)
        if not self.deck:
            self.finish()
        self.strategic = list(STRATEGIC)
        self.economic = list(ECONOMIC)
        self.round += 1

    def levy(self, seat: int) -> int:
        owner, kind, economic = self.owner, self.kind, self.economic
        return sum(economic[kind[c]] for c in range(1, 50) if owner[c] == seat)

    def player_camels(self, seat: int) -> int:
        owner, camels = self.owner, self.camels
        return sum(camels[c] for c in range(1, 50) if owner[c] == seat)

    def finish(self) -> None:
        standing = [s for s in range(self.players) if self.territories[s]]
        eligible = [s for s in standing if self.owner[self.settlement[s]] == s]
        keys = {}
        for s in eligible:
            score = self.treasury[s] + self.cash[s] if self.v.treasury else self.levy(s)
            tie = self.player_camels(s) + (0 if self.v.tie_break == "camels" else self.cash[s])
            keys[s] = (score, tie)
        if keys:
            best = max(keys.values())
            self.winners = [s for s in eligible if keys[s] == best]
        else:
            self.winners = standing
        self.over = True

    # ---------------------------------------------------------------------------------- a turn
    def turn(self, seat: int, double: bool) -> None:
        for _ in range(2 if double else 1):
            if self.v.treasury and self.cash[seat] > 0:
                amount = self.choose_number(0, self.cash[seat])
                self.cash[seat] -= amount
                self.treasury[seat] += amount
            self.movement(seat)
            if self.over:
                return
            self.adding(seat)

    def movement(self, seat: int) -> None:
        owner, camels, kind = self.owner, self.camels, self.kind
        options: list[tuple[int, int] | None] = [None]  # None: no move
        for source in range(1, 50):
            if owner[source] == seat and camels[source]:
                for target in NEIGHBOURS[source]:
                    if kind[target] != CHOTT:
                        options.append((source, target))
        move = self.choose(options)
        if move is None:
            return
        source, target = move  # type: ignore[misc]
        holder = owner[target]
        if holder >= 0 and holder != seat and camels[target]:
            self.attack(seat, source, target)
            return
        count = self.choose_number(1, camels[source])
        camels[source] -= count
        camels[target] += count
        if holder != seat:
            self.take(seat, target)

    def attack(self, seat: int, source: int, target: int) -> None:
        camels, kind, rng = self.camels, self.kind, self.rng
        while True:
            loss = min((rng.randint(1, 6) + self.strategic[kind[source]]) // 2, camels[target])
            camels[target] -= loss
            self.box += loss
            if not camels[target]:
                count = self.choose_number(1, camels[source])
                camels[source] -= count
                camels[target] += count
                self.take(seat, target)
                return
            loss = min((rng.randint(1, 6) + self.strategic[kind[target]]) // 2, camels[source])
            camels[source] -= loss
            self.box += loss
            if not camels[source]:
                return  # the attack failed
            if self.choose(["again", "give up"]) == "give up":
                return

    def take(self, seat: int, cell: int) -> None:
        """``cell`` becomes ``seat``'s: its owner may be out, and the last one standing wins."""
        previous = self.owner[cell]
        self.owner[cell] = seat
        self.territories[seat] += 1
        if previous < 0:
            return
        self.territories[previous] -= 1
        if self.territories[previous]:
            return
        self.stack[:] = [card for card in self.stack if card != previous]  # its tribal cards are void
        standing = [s for s in range(self.players) if self.territories[s]]
        if len(standing) == 1:
            self.winners = standing
            self.over = True

    def adding(self, seat: int) -> None:
        limit = min(self.cash[seat], self.box)
        if limit <= 0:
            return
        owner, kind = self.owner, self.kind
        options = [None] + [c for c in range(1, 50) if owner[c] == seat
                            and (kind[c] != SALT_MINE or self.v.buy_on_salt_mine)]
        cell = self.choose(options)
        if cell is None:
            return
        count = self.choose_number(1, limit)
        self.cash[seat] -= count
        self.box -= count
        self.camels[cell] += count  # type: ignore[index]

    # ---------------------------------------------------------------------------------- the cards
    def remove(self, cell: int, count: int) -> None:
        if count <= 0:
            return
        lost = min(count, self.camels[cell])
        self.camels[cell] -= lost
        self.box += lost

    def add(self, cell: int, count: int) -> None:
        added = min(count, self.box)
        self.camels[cell] += added
        self.box -= added

    def card(self, number: int) -> None:
        kind, owner, camels = self.kind, self.owner, self.camels
        if number == 1:
            self.remove(1, camels[1])
        elif number <= 5:  # 2 Kel Ress, 3 Kel Ilbakan, 4 Kel Ahaggar, 5 Kel Ajjer
            tribe = (KEL_RESS, KEL_ILBAKAN, KEL_AHAGGAR, KEL_AJJER)[number - 2]
            for seat in range(self.players):
                home = self.settlement[seat]
                if self.tribe[seat] == tribe and self.territories[seat] and owner[home] == seat:
                    self.add(home, 10)
        elif number == 6:
            for c in range(1, 50):
                if kind[c] == ERG:
                    self.remove(c, 3)
        elif number == 7:
            for c in range(1, 50):
                if kind[c] == GUELTA:
                    self.remove(c, camels[c] - 15)
        elif number == 8:
            for seat in range(self.players):
                if self.territories[seat] and owner[self.settlement[seat]] == seat:
                    self.cash[seat] += 10
        elif number == 9:
            for c in range(1, 50):
                if kind[c] == SETTLEMENT:
                    self.remove(c, camels[c] // 2)
        elif number == 10:
            for c in range(1, 50):
                if camels[c]:
                    self.remove(c, 1)
        elif number == 11:
            for c in range(1, 50):
                if kind[c] == REG:
                    self.remove(c, 5)
        elif number == 12:
            for c in range(1, 50):
                if kind[c] == GUELTA and owner[c] >= 0:
                    self.add(c, 5)
        elif number == 13:
            self.strategic[ERG] = 3
        elif number == 14:
            for c in range(1, 50):
                if kind[c] == GUELTA:
                    self.remove(c, 10)
        elif number == 15:
            for seat in range(self.players):
                if self.territories[seat] and any(owner[c] == seat and kind[c] == SETTLEMENT for c in range(1, 50)):
                    self.cash[seat] = 0
        else:  # 16
            self.economic[MOUNTAIN] = 3


def play_games(variant: str, players: int, games: int, seed: int = 0) -> tuple[int, int]:
    """Play ``games`` games; (decisions, rounds) summed over them."""
    rng = random.Random(seed)
    decisions = rounds = 0
    for _ in range(games):
        game = Anchor(VARIANTS[variant], players, rng)
        game.play()
        decisions += game.decisions
        rounds += game.round
    return decisions, rounds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="original-dutch", choices=sorted(VARIANTS))
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    start = time.process_time()
    decisions, rounds = play_games(args.variant, args.players, args.games, args.seed)
    seconds = time.process_time() - start
    print(f"{args.variant} {args.players}p: {args.games} games, {args.games / seconds:.1f} games/s, "
          f"{decisions / seconds:.0f} decisions/s, {decisions / args.games:.1f} decisions/game, "
          f"{rounds / args.games:.1f} rounds/game")


if __name__ == "__main__":
    main()
