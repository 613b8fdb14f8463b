"""Fits the weights of a game's evaluation (its ``data/ai.yaml``) to the results of its bots.

Run from the repository root, for example (what Iwo Jima 1945's weights came from)::

    python -m tools.fit_evaluation iwo_1945 --side USMC --kind usmc_turn \\
        --target margin --threshold 0.5 --seeds 1001-1300

It plays the seeds with every side's default bot. At each decision of ``--side`` (of the
decision kind ``--kind``, when given) it reads the values of the evaluation's features for
that side, as the evaluation takes them (``AI.features``), and at the end of the game the
target: the score field ``--target`` of ``Game.summary`` less ``--threshold`` (the value
below which the side does not win: 0.5 where a tie loses). A least-squares fit of the
target on the features gives each feature's weight: the evaluation's sum is then the
side's expected final margin over the threshold. A feature of measure ``constant`` is the
intercept (without one, the fit adds it and says so). It prints the weights, the residual's
standard deviation and the ``scale`` that makes ``tanh(sum / scale)`` about ``2 P(win) - 1``
if the final margin is spread normally around the fit (``tanh(0.851 x)`` is close to
``2 Phi(x) - 1``). The weights are fitted, not proven: they say what went with winning in
the bots' games. Write them into the file by hand (each feature's ``weight``, for the side
and its opposite for the other sides where they mirror).
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence

from tabletop.core.engine.ai import ai_of
from tabletop.core.engine.errors import TabletopError
from tabletop.core.engine.match import Game, Match
from tabletop.core.engine.registry import load_game, make_agent

NORMAL_TO_TANH = 0.851
"""tanh(0.851 x) is within 0.02 of 2 Phi(x) - 1 (Phi the standard normal distribution)."""


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """The solution of the square system ``a x = b`` by Gaussian elimination with partial
    pivoting (ValueError when it is singular)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        if abs(m[pivot][col]) < 1e-12:
            raise ValueError("the features are linearly dependent: drop one")
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def least_squares(rows: Sequence[Sequence[float]], target: Sequence[float]) -> list[float]:
    """The weights minimising the squared error of ``rows @ w`` against ``target``."""
    k = len(rows[0])
    xtx = [[sum(r[i] * r[j] for r in rows) for j in range(k)] for i in range(k)]
    xty = [sum(r[i] * t for r, t in zip(rows, target, strict=True)) for i in range(k)]
    return solve(xtx, xty)


def collect(game: Game, side: str, kind: str | None, target: str, threshold: float,
            seeds: range) -> tuple[list[str], list[list[float]], list[float]]:
    """(feature ids, their values at each decision read, the game's final target there)."""
    ai = ai_of(game)
    ids = [f.id for f in ai.spec.evaluation.features]
    rows: list[list[float]] = []
    targets: list[float] = []
    for seed in seeds:
        match = Match(game, seed=seed)
        agents = {s: make_agent(game, s, game.default_bot(s), seed) for s in game.info.players}
        read: list[list[float]] = []
        while match.pending is not None:
            decision = match.pending
            if decision.player == side and (kind is None or decision.kind == kind):
                values = ai.features(match, side)
                read.append([values[i] for i in ids])
            match.decide(agents[decision.player].choose(match.view(decision.player), decision))
        fields = game.summary(match)
        if target not in fields:
            raise TabletopError(f"game {game.info.id} has no score field {target!r} "
                                f"(fields: {', '.join(sorted(fields))})")
        final = float(fields[target]) - threshold
        rows.extend(read)
        targets.extend(final for _ in read)
    return ids, rows, targets


def seed_range(text: str) -> range:
    """``A-B`` (both included) as a range."""
    first, _, last = text.partition("-")
    return range(int(first), int(last or first) + 1)


def main(argv: Sequence[str] | None = None) -> int:
    """Fit and print; one line on stderr and exit 2 on bad arguments."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--side", required=True)
    parser.add_argument("--kind", default=None, help="only the decisions of this kind")
    parser.add_argument("--target", required=True, help="a score field of Game.summary")
    parser.add_argument("--threshold", type=float, default=0.0)
    parser.add_argument("--seeds", type=seed_range, default=range(1001, 1301))
    args = parser.parse_args(argv)
    try:
        game = load_game(args.game)
        ids, rows, targets = collect(game, args.side, args.kind, args.target,
                                     args.threshold, args.seeds)
        if not rows:
            raise TabletopError("no decision of the side (and kind) was read")
        if not any(f.measure == "constant" for f in ai_of(game).spec.evaluation.features):
            ids.append("(intercept: add a feature of measure constant)")
            rows = [[*r, 1.0] for r in rows]
        weights = least_squares(rows, targets)
    except (TabletopError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    residuals = [t - sum(w * x for w, x in zip(weights, r, strict=True))
                 for r, t in zip(rows, targets, strict=True)]
    sd = math.sqrt(sum(e * e for e in residuals) / max(1, len(residuals) - len(weights)))
    print(f"{len(rows)} positions of {len(args.seeds)} games; target {args.target} "
          f"less {args.threshold:g}")
    for name, w in zip(ids, weights, strict=True):
        print(f"  {name}: {w:.4g}")
    print(f"residual sd {sd:.3g}; scale {sd / NORMAL_TO_TANH:.3g}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
