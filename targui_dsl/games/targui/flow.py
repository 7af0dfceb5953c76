"""The flow: what may be decided now, one step applied, and the run on to the next decision.

Every decision's options are listed once (:func:`list_legal`); applying an
action checks only that it is in that list, and a decision with a single
legal action is taken by the engine itself (``forced``), found from the same
list. :func:`advance` is the one loop that resolves chance and forced steps;
:func:`apply_step` and :func:`apply_chance` hand each step to its rule, a
handler in :mod:`.rules_setup`, :mod:`.rules_round` or :mod:`.rules_fight`
that returns the phase the game goes on in, and set it. (An effect that ends
the game or pauses for a choice sets its phase at once, for the effects and
hooks after it to see; a handler that ran effects returns that phase.)

Chance comes from the splitmix64 generator in ``record.rng``, from queued
outcomes (``forced_outcomes``), or, with ``explicit_chance``, from the caller.
The deck and the round stack are drawn lazily: drawing the next card uniformly
from what is left is the same lottery as shuffling first.
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import accumulate
from typing import Callable, Final, Sequence

from targui_dsl.effects.runtime import MAX_VALUE
from targui_dsl.engine.chance import GOLDEN, LIMITS, MASK64, MIX_A, MIX_B, NATIVE, below, below_word, draw_limit
from targui_dsl.games.targui.actions import (
    AGAIN,
    COUNT_BASE,
    COUNT_IDS,
    COUNT_RADIX,
    GIVE_UP,
    PASS,
    SECTOR_BASE,
    ActionSpace,
    IllegalAction,
    count_digits,
    digit_range,
    plain_number,
    words,
)
from targui_dsl.games.targui.ownership import finish, set_owner
from targui_dsl.games.targui.phases import (
    ACTION_SHIFT,
    ATTACK_CHOICE,
    ATTACK_DIE,
    BUY_CELL,
    BUY_COUNT,
    CHANCE,
    DEAL,
    DEFEND_DIE,
    DEPOSIT,
    EFFECT_CHOICE,
    EFFECT_ROLL,
    ENTER,
    IS_CHANCE,
    IS_COUNT,
    LABELS,
    MOVE,
    MOVE_COUNT,
    OVER,
    PHASE_SHIFT,
    REVEAL,
    ROUND_DIE,
    SECTOR,
    SETTLE,
    TERMINAL,
    Phase,
)
from targui_dsl.games.targui.record import TarguiRecord
from targui_dsl.games.targui.rules_fight import attacker_throws, defender_throws, deposit, end_attack, enter
from targui_dsl.games.targui.rules_round import (
    FIRST_STEP,
    STEP_MOVEMENT,
    answer_effect,
    end_adding,
    end_round,
    end_turn,
    next_from_stack,
    run_card,
    start_movement,
    start_round,
    start_turn,
)
from targui_dsl.games.targui.rules_setup import deal, dealt, pick_sector, settle
from targui_dsl.games.targui.runtime import runtime_of
from targui_dsl.games.targui.told import (
    CHANCE_CARD,
    CHANCE_DIE,
    TELLS_CHANCE,
    TELLS_DECISION_AGAIN,
    TELLS_DECISION_ATTACK,
    TELLS_DECISION_BUY,
    TELLS_DECISION_CHOOSE,
    TELLS_DECISION_DEPOSIT,
    TELLS_DECISION_ENTER,
    TELLS_DECISION_GIVE,
    TELLS_DECISION_MOVE,
    TELLS_DECISION_PASS,
    TELLS_DECISION_SECTOR,
    TELLS_DECISION_SETTLE,
)

# what advance() does at a node: list the options, count them, draw chance, stop
_LISTED: Final = 0
_COUNTED: Final = 1
_DRAWN: Final = 2
_ENDED: Final = 3
_NODE: Final = tuple(_DRAWN if IS_CHANCE[p] else _COUNTED if IS_COUNT[p] else _ENDED if p == Phase.OVER else _LISTED
              for p in Phase)
# whose node: the turn's player; the seat setting up; an effect's chooser
_TURN: Final = -2
_SETUP: Final = -3
_CHOOSER: Final = -5
_WHO: Final = tuple(CHANCE if IS_CHANCE[p] else TERMINAL if p == Phase.OVER else _SETUP if p <= Phase.SETTLE
             else _CHOOSER if p == Phase.EFFECT_CHOICE else _TURN for p in Phase)
#: Per phase: whether the player whose turn it is decides (then current_player() is its seat).
TURN_DECIDES: Final = tuple(who == _TURN for who in _WHO)


# ----------------------------------------------------------------------------------------
# Reading the node
# ----------------------------------------------------------------------------------------
def current_player(r: TarguiRecord) -> int:
    who = _WHO[r.phase]
    if who == _TURN:
        return r.player
    if who == _CHOOSER:
        return int(r.effect.request.player)
    return r.setup_seat if who == _SETUP else who


def defended(r: TarguiRecord, cell: int) -> bool:
    """Whether moving into ``cell`` is an attack for the player whose turn it is:
    another player owns it and has camels on it."""
    holder = r.owner[cell]
    return holder >= 0 and holder != r.player and r.camels[cell] > 0


def buy_limit(r: TarguiRecord) -> int:
    """How many camels the player whose turn it is can buy now (cash and box allowing)."""
    price = r.game.camel_price
    return min(r.cash[r.player] // price, r.box) if price > 0 else r.box


def settle_cells(r: TarguiRecord, seat: int | None = None) -> list[int]:
    """Cells ``seat`` (default: the one settling now) may put its settlement on, in cell order."""
    game = r.game
    seat = r.setup_seat if seat is None else seat
    if game.picks_sectors:
        sector = r.sector[seat]
        cells: Sequence[int] = game.sector_cells[sector] if sector >= 0 else ()
    else:
        cells = game.seating.choices[seat]
    taken = set(r.settlement)
    return sorted(c for c in cells if c not in taken)


def count_bounds(r: TarguiRecord) -> tuple[int, int]:
    """The digits the count step under way allows (the count itself below 256)."""
    if r.count_hi < COUNT_RADIX:  # a count of one step: its bounds are the digits
        return r.count_lo, r.count_hi
    return digit_range(r.count_lo, r.count_hi, r.count_prefix, r.count_digits)


def choice_ids(r: TarguiRecord) -> dict[int, int]:
    """At an effect's choice: action id -> the option it answers (a cell, a seat; a number, a
    kind's index or yes = 1 / no = 0 by its place in the options, as a count's ids)."""
    request = r.effect.request
    space = r.game.actions
    if request.kind == "territory":
        return {space.cell(cell): cell for cell in request.options}
    if request.kind == "player":
        return {space.seat(seat): seat for seat in request.options}
    # int(): a yes/no answer is kept (and saved) as a plain whole number
    return {COUNT_BASE + i: int(option) for i, option in enumerate(request.options)}


def choice_kind(space: ActionSpace, action: int) -> str:
    """What the id ``action`` answers at an effect's choice (see :func:`choice_ids`): a
    territory, a player or a number. A kind or a yes/no is answered by its place, as a number
    is, so it reads as a number here: a seat's history hides it where it would hide a number
    (the safe side; the table, which knows the question, tells it)."""
    if space.cell_base <= action < space.pair_base:
        return "territory"
    return "player" if action >= space.seat_base else "number"


def chance_outcomes(r: TarguiRecord) -> list[tuple[int, float]]:
    """At a chance node: every outcome id with its probability, sorted; elsewhere empty."""
    phase = r.phase
    if not IS_CHANCE[phase]:
        return []
    if phase == DEAL:
        pool = r.deal_pool
        total = sum(pool)
        return [(kind, n / total) for kind, n in enumerate(pool) if n]
    if phase == REVEAL:
        turns = r.stack_turns
        total = sum(turns) + r.stack_cards
        outcomes = [(seat, n / total) for seat, n in enumerate(turns) if n]
        if r.stack_cards:
            counts: dict[int, int] = {}
            for card in r.deck:
                counts[card] = counts.get(card, 0) + 1
            share = r.stack_cards / total / len(r.deck)
            players = r.game.players
            outcomes.extend((players + card, n * share) for card, n in sorted(counts.items()))
        return outcomes
    sides = r.effect.request.sides if phase == EFFECT_ROLL else r.game.die_sides
    return [(d, 1 / sides) for d in range(sides)]


def list_legal(r: TarguiRecord) -> list[int]:
    """The legal ids at this node: the one definition of every decision's options."""
    phase = r.phase
    if phase == MOVE:
        # a move (or an attack) from every owned cell with camels to every passable neighbour
        legal = [PASS]
        camels, move_ids = r.camels, r.move_ids
        for source in r.cells_of[r.player]:
            if camels[source]:
                legal += move_ids[source]
        return legal
    if IS_COUNT[phase]:
        low, high = count_bounds(r)
        return COUNT_IDS[low:high + 1]
    if phase == BUY_CELL:
        # camels may be bought when cash and box allow (buy_limit(r) > 0: a camel in the box and
        # cash for one at its price, which 0 or below any cash always is), onto own cells of a buyable kind
        if r.box <= 0 or r.cash[r.player] < r.game.camel_price:
            return [PASS]
        # the player's own cells of a buyable kind: kept in buy_ids as ownership changes
        return [PASS] + r.buy_ids[r.player]
    if phase == ATTACK_CHOICE:
        return [AGAIN, GIVE_UP]
    if phase == EFFECT_CHOICE:
        return sorted(choice_ids(r))
    if IS_CHANCE[phase]:
        return [outcome for outcome, _ in chance_outcomes(r)]
    if phase == SECTOR:
        taken = set(r.sector)
        return [SECTOR_BASE + i for i in range(len(r.game.sector_ids)) if i not in taken]
    if phase == SETTLE:
        base = r.game.actions.cell_base
        return [base + cell for cell in settle_cells(r)]
    return []  # OVER


def legal_actions(r: TarguiRecord) -> list[int]:
    """The legal ids, sorted, as a new list (a count's range is listed afresh, never kept)."""
    legal = r.legal
    if legal is None:
        if IS_COUNT[r.phase]:
            if r.count_hi < COUNT_RADIX:  # a count of one step: its bounds are the digits
                return COUNT_IDS[r.count_lo:r.count_hi + 1]
            low, high = count_bounds(r)
            return COUNT_IDS[low:high + 1]
        legal = r.legal = list_legal(r)
    return legal[:]


# ----------------------------------------------------------------------------------------
# The steps of a round that follow a handler (rules_round.STEP_*), in their order there
# ----------------------------------------------------------------------------------------
_STEPS: Final[tuple[Callable[[TarguiRecord], int], ...]] = (
    start_movement, next_from_stack, end_turn,
    lambda r: end_round(r, 0), lambda r: end_round(r, 1), lambda r: end_round(r, 2), lambda r: end_round(r, 3),
)


def run_steps(r: TarguiRecord, result: int) -> int:
    """The phase a handler's result leads to: a step is run (each returns a phase or the
    next step) until a phase comes."""
    while result >= FIRST_STEP:
        result = _STEPS[result - FIRST_STEP](r)
    return result


# ----------------------------------------------------------------------------------------
# Chance
# ----------------------------------------------------------------------------------------
def outcome_text(r: TarguiRecord, outcome: int) -> str:
    game = r.game
    phase = r.phase
    if phase == DEAL:
        return f"deal {game.kind_ids[outcome]}"
    if phase == REVEAL:
        if outcome < game.players:
            return f"turn {game.tribe_ids[outcome]}"
        return f"card {game.card_ids[outcome - game.players]}"
    return f"die {outcome + 1}"


def outcome_from_words(r: TarguiRecord, w: list[str], text: str) -> int:
    game = r.game
    phase = r.phase
    verb, args = w[0], w[1:]
    outcome: int | None = None
    if len(args) == 1:
        if verb == "die" and phase in (ROUND_DIE, ATTACK_DIE, DEFEND_DIE, EFFECT_ROLL):
            outcome = plain_number(args[0], text) - 1
        elif verb == "deal" and phase == DEAL:
            outcome = game.kind_by_id.get(args[0])
        elif verb == "turn" and phase == REVEAL:
            outcome = game.seat_of_tribe_id.get(args[0])
        elif verb == "card" and phase == REVEAL:
            card = game.card_index.get(args[0])
            outcome = None if card is None else game.players + card
    if outcome is None or outcome not in legal_actions(r):
        raise IllegalAction(f"`{text.strip()}` is not a possible outcome of this chance node ({LABELS[phase]})")
    return outcome


def sample_chance(r: TarguiRecord) -> int:
    """Draw the outcome of this chance node from the generator (the same draws, in the
    same order, as every earlier version, so seeds keep their games)."""
    phase = r.phase
    if phase == DEAL:
        # the first kind whose running total exceeds the draw: bisect_right over the running
        # totals (in C) picks what a loop subtracting would
        totals = list(accumulate(r.deal_pool))
        if not totals[-1]:
            raise AssertionError("empty deal pool")
        r.rng_word, drawn = below_word(r.rng_word, totals[-1])
        return bisect_right(totals, drawn)
    # a reveal draws among the stack's cards, a die among its sides: chance.below(rng, n, limit)
    # inlined (the same draws), these being the game's most frequent draws; compiled,
    # below_word() on machine words is the faster
    game = r.game
    if NATIVE:
        r.rng_word, drawn = below_word(r.rng_word, r.stack_left if phase == REVEAL else game.die_sides)
    else:
        if phase == REVEAL:
            n = r.stack_left
            limit = LIMITS[n] if n < 256 else draw_limit(n)
        else:
            n, limit = game.die_sides, game.die_limit
        rng: int = r.rng_word  # (plain, a record's word is the state itself: chance.word_of)
        while True:
            rng = (rng + GOLDEN) & MASK64
            bits = ((rng ^ (rng >> 30)) * MIX_A) & MASK64
            bits = ((bits ^ (bits >> 27)) * MIX_B) & MASK64
            bits ^= bits >> 31
            if bits < limit:
                break
        r.rng_word = rng  # plain, a record's word is the state itself (chance.word_of)
        drawn = bits % n
    if phase != REVEAL:
        return drawn
    # the draw is the first seat whose running total of turns exceeds it (past them all: a card)
    seat = 0
    for turns in r.stack_turns:
        if drawn < turns:
            return seat
        drawn -= turns
        seat += 1
    if NATIVE:  # (an if, not a conditional expression: compiled, one made a tuple and an int object a card)
        r.rng_word, drawn = below_word(r.rng_word, len(r.deck))
    else:  # plain, a record's word is the state itself: below(), without below_word's two calls
        r.rng_word, drawn = below(r.rng_word, len(r.deck))
    return game.players + r.deck[drawn]


def deal_all(r: TarguiRecord) -> None:
    """The deal, every card of it, drawn from the generator: what sample_chance and apply_chance
    do card by card (the same draws, history, events, in the same order), in one loop (a game
    deals 45 cards), rules_setup.deal() inlined: the card onto the next position, the pool less one."""
    game = r.game
    pool, history, entry = r.deal_pool, r.history, DEAL << PHASE_SHIFT  # encode_step(kind, DEAL, -1)
    told = r.tell_bits & TELLS_CHANCE
    deals = r.ruleset_kinds.deal if told else ()  # the deal's kind by the kind dealt
    # the pool's cards in kind order, one entry per card: the card at the drawn index is the kind
    # bisect_right over the running totals picks, and it leaves the list as it leaves the pool
    cards = [kind for kind, count in enumerate(pool) for _ in range(count)]
    kinds, cells, at, end = r.kind, game.deal_cells, r.deal_next, len(game.deal_cells)
    rng = r.rng_word  # the generator's word (compiled road)
    state: int = rng  # the plain road's state (plain, a record's word is the state itself: chance.word_of)
    while at < end:
        total = len(cards)
        if not total:
            raise AssertionError("empty deal pool")
        if NATIVE:  # compiled: below_word() on machine words, not the big-int formulas inlined
            rng, drawn = below_word(rng, total)
        else:
            limit = LIMITS[total] if total < 256 else draw_limit(total)
            while True:  # chance.below(state, total), inlined: the same draws
                state = (state + GOLDEN) & MASK64
                bits = ((state ^ (state >> 30)) * MIX_A) & MASK64
                bits = ((bits ^ (bits >> 27)) * MIX_B) & MASK64
                bits ^= bits >> 31
                if bits < limit:
                    break
            drawn = bits % total
        kind = cards.pop(drawn)
        history.append((kind << ACTION_SHIFT) | entry)
        if told:  # the sink told of the card finds the generator past it
            r.rng_word = rng if NATIVE else state  # (plain, a record's word is the state itself: chance.word_of)
            r.told((deals[kind], r.round))
        kinds[cells[at]] = kind
        pool[kind] = pool[kind] - 1  # (not `-=`: see apply_step)
        at += 1
        r.deal_next = at
    r.rng_word = rng if NATIVE else state
    r.phase = dealt(r)


def apply_chance(r: TarguiRecord, outcome: int) -> None:
    phase = r.phase
    r.history.append((outcome << ACTION_SHIFT) | (phase << PHASE_SHIFT))  # encode_step(outcome, phase, -1)
    if r.tell_bits & TELLS_CHANCE:  # the outcome's event (its action outcome_text's words)
        game = r.game
        if phase == REVEAL:
            if outcome < game.players:
                r.told((r.seat_kinds.reveal[outcome], r.round))
            else:
                r.told((CHANCE_CARD, r.round, game.card_ids[outcome - game.players]))
        else:
            if phase == DEAL:
                r.told((r.ruleset_kinds.deal[outcome], r.round))
            else:  # a die of the ruleset's sides by its face; an effect's roll (any sides) with its face told
                faces = r.ruleset_kinds.die.get(phase, ())
                r.told((faces[outcome], r.round) if outcome < len(faces)
                       else (CHANCE_DIE[phase], r.round, outcome + 1))
    # in order of frequency: a reveal at every turn and card, then the deal, the fight's dice
    if phase == REVEAL:
        players = r.game.players
        if outcome < players:
            turns = r.stack_turns
            turns[outcome] = turns[outcome] - 1  # (not `-=`: see apply_step)
            r.stack_left -= 1
            after = start_turn(r, outcome)
            # the turn's usual next step is the movement phase: run here, without the dispatch
            r.phase = start_movement(r) if after == STEP_MOVEMENT else run_steps(r, after)
        else:
            card = outcome - players
            r.stack_cards -= 1
            r.stack_left -= 1
            r.deck.remove(card)
            r.turned.append(card)
            if run_card(r, card) and r.phase != OVER:
                after = next_from_stack(r)
                r.phase = after if after < FIRST_STEP else run_steps(r, after)
    elif phase == DEAL:
        r.phase = deal(r, outcome)
    elif phase == ATTACK_DIE:
        r.phase = attacker_throws(r, outcome + 1)
    elif phase == DEFEND_DIE:
        r.phase = defender_throws(r, outcome + 1)
    elif phase == ROUND_DIE:
        after = start_round(r, outcome + 1)
        r.phase = after if after < FIRST_STEP else run_steps(r, after)
    else:  # EFFECT_ROLL
        r.phase = run_steps(r, answer_effect(r, outcome + 1))


# ----------------------------------------------------------------------------------------
# Running on to the next decision
# ----------------------------------------------------------------------------------------
def advance(r: TarguiRecord) -> None:
    """Resolve chance and forced decisions until a real decision, an explicit chance
    node or the end."""
    while True:
        node = _NODE[r.phase]
        if node == _LISTED:
            legal = list_legal(r)
            if len(legal) != 1:
                r.legal = legal
                return
            r.forced_decisions += 1
            apply_step(r, legal[0], True)
        elif node == _COUNTED:
            if r.count_hi < COUNT_RADIX:  # a count of one step: its bounds are the digits
                low, high = r.count_lo, r.count_hi
            else:
                low, high = count_bounds(r)
            r.legal = None  # a range: listed on demand
            if low != high:
                return
            r.forced_decisions += 1
            apply_step(r, COUNT_BASE + low, True)
        elif node == _DRAWN:
            if r.forced_outcomes:
                item = r.forced_outcomes.pop(0)
                r.legal = None
                outcome = item - 1 if isinstance(item, int) else outcome_from_words(r, words(item), item)
                if isinstance(item, int) and outcome not in legal_actions(r):
                    raise IllegalAction(f"die {item} is not a possible throw")
            elif r.game.explicit_chance:
                r.legal = None
                return
            elif r.phase == DEAL:
                deal_all(r)
                continue
            else:
                outcome = sample_chance(r)
            apply_chance(r, outcome)
        else:
            r.legal = []
            return


def apply_step(r: TarguiRecord, action: int, forced: bool) -> None:
    """Apply one decision step (known legal). The branches are in order of frequency."""
    phase = r.phase
    actor = r.player if phase >= DEPOSIT else r.setup_seat
    if phase == EFFECT_CHOICE:
        actor = r.effect.request.player
    r.history.append((action << ACTION_SHIFT) | (phase << PHASE_SHIFT) | (actor + 1))  # encode_step(), inlined
    if phase == MOVE:
        if action == PASS:
            if r.tell_bits & TELLS_DECISION_PASS:
                r.told((r.seat_kinds.pass_[forced][actor], r.round))
            r.source = r.target = -1  # start_adding(), inlined
            r.phase = BUY_CELL
            return
        game = r.game
        source, target = game.pair_source[action], game.pair_target[action]
        r.source, r.target = source, target
        holder = r.owner[target]
        if holder >= 0 and holder != actor and r.camels[target] > 0:  # defended: an attack
            if r.tell_bits & TELLS_DECISION_ATTACK:
                pos = game.position_of_cell
                r.told((r.seat_kinds.attack[forced][actor], r.round, pos[source], pos[target]))
            r.phase = ATTACK_DIE
        else:  # begin_count(r, MOVE_COUNT, 1, camels, forced), inlined: its most frequent caller
            camels = r.camels[source]
            r.phase = MOVE_COUNT
            r.count_lo, r.count_hi, r.count_prefix = 1, camels, 0
            r.count_digits = 1 if camels < COUNT_RADIX else count_digits(camels)
            r.compound_forced = forced
    elif IS_COUNT[phase]:
        value = r.count_prefix * COUNT_RADIX + action - COUNT_BASE
        forced = forced and r.compound_forced
        if r.count_digits > 1:
            r.count_prefix = value
            r.count_digits -= 1
            r.compound_forced = forced
        elif phase == MOVE_COUNT:  # the move: `value` camels from source to target
            source, target = r.source, r.target
            if r.tell_bits & TELLS_DECISION_MOVE:
                pos = r.game.position_of_cell
                r.told((r.seat_kinds.move[forced][actor], r.round, pos[source], pos[target], value))
            # (an item set from its own value, not `-=`: compiled, an augmented list item was a
            # generic number operation on objects; plain Python, with the list a local, no dearer)
            herds = r.camels
            herds[source] = herds[source] - value
            herds[target] = herds[target] + value
            if r.owner[target] != actor:
                if set_owner(r, target, actor):
                    finish(r, runtime_of(r), "last_standing")
                if r.phase == OVER:
                    return
            r.source = r.target = -1  # start_adding(), inlined
            r.phase = BUY_CELL
        elif phase == BUY_COUNT:  # the purchase: `value` camels onto the chosen cell
            game = r.game
            cell = r.target
            if r.tell_bits & TELLS_DECISION_BUY:
                r.told((r.seat_kinds.buy[forced][actor], r.round, value, game.position_of_cell[cell]))
            cost = value * game.camel_price
            cash = r.cash
            cash[actor] = cash[actor] - cost
            spent = r.spent[actor] + cost  # clamp(), inlined: never negative
            r.spent[actor] = spent if spent < MAX_VALUE else MAX_VALUE
            herds = r.camels
            herds[cell] = herds[cell] + value
            r.box -= value
            after = end_adding(r)  # a double turn's second movement phase is run without the dispatch
            r.phase = (after if after < FIRST_STEP else start_movement(r) if after == STEP_MOVEMENT
                       else run_steps(r, after))
        elif phase == ENTER:
            if r.tell_bits & TELLS_DECISION_ENTER:
                r.told((r.seat_kinds.enter[forced][actor], r.round, value))
            r.phase = enter(r, value)
        else:
            if r.tell_bits & TELLS_DECISION_DEPOSIT:  # `deposit 0` too (logs before format 2 lack it)
                r.told((r.seat_kinds.deposit[forced][actor], r.round, value))
            r.phase = deposit(r, value)
    elif phase == BUY_CELL:
        if action == PASS:
            if r.tell_bits & TELLS_DECISION_PASS:
                r.told((r.seat_kinds.pass_[forced][actor], r.round))
            after = end_adding(r)  # a double turn's second movement phase is run without the dispatch
            r.phase = (after if after < FIRST_STEP else start_movement(r) if after == STEP_MOVEMENT
                       else run_steps(r, after))
        else:  # begin_count(r, BUY_COUNT, 1, buy_limit(r), forced), inlined
            r.target = action - r.game.cell_base
            limit = buy_limit(r)
            r.phase = BUY_COUNT
            r.count_lo, r.count_hi, r.count_prefix = 1, limit, 0
            r.count_digits = 1 if limit < COUNT_RADIX else count_digits(limit)
            r.compound_forced = forced
    elif phase == ATTACK_CHOICE:
        if action == AGAIN:
            if r.tell_bits & TELLS_DECISION_AGAIN:
                r.told((r.seat_kinds.again[forced][actor], r.round))
            r.phase = ATTACK_DIE
        else:
            if r.tell_bits & TELLS_DECISION_GIVE:
                r.told((r.seat_kinds.give_up[forced][actor], r.round))
            r.phase = end_attack(r, "given up")
    elif phase == EFFECT_CHOICE:
        answer = choice_ids(r)[action]
        if r.tell_bits & TELLS_DECISION_CHOOSE:
            r.told((r.seat_kinds.choose[forced][actor], r.round, choice_text(r, answer)))
        r.phase = run_steps(r, answer_effect(r, answer))
    elif phase == SECTOR:
        index = action - SECTOR_BASE
        if r.tell_bits & TELLS_DECISION_SECTOR:
            r.told((r.seat_kinds.sector[forced][actor], r.round, r.game.sector_ids[index]))
        r.phase = pick_sector(r, index)
    else:  # SETTLE
        cell = r.game.actions.cell_of(action)
        if r.tell_bits & TELLS_DECISION_SETTLE:
            r.told((r.seat_kinds.settle[forced][actor], r.round, r.game.position_of_cell[cell]))
        r.phase = settle(r, cell)


def choice_text(r: TarguiRecord, answer: int) -> str:
    """An effect's answer as a player writes it: a position, a tribe, a kind, yes or no, or a number."""
    kind = r.effect.request.kind
    if kind == "territory":
        return str(r.game.position_of_cell[answer])
    if kind == "player":
        return r.game.tribe_ids[answer]
    if kind == "kind":
        return r.game.kind_ids[answer]
    if kind == "yes/no":
        return "yes" if answer else "no"
    return str(answer)


# ----------------------------------------------------------------------------------------
# A loaded record's node: what the decision under way reads is there
# ----------------------------------------------------------------------------------------
_TURN_PHASES = frozenset({DEPOSIT, MOVE, MOVE_COUNT, ATTACK_DIE, DEFEND_DIE, ATTACK_CHOICE, ENTER, BUY_CELL, BUY_COUNT})
_PAIR_PHASES = frozenset({MOVE_COUNT, ATTACK_DIE, DEFEND_DIE, ATTACK_CHOICE, ENTER})


def check_node(r: TarguiRecord) -> None:
    """``ValueError`` naming the field unless the decision under way has what it reads: a seat
    to decide, the move's or attack's cells, a count's range as the rules set it."""
    phase, seats = r.phase, r.game.players
    if phase in _TURN_PHASES and r.player < 0:
        raise ValueError(f"saved state field `player`: a turn's decision ({LABELS[phase]}) without a player")
    if phase in (SECTOR, SETTLE) and r.setup_seat >= seats:
        raise ValueError(f"saved state field `setup_seat`: no seat {r.setup_seat} to set up")
    if phase in _PAIR_PHASES:
        if r.source < 0 or r.target < 0 or r.game.pair_id[r.source].get(r.target) is None:
            raise ValueError(f"saved state field `source`: a move or an attack ({LABELS[phase]}) without its cells")
        if r.owner[r.source] != r.player:
            raise ValueError("saved state field `source`: a move or an attack from a cell the player does not own")
    if not IS_COUNT[phase]:
        return
    if phase == BUY_COUNT:
        if r.target < 0 or r.game.cell_base + r.target not in r.buy_ids[r.player]:
            raise ValueError("saved state field `target`: a purchase without the player's cell to buy on")
        lo, hi = 1, buy_limit(r)
    elif phase == DEPOSIT:
        lo, hi = 0, r.cash[r.player]
    else:
        lo, hi = 1, r.camels[r.source]
    if (r.count_lo, r.count_hi) != (lo, hi):
        raise ValueError(f"saved state field `count_hi`: a count of {r.count_lo}..{r.count_hi} where the rules "
                         f"give {lo}..{hi}")
    if hi < COUNT_RADIX and (r.count_digits, r.count_prefix) != (1, 0):
        raise ValueError("saved state field `count_digits`: a count below 256 is one step")
    if not 1 <= r.count_digits <= count_digits(hi):
        raise ValueError(f"saved state field `count_digits`: {r.count_digits} digits left of a count up to {hi}")
    low, high = digit_range(lo, hi, r.count_prefix, r.count_digits)
    if low > high:
        raise ValueError(f"saved state field `count_prefix`: no count in {lo}..{hi} starts with {r.count_prefix}")
