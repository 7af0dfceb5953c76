"""A position score learned per ruleset: weights over a game's features, kept as JSON.

A game package that gives :attr:`GamePackage.features
<targui_dsl.engine.protocol.GamePackage>` (one list of numbers per seat, named
by ``feature_names``) can have a score fitted to the results of finished games
(:mod:`targui_dsl.agents.training`, ``targui train RULESET``). The model is a
conditional logit: seat ``s`` wins with probability
``exp(z_s) / sum(exp(z_o))`` over the seats still in the game, where
``z = weights . features``. So the same weights serve any number of players.

**Where weights live.** In the user's cache folder
(``$XDG_CACHE_HOME/targui/scores/``, else ``~/.cache``) for any ruleset trained
on this machine, named by the ruleset's hash; else a file ``<ruleset id>.json``
in the game's shipped folder (``GamePackage.trained``) for the built-in rulesets. Either is used
only if it was fitted to this ruleset: its ``ruleset_sha256`` must be
:func:`ruleset_hash` of the ruleset now (a changed ruleset is trained again),
its feature names the game's, and every weight a finite number. Files are JSON,
read with ``json``; nothing in them is ever run.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping

from targui_dsl.engine.protocol import GamePackage
from targui_dsl.frontend.resources import builtin_ruleset_names

__all__ = ["FORMAT", "OWN_WEIGHTS", "LearnedScore", "ScoreFileError", "cache_folder", "cached_path",
           "feature_names_of", "learned_score", "read_score", "ruleset_hash", "shipped_path", "weights_names",
           "write_score"]

FORMAT = "targui-score/1"
#: A weights file is a few hundred bytes; anything much larger is not one.
MAX_FILE_BYTES = 1 << 20


class ScoreFileError(ValueError):
    """A weights file that is not one for this ruleset and game (one line, why)."""


@dataclass(frozen=True)
class LearnedScore:
    """Fitted weights for one ruleset, and how they were fitted (for people and the ladder)."""

    ruleset: str  # the ruleset's id
    ruleset_sha256: str
    feature_names: tuple[str, ...]
    weights: tuple[float, ...]
    trained: Mapping[str, Any]  # games, seed, bots, players, samples, log-loss: what `targui train` did

    def win_chances(self, state: Any, features: Callable[[Any, int], list[float] | None], players: int) -> list[float]:
        """Per seat, the fitted chance to win from ``state`` (0 for a seat out of the game)."""
        w = self.weights
        z = {}
        for s in range(players):
            x = features(state, s)
            if x is not None:
                z[s] = sum(wi * xi for wi, xi in zip(w, x, strict=True))
        if not z:
            return [0.0] * players
        top = max(z.values())
        e = {s: math.exp(max(-60.0, v - top)) for s, v in z.items()}
        total = sum(e.values())
        return [e[s] / total if s in e else 0.0 for s in range(players)]

    def named(self, names: tuple[str, ...]) -> LearnedScore:
        """These weights for features named ``names`` (another ruleset's, which lists other
        kinds of piece, say): each name's weight, 0 for a name these weights never had (nothing
        learned of it), a weight whose feature is not there dropped."""
        if names == self.feature_names:
            return self
        weight = dict(zip(self.feature_names, self.weights, strict=True))
        return LearnedScore(self.ruleset, self.ruleset_sha256, names, tuple(weight.get(n, 0.0) for n in names),
                            self.trained)

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "ruleset": self.ruleset, "ruleset_sha256": self.ruleset_sha256,
                "weights": dict(zip(self.feature_names, self.weights, strict=True)), "trained": dict(self.trained)}


def ruleset_hash(ruleset: Any) -> str:
    """The sha256 of the ruleset's merged data, written canonically: any change to what it
    says (its own file or one it extends) changes it; a comment or a key's order does not."""
    text = json.dumps(_plain(ruleset.resolved), sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(b"targui-ruleset/1\n" + text.encode("ascii")).hexdigest()


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def feature_names_of(package: GamePackage, ruleset: Any) -> tuple[str, ...]:
    """The names of ``package``'s features for ``ruleset`` (some games name one per kind of
    something the ruleset lists)."""
    if package.ruleset_feature_names is not None:
        return package.ruleset_feature_names(ruleset)
    return package.feature_names


def cache_folder() -> Path:
    """Where weights trained on this machine are kept."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "targui" / "scores"


def cached_path(ruleset: Any) -> Path:
    return cache_folder() / f"{ruleset_hash(ruleset)}.json"


def shipped_path(ruleset: Any, package: GamePackage) -> Path | None:
    """The shipped weights file of a built-in ruleset's id (None when the game ships none)."""
    if not package.trained:
        return None
    return Path(package.trained) / f"{ruleset.id}.json"


#: ``ismcts:weights=`` for the ruleset's own learned score (the other words: built-in rulesets)
OWN_WEIGHTS = "own"


def weights_names(package: GamePackage) -> list[str]:
    """The words ``ismcts:weights=`` may be in ``package``'s game: ``own``, then every built-in
    ruleset whose weights the game ships (a table of names: never a path, never code)."""
    if not package.trained:
        return [OWN_WEIGHTS]
    builtins = set(builtin_ruleset_names())
    return [OWN_WEIGHTS, *sorted(p.stem for p in Path(package.trained).glob("*.json") if p.stem in builtins)]


def read_score(path: Path, ruleset: Any, package: GamePackage) -> LearnedScore:
    """The weights in ``path`` if they were fitted to ``ruleset`` with ``package``'s features;
    ScoreFileError (why, in one line) for a file that is not that, OSError if unreadable."""
    with open(path, "rb") as f:
        data = f.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise ScoreFileError(f"{path}: larger than any weights file")
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as err:
        raise ScoreFileError(f"{path}: not JSON ({err})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ScoreFileError(f"{path}: not a {FORMAT} file")
    expected = ruleset_hash(ruleset)
    if doc.get("ruleset_sha256") != expected:
        raise ScoreFileError(f"{path}: fitted to another version of the ruleset (its hash differs)")
    weights = doc.get("weights")
    names = feature_names_of(package, ruleset)
    if not isinstance(weights, dict) or tuple(weights) != names:
        raise ScoreFileError(f"{path}: its weights are not named as {package.title}'s features")
    values = tuple(weights.values())
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in values):
        raise ScoreFileError(f"{path}: a weight is not a finite number")
    trained = doc.get("trained")
    return LearnedScore(str(doc.get("ruleset", "")), expected, names, tuple(float(v) for v in values),
                        trained if isinstance(trained, dict) else {})


def write_score(score: LearnedScore, path: Path) -> None:
    """Write ``score`` to ``path`` (through a temporary file, so a reader never sees half of it)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_text(json.dumps(score.to_json(), indent=1) + "\n", encoding="utf-8")
    os.replace(temporary, path)


#: (ruleset hash) -> the score found for it (None: none), once per process.
_found: dict[str, LearnedScore | None] = {}


def learned_score(ruleset: Any, package: GamePackage) -> LearnedScore | None:
    """The weights fitted to ``ruleset``: trained on this machine, else shipped with the game;
    None when there are none (or the game gives no features)."""
    if package.features is None:
        return None
    key = ruleset_hash(ruleset)
    if key in _found:
        return _found[key]
    found: LearnedScore | None = None
    shipped = shipped_path(ruleset, package)
    # what this machine trained first (`targui train` of a built-in ruleset replaces its shipped weights)
    for path in [cached_path(ruleset)] + ([shipped] if shipped is not None else []):
        try:
            found = read_score(path, ruleset, package)
            break
        except (OSError, ScoreFileError):
            continue
    _found[key] = found
    return found


def remember(ruleset: Any, score: LearnedScore | None) -> None:
    """Use ``score`` for ``ruleset`` from now on in this process (after training it)."""
    _found[ruleset_hash(ruleset)] = score


def forget_all() -> None:
    """Look for weights files again (tests that write them)."""
    _found.clear()
