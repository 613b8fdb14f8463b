"""The engine's version: read from the installed package's metadata, never a second constant."""

from __future__ import annotations

import importlib.metadata
from collections.abc import Iterator

import pytest

import tabletop.core
from tabletop.core import UNINSTALLED_VERSION, engine_version
from tabletop.core.engine.match import Match
from tabletop.core.engine.registry import load_game
from tabletop.core.frontends.cli import main


@pytest.fixture(autouse=True)
def _fresh_version() -> Iterator[None]:
    """Each test reads the metadata afresh, and leaves no version it faked behind."""
    engine_version.cache_clear()
    yield
    engine_version.cache_clear()


def test_engine_version_is_the_installed_package_version() -> None:
    """The version records write is the distribution's own, also as ``__version__``."""
    installed = importlib.metadata.version("tabletop-engine")
    assert engine_version() == installed
    assert tabletop.core.__version__ == installed


def test_record_header_carries_the_metadata_version(monkeypatch: pytest.MonkeyPatch) -> None:
    """A record's engine_version follows the package metadata, whatever it says."""
    def version(name: str) -> str:
        assert name == "tabletop-engine"
        return "7.8.9"

    monkeypatch.setattr(importlib.metadata, "version", version)
    match = Match(load_game("iwo_bonins"), seed=1)
    assert match.header()["engine_version"] == "7.8.9"


def test_uninstalled_checkout_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without package metadata (a checkout run in place), the version says it is uninstalled."""
    def missing(name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", missing)
    assert engine_version() == UNINSTALLED_VERSION == "0+uninstalled"
    assert Match(load_game("iwo_bonins"), seed=1).header()["engine_version"] == UNINSTALLED_VERSION


def test_cli_version_agrees_with_records(capsys: pytest.CaptureFixture[str]) -> None:
    """``tabletop --version`` prints the same version records carry."""
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.split()[-1] == engine_version()


def test_unknown_attribute_of_core_is_an_attribute_error() -> None:
    """Only ``__version__`` is computed on demand; any other missing name is still an error."""
    with pytest.raises(AttributeError):
        _ = tabletop.core.no_such_name
