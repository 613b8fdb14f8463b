"""The decision loop, record, replay, save/resume, undo and views, on the Pig test game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop.core.engine.agents import RandomAgent
from tabletop.core.engine.decisions import Decision, Option
from tabletop.core.engine.errors import GameOver, IllegalDecision, ReplayDivergence, SaveError, TabletopError
from tabletop.core.engine.match import Match
from tabletop.core.engine.record import make_record, read_record, replay, write_record
from tabletop.core.engine.resume import write_save

from .piggame import GAME, SecretSetup


def play_random(seed: int) -> Match:
    """A whole Pig match between two random agents."""
    m = Match(GAME, seed=seed)
    m.run({p: RandomAgent(p, seed) for p in GAME.info.players})
    return m


def test_pending_decision_names_player_section_and_options() -> None:
    """Decisions carry who decides, a prompt, the rule section and the legal options."""
    m = Match(GAME, seed=1)
    d = m.pending
    assert d is not None and d.player == "A" and d.section == "1.1"
    assert d.values == ["roll", "hold"]


def test_illegal_decision_raises_and_changes_nothing() -> None:
    """An option not among the legal ones raises IllegalDecision; state and log unchanged."""
    m = Match(GAME, seed=1)
    before, events = m.state_hash(), len(m.log)
    with pytest.raises(IllegalDecision, match="not a legal answer"):
        m.decide("fold")
    with pytest.raises(IllegalDecision):
        m.decide_index(7)
    assert m.state_hash() == before and len(m.log) == events and m.decisions == []


def test_same_seed_same_game_byte_for_byte() -> None:
    """Determinism: the same seed and decisions give the same events and state hash."""
    a, b = play_random(5), play_random(5)
    assert a.log.to_jsonl() == b.log.to_jsonl()
    assert a.state_hash() == b.state_hash()
    assert a.finished and a.result is not None


def test_record_replays_and_verifies(tmp_path: Path) -> None:
    """A record replays to the same final hash; the file round-trips through JSON."""
    m = play_random(11)
    path = tmp_path / "rec.json"
    write_record(m, path)
    again = replay(GAME, read_record(path))
    assert again.state_hash() == m.state_hash()
    assert again.log.to_jsonl() == m.log.to_jsonl()


def test_diverging_record_is_refused() -> None:
    """A tampered record (an illegal decision, or a wrong final hash) is refused clearly."""
    m = play_random(3)
    rec = make_record(m)
    bad = json.loads(json.dumps(rec))
    bad["decisions"][0] = "fold"
    with pytest.raises(ReplayDivergence, match="decision 1 of"):
        replay(GAME, bad)
    bad = json.loads(json.dumps(rec))
    bad["final"]["state_hash"] = "0" * 64
    with pytest.raises(ReplayDivergence, match="replay ends in state"):
        replay(GAME, bad)
    bad = json.loads(json.dumps(rec))
    bad["header"]["game_version"] = "9.9"
    with pytest.raises(ReplayDivergence, match="version"):
        replay(GAME, bad)


def test_a_record_without_its_final_state_is_refused() -> None:
    """Records: a record with no final state hash has nothing to verify against; replay
    refuses it rather than calling it verified (and still rebuilds it when not verifying)."""
    m = play_random(3)
    for strip in ("final", "state_hash"):
        bad = json.loads(json.dumps(make_record(m)))
        if strip == "final":
            del bad["final"]
        else:
            del bad["final"]["state_hash"]
        with pytest.raises(ReplayDivergence, match="nothing to verify against"):
            replay(GAME, bad)
        assert replay(GAME, bad, verify=False).state_hash() == m.state_hash()


def test_save_mid_game_and_resume(tmp_path: Path) -> None:
    """Save mid-game (atomic JSON), resume, and continue to the same end as without saving."""
    whole = play_random(21)
    half = Match(GAME, seed=21)
    for value in whole.decisions[: len(whole.decisions) // 2]:
        half.decide(value)
    path = tmp_path / "save.json"
    write_save(half, path)
    assert not list(tmp_path.glob("*.tmp"))
    resumed = replay(GAME, read_record(path))
    assert resumed.state_hash() == half.state_hash()
    for value in whole.decisions[len(resumed.decisions):]:
        resumed.decide(value)
    assert resumed.state_hash() == whole.state_hash()


def test_corrupt_save_is_one_clear_error(tmp_path: Path) -> None:
    """A corrupt or foreign file gives SaveError, not a traceback from json."""
    p = tmp_path / "x.json"
    p.write_text("{not json")
    with pytest.raises(SaveError, match="not a JSON record"):
        read_record(p)
    p.write_text('{"format": "other"}')
    with pytest.raises(SaveError, match="not a tabletop record"):
        read_record(p)
    with pytest.raises(SaveError, match="cannot read"):
        read_record(tmp_path / "missing.json")


def test_undo_goes_back_one_decision() -> None:
    """Undo restores the state before the last decision exactly (a hold rolls no die)."""
    m = Match(GAME, seed=8)
    h0 = m.state_hash()
    m.decide("hold")
    m.undo()
    assert m.state_hash() == h0 and m.decisions == []
    with pytest.raises(TabletopError):
        m.undo(5)


def test_undo_cannot_change_a_die_already_rolled() -> None:
    """Honest undo: a decision followed by a die roll stays taken; the refusal names the roll
    and leaves the match as it was."""
    m = Match(GAME, seed=8)
    m.decide("roll")
    h1, log1 = m.state_hash(), m.log.to_jsonl()
    assert m.undo_limit()[0] == 1
    with pytest.raises(TabletopError, match="roll after decision 1"):
        m.undo()
    assert m.state_hash() == h1 and m.log.to_jsonl() == log1
    if m.pending and m.pending.player == "A":  # a hold after the roll may still be taken back
        m.decide("hold")
        m.undo()
        assert m.state_hash() == h1


def test_free_undo_is_recorded_and_keeps_chance_fixed_by_position() -> None:
    """Free undo (an option): it may go back past a roll, the record counts it, and the dice
    are keyed by the position in the decision sequence, so taking a decision again gives the
    same faces and choosing differently cannot move a later decision's dice."""
    m = Match(GAME, seed=8, free_undo=True)
    m.decide("roll")
    first = [e.data["faces"] for e in m.log.of_kind("roll")]
    m.undo()
    assert m.undos_past_chance == 1 and m.header()["undos_past_chance"] == 1
    m.decide("roll")
    assert [e.data["faces"] for e in m.log.of_kind("roll")] == first
    assert replay(GAME, make_record(m)).header()["free_undo"] is True
    # the die after decision 2 is the same whether A held (B rolls) or rolled twice
    for seed in range(40):
        held = Match(GAME, seed=seed, free_undo=True)
        held.decide("hold")
        held.decide("roll")
        rolled = Match(GAME, seed=seed, free_undo=True)
        rolled.decide("roll")
        if rolled.pending is None or rolled.pending.player != "A":
            continue  # A rolled a 1: the turn passed
        rolled.decide("roll")
        assert held.log.of_kind("roll")[-1].data["faces"] == rolled.log.of_kind("roll")[-1].data["faces"]


def test_decide_after_end_is_refused() -> None:
    """A finished match has no pending decision; deciding raises GameOver."""
    m = play_random(2)
    with pytest.raises(GameOver):
        m.decide("roll")


def test_views_hide_the_other_sides_secrets() -> None:
    """Hidden pieces and other hands show no identity; your own are visible."""
    m = Match(GAME, seed=4)
    view = m.view("A")
    ids = [p["id"] for p in view["pieces"]]
    assert "token:A" in ids and "token:B" not in ids
    hidden = [p for p in view["pieces"] if p["kind"] == "hidden"]
    assert hidden and "values" not in hidden[0]
    piles = view["decks"]["cards"]
    assert piles["hand:B"] == {"count": 1} and isinstance(piles["hand:A"], list)
    assert piles["draw"] == {"count": 4}


def test_game_options_are_checked() -> None:
    """Unknown options and values outside the declared choices are clear errors."""
    with pytest.raises(TabletopError, match="no option"):
        Match(GAME, options={"speed": 1})
    with pytest.raises(TabletopError, match="not one of"):
        Match(GAME, options={"target": 7})
    assert Match(GAME, options={"target": 10}).options["target"] == 10


def test_every_roll_is_an_event_with_its_purpose() -> None:
    """Every die rolled appears in the log with its purpose and section."""
    m = play_random(9)
    rolls = m.log.of_kind("roll")
    assert rolls and all(e.data["purpose"] and e.section for e in rolls)
    assert sum(len(e.data["faces"]) for e in rolls) == m.dice.rolls


@given(st.integers(min_value=0, max_value=10_000), st.lists(st.integers(0, 5), max_size=30))
def test_illegal_decisions_never_change_state(seed: int, junk: list[int]) -> None:
    """Property: whatever illegal values are offered, the state hash does not move."""
    m = Match(GAME, seed=seed)
    for j in junk:
        before = m.state_hash()
        with pytest.raises(IllegalDecision):
            m.decide(f"bad{j}")
        assert m.state_hash() == before
        m.decide(m.legal()[j % 2].value)
        if m.finished:
            break


@given(st.integers(min_value=0, max_value=10_000))
def test_replay_determinism_property(seed: int) -> None:
    """Property: any random match replays from its record to the same hash."""
    m = play_random(seed)
    assert replay(GAME, make_record(m)).state_hash() == m.state_hash()


def test_private_decisions_and_events_are_hidden_from_the_other_side() -> None:
    """Views: B sees only that A is deciding; A's private answer and events are A's alone."""
    m = Match(SecretSetup(), seed=1)
    assert m.view("B")["pending"] == {"player": "A", "section": "0.1"}
    assert m.view("A")["pending"]["options"]
    m.decide(2)
    hidden = [e for e in m.log if e.kind in ("decision", "secret")]
    assert hidden and all(e.is_visible_to("A") and not e.is_visible_to("B") for e in hidden)
    assert not [e for e in m.log.visible("B") if e.kind == "secret"]
    assert '"visible_to":["A"]' in m.log.to_jsonl()


def test_option_detail_is_structured_and_not_part_of_equality() -> None:
    """Option.detail carries machine-readable facts (for bots and remote agents) beside the
    human `info`; it is in the decision's JSON only when given, and does not change which
    option is which (equality and hashing go by value, label and info)."""
    from tabletop.core.engine.decisions import Option, choose

    plain = Option("attack", "Attack", "3-1: 42%")
    rich = Option("attack", "Attack", "3-1: 42%", {"odds": {"De": 0.42}})
    assert plain == rich and hash(plain) == hash(rich)
    d = choose("A", "which?", "1.0", [rich, Option("pass")])
    options = d.to_json()["options"]
    assert isinstance(options, list)
    assert options[0] == {"value": "attack", "label": "Attack", "info": "3-1: 42%",
                          "detail": {"odds": {"De": 0.42}}}
    assert "detail" not in options[1]
    assert json.loads(json.dumps(d.to_json())) == d.to_json()


def test_a_decision_finds_an_answer_by_its_frozen_value() -> None:
    """Decisions: ``index_of`` gives the first option whose value equals the answer as JSON
    (lists and tuples alike, True apart from 1), whether a string is looked for by a scan
    or through the table of keys that ``mask`` builds; anything else is not legal."""
    values: list[Any] = [1, "a", True, [1, "a"], "a", {"k": [2]}, None, 2.5]
    asked: list[Any] = ["a", 1, True, (1, "a"), [1, "a"], {"k": (2,)}, None, 2.5, "b", 0, False,
                        {1}, ["a"], 1.0, 2.5000001]
    expected = [1, 0, 2, 3, 3, 5, 6, 7, None, None, None, None, None, 0, None]
    fresh = Decision("A", "pick", "1.0", tuple(Option(v) for v in values))
    assert [fresh.index_of(v) for v in asked] == expected  # strings and numbers by a scan
    tabled = Decision("A", "pick", "1.0", tuple(Option(v) for v in values))
    assert tabled.mask(["a", "b"]) == [True, False]
    assert [tabled.index_of(v) for v in asked] == expected  # everything through the table
    assert Decision("A", "pick", "1.0", (Option(True), Option(1.0), Option(1))).index_of(1) == 1
