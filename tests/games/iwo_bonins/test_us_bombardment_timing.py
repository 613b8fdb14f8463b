"""8.2 against 9.0: the game option ``bombardment_timing``. The default, ``per_attack``, puts
markers on each attack right after it is declared (the golden games pin it); ``phase_start``
reads 8.2 literally: at the start of the US first combat phase every bombarded attack is
declared, then every marker is rolled (8.3), then those attacks are resolved in order, and
unused markers are lost; the phase goes on under 9.0. Dice are scripted; each test names its
section."""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any

from tabletop.core.designer.testing import check_conformance, check_replay
from tabletop.core.engine.decisions import Decision
from tabletop.core.engine.match import Match
from tabletop.games.iwo_bonins import GAME
from tabletop.games.iwo_bonins import combat as K
from tabletop.games.iwo_bonins import common as c
from tabletop.games.iwo_bonins import us_bombardment as B

from .test_game import LEVELS, bot_match
from .test_us_combat import DIFF, roll_for, strength
from .test_us_movement import drive, put, script, texts, us_match

PHASE_START = {"bombardment_timing": "phase_start"}


def two_fronts(*, phase_start: bool = True, spare: bool = False) -> Match:
    """1/23 and FT/23 in 2212 next to 309 in 2213; 2/23 in 2013 next to 310 in 1913 (both
    clear, three hexes apart); 311 far off in 0213, so the game goes on. With ``spare`` a
    third front: 3/23 in 2414 next to 312 in 2314."""
    m = us_match()
    put(m, "1/23", "2212")
    put(m, "FT/23", "2212")
    put(m, "309", "2213")
    put(m, "2/23", "2013")
    put(m, "310", "1913")
    put(m, "311", "0213")
    if spare:
        put(m, "3/23", "2414")
        put(m, "312", "2314")
    if phase_start:
        m.options.update(PHASE_START)
    return m


def step(m: Match, gen: Generator[Decision, Any, Any],
         answers: Sequence[Any]) -> list[tuple[str, int, int]]:
    """Answer a procedure's decisions in order; for each decision, its kind with how many
    8.3 rolls and 9.1 combats were logged when it was asked."""
    seen: list[tuple[str, int, int]] = []
    todo = list(answers)
    try:
        d = next(gen)
        while True:
            seen.append((d.kind, len(m.log.of_kind("bombardment")), len(m.log.of_kind("combat"))))
            assert todo, f"unanswered decision: {d.prompt} ({d.section}) {d.values}"
            ans = todo.pop(0)
            assert d.is_legal(ans), f"{ans!r} is not legal for {d.prompt}: {d.values}"
            d = gen.send(ans)
    except StopIteration:
        assert not todo, f"answers left over: {todo}"
    return seen


def seqs(m: Match, kind: str) -> list[int]:
    """The log positions of the events of a kind."""
    return [e.seq for e in m.log.of_kind(kind)]


def test_8_2_bombardment_timing_option_declared() -> None:
    """8.2 vs 9.0: the option exists with its two readings, 'per_attack' by default."""
    opt = next(o for o in GAME.info.options if o.id == "bombardment_timing")
    assert opt.default == B.PER_ATTACK and opt.choices == (B.PER_ATTACK, B.PHASE_START)
    assert B.timing(Match(GAME, seed=1)) == B.PER_ATTACK
    assert B.timing(Match(GAME, seed=1, options=PHASE_START)) == B.PHASE_START


def test_8_2_phase_start_bombardment_rolled_before_any_attack_is_resolved() -> None:
    """8.2 "The attack and all participating US units must be declared prior to resolving the
    Bombardment": both bombarded attacks are declared with their markers, then all four
    markers are rolled, then the attacks are resolved in the order declared; 8.3b: the
    suppression rolled first still cancels the Ex step loss of the first attack."""
    m = two_fronts()
    d2 = strength(m, "2/23") - c.printed(m.state.pieces["310"], "defense")
    dice = script(m, [2, 6, 6, 6,  # 8.3: 2213 suppressed (2), 1913 not
                      roll_for(DIFF, "clear", "Ex"), 3,  # 2213: Ex; CRMT 3: De+(A)s
                      roll_for(d2, "clear", "NE")])  # 1913: NE
    seen = step(m, K.us_combat_phase(m, first=True),
                ["2213", "2212", K.DECLARE, 2, "1913", "2013", K.DECLARE, 2])
    # no defender left to bombard: the step ends by itself (and 9.0 has none to offer)
    assert [k for k, _, _ in seen] == ["bombardment_attack", "attack_add", "attack_add",
                                       "bombardment_markers", "bombardment_attack", "attack_add",
                                       "attack_add", "bombardment_markers"]
    assert all(rolls == 0 and combats == 0 for _, rolls, combats in seen)
    declared, rolls, combats = seqs(m, "attack_declared"), seqs(m, "bombardment"), seqs(m, "combat")
    assert len(declared) == 2 and len(rolls) == 4 and len(combats) == 2
    assert max(declared) < min(rolls) and max(rolls) < min(combats + seqs(m, "reveal"))
    assert [e.data["hex"] for e in m.log.of_kind("bombardment")] == ["2213", "2213", "1913", "1913"]
    assert [e.data["hex"] for e in m.log.of_kind("combat")] == ["2213", "1913"]  # as declared
    assert m.state.pieces["309"].location == c.CONTAINER
    assert m.state.pieces["1/23"].steps == 2 and texts(m, "suppressed")[0].startswith("8.3b:")
    assert not B.markers_on(m, "2213") and not B.markers_on(m, "1913")  # back in the pool
    assert dice.remaining == 0


def test_8_2_phase_start_unused_markers_lost() -> None:
    """8.2 "Unused markers are lost": once the bombardment is rolled the markers left are
    lost, before any declared attack is resolved; none is offered afterwards."""
    m = two_fronts(spare=True)
    n = B.markers_available(m)
    d2 = strength(m, "2/23") - c.printed(m.state.pieces["310"], "defense")
    script(m, [6, roll_for(DIFF, "clear", "NE"), roll_for(d2, "clear", "NE")])
    seen = step(m, K.us_combat_phase(m, first=True),
                ["2213", "2212", K.DECLARE, 1, K.END, "1913", "2013", K.DECLARE, K.END])
    assert texts(m, "bombardment_lost") == [f"8.2: {n - 1} unused bombardment markers are lost"]
    assert seqs(m, "bombardment") < seqs(m, "bombardment_lost") < seqs(m, "combat")[:1]
    assert m.state.vars[c.V_BOMBARDMENT] == 0
    assert [k for k, _, _ in seen].count("bombardment_markers") == 1


def test_8_2_phase_start_at_most_two_markers_a_hex() -> None:
    """8.2 "one or two per hex": 1-2 markers on a bombarded attack, no more than are left; a
    hex once bombarded is not offered again, and it holds its two markers until resolved."""
    m = two_fronts()
    m.state.vars[c.V_BOMBARDMENT] = 3
    gen = K.bombardment_step(m)
    first = next(gen)
    assert first.kind == "bombardment_attack" and first.section == "8.2"
    assert set(first.values) == {K.END, "2213", "1913"}
    gen.send("2213")
    gen.send("2212")
    markers = gen.send(K.DECLARE)
    assert markers.kind == "bombardment_markers" and markers.section == "8.2"
    assert markers.values == [1, 2]  # no 0: an unbombarded attack waits for 9.0
    again = gen.send(2)
    assert len(B.markers_on(m, "2213")) == 2 and B.room(m, "2213") == 0
    assert B.place_markers(m, "2213", 2) == [] and m.state.vars[c.V_BOMBARDMENT] == 1
    assert set(again.values) == {K.END, "1913"}  # 2213 is declared already (9.0)
    gen.send("1913")
    last = gen.send("2013")
    assert last.kind == "attack_add" and K.CANCEL in last.values
    markers = gen.send(K.DECLARE)
    assert markers.values == [1]  # one marker left


def test_9_0_phase_start_later_attacks_one_at_a_time() -> None:
    """9.0 "resolves each combat before declaring the next": after the bombardment step the
    phase goes on as before, each attack resolved as soon as it is declared, without
    markers (5.1.2 b)."""
    m = two_fronts(spare=True)
    d2 = strength(m, "2/23") - c.printed(m.state.pieces["310"], "defense")
    script(m, [6, roll_for(DIFF, "clear", "NE"), roll_for(d2, "clear", "NE")])
    gen = K.us_combat_phase(m, first=True)
    seen = step(m, gen, ["2213", "2212", K.DECLARE, 1, K.END, "1913", "2013", K.DECLARE, K.END])
    after = seen[5:]  # the 9.0 part, from "Attack which Japanese hex?"
    assert [k for k, _, _ in after] == ["attack_defender", "attack_add", "attack_add",
                                        "attack_defender"]
    assert after[0][2] == 1 and after[-1][2] == 2  # the 1913 attack resolved before the next ask
    assert not [e for e in m.log.of_kind("bombardment") if e.data["hex"] == "1913"]
    assert texts(m, "attack_declared") == [
        "8.2: the attack on 2213 by 1/23, FT/23 is declared with 1 bombardment marker(s); it is "
        "resolved after the bombardment"]


def test_9_0_phase_start_a_unit_attacks_once() -> None:
    """9.0: a unit in a declared attack of the bombardment step takes part in no other
    attack this phase, and its defender is attacked no more."""
    m = two_fronts()
    put(m, "312", "2313")  # also next to 2212 (only)
    B.start_phase(m)
    gen = K.bombardment_step(m)
    next(gen)
    gen.send("2213")
    gen.send("2212")
    gen.send(K.DECLARE)
    nxt = gen.send(2)
    assert "2213" not in nxt.values and "2313" not in nxt.values  # 2212 was its only attacker
    assert "2212" not in K.attacker_hexes(m, "2313")
    assert {"1/23", "FT/23"} <= set(m.state.vars[c.V_ATTACKERS])


def test_11_2_phase_start_forced_beach_attack_declared_first() -> None:
    """11.2 with 8.2: a forced beach attack is declared first in the bombardment step (it
    cannot be cancelled; adjacent units may join; 0-2 markers since it is made anyway), is
    resolved after the bombardment, and its landed units die if the beach is not taken."""
    m = us_match()
    m.options.update(PHASE_START)
    put(m, "309", "2211")
    put(m, "310", "0213")
    put(m, "1/23", "2211")
    put(m, "2/23", "2212")
    put(m, "311", "2313")  # 2/23 might attack it instead
    m.state.vars[c.V_MUST_ATTACK] = {"2211": ["1/23"]}
    diff = strength(m, "1/23") - c.printed(m.state.pieces["309"], "defense")
    gen = K.us_combat_phase(m, first=True)
    first = next(gen)
    assert first.kind == "attack_add" and K.CANCEL not in first.values
    assert first.context.get("bombardment_step") is True
    markers = gen.send(K.DECLARE)
    assert markers.values == [0, 1, 2]
    nxt = gen.send(1)
    assert nxt.kind == "bombardment_attack"
    assert "2211" not in nxt.values  # declared already
    script(m, [5, roll_for(diff, "beach", "NE")])
    seen = step(m, _resume(gen, nxt), [K.END, K.END])
    assert seen == [("bombardment_attack", 0, 0), ("attack_defender", 1, 1)]  # then 9.0
    assert seqs(m, "bombardment") < seqs(m, "combat") < seqs(m, "eliminated")
    assert m.state.pieces["1/23"].location == c.US_ELIMINATED
    assert m.state.vars[c.V_MUST_ATTACK] == {}


def _resume(gen: Generator[Decision, Any, Any], pending: Decision) -> Generator[Decision, Any, Any]:
    """A procedure already waiting on ``pending``, as a fresh generator for :func:`step`."""
    answer = yield pending
    try:
        d = gen.send(answer)
        while True:
            answer = yield d
            d = gen.send(answer)
    except StopIteration as stop:
        return stop.value


def test_9_1a_phase_start_declared_attack_lapses() -> None:
    """9.1a "Once declared, the player cannot call off an attack": a declared attack whose
    attackers were all moved off (by an earlier attack's retreat, 9.3) is not made; its
    markers come off the map."""
    m = two_fronts()
    B.start_phase(m)
    placed = B.place_markers(m, "2213", 2)
    attack = K.DeclaredAttack("2213", {"2212": [m.state.pieces["1/23"]]}, placed)
    m.state.pieces.move("1/23", "2112")
    assert drive(K.resolve_declared(m, attack)) is False
    assert texts(m, "attack_lapsed")[0].startswith("9.1a: the attack declared on 2213 is not made")
    assert not B.markers_on(m, "2213") and not m.log.of_kind("combat")


def test_8_2_per_attack_default_unchanged() -> None:
    """8.2 (default reading): markers are chosen after each attack is declared and rolled when
    it is resolved, with no bombardment step."""
    m = two_fronts(phase_start=False)
    d2 = strength(m, "2/23") - c.printed(m.state.pieces["310"], "defense")
    script(m, [6, roll_for(DIFF, "clear", "NE"), 6, roll_for(d2, "clear", "NE")])
    seen = step(m, K.us_combat_phase(m, first=True),
                ["2213", "2212", K.DECLARE, 1, "1913", "2013", K.DECLARE, 1])
    assert [k for k, _, _ in seen][:4] == ["attack_defender", "attack_add", "attack_add",
                                           "bombardment_markers"]
    assert seen[4][1:] == (1, 1)  # the first attack bombarded and resolved before the second
    assert not m.log.of_kind("attack_declared")


def test_8_2_phase_start_whole_games_finish() -> None:
    """4.0 under 8.2 read literally: heuristic and random games finish with a result; in
    every US first combat phase each 8.3 roll comes before the first attack is resolved; a
    game replays from its record."""
    for seed, bot in ((2, "heuristic"), (3, "heuristic"), (1, "random")):
        m = bot_match(seed, bot, **PHASE_START)
        assert m.result is not None and m.result.level in LEVELS, (seed, bot)
        assert not GAME.invariants(m)
        phase, combat_seen = "", False
        for e in m.log:
            if e.kind == "phase":
                phase, combat_seen = e.text, False
            elif e.kind == "combat":
                combat_seen = True
            elif e.kind == "bombardment":
                assert "First Combat" in phase and not combat_seen, (seed, e.text)
        if bot == "heuristic":
            assert m.log.of_kind("attack_declared") and m.log.of_kind("bombardment")
            if seed == 2:
                check_replay(m)


def test_8_2_phase_start_conformance() -> None:
    """5.0, 8.2 read literally: random games under the option end with a result, replay byte
    for byte (the option is in the record's header), save and resume."""
    check_conformance(GAME, range(2, 4), options=PHASE_START)


def test_9_0_phase_start_a_unit_redeployed_into_a_declared_hex_is_not_attacked_again() -> None:
    """9.0 "A single defending unit can be the subject of only one attack in each Combat
    Phase", 9.1a: 309, attacked first, redeploys (15.3: alone in the container, it takes the
    place of the dug-in 310 at 1913, whose attack was declared in the bombardment step); the
    attack declared on 310 lapses instead of falling on 309 a second time."""
    m = Match(GAME, seed=20, options={"bombardment_timing": "phase_start"})
    m.decide("east")
    for p in c.units(m, c.JAPAN):  # only 309 and 310 in play, the container empty
        p.face, p.hidden = "back", True
        m.state.pieces.move(p.id, "nowhere")
    for uid, h in (("1/23", "2212"), ("FT/23", "2212"), ("309", "2213"), ("2/23", "2013"),
                   ("310", "1913")):
        m.state.pieces.move(uid, h)
    gen = K.us_combat_phase(m, first=True)
    answers = ["2213", "2212", K.DECLARE, 2, "1913", "2013", K.DECLARE, 2]
    d = next(gen)
    try:
        while True:
            d = gen.send(answers.pop(0) if answers and d.is_legal(answers[0]) else d.values[0])
    except StopIteration:
        pass
    assert m.state.pieces["309"].location == "1913"  # the swap happened
    combats = [e.text for e in m.log.of_kind("combat")]
    assert len(combats) == 1 and "attack 2213" in combats[0]
    assert texts(m, "attack_lapsed") == [
        "9.1a: the attack declared on 1913 is not made: the unit it was declared on has left the hex"]
