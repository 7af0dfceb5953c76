"""The game state: flat lists of ints, cheap to clone, exact to save.

Everything that changes during a game lives here as ints, strings and flat
lists; everything fixed lives on :class:`~targui_dsl.engine.game.Game`.
The rules (phases, legality, what actions do) are in :mod:`.flow`; the
interface that compiled card effects call is in :mod:`.runtime`.
"""

from __future__ import annotations

from typing import Any

from ..compiled import CompiledRuleset
from .actions import parse_action
from .flow import OVER, PHASE_BY_NAME, PHASE_NAMES, SETUP_DEAL, SETUP_SECTOR, FlowMixin
from .game import Game
from .log import attach_log
from .runtime import RuntimeMixin

STATE_FORMAT = "targui-state/1"

# The fields that make up a state, in to_json order; each is an int, a bool,
# a str, None, or a flat list of those (final_tie_breaks: a list of lists).
_LIST_FIELDS = (
    "cell_kind", "cell_owner", "cell_camels",
    "player_cash", "player_treasury", "settlement_cell", "sector_of", "owned_count",
    "kind_strategic_now", "kind_economic_now", "kind_strategic_lasting", "kind_economic_lasting",
    "deck", "deal_pool", "stack_turns",
)
_SCALAR_FIELDS = (
    "camels_in_box", "deal_next", "stack_cards", "round", "round_die", "double",
    "setup_seat", "player", "cycles_left", "deposited", "attack_source", "attack_target",
    "decisions", "forced_decisions", "end_reason",
)


class GameState(FlowMixin, RuntimeMixin):
    __slots__ = _LIST_FIELDS + _SCALAR_FIELDS + (
        "game", "phase", "rng", "forced_outcomes", "final_scores", "final_tie_breaks", "winner_seats",
        "move_neighbours", "log",
    )

    @classmethod
    def new(cls, game: Game, log=None) -> "GameState":
        state = cls.__new__(cls)
        cells, seats = game.cells, game.players
        state.game = game
        state.cell_kind = [-1] * cells
        state.cell_owner = [-1] * cells
        state.cell_camels = [0] * cells
        for cell, kind in game.fixed_cards:
            state.cell_kind[cell] = kind
        state.player_cash = [0] * seats
        state.player_treasury = [0] * seats
        state.settlement_cell = [-1] * seats
        state.sector_of = [-1] * seats
        state.owned_count = [0] * seats
        state.kind_strategic_now = list(game.base_strategic)
        state.kind_economic_now = list(game.base_economic)
        state.kind_strategic_lasting = list(game.base_strategic)
        state.kind_economic_lasting = list(game.base_economic)
        state.deck = list(game.deck)
        state.deal_pool = list(game.deal_pool)
        state.stack_turns = [0] * seats
        state.camels_in_box = game.ruleset.camel_box
        state.deal_next = 0
        state.stack_cards = 0
        state.round = 0  # 0 during setup
        state.round_die = 0
        state.double = False
        state.setup_seat = 0
        state.player = -1
        state.cycles_left = 0
        state.deposited = False
        state.attack_source = state.attack_target = -1
        state.decisions = 0
        state.forced_decisions = 0
        state.end_reason = None
        state.phase = SETUP_SECTOR if game.picks_sectors else SETUP_DEAL
        state.rng = game.initial_rng
        state.forced_outcomes = []
        state.final_scores = None
        state.final_tie_breaks = None
        state.winner_seats = None
        state.move_neighbours = tuple(() for _ in range(cells))
        state.log = None
        if log is not None:
            attach_log(state, log)
        state._advance()
        return state

    def refresh_board_tables(self) -> None:
        """Recompute the neighbour lists without impassable cells (fixed once settled)."""
        passable, kinds = self.game.kind_passable, self.cell_kind
        self.move_neighbours = tuple(
            tuple(n for n in nbrs if kinds[n] >= 0 and passable[kinds[n]]) for nbrs in self.game.neighbours
        )

    # Cloning and saving ---------------------------------------------------
    def clone(self) -> "GameState":
        """A copy that shares only immutable things (the game, tables); the log is not copied."""
        other = GameState.__new__(GameState)
        for name in _LIST_FIELDS:
            setattr(other, name, getattr(self, name)[:])
        for name in _SCALAR_FIELDS:
            setattr(other, name, getattr(self, name))
        other.game = self.game
        other.phase = self.phase
        other.rng = self.rng
        other.forced_outcomes = self.forced_outcomes[:]
        other.final_scores = None if self.final_scores is None else self.final_scores[:]
        other.final_tie_breaks = None if self.final_tie_breaks is None else [t[:] for t in self.final_tie_breaks]
        other.winner_seats = None if self.winner_seats is None else self.winner_seats[:]
        other.move_neighbours = self.move_neighbours
        other.log = None
        return other

    def to_json(self) -> dict[str, Any]:
        """Everything needed to resume the game exactly, RNG included; plain JSON values."""
        game = self.game
        state: dict[str, Any] = {name: getattr(self, name) for name in _LIST_FIELDS + _SCALAR_FIELDS}
        state = {k: (v[:] if isinstance(v, list) else v) for k, v in state.items()}
        state["phase"] = PHASE_NAMES[self.phase]
        state["rng"] = format(self.rng, "016x")  # 64 bits: a string, so no JSON reader rounds it
        state["forced_outcomes"] = [str(a) for a in self.forced_outcomes]
        state["final_scores"] = _copy(self.final_scores)
        state["final_tie_breaks"] = _copy(self.final_tie_breaks)
        state["winners"] = _copy(self.winner_seats)
        return {
            "format": STATE_FORMAT,
            "ruleset": game.ruleset.id,
            "players": game.players,
            "tribes": list(game.tribe_ids),
            "seed": game.seed,
            "explicit_chance": game.explicit_chance,
            "state": state,
        }

    @classmethod
    def from_json(cls, ruleset: CompiledRuleset, data: dict[str, Any]) -> "GameState":
        if data.get("format") != STATE_FORMAT:
            raise ValueError(f"not a saved targui state (format {data.get('format')!r}, expected {STATE_FORMAT!r})")
        if data.get("ruleset") != ruleset.id:
            raise ValueError(f"the state was saved for ruleset {data.get('ruleset')!r}, not {ruleset.id!r}")
        game = Game(ruleset, players=data["players"], seed=data["seed"], tribes=data["tribes"],
                    explicit_chance=data["explicit_chance"])
        saved = data["state"]
        state = cls.__new__(cls)
        state.game = game
        for name in _LIST_FIELDS:
            setattr(state, name, list(saved[name]))
        for name in _SCALAR_FIELDS:
            setattr(state, name, saved[name])
        state.phase = PHASE_BY_NAME[saved["phase"]]
        state.rng = int(saved["rng"], 16)
        state.forced_outcomes = [parse_action(text) for text in saved["forced_outcomes"]]
        state.final_scores = _copy(saved["final_scores"])
        state.final_tie_breaks = _copy(saved["final_tie_breaks"])
        state.winner_seats = _copy(saved["winners"])
        state.log = None
        if state.round > 0:
            state.refresh_board_tables()
        else:
            state.move_neighbours = tuple(() for _ in range(game.cells))
        return state

    # Results -------------------------------------------------------------
    def winners(self) -> list[int]:
        """Winning seats once the game is over (several: a draw); empty before."""
        return list(self.winner_seats) if self.winner_seats is not None else []

    def returns(self) -> list[float]:
        """Per seat: 1/len(winners) for each winner, 0 for the others (all 0 before the end)."""
        winners = self.winners()
        share = 1 / len(winners) if winners else 0.0
        return [share if seat in winners else 0.0 for seat in range(self.game.players)]

    def scores(self) -> list[int]:
        """The final scores once over; before that, what the score formula says now."""
        if self.final_scores is not None:
            return list(self.final_scores)
        return [int(self.game.score(self, seat)) for seat in range(self.game.players)]

    def tie_break_values(self) -> list[list[int]]:
        if self.final_tie_breaks is not None:
            return [t[:] for t in self.final_tie_breaks]
        return [[int(tb(self, s)) for tb in self.game.tie_breaks] for s in range(self.game.players)]

    def is_draw(self) -> bool:
        return self.phase == OVER and len(self.winner_seats or ()) != 1

    def in_game(self, seat: int) -> bool:
        """Whether the seat still owns territory (always true during setup)."""
        return self.round == 0 or self.owned_count[seat] > 0

    def total_camels(self) -> int:
        return sum(self.cell_camels)

    def rounds_total(self) -> int:
        return self.game.ruleset.rounds

    def __str__(self) -> str:
        from .render import render_state

        return render_state(self)

    def __repr__(self) -> str:
        return (f"<GameState {self.game.ruleset.id} round {self.round} {PHASE_NAMES[self.phase]}"
                f" player {self.current_player()}>")


def _copy(value):
    """A copy of a saved result: None, a flat list, or a list of lists (tie-breaks)."""
    if value is None:
        return None
    return [item[:] if isinstance(item, list) else item for item in value]
