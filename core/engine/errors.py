"""The exceptions the engine raises: one clear message each, never a traceback at the CLI."""

from __future__ import annotations


class TabletopError(ValueError):
    """Base of every error the engine reports to a user; its message is shown as it is."""


class DataError(TabletopError):
    """A data file (YAML or JSON) is malformed or breaks a rule of its model.

    The message names the file, the path inside it and what was expected.
    """


class IllegalDecision(TabletopError):
    """An option that is not among the legal options of the pending decision."""


class ReplayDivergence(TabletopError):
    """A match record whose replay does not reproduce what it claims."""


class SaveError(TabletopError):
    """A save file that cannot be read, written or resumed."""


class UnknownGame(TabletopError):
    """A game name that no registered plugin provides."""


class GameOver(TabletopError):
    """A decision offered to a match that has already ended."""
