"""Targi as the toolkit sees it: the hooks of :class:`~targui_dsl.engine.protocol.GamePackage`."""

from __future__ import annotations

from pathlib import Path

from targui_dsl.engine.bots import BotKind
from targui_dsl.engine.protocol import GamePackage
from targui_dsl.games.targi.bounds import ADAPTER
from targui_dsl.games.targi.cards import card_list
from targui_dsl.games.targi.drawing import DRAWING
from targui_dsl.games.targi.features import FEATURE_NAMES, features, prior
from targui_dsl.games.targi.frontend import FRONT_END
from targui_dsl.games.targi.greedy import GreedyAgent
from targui_dsl.games.targi.metrics import METRICS
from targui_dsl.games.targi.score import LEVELS, SEARCH_DEFAULTS, TargiEvaluator
from targui_dsl.games.targi.state import Game

PACKAGE = GamePackage(
    name=FRONT_END.name,
    title="Targi (Kosmos, 2012)",
    new_game=Game,
    drawing=DRAWING,
    schema=FRONT_END.schema,
    check=FRONT_END.check,
    snippets=FRONT_END.snippets,
    build=FRONT_END.build,
    vocabulary=FRONT_END.vocabulary,
    cards=card_list,
    metrics=METRICS,
    adapter=ADAPTER,
    evaluator=TargiEvaluator,
    search_defaults=SEARCH_DEFAULTS,
    levels=LEVELS,
    features=features,
    feature_names=FEATURE_NAMES,
    feature_prior=prior,
    trained=str(Path(__file__).with_name("trained")),
    bots=(BotKind("greedy", GreedyAgent, "placement by card and crossing worth; else one step ahead on a"
                  " determinised state"),),
)
