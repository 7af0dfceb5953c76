"""Targui as the toolkit sees it: the hooks of :class:`~targui_dsl.engine.protocol.GamePackage`."""

from __future__ import annotations

from pathlib import Path

from targui_dsl.engine.bots import BotKind
from targui_dsl.engine.protocol import GamePackage
from targui_dsl.games.targui.bounds import ADAPTER
from targui_dsl.games.targui.drawing import DRAWING
from targui_dsl.games.targui.features import FEATURE_NAMES, feature_names, features, prior
from targui_dsl.games.targui.frontend import FRONT_END
from targui_dsl.games.targui.game import Game
from targui_dsl.games.targui.greedy import GreedyAgent
from targui_dsl.games.targui.metrics import METRICS, unlogged_in
from targui_dsl.games.targui.score import SEARCH_DEFAULTS, TarguiEvaluator

PACKAGE = GamePackage(
    name=FRONT_END.name,
    title="Targui (Jumbo, 1988)",
    new_game=Game,
    drawing=DRAWING,
    schema=FRONT_END.schema,
    check=FRONT_END.check,
    snippets=FRONT_END.snippets,
    build=FRONT_END.build,
    vocabulary=FRONT_END.vocabulary,
    evaluator=TarguiEvaluator,
    search_defaults=SEARCH_DEFAULTS,
    features=features,
    feature_names=FEATURE_NAMES,
    ruleset_feature_names=feature_names,
    feature_prior=prior,
    trained=str(Path(__file__).with_name("trained")),
    bots=(BotKind("greedy", GreedyAgent, "one-step heuristic: fight odds, territory value, threat"),),
    metrics=METRICS,
    adapter=ADAPTER,
    unlogged_in=unlogged_in,
)
