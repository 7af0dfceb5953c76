"""Targi's game and state: OpenSpiel's verbs over a record and the one flow.

``Game(ruleset, players=2, seed=, explicit_chance=)`` starts games; ``TargiState`` is what
bots, studies, logs and adapters drive: integer actions and a mask, chance nodes for the
draws when asked (else the seeded generator draws), events to a sink, observations that
hide the draw piles, face-down cards and the opponent's hand card.
"""

from __future__ import annotations

import json
import random
from typing import Any, Sequence

from targui_dsl.engine.chance import below, seed_state
from targui_dsl.engine.told import tellers
from targui_dsl.games.targi import rules
from targui_dsl.games.targi.actions import NUM_ACTIONS
from targui_dsl.games.targi.compiled import TargiRuleset
from targui_dsl.games.targi.flow import Flow
from targui_dsl.games.targi.record import GOODS_DECK, SEATS, TRIBE_DECK, Side, TargiRecord, shown_robber
from targui_dsl.games.targi.texts import action_text, old_text, texts_of
from targui_dsl.games.targi.told import CHANCE, DECISION, NOTHING, tells_for


class IllegalAction(ValueError):
    """An action that is not legal here."""


class Game:
    """One Targi ruleset, two players, a seed."""

    def __init__(self, ruleset: TargiRuleset, players: int = 2, seed: int = 0,
                 tribes: Sequence[str] | None = None, explicit_chance: bool = False) -> None:
        if players != ruleset.players:
            raise ValueError(f"{ruleset.title} is for {ruleset.players} players, not {players}")
        if tribes is not None and tuple(tribes) != SEATS:
            raise ValueError(f"Targi's seats are {', '.join(SEATS)}, not {', '.join(tribes)}")
        self.ruleset, self.players, self.seed, self.explicit_chance = ruleset, players, seed, explicit_chance
        self.tribe_ids = SEATS

    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    def max_chance_outcomes(self) -> int:
        return max(len(self.ruleset.goods_cards), len(self.ruleset.tribe_cards))

    def observation_tensor_shape(self) -> list[int]:
        return [len(TargiState(self).observation_tensor(0))]

    def tribe_name(self, seat: int) -> str:
        return f"player {seat + 1}"

    def new_initial_state(self, log: Any = None) -> "TargiState":
        return TargiState(self, log)


class TargiState:
    """A Targi game in progress."""

    def __init__(self, game: Game, log: Any = None, record: TargiRecord | None = None) -> None:
        self.game = game
        self.rs: TargiRuleset = game.ruleset
        self.flow = Flow(self.rs)
        self.sink = log
        if record is not None:
            self.record = record
            return
        rs = self.rs
        sides = [Side(list(rs.start_goods), rs.start_gold, rs.start_points, rs.display_rows) for _ in range(2)]
        self.record = TargiRecord(len(rs.ring), rs.centre_spaces, sides, seed_state(game.seed))
        self._record.piles = [list(range(len(rs.goods_cards))), list(range(len(rs.tribe_cards)))]
        kinds = [GOODS_DECK if kind == "goods" else TRIBE_DECK for row in rs.centre for kind in row]
        for space in reversed(range(len(kinds))):
            self._record.stack.append({"k": "draw", "deck": kinds[space], "then": "fill", "space": space, "up": 1,
                                      "seat": -1})
        if log is not None:
            log.begin(game)
        self._advance()

    # --- events and chance ----------------------------------------------------------------

    @property
    def sink(self) -> Any:
        return self._sink

    @sink.setter
    def sink(self, sink: Any) -> None:
        # the kinds it reads (its ``wants``): the flow builds no other event
        self._sink = sink
        self.tells = NOTHING if sink is None else tells_for(getattr(sink, "wants", None))
        self.flow.tells = self.tells
        # the flow tells the sink itself
        self.flow.told, self.flow.told_last = (None, None) if sink is None else tellers(sink)
        # a border card's decision text by its action (A_BORDER is 0), a card's number by deck, the texts that
        # depend only on a decision's kind and action: kept per ruleset
        texts = texts_of(self.rs) if sink is not None else None
        self._border_texts: tuple[str, ...] = texts.border if texts is not None and "decision" in self.tells else ()
        self._card_ids: tuple[tuple[int, ...], ...] = texts.card_ids if texts is not None else ((), ())
        self._plain_texts: dict[tuple[str, int], str] = texts.plain if texts is not None else {}

    @property
    def record(self) -> TargiRecord:
        """The record, to read or change: whoever takes it may change it, so the flow forgets what
        it kept for the node (the legal list, a paused snippet's run) and works it out again."""
        self.flow.forget()
        return self._record

    @record.setter
    def record(self, record: TargiRecord) -> None:
        self.flow.forget()
        self._record = record

    @property
    def read_record(self) -> TargiRecord:
        """The record, to read only (not to change): the flow keeps what it worked out for the
        node (the adapters' kept tensors read it at every step, between the engine's steps)."""
        return self._record

    def attach_sink(self, sink: Any) -> None:
        self.sink = sink

    def _draw(self, record: TargiRecord, frame: dict[str, Any]) -> int | None:
        if self.game.explicit_chance:
            return None
        pile = record.piles[frame["deck"]]
        record.rng, index = below(record.rng, len(pile))
        card = pile[index]
        if "chance" in self.tells:
            self.flow.told((CHANCE, record.round, self._card_ids[frame["deck"]][card]))
        return card

    def _emit_chance(self, deck: int, card: int) -> None:
        if "chance" in self.tells:
            self.flow.told((CHANCE, self._record.round, self._card_ids[deck][card]))

    def _card_id(self, deck: int, card: int) -> int:
        return texts_of(self.rs).card_ids[deck][card]

    def _card_text(self, deck: int, card: int) -> str:
        return f"card {self._card_id(deck, card)}"

    def _advance(self) -> None:
        self.flow.advance(self._record, self._draw)

    def use_border(self, seat: int, ring: int) -> None:
        """Set the seat's action on border card ``ring`` (a ring index) going at once, as though its
        Targi stood there: what a bot's look-ahead plays out to value a card."""
        self.record.stack.append(self.flow.effect_frame(seat, ring, "border"))
        self._advance()

    # --- OpenSpiel's verbs ------------------------------------------------------------------

    def is_terminal(self) -> bool:
        return self._record.over

    def is_chance_node(self) -> bool:
        record = self._record
        return not record.over and bool(record.stack) and record.stack[-1]["k"] == "draw"

    def current_player(self) -> int:
        if self._record.over:
            return -4  # OpenSpiel's terminal player id
        if self.is_chance_node():
            return -1  # OpenSpiel's chance player id
        return self.flow.seat_of(self._record)

    def legal_actions(self, player: int | None = None) -> list[int]:
        record, flow = self._record, self.flow
        if record.over or (player is not None and player != self.current_player()):
            return []
        if flow.ready_for is record and flow.ready is not None:  # a decision's, kept (only a decision's is)
            return flow.ready[:]
        if self.is_chance_node():
            return [card for card, _ in self.chance_outcomes()]
        return flow.legal_now(record)[:]

    def legal_actions_mask(self, player: int | None = None) -> list[int]:
        mask = [0] * NUM_ACTIONS
        for action in self.legal_actions(player):
            mask[action] = 1
        return mask

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance_node():
            return []
        pile = sorted(self._record.piles[self._record.stack[-1]["deck"]])
        return [(card, 1.0 / len(pile)) for card in pile]

    def apply_action(self, action: int | str) -> None:
        if isinstance(action, str):
            for step in self.actions_from_text(action):
                self.apply_action(step)
            return
        record, flow = self._record, self.flow
        if record.over:
            raise IllegalAction("the game is over")
        legal = flow.ready if flow.ready_for is record else None  # (kept only at a decision)
        if legal is None and self.is_chance_node():
            frame = record.stack[-1]
            if action not in record.piles[frame["deck"]]:
                raise IllegalAction(f"{action} is not a card of the pile drawn from")
            self._emit_chance(frame["deck"], action)
            flow.drawn(record, action)
            flow.advance(record, self._draw)
            return
        if action not in (legal if legal is not None else flow.legal_now(record)):
            raise IllegalAction(f"action {action} is not legal here")
        if "decision" in self.tells:
            frame = record.stack[-1]
            seat = frame["seat"]
            # (action_to_string at a decision, without asking again whether this is a chance node; a border
            # card's text, or one that depends only on the decision's kind, from the ruleset's tables)
            border = self._border_texts
            text = border[action] if action < len(border) else self._plain_texts.get((frame["k"], action))
            flow.told((DECISION[seat], record.round,
                       text if text is not None else action_text(self.rs, record, seat, action)))
        record.decisions += 1
        flow.advance(record, self._draw, action)  # the action applied, then on to what follows

    def action_to_string(self, player: int, action: int | None = None) -> str:
        """An action as text (OpenSpiel's ``(player, action)``, or ``(action)`` for the player to move):
        what it means, in words (:func:`.texts.action_text`, the one home of the texts)."""
        if action is None:
            player, action = self.current_player(), player
        if self.is_chance_node():
            return self._card_text(self._record.stack[-1]["deck"], action)
        return action_text(self.rs, self._record, player, action)

    def actions_from_text(self, text: str) -> list[int]:
        """The legal action a text names: as :meth:`action_to_string` writes it, or in the spelling
        of older logs (``border 2``, ``option 1``: :func:`.texts.old_text`)."""
        wanted = " ".join(text.split())
        player = self.current_player()
        legal = self.legal_actions()
        for action in legal:
            if self.action_to_string(player, action) == wanted:
                return [action]
        if not self.is_chance_node():
            for action in legal:
                if old_text(self.rs, self._record, player, action) == wanted:
                    return [action]
        raise IllegalAction(f"`{text}` is not a legal action here")

    def returns(self) -> list[float]:
        """1 to the winner, 0 to the loser, a half each for a draw (0 each before the end)."""
        if not self._record.over:
            return [0.0, 0.0]
        winners = self.winners()
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(2)]

    def rewards(self) -> list[float]:
        """OpenSpiel's rewards: the returns, paid at the end."""
        return self.returns()

    @property
    def phase_name(self) -> str:
        """What the game waits for: the kind of the decision (or `draw`, `over`)."""
        if self._record.over:
            return "over"
        return str(self._record.stack[-1]["k"]) if self._record.stack else "round"

    def __str__(self) -> str:
        return render_text(self)

    def clone(self) -> "TargiState":
        return TargiState(self.game, None, self._record.copy())

    def to_json(self) -> dict[str, Any]:
        game = self.game
        return {"game": "targi", "players": game.players, "seed": game.seed, "explicit_chance": game.explicit_chance,
                "record": self._record.to_json()}

    @staticmethod
    def from_json(ruleset: TargiRuleset, data: dict[str, Any]) -> "TargiState":
        """A state saved by :meth:`to_json` (a ValueError for anything else)."""
        if not isinstance(data, dict) or data.get("game") != "targi" or not isinstance(data.get("record"), dict):
            raise ValueError("not a Targi state")
        seed, explicit = data.get("seed"), data.get("explicit_chance")
        if type(seed) is not int or type(explicit) is not bool:
            raise ValueError("a Targi state needs its seed and chance mode")
        game = Game(ruleset, players=data.get("players", 0), seed=seed, explicit_chance=explicit)
        try:
            record = TargiRecord.from_json(data["record"])
        except (KeyError, TypeError) as err:
            raise ValueError(f"not a Targi state ({err})") from None
        return TargiState(game, None, record)

    # --- results --------------------------------------------------------------------------

    @property
    def round(self) -> int:
        return self._record.round

    @property
    def end_reason(self) -> str:
        return self._record.end_reason

    @property
    def decisions(self) -> int:
        return self._record.decisions

    def scores(self) -> list[int]:
        return [rules.score(self.rs, self._record, seat) for seat in range(2)]

    def score_parts(self, seat: int) -> dict[str, int]:
        return rules.score_parts(self.rs, self._record, seat)

    def winners(self) -> list[int]:
        """The seats with the best points, then tie-breaks; both for a draw."""
        return rules.winners(self.rs, self._record)

    # --- what a seat sees -------------------------------------------------------------------

    def view(self, seat: int, only: frozenset[str] | None = None) -> dict[str, Any]:
        """Everything ``seat`` may see (TARGI-RULES.md section 7), as plain data. With ``only``,
        of the costly parts (``centre``, ``sides``) just those named, with the cheap public ones
        and without the rest (the adapters' kept tensors read only the parts that changed)."""
        record, rs = self._record, self.rs
        out: dict[str, Any] = {}
        if only is None or "centre" in only:
            centre: list[dict[str, Any] | None] = []
            for space, card in enumerate(record.centre):
                kind = "goods" if record.centre_kind[space] == GOODS_DECK else "tribe"
                if card < 0:
                    centre.append(None)
                elif not record.centre_up[space]:
                    centre.append({"deck": kind, "card": None})
                else:
                    deck = rs.goods_cards if kind == "goods" else rs.tribe_cards
                    centre.append({"deck": kind, "card": deck[card].id})
            out["centre"] = centre
        if only is None or "sides" in only:
            sides = []
            for s, side in enumerate(record.sides):
                sides.append({
                    "goods": side.goods[:], "gold": side.gold, "points": side.points, "stored_gold": side.stored_gold,
                    "hand": (rs.tribe_cards[side.hand].id if side.hand >= 0 else None) if s == seat else side.hand >= 0,
                    "display": [[rs.tribe_cards[c].id for c in row] for row in side.display],
                    "next_figures": side.next_figures,
                })
            out["sides"] = sides
        out.update(seat=seat, round=record.round, amulet=record.amulet, robber=shown_robber(record.robber),
                   figures=record.figures[:], markers=record.markers[:], piles=[len(p) for p in record.piles])
        if only is None:
            frame = record.stack[-1] if record.stack else {}
            out.update(discards=[sorted(rs.goods_cards[i].id for i in record.discards[GOODS_DECK]),
                                 sorted(rs.tribe_cards[i].id for i in record.discards[TRIBE_DECK])],
                       to_move=self.current_player(), decision=frame.get("k") if frame.get("seat") == seat else None,
                       over=record.over)
        return out

    def observation_string(self, player: int) -> str:
        return json.dumps(self.view(player), sort_keys=True, separators=(",", ":"))

    def information_state_string(self, player: int) -> str:
        return self.observation_string(player)

    def observation_tensor(self, player: int) -> list[float]:
        from targui_dsl.games.targi.tensor import tensor

        return tensor(self, player)

    def information_state_tensor(self, player: int) -> list[float]:
        return self.observation_tensor(player)

    def observation(self, seat: int) -> "TargiObservation":
        return TargiObservation(self, seat)

    def resample(self, seat: int, rng: random.Random) -> "TargiState":
        """A state ``seat`` cannot tell from this one: the face-down cards, the opponent's hand card
        and the draw piles dealt again from what the seat has not seen."""
        state = self.clone()
        record = state.record
        for deck in (GOODS_DECK, TRIBE_DECK):
            slots = [s for s, card in enumerate(record.centre)
                     if card >= 0 and not record.centre_up[s] and record.centre_kind[s] == deck]
            hand = deck == TRIBE_DECK and record.sides[1 - seat].hand >= 0
            pool = record.piles[deck] + [record.centre[s] for s in slots]
            if hand:
                pool.append(record.sides[1 - seat].hand)
            rng.shuffle(pool)
            for s in slots:
                record.centre[s] = pool.pop()
            if hand:
                record.sides[1 - seat].hand = pool.pop()
            record.piles[deck] = sorted(pool)
        record.rng = rng.getrandbits(64)
        return state

    def resample_from_infostate(self, player: int, rng: random.Random | None = None) -> "TargiState":
        """A state ``player`` cannot tell from this one, dealt with ``rng``."""
        return self.resample(player, rng if rng is not None else random.Random(self._record.rng ^ (player + 1)))


class TargiObservation:
    """A seat's live view of a state: what bots read. ``resample`` deals what the seat cannot see."""

    def __init__(self, state: TargiState, seat: int) -> None:
        self.state, self.seat = state, seat

    @property
    def game(self) -> Game:
        """The game being played (engine/protocol.py's SeatObservation): a learned score reads its ruleset."""
        return self.state.game

    def view(self) -> dict[str, Any]:
        return self.state.view(self.seat)

    def resample(self, rng: random.Random) -> TargiState:
        return self.state.resample(self.seat, rng)


def render_text(state: TargiState) -> str:
    """The board as text, neither hand card shown (``str(state)``)."""
    from targui_dsl.games.targi.terminal import render_board

    return render_board(state)
