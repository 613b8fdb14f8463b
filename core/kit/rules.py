"""The options of a kit game's standard rules, as data (``data/kit.yaml``).

Each block names the rulebook section it implements (what decisions and events cite, and
what ``tabletop rules`` counts as the rule's hook) and the variant the game plays:

- ``movement``; ``zoc`` (``stop``: entering an enemy zone of control ends a move;
  ``leave_cost``: as ``stop``, and leaving one costs ``leave_cost`` MP more; ``locking``: a
  unit that begins in one may not move; ``none``), ``zoc_to_zoc``;
- ``stacking``: at most ``limit`` units (``by: count``) or unit points (``by: points``, each
  unit's ``points`` in units.yaml) in a hex at the end of a move, retreat or advance;
- ``attacks``: each unit attacks and each hex is attacked at most once a phase unless
  ``each_unit_once``/``each_hex_once`` say otherwise; ``multi_hex`` lets one attack take in
  several enemy hexes adjacent to all its attackers (attacking is always optional: the
  player may stop declaring at any time);
- ``odds``: ``columns: ratio`` (the CRT's columns are odds such as ``1:2``, ``3:1``; the odds
  are rounded ``down`` in the defender's favour, ``up`` or to the ``nearest`` column) or
  ``differential`` (attack minus defence, read by the CRT's number columns); ``below`` and
  ``above`` say what odds beyond the table read: its edge column (``column``) or a result
  code (``AE``: an attack too weak is the attacker's elimination);
- ``results``: what each result code of the CRT does (:class:`ResultEffect`);
- ``movement.stay_put``: whether a unit picked to move may end its move where it stands;
- ``losses`` (who picks the unit that loses a step: its ``owner`` or the ``rules``, the
  strongest first; ``first``: whose losses of a result apply first, the ``defender``'s or
  the ``attacker``'s), ``retreat`` (``through_zoc``: ``never``, ``step`` (a step lost for each
  enemy-controlled hex entered) or ``allowed``; ``blocked``: a unit that cannot retreat
  loses a ``step`` or is ``eliminated``; ``chooser``: ``owner`` or ``rules``), ``advance``
  (how many attackers may advance into a hex the defenders left: ``units``, 0 none);
- ``wiped_out``: per side, the section of the rule that a side with no unit left on the map
  loses at once (the kit's ``check_end``); ``objectives``: how many objective hexes the map
  must have (checked by ``validate``).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Literal, cast

from pydantic import Field, model_validator

from ..engine.data import AtPath, Section, StrictModel

if TYPE_CHECKING:
    from ..engine.match import Match
    from .game import KitGame

KIT_FILE = "kit.yaml"
"""The file of a kit game's ``data/`` folder holding the options of its standard rules."""


def kit(match: Match) -> KitGame:
    """The kit game of a match (its unchanging data: map, chart, CRT, rules)."""
    return cast("KitGame", match.game)


def ratio(label: str) -> Fraction:
    """An odds column's ratio: ``"3:1"`` is 3, ``"1:2"`` one half (ValueError otherwise)."""
    a, sep, b = label.partition(":")
    if not sep or not a.strip().isdigit() or not b.strip().isdigit() or int(b) == 0:
        raise ValueError(f"{label!r} is not odds such as 1:2 or 3:1")
    return Fraction(int(a), int(b))


class Movement(StrictModel):
    """3.x Moving units one at a time (the movement phase loop)."""

    section: Section = ""
    stay_put: bool = True  # a unit picked may end its move where it stands ("Stay put")


class Zoc(StrictModel):
    """Zones of control: the six hexes around a unit (less those its hexsides block)."""

    section: Section = ""
    rule: Literal["stop", "leave_cost", "locking", "none"] = "stop"
    leave_cost: float = Field(default=0.0, ge=0)
    zoc_to_zoc: bool = True  # a unit may step from one enemy-controlled hex straight into another


class Stacking(StrictModel):
    """How much may stand in a hex at the end of a move, retreat or advance."""

    section: Section = ""
    limit: int | None = Field(default=None, ge=1)  # None: no limit
    by: Literal["count", "points"] = "count"


class Attacks(StrictModel):
    """Declaring attacks (the attack phase loop)."""

    section: Section = ""
    each_unit_once: bool = True
    each_hex_once: bool = True
    multi_hex: bool = False


class Odds(StrictModel):
    """How an attack's strengths become a CRT column."""

    section: Section = ""
    columns: Literal["ratio", "differential"] = "ratio"
    rounding: Literal["down", "up", "nearest"] = "down"
    below: str = "column"
    above: str = "column"


class ResultEffect(StrictModel):
    """What one result of the CRT does (every field optional, several may combine)."""

    attacker_steps: int = Field(default=0, ge=0)
    defender_steps: int = Field(default=0, ge=0)
    attacker_eliminated: bool = False
    defender_eliminated: bool = False
    exchange: bool = False  # the attackers lose as many steps as the defenders lost
    retreat: int = Field(default=0, ge=0)  # hexes each surviving defender retreats
    attacker_retreat: int = Field(default=0, ge=0)
    engaged: bool = False  # the units of both sides may not move in their next movement phase


class Results(StrictModel):
    """The CRT's results, by code."""

    section: Section = ""
    effects: dict[str, ResultEffect] = Field(min_length=1)


class Losses(StrictModel):
    """Step losses: a two-step unit flips to its back, a one-step unit is eliminated."""

    section: Section = ""
    chooser: Literal["owner", "rules"] = "owner"
    first: Literal["defender", "attacker"] = "defender"  # whose losses of a result apply first


class Retreat(StrictModel):
    """Retreats after combat."""

    section: Section = ""
    through_zoc: Literal["never", "step", "allowed"] = "never"
    blocked: Literal["step", "eliminate"] = "step"
    chooser: Literal["owner", "rules"] = "owner"


class Advance(StrictModel):
    """Advance after combat into the hex the defenders left."""

    section: Section = ""
    units: int | None = Field(default=None, ge=0)  # the most that may advance (None: all)


class KitRules(StrictModel):
    """The model of ``data/kit.yaml``."""

    sides: tuple[str, str]
    eliminated: str = "box:eliminated"  # the map's box eliminated units go to
    crt: str = "crt.yaml"
    movement: Movement = Movement()
    zoc: Zoc = Zoc()
    stacking: Stacking = Stacking()
    attacks: Attacks = Attacks()
    odds: Odds = Odds()
    results: Results
    losses: Losses = Losses()
    retreat: Retreat = Retreat()
    advance: Advance = Advance()
    #: per side, the section of "a side with no unit left on the map loses at once" (none: no such rule)
    wiped_out: dict[str, Section] = Field(default_factory=dict)
    #: how many hexes of the map carry the ``objective`` feature (None: any number)
    objectives: int | None = Field(default=None, ge=1)

    @model_validator(mode="after")
    def _codes(self) -> KitRules:
        for side in self.wiped_out:
            if side not in self.sides:
                raise AtPath(("wiped_out", side), f"{side!r} is not a side ({', '.join(self.sides)})")
        for where, code in (("below", self.odds.below), ("above", self.odds.above)):
            if code != "column" and code not in self.results.effects:
                raise AtPath(("odds", where), f"{code!r} is neither `column` nor a result of "
                             f"results.effects ({', '.join(self.results.effects)})")
        if not (self.attacks.each_unit_once or self.attacks.each_hex_once):
            raise AtPath(("attacks",), "each_unit_once and each_hex_once may not both be false "
                         "(an attack phase would never run out of attacks)")
        if self.losses.first == "attacker" and any(e.exchange for e in self.results.effects.values()):
            raise AtPath(("losses", "first"), "an exchange matches the defender's losses: they "
                         "apply first (give the attacker's steps as attacker_steps instead)")
        if self.sides[0] == self.sides[1]:
            raise AtPath(("sides",), "name two different sides")
        return self
