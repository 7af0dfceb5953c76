"""Events told as tuples (targui_dsl.engine.told): a log writes each one's line straight from the
tuple, and those lines are byte for byte ``json.dumps(event, separators=(",", ":"))`` of the events
a reader gets, for every kind of event of both games, with awkward strings and big integers; a
sink that reads dicts hears the same events."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from targui_dsl import load_ruleset
from targui_dsl.agents import seat_agents
from targui_dsl.engine.loop import play
from targui_dsl.engine.told import EventKind, lines_of, made, tellers
from targui_dsl.gamelog import events as events_module
from targui_dsl.gamelog.events import EventLog
from targui_dsl.gamelog.replay import verify_log
from targui_dsl.games import game_of
from targui_dsl.games.targi import told as targi_told
from targui_dsl.games.targui import told as targui_told

EXAMPLES = Path(__file__).resolve().parent.parent / "rulesets" / "examples"
#: A seating's kinds by seat (Targui makes them per seating: the seat's number and tribe written in the kind).
SEATED = targui_told.seat_kinds(("kel_ress", "kel_ajjer", "ifoghas"))
#: ... and a ruleset's chance outcomes by outcome (a kind by territory kind dealt, by die face).
BY_OUTCOME = targui_told.ruleset_kinds(load_ruleset("original-dutch"))
KINDS = targui_told.KINDS + SEATED.every + BY_OUTCOME.every + targi_told.KINDS
# what json escapes: a quote, a backslash, control characters, DEL, non-ASCII, a line separator, a lone surrogate
AWKWARD = 'a "quoted" back\\slash\n\t\x00\x1f\x7f caf\u00e9 \u2028 \U0001f42a \ud800 {int} %s'
BIG = 2**70


def dumped(event: dict[str, Any]) -> str:
    return json.dumps(event, separators=(",", ":")) + "\n"


def awkward(slot: str, place: int) -> Any:
    """A value for a slot, as awkward as JSON allows."""
    if slot == "int":
        return (BIG, -BIG, 0, -1, 2**64 + 1)[place % 5]
    if slot == "text":
        return AWKWARD[place % 3:]
    if slot == "flag":
        return place % 2 == 0
    return {AWKWARD: [BIG, -3, None, True, 0.5, {"k\u00e9": [AWKWARD, []]}], "": {}}


def plain(slot: str, place: int) -> Any:
    """A value for a slot that JSON writes as it is (a template writes it unescaped)."""
    return {"int": (7, -12, BIG)[place % 3], "text": "100% plain {int} 'text'"[place % 2:],
            "flag": place % 2 == 1}.get(slot, [1, "a"])


def awkward_tuple(kind: EventKind, value: Any = None) -> tuple[Any, ...]:
    slots = []
    for pattern in kind.fields.values():
        if isinstance(pattern, (bool, int)):  # a constant
            continue
        for one in (pattern if isinstance(pattern, list) else list(pattern.values()) if isinstance(pattern, dict)
                    else [pattern]):
            slots += [part for part in one.split("{")[1:]]
    values = [(value or awkward)(slot.split("}")[0], place) for place, slot in enumerate(slots)]
    assert len(values) == kind.slots
    return (kind, *values)


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: f"{kind.type}:{'/'.join(map(str, kind.fields.values()))}")
def test_every_kind_writes_what_json_dumps_writes_of_its_event(kind):
    told = awkward_tuple(kind)
    log = EventLog(io.StringIO())
    log.told_tuple(told)
    log.flush()
    event = kind.event(told)
    assert list(event) == ["type", *kind.fields] and event["type"] == kind.type
    assert log.stream.getvalue() == dumped(event)  # type: ignore[union-attr]
    assert log.events == [event]
    heard: list[dict[str, Any]] = []

    class Reader:  # a sink that reads dicts
        def emit(self, event: dict[str, Any]) -> None:
            heard.append(event)

    tell, tell_last = tellers(Reader())
    tell(told)
    tell_last(told)
    assert heard == [event, event]
    # a batch: plain events written by one format of their templates, or each by its line once one
    # text needs an escape; a special kind's line made when it is told
    calm = awkward_tuple(kind, plain)
    batch = [made(one) if kind.special else one for one in (calm, calm)]
    assert (kind.template is None) == kind.special or kind.ends
    assert lines_of(batch) == 2 * dumped(kind.event(calm))
    batch.append(made(told) if kind.special else told)
    assert lines_of(batch) == 2 * dumped(kind.event(calm)) + dumped(event)


def test_a_text_of_words_and_slots_is_the_words_the_event_reads():
    move = SEATED.move[False][0]
    told = (move, 3, 12, 13, 2)
    assert move.event(told) == {"type": "decision", "round": 3, "player": 0, "tribe": "kel_ress",
                                "action": "move 12 13 2", "forced": False}
    assert move.line(told) == '{"type":"decision","round":3,"player":0,"tribe":"kel_ress","action":"move 12 13 2",' \
                              '"forced":false}\n'
    choose = SEATED.choose[True][2]
    assert choose.line((choose, 1, 'say "hi"\\\u00e9')).endswith(
        ',"action":"choose say \\"hi\\"\\\\\\u00e9","forced":true}\n')
    fight = targui_told.FIGHT["attacker"]
    assert fight.event((fight, 2, 3, 1, 19, 7, 6, 0))["camels"] == [6, 0]


def test_a_constant_integer_is_written_as_json_writes_it_and_a_constant_flag_stays_a_flag():
    seat = EventKind("turn", {"round": "{int}", "player": 1, "first": True, "last": False, "tribe": "kel_ress"})
    told = (seat, 4)
    assert seat.slots == 1
    assert seat.event(told) == {"type": "turn", "round": 4, "player": 1, "first": True, "last": False,
                                "tribe": "kel_ress"}
    assert seat.line(told) == lines_of([told]) == dumped(seat.event(told))
    assert '"player":1,"first":true,"last":false' in seat.line(told)


def test_a_dict_of_slots_is_written_as_json_writes_the_dict():
    # its keys written in the kind (a round's end: each seat's numbers by tribe), escaped as json escapes
    # a key; an empty dict is a constant
    kind = EventKind("round_end", {"round": "{int}", "cash": {"kel_ress": "{int}", 'a "b" 100%': "{text}"},
                                   "none": {}})
    told = (kind, 2, 7, "x %d")
    assert kind.slots == 3
    assert kind.event(told) == {"type": "round_end", "round": 2, "cash": {"kel_ress": 7, 'a "b" 100%': "x %d"},
                                "none": {}}
    assert kind.line(told) == lines_of([told]) == dumped(kind.event(told))
    assert lines_of([told, told]) == 2 * dumped(kind.event(told))
    end = SEATED.round_end  # a seating's: the dicts by its tribes
    told = (end, 5, *range(12))
    assert end.event(told)["levy"] == {"kel_ress": 3, "kel_ajjer": 4, "ifoghas": 5}
    assert lines_of([told]) == dumped(end.event(told))


def test_a_text_of_a_str_subclass_is_checked_and_escaped_as_any_text():
    class Id(str):
        pass

    turn = EventKind("turn", {"round": "{int}", "player": "{int}", "tribe": "{text}", "double_turn": True})
    plain = (turn, 1, 0, "kel_ress")
    odd = (turn, 2, 1, Id('kel "odd"'))
    assert lines_of([plain, odd]) == dumped(turn.event(plain)) + dumped(turn.event(odd))
    assert '"tribe":"kel \\"odd\\""' in lines_of([odd])


def test_a_batch_of_values_met_before_and_a_new_text_that_needs_an_escape():
    # lines_of remembers the values it met (ids, numbers) and looks only into new ones: a text
    # met after them still needs its escape, and a line made already keeps its % signs
    turn = EventKind("turn", {"round": "{int}", "player": "{int}", "tribe": "{text}", "double_turn": False})
    calm = [(turn, 1, 0, "kel_ress"), (turn, 2, 1, "kel_ajjer")]
    for _ in range(2):  # the second time every value is one met before
        assert lines_of(calm) == "".join(dumped(turn.event(one)) for one in calm)
    odd = (turn, 3, 2, "kel\tress")
    assert lines_of([*calm, odd]) == "".join(dumped(turn.event(one)) for one in [*calm, odd])
    assert '"tribe":"kel\\tress"' in lines_of([odd, *calm])
    end = targui_told.END
    told = (end, "100% %s %d", 3, {"kel_ress": 1}, {}, ["kel_ress"], False)
    assert lines_of([*calm, made(told)]) == "".join(dumped(turn.event(one)) for one in calm) + dumped(end.event(told))


@pytest.mark.parametrize("pattern", ["{x}", "a {json} b", "say {flag}", "a { b", "}"])
def test_a_pattern_that_is_not_one_is_refused(pattern):
    with pytest.raises(ValueError):
        EventKind("bad", {"field": pattern})
    with pytest.raises(ValueError):
        EventKind("bad", {"field": ["{int}", "move {int}"]})
    with pytest.raises(ValueError):
        EventKind("bad", {"field": {"a": "{int}", "b": "move {int}"}})


def targui_and_targi() -> list[tuple[str, int]]:
    rulesets = ["original-dutch", "swedish-12", "updated-treasury", "targi"]
    rulesets += sorted(str(path) for path in EXAMPLES.glob("*.yaml"))
    return [(name, seed) for name in rulesets for seed in (1, 2)]


class Dicts(EventLog):
    def emit(self, event: dict[str, Any]) -> None:
        super().emit(event)


class Kinds:
    """Reads every event as a tuple: which kinds a game tells."""

    wants = None

    def __init__(self) -> None:
        self.kinds: set[EventKind] = set()

    def begin(self, game: Any) -> None:
        pass

    def told_tuple(self, event: tuple[Any, ...]) -> None:
        assert isinstance(event[0], EventKind) and len(event) == event[0].slots + 1
        self.kinds.add(event[0])


def test_played_games_write_the_lines_of_their_events_and_verify():
    told: set[EventKind] = set()
    for name, seed in targui_and_targi():
        rs = load_ruleset(name)
        package = game_of(rs)
        players = 4 if 4 in rs.player_counts else max(rs.player_counts)
        game = package.new_game(rs, players=players, seed=seed)
        bots = ["random"] * players
        log = EventLog(io.StringIO())
        play(game.new_initial_state(log=log), seat_agents(game.seed, bots, package.name))
        events = log.events
        assert events is not None and events[-1]["type"] == "end"
        assert log.stream.getvalue() == "".join(dumped(e) for e in events), name  # type: ignore[union-attr]
        dicts = Dicts(None)  # a log that reads dicts only (a subclass's emit): the same events
        play(package.new_game(rs, players=players, seed=seed).new_initial_state(log=dicts),
             seat_agents(game.seed, bots, package.name))
        assert dicts.events == events, name
        assert verify_log(rs, events).ok, name
        kinds = Kinds()
        play(package.new_game(rs, players=players, seed=seed).new_initial_state(log=kinds),
             seat_agents(game.seed, bots, package.name))
        made = () if package.name != "targui" else (*targui_told.seat_kinds(game.tribe_ids).every,  # its seating's
                                                    *targui_told.ruleset_kinds(rs).every)  # and its ruleset's kinds
        assert kinds.kinds <= set(KINDS) | set(made), name
        told |= kinds.kinds
    assert len(told) > len(KINDS) // 2  # most kinds were told by these games


def test_json_only_and_orjson_write_the_same_log(monkeypatch):
    rs = load_ruleset("original-dutch")

    def written() -> str:
        log = EventLog(io.StringIO(), keep=False)
        game = game_of(rs).new_game(rs, players=4, seed=5)
        play(game.new_initial_state(log=log), seat_agents(game.seed, ["random"] * 4, "targui"))
        return log.stream.getvalue()  # type: ignore[union-attr]

    first = written()
    monkeypatch.setattr(events_module, "_orjson_tried", True)
    monkeypatch.setattr(events_module, "_orjson_lines", None)  # as if orjson were not installed
    assert written() == first


def test_a_subclass_emit_and_a_listener_added_late_hear_every_event_as_a_dict():
    rs = load_ruleset("swedish-12")
    heard: list[dict[str, Any]] = []

    class Mine(EventLog):
        def emit(self, event: dict[str, Any]) -> None:
            heard.append(event)
            super().emit(event)

    game = game_of(rs).new_game(rs, players=3, seed=2)
    mine = Mine(io.StringIO())
    play(game.new_initial_state(log=mine), seat_agents(game.seed, ["random"] * 3, "targui"))
    assert heard == mine.events and len(heard) > 100
    assert mine.stream.getvalue() == "".join(dumped(e) for e in heard)  # type: ignore[union-attr]
    late: list[dict[str, Any]] = []
    log = EventLog(io.StringIO())
    state = game.new_initial_state(log=log)
    for _ in range(30):
        state.apply_action(state.legal_actions()[0])
    log.listeners.append(late.append)  # after the state took the log's told_tuple
    play(state, seat_agents(game.seed, ["random"] * 3, "targui"))
    assert log.events is not None and late == log.events[len(log.events) - len(late):] and late
    assert late[-1]["type"] == "end"
    assert log.stream.getvalue() == "".join(dumped(e) for e in log.events)  # type: ignore[union-attr]


def test_each_kind_told_has_a_bit_of_its_own():
    # the rules test a state's tell_bits (told.bits_of of its tells), not the kinds' strings
    from targui_dsl.games.targui.told import BIT, EVERYTHING, bits_of, tells_for

    assert set(BIT) == EVERYTHING and len(set(BIT.values())) == len(BIT)
    assert all(bit & (bit - 1) == 0 for bit in BIT.values())
    for wants in (None, [], ["chance"], ["decision"], ["decision:move", "end"], ["hook", "card", "memory"]):
        tells = tells_for(wants)
        assert {kind for kind, bit in BIT.items() if bits_of(tells) & bit} == tells


def test_a_card_is_told_by_its_own_kind_unless_a_text_of_it_holds_a_brace():
    # a card's id, number and title are written in its kind (per ruleset); its event is CARD's
    changes = {"camels": {"49": [10, 20]}, "cash": {}, "treasury": {}, "box": [405, 395], "kinds": {}}
    for title in ("Kel Ilbakan receives a gift", 'caf\u00e9 "100%" \\ \u2028', "%d %s"):
        kind = targui_told.card_kind("gift_kel_ilbakan", 3, title)
        assert kind is not None and kind.slots == 2 and kind.template is None
        told = (kind, 1, changes)
        event = targui_told.CARD.event((targui_told.CARD, 1, "gift_kel_ilbakan", 3, title, changes))
        assert kind.event(told) == event and list(kind.event(told)) == list(event)
        log = EventLog(io.StringIO())
        log.told_tuple(told)
        log.flush()
        assert log.stream.getvalue() == dumped(event) == kind.line(told)  # type: ignore[union-attr]
        assert lines_of([made(told), made(told)]) == 2 * dumped(event)
    for card_id, number, title in (("a", 1, "a {int} b"), ("a", 1, "}"), ("a{", 1, "t"), ("a", None, "t"),
                                   ("a", True, "t"), ("a", 1, None)):
        assert targui_told.card_kind(card_id, number, title) is None
    kinds = targui_told.ruleset_kinds(load_ruleset("updated-treasury"))
    assert len(kinds.card) == 16 and all(kind is not None and kind.type == "card" for kind in kinds.card)


@pytest.mark.parametrize("name", ["original-dutch", "swedish-12", "updated-treasury"])
def test_a_cards_own_kind_is_the_card_the_game_has_at_that_index(name):
    # the rules tell card index i by ruleset_kinds(...).card[i]: its id, number and title must be
    # the game's card i (as the generic CARD event names it), or a log names another card
    rs = load_ruleset(name)
    game = game_of(rs).new_game(rs, players=4, seed=1)
    kinds = targui_told.ruleset_kinds(rs).card
    assert len(kinds) == len(game.card_ids) > 0
    for index, card_id in enumerate(game.card_ids):
        card = game.cards[card_id]
        kind = kinds[index]
        assert kind is not None
        generic = targui_told.CARD.event((targui_told.CARD, 2, card_id, card.number, card.title, {}))
        assert kind.event((kind, 2, {})) == generic
