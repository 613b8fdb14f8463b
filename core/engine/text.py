"""Words for players: ordinals and other small pieces of English the games and the terminal share."""

from __future__ import annotations

import re


def ordinal(n: int | str) -> str:
    """A number as an ordinal the way it is read: 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st,
    22nd, 23rd, 101st, 111th."""
    number = int(n)
    if 10 <= abs(number) % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(abs(number) % 10, "th")
    return f"{number}{suffix}"


def in_words(identifier: str) -> str:
    """An identifier as a player reads it when the game gives it no printed name: its
    underscores as spaces ("set_aside" -> "set aside", "us_move_1" -> "us move 1")."""
    return identifier.replace("_", " ")


#: A program's name for a thing, not a player's: a snake_case identifier (us_move_1, vp_usmc).
IDENTIFIER = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")

#: A Python value printed as it is: True, False, None, an empty or printed dict or list.
PYTHON_REPR = re.compile(r"\b(?:True|False|None)\b|\{\}|\[\]|\{'|\['")


def internal_names(text: str) -> list[str]:
    """The words of ``text`` a player should never read: snake_case identifiers (a phase or
    variable id, a unit kind's key) and Python reprs (``True``, ``{}``, ``['a']``), in order."""
    found = [(m.start(), m.group()) for m in IDENTIFIER.finditer(text)]
    found += [(m.start(), m.group()) for m in PYTHON_REPR.finditer(text)]
    return [word for _, word in sorted(found)]
