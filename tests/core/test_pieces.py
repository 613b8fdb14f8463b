"""Pieces, stacks, tracks, decks and the state's canonical JSON and hash."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop.core.engine.errors import TabletopError
from tabletop.core.engine.pieces import Deck, Piece, Pieces
from tabletop.core.engine.state import State


def unit(pid: str, loc: str, side: str = "US") -> Piece:
    """A two-step counter."""
    return Piece(pid, "marine", side, pid, loc, steps=2, max_steps=2,
                 values={"front": {"attack": 4, "defense": 3}, "back": {"attack": 2, "defense": 2}})


def test_stack_order_and_moves() -> None:
    """Stacks keep their order (top first); a moved piece leaves its old place."""
    reg = Pieces([unit("a", "2915"), unit("b", "2915")])
    assert [p.id for p in reg.at("2915")] == ["a", "b"] and reg.top("2915").id == "a"  # type: ignore[union-attr]
    reg.move("b", "2914")
    reg.move("a", "2914", top=True)
    assert reg.ids_at("2914") == ("a", "b") and reg.count_at("2915") == 0
    assert "2915" not in reg.occupied()
    reg.to_top("b")
    assert reg.ids_at("2914") == ("b", "a")


def test_faces_values_and_steps() -> None:
    """Printed values are read from the face that is up; reduced is steps < max."""
    p = unit("a", "x")
    assert p.value("attack") == 4
    p.face, p.steps = "back", 1
    assert p.value("attack") == 2 and p.is_reduced
    with pytest.raises(TabletopError, match="no printed 'morale'"):
        p.value("morale")


def test_registry_refuses_duplicates_and_reports_inconsistency() -> None:
    """Ids are unique; check() finds a piece whose place and stack disagree."""
    reg = Pieces([unit("a", "x")])
    with pytest.raises(TabletopError, match="share the id"):
        reg.add(unit("a", "y"))
    assert reg.check() == []
    reg["a"].location = "elsewhere"
    assert reg.check() and "says it is at elsewhere" in reg.check()[0]


def test_each_registry_counts_its_own_changes() -> None:
    """Revision clocks: a change to a piece, its status or a stack moves the clock of the
    piece's own registry and notes it in that clock's journal alone; another registry's
    clock stands still, so two matches never share a count."""
    one, two = Pieces([unit("a", "x")]), Pieces([unit("a", "x")])
    assert one.clock is not two.clock
    before, mark = two.clock.now, two.clock.mark()
    piece = one["a"]
    since = one.clock.mark()
    piece.attrs["moved"] = True
    piece.face = "back"
    one.move("a", "y")
    piece.attrs = {"orders": "hold"}
    piece.attrs["orders"] = "advance"
    assert two.clock.now == before and two.clock.since(mark) == []
    noted = one.clock.since(since)
    assert noted is not None and sum(e is piece for e in noted) == 3
    assert any(e is piece.attrs for e in noted)
    assert piece.revision == one.clock.now - 1 and piece.attrs.revision == one.clock.now  # type: ignore[attr-defined]


def test_track_clamps() -> None:
    """Tracks clamp to their bounds (cohesion never below 1 or above 12)."""
    s = State()
    t = s.track("cohesion:3/9", 7, 1, 12)
    assert t.add(3) == 10 and t.add(5) == 12 and t.add(-20) == 1


def test_deck_piles_every_card_in_one_pile() -> None:
    """Decks: draw moves cards from the top; every card stays in exactly one pile."""
    deck = Deck("usmc", ["c1", "c2", "c3", "c4"])
    assert deck.draw(2, to="hand:USMC") == ["c1", "c2"]
    assert deck.pile("hand:USMC") == ["c2", "c1"]
    deck.move("c1", "discard")
    assert deck.where("c1") == "discard"
    assert sorted(deck.all_cards()) == ["c1", "c2", "c3", "c4"]
    with pytest.raises(TabletopError):
        deck.where("c9")
    with pytest.raises(TabletopError, match="unique"):
        Deck("bad", ["x", "x"])


def test_state_json_round_trip_and_stable_hash() -> None:
    """The state serialises to canonical JSON, rebuilds exactly, and hashes stably."""
    s = State()
    s.pieces.add(unit("a", "2915"))
    s.pieces.add(unit("b", "2915"))
    s.track("vp", 3, 0, 50)
    s.deck(Deck("d", ["x", "y"]))
    s.vars["weather"] = "clear"
    h = s.hash()
    again = State.from_json(s.to_json())
    assert again.hash() == h and again.pieces.ids_at("2915") == ("a", "b")
    s.vars["weather"] = "storm"
    assert s.hash() != h


PLACES = ("0101", "0102", "0203", "box:out")


@given(st.lists(st.tuples(st.integers(0, 11), st.sampled_from(PLACES), st.booleans()), max_size=40))
def test_indexed_queries_answer_as_a_scan_would(moves: list[tuple[int, str, bool]]) -> None:
    """select, at, places_of and by_attr, answered from the indexes,
    equal a scan of every piece in registry order after any sequence of moves."""
    pieces = [Piece(f"p{i}", ("inf", "arm", "hq")[i % 3], ("A", "B", "")[i % 2 + (i % 5 == 0)],
                    location=PLACES[i % len(PLACES)], attrs={"group": i % 4}) for i in range(12)]
    reg = Pieces(pieces)
    for i, place, top in moves:
        reg.move(f"p{i}", place, top=top)
        for side in ("A", "B", "", None):
            for kind in ("inf", "arm", "hq", "none", None):
                for loc in (*PLACES, "9999", None):
                    assert reg.select(side=side, kind=kind, location=loc) == [
                        p for p in reg if (side is None or p.side == side)
                        and (kind is None or p.kind == kind)
                        and (loc is None or p.location == loc)]
            if side is not None:
                assert reg.places_of(side) == {p.location for p in reg if p.side == side}
        groups = reg.by_attr("inf", "group")
        assert {v: list(ps) for v, ps in groups.items()} == {
            v: [p for p in reg if p.kind == "inf" and p.attrs["group"] == v]
            for v in {p.attrs["group"] for p in reg if p.kind == "inf"}}
        assert reg.check() == []
        assert Pieces.from_json(reg.to_json()).to_json() == reg.to_json()


def test_check_reports_a_changed_kind_side_or_grouped_attribute() -> None:
    """the indexes assume a piece keeps its kind, side and grouped
    attributes; check() says so when one changed."""
    reg = Pieces([Piece("a", "inf", "A", location="0101", attrs={"group": 1})])
    reg.by_attr("inf", "group")
    reg["a"].kind, reg["a"].side, reg["a"].attrs["group"] = "arm", "B", 2
    problems = " ".join(reg.check())
    assert "changed its kind" in problems and "changed its side" in problems
    assert "changed its 'group'" in problems


@given(st.lists(st.tuples(st.integers(0, 5), st.sampled_from(PLACES),
                          st.sampled_from(("move", "top", "to_top"))), max_size=60),
       st.integers(1, 4), st.booleans())
def test_places_since_answers_as_the_stamps_would(moves: list[tuple[int, str, str]], kept: int,
                                                   restored: bool) -> None:
    """the places whose stack changed after an earlier layout count,
    from the registry's bounded note of stack changes, equal those whose stamp is above it;
    None only for a count older than the note, never for the last change's."""
    short: type[Pieces] = type("ShortNote", (Pieces,), {"__slots__": (), "_MOVES_KEPT": kept})
    reg = short([unit(f"p{i}", PLACES[i % len(PLACES)]) for i in range(6)])
    if restored:
        reg = short.from_json(reg.to_json())
    layouts = [reg.layout]
    for i, place, how in moves:
        if how == "to_top":
            reg.to_top(f"p{i}")
        else:
            reg.move(f"p{i}", place, top=how == "top")
        layouts.append(reg.layout)
        for since in layouts:
            found = reg.places_since(since)
            assert found is None or found == {loc for loc, stamp in reg.stamps.items() if stamp > since}
        assert reg.places_since(layouts[-2]) is not None
        assert reg.places_since(reg.layout) == set()
