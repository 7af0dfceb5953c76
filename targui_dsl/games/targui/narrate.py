"""Targui's events told in words: one line per log event, as `targui play` and `targui replay` print them."""

from __future__ import annotations

from typing import Any

from targui_dsl.frontend.text import visible
from targui_dsl.games.targui.game import Game
from targui_dsl.games.targui.ownership import how_it_ended


class Narrator:
    """Turns log events into one readable line each (None for events not worth a line)."""

    def __init__(self, game: Game):
        ruleset = game.ruleset
        self.names = {t.id: t.name for t in ruleset.tribes}
        self.cards = ruleset.cards
        self.kinds = {k.id: k.name for k in ruleset.kinds}
        self.title = ruleset.title  # for a header without its (optional) title
        # declared memory told at the table: public values only (an owner's or a hidden one is a secret)
        self.public_memory = {slot.name for slot in ruleset.memory if slot.visible == "public"}

    def __call__(self, event: dict[str, Any]) -> str | None:
        # Names and titles come from a ruleset or a log: no control character in them is printed raw.
        line = self._line(event)
        return None if line is None else visible(line)

    def _line(self, event: dict[str, Any]) -> str | None:
        kind = event["type"]
        name = self.names.get(event.get("tribe", ""), event.get("tribe"))
        if kind == "header":
            tribes = ", ".join(self.names.get(t, t) for t in event["tribes"])
            return (f"{event.get('title') or self.title} ({event['ruleset']}): {event['players']} players "
                    f"({tribes}), seed {event['seed']}")
        if kind == "decision":
            if event["forced"] and event["action"] == "pass":
                return None
            verb = event["action"].split()[0]
            indent = "" if verb in ("sector", "settle") else "    "
            return f"{indent}{name}: {event['action']}{' (forced)' if event['forced'] else ''}"
        if kind == "round":
            turns = "a double turn each" if event["double_turn"] else f"{event['tribal_cards']} turn(s) each"
            return (f"-- round {event['round']}: die {event['die']}, {turns}, "
                    f"{event['fortune_cards']} (mis)fortune card(s)")
        if kind == "turn":
            return f"  {name}'s {'double ' if event['double_turn'] else ''}turn"
        if kind == "fight":
            who = "defender" if event["thrower"] == "attacker" else "attacker"
            return (f"      {event['thrower']} throws {event['die']}: {who} loses {event['loss']} "
                    f"({event['source']}: {event['camels'][0]}, {event['target']}: {event['camels'][1]})")
        if kind == "attack_end":
            return f"      attack from {event['source']} on {event['target']}: {event['result']}"
        if kind == "card":
            return f"  card {event['number']} {event['title']}: {self._changes(event['changes'])}"
        if kind == "hook":
            return f"  house rule ({event['moment']} {event['hook']}): {self._changes(event['changes'])}"
        if kind == "eliminated":
            return f"  {name} owns no territory any more and is out"
        if kind == "round_end":
            lost = {t: n for t, n in event["cash_lost"].items() if n}
            text = "  levy: " + ", ".join(f"{self.names.get(t, t)} {n}" for t, n in event["levy"].items())
            if lost:
                cash_lost = ", ".join(f"{self.names.get(t, t)} {n}" for t, n in lost.items())
                text = "  cash lost: " + cash_lost + ";" + text[1:]
            return text
        if kind == "memory":
            if event["name"] not in self.public_memory:
                return None
            whose = f"{name} " if "tribe" in event else f"position {event['position']} " if "position" in event else ""
            before, after = (str(v).lower() for v in event["value"])
            return f"  {whose}{event['name']}: {before}->{after}"
        if kind == "end":
            scores = ", ".join(f"{self.names.get(t, t)} {s}" for t, s in event["scores"].items())
            winners = " and ".join(self.names.get(t, t) for t in event["winners"])
            result = f"a draw between {winners}" if event["draw"] else f"{winners} wins"
            how = visible(how_it_ended(str(event["reason"])))
            return f"Game over after round {event['rounds']} ({how}): {result}. Scores: {scores}"
        return None

    def _changes(self, changes: dict[str, Any]) -> str:
        """What a card or a hook changed, as `12: 3->5; Kel Ress cash 4->0`."""
        parts = [f"{p}: {a}->{b}" for p, (a, b) in changes["camels"].items()]
        parts += [f"{self.names.get(t, t)} cash {a}->{b}" for t, (a, b) in changes["cash"].items()]
        parts += [f"{self.names.get(t, t)} treasury {a}->{b}" for t, (a, b) in changes.get("treasury", {}).items()]
        parts += [f"{self.kinds.get(k, k)} {f} {a}->{b}"
                  for k, d in changes["kinds"].items() for f, (a, b) in d.items()]
        return "; ".join(parts) if parts else "no effect"
