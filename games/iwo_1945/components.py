"""The printed components of Iwo Jima 1945 as data: board, pieces, set-up, victory, both decks.

The rulebook prints none of them. ``games/iwo_1945/data/*.yaml`` reconstruct them (what is
the rulebook's word and what is ours is in ``docs/games/iwo_1945.md``); this module holds
the models those files are validated against, the closed vocabulary of card effects, and
:func:`load_components`, which loads every file and cross-checks them against each other.
Every failure is a :class:`DataError` naming the file, the path inside it and what was
expected.
"""

from __future__ import annotations

import copy
import itertools
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, field_validator, model_validator

from tabletop.core.board.mapdata import AreaMapSpec
from tabletop.core.designer.coverage import SectionsFile
from tabletop.core.engine.data import StrictModel, load_model, validate
from tabletop.core.engine.errors import DataError

DATA_DIR = Path(__file__).resolve().parent / "data"

#: The data files of the game, by role.
FILES: Mapping[str, str] = MappingProxyType({
    "board": "board.yaml",
    "pieces": "pieces.yaml",
    "setup": "setup.yaml",
    "victory": "victory.yaml",
    "usmc_cards": "usmc_cards.yaml",
    "japanese_cards": "japanese_cards.yaml",
    "dice_plan": "dice_plan.yaml",
})

SLUG = re.compile(r"^[a-z][a-z0-9_]*$")
REGIMENT_ID = re.compile(r"^\d/\d{1,2}$")

# --------------------------------------------------------------------------------------
# The board: attributes of the positions, and where the off-board boxes are drawn
# --------------------------------------------------------------------------------------


class PositionAttrs(StrictModel):
    """The attributes of one board position (an AreaSpec's ``attrs``), checked by kind.

    Island positions carry their circled number, attack priority (1 highest, 6.0), mountain
    icon (2.0) and victory points (7.0); beaches (``beach: true``) carry their
    left-to-right order (6.0) and nothing else of those.
    """

    beach: bool = False
    slots: int = Field(default=3, ge=1, le=3)
    number: int | None = Field(default=None, ge=1)
    priority: int | None = Field(default=None, ge=1)
    mountain: bool = False
    airfield: bool = False  # drawn as an icon only; no rule depends on it
    beach_order: int | None = Field(default=None, ge=1)
    vp_usmc: int | None = Field(default=None, ge=0)
    vp_japanese: int | None = Field(default=None, ge=0)
    color: str | None = None
    history: str = Field(min_length=1)

    @property
    def kind(self) -> Literal["beach", "island"]:
        """``beach`` or ``island``."""
        return "beach" if self.beach else "island"

    @model_validator(mode="after")
    def _by_kind(self) -> PositionAttrs:
        island_only = ("number", "priority", "vp_usmc", "vp_japanese")
        if not self.beach:
            missing = [k for k in island_only if getattr(self, k) is None]
            if missing:
                raise ValueError(f"an island position needs {', '.join(missing)}")
            if self.beach_order is not None:
                raise ValueError("an island position has no beach_order")
        else:
            if self.beach_order is None:
                raise ValueError("a beach needs beach_order (its place left to right)")
            extra = [k for k in island_only if getattr(self, k) is not None]
            extra += [k for k in ("mountain", "airfield") if getattr(self, k)]
            if extra:
                raise ValueError(f"a beach has no number, priority, VP, mountain or airfield "
                                 f"(found {', '.join(extra)})")
        return self


# --------------------------------------------------------------------------------------
# The pieces
# --------------------------------------------------------------------------------------


class CohesionTrack(StrictModel):
    """The printed regiment cohesion track's range (2.0, 4.0: 12 to 1)."""

    top: int = Field(ge=2)
    bottom: int = Field(ge=1)

    @model_validator(mode="after")
    def _ordered(self) -> CohesionTrack:
        if self.bottom >= self.top:
            raise ValueError(f"bottom {self.bottom} must be below top {self.top}")
        return self


class RegimentSpec(StrictModel):
    """One USMC regiment: its printed designation ``division/regiment`` and cohesion track."""

    id: str
    division: int = Field(ge=1)
    regiment: int = Field(ge=1)
    track: str  # the board box of its cohesion track
    history: str = Field(min_length=1)

    @model_validator(mode="after")
    def _designation(self) -> RegimentSpec:
        if not REGIMENT_ID.match(self.id):
            raise ValueError(f"regiment id {self.id!r} is not 'division/regiment' like '4/23'")
        if self.id != f"{self.division}/{self.regiment}":
            raise ValueError(f"regiment id {self.id!r} disagrees with division "
                             f"{self.division} and regiment {self.regiment}")
        return self


class UsmcPieces(StrictModel):
    """The USMC markers: nine regiments of three green markers each (3.0)."""

    color: str
    label: str
    markers_per_regiment: int = Field(ge=1)
    cohesion_track: CohesionTrack
    regiments: tuple[RegimentSpec, ...] = Field(min_length=1)

    @field_validator("regiments")
    @classmethod
    def _unique(cls, v: tuple[RegimentSpec, ...]) -> tuple[RegimentSpec, ...]:
        ids = [r.id for r in v]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"regiment ids repeat: {', '.join(dupes)}")
        return v


class JapanesePieces(StrictModel):
    """The Japanese markers: golden, one IJA label each (3.0)."""

    color: str
    label: str
    markers: int = Field(ge=1)


class CubeSpec(StrictModel):
    """One kind of wooden cube: infiltration, bunker, cohesion, exhaustion, Suribachi."""

    id: str
    color: str
    count: int = Field(ge=1)
    purpose: str = Field(min_length=1)


class Pieces(StrictModel):
    """Every wooden piece of the game (pieces.yaml)."""

    usmc: UsmcPieces
    japanese: JapanesePieces
    cubes: tuple[CubeSpec, ...]

    @field_validator("cubes")
    @classmethod
    def _unique(cls, v: tuple[CubeSpec, ...]) -> tuple[CubeSpec, ...]:
        ids = [c.id for c in v]
        if len(set(ids)) != len(ids):
            raise ValueError("two kinds of cube share an id")
        return v

    def cube(self, cube_id: str) -> CubeSpec:
        """The cube kind of that id, or a DataError."""
        for c in self.cubes:
            if c.id == cube_id:
                return c
        raise DataError(f"pieces.yaml: cubes: no cube kind {cube_id!r}")

    def regiment(self, regiment_id: str) -> RegimentSpec:
        """The regiment of that designation (e.g. ``"4/23"``), or a DataError."""
        for r in self.usmc.regiments:
            if r.id == regiment_id:
                return r
        raise DataError(f"pieces.yaml: usmc.regiments: no regiment {regiment_id!r}")


# --------------------------------------------------------------------------------------
# Set-up and victory
# --------------------------------------------------------------------------------------


class DeckDeal(StrictModel):
    """How many cards of each deck are dealt at set-up, and the USMC hand size (5.0, 8.0)."""

    japanese_deal: int = Field(ge=1)
    usmc_deal: int = Field(ge=1)
    hand_size: int = Field(ge=1)


class SpecialLanding(StrictModel):
    """The Special Landing Phase's fire (6.0): dice per beach, and 1s count for nothing."""

    dice: int = Field(ge=1)
    ones_no_effect: bool = True


class SetupOption(StrictModel):
    """A named variant of the set-up: overrides of set-up values by dotted path."""

    id: str
    section: str  # the rulebook section it comes from, or "ours"
    description: str = Field(min_length=1)
    set: dict[str, Any] = Field(min_length=1)


class Setup(StrictModel):
    """The game's set-up (setup.yaml): who starts where, what is dealt, and the options."""

    landing: dict[str, str]  # beach id -> regiment id
    reserves: tuple[str, ...]
    cohesion_start: int
    japanese: dict[str, int]  # island position id -> markers
    infiltration: dict[str, int]  # box id -> cubes
    decks: DeckDeal
    special_landing: SpecialLanding
    options: tuple[SetupOption, ...] = ()

    def option(self, option_id: str) -> SetupOption:
        """The option of that id, or a DataError listing the known ones."""
        for opt in self.options:
            if opt.id == option_id:
                return opt
        known = ", ".join(o.id for o in self.options) or "none"
        raise DataError(f"setup.yaml: options: no option {option_id!r} (known: {known})")

    def with_options(self, *option_ids: str) -> Setup:
        """This set-up with the named options' overrides applied in order, re-validated."""
        data = self.model_dump()
        for option_id in option_ids:
            opt = self.option(option_id)
            for path, value in opt.set.items():
                _set_path(data, path, copy.deepcopy(value),
                          where=f"setup.yaml: options.{option_id}.set.{path}")
        return validate(Setup, data, source=f"setup.yaml with options {', '.join(option_ids)}")


def _set_path(data: dict[str, Any], path: str, value: Any, *, where: str) -> None:
    """Set ``value`` at a dotted path in nested dicts, refusing paths that do not exist."""
    *parents, last = path.split(".")
    node: Any = data
    for part in parents:
        if not isinstance(node, dict) or part not in node:
            raise DataError(f"{where}: no set-up value {path!r}")
        node = node[part]
    if not isinstance(node, dict) or last not in node:
        raise DataError(f"{where}: no set-up value {path!r}")
    node[last] = value


class UsmcVp(StrictModel):
    """USMC victory points other than positions (7.0)."""

    per_japanese_card_left_after_full_control: int = Field(ge=0)


class JapaneseVp(StrictModel):
    """Japanese victory points other than positions (7.0)."""

    per_usmc_marker_eliminated: int = Field(ge=0)
    per_usmc_regiment_exhausted: int = Field(ge=0)


class VictoryLevel(StrictModel):
    """A USMC victory level by the VP margin over the Japanese (7.0)."""

    name: str
    min_margin: int = Field(ge=1)
    max_margin: int | None = None


class Victory(StrictModel):
    """Victory points and victory levels (victory.yaml); positions' VP are board attrs."""

    usmc: UsmcVp
    japanese: JapaneseVp
    tie_goes_to: Literal["japanese", "usmc"]
    levels: tuple[VictoryLevel, ...] = Field(min_length=1)

    @field_validator("levels")
    @classmethod
    def _contiguous(cls, v: tuple[VictoryLevel, ...]) -> tuple[VictoryLevel, ...]:
        if v[0].min_margin != 1:
            raise ValueError("the first level must start at a margin of 1")
        for lower, upper in itertools.pairwise(v):
            if lower.max_margin is None or upper.min_margin != lower.max_margin + 1:
                raise ValueError(f"level {upper.name!r} must start right after {lower.name!r}")
        if v[-1].max_margin is not None:
            raise ValueError("the last level must be open-ended (no max_margin)")
        return v

    def level(self, margin: int) -> str | None:
        """The USMC victory level for a VP margin (USMC minus Japanese); None if not a win."""
        for lvl in self.levels:
            if margin >= lvl.min_margin and (lvl.max_margin is None or margin <= lvl.max_margin):
                return lvl.name
        return None


# --------------------------------------------------------------------------------------
# The card-effect vocabulary
# --------------------------------------------------------------------------------------

#: How the Japanese choose a target (6.0 attack priority and its variants on cards).
Target = Literal["priority", "island", "beach", "each_beach"]
#: The five USMC actions (6.0).
ActionKind = Literal["place_new_wave", "regroup", "rotate", "move", "attack"]
#: The Japanese effects a USMC card may cancel.
JapaneseKind = Literal["fire_attack", "fields_of_fire", "banzai", "move_markers",
                       "infiltrate", "reduce_cohesion"]


class FireAttack(StrictModel):
    """Japanese fire attacks (6.0): ``count`` attacks down the attack-priority list.

    Each roll is ``dice`` dice (+1 against a beach, 6.0) on the Japanese Fire Attack chart.
    Each further attack takes the next target in priority (island positions before
    beaches). With ``adjacent`` false the fire needs no arrow (6.0 "adjacency is not
    required") and comes from the lowest-priority Japanese-occupied position. With
    ``from_position`` only that position fires, and only while Japanese-occupied.
    """

    type: Literal["fire_attack"]
    count: int = Field(default=1, ge=1, le=4)
    dice: int = Field(default=3, ge=1, le=8)
    target: Target = "priority"
    adjacent: bool = True
    from_position: str | None = None


class FieldsOfFire(StrictModel):
    """Fields of fire (6.0): every Japanese-occupied position adjacent to the target fires.

    The target is chosen by ``target`` (never ``each_beach``); each adjacent position makes
    one fire attack of ``dice`` dice against it (+1 against a beach).
    """

    type: Literal["fields_of_fire"]
    dice: int = Field(default=3, ge=1, le=8)
    target: Literal["priority", "island", "beach"] = "priority"


class Banzai(StrictModel):
    """Banzai attacks (6.0): ``dice`` dice on the Banzai chart, island positions only."""

    type: Literal["banzai"]
    count: int = Field(default=1, ge=1, le=3)
    dice: int = Field(default=5, ge=1, le=8)
    target: Literal["priority"] = "priority"
    adjacent: bool = True


class MoveMarkers(StrictModel):
    """Japanese marker movement (6.0 Marker Movement, 9.0 #2).

    ``count`` markers (or ``all`` of them) leave the lowest-priority Japanese-occupied
    position for ``destination``: ``reinforce`` is the highest-priority Japanese-occupied
    position with an empty slot; ``reoccupy`` is the highest-priority vacant island
    position (which retakes control of it, 2.0). The positions need not be adjacent
    (6.0) unless ``adjacent``; the way may pass USMC-occupied positions only when
    ``through_usmc`` (9.0 #2); otherwise a chain of arrows free of USMC markers must join
    them.
    """

    type: Literal["move_markers"]
    count: int | Literal["all"] = 1
    source: Literal["lowest_priority"] = "lowest_priority"
    destination: Literal["reinforce", "reoccupy"]
    adjacent: bool = False
    through_usmc: bool = False

    @field_validator("count")
    @classmethod
    def _count(cls, v: int | str) -> int | str:
        if isinstance(v, int) and not 1 <= v <= 3:
            raise ValueError("count must be 1, 2, 3 or 'all' (6.0: singly, doubly, or all)")
        return v

    @model_validator(mode="after")
    def _route(self) -> MoveMarkers:
        if self.adjacent and self.through_usmc:
            raise ValueError("a move to an adjacent position cannot pass through USMC positions")
        return self


class Infiltrate(StrictModel):
    """Infiltration (6.0): gold cubes from the Rising Sun squares into USMC positions.

    Each cube goes to the highest-priority USMC-occupied position with an empty slot, or a
    USMC-controlled position without USMC markers.
    """

    type: Literal["infiltrate"]
    count: int = Field(default=1, ge=1, le=3)
    target: Literal["priority"] = "priority"


class PlaceBunker(StrictModel):
    """Place bunker cubes (3.0) in occupied island positions without one.

    Japanese cards place them by priority: ``highest_priority`` Japanese-occupied island
    position, or the highest-priority one ``adjacent_to_usmc``; USMC cards in a position
    of the player's ``chosen``.
    """

    type: Literal["place_bunker"]
    count: int = Field(default=1, ge=1, le=3)
    side: Literal["japanese", "usmc"]
    where: Literal["highest_priority", "adjacent_to_usmc", "chosen"]

    @model_validator(mode="after")
    def _where(self) -> PlaceBunker:
        if (self.side == "usmc") != (self.where == "chosen"):
            raise ValueError("USMC bunkers go where the player chooses ('chosen'); Japanese "
                             "bunkers by priority ('highest_priority' or 'adjacent_to_usmc')")
        return self


class ReduceCohesion(StrictModel):
    """Reduce the cohesion of the regiment(s) in the target position(s), no dice (4.0)."""

    type: Literal["reduce_cohesion"]
    amount: int = Field(default=1, ge=1, le=3)
    target: Target = "priority"


class AddAttackDice(StrictModel):
    """Extra dice for one USMC attack (6.0 "plus any for tactics cards played")."""

    type: Literal["add_attack_dice"]
    n: int = Field(ge=1, le=4)
    against: Literal["any", "not_mountain", "mountain"] = "any"


class Reroll(StrictModel):
    """Rerolls. ``usmc``: n reroll steps in one USMC attack that do not reduce cohesion.

    ``japanese``: the USMC player rerolls up to n dice of one Japanese attack; the new
    results stand.
    """

    type: Literal["reroll"]
    n: int = Field(ge=1, le=4)
    dice: Literal["usmc", "japanese"] = "usmc"


class RaiseCohesion(StrictModel):
    """Raise cohesion (4.0, 9.0 #3) of one on-board regiment or of all, to at most 12."""

    type: Literal["raise_cohesion"]
    amount: int = Field(ge=1, le=6)
    target: Literal["one_regiment", "all_on_board"]


class RemoveBunker(StrictModel):
    """Remove the bunker in the position being attacked before the dice are rolled; with
    ``against``, only when the attacked position is (not) a mountain (as the card says)."""

    type: Literal["remove_bunker"]
    where: Literal["attacked_position"] = "attacked_position"
    against: Literal["any", "not_mountain", "mountain"] = "any"


class ExtraActions(StrictModel):
    """More actions this USMC turn (6.0 allows one): ``regiments`` actions in all.

    No regiment takes two of them; placing a new wave counts as one (10.0). With ``only``,
    the actions beyond the first must be of those kinds.
    """

    type: Literal["extra_actions"]
    regiments: int = Field(ge=2, le=9)
    only: tuple[ActionKind, ...] | None = None


class CancelJapanese(StrictModel):
    """Cancel ``count`` effect(s) of the listed kinds on the Japanese card being followed."""

    type: Literal["cancel_japanese"]
    kinds: tuple[JapaneseKind, ...] = Field(min_length=1)
    count: int = Field(default=1, ge=1)


class ForbidActions(StrictModel):
    """A penalty: the listed USMC actions may not be taken this turn."""

    type: Literal["forbid_actions"]
    actions: tuple[ActionKind, ...] = Field(min_length=1)
    duration: Literal["this_turn"] = "this_turn"


class Hook(StrictModel):
    """The escape hatch: an effect carried out by a named rule hook, declared in the deck."""

    type: Literal["hook"]
    name: str
    params: dict[str, Any] = Field(default_factory=dict)

    @field_validator("name")
    @classmethod
    def _slug(cls, v: str) -> str:
        if not SLUG.match(v):
            raise ValueError(f"hook name {v!r} must be lower_snake_case")
        return v


JapaneseEffect = Annotated[
    FireAttack | FieldsOfFire | Banzai | MoveMarkers | Infiltrate | PlaceBunker
    | ReduceCohesion | Hook,
    Field(discriminator="type"),
]
UsmcEffect = Annotated[
    AddAttackDice | Reroll | RaiseCohesion | PlaceBunker | RemoveBunker | ExtraActions
    | CancelJapanese | ForbidActions | Hook,
    Field(discriminator="type"),
]

# --------------------------------------------------------------------------------------
# The cards and decks
# --------------------------------------------------------------------------------------


class _Card(StrictModel):
    """What every card shows: a title, its instructions, a line of history; and its copies."""

    id: str
    title: str = Field(min_length=1)
    count: int = Field(ge=1)
    text: str = Field(min_length=1)
    history: str = Field(min_length=1)

    @field_validator("id")
    @classmethod
    def _slug(cls, v: str) -> str:
        if not SLUG.match(v):
            raise ValueError(f"card id {v!r} must be lower_snake_case")
        return v


class JapaneseCard(_Card):
    """A Japanese AI Activation card: followed in full when drawn (3.0, 6.0)."""

    effects: tuple[JapaneseEffect, ...] = Field(min_length=1)


class UsmcCard(_Card):
    """A USMC Tactic card: says when it may be played (3.0) and what it does."""

    play: Literal["usmc_turn", "japanese_turn", "either", "when_drawn"]
    discard_at_setup: bool = False  # 5.0: Bad Weather drawn in the starting hand
    effects: tuple[UsmcEffect, ...] = Field(min_length=1)


class Knob(StrictModel):
    """A number a balance simulation may tune, by path ``card_id.field[.index.field]``."""

    path: str
    min: int
    max: int
    why: str = Field(min_length=1)

    @model_validator(mode="after")
    def _range(self) -> Knob:
        if self.min > self.max:
            raise ValueError(f"knob {self.path}: min {self.min} above max {self.max}")
        return self


class _Deck(StrictModel):
    """A deck's common checks: unique card ids, counts adding up to the size, hooks used."""

    size: int = Field(ge=1)
    hooks: dict[str, str] = Field(default_factory=dict)
    knobs: tuple[Knob, ...] = ()

    def _check_cards(self, cards: Iterable[_Card]) -> None:
        cards = list(cards)
        ids = [c.id for c in cards]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"card ids repeat: {', '.join(dupes)}")
        total = sum(c.count for c in cards)
        if total != self.size:
            raise ValueError(f"the counts of the cards add up to {total}, not the deck size "
                             f"{self.size}")


class JapaneseDeck(_Deck):
    """The Japanese AI Activation deck (japanese_cards.yaml)."""

    deck: Literal["japanese"]
    cards: tuple[JapaneseCard, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _consistent(self) -> JapaneseDeck:
        self._check_cards(self.cards)
        for card in self.cards:
            for i, eff in enumerate(card.effects):
                if isinstance(eff, PlaceBunker) and eff.side != "japanese":
                    raise ValueError(f"card {card.id}: effects.{i}: a Japanese card places "
                                     "Japanese bunkers (side: japanese)")
        return self

    def card(self, card_id: str) -> JapaneseCard:
        """The card of that id, or a DataError."""
        for c in self.cards:
            if c.id == card_id:
                return c
        raise DataError(f"japanese_cards.yaml: cards: no card {card_id!r}")


class UsmcDeck(_Deck):
    """The USMC Tactic deck (usmc_cards.yaml)."""

    deck: Literal["usmc"]
    cards: tuple[UsmcCard, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _consistent(self) -> UsmcDeck:
        self._check_cards(self.cards)
        return self

    def card(self, card_id: str) -> UsmcCard:
        """The card of that id, or a DataError."""
        for c in self.cards:
            if c.id == card_id:
                return c
        raise DataError(f"usmc_cards.yaml: cards: no card {card_id!r}")


def expand_deck(deck: JapaneseDeck | UsmcDeck) -> list[str]:
    """Every physical card of a deck as a unique id ``card_id#n`` (n from 1), unshuffled."""
    return [f"{c.id}#{n}" for c in deck.cards for n in range(1, c.count + 1)]


def card_id_of(instance: str) -> str:
    """The card id of a physical card id made by :func:`expand_deck`."""
    return instance.split("#", 1)[0]


def resolve_knob(deck: JapaneseDeck | UsmcDeck, path: str) -> Any:
    """The current value at a knob path (``card_id.field[.index.field...]``), or DataError."""
    first, *rest = path.split(".")
    node: Any = deck.card(first)
    for part in rest:
        if isinstance(node, tuple) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        elif isinstance(node, BaseModel) and part in type(node).model_fields:
            node = getattr(node, part)
        else:
            raise DataError(f"{deck.deck}: knob {path!r}: no field {part!r}")
    return node


# --------------------------------------------------------------------------------------
# Everything together
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Components:
    """Every component of the game, loaded and cross-checked, with the look-ups rules need."""

    board: AreaMapSpec
    positions: dict[str, PositionAttrs]
    pieces: Pieces
    setup: Setup
    victory: Victory
    usmc_deck: UsmcDeck
    japanese_deck: JapaneseDeck

    def island_positions(self) -> list[str]:
        """The ten island positions, highest attack priority (1) first."""
        islands = [a for a, p in self.positions.items() if p.kind == "island"]
        return sorted(islands, key=lambda a: self.positions[a].priority or 0)

    def beaches(self) -> list[str]:
        """The beach positions left to right (Green, Red, Yellow, Blue)."""
        beaches = [a for a, p in self.positions.items() if p.kind == "beach"]
        return sorted(beaches, key=lambda a: self.positions[a].beach_order or 0)

    def mountains(self) -> list[str]:
        """The island positions with a mountain icon, in priority order."""
        return [a for a in self.island_positions() if self.positions[a].mountain]

    def by_number(self, number: int) -> str:
        """The island position with that circled number, or a DataError."""
        for a, p in self.positions.items():
            if p.kind == "island" and p.number == number:
                return a
        raise DataError(f"board.yaml: areas: no island position #{number}")

    def neighbours(self, area_id: str) -> list[str]:
        """The positions joined to this one by an arrow (all arrows run both ways)."""
        if area_id not in self.positions:
            raise DataError(f"board.yaml: areas: no position {area_id!r}")
        out = [c.b for c in self.board.connections if c.a == area_id]
        out += [c.a for c in self.board.connections if c.b == area_id and not c.directed]
        return sorted(set(out), key=list(self.positions).index)

    def is_adjacent(self, a: str, b: str) -> bool:
        """True when an arrow joins the two positions."""
        return b in self.neighbours(a)

    def name(self, area_id: str) -> str:
        """The printed name of a position."""
        for area in self.board.areas:
            if area.id == area_id:
                return area.name
        raise DataError(f"board.yaml: areas: no position {area_id!r}")

    def summary(self) -> str:
        """One line saying what was loaded and cross-checked (for ``tabletop validate``)."""
        return (f"{len(self.island_positions())} island positions, {len(self.beaches())} "
                f"beaches, {len(self.board.connections)} arrows, "
                f"{len(self.pieces.usmc.regiments)} regiments, "
                f"{self.pieces.japanese.markers} Japanese markers, "
                f"{self.usmc_deck.size} USMC and {self.japanese_deck.size} Japanese cards, "
                f"{len(self.setup.options)} set-up options")


# --------------------------------------------------------------------------------------
# The heuristic bot's reroll plans (6.0 attack dice), worked out once
# --------------------------------------------------------------------------------------

PLAN_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
"""The digits of a plan: counts of dice to reroll, base 36."""


def pool_count(max_dice: int) -> int:
    """How many pools of 1 to ``max_dice`` rerollable dice there are as counts of 1s, 2s, 5s
    and 6s: the compositions of each size into four parts, ``C(max_dice + 4, 4) - 1``."""
    return math.comb(max_dice + 4, 4) - 1


class DicePlanTable(StrictModel):
    """The plans for one need and one price of a reroll: 4 base-36 digits a pool (the 1s,
    2s, 5s and 6s to reroll now, ``0000`` to stop), the pools by size and then in
    lexicographic order, written in lines that join into one string."""

    need: int = Field(ge=1, le=3)
    price: float = Field(ge=0)
    plans: tuple[str, ...] = Field(min_length=1)

    @field_validator("plans")
    @classmethod
    def _digits(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        for i, line in enumerate(v):
            bad = set(line) - set(PLAN_DIGITS)
            if bad:
                raise ValueError(f"line {i}: {sorted(bad)[0]!r} is not a base-36 digit (0-9, a-z)")
        return v


class DicePlan(StrictModel):
    """dice_plan.yaml: the heuristic bot's reroll plans for every pool of up to ``max_dice``
    dice at every need and price it uses (6.0), written by ``tools/iwo_1945_dice_plan.py``."""

    max_dice: int = Field(ge=1, le=35)
    tables: tuple[DicePlanTable, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _complete(self) -> DicePlan:
        keys = [(t.need, t.price) for t in self.tables]
        if len(set(keys)) != len(keys):
            raise ValueError("two tables share a need and a price")
        want = 4 * pool_count(self.max_dice)
        for t in self.tables:
            have = sum(map(len, t.plans))
            if have != want:
                raise ValueError(f"the table for need {t.need}, price {t.price} holds {have} digits, "
                                 f"not {want} (4 for each of the {want // 4} pools of 1 to "
                                 f"{self.max_dice} dice)")
        return self

    def by_key(self) -> Mapping[tuple[int, float], str]:
        """Each table's plans as one string, by (need, price)."""
        return MappingProxyType({(t.need, t.price): "".join(t.plans) for t in self.tables})


def load_dice_plan(data_dir: str | Path | None = None) -> DicePlan:
    """The heuristic bot's reroll plans (dice_plan.yaml), or raise DataError."""
    return load_model(DicePlan, (Path(data_dir) if data_dir is not None else DATA_DIR) / FILES["dice_plan"])


#: The model of each data file by file name (what a Game's ``data_models()`` returns).
DATA_MODELS: Mapping[str, type[BaseModel]] = MappingProxyType({
    FILES["board"]: AreaMapSpec,
    FILES["pieces"]: Pieces,
    FILES["setup"]: Setup,
    FILES["victory"]: Victory,
    FILES["usmc_cards"]: UsmcDeck,
    FILES["japanese_cards"]: JapaneseDeck,
    FILES["dice_plan"]: DicePlan,
    "sections.yaml": SectionsFile,  # the rulebook's sections (core.coverage)
})


def _fail(file: str, where: str, expected: str) -> DataError:
    """A DataError in the house format: file, path inside it, what was expected."""
    return DataError(f"{file}: {where}: {expected}")


def load_components(data_dir: str | Path | None = None) -> Components:
    """Load every data file of the game and cross-check them, or raise DataError.

    ``data_dir`` defaults to the package's ``data/`` folder; tests point it at a copy.
    """
    d = Path(data_dir) if data_dir is not None else DATA_DIR
    board = load_model(AreaMapSpec, d / FILES["board"])
    positions = {
        area.id: validate(PositionAttrs, area.attrs,
                          source=f"{d / FILES['board']}: areas.{i}.attrs ({area.id})")
        for i, area in enumerate(board.areas)
    }
    comps = Components(
        board=board,
        positions=positions,
        pieces=load_model(Pieces, d / FILES["pieces"]),
        setup=load_model(Setup, d / FILES["setup"]),
        victory=load_model(Victory, d / FILES["victory"]),
        usmc_deck=load_model(UsmcDeck, d / FILES["usmc_cards"]),
        japanese_deck=load_model(JapaneseDeck, d / FILES["japanese_cards"]),
    )
    _check_board(comps, str(d / FILES["board"]))
    _check_drawn(comps, str(d / FILES["board"]))
    _check_pieces(comps, str(d / FILES["pieces"]))
    _check_setup(comps, comps.setup, str(d / FILES["setup"]))
    for opt in comps.setup.options:
        _check_setup(comps, comps.setup.with_options(opt.id),
                     f"{d / FILES['setup']} with option {opt.id}")
    _check_deck(comps, comps.usmc_deck, str(d / FILES["usmc_cards"]))
    _check_deck(comps, comps.japanese_deck, str(d / FILES["japanese_cards"]))
    return comps


def _check_board(c: Components, file: str) -> None:
    """Numbers, priorities and beach orders each run 1..n without gaps or repeats."""
    islands = [p for p in c.positions.values() if p.kind == "island"]
    beaches = [p for p in c.positions.values() if p.kind == "beach"]
    for label, values in (("number", [p.number or 0 for p in islands]),
                          ("priority", [p.priority or 0 for p in islands]),
                          ("beach_order", [p.beach_order or 0 for p in beaches])):
        if sorted(values) != list(range(1, len(values) + 1)):
            raise _fail(file, f"areas.*.attrs.{label}",
                        f"each value 1..{len(values)} exactly once, found {sorted(values)}")


def _check_drawn(c: Components, file: str) -> None:
    """Every board box has its place on the board picture (x, y): the printed board has them
    all (2.0, 5.0)."""
    for i, b in enumerate(c.board.boxes):
        if b.x is None:
            raise _fail(file, f"boxes.{i}", f"a drawing position (x, y) for box {b.id!r}")


def _check_pieces(c: Components, file: str) -> None:
    """Each regiment's cohesion track is a board box, and each track is used once."""
    boxes = {b.id for b in c.board.boxes}
    tracks = [r.track for r in c.pieces.usmc.regiments]
    for i, r in enumerate(c.pieces.usmc.regiments):
        if r.track not in boxes:
            raise _fail(file, f"usmc.regiments.{i}.track",
                        f"a box of board.yaml, not {r.track!r}")
        if tracks.count(r.track) > 1:
            raise _fail(file, f"usmc.regiments.{i}.track", f"a track of its own; {r.track!r} "
                        "is used twice")


def _check_setup(c: Components, s: Setup, file: str) -> None:
    """The set-up names real beaches, regiments, positions and boxes, in legal numbers."""
    beaches = set(c.beaches())
    islands = set(c.island_positions())
    regiments = [r.id for r in c.pieces.usmc.regiments]
    boxes = {b.id: b for b in c.board.boxes}
    if set(s.landing) != beaches:
        raise _fail(file, "landing", f"one entry per beach {sorted(beaches)}, "
                    f"found {sorted(s.landing)}")
    placed = [*s.landing.values(), *s.reserves]
    if sorted(placed) != sorted(regiments):
        raise _fail(file, "landing + reserves", f"each regiment of pieces.yaml exactly once, "
                    f"found {placed}")
    track = c.pieces.usmc.cohesion_track
    if not track.bottom <= s.cohesion_start <= track.top:
        raise _fail(file, "cohesion_start", f"on the track {track.bottom}..{track.top}")
    for pos, n in s.japanese.items():
        if pos not in islands:
            raise _fail(file, f"japanese.{pos}", "an island position of board.yaml")
        if not 0 <= n <= c.positions[pos].slots:
            raise _fail(file, f"japanese.{pos}", f"0..{c.positions[pos].slots} markers, not {n}")
    if sum(s.japanese.values()) != c.pieces.japanese.markers:
        raise _fail(file, "japanese", f"all {c.pieces.japanese.markers} Japanese markers of "
                    f"pieces.yaml placed, found {sum(s.japanese.values())}")
    for box_id, n in s.infiltration.items():
        box = boxes.get(box_id)
        if box is None:
            raise _fail(file, f"infiltration.{box_id}", "a box of board.yaml")
        if box.capacity is not None and n > box.capacity:
            raise _fail(file, f"infiltration.{box_id}", f"at most {box.capacity} cube(s)")
    if sum(s.infiltration.values()) != c.pieces.cube("infiltration").count:
        raise _fail(file, "infiltration", "every infiltration cube of pieces.yaml placed")
    for label, deal, deck in (("japanese_deal", s.decks.japanese_deal, c.japanese_deck),
                              ("usmc_deal", s.decks.usmc_deal, c.usmc_deck)):
        if deal > deck.size:
            raise _fail(file, f"decks.{label}", f"at most the deck's {deck.size} cards")
    hand = boxes.get("usmc_hand")
    if hand is not None and hand.capacity is not None and s.decks.hand_size > hand.capacity:
        raise _fail(file, "decks.hand_size", f"at most the hand box's {hand.capacity}")


def _check_deck(c: Components, deck: JapaneseDeck | UsmcDeck, file: str) -> None:
    """Positions named by effects exist, hooks are declared and used, knobs resolve in range."""
    islands = set(c.island_positions())
    used_hooks: set[str] = set()
    cards: list[JapaneseCard | UsmcCard] = list(deck.cards)
    for ci, card in enumerate(cards):
        for ei, eff in enumerate(card.effects):
            where = f"cards.{ci}.effects.{ei}"
            if isinstance(eff, FireAttack) and eff.from_position is not None \
                    and eff.from_position not in islands:
                raise _fail(file, f"{where}.from_position",
                            f"an island position of board.yaml, not {eff.from_position!r}")
            if isinstance(eff, Hook):
                if eff.name not in deck.hooks:
                    raise _fail(file, f"{where}.name", f"a hook declared under 'hooks', "
                                f"not {eff.name!r}")
                used_hooks.add(eff.name)
    unused = sorted(set(deck.hooks) - used_hooks)
    if unused:
        raise _fail(file, "hooks", f"only hooks some card uses; unused: {unused}")
    for ki, knob in enumerate(deck.knobs):
        try:
            value = resolve_knob(deck, knob.path)
        except DataError as exc:
            raise _fail(file, f"knobs.{ki}.path", str(exc)) from None
        if not isinstance(value, int) or isinstance(value, bool):
            raise _fail(file, f"knobs.{ki}.path", f"a whole number, found {value!r}")
        if not knob.min <= value <= knob.max:
            raise _fail(file, f"knobs.{ki}", f"the value {value} at {knob.path} within "
                        f"{knob.min}..{knob.max}")
