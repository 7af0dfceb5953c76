"""The rules as a state machine: phases, legal actions, and what each action does.

One phase at a time is current. Decision phases belong to a seat; chance
phases (the deal, dice, the next card of the round stack) are resolved by
the seeded generator, by queued forced outcomes, or, with
``explicit_chance``, by the caller as chance nodes. A decision phase whose
only legal action is forced (``pass`` with nothing else to do, ``enter 1``,
the last free sector) is applied at once and logged with ``"forced": true``.

The deck and the round stack are drawn lazily: drawing the next card
uniformly from what is left is the same lottery as shuffling first, and it
keeps both the state and the chance nodes small.
"""

from __future__ import annotations

from .actions import (
    AGAIN,
    ATTACK,
    BUY,
    CARD,
    DEAL,
    DEPOSIT,
    DIE,
    ENTER,
    GIVE_UP,
    MOVE,
    PASS,
    PASS_ACTION,
    SECTOR,
    SETTLE,
    TURN,
    Action,
    IllegalAction,
    parse_action,
)
from ..effects.runtime import clamp
from .chance import below

# Phases -----------------------------------------------------------------
(SETUP_SECTOR, SETUP_DEAL, SETUP_SETTLE, ROUND_DIE, REVEAL, MOVE_PHASE, ATTACK_DIE, DEFEND_DIE,
 ATTACK_CHOICE, ENTER_PHASE, ADD_PHASE, OVER) = range(12)
PHASE_NAMES = ("sector", "deal", "settle", "round_die", "reveal", "move", "attack_die", "defend_die",
               "attack_choice", "enter", "add", "over")
PHASE_BY_NAME = {name: i for i, name in enumerate(PHASE_NAMES)}
IS_CHANCE_PHASE = tuple(p in (SETUP_DEAL, ROUND_DIE, REVEAL, ATTACK_DIE, DEFEND_DIE) for p in range(12))

# current_player() for nodes that are nobody's decision (OpenSpiel's values).
CHANCE = -1
TERMINAL = -4


class FlowMixin:
    """Needs the flat fields of :class:`targui_dsl.engine.state.GameState`."""

    __slots__ = ()

    # Whose move ----------------------------------------------------------
    def current_player(self) -> int:
        phase = self.phase
        if phase == OVER:
            return TERMINAL
        if IS_CHANCE_PHASE[phase]:
            return CHANCE
        if phase <= SETUP_SETTLE:
            return self.setup_seat
        return self.player

    def is_chance_node(self) -> bool:
        return IS_CHANCE_PHASE[self.phase]

    def is_terminal(self) -> bool:
        return self.phase == OVER

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    # Options, in cells (for agents) ---------------------------------------
    def free_sectors(self) -> list[int]:
        taken = set(self.sector_of)
        return [i for i in range(len(self.game.sector_ids)) if i not in taken]

    def settle_cells(self, seat: int | None = None) -> list[int]:
        """Cells the seat (default: the one to settle now) may put its settlement on."""
        game = self.game
        seat = self.setup_seat if seat is None else seat
        if game.picks_sectors:
            sector = self.sector_of[seat]
            cells = game.sector_cells[sector] if sector >= 0 else ()
        else:
            cells = game.seating.choices[seat]
        taken = set(self.settlement_cell)
        return [c for c in cells if c not in taken]

    def can_deposit(self) -> bool:
        return (self.phase == MOVE_PHASE and self.game.ruleset.treasury and not self.deposited
                and self.player_cash[self.player] > 0)

    def move_options(self) -> list[tuple[int, int, int, bool]]:
        """Every (source, target, camels on source, is an attack) the current player may move along."""
        if self.phase != MOVE_PHASE:
            return []
        player, owner, camels, nbrs = self.player, self.cell_owner, self.cell_camels, self.move_neighbours
        options = []
        for source in range(len(owner)):
            if owner[source] != player or camels[source] == 0:
                continue
            have = camels[source]
            for target in nbrs[source]:
                holder = owner[target]
                options.append((source, target, have, holder >= 0 and holder != player and camels[target] > 0))
        return options

    def _has_move(self) -> bool:
        player, owner, camels, nbrs = self.player, self.cell_owner, self.cell_camels, self.move_neighbours
        for source in range(len(owner)):
            if owner[source] == player and camels[source] > 0 and nbrs[source]:
                return True
        return False

    def buy_limit(self) -> int:
        """How many camels the current player can buy now (cash and box allowing)."""
        if self.phase != ADD_PHASE:
            return 0
        price = self.game.ruleset.camel_price
        box = self.camels_in_box
        return min(self.player_cash[self.player] // price, box) if price > 0 else box

    def buy_cells(self) -> list[int]:
        """Owned cells the current player may place bought camels on."""
        game, player, kind, owner = self.game, self.player, self.cell_kind, self.cell_owner
        buyable, passable = game.kind_buyable, game.kind_passable
        return [c for c in range(len(owner)) if owner[c] == player and buyable[kind[c]] and passable[kind[c]]]

    def _may_buy_on(self, cell: int) -> bool:
        kind = self.cell_kind[cell]
        return self.cell_owner[cell] == self.player and self.game.kind_buyable[kind] and self.game.kind_passable[kind]

    def _can_buy_somewhere(self) -> bool:
        player, owner = self.player, self.cell_owner
        return any(owner[c] == player and self._may_buy_on(c) for c in range(len(owner)))

    # Legal actions -------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every legal action (chance outcomes at a chance node), in a fixed order."""
        phase = self.phase
        if phase == OVER:
            return []
        if IS_CHANCE_PHASE[phase]:
            return [outcome for outcome, _ in self.chance_outcomes()]
        game = self.game
        pos = game.position_of_cell
        if phase == SETUP_SECTOR:
            return [Action(SECTOR, (game.sector_ids[i],)) for i in self.free_sectors()]
        if phase == SETUP_SETTLE:
            return [Action(SETTLE, (pos[c],)) for c in sorted(self.settle_cells(), key=pos.__getitem__)]
        if phase == MOVE_PHASE:
            actions = []
            if self.can_deposit():
                actions.extend(Action(DEPOSIT, (n,)) for n in range(1, self.player_cash[self.player] + 1))
            for source, target, have, is_attack in self.move_options():
                if is_attack:
                    actions.append(Action(ATTACK, (pos[source], pos[target])))
                else:
                    actions.extend(Action(MOVE, (pos[source], pos[target], n)) for n in range(1, have + 1))
            actions.append(PASS_ACTION)
            return actions
        if phase == ATTACK_CHOICE:
            return [Action(AGAIN), Action(GIVE_UP)]
        if phase == ENTER_PHASE:
            return [Action(ENTER, (n,)) for n in range(1, self.cell_camels[self.attack_source] + 1)]
        if phase == ADD_PHASE:
            limit = self.buy_limit()
            actions = [Action(BUY, (n, pos[c])) for c in self.buy_cells() for n in range(1, limit + 1)]
            actions.append(PASS_ACTION)
            return actions
        raise AssertionError(f"no legal actions defined for phase {phase}")

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """At a chance node: every outcome with its probability; elsewhere empty."""
        phase = self.phase
        if not IS_CHANCE_PHASE[phase]:
            return []
        game = self.game
        if phase == SETUP_DEAL:
            total = sum(self.deal_pool)
            return [(Action(DEAL, (game.kind_ids[k],)), n / total) for k, n in enumerate(self.deal_pool) if n]
        if phase in (ROUND_DIE, ATTACK_DIE, DEFEND_DIE):
            sides = game.ruleset.die_sides
            return [(Action(DIE, (d,)), 1 / sides) for d in range(1, sides + 1)]
        # REVEAL: a tribal card, or a (mis)fortune card drawn from the deck
        total = sum(self.stack_turns) + self.stack_cards
        outcomes = [(Action(TURN, (game.tribe_ids[s],)), n / total) for s, n in enumerate(self.stack_turns) if n]
        if self.stack_cards:
            counts: dict[str, int] = {}
            for card_id in self.deck:
                counts[card_id] = counts.get(card_id, 0) + 1
            share = self.stack_cards / total / len(self.deck)
            outcomes.extend((Action(CARD, (card_id,)), n * share) for card_id, n in counts.items())
        return outcomes

    def check_legal(self, action: Action) -> None:
        """Raise :class:`IllegalAction` with the reason when ``action`` is not legal now."""
        phase = self.phase
        verb = action.verb
        if phase == OVER:
            raise IllegalAction("the game is over")
        if IS_CHANCE_PHASE[phase]:
            self._check_chance(action)
            return
        args = action.args
        game = self.game
        if verb == PASS:
            if phase not in (MOVE_PHASE, ADD_PHASE):
                raise IllegalAction(f"cannot pass now ({self._expecting()})")
            return
        if verb == SECTOR:
            self._expect(phase == SETUP_SECTOR)
            sector = game.sector_by_id.get(args[0])
            if sector is None:
                raise IllegalAction(f"no sector `{args[0]}` (sectors: {', '.join(game.sector_ids)})")
            if sector in self.sector_of:
                raise IllegalAction(f"sector {args[0]} is taken")
            return
        if verb == SETTLE:
            self._expect(phase == SETUP_SETTLE)
            if self._cell(args[0]) not in self.settle_cells():
                allowed = " ".join(str(game.position_of_cell[c]) for c in sorted(self.settle_cells(), key=game.position_of_cell.__getitem__))
                raise IllegalAction(f"cannot settle on {args[0]} (allowed: {allowed})")
            return
        if verb == DEPOSIT:
            self._expect(phase == MOVE_PHASE)
            if not game.ruleset.treasury:
                raise IllegalAction("this ruleset has no treasury")
            if self.deposited:
                raise IllegalAction("already deposited in this movement phase")
            if not 1 <= args[0] <= self.player_cash[self.player]:
                raise IllegalAction(f"can deposit 1..{self.player_cash[self.player]} silver, not {args[0]}")
            return
        if verb in (MOVE, ATTACK):
            self._expect(phase == MOVE_PHASE)
            source, target = self._cell(args[0]), self._cell(args[1])
            if self.cell_owner[source] != self.player:
                raise IllegalAction(f"position {args[0]} is not yours")
            if self.cell_camels[source] == 0:
                raise IllegalAction(f"no camels on {args[0]}")
            if target not in self.move_neighbours[source]:
                raise IllegalAction(f"cannot move from {args[0]} to {args[1]} (not adjacent, or impassable)")
            holder = self.cell_owner[target]
            defended = holder >= 0 and holder != self.player and self.cell_camels[target] > 0
            if verb == ATTACK:
                if not defended:
                    raise IllegalAction(f"{args[1]} holds no enemy camels: move there instead")
                return
            if defended:
                raise IllegalAction(f"{args[1]} is defended: attack it (attack {args[0]} {args[1]})")
            if not 1 <= args[2] <= self.cell_camels[source]:
                raise IllegalAction(f"can move 1..{self.cell_camels[source]} camels from {args[0]}, not {args[2]}")
            return
        if verb in (AGAIN, GIVE_UP):
            self._expect(phase == ATTACK_CHOICE)
            return
        if verb == ENTER:
            self._expect(phase == ENTER_PHASE)
            if not 1 <= args[0] <= self.cell_camels[self.attack_source]:
                raise IllegalAction(f"can enter with 1..{self.cell_camels[self.attack_source]} camels, not {args[0]}")
            return
        if verb == BUY:
            self._expect(phase == ADD_PHASE)
            limit = self.buy_limit()
            if not 1 <= args[0] <= limit:
                raise IllegalAction(f"can buy 1..{limit} camels now, not {args[0]}" if limit else "cannot buy any camels now")
            if not self._may_buy_on(self._cell(args[1])):
                raise IllegalAction(f"cannot place camels on {args[1]}")
            return
        raise IllegalAction(f"`{action}` is not a decision ({self._expecting()})")

    def _expect(self, ok: bool) -> None:
        if not ok:
            raise IllegalAction(f"not now: {self._expecting()}")

    def _expecting(self) -> str:
        return {
            SETUP_SECTOR: "pick a sector", SETUP_SETTLE: "settle", MOVE_PHASE: "move, attack, deposit or pass",
            ATTACK_CHOICE: "again or give up", ENTER_PHASE: "enter N", ADD_PHASE: "buy N on P or pass",
        }.get(self.phase, f"a chance node ({PHASE_NAMES[self.phase]})")

    def _cell(self, position: int) -> int:
        cell = self.game.cell_of_position.get(position)
        if cell is None:
            raise IllegalAction(f"no position {position} on the board")
        return cell

    def _check_chance(self, outcome: Action) -> None:
        phase = self.phase
        verb, args = outcome.verb, outcome.args
        game = self.game
        if phase == SETUP_DEAL and verb == DEAL:
            kind = game.kind_by_id.get(args[0])
            if kind is not None and self.deal_pool[kind] > 0:
                return
        elif phase in (ROUND_DIE, ATTACK_DIE, DEFEND_DIE) and verb == DIE:
            if isinstance(args[0], int) and 1 <= args[0] <= game.ruleset.die_sides:
                return
        elif phase == REVEAL and verb == TURN:
            seat = game.seat_of_tribe_id.get(args[0])
            if seat is not None and self.stack_turns[seat] > 0:
                return
        elif phase == REVEAL and verb == CARD:
            if self.stack_cards > 0 and args[0] in self.deck:
                return
        raise IllegalAction(f"`{outcome}` is not a possible outcome of this chance node ({PHASE_NAMES[phase]})")

    # Applying ------------------------------------------------------------
    def apply_action(self, action: Action | str) -> None:
        """Apply a decision (or, at an explicit chance node, a chance outcome); then run on
        to the next decision, resolving chance and forced decisions."""
        if isinstance(action, str):
            action = parse_action(action)
        self.check_legal(action)
        if IS_CHANCE_PHASE[self.phase]:
            self._apply_chance(action)
        else:
            self.decisions += 1
            self._apply_decision(action, False)
        self._advance()

    def force_chance(self, *outcomes: Action | str | int) -> None:
        """Queue outcomes for the next chance nodes (ints are die throws), e.g. for tests.
        Queued outcomes win over the generator and over explicit chance nodes."""
        for outcome in outcomes:
            if isinstance(outcome, int):
                outcome = Action(DIE, (outcome,))
            elif isinstance(outcome, str):
                outcome = parse_action(outcome)
            self.forced_outcomes.append(outcome)
        self._advance()

    def _advance(self) -> None:
        while True:
            phase = self.phase
            if IS_CHANCE_PHASE[phase]:
                if self.forced_outcomes:
                    outcome = self.forced_outcomes.pop(0)
                    self._check_chance(outcome)
                elif self.game.explicit_chance:
                    return
                else:
                    outcome = self._sample_chance()
                self._apply_chance(outcome)
            elif phase == OVER:
                return
            else:
                only = self._only_decision()
                if only is None:
                    return
                self._apply_decision(only, True)

    def _only_decision(self) -> Action | None:
        """The action to apply by itself when it is the only legal one, else None."""
        phase = self.phase
        if phase == MOVE_PHASE:
            return None if self.can_deposit() or self._has_move() else PASS_ACTION
        if phase == ADD_PHASE:
            return None if self.buy_limit() > 0 and self._can_buy_somewhere() else PASS_ACTION
        if phase == ENTER_PHASE:
            return Action(ENTER, (1,)) if self.cell_camels[self.attack_source] == 1 else None
        if phase == SETUP_SECTOR:
            free = self.free_sectors()
            return Action(SECTOR, (self.game.sector_ids[free[0]],)) if len(free) == 1 else None
        if phase == SETUP_SETTLE:
            cells = self.settle_cells()
            return Action(SETTLE, (self.game.position_of_cell[cells[0]],)) if len(cells) == 1 else None
        return None

    def _sample_chance(self) -> Action:
        phase = self.phase
        game = self.game
        if phase == ROUND_DIE or phase == ATTACK_DIE or phase == DEFEND_DIE:
            self.rng, r = below(self.rng, game.ruleset.die_sides)
            return Action(DIE, (r + 1,))
        if phase == REVEAL:
            turns = self.stack_turns
            self.rng, r = below(self.rng, sum(turns) + self.stack_cards)
            for seat, n in enumerate(turns):
                if r < n:
                    return Action(TURN, (game.tribe_ids[seat],))
                r -= n
            self.rng, r = below(self.rng, len(self.deck))
            return Action(CARD, (self.deck[r],))
        # SETUP_DEAL
        pool = self.deal_pool
        self.rng, r = below(self.rng, sum(pool))
        for kind, n in enumerate(pool):
            if r < n:
                return Action(DEAL, (game.kind_ids[kind],))
            r -= n
        raise AssertionError("empty deal pool")

    def _apply_chance(self, outcome: Action) -> None:
        phase = self.phase
        value = outcome.args[0]
        if self.log is not None:
            self._emit({"type": "chance", "round": self.round, "node": PHASE_NAMES[phase], "action": str(outcome)})
        if phase == ATTACK_DIE:
            self._attacker_throws(value)
        elif phase == DEFEND_DIE:
            self._defender_throws(value)
        elif phase == REVEAL:
            if outcome.verb == TURN:
                seat = self.game.seat_of_tribe_id[value]
                self.stack_turns[seat] -= 1
                self._start_turn(seat)
            else:
                self.stack_cards -= 1
                self.deck.remove(value)
                self._run_card(value)
                self._next_from_stack()
        elif phase == ROUND_DIE:
            self._start_round(value)
        else:
            self._deal(self.game.kind_by_id[value])

    def _apply_decision(self, action: Action, forced: bool) -> None:
        if forced:
            self.forced_decisions += 1
        if self.log is not None:
            seat = self.current_player()
            self._emit({"type": "decision", "round": self.round, "player": seat,
                        "tribe": self.game.tribe_ids[seat], "action": str(action), "forced": forced})
        verb = action.verb
        args = action.args
        cell = self.game.cell_of_position
        if verb == MOVE:
            self._move(cell[args[0]], cell[args[1]], args[2])
        elif verb == PASS:
            if self.phase == MOVE_PHASE:
                self.phase = ADD_PHASE
            else:
                self._end_adding()
        elif verb == BUY:
            self._buy(args[0], cell[args[1]])
        elif verb == ATTACK:
            self.attack_source, self.attack_target = cell[args[0]], cell[args[1]]
            self.phase = ATTACK_DIE
        elif verb == AGAIN:
            self.phase = ATTACK_DIE
        elif verb == GIVE_UP:
            self._end_attack("given up")
        elif verb == ENTER:
            self._enter(args[0])
        elif verb == DEPOSIT:
            self.player_cash[self.player] -= args[0]
            self.player_treasury[self.player] += args[0]
            self.deposited = True
        elif verb == SECTOR:
            self._pick_sector(self.game.sector_by_id[args[0]])
        elif verb == SETTLE:
            self._settle(cell[args[0]])

    # Setup ---------------------------------------------------------------
    def _pick_sector(self, sector: int) -> None:
        self.sector_of[self.setup_seat] = sector
        self.setup_seat += 1
        if self.setup_seat == self.game.players:
            self.setup_seat = 0
            self.phase = SETUP_DEAL

    def _deal(self, kind: int) -> None:
        game = self.game
        self.cell_kind[game.deal_cells[self.deal_next]] = kind
        self.deal_pool[kind] -= 1
        self.deal_next += 1
        if self.deal_next == len(game.deal_cells):
            # cards left over (a house rule with more cards than positions) stay in the box
            self.deal_pool = [0] * len(self.deal_pool)
            self.setup_seat = 0
            self.phase = SETUP_SETTLE

    def _settle(self, cell: int) -> None:
        game = self.game
        seat = self.setup_seat
        # the card on the cell leaves the game; the settlement takes its place
        self.cell_kind[cell] = game.settlement_kind
        self.settlement_cell[seat] = cell
        self._set_owner(cell, seat)
        self.set_camels(cell, game.ruleset.start_camels[seat])
        self.player_cash[seat] = game.ruleset.start_cash[seat]
        self.setup_seat += 1
        if self.setup_seat == game.players:
            self.refresh_board_tables()
            self.round = 1
            self.phase = ROUND_DIE

    # Rounds --------------------------------------------------------------
    def _start_round(self, die: int) -> None:
        ruleset = self.game.ruleset
        self.round_die = die
        self.double = die >= ruleset.double_turn_from
        cards = 1 if self.double else min(die, ruleset.tribal_cards)
        self.stack_turns = [cards if n > 0 else 0 for n in self.owned_count]
        self.stack_cards = min(ruleset.fortune_cards_per_round, len(self.deck))
        if self.log is not None:
            self._emit({"type": "round", "round": self.round, "die": die, "double_turn": self.double,
                        "tribal_cards": cards, "fortune_cards": self.stack_cards})
        self._next_from_stack()

    def _next_from_stack(self) -> None:
        if self.stack_cards or any(self.stack_turns):
            self.phase = REVEAL
        else:
            self._end_round()

    def _start_turn(self, seat: int) -> None:
        self.player = seat
        self.cycles_left = 2 if self.double else 1
        self.deposited = False
        self.phase = MOVE_PHASE
        if self.log is not None:
            self._emit({"type": "turn", "round": self.round, "player": seat, "tribe": self.game.tribe_ids[seat],
                        "double_turn": self.double})

    def _end_adding(self) -> None:
        self.cycles_left -= 1
        if self.cycles_left > 0:
            self.deposited = False
            self.phase = MOVE_PHASE
        else:
            self._next_from_stack()

    def _end_round(self) -> None:
        game = self.game
        ruleset = game.ruleset
        # The before_levy hooks (updated-treasury's "all cash in hand is
        # lost"); `cash_lost` is the cash they took. Hooks that pause, and the
        # other moments, are the engine rewrite's.
        before = self.player_cash[:]
        for hook in ruleset.hooks["before_levy"]:
            hook.function(self)
        lost = [max(0, b - a) for b, a in zip(before, self.player_cash)]
        levy = [0] * game.players
        for seat in self.all_players():
            levy[seat] = clamp(game.levy(self, seat))
            self.player_cash[seat] = clamp(self.player_cash[seat] + levy[seat])
        if self.log is not None:
            ids = game.tribe_ids
            self._emit({"type": "round_end", "round": self.round,
                        "cash_lost": {ids[s]: lost[s] for s in range(game.players)},
                        "levy": {ids[s]: levy[s] for s in range(game.players)},
                        "cash": {ids[s]: self.player_cash[s] for s in range(game.players)},
                        "treasury": {ids[s]: self.player_treasury[s] for s in range(game.players)}})
        if not self.deck:
            # final scores see this round's modifiers (RULES 7: "modifiers of the last round included")
            self._finish("deck")
        self.kind_strategic_now = self.kind_strategic_lasting[:]
        self.kind_economic_now = self.kind_economic_lasting[:]
        if self.phase != OVER:
            self.round += 1
            self.phase = ROUND_DIE

    # (Mis)fortune cards --------------------------------------------------
    def _run_card(self, card_id: str) -> None:
        card = self.game.cards[card_id]
        if self.log is None:
            card.effect.function(self)
            return
        before = self._snapshot()
        card.effect.function(self)
        self._emit({"type": "card", "round": self.round, "card": card_id, "number": card.number,
                    "title": card.title, "changes": self._changes_since(before)})

    def _snapshot(self) -> tuple:
        return (self.cell_camels[:], self.player_cash[:], self.player_treasury[:], self.camels_in_box,
                self.kind_strategic_now[:], self.kind_economic_now[:])

    def _changes_since(self, before: tuple) -> dict:
        game = self.game
        camels, cash, treasury, box, strategic, economic = before
        pos, ids, kinds = game.position_of_cell, game.tribe_ids, game.kind_ids
        changes: dict = {
            "camels": {str(pos[c]): [camels[c], self.cell_camels[c]]
                       for c in range(game.cells) if camels[c] != self.cell_camels[c]},
            "cash": {ids[s]: [cash[s], self.player_cash[s]] for s in range(game.players) if cash[s] != self.player_cash[s]},
            "treasury": {ids[s]: [treasury[s], self.player_treasury[s]]
                         for s in range(game.players) if treasury[s] != self.player_treasury[s]},
            "box": [box, self.camels_in_box],
            "kinds": {},
        }
        for k in range(len(kinds)):
            entry = {}
            if strategic[k] != self.kind_strategic_now[k]:
                entry["strategic"] = [strategic[k], self.kind_strategic_now[k]]
            if economic[k] != self.kind_economic_now[k]:
                entry["economic"] = [economic[k], self.kind_economic_now[k]]
            if entry:
                changes["kinds"][kinds[k]] = entry
        return changes

    # Moves and fights ----------------------------------------------------
    def _move(self, source: int, target: int, count: int) -> None:
        self.cell_camels[source] -= count
        self.cell_camels[target] += count
        if self.cell_owner[target] != self.player:
            self._set_owner(target, self.player)
        if self.phase != OVER:
            self.phase = ADD_PHASE

    def _attacker_throws(self, die: int) -> None:
        source, target = self.attack_source, self.attack_target
        have = self.cell_camels[target]
        loss = min(max(0, int(self.game.defender_loses(self, die, source, target))), have)
        self.cell_camels[target] = have - loss
        self.camels_in_box += loss
        self._emit_fight("attacker", die, loss)
        self.phase = ENTER_PHASE if have == loss else DEFEND_DIE

    def _defender_throws(self, die: int) -> None:
        source, target = self.attack_source, self.attack_target
        have = self.cell_camels[source]
        loss = min(max(0, int(self.game.attacker_loses(self, die, source, target))), have)
        self.cell_camels[source] = have - loss
        self.camels_in_box += loss
        self._emit_fight("defender", die, loss)
        if have == loss:
            self._end_attack("failed")
        else:
            self.phase = ATTACK_CHOICE

    def _emit_fight(self, thrower: str, die: int, loss: int) -> None:
        if self.log is not None:
            pos = self.game.position_of_cell
            self._emit({"type": "fight", "round": self.round, "thrower": thrower, "die": die, "loss": loss,
                        "source": pos[self.attack_source], "target": pos[self.attack_target],
                        "camels": [self.cell_camels[self.attack_source], self.cell_camels[self.attack_target]]})

    def _enter(self, count: int) -> None:
        source, target = self.attack_source, self.attack_target
        self.cell_camels[source] -= count
        self.cell_camels[target] += count
        self._end_attack("won")
        # after the attack's end: taking the last enemy territory ends the game, and `end` is the last event
        self._set_owner(target, self.player)

    def _end_attack(self, result: str) -> None:
        if self.log is not None:
            pos = self.game.position_of_cell
            self._emit({"type": "attack_end", "round": self.round, "result": result,
                        "source": pos[self.attack_source], "target": pos[self.attack_target]})
        self.attack_source = self.attack_target = -1
        if self.phase != OVER:
            self.phase = ADD_PHASE

    def _buy(self, count: int, cell: int) -> None:
        self.player_cash[self.player] -= count * self.game.ruleset.camel_price
        self.cell_camels[cell] += count
        self.camels_in_box -= count
        self._end_adding()

    # Ownership, elimination, the end ---------------------------------------
    def _set_owner(self, cell: int, seat: int) -> None:
        previous = self.cell_owner[cell]
        self.cell_owner[cell] = seat
        self.owned_count[seat] += 1
        if previous < 0:
            return
        self.owned_count[previous] -= 1
        if self.owned_count[previous] == 0:
            self.stack_turns[previous] = 0  # an eliminated player's tribal cards are void
            if self.log is not None:
                self._emit({"type": "eliminated", "round": self.round, "player": previous,
                            "tribe": self.game.tribe_ids[previous]})
            if self.round > 0 and sum(1 for n in self.owned_count if n > 0) == 1:
                self._finish("last_standing")

    def _finish(self, reason: str) -> None:
        game = self.game
        seats = range(game.players)
        self.final_scores = [int(game.score(self, s)) for s in seats]
        self.final_tie_breaks = [[int(tb(self, s)) for tb in game.tie_breaks] for s in seats]
        in_game = self.all_players()
        if reason == "last_standing":
            winners = list(in_game)
        else:
            eligible = [s for s in in_game
                        if self.holds_own_settlement(s) or not game.ruleset.own_settlement_required_to_win]
            if eligible:
                key = {s: (self.final_scores[s], *self.final_tie_breaks[s]) for s in eligible}
                best = max(key.values())
                winners = [s for s in eligible if key[s] == best]
            else:
                winners = list(in_game)  # nobody may win: a draw among those still playing
        self.winner_seats = winners
        self.end_reason = reason
        self.phase = OVER
        if self.log is not None:
            ids = game.tribe_ids
            self._emit({"type": "end", "reason": reason, "rounds": self.round,
                        "scores": {ids[s]: self.final_scores[s] for s in seats},
                        "tie_breaks": {ids[s]: self.final_tie_breaks[s] for s in seats},
                        "winners": [ids[s] for s in winners], "draw": len(winners) != 1})

    def _emit(self, event: dict) -> None:
        if self.log is not None:
            self.log.emit(event)
