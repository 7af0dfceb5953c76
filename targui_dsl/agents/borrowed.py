"""``ismcts:weights=NAME``: the search bot scoring positions with a built-in ruleset's learned
weights on whatever ruleset it plays (a house rule played with its base variant's judgement).

NAME is looked up in :func:`~targui_dsl.agents.learned.weights_names` (``own``, or a built-in
ruleset of the game that ships weights) when the spelling is parsed. The weights are the ones
``ismcts:learned=1`` uses playing that built-in ruleset (trained on this machine, else shipped;
:func:`~targui_dsl.agents.training.score_for`); the features are read from the position played,
so a house rule's changed numbers are seen, but weighed as the base variant weighs them (a feature
named by the house rule's data, one per kind of piece it lists, say, as the base variant weighs it).
"""

from __future__ import annotations

import sys
from functools import lru_cache
from typing import Any

from targui_dsl.agents.ismcts import ISMCTSAgent
from targui_dsl.agents.learned import OWN_WEIGHTS, LearnedScore, feature_names_of, weights_names
from targui_dsl.agents.training import score_for
from targui_dsl.engine.protocol import GamePackage, SeatObservation
from targui_dsl.frontend.build import load_ruleset
from targui_dsl.frontend.resources import rulesets_dir

__all__ = ["SearchWithWeights", "borrowed_score"]


def borrowed_score(name: str, package: GamePackage) -> LearnedScore | None:
    """The learned score of the built-in ruleset ``name`` (one of ``weights_names(package)``);
    None, said on stderr, when it has none (no numpy to train it)."""
    if name not in weights_names(package):  # parsing checked it; a bot built by hand is checked here
        raise ValueError(f"no built-in ruleset `{name}` ships weights for {package.title}")
    return score_for(_builtin(name), package, _note)  # found once per process (learned.learned_score)


@lru_cache(maxsize=None)
def _builtin(name: str) -> Any:
    """A built-in ruleset by name, loaded once per process (a bot is made for every game)."""
    return load_ruleset(rulesets_dir() / f"{name}.yaml")


class SearchWithWeights(ISMCTSAgent):
    """:class:`ISMCTSAgent` with ``weights``: ``own`` (the ruleset's own learned score, with
    ``learned=1``; the plain search), or a built-in ruleset whose learned score it uses on any
    ruleset of that game (``learned`` is then taken as 1: the weights are there to be used)."""

    def __init__(self, seed: int = 0, *, weights: str = OWN_WEIGHTS, game: GamePackage | None = None,
                 **params: Any) -> None:
        if weights != OWN_WEIGHTS:
            params["learned"] = 1
        super().__init__(seed, game=game, **params)
        self.weights = weights
        if weights != OWN_WEIGHTS and weights not in weights_names(self.package):
            raise ValueError(f"no built-in ruleset `{weights}` ships weights for {self.package.title}")

    def _learned(self, observation: SeatObservation) -> LearnedScore | None:
        if self.weights == OWN_WEIGHTS or self.package.features is None:
            return super()._learned(observation)
        score = borrowed_score(self.weights, self.package)
        # the features may be named by the ruleset played (one per kind of piece it lists, say):
        # a name the built-in ruleset's weights lack weighs nothing, one only they have is not read
        return None if score is None else score.named(feature_names_of(self.package, observation.game.ruleset))


def _note(line: str) -> None:
    sys.stderr.write(line + "\n")
    sys.stderr.flush()
