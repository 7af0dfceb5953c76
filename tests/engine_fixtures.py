"""Hand-built CompiledRulesets for the engine tests, and helpers to set up positions.

The rulesets mirror RULES.md (the three variants) with plain Python
functions as compiled code, so the engine can be tested without the YAML
front end. ``real_ruleset(name)`` returns the built-in ruleset when
``targui_dsl.load_ruleset`` works, else None (tests skip on None).
"""

from __future__ import annotations

from functools import lru_cache

from targui_dsl.effects.names import HOOK_MOMENTS

from targui_dsl.compiled import (
    Board,
    Card,
    CompiledCode,
    CompiledRuleset,
    Sector,
    Seating,
    TerritoryKind,
    Tribe,
    frozen_mapping,
)

NUMBERING = (
    (43, 44, 45, 46, 47, 48, 49),
    (42, 21, 22, 23, 24, 25, 26),
    (41, 20, 7, 8, 9, 10, 27),
    (40, 19, 6, 1, 2, 11, 28),
    (39, 18, 5, 4, 3, 12, 29),
    (38, 17, 16, 15, 14, 13, 30),
    (37, 36, 35, 34, 33, 32, 31),
)
SECTORS = {
    "north_west": (20, 21, 22, 41, 42, 43, 44, 45),
    "north_east": (10, 24, 25, 26, 27, 47, 48, 49),
    "south_west": (16, 17, 18, 35, 36, 37, 38, 39),
    "south_east": (12, 13, 14, 29, 30, 31, 32, 33),
}
THREE_PLAYER_POSITIONS = ((47, 48, 49), (31, 32, 33), (39, 40, 41))

KINDS = (  # id, name, econ, strat, count, passable, settlement, position
    ("settlement", "Settlement", 4, 4, 4, True, True, None),
    ("salt_mine", "Central salt mine", 5, 5, 1, True, False, 1),
    ("guelta", "Guelta", 3, 3, 6, True, False, None),
    ("reg", "Reg", 2, 0, 12, True, False, None),
    ("erg", "Erg", 1, 0, 12, True, False, None),
    ("fesh_fesh", "Fesh-fesh", 0, 2, 8, True, False, None),
    ("mountain", "Mountains", 0, 1, 6, True, False, None),
    ("chott", "Chott", 0, 0, 4, False, False, None),
)
K = {k[0]: i for i, k in enumerate(KINDS)}
TRIBES = (("kel_ahaggar", "Kel Ahaggar", "green"), ("kel_ajjer", "Kel Ajjer", "yellow"),
          ("kel_ilbakan", "Kel Ilbakan", "red"), ("kel_ress", "Kel Ress", "blue"))
T = {t[0]: i for i, t in enumerate(TRIBES)}


def code(function, *params: str, source: str = "<python>") -> CompiledCode:
    return CompiledCode(source=source, python=source, params=tuple(params), function=function)


def make_board() -> Board:
    rows, columns = len(NUMBERING), len(NUMBERING[0])
    position_of_cell = tuple(p for row in NUMBERING for p in row)
    cell_of_position = {p: c for c, p in enumerate(position_of_cell)}
    neighbours = []
    for r in range(rows):
        for c in range(columns):
            neighbours.append(tuple(
                rr * columns + cc
                for rr in (r - 1, r, r + 1) for cc in (c - 1, c, c + 1)
                if (rr, cc) != (r, c) and 0 <= rr < rows and 0 <= cc < columns
            ))
    sectors = tuple(Sector(sid, tuple(cell_of_position[p] for p in ps)) for sid, ps in SECTORS.items())
    return Board(rows, columns, position_of_cell, frozen_mapping(cell_of_position), tuple(neighbours), sectors)


# --- card effects, written against the EffectRuntime interface -------------------

def _each_kind(kind_id, change):
    def effect(rt):
        for t in rt.all_territories():
            if rt.kind(t) == K[kind_id]:
                rt.set_camels(t, change(rt.camels(t)))
    return effect


def _gift(tribe_id):
    def effect(rt):
        for p in rt.all_players():
            if rt.tribe(p) == T[tribe_id] and rt.holds_own_settlement(p):
                s = rt.settlement(p)
                rt.set_camels(s, rt.camels(s) + 10)
    return effect


def _caravan(rt):
    for p in rt.all_players():
        if rt.holds_own_settlement(p):
            rt.set_cash(p, rt.cash(p) + 10)


def _invasion(rt):
    for t in rt.all_territories():
        if rt.camels(t) > 0:
            rt.set_camels(t, rt.camels(t) - 1)


def _spring(rt):
    for t in rt.all_territories():
        if rt.kind(t) == K["guelta"] and rt.owner(t) is not None:
            rt.set_camels(t, rt.camels(t) + 5)


def _settlement_raid(rt):
    for p in rt.all_players():
        if any(rt.kind(t) == K["settlement"] for t in rt.territories_of(p)):
            rt.set_cash(p, 0)


CARD_EFFECTS = {
    "haussa_raid": (1, _each_kind("salt_mine", lambda n: 0)),
    "gift_kel_ress": (2, _gift("kel_ress")),
    "gift_kel_ilbakan": (3, _gift("kel_ilbakan")),
    "gift_kel_ahaggar": (4, _gift("kel_ahaggar")),
    "gift_kel_ajjer": (5, _gift("kel_ajjer")),
    "sandstorm": (6, _each_kind("erg", lambda n: n - 3)),
    "drought": (7, _each_kind("guelta", lambda n: min(n, 15))),
    "caravan_raid": (8, _caravan),
    "camel_plague": (9, _each_kind("settlement", lambda n: n - n // 2)),
    "invasion": (10, _invasion),
    "heavy_rain": (11, _each_kind("reg", lambda n: n - 5)),
    "spring": (12, _spring),
    "climate_change": (13, lambda rt: rt.set_kind_value(K["erg"], "strategic", 3, True)),
    "poisoned_water": (14, _each_kind("guelta", lambda n: n - 10)),
    "settlement_raid": (15, _settlement_raid),
    "silver_in_mountains": (16, lambda rt: rt.set_kind_value(K["mountain"], "economic", 3, True)),
}
CARD_BY_NUMBER = {number: card_id for card_id, (number, _) in CARD_EFFECTS.items()}


# updated-treasury's before_levy hook: all cash in hand is lost.
_CASH_LOST = code(lambda rt: [rt.set_cash(p, 0) for p in rt.all_seats()] and None,
                  source="for p in seats { p.cash = 0 }")


def _levy(rt, p):
    return sum(rt.economic(t) for t in rt.territories_of(p)) if rt.holds_own_settlement(p) else 0


VARIANTS = {
    # id: tribal cards, double from, fortune per round, deck numbers, salt mine buyable,
    #     cash lost, treasury, score, tie breaks
    "fixture-dutch": dict(tribal_cards=5, double_turn_from=6, fortune=1, deck=range(1, 17), no_buying_on=(),
                          cash_lost=False, treasury=False, score=_levy,
                          tie_breaks=(lambda rt, p: rt.player_camels(p) + rt.cash(p),)),
    "fixture-swedish": dict(tribal_cards=5, double_turn_from=6, fortune=1, deck=(1, *range(6, 17)),
                            no_buying_on=("salt_mine",), cash_lost=False, treasury=False, score=_levy,
                            tie_breaks=(lambda rt, p: rt.cash(p) + rt.player_camels(p),)),
    "fixture-treasury": dict(tribal_cards=3, double_turn_from=4, fortune=2, deck=range(1, 17),
                             no_buying_on=("salt_mine",), cash_lost=True, treasury=True,
                             score=lambda rt, p: rt.treasury(p) + rt.cash(p),
                             tie_breaks=(lambda rt, p: rt.player_camels(p),)),
}


@lru_cache(maxsize=None)
def fixture_ruleset(variant: str = "fixture-dutch", **overrides) -> CompiledRuleset:
    v = VARIANTS[variant]
    kinds = tuple(TerritoryKind(kid, i, name, e, s, n, passable, settlement, pos)
                  for i, (kid, name, e, s, n, passable, settlement, pos) in enumerate(KINDS))
    tribes = tuple(Tribe(tid, i, name, colour) for i, (tid, name, colour) in enumerate(TRIBES))
    board = make_board()
    seating = (
        Seating((2, 4), "sectors"),
        Seating((3,), "positions", tuple(tuple(board.cell_of_position[p] for p in ps) for ps in THREE_PLAYER_POSITIONS)),
    )
    cards = {cid: Card(cid, number, cid.replace("_", " "), frozen_mapping({}), code(fn))
             for cid, (number, fn) in CARD_EFFECTS.items()}
    fields = dict(
        id=variant, title=variant, description="engine test fixture", files=("<fixture>",),
        kinds=kinds, tribes=tribes, board=board, seating=seating,
        camel_box=450, camel_price=1, start_camels=(10,) * 4, start_cash=(10,) * 4, tribal_cards=v["tribal_cards"],
        die_sides=6, double_turn_from=v["double_turn_from"], fortune_cards_per_round=v["fortune"],
        treasury=v["treasury"],
        no_buying_on=frozenset(K[k] for k in v["no_buying_on"]),
        defender_loses=code(lambda rt, die, source, target: (die + rt.strategic(source)) // 2, "die", "source", "target"),
        attacker_loses=code(lambda rt, die, source, target: (die + rt.strategic(target)) // 2, "die", "source", "target"),
        levy=code(_levy, "player"),
        score=code(v["score"], "player"),
        tie_breaks=tuple(code(tb, "player") for tb in v["tie_breaks"]),
        own_settlement_required_to_win=True,
        cards=frozen_mapping(cards),
        deck=tuple(CARD_BY_NUMBER[n] for n in v["deck"]),
        resolved=frozen_mapping({}),
        hooks=frozen_mapping({moment: (_CASH_LOST,) if v["cash_lost"] and moment == "before_levy" else ()
                              for moment in HOOK_MOMENTS}),
    )
    fields.update(overrides)
    return CompiledRuleset(**fields)


FIXTURE_VARIANTS = tuple(VARIANTS)
REAL_VARIANTS = ("original-dutch", "swedish-12", "updated-treasury")


@lru_cache(maxsize=None)
def real_ruleset(name: str):
    """The built-in ruleset, or None while the front end cannot load it."""
    try:
        from targui_dsl import load_ruleset
    except ImportError:
        return None
    try:
        return load_ruleset(name)
    except Exception:  # noqa: BLE001 - the front end is still being written
        return None


def any_ruleset(name: str) -> CompiledRuleset:
    """A real built-in ruleset when it loads, else the matching fixture."""
    fixture = {"original-dutch": "fixture-dutch", "swedish-12": "fixture-swedish",
               "updated-treasury": "fixture-treasury"}[name]
    return real_ruleset(name) or fixture_ruleset(fixture)


# --- building positions ------------------------------------------------------------

def put(state, position: int, kind: str | None = None, owner: int | None = None, camels: int | None = None,
        unowned: bool = False) -> int:
    """Set up one cell for a test, keeping the camel box and territory counts exact."""
    game = state.game
    cell = game.cell_of_position[position]
    if kind is not None:
        state.cell_kind[cell] = game.kind_by_id[kind]
        state.refresh_board_tables()
    if unowned or owner is not None:
        previous = state.cell_owner[cell]
        if previous >= 0:
            state.owned_count[previous] -= 1
        state.cell_owner[cell] = -1 if unowned else owner
        if not unowned:
            state.owned_count[owner] += 1
    if camels is not None:
        state.camels_in_box += state.cell_camels[cell] - camels
        state.cell_camels[cell] = camels
    return cell


def settled_state(ruleset: CompiledRuleset, players: int = 4, seed: int = 1, explicit_chance: bool = True):
    """A state just after setup, stopped at the first round's die (explicit chance), settled by
    each seat taking the first allowed position."""
    from targui_dsl.engine import Game

    state = Game(ruleset, players=players, seed=seed, explicit_chance=explicit_chance).new_initial_state()
    while state.round == 0:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[0][0])
        else:
            state.apply_action(state.legal_actions()[0])
    return state


def start_turn(state, seat: int, double: bool = False):
    """From a round-die chance node: roll a small die and reveal ``seat``'s tribal card."""
    state.apply_action(f"die {state.game.ruleset.double_turn_from if double else 1}")
    state.apply_action(f"turn {state.game.tribe_ids[seat]}")
    return state


def pass_turn(state) -> None:
    """Pass every phase of the current player's turn (both halves of a double turn)."""
    seat = state.player
    while state.current_player() == seat and state.phase_name in ("move", "add"):
        state.apply_action("pass")


def finish_round(state) -> None:
    """Reveal the rest of the round stack in a fixed order (tribal cards first, by seat), every
    player passing, until the round ends. Explicit-chance states only."""
    start = state.round
    while state.round == start and not state.is_terminal():
        if state.phase_name == "reveal":
            state.apply_action(state.chance_outcomes()[0][0])
        elif state.phase_name in ("move", "add"):
            pass_turn(state)
        else:
            raise AssertionError(f"finish_round stopped at {state.phase_name}")
