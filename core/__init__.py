"""tabletop.core: the generic engine for board wargames (maps, dice, tables, pieces, decisions).

It never imports a game. See docs/architecture.md for the map of its modules.

The engine's version is the installed distribution's, ``tabletop-engine`` (set in
pyproject.toml): :func:`engine_version`, also ``tabletop.core.__version__``. It is read only
when asked for (importing ``importlib.metadata`` costs more than ``tabletop list`` does).
"""

from __future__ import annotations

from functools import cache

DISTRIBUTION = "tabletop-engine"
"""The name the engine is installed under (pyproject.toml's ``[project] name``)."""

UNINSTALLED_VERSION = "0+uninstalled"
"""The engine version of code run from a checkout that was never installed (no package
metadata to read): records made that way say so instead of naming a release."""


@cache
def engine_version() -> str:
    """The engine's version as installed (the ``tabletop-engine`` package metadata), or
    :data:`UNINSTALLED_VERSION` when it is not installed; what records write as
    ``engine_version``."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return UNINSTALLED_VERSION


def __getattr__(name: str) -> str:
    """``__version__``, read from the package metadata on first use."""
    if name == "__version__":
        return engine_version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
