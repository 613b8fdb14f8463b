"""The statistics of a balance study: shares with Wilson intervals, score summaries, paired differences.

A study plays the same seeds under each setting, so two settings are compared game by game:
the difference in a side's win rate comes with Newcombe's interval for paired proportions
(built from the two Wilson intervals and the correlation between the paired results), which
is narrower than treating the settings as independent samples when they share seeds. All
intervals are 95% (z = 1.96). Everything here is plain Python over row dictionaries
(see :mod:`tabletop.core.studies.study`), so the summary and the report compute the same figures.
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

Z95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95% interval."""

DIGITS = 4
"""Decimal places kept in the JSON summary (the rows keep every figure exactly)."""

Row = Mapping[str, Any]


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a share of k successes in n trials (0 ≤ k ≤ n, n > 0)."""
    if n <= 0:
        raise ValueError("a share needs at least one trial")
    p = k / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def share(k: int, n: int) -> dict[str, Any]:
    """A count as JSON: the count, its share of n and the share's 95% Wilson interval."""
    low, high = wilson(k, n)
    return {"count": k, "share": round(k / n, DIGITS), "ci95": [round(low, DIGITS), round(high, DIGITS)]}


def describe(values: Sequence[float]) -> dict[str, Any]:
    """A sample's summary: n, mean, standard deviation (n − 1), median, quartiles, least, greatest.

    Quartiles interpolate between order statistics (the "inclusive" method, numpy's default).
    """
    n = len(values)
    if n == 0:
        return {"n": 0}
    ordered = sorted(values)
    if n == 1:
        q1 = median = q3 = ordered[0]
    else:
        q1, median, q3 = statistics.quantiles(ordered, n=4, method="inclusive")
    return {
        "n": n,
        "mean": round(statistics.fmean(ordered), DIGITS),
        "sd": round(statistics.stdev(ordered), DIGITS) if n > 1 else 0.0,
        "median": round(median, DIGITS),
        "q1": round(q1, DIGITS),
        "q3": round(q3, DIGITS),
        "min": ordered[0],
        "max": ordered[-1],
    }


def paired_difference(first: Sequence[bool], second: Sequence[bool], z: float = Z95) -> dict[str, Any]:
    """The difference in a success rate between two settings played on the same seeds.

    ``first[i]`` and ``second[i]`` are the outcomes of the same seed. The estimate is
    share(second) − share(first); the interval is Newcombe's (1998, method 10): the two Wilson
    intervals combined with the correlation of the paired outcomes, corrected for continuity.
    """
    if len(first) != len(second):
        raise ValueError("paired samples must have the same length")
    pairs = Pairs()
    for a, b in zip(first, second, strict=True):
        pairs.add(a, b)
    return pairs.difference(z)


class Pairs:
    """Paired outcomes counted as they come: pairs, both, only the first, only the second."""

    __slots__ = ("both", "n", "only_first", "only_second")

    def __init__(self) -> None:
        self.n = self.both = self.only_first = self.only_second = 0

    def add(self, a: bool, b: bool) -> None:
        """Count one pair (the first setting's outcome, the second's)."""
        self.n += 1
        if a and b:
            self.both += 1
        elif b:
            self.only_second += 1
        elif a:
            self.only_first += 1

    def difference(self, z: float = Z95) -> dict[str, Any]:
        """The difference of the success rates with its interval (see :func:`paired_difference`)."""
        n, both, only_first, only_second = self.n, self.both, self.only_first, self.only_second
        if n == 0:
            return {"pairs": 0}
        neither = n - both - only_second - only_first
        p2, p1 = (both + only_second) / n, (both + only_first) / n
        low2, high2 = wilson(both + only_second, n, z)
        low1, high1 = wilson(both + only_first, n, z)
        margins = ((both + only_second) * (only_first + neither)
                   * (both + only_first) * (only_second + neither))
        phi = 0.0
        if margins > 0:
            cross = both * neither - only_second * only_first
            if cross > n / 2:
                phi = (cross - n / 2) / math.sqrt(margins)
            elif cross < 0:
                phi = cross / math.sqrt(margins)
        estimate = p2 - p1
        down = math.sqrt(max(0.0, (p2 - low2) ** 2 - 2 * phi * (p2 - low2) * (high1 - p1)
                             + (high1 - p1) ** 2))
        up = math.sqrt(max(0.0, (high2 - p2) ** 2 - 2 * phi * (high2 - p2) * (p1 - low1)
                           + (p1 - low1) ** 2))
        low, high = max(-1.0, estimate - down), min(1.0, estimate + up)
        return {
            "pairs": n,
            "difference": round(estimate, DIGITS),
            "ci95": [round(low, DIGITS), round(high, DIGITS)],
            "excludes_zero": low > 0 or high < 0,
            "discordant": [only_first, only_second],
        }


class Sample:
    """Numbers counted as they come, by value: what a summary needs of a sample (its size,
    and every order statistic) in memory that grows with the distinct values, not the count.
    Every figure computed from it is exact whatever the order the numbers came in (means by
    ``fsum``, deviations in exact arithmetic), so it equals the figure of the whole list."""

    __slots__ = ("counts", "n")

    def __init__(self) -> None:
        self.counts: Counter[float] = Counter()
        self.n = 0

    def add(self, value: float) -> None:
        """Count one number."""
        self.counts[value] += 1
        self.n += 1

    def ordered(self) -> list[float]:
        """The numbers in order: a list of references to the distinct values (8 bytes a
        number, for as long as the caller keeps it)."""
        out: list[float] = []
        for value in sorted(self.counts):
            out.extend(itertools.repeat(value, self.counts[value]))
        return out


def numeric_scores(row: Row) -> dict[str, float]:
    """A row's numeric scores (a draw or a game without scores gives none)."""
    scores = row.get("scores") or {}
    return {k: float(v) for k, v in scores.items()
            if isinstance(v, int | float) and not isinstance(v, bool) and not _is_nan(v)}


def _is_nan(value: float) -> bool:
    return isinstance(value, float) and math.isnan(value)


def summarise(rows: Iterable[Row], sides: Iterable[str]) -> dict[str, Any]:
    """The statistics of one setting's games: results, each side's win rate, scores, length.
    The rows are read once, as they come (a study's are read from disk)."""
    levels: Counter[str] = Counter()
    winners: Counter[Any] = Counter()
    scores: dict[str, Sample] = {}
    turns, decisions = Sample(), Sample()
    n = 0
    for r in rows:
        n += 1
        levels[str(r["result"])] += 1
        winners[r["winner"]] += 1
        for key, value in numeric_scores(r).items():
            scores.setdefault(key, Sample()).add(value)
        turns.add(float(r["turns"]))
        if r.get("decisions") is not None:
            decisions.add(float(r["decisions"]))
    if n == 0:
        return {"games": 0}
    sides = list(dict.fromkeys([*sides, *sorted(w for w in winners if w is not None)]))
    return {
        "games": n,
        "results": {level: share(k, n) for level, k in levels.most_common()},
        "win_rate": {side: share(winners.get(side, 0), n) for side in sides},
        "draws": share(winners.get(None, 0), n),
        "scores": {key: describe(values.ordered()) for key, values in sorted(scores.items())},
        "turns": describe(turns.ordered()),
        "decisions": describe(decisions.ordered()),
    }


def compare(baseline: Iterable[Row], other: Iterable[Row], sides: Iterable[str]) -> dict[str, Any]:
    """Paired differences of ``other`` against ``baseline``, seed by seed (seeds both played).

    For each side, the difference in win rate with its interval; for each score given in both
    games of a pair, the mean paired difference with a normal-approximation interval.
    """
    base_by_seed = {int(r["seed"]): r for r in baseline}
    return compare_pairs(((base_by_seed[int(r["seed"])], r) for r in other
                          if int(r["seed"]) in base_by_seed), sides)


def compare_pairs(pairs: Iterable[tuple[Row, Row]], sides: Iterable[str]) -> dict[str, Any]:
    """:func:`compare` of pairs of rows (the baseline's, the other's) given as they come."""
    sides = list(sides)
    wins = {side: Pairs() for side in sides}
    deltas: dict[str, Sample] = {}
    count = 0
    for a, b in pairs:
        count += 1
        for side in sides:
            wins[side].add(a["winner"] == side, b["winner"] == side)
        sa, sb = numeric_scores(a), numeric_scores(b)
        for key in sorted(sa.keys() & sb.keys()):
            deltas.setdefault(key, Sample()).add(sb[key] - sa[key])
    out: dict[str, Any] = {"pairs": count, "win_rate": {}, "scores": {}}
    for side in sides:
        out["win_rate"][side] = wins[side].difference()
    for key, values in sorted(deltas.items()):
        out["scores"][key] = mean_difference(values.ordered())
    return out


def mean_difference(deltas: Sequence[float], z: float = Z95) -> dict[str, Any]:
    """The mean of paired differences with a normal-approximation 95% interval."""
    n = len(deltas)
    mean = statistics.fmean(deltas)
    half = z * statistics.stdev(deltas) / math.sqrt(n) if n > 1 else math.inf
    low, high = mean - half, mean + half
    return {
        "pairs": n,
        "difference": round(mean, DIGITS),
        "ci95": [round(low, DIGITS), round(high, DIGITS)] if n > 1 else None,
        "excludes_zero": n > 1 and (low > 0 or high < 0),
    }
