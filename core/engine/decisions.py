"""Decisions: every choice a player makes, as data — who, what, which rule, and the options."""

from __future__ import annotations

from collections.abc import Generator, Iterable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from .canonical import JSON, digest, freeze, thaw

DONE = "done"
"""The value of the option that ends a loop of choices ("no more units to move", "resolve
the attack with these", "end the phase"): one spelling in every game, so a bot, a person's
shortcut or a script says "I am done" alike everywhere."""


@dataclass(frozen=True, slots=True, init=False)
class Option:
    """One legal answer to a decision: a small JSON value plus a label a person can read."""

    value: JSON
    label: str = ""
    info: str = ""  # extra help for a person, e.g. the odds of an attack
    #: the same facts for a program (bots, remote agents), e.g. {"odds": {"De": 0.42, ...}};
    #: small JSON, not compared: two options are equal by value, label and info
    detail: dict[str, JSON] = field(default_factory=dict, compare=False)

    def __init__(self, value: JSON, label: str = "", info: str = "",
                 detail: dict[str, JSON] | None = None) -> None:
        # What the dataclass would generate, but setting the slots directly: a frozen
        # dataclass sets each field through object.__setattr__, twice as slow, and options
        # are made by the dozen for every decision.
        set_value, set_label, set_info, set_detail = _SETTERS
        set_value(self, value)
        set_label(self, label)
        set_info(self, info)
        set_detail(self, {} if detail is None else detail)

    def __str__(self) -> str:
        return self.label or str(self.value)


_SETTERS = tuple(getattr(Option, f.name).__set__ for f in fields(Option))
"""Each field's slot setter, in field order (Option.__init__)."""


@dataclass(frozen=True, slots=True)
class ResumePoint:
    """Where a game's flow can be entered again to ask a decision once more, from the state
    as it stands when the decision is asked: the entry (a phase id for a
    :class:`~.match.PhasedGame`, or any id the game's :meth:`~.match.Game.resume_flow` knows)
    and the flow's own facts it needs to ask it (small JSON: the unit being moved, the hexes
    attacked), which are no part of the state.

    A decision that carries one (:attr:`Decision.resume`) promises that
    ``game.resume_flow(match, point)``, run on a copy of the state, rolls no die, logs
    nothing, changes nothing and asks this same decision first; :meth:`~.match.Match.fork`
    relies on it (and checks the decision asked), and the fork conformance check
    (:func:`~tabletop.core.designer.testing.check_forks`) holds every game to it.
    """

    entry: str
    args: JSON = None


@dataclass(slots=True)
class Decision:
    """A choice the engine waits for: the player, a prompt, the rule, the legal options.

    ``kind`` is a machine-readable name of the decision type (``"select_unit"``, ...) for
    bots; ``context`` carries small JSON facts about it (the unit being moved, ...).
    """

    player: str
    prompt: str
    section: str
    options: tuple[Option, ...]
    kind: str = ""
    context: dict[str, Any] = field(default_factory=dict)
    private: bool = False  # the choice is hidden from the other players (e.g. a secret set-up)
    #: where the flow may be entered again to ask this decision (see :class:`ResumePoint`);
    #: None: a fork replays the decisions since the match's last snapshot instead
    resume: ResumePoint | None = field(default=None, compare=False)
    _keys: dict[Any, int] | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.options:
            raise ValueError(f"decision {self.prompt!r} ({self.section}) has no options: when "
                             "nothing can be chosen, skip the question (or offer a 'done' option)")

    def index_of(self, value: JSON) -> int | None:
        """The index of the option with this value, or None if it is not legal."""
        if self._keys is None and type(value) in _SCANNED:
            # A string or a number, the usual answer, has the options equal to it (bar
            # booleans, kept apart from numbers by freeze) as its only matches: found by a
            # scan that stops there, without the table of every option's key (built for
            # anything else, and by mask).
            for i, opt in enumerate(self.options):
                v = opt.value
                if v is value or (v == value and type(v) is not bool):
                    return i
            return None
        try:
            return self._table().get(freeze(value))
        except TypeError:
            return None

    def _table(self) -> dict[Any, int]:
        """Each option's key (:func:`~.canonical.freeze` of its value) -> its first index."""
        if self._keys is None:
            keys: dict[Any, int] = {}
            for i, opt in enumerate(self.options):
                keys.setdefault(freeze(opt.value), i)
            self._keys = keys
        return self._keys

    def is_legal(self, value: JSON) -> bool:
        """True when ``value`` is one of the legal options."""
        return self.index_of(value) is not None

    @property
    def values(self) -> list[JSON]:
        """The legal option values, in order."""
        return [o.value for o in self.options]

    def mask(self, universe: Sequence[JSON]) -> list[bool]:
        """A legal-action mask over a fixed list of values (for learning agents)."""
        self._table()  # many questions follow
        return [self.is_legal(v) for v in universe]

    def to_json(self) -> dict[str, JSON]:
        """The decision as plain JSON (what a remote agent or a save file sees)."""
        return {
            "player": self.player, "prompt": self.prompt, "section": self.section,
            "kind": self.kind, "context": self.context, "private": self.private,
            "options": [{"value": o.value, "label": o.label, "info": o.info,
                         **({"detail": o.detail} if o.detail else {})} for o in self.options],
        }


_JUST_OPTIONS = frozenset({Option})
_SCANNED = frozenset({str, int, float})
"""Answers Decision.index_of finds by a scan: their freeze key is themselves."""


def options_from(values: Iterable[JSON], label: Any = None) -> tuple[Option, ...]:
    """Build options from values, labelling each with ``label(value)`` or its string form."""
    return tuple(Option(v, label(v) if label else str(v)) for v in values)


def choose(player: str, prompt: str, section: str, options: Iterable[Option | JSON], *,
           kind: str = "", context: dict[str, Any] | None = None, private: bool = False,
           resume: ResumePoint | None = None) -> Decision:
    """Build a decision from options or bare values (a bare value is its own label).

    A ``private`` decision is shown only to its player, and its answer is logged for them only.
    ``resume`` says where the flow may be entered again to ask it (:class:`ResumePoint`).
    """
    opts = tuple(options)
    if not _JUST_OPTIONS.issuperset(map(type, opts)):  # else already options, as they come
        opts = tuple(o if isinstance(o, Option) else Option(o, str(o)) for o in opts)
    return Decision(player, prompt, section, opts, kind, context or {}, private, resume)


def resumable(decision: Decision, entry: str, args: JSON = None) -> Decision:
    """``decision``, marked as one the game's flow can ask again from ``entry`` with ``args``
    (:class:`ResumePoint`): ``yield resumable(choose(...), "us_move", {"unit": unit.id})``."""
    decision.resume = ResumePoint(entry, args)
    return decision


def ask_str(decision: Decision) -> Generator[Decision, JSON, str]:
    """Ask ``decision``, whose option values are strings, and return the answer as a ``str``.

    A flow joins it with ``yield from``: ``hex_id = yield from ask_str(choose(...))``. The
    decision asked and the answer taken are those of ``yield decision``; only the type is
    known. An answer that is not a string (options of another type) is a TypeError: the
    game asked the wrong kind of question.
    """
    answer = yield decision
    if type(answer) is not str:
        raise TypeError(f"{decision.prompt!r} ({decision.section}) was answered {answer!r}, "
                        "not a string: ask_str is for options whose values are strings")
    return answer


def ask_int(decision: Decision) -> Generator[Decision, JSON, int]:
    """Ask ``decision``, whose option values are whole numbers, and return the answer as an
    ``int`` (``n = yield from ask_int(choose(...))``; see :func:`ask_str`)."""
    answer = yield decision
    if type(answer) is not int:
        raise TypeError(f"{decision.prompt!r} ({decision.section}) was answered {answer!r}, "
                        "not a whole number: ask_int is for options whose values are integers")
    return answer


def asks_digest(decision: Decision) -> str:
    """The digest of a decision as a match asks it: player, prompt, rule, kind, privacy,
    context and every option (value, label, help): what the flow entered again at a restore
    point must ask."""
    return digest({"player": decision.player, "prompt": decision.prompt,
                   "section": decision.section, "kind": decision.kind,
                   "private": decision.private, "context": thaw(decision.context),
                   "options": [[o.value, o.label, o.info] for o in decision.options]})
