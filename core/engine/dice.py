"""Chance: one seeded random source per match, every roll an event with its purpose.

Tests fix the rolls a rule sees in two ways. :func:`force` names a roll by its rule
section and purpose (``force("9.1 CRT", 6)``): only a roll that matches takes the forced
faces, every other roll comes from the seed, and a forced roll that never comes up is left
over for the test to see (:meth:`Dice.unused_forced`). :class:`ScriptedDice` replaces the
source with faces in order, whatever the roll is for.
"""

from __future__ import annotations

import copy
import functools
import inspect
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeGuard, TypeVar

from .canonical import JSON
from .errors import DataError, TabletopError

T = TypeVar("T")

RollListener = Callable[[str, str, tuple[int, ...], int], None]
"""Called after each roll with (purpose, section, faces, sides)."""


class DiceExhausted(TabletopError):
    """A scripted dice source was asked for more rolls than it was given."""


@dataclass(eq=False)
class ForcedRoll:
    """Faces a roll must show, named by the roll's rule section and purpose.

    ``key`` is ``"<section> <name>"``, ``"<section>"`` or ``"<name>"``: a section token
    (it starts with a digit, or is a part in Roman numerals such as ``IV.B.2``) takes a
    roll whose section is it or one of its subsections ("9.1" takes "9.1" and "9.1d", not
    "9.10"); the name must be a purpose's whole name, case ignored ("night" is not "night
    (second roll)"). A match of a game that declares its rolls (``rolls.yaml``) resolves
    the key against them (:func:`resolve_purpose`): a key naming none or several fails,
    listing the candidates; a roll is then taken only when it *is* the declared roll the
    key names — the declaration that describes it most closely (:func:`purpose_of`), so
    ``"Japanese fire"`` never takes a ``"Japanese fire reroll"`` roll, whose logged text
    the shorter declaration's would also fit. Each die of a matching roll takes the next
    forced face.
    """

    key: str
    faces: tuple[int, ...]
    used: int = 0

    def __post_init__(self) -> None:
        if not self.key.strip():
            raise TabletopError("a forced roll needs a key naming its section or purpose")
        if not self.faces or any(not isinstance(f, int) or f < 1 for f in self.faces):
            raise TabletopError(f"forced roll {self.key!r}: faces must be whole numbers from 1 "
                                f"up, got {list(self.faces)}")
        self._target: tuple[RollPurpose, str] | None = None
        self._declared: tuple[RollPurpose, ...] = ()
        first, _, rest = self.key.strip().partition(" ")
        if _SECTION_TOKEN.match(first):
            self._section, self._words = first, rest.strip().lower()
        else:
            self._section, self._words = "", self.key.strip().lower()

    @property
    def left(self) -> int:
        """How many forced faces are still to be rolled."""
        return len(self.faces) - self.used

    def resolve(self, purposes: Sequence[RollPurpose]) -> None:
        """Name one of the game's declared roll purposes (see :func:`resolve_purpose`), or
        raise a TabletopError listing the candidates."""
        self._target = resolve_purpose(self.key, purposes)
        self._declared = tuple(purposes)

    def matches(self, purpose: str, section: str) -> bool:
        """True when a roll for ``purpose`` under ``section`` is the one this names: with
        the game's purposes declared, a roll that is the purpose the key resolved to (the
        declaration describing it most closely, :func:`purpose_of`; when the key is a roll's
        whole logged text, that roll only); without, a roll whose purpose is the key's words
        (case ignored) under a section the key's section number takes."""
        if self.left <= 0:
            return False
        target = self._target
        if target is not None:
            purpose_decl, text = target
            return (purpose_of(purpose, section, self._declared) == purpose_decl
                    and (not text or _bare(purpose).lower() == text))
        if self._section and not _section_matches(self._section, section):
            return False
        return not self._words or self._words == _bare(purpose).lower()

    def take(self, sides: int) -> int:
        """The next forced face (checked against the die's sides)."""
        face = self.faces[self.used]
        if face > sides:
            raise TabletopError(f"forced roll {self.key!r}: face {face} is not on a "
                                f"{sides}-sided die")
        self.used += 1
        return face

    def to_json(self) -> dict[str, object]:
        """The forced roll as it is written in a record or a position file."""
        return {"roll": self.key, "faces": list(self.faces)}


_SECTION_TOKEN = re.compile(r"^(\d|[IVXL]+(\.|$))")
"""A section number: "9.1", "9.1d", or a part in Roman numerals with its rules ("IV",
"IV.B.2", "XI.A")."""


def _section_matches(wanted: str, section: str) -> bool:
    """Whether a roll's section is ``wanted`` or one of its subsections: after a number any
    but a digit may follow ("9.1" takes "9.1d" and "9.1.2", not "9.10"); after a letter or
    numeral only a dot ("IV.B" takes "IV.B.2", "IV" takes "IV.A", not "IVX")."""
    for part in section.replace(";", ",").split(","):
        part = part.strip()
        if part == wanted:
            return True
        if part.startswith(wanted):
            nxt = part[len(wanted)]
            if (not nxt.isdigit()) if wanted[-1].isdigit() else nxt == ".":
                return True
    return False


_CHOICE_SUFFIX = re.compile(r" \((\d+ of \d+, \d+ face\(s\) each|choose 1 of \d+)\)$")
"""What :meth:`Dice.choose` adds to a purpose ("(1 of 3, 2 face(s) each)")."""


def _bare(purpose: str) -> str:
    """A rolled purpose without what :meth:`Dice.choose` adds to it."""
    return _CHOICE_SUFFIX.sub("", purpose)


@dataclass(frozen=True)
class RollPurpose:
    """One kind of roll a game makes, as it declares it in its ``rolls.yaml``.

    ``name`` is what a test forces (``force("9.1d CRT", 6)``); ``text`` is the purpose the
    roll is logged with, ``{...}`` standing for any text (a hex, a unit); ``dice`` says what
    is rolled ("1d6", "2d6", "nd6", "choose", "shuffle"); ``rare`` says why random games may
    never roll it.
    """

    name: str
    section: str
    dice: str
    text: str = ""
    rare: str = ""

    @property
    def pattern(self) -> re.Pattern[str]:
        """The logged purposes this names: ``text`` (or ``name``) with ``{...}`` as any text."""
        parts = re.split(r"\{[^{}]*\}", self.text or self.name)
        return re.compile("(?i)" + "(.+?)".join(re.escape(p) for p in parts) + "$")

    @property
    def fixed(self) -> int:
        """How many characters of the logged text are fixed (the more, the more specific)."""
        return len(re.sub(r"\{[^{}]*\}", "", self.text or self.name))

    def fits(self, purpose: str) -> bool:
        """Whether a rolled purpose is logged as this declaration says."""
        return self.pattern.match(_bare(purpose)) is not None

    def label(self) -> str:
        """The key that names it in a test: ``"<section> <name>"``."""
        return f"{self.section} {self.name}"

    def shows(self, kind: str, sides: int, count: int) -> bool:
        """Whether a logged roll (``kind`` "roll" or "shuffle", ``count`` dice of ``sides``
        faces) is what :attr:`dice` declares: "NdS" (N dice of S faces), "nd6" (any number
        of d6), "choose" (one die, :meth:`Dice.choose`) or "shuffle"."""
        if self.dice == "shuffle":
            return kind == "shuffle"
        if self.dice == "choose":
            return kind == "roll" and count == 1
        found = _DICE.fullmatch(self.dice)
        return (found is not None and kind == "roll" and sides == int(found[2])
                and found[1] in ("n", str(count)))


_DICE = re.compile(r"(\d+|n)d(\d+)")
"""What a declared roll's ``dice`` may say besides "choose" and "shuffle": "2d6", "nd6"."""


ROLLS_FILE = "rolls.yaml"
"""The file in a game's package that declares its roll purposes."""


def load_roll_purposes(path: str | Path) -> tuple[RollPurpose, ...]:
    """The roll purposes a ``rolls.yaml`` declares, or a DataError naming the file and entry."""
    from .data import read_data_file

    data = read_data_file(path)
    items = data.get("rolls") if isinstance(data, dict) else None
    if not isinstance(items, list):
        raise DataError(f"{path}: expected a 'rolls:' list of {{name, section, dice}} entries")
    out: list[RollPurpose] = []
    for n, item in enumerate(items):
        if not isinstance(item, dict) or not all(isinstance(item.get(k), str) and item.get(k)
                                                 for k in ("name", "section", "dice")) \
                or set(item) - {"name", "section", "dice", "text", "rare"}:
            raise DataError(f"{path}: rolls[{n}] needs text fields name, section and dice "
                            f"(and may have text and rare), got {item!r}")
        if item["dice"] not in ("choose", "shuffle") and not _DICE.fullmatch(item["dice"]):
            raise DataError(f"{path}: rolls[{n}].dice: {item['dice']!r} is not NdS (2d6), nd6 "
                            "(any number of d6), choose or shuffle")
        out.append(RollPurpose(**{k: str(v) for k, v in item.items()}))
    seen = {p.label().lower() for p in out}
    if len(seen) != len(out):
        raise DataError(f"{path}: two rolls share a section and name")
    return tuple(out)


def roll_purposes(game: object) -> tuple[RollPurpose, ...]:
    """The roll purposes ``game`` declares in the ``rolls.yaml`` beside its code (none when
    it has no such file)."""
    try:
        source = inspect.getfile(type(game))
    except (TypeError, OSError):
        return ()
    return _purposes_beside(source)


@functools.cache
def _purposes_beside(source: str) -> tuple[RollPurpose, ...]:
    """The purposes in the ``rolls.yaml`` of the game whose class is written in ``source``,
    read once a file."""
    where = Path(source).parent
    for folder in (where, where.parent):
        if (folder / ROLLS_FILE).is_file():
            return _cached_purposes(str(folder / ROLLS_FILE))
        if (folder / "game.toml").is_file():
            break
    return ()


@functools.lru_cache(maxsize=32)
def _cached_purposes(path: str) -> tuple[RollPurpose, ...]:
    return load_roll_purposes(path)


def purpose_of(purpose: str, section: str, purposes: Sequence[RollPurpose]) -> RollPurpose | None:
    """The declared purpose a roll logged as ``purpose`` under ``section`` is (the one with
    the most fixed text when several fit), or None when none declares it."""
    fits = [p for p in purposes if p.section == section and p.fits(purpose)]
    return max(fits, key=lambda p: p.fixed) if fits else None


def resolve_purpose(key: str, purposes: Sequence[RollPurpose]) -> tuple[RollPurpose, str]:
    """The declared purpose a force key names, and the whole logged text it names ("" when
    it names the purpose by its name or rule number).

    ``key`` is ``"<section> <name>"``, ``"<name>"`` or ``"<section>"``: the name must be a
    declared name exactly (case ignored), or a roll's whole logged text ("5/28 attack on
    Mt. Suribachi"); the section is a rule number that takes its subsections ("9.1" takes
    "9.1d"). None or several matching raise a TabletopError listing the candidates.
    """
    first, _, rest = key.strip().partition(" ")
    section, words = (first, rest.strip().lower()) if _SECTION_TOKEN.match(first) \
        else ("", key.strip().lower())
    scope = [p for p in purposes if not section or _section_matches(section, p.section)]
    if not words:
        named, text = scope, ""
    else:
        named, text = [p for p in scope if p.name.lower() == words], ""
        if not named:
            fitting = [p for p in scope if p.fits(words)]
            best = max((p.fixed for p in fitting), default=0)
            named, text = [p for p in fitting if p.fixed == best], words
    if len(named) == 1:
        return named[0], text
    listed = named or scope or purposes
    what = "names several rolls" if named else "names no roll this game makes"
    raise TabletopError(f"forced roll {key!r} {what}; name one exactly: "
                        + ", ".join(repr(p.label()) for p in listed))


def force(key: str, *faces: int) -> ForcedRoll:
    """A forced roll: ``force("9.1 CRT", 6)`` makes the next 9.1 CRT roll a 6."""
    return ForcedRoll(key, tuple(faces))


@dataclass(eq=False)
class StackedShuffle:
    """A shuffle whose result starts with named items (the top cards of a stacked deck).

    ``key`` names the shuffle as :class:`ForcedRoll` names a roll; the first matching
    shuffle puts ``top`` first, in this order, and the rest of the items after them as the
    seed shuffled them. Every named item must be among those shuffled.
    """

    key: str
    top: tuple[str, ...]
    used: bool = False

    def __post_init__(self) -> None:
        if not self.top:
            raise TabletopError(f"stacked shuffle {self.key!r}: name at least one card")
        self._probe = ForcedRoll(self.key, (1,))

    def resolve(self, purposes: Sequence[RollPurpose]) -> None:
        """Name one of the game's declared shuffles (see :func:`resolve_purpose`)."""
        self._probe.resolve(purposes)

    @property
    def left(self) -> int:
        """1 until the shuffle has come up, then 0."""
        return 0 if self.used else 1

    def matches(self, purpose: str, section: str) -> bool:
        """True when this shuffle is the one the stack names."""
        return not self.used and self._probe.matches(purpose, section)

    def apply(self, items: list[Any]) -> None:
        """Move the named items to the front, in order."""
        missing = [t for t in self.top if t not in items]
        if missing:
            raise TabletopError(f"stacked shuffle {self.key!r}: {missing} are not among the "
                                "items shuffled")
        rest = [i for i in items if i not in self.top]
        items[:] = [*self.top, *rest]
        self.used = True

    def to_json(self) -> dict[str, object]:
        """The stack as it is written in a record or a position file."""
        return {"shuffle": self.key, "top": list(self.top)}


def stack(key: str, *top: str) -> StackedShuffle:
    """A stacked shuffle: ``stack("5.0 shuffle the japanese deck", "J07", "J12")`` puts those two cards
    on top of the next shuffle of the Japanese deck, J07 first."""
    return StackedShuffle(key, tuple(top))


class Dice:
    """The match's random source: seeded, counted, and reporting every roll to a listener.

    Rolls named by a :class:`ForcedRoll` (see :meth:`force`) take its faces instead.
    """

    def __init__(self, seed: int = 0, *, forced: Sequence[ForcedRoll | StackedShuffle] = ()) -> None:
        self.seed = seed
        self._stream: random.Random | None = None  # made at the first roll (see _rng)
        self.rolls = 0  # how many dice have been rolled
        self.listener: RollListener | None = None
        self.forced: list[ForcedRoll] = [f for f in forced if isinstance(f, ForcedRoll)]
        self.stacked: list[StackedShuffle] = [f for f in forced if isinstance(f, StackedShuffle)]
        self.purposes: tuple[RollPurpose, ...] = ()

    def declare(self, purposes: Sequence[RollPurpose]) -> None:
        """Take the game's declared roll purposes and resolve every forced roll and stacked
        shuffle against them (a key naming none or several raises, listing candidates)."""
        self.purposes = tuple(purposes)
        if self.purposes:
            entries: list[ForcedRoll | StackedShuffle] = [*self.forced, *self.stacked]
            for entry in entries:
                entry.resolve(self.purposes)

    @property
    def _rng(self) -> random.Random:
        """The generator seeded with :attr:`seed`, made at the first roll or shuffle: the same
        stream as one made up front, and a match that never rolls never pays for it."""
        rng = self._stream
        if rng is None:
            rng = self._stream = random.Random(self.seed)
        return rng

    # -- primitives a subclass may replace ---------------------------------------------
    def _face(self, sides: int) -> int:
        return self._rng.randint(1, sides)

    def _shuffle(self, items: list[T]) -> None:
        self._rng.shuffle(items)

    # -- public API ------------------------------------------------------------------
    def roll(self, count: int = 1, sides: int = 6, *, purpose: str, section: str = "") -> tuple[int, ...]:
        """Roll ``count`` dice of ``sides`` faces for a stated purpose; returns each face."""
        if count < 0 or sides < 1:
            raise TabletopError(f"cannot roll {count}d{sides}")
        if self.forced:
            faces = tuple(self._forced_face(sides, purpose, section) for _ in range(count))
        else:
            faces = tuple(self._face(sides) for _ in range(count))
        self.rolls += count
        if self.listener is not None:
            self.listener(purpose, section, faces, sides)
        return faces

    def _forced_face(self, sides: int, purpose: str, section: str) -> int:
        for entry in self.forced:
            if entry.matches(purpose, section):
                return entry.take(sides)
        return self._face(sides)

    def force(self, key: str, *faces: int) -> ForcedRoll:
        """Force the next roll(s) named by ``key`` (see :class:`ForcedRoll`) to these faces.

        Forced here, after the match started, the roll is not in the record (a replay would
        not force it); give forced rolls to ``Match(forced=...)`` or a position instead."""
        entry = force(key, *faces)
        if self.purposes:
            entry.resolve(self.purposes)
        self.forced.append(entry)
        return entry

    def stack(self, key: str, *top: str) -> StackedShuffle:
        """Stack the next shuffle named by ``key`` (see :class:`StackedShuffle`)."""
        entry = stack(key, *top)
        if self.purposes:
            entry.resolve(self.purposes)
        self.stacked.append(entry)
        return entry

    def unused_forced(self) -> list[ForcedRoll | StackedShuffle]:
        """The forced rolls with faces still unrolled and the stacked shuffles that never
        came up (a test fails on any)."""
        return [*(f for f in self.forced if f.left > 0), *(s for s in self.stacked if not s.used)]

    def d6(self, *, purpose: str, section: str = "") -> int:
        """Roll one six-sided die."""
        return self.roll(1, 6, purpose=purpose, section=section)[0]

    def total(self, count: int, sides: int = 6, *, purpose: str, section: str = "") -> int:
        """Roll ``count`` dice and return their sum (e.g. 2d6, 3d6)."""
        return sum(self.roll(count, sides, purpose=purpose, section=section))

    def choose(self, items: Sequence[T], *, purpose: str, section: str = "") -> T:
        """Roll a die to choose among equals, as the rulebooks say; one item needs no roll.

        Two, three or six candidates share the faces of one d6 (two: 1-3 and 4-6); four or
        five roll a d6 again until it names one; more than six roll a die of as many faces.
        Each candidate is equally likely, and the log shows real die faces.
        """
        if not items:
            raise TabletopError(f"nothing to choose from ({purpose})")
        n = len(items)
        if n == 1:
            return items[0]
        if 6 % n == 0:
            width = 6 // n
            face = self.roll(1, 6, purpose=f"{purpose} (1 of {n}, {width} face(s) each)",
                             section=section)[0]
            return items[(face - 1) // width]
        sides = 6 if n <= 6 else n
        while True:
            face = self.roll(1, sides, purpose=f"{purpose} (choose 1 of {n})", section=section)[0]
            if face <= n:
                return items[face - 1]

    def shuffle(self, items: list[T], *, purpose: str, section: str = "") -> None:
        """Shuffle a list in place (a deck, a blind draw); logged as one event."""
        self._shuffle(items)
        for entry in self.stacked:
            if entry.matches(purpose, section):
                entry.apply(items)
                break
        if self.listener is not None:
            self.listener(purpose, section, (), 0)

    def pool(self, count: int, sides: int = 6, *, purpose: str, section: str = "") -> DicePool:
        """Roll a pool of dice that can then be kept, set aside and rerolled."""
        return DicePool(self, sides, list(self.roll(count, sides, purpose=purpose, section=section)))

    def copy(self) -> Dice:
        """An equal source that rolls the same faces from here on, sharing nothing that
        changes with this one (its generator's state copied; forced rolls and stacked
        shuffles with what they have used), reporting to no listener."""
        twin = copy.copy(self)
        twin.listener = None
        if self._stream is not None:
            twin._stream = random.Random()
            twin._stream.setstate(self._stream.getstate())
        twin.forced = copy.deepcopy(self.forced)
        twin.stacked = copy.deepcopy(self.stacked)
        script = getattr(self, "script", None)
        if script is not None:
            twin.script = list(script)  # type: ignore[attr-defined]
        return twin

    def at_decision(self, index: int) -> None:
        """Told, before a decision's consequences are played, how many decisions have been
        taken (``index``); a source whose faces depend on that position starts a new key."""

    def state_json(self) -> dict[str, JSON]:
        """What of the source belongs in the state hash: the seed and the roll count."""
        return {"seed": self.seed, "rolls": self.rolls}

    def progress_json(self) -> dict[str, JSON]:
        """Everything a source built again from the same seed and forced rolls needs to roll
        the same faces from here on (:meth:`restore_progress`): the roll count, the
        generator's whole state (None before the first roll) and how much of each forced
        roll and stacked shuffle is used. What a save's restore point keeps of the dice."""
        stream = self._stream
        state = None if stream is None else stream.getstate()
        return {"rolls": self.rolls,
                "stream": None if state is None else list(state[1]),
                "gauss": None if state is None else state[2],
                "forced": [f.used for f in self.forced],
                "stacked": [s.used for s in self.stacked]}

    def restore_progress(self, data: Any) -> None:
        """Take up the progress :meth:`progress_json` gave, on a source built from the same
        seed and forced rolls; ValueError saying what does not fit otherwise."""
        if not isinstance(data, dict):
            raise ValueError("the dice's progress must be an object")
        rolls, stream, gauss = data.get("rolls"), data.get("stream"), data.get("gauss")
        forced, stacked = data.get("forced"), data.get("stacked")
        if not _whole(rolls):
            raise ValueError("rolls must be a whole number, 0 or more")
        if not (isinstance(forced, list) and len(forced) == len(self.forced)
                and all(_whole(u) and u <= len(f.faces) for u, f in zip(forced, self.forced, strict=True))):
            raise ValueError(f"forced must list how much of each of the {len(self.forced)} "
                             "forced roll(s) is used")
        if not (isinstance(stacked, list) and len(stacked) == len(self.stacked)
                and all(isinstance(u, bool) for u in stacked)):
            raise ValueError(f"stacked must say of each of the {len(self.stacked)} stacked "
                             "shuffle(s) whether it was used")
        if stream is None:
            self._stream = None
        else:
            if not (isinstance(stream, list) and len(stream) == 625
                    and all(_whole(v) and v < 2**32 for v in stream)):
                raise ValueError("stream must be the generator's state (625 whole numbers)")
            if gauss is not None and not isinstance(gauss, float):
                raise ValueError("gauss must be a number or null")
            rng = random.Random()
            try:
                rng.setstate((3, tuple(stream), gauss))
            except (TypeError, ValueError) as exc:
                raise ValueError(f"stream is not a generator's state ({exc})") from None
            self._stream = rng
        self.rolls = rolls
        for f, used in zip(self.forced, forced, strict=True):
            f.used = used
        for s, done in zip(self.stacked, stacked, strict=True):
            s.used = done


class KeyedDice(Dice):
    """Dice whose faces are fixed by the seed and the position in the decision sequence.

    The j-th die rolled after the d-th decision is drawn from a generator keyed by
    (seed, d, j), whatever was chosen before: undoing and choosing differently cannot move
    a later decision's dice onto other faces. Shuffles are keyed the same way. Matches that
    allow free undo use these; the default stream (:class:`Dice`) needs no keys, because an
    honest undo never goes back past a die once rolled.
    """

    def __init__(self, seed: int = 0, *, forced: Sequence[ForcedRoll | StackedShuffle] = ()) -> None:
        super().__init__(seed, forced=forced)
        self._decision = 0
        self._ordinal = 0

    def at_decision(self, index: int) -> None:
        """Start the keys of the dice rolled after decision ``index``."""
        self._decision = index
        self._ordinal = 0

    def _next_rng(self) -> random.Random:
        key = f"tabletop-keyed/{self.seed}/{self._decision}/{self._ordinal}"
        self._ordinal += 1
        return random.Random(key)

    def _face(self, sides: int) -> int:
        return self._next_rng().randint(1, sides)

    def _shuffle(self, items: list[T]) -> None:
        self._next_rng().shuffle(items)

    def state_json(self) -> dict[str, JSON]:
        """The seed, roll count and the key position (the kind of source is part of the state)."""
        return {"seed": self.seed, "rolls": self.rolls, "keyed": [self._decision, self._ordinal]}

    def progress_json(self) -> dict[str, JSON]:
        """The base's progress and the key position."""
        return {**super().progress_json(), "keyed": [self._decision, self._ordinal]}

    def restore_progress(self, data: Any) -> None:
        """The base's progress and the key position."""
        keyed = data.get("keyed") if isinstance(data, dict) else None
        if not (isinstance(keyed, list) and len(keyed) == 2 and all(_whole(v) for v in keyed)):
            raise ValueError("keyed must be the key position (two whole numbers)")
        super().restore_progress(data)
        self._decision, self._ordinal = keyed


class ScriptedDice(Dice):
    """A dice source that returns given faces in order, for tests of exact rule outcomes.

    Shuffles keep their order (so a test deck is drawn as written).
    """

    def __init__(self, faces: Sequence[int], seed: int = 0, *,
                 forced: Sequence[ForcedRoll | StackedShuffle] = ()) -> None:
        super().__init__(seed, forced=forced)
        self.script = list(faces)
        self._next = 0

    def _face(self, sides: int) -> int:
        if self._next >= len(self.script):
            raise DiceExhausted(f"scripted dice ran out after {len(self.script)} rolls")
        face = self.script[self._next]
        self._next += 1
        if not 1 <= face <= sides:
            raise TabletopError(f"scripted face {face} is not on a {sides}-sided die "
                                f"(roll {self._next})")
        return face

    def _shuffle(self, items: list[T]) -> None:
        return None

    @property
    def remaining(self) -> int:
        """How many scripted faces are still unused."""
        return len(self.script) - self._next

    def progress_json(self) -> dict[str, JSON]:
        """The base's progress and how many scripted faces are used."""
        return {**super().progress_json(), "next": self._next}

    def restore_progress(self, data: Any) -> None:
        """The base's progress and how many scripted faces are used."""
        used = data.get("next") if isinstance(data, dict) else None
        if not (_whole(used) and used <= len(self.script)):
            raise ValueError(f"next must say how many of the {len(self.script)} scripted faces "
                             "are used")
        super().restore_progress(data)
        self._next = used


def _whole(value: object) -> TypeGuard[int]:
    """Whether a JSON value is a whole number, 0 or more."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


@dataclass
class DicePool:
    """A pool of dice rolled together, whose dice can be kept, set aside and rerolled.

    Each die is addressed by its index in ``faces``; ``kept`` and ``aside`` hold indices.
    """

    dice: Dice
    sides: int
    faces: list[int]
    kept: set[int] = field(default_factory=set)
    aside: set[int] = field(default_factory=set)

    def keep(self, *indices: int) -> None:
        """Mark dice as kept (they can no longer be rerolled)."""
        self._check(indices)
        self.kept.update(indices)
        self.aside.difference_update(indices)

    def set_aside(self, *indices: int) -> None:
        """Set dice aside (out of the result, unless brought back)."""
        self._check(indices)
        self.aside.update(indices)
        self.kept.difference_update(indices)

    def reroll(self, *indices: int, purpose: str, section: str = "") -> tuple[int, ...]:
        """Reroll the given dice (not kept ones); returns their new faces."""
        self._check(indices)
        locked = [i for i in indices if i in self.kept]
        if locked:
            raise TabletopError(f"dice {locked} are kept and cannot be rerolled")
        new = self.dice.roll(len(indices), self.sides, purpose=purpose, section=section)
        for i, face in zip(indices, new, strict=True):
            self.faces[i] = face
            self.aside.discard(i)
        return new

    def active(self) -> list[int]:
        """Faces of the dice not set aside, in pool order."""
        return [f for i, f in enumerate(self.faces) if i not in self.aside]

    def count(self, predicate: Callable[[int], bool]) -> int:
        """How many active dice satisfy a predicate (e.g. hits on 5 or 6)."""
        return sum(1 for f in self.active() if predicate(f))

    def _check(self, indices: Sequence[int]) -> None:
        for i in indices:
            if not 0 <= i < len(self.faces):
                raise TabletopError(f"no die {i} in a pool of {len(self.faces)}")
