"""Odds for players: exact outcome distributions shown as whole percentages that add up to 100.

A game computes the exact chance of each *outcome* of an action (each a complete result, so
the chances sum to one) from the same tables its rules resolve with; this module turns that
distribution into the line a player reads before committing: "defender eliminated 17%,
defender redeploys 33%, no effect 50%". Rounding uses largest remainders, so the shown
figures always add up to exactly 100%.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from math import lcm
from typing import TYPE_CHECKING, Any, TypeVar

from .errors import TabletopError

if TYPE_CHECKING:
    from .decisions import Option

K = TypeVar("K")


def total(dist: Mapping[K, Fraction]) -> Fraction:
    """The sum of a distribution's chances (one for a complete set of outcomes)."""
    return sum(dist.values(), Fraction(0))


def percents(dist: Mapping[K, Fraction]) -> dict[K, int]:
    """Whole percentages for a complete distribution, adding up to exactly 100.

    Each outcome gets its chance rounded down, and the points still missing go to the
    outcomes with the largest remainders (ties: in the distribution's order).
    """
    # Worked in whole numbers over one common denominator (the same figures as in fractions,
    # a few times faster: a game may describe thousands of distributions).
    den = lcm(*(p.denominator for p in dist.values()))
    nums = {k: p.numerator * (den // p.denominator) for k, p in dist.items()}
    whole = sum(nums.values())
    if whole != den:
        raise TabletopError(f"the outcomes' chances add up to {Fraction(whole, den)}, not 1")
    return _whole_percents(nums, den)


def percents_counts(counts: Mapping[K, int], total: int) -> dict[K, int]:
    """:func:`percents` of a distribution given as whole counts of ``total`` equally likely
    ways (each outcome's chance is its count over ``total``; the counts add up to it),
    worked in whole numbers over ``total``: the same floors, and the remainders all scaled
    alike, so the same figures as over the reduced fractions' common denominator."""
    if sum(counts.values()) != total:
        raise TabletopError(f"the outcomes' counts add up to {sum(counts.values())}, not {total}")
    return _whole_percents(counts, total)


def _whole_percents(nums: Mapping[K, int], den: int) -> dict[K, int]:
    """Largest remainders over one denominator: each ``n / den`` rounded down (toward zero),
    the points still missing to the largest remainders (ties: in order)."""
    floors = {k: (100 * n) // den if n >= 0 else -((-100 * n) // den) for k, n in nums.items()}
    missing = 100 - sum(floors.values())
    order = sorted(nums, key=lambda k: -(100 * nums[k] - floors[k] * den))
    for k in order[:missing]:
        floors[k] += 1
    return floors


def describe(dist: Mapping[str, Fraction]) -> str:
    """A complete distribution as one line: "name 17%, name 33%, name 50%" (in the order
    given; an outcome that can happen but rounds to nothing shows as "<1%")."""
    return _line(tuple(dist.items()))


@lru_cache(maxsize=4096)
def _line(items: tuple[tuple[str, Fraction], ...]) -> str:
    """:func:`describe` of a distribution given as its items: kept, as the same few
    distributions come up again and again (a table's columns) and a line is a pure function
    of them."""
    dist = dict(items)
    shown = percents(dist)
    return ", ".join(f"{name} {f'{shown[name]}%' if shown[name] or not p else '<1%'}"
                     for name, p in dist.items() if p)


def describe_counts(counts: Mapping[str, int], total: int) -> str:
    """:func:`describe` of a distribution given as whole counts of ``total`` equally likely
    ways (:func:`percents_counts`): the same line, with no fractions to reduce."""
    shown = percents_counts(counts, total)
    return ", ".join(f"{name} {f'{shown[name]}%' if shown[name] else '<1%'}"
                     for name, n in counts.items() if n)


def option_odds(options: Sequence[Option]) -> tuple[tuple[str, ...], list[tuple[int, dict[str, int]]]]:
    """The odds of a decision's options as one table, shown once rather than under each
    option: the results, in the order they first appear, and for each option that carries
    its chances (``Option.detail["odds"]``: result -> chance), its index and its whole
    percentages (adding up to 100; an option's chances are as exact as the floats it gives).
    Empty when no option carries odds."""
    results: dict[str, None] = {}
    rows: list[tuple[int, dict[str, int]]] = []
    for index, option in enumerate(options):
        chances: Any = option.detail.get("odds") if option.detail else None
        if not isinstance(chances, Mapping) or not chances:
            continue
        try:
            counts = {str(k): round(float(v) * 1_000_000) for k, v in chances.items()}
        except (TypeError, ValueError):
            continue
        whole = sum(counts.values())
        if whole <= 0 or any(n < 0 for n in counts.values()):
            continue
        results.update(dict.fromkeys(k for k, n in counts.items() if n))
        rows.append((index, {k: p for k, p in _whole_percents(counts, whole).items() if counts[k]}))
    return tuple(results), rows
