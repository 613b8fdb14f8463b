"""Typed answers: ``ask_str`` and ``ask_int`` ask a decision as a bare ``yield`` does and hand
back the chosen value as a ``str`` or an ``int``; an answer of another type is the game's
mistake, refused at once."""

from __future__ import annotations

from collections.abc import Generator

import pytest

from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.decisions import Decision, ask_int, ask_str, choose


def _drive(flow: Generator[Decision, JSON, object], answers: list[JSON]) -> tuple[list[Decision], object]:
    """Run a flow, answering each decision in turn: the decisions asked and what it returned."""
    asked = [next(flow)]
    try:
        for answer in answers:
            asked.append(flow.send(answer))
    except StopIteration as stop:
        return asked, stop.value
    raise AssertionError("the flow asked more than it was answered")


def test_typed_asks_ask_what_a_bare_yield_asks_and_return_the_value_typed() -> None:
    """The same decisions, in the same order, answered the same: the flow gets the option
    values themselves, a str and an int."""
    where = choose("Blue", "Move where?", "4.1", ["0101", "0102"], kind="destination")
    many = choose("Blue", "How many?", "5.2", [0, 1, 2], kind="count")

    def typed() -> Generator[Decision, JSON, object]:
        hex_id = yield from ask_str(where)
        n = yield from ask_int(many)
        return hex_id, n

    def bare() -> Generator[Decision, JSON, object]:
        hex_id = yield where
        n = yield many
        return hex_id, n

    asked, got = _drive(typed(), ["0102", 2])
    assert (asked, got) == _drive(bare(), ["0102", 2])
    assert asked[0] is where and asked[1] is many
    assert got == ("0102", 2) and type(got[0]) is str and type(got[1]) is int


@pytest.mark.parametrize(("ask", "options", "answer", "said"), [
    (ask_str, [1, 2], 1, "was answered 1, not a string"),
    (ask_int, ["1", "2"], "1", "was answered '1', not a whole number"),
    (ask_int, [True, False], True, "was answered True, not a whole number"),
])
def test_an_answer_of_another_type_is_refused(ask: object, options: list[JSON], answer: JSON,
                                              said: str) -> None:
    """A typed ask over options of another type fails at the first answer, naming the
    decision, rather than handing the flow a value of the wrong type."""
    decision = choose("Blue", "Pick one", "3.3", options)
    flow = ask(decision)  # type: ignore[operator]
    assert next(flow) is decision
    with pytest.raises(TypeError, match=said) as refused:
        flow.send(answer)
    assert "'Pick one' (3.3)" in str(refused.value)
