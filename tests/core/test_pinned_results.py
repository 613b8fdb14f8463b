"""Pinned results: `simulate --rows` output and final state hashes for fixed seeds of every game.

Capability: determinism across speed work. Whatever caches, indexes or lazy views the engine
and the games gain, the same seed and bots must give the same game, byte for byte: the rows'
result fields as canonical JSON, and the final state hash (of chosen seeds, and of every
row that carries one). The pins
in ``golden/pinned_results.json`` were first written before the engine's speed work and are
only ever re-written when a rule change is meant to change play (regenerate with
``python -m tests.core.test_pinned_results``, and say why in the commit). A re-pin that
changes a game's state hashes also bumps the game's version and records it in the golden
ledger (``test_golden_versions``), or that test fails.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tabletop.core.engine.canonical import dumps
from tabletop.core.engine.match import Match
from tabletop.core.engine.registry import load_game, make_agent
from tabletop.core.frontends.cli import main

ROOT = Path(__file__).resolve().parents[2]
PINS = Path(__file__).with_name("golden") / "pinned_results.json"
EXAMPLE = "docs/example/skirmish"

#: (label, game, first seed, games, extra CLI arguments, seeds whose final state hash is pinned)
CASES: list[tuple[str, str, int, int, tuple[str, ...], tuple[int, ...]]] = [
    ("example", EXAMPLE, 1, 8, (), (1, 2, 3)),
    ("example-4-turns", EXAMPLE, 40, 4, ("--option", "turns=4"), (41,)),
    ("iwo_1945", "iwo_1945", 1, 4, (), (1, 2)),
    ("iwo_1945-27-cards", "iwo_1945", 11, 2, ("--option", "japanese_cards=27"), (11,)),
    ("iwo_bonins", "iwo_bonins", 1, 2, (), (1,)),
    ("iwo_bonins-two-player", "iwo_bonins", 5, 1, ("--scenario", "two_player"), (5,)),
    ("iwo_valor-line-of-departure", "iwo_valor", 1, 2, ("--scenario", "line_of_departure"), (1,)),
    ("iwo_valor-very-short", "iwo_valor", 1, 3, ("--scenario", "very_short"), (1, 2)),
]


def _game_name(game: str) -> str:
    return str(ROOT / game) if game == EXAMPLE else game


#: The fields of a row the pins hold (rows written before the study rewrite of `simulate` had
#: exactly these; rows have since gained more, such as each game's state hash).
PINNED_FIELDS = ("result", "scores", "seed", "turns", "winner")


def simulate_rows(game: str, seed: int, count: int, extra: tuple[str, ...], folder: Path) -> str:
    """The pinned fields of the rows `tabletop simulate --rows` writes for these games, one
    canonical JSON line a game, as those rows were written when the pins were taken."""
    return "".join(dumps({k: row[k] for k in PINNED_FIELDS}) + "\n"
                   for row in simulate_row_objects(game, seed, count, extra, folder))


def simulate_row_objects(game: str, seed: int, count: int, extra: tuple[str, ...],
                         folder: Path) -> list[dict[str, Any]]:
    """The rows `tabletop simulate --rows` writes for these games."""
    rows = folder / "rows.jsonl"
    code = main(["simulate", _game_name(game), "-n", str(count), "--seed", str(seed), "--json",
                 "--rows", str(rows), *extra])
    assert code == 0
    return [json.loads(line) for line in rows.read_text(encoding="utf-8").splitlines()]


def final_hash(game_name: str, seed: int, extra: tuple[str, ...]) -> tuple[str, int]:
    """The final state hash and number of decisions of one default-bot game."""
    game = load_game(_game_name(game_name))
    args = dict(zip(extra[::2], extra[1::2], strict=True))
    options: dict[str, Any] = {}
    if "--option" in args:
        key, _, raw = args["--option"].partition("=")
        options[key] = json.loads(raw) if raw.isdigit() else raw
    match = Match(game, scenario=args.get("--scenario"), seed=seed, options=options)
    match.run({s: make_agent(game, s, game.default_bot(s), seed) for s in game.info.players})
    return match.state_hash(), len(match.decisions)


def compute(labels: list[str] | None = None) -> dict[str, Any]:
    """Every case's rows and hashes (or only those of ``labels``), as the pins file holds them."""
    import tempfile

    out: dict[str, Any] = {}
    for label, game, seed, count, extra, hashed in CASES:
        if labels and label not in labels:
            continue
        with tempfile.TemporaryDirectory() as folder:
            rows = simulate_rows(game, seed, count, extra, Path(folder))
        hashes = {str(s): list(final_hash(game, s, extra)) for s in hashed}
        out[label] = {"rows": rows, "hashes": hashes}
    return out


PINNED: dict[str, Any] = json.loads(PINS.read_text(encoding="utf-8")) if PINS.exists() else {}


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_simulate_rows_and_state_hashes_are_pinned(
        case: tuple[str, str, int, int, tuple[str, ...], tuple[int, ...]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Determinism: simulate --rows is byte-identical and each game ends in the pinned state."""
    label, game, seed, count, extra, hashed = case
    pin = PINNED[label]
    rows = simulate_row_objects(game, seed, count, extra, tmp_path)
    assert "".join(dumps({k: row[k] for k in PINNED_FIELDS}) + "\n" for row in rows) == pin["rows"]
    for row in rows:  # rows that carry the state hash must carry the pinned one
        if "state_hash" in row and str(row["seed"]) in pin["hashes"]:
            assert row["state_hash"] == pin["hashes"][str(row["seed"])][0]
    capsys.readouterr()
    for s in hashed:
        assert list(final_hash(game, s, extra)) == pin["hashes"][str(s)], f"seed {s}"


if __name__ == "__main__":
    # ``python -m tests.core.test_pinned_results [LABEL ...]``: every pin, or only the named
    # cases' (a new game's cases pinned without re-writing the others)
    PINS.write_text(json.dumps({**PINNED, **compute(sys.argv[1:])}, indent=1, sort_keys=True)
                    + "\n", encoding="utf-8")
    sys.stdout.write(f"wrote {PINS}\n")
