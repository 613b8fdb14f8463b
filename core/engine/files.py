"""Files written atomically: a temporary file in the same folder, then a rename.

The bottom of the core's file handling, imported by the event log, records and the command
line alike, so that a save, a log or a map is never left half written.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from .errors import SaveError


def atomic_write_text(path: str | Path, text: str) -> None:
    """Write text to a file atomically: a temporary file in the same folder, then rename."""
    atomic_write_lines(path, (text,))


def atomic_write_lines(path: str | Path, pieces: Iterable[str]) -> None:
    """Write text given piece by piece (never held whole) to a file atomically, as
    :func:`atomic_write_text` does."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise SaveError(f"{target}: cannot write ({exc.strerror or exc})") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            for text in pieces:
                fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise SaveError(f"{target}: cannot write ({exc.strerror or exc})") from None
    except BaseException:  # Ctrl-C or a closed terminal mid-write: the old file stands, no litter
        Path(tmp).unlink(missing_ok=True)
        raise
