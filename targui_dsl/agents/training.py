"""Fit a ruleset's position score to the results of finished bot games (``targui train``).

Games of the ruleset are played by bots (by default ``greedy`` in every seat;
seats rotated through the list given), over every number of players the ruleset
seats in turn. At about one decision in ``SAMPLE_EVERY`` (drawn from the game's
own seed) every seat's features are noted (the game package's
``features(state, seat)``); when the game ends each note is paired with who won.
Weights are then fitted by maximum likelihood, a conditional logit over the seats
still in the game (:mod:`targui_dsl.agents.learned`), with Newton's method and a
small ridge, in numpy. The last fifth of the games is held out to report how much
better than a uniform guess the fit predicts the winner (log-loss).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from targui_dsl.agents.learned import (
    LearnedScore,
    cached_path,
    feature_names_of,
    learned_score,
    remember,
    ruleset_hash,
    write_score,
)
from targui_dsl.agents.spec import make_agent
from targui_dsl.engine.chance import derive_seed
from targui_dsl.engine.protocol import GamePackage
from targui_dsl.games import game_of

__all__ = ["FIRST_USE_GAMES", "SAMPLE_EVERY", "Samples", "TrainingError", "collect", "fit", "score_for", "train"]

SAMPLE_EVERY = 8  # decisions between notes, on average: neighbouring positions say little new
RIDGE = 1e-2  # per position, on standardised features: how firmly the fit keeps to the hand-written prior
HOLD_OUT = 0.2  # the share of games (the last ones) kept out of the fit, to report its quality
FIRST_USE_GAMES = 300  # games a ruleset with no weights is trained on when a search bot first needs them
FIRST_USE_SEED = 1  # (so its weights are the same on every machine: a game of its bots replays the same)


class TrainingError(ValueError):
    """Training cannot be done (no features, no numpy, no game with a winner): one line, why."""


@dataclass
class Samples:
    """Noted positions: per note, each seat's features (None: out of the game) and its share of the win."""

    rows: list[list[list[float] | None]] = field(default_factory=list)
    results: list[list[float]] = field(default_factory=list)
    game_of_row: list[int] = field(default_factory=list)
    games: int = 0
    prior: list[float] | None = None  # the features' hand-written weights, if the game gives them


def collect(ruleset: Any, games: int, seed: int, bots: Sequence[str] = ("greedy",),
            progress: Callable[[int], None] | None = None) -> Samples:
    """Play ``games`` bot games of ``ruleset`` and note positions with their results."""
    package = game_of(ruleset)
    features = package.features
    if features is None:
        raise TrainingError(f"{package.title} gives no features to learn a position score from")
    counts = tuple(ruleset.player_counts)
    samples = Samples()
    for index in range(games):
        players = counts[index % len(counts)]
        listed = list(bots)[:players]
        kinds = listed + [listed[-1]] * (players - len(listed))
        shift = (index // len(counts)) % players  # seats rotated, game by game
        kinds = kinds[-shift:] + kinds[:-shift] if shift else kinds
        game_seed = derive_seed(seed, index)
        game = package.new_game(ruleset, players=players, seed=game_seed)
        state = game.new_initial_state()
        agents = [make_agent(kind, derive_seed(game_seed, seat + 1), package.name) for seat, kind in enumerate(kinds)]
        views = [state.observation(s) for s in range(players)]
        pick = random.Random(game_seed)
        if samples.prior is None and package.feature_prior is not None:
            samples.prior = package.feature_prior(state)
        noted: list[list[list[float] | None]] = []
        while not state.is_terminal():
            if pick.randrange(SAMPLE_EVERY) == 0:
                noted.append([features(state, s) for s in range(players)])
            seat = state.current_player()
            state.apply_action(agents[seat].choose(views[seat], state.legal_actions()))
        result = state.returns()
        if sum(result) > 0:
            for row in noted:
                samples.rows.append(row)
                samples.results.append(result)
                samples.game_of_row.append(index)
        samples.games += 1
        if progress is not None:
            progress(1)
    return samples


def fit(samples: Samples, names: Sequence[str], iterations: int = 50) -> tuple[list[float], dict[str, float]]:
    """The weights of the conditional logit that best predicts the winners (see the module
    text), and its held-out log-loss against a uniform guess."""
    try:
        import numpy as np
    except ImportError:  # an optional extra: pip install 'targui[train]'
        raise TrainingError("training a position score needs numpy (pip install 'targui[train]')") from None
    if not samples.rows:
        raise TrainingError("no finished game had a winner: nothing to learn from")
    width = len(names)
    seats = max(len(r) for r in samples.rows)
    n = len(samples.rows)
    x = np.zeros((n, seats, width))
    mask = np.zeros((n, seats), dtype=bool)
    y = np.zeros((n, seats))
    for i, (row, result) in enumerate(zip(samples.rows, samples.results, strict=True)):
        for s, values in enumerate(row):
            if values is not None and len(values) == width:
                x[i, s] = values
                mask[i, s] = True
                y[i, s] = result[s]
    keep = mask.any(axis=1) & ((y * mask).sum(axis=1) > 0)
    x, mask, y = x[keep], mask[keep], y[keep]
    games = np.array(samples.game_of_row)[keep]
    y = y / y.sum(axis=1, keepdims=True)
    cut = math.floor(samples.games * (1 - HOLD_OUT))
    train_rows = games < cut if cut > 0 and (games >= cut).any() and (games < cut).any() else np.ones(len(y), bool)
    scale = x[mask].std(axis=0)
    scale[~(scale > 1e-9)] = 1.0
    xs = x / scale

    def probabilities(w: Any, rows: Any) -> Any:
        z = np.where(mask[rows], xs[rows] @ w, -np.inf)
        z = z - z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(axis=1, keepdims=True)

    xt, yt, count = xs[train_rows], y[train_rows], int(train_rows.sum())

    def newton(w: Any, center: Any, ridge: float, basis: Any) -> Any:
        """Maximise the likelihood less ``ridge`` x the squared distance from ``center``, over
        weights ``basis @ v`` (the columns of ``basis``: the directions the fit may move in)."""
        v = np.zeros(basis.shape[1])
        for _ in range(iterations):
            full = w + basis @ v
            p = probabilities(full, train_rows)
            gradient = basis.T @ (np.einsum("ns,nsf->f", yt - p, xt) - ridge * count * (full - center))
            mean = np.einsum("ns,nsf->nf", p, xt)
            curvature = np.einsum("ns,nsf,nsg->fg", p, xt, xt) - mean.T @ mean + ridge * count * np.eye(width)
            step = np.linalg.solve(basis.T @ curvature @ basis, gradient)
            v = v + step
            if float(np.abs(step).max()) < 1e-8:
                break
        return w + basis @ v

    # The hand-written weights, scaled to odds first (one number fitted), are where the fit
    # starts and what it is held to: along directions the games cannot tell apart (features
    # that rise together), the learned score keeps the hand-written judgement.
    center = np.zeros(width)
    if samples.prior is not None and len(samples.prior) == width:
        hand = np.array(samples.prior, dtype=float) * scale
        if np.abs(hand).max() > 0:
            center = newton(np.zeros(width), np.zeros(width), 0.0, hand.reshape(width, 1))
    w = newton(center, center, RIDGE, np.eye(width))
    held = ~train_rows if (~train_rows).any() else train_rows
    outcome, present = y[held], mask[held]

    def log_loss(p: Any) -> float:
        with np.errstate(divide="ignore"):
            return float(-(outcome * np.log(np.where(present, p, 1.0))).sum() / held.sum())

    p = probabilities(w, held)
    quality = {"held_out_log_loss": round(log_loss(p), 4),
               "hand_log_loss": round(log_loss(probabilities(center, held)), 4),
               "uniform_log_loss": round(log_loss(present / present.sum(axis=1, keepdims=True)), 4),
               "held_out_top_pick": round(float((p.argmax(axis=1) == outcome.argmax(axis=1)).mean()), 4)}
    weights = [float(v) for v in w / scale]
    return weights, quality


def train(ruleset: Any, games: int, seed: int, bots: Sequence[str] = ("greedy",),
          progress: Callable[[int], None] | None = None) -> LearnedScore:
    """Play, note and fit: the learned score of ``ruleset`` (not yet written anywhere)."""
    package = game_of(ruleset)
    samples = collect(ruleset, games, seed, bots, progress)
    names = feature_names_of(package, ruleset)
    weights, quality = fit(samples, names)
    trained = {"games": games, "seed": seed, "bots": list(bots), "players": list(ruleset.player_counts),
               "positions": len(samples.rows), **quality}
    return LearnedScore(ruleset.id, ruleset_hash(ruleset), names, tuple(weights), trained)


def score_for(ruleset: Any, package: GamePackage, note: Callable[[str], None] | None = None) -> LearnedScore | None:
    """The learned score a search bot uses for ``ruleset``: shipped or cached weights, else
    weights trained now (``FIRST_USE_GAMES`` games of ``greedy``, a fixed seed: the same on
    every machine) and kept in the cache; None, with a note, when they cannot be (no numpy:
    the game's hand-written score is used). ``note``: where to say so (a line each)."""
    if package.features is None:
        return None
    found = learned_score(ruleset, package)
    if found is not None:
        return found
    say = note if note is not None else (lambda line: None)
    say(f"training a position score for {ruleset.id} ({FIRST_USE_GAMES} bot games, once; "
        f"`targui train` to train it longer)")
    try:
        score = train(ruleset, FIRST_USE_GAMES, FIRST_USE_SEED)
    except TrainingError as err:
        say(f"note: no learned score for {ruleset.id} ({err}): the search uses the hand-written score")
        remember(ruleset, None)
        return None
    remember(ruleset, score)
    try:
        write_score(score, cached_path(ruleset))
    except OSError as err:
        say(f"note: the score for {ruleset.id} is not kept ({err.strerror or err}): it is trained again next time")
    return score
