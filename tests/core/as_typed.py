"""The command line of a `tabletop` child process that Ctrl-C interrupts as at a terminal."""

from __future__ import annotations

import sys

# A background job of a non-interactive shell ignores SIGINT, and a child process inherits
# that: Python then never turns Ctrl-C into KeyboardInterrupt. Tests that press Ctrl-C start
# the CLI with Python's own handler put back, so they pass however pytest itself was started.
_AS_TYPED = ("import runpy, signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
             "sys.argv[0] = 'tabletop'; runpy.run_module('tabletop.core.frontends.cli', run_name='__main__')")


def tabletop_command(*args: str) -> list[str]:
    """``python -m tabletop.core.frontends.cli ARGS``, with Ctrl-C raising KeyboardInterrupt in it."""
    return [sys.executable, "-c", _AS_TYPED, *args]
