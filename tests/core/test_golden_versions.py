"""The golden ledger: every pinned state hash of a game, recorded under the version that pinned it.

A record or save names its game's version, and replay refuses another version in one clear
line (`record was made with iwo_valor version "1.0.0"; this is version "1.1.0"`). That refusal
helps only if the version changes whenever play does; otherwise an older save fails its state
check ("replay ends in state ..., the record says ...") and reads as a broken file. The golden
games (``tests/games/<id>/golden/*.json``, ``docs/example/skirmish/tests/golden.json``) and the pinned
results (``tests/core/golden/pinned_results.json``) are where a change of play shows, as a
changed final state hash. So ``tests/core/golden/versions.json`` records, per game, each
version with the state hashes pinned under it, and only ever grows:

- the game's current version must have an entry, the newest one;
- a pinned hash that differs from the one recorded for the current version means the game
  plays differently under the same version: bump the version, add a CHANGELOG.md heading for
  it, and record the new version's pins;
- every version after a game's first has its heading in CHANGELOG.md.

``python -m tests.core.test_golden_versions`` records the current version's pins: a new
version's entry, or pins added to the current version's entry (a new seed or scenario pinned
for an unchanged game). It never changes a recorded hash, and refuses (writing nothing) when
the check above would fail.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from tabletop.core.engine.files import atomic_write_text
from tabletop.core.engine.registry import load_game
from tabletop.core.frontends.cli import main

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
GOLDEN = Path(__file__).with_name("golden")
LEDGER = GOLDEN / "versions.json"
PINNED_RESULTS = GOLDEN / "pinned_results.json"
CHANGELOG = ROOT / "CHANGELOG.md"
EXAMPLE = "docs/example/skirmish"
RECORD_COMMAND = "python -m tests.core.test_golden_versions"

#: tests/core/golden's golden-game files and the game each pins (pinned_results.json pins
#: several games, named by its cases; versions.json is the ledger itself)
CORE_GOLDEN: dict[str, str] = {}
#: the golden-game files kept beside an example game's rule tests, and the game each pins
EXAMPLE_GOLDEN = {EXAMPLE: ROOT / EXAMPLE / "tests" / "golden.json"}

Ledger = dict[str, list[dict[str, Any]]]
"""game id -> its entries, oldest first: {"version": "1.1.0", "hashes": {pin: state hash}}"""


def _game_name(game: str) -> str:
    return str(ROOT / game) if game == EXAMPLE else game


def _state_hashes(data: Any, where: str) -> Iterator[tuple[str, str]]:
    """Every ``state_hash`` in a golden file's JSON, keyed by the path to the game it ends."""
    if isinstance(data, dict):
        if isinstance(data.get("state_hash"), str):
            yield where, data["state_hash"]
        for key, value in sorted(data.items()):
            yield from _state_hashes(value, f"{where} {key}")


def pinned_hashes() -> dict[str, dict[str, str]]:
    """Today's pinned final state hashes, by game name (as ``load_game`` takes it) and pin.

    Raises AssertionError for a golden file no game can be found for (a pin nobody checks
    against the ledger would let a re-pin through)."""
    from tests.core.test_pinned_results import CASES

    pins: dict[str, dict[str, str]] = {}

    def add(game: str, key: str, value: str) -> None:
        pins.setdefault(game, {})[key] = value

    games_of = {label: game for label, game, *_ in CASES}
    pinned = json.loads(PINNED_RESULTS.read_text(encoding="utf-8"))
    for label, case in sorted(pinned.items()):
        assert label in games_of, f"{PINNED_RESULTS}: case {label!r} is in no CASES of test_pinned_results"
        for seed, (state_hash, _decisions) in sorted(case["hashes"].items()):
            add(games_of[label], f"core/golden/pinned_results.json {label} {seed}", state_hash)
    for path in sorted(GOLDEN.glob("*.json")):
        if path in (LEDGER, PINNED_RESULTS):
            continue
        assert path.name in CORE_GOLDEN, f"{path}: say which game it pins in CORE_GOLDEN"
        for key, value in _state_hashes(json.loads(path.read_text(encoding="utf-8")),
                                        str(path.relative_to(TESTS))):
            add(CORE_GOLDEN[path.name], key, value)
    for game, path in sorted(EXAMPLE_GOLDEN.items()):
        for key, value in _state_hashes(json.loads(path.read_text(encoding="utf-8")),
                                        str(path.relative_to(ROOT))):
            add(game, key, value)
    for path in sorted(TESTS.glob("games/*/golden/*.json")):
        for key, value in _state_hashes(json.loads(path.read_text(encoding="utf-8")),
                                        str(path.relative_to(TESTS))):
            add(path.parent.parent.name, key, value)
    return pins


def games_and_versions(names: Iterator[str] | list[str]) -> dict[str, tuple[str, str]]:
    """Game name -> (game id, current version), each game loaded as the tests load it."""
    out = {}
    for name in names:
        info = load_game(_game_name(name)).info
        out[name] = (info.id, info.version)
    return out


def current() -> tuple[dict[str, dict[str, str]], dict[str, str]]:
    """Today's pins and versions, both keyed by game id."""
    pins = pinned_hashes()
    ids = games_and_versions(sorted(pins))
    return ({ids[name][0]: hashes for name, hashes in pins.items()},
            {game_id: version for game_id, version in ids.values()})


def _version_key(version: str) -> tuple[int, ...] | None:
    try:
        return tuple(int(part) for part in version.split("."))
    except ValueError:
        return None


def _in_changelog(changelog: str, game: str, version: str) -> bool:
    """Whether CHANGELOG.md has a heading naming this game and version ("## iwo_valor 1.1.0")."""
    pattern = rf"^#+ .*\b{re.escape(game)} {re.escape(version)}(?![\w.])"
    return re.search(pattern, changelog, flags=re.MULTILINE) is not None


def ledger_problems(ledger: Ledger, pins: Mapping[str, Mapping[str, str]],
                    versions: Mapping[str, str], changelog: str) -> list[str]:
    """What is wrong between the ledger and today's pins and versions, one line each."""
    problems: list[str] = []
    rel = LEDGER.relative_to(ROOT)
    for game in sorted(pins):
        version, today = versions[game], pins[game]
        entries = ledger.get(game, [])
        listed = [str(e.get("version")) for e in entries]
        keys = [key for v in listed if (key := _version_key(v)) is not None]
        if len(keys) != len(listed) or _version_key(version) is None:
            problems.append(f"{game}: versions are numbers with dots (1.1.0), not {[version, *listed]}")
            continue
        if len(set(listed)) != len(listed) or keys != sorted(keys):
            problems.append(f"{rel}: {game}'s versions {listed} are not each newer than the one "
                            "before: the ledger only grows, a version's entry is never rewritten")
        for old in listed[1:]:
            if not _in_changelog(changelog, game, old):
                problems.append(f"CHANGELOG.md has no heading for {game} {old} (such as "
                                f"'## {game} {old}'): say what changed for its saves")
        entry = next((e for e in entries if e.get("version") == version), None)
        bump = (f"bump {game}'s version (its GameInfo.version), add a CHANGELOG.md heading "
                f"'## {game} NEW_VERSION' saying what changed, then record its pins with "
                f"`{RECORD_COMMAND}`")
        newest = max((k for k in keys if k is not None), default=())
        if entry is None:
            if (_version_key(version) or ()) < newest:
                problems.append(f"{game} is version {version}, older than {listed[-1]} in {rel}: "
                                "a version never goes back")
            else:
                problems.append(f"{game} {version} has no entry in {rel}: if it was bumped because "
                                f"its play changed, add its CHANGELOG.md heading and record its "
                                f"pins with `{RECORD_COMMAND}`")
            continue
        if entry is not entries[-1]:
            problems.append(f"{game} is version {version}, older than {listed[-1]} in {rel}: "
                            "a version never goes back")
        recorded: Mapping[str, str] = entry.get("hashes", {})
        changed = sorted(k for k in today if k in recorded and recorded[k] != today[k])
        if changed:
            problems.append(
                f"{game}: {len(changed)} pinned state hash(es) changed while its version stayed "
                f"{version} (first: {changed[0]}), so a save made with {game} {version} would fail "
                f"its state check instead of being refused by version: {bump}")
        added = sorted(k for k in today if k not in recorded)
        if added:
            problems.append(f"{game} {version}: {len(added)} pin(s) not in {rel} (first: {added[0]}): "
                            f"record them with `{RECORD_COMMAND}`")
    return problems


def record(ledger: Ledger, pins: Mapping[str, Mapping[str, str]],
           versions: Mapping[str, str]) -> Ledger:
    """The ledger with today's pins recorded under each game's current version: a new entry
    for a new version, new pins added to the current version's entry; no recorded hash is
    changed (a changed pin stays a problem for :func:`ledger_problems` to report)."""
    out: Ledger = {game: [dict(e) for e in entries] for game, entries in ledger.items()}
    for game in sorted(pins):
        entries = out.setdefault(game, [])
        entry = next((e for e in entries if e.get("version") == versions[game]), None)
        if entry is None:
            entries.append({"version": versions[game], "hashes": dict(sorted(pins[game].items()))})
            continue
        hashes = dict(entry.get("hashes", {}))
        for key, value in pins[game].items():
            hashes.setdefault(key, value)
        entry["hashes"] = dict(sorted(hashes.items()))
    return dict(sorted(out.items()))


def read_ledger() -> Ledger:
    """The ledger file (empty if there is none yet)."""
    if not LEDGER.exists():
        return {}
    data: Ledger = json.loads(LEDGER.read_text(encoding="utf-8"))
    return data


def test_pinned_hashes_match_the_ledger_for_each_games_version() -> None:
    """Each game's pins are the ones recorded for its current version; the ledger only grows."""
    pins, versions = current()
    assert set(versions) >= {"iwo_bonins", "iwo_valor", "iwo_1945", "manila45", "skirmish"}
    problems = ledger_problems(read_ledger(), pins, versions, CHANGELOG.read_text(encoding="utf-8"))
    assert not problems, "\n".join(problems)


def test_every_golden_game_file_pins_state_hashes() -> None:
    """Every golden file the ledger reads gives it hashes (a changed layout is not read as none)."""
    pins = pinned_hashes()
    files = {key.split(" ", 1)[0] for hashes in pins.values() for key in hashes}
    expected = {str(p.relative_to(TESTS)) for p in TESTS.glob("games/*/golden/*.json")}
    expected |= {f"core/golden/{name}" for name in [*CORE_GOLDEN, PINNED_RESULTS.name]}
    expected |= {str(p.relative_to(ROOT)) for p in EXAMPLE_GOLDEN.values()}
    assert files == expected


# -- the check itself, on a small ledger --------------------------------------------------

PINS = {"g": {"a.json 1": "h1", "a.json 2": "h2"}}
LEDGER_1_0 = {"g": [{"version": "1.0.0", "hashes": {"a.json 1": "h1", "a.json 2": "h2"}}]}


def test_a_repin_under_the_same_version_is_refused_with_what_to_do() -> None:
    """A changed hash with the version unchanged: bump it, add a CHANGELOG line, record."""
    repinned = {"g": {"a.json 1": "h1", "a.json 2": "NEW"}}
    [problem] = ledger_problems(LEDGER_1_0, repinned, {"g": "1.0.0"}, "")
    assert "changed while its version stayed 1.0.0 (first: a.json 2)" in problem
    assert "bump g's version" in problem and "CHANGELOG.md" in problem and RECORD_COMMAND in problem
    assert record(LEDGER_1_0, repinned, {"g": "1.0.0"}) == LEDGER_1_0  # never rewritten


def test_a_bumped_version_needs_its_entry_and_its_changelog_heading() -> None:
    """After the bump, the new version is recorded beside the old one and named in CHANGELOG.md."""
    repinned = {"g": {"a.json 1": "h1", "a.json 2": "NEW"}}
    [missing] = ledger_problems(LEDGER_1_0, repinned, {"g": "1.1.0"}, "")
    assert "g 1.1.0 has no entry" in missing and RECORD_COMMAND in missing
    grown = record(LEDGER_1_0, repinned, {"g": "1.1.0"})
    assert grown["g"][0] == LEDGER_1_0["g"][0]
    assert grown["g"][1] == {"version": "1.1.0", "hashes": {"a.json 1": "h1", "a.json 2": "NEW"}}
    [no_line] = ledger_problems(grown, repinned, {"g": "1.1.0"}, "## g 1.1.00\n")
    assert "CHANGELOG.md has no heading for g 1.1.0" in no_line
    changelog = "## [Unreleased]\n\n## g 1.1.0 - 2026-12-04\n"
    assert ledger_problems(grown, repinned, {"g": "1.1.0"}, changelog) == []


def test_new_pins_of_an_unchanged_game_are_added_to_its_version() -> None:
    """Pinning another seed of a game that plays as before needs no bump: the entry gains it."""
    more = {"g": {**PINS["g"], "a.json 3": "h3"}}
    [problem] = ledger_problems(LEDGER_1_0, more, {"g": "1.0.0"}, "")
    assert "1 pin(s) not in" in problem and "a.json 3" in problem
    grown = record(LEDGER_1_0, more, {"g": "1.0.0"})
    assert grown["g"] == [{"version": "1.0.0", "hashes": more["g"]}]
    assert ledger_problems(grown, more, {"g": "1.0.0"}, "") == []


def test_a_version_never_goes_back_and_entries_stay_in_order() -> None:
    """The current version is the newest recorded; the recorded versions increase."""
    two = {"g": [*LEDGER_1_0["g"], {"version": "1.1.0", "hashes": PINS["g"]}]}
    back = ledger_problems(two, PINS, {"g": "1.0.0"}, "## g 1.1.0\n")
    assert any("a version never goes back" in p for p in back)
    shuffled = {"g": list(reversed(two["g"]))}
    assert any("not each newer" in p for p in ledger_problems(shuffled, PINS, {"g": "1.1.0"}, "## g 1.0.0\n"))
    assert any("has no entry" in p for p in ledger_problems({}, PINS, {"g": "1.0.0"}, ""))


# -- a save made before a change of play --------------------------------------------------

OLD_SAVE = GOLDEN / "saves" / "iwo_valor-1.0.0.json"
"""120 decisions of the Very Short Game, seed 1, both sides their default bots, recorded with
iwo_valor 1.0.0 (before its regiments read as ordinals, which changed the state)."""


@pytest.mark.parametrize("command", ["replay", "resume"])
def test_a_save_from_before_a_change_of_play_is_refused_by_version(
        command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """An iwo_valor 1.0.0 record is refused in one line naming both versions, not by a
    state hash that no longer agrees (its state does differ today: the version had to move)."""
    from tabletop.core.engine.record import read_record, replay

    before = OLD_SAVE.read_bytes()
    assert main([command, str(OLD_SAVE)]) != 0
    err = capsys.readouterr().err.strip()
    version = load_game("iwo_valor").info.version
    assert err.splitlines() == [err]
    assert f"record was made with iwo_valor version \"1.0.0\"; this is version \"{version}\"" in err
    assert OLD_SAVE.read_bytes() == before
    old = read_record(OLD_SAVE)
    today = replay(load_game("iwo_valor"), old, verify=False)
    assert today.state_hash() != old["final"]["state_hash"]


if __name__ == "__main__":
    # ``python -m tests.core.test_golden_versions``: record today's pins in the ledger
    pins_now, versions_now = current()
    grown = record(read_ledger(), pins_now, versions_now)
    refused = ledger_problems(grown, pins_now, versions_now, CHANGELOG.read_text(encoding="utf-8"))
    if refused:
        sys.stderr.write("nothing written:\n" + "\n".join(refused) + "\n")
        sys.exit(1)
    atomic_write_text(LEDGER, json.dumps(grown, indent=1) + "\n")
    sys.stdout.write(f"wrote {LEDGER}\n")
