"""Writes iwo_1945's data/dice_plan.yaml: the heuristic bot's reroll plans (6.0 attack dice),
worked out once.

Run from the repository root: ``python -m tools.iwo_1945_dice_plan`` (rewrites
games/iwo_1945/data/dice_plan.yaml).

The bot's plan for a pool of attack dice (``bots.reroll_plan``) is a small dynamic programme
over the 6.0 dice (``bots._value``), a pure function of the pool, the markers the attack
needs and the price of a reroll. Worked out as the games ask, its memo fills over the first
~30 games of a process; this script works it out once for every pool of up to
:data:`MAX_DICE` dice and every need and price the bot uses, with that very function (the
same floats, the same tie-breaks), and writes the answers as a data file the bot reads
(validated by ``components.DicePlan``). A test regenerates the text and compares it with
the file, so the table cannot drift from the function.
"""

from __future__ import annotations

import sys
from pathlib import Path

from tabletop.games.iwo_1945.bots import LAMBDAS, NEEDS, _value, pools, reroll_depth
from tabletop.games.iwo_1945.components import FILES, PLAN_DIGITS

TARGET = Path(__file__).resolve().parents[1] / "games" / "iwo_1945" / "data" / FILES["dice_plan"]
"""The file written: the game's data/dice_plan.yaml in this repository."""

MAX_DICE = 12
"""The largest pool tabled: 5 dice and what cards add (the largest pool in 100 default-bot
games holds 12 rerollable dice, 44 of 9,931 plans 11 or 12, each costing milliseconds at
depth 1 when not tabled; larger pools, if any, are worked out by the function itself)."""

WIDTH = 100  # characters of a plan string a line

HEADER = """\
# Iwo Jima 1945: the heuristic bot's reroll plans (6.0 attack dice), worked out by
# tools/iwo_1945_dice_plan.py (python -m tools.iwo_1945_dice_plan) from bots._value: do not
# edit. tables[].plans joined hold one plan a pool of 1 to max_dice rerollable dice (counts
# of 1s, 2s, 5s and 6s), the pools by size and then in lexicographic order; a plan is 4
# base-36 digits, the 1s, 2s, 5s and 6s to reroll now, 0000 to stop.
"""


def encode(plan: tuple[int, int, int, int] | None) -> str:
    """A plan as 4 characters: the 1s, 2s, 5s and 6s to reroll, one base-36 digit each;
    ``0000`` (never a reroll) stops."""
    return "0000" if plan is None else "".join(PLAN_DIGITS[n] for n in plan)


def head() -> str:
    """The text of dice_plan.yaml before its tables."""
    return "\n".join([HEADER.rstrip("\n"), f"max_dice: {MAX_DICE}", "tables:"]) + "\n"


def table(need: int, lam: float) -> str:
    """The text of the table of plans for one need and price (each pool's plan in order)."""
    text = "".join(encode(_value(s, need, lam, reroll_depth(sum(s)))[1]) for s in pools(MAX_DICE))
    lines = [f"- need: {need}", f"  price: {lam!r}", "  plans:"]
    lines += [f'  - "{text[i:i + WIDTH]}"' for i in range(0, len(text), WIDTH)]
    return "\n".join(lines) + "\n"


def source() -> str:
    """The text of dice_plan.yaml: its head, then the tables need by need, price by price."""
    return head() + "".join(table(need, lam) for need in NEEDS for lam in LAMBDAS)


def main() -> int:
    """Write the game's data/dice_plan.yaml."""
    TARGET.write_text(source(), encoding="utf-8")
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
