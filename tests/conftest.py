"""Shared test configuration: a fixed, deterministic hypothesis profile for CI and local runs."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    max_examples=60,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile("dev", deadline=None, max_examples=200)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(autouse=True)
def _autosave_in_tmp(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """A person's games autosave under $TABLETOP_HOME: keep the tests' autosaves out of $HOME."""
    monkeypatch.setenv("TABLETOP_HOME", str(tmp_path_factory.mktemp("tabletop-home")))
# The parsed-YAML cache (core.data) goes to a scratch folder for the test session, never to
# the user's cache; tests of the cache itself point it elsewhere.
if "TABLETOP_CACHE_DIR" not in os.environ:
    import tempfile

    os.environ["TABLETOP_CACHE_DIR"] = tempfile.mkdtemp(prefix="tabletop-test-cache-")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the tests marked ``slow`` first (pytest-xdist hands tests out in this order): the
    long ones start while there is quick work left to run beside them, instead of the last
    long one running alone at the end. The order within each group stays as collected."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
