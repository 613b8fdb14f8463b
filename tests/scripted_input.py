"""Scripted keyboard input for the terminal tests: an ``input()`` stand-in."""

from __future__ import annotations

from collections.abc import Callable, Iterator


def reader(lines: list[str]) -> Callable[[str], str]:
    """An input() stand-in that returns the given lines, then raises EOFError."""
    it: Iterator[str] = iter(lines)

    def read(prompt: str) -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return read
