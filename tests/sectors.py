"""Where the tests find the real Traveller sector files: the directory named by FTCAMP_SECTORS.

The files are under a non-commercial licence and never in the repository; the Makefile sets
the variable to ``../shared/data/sectors`` when that directory exists, so CI runs the tests
that need them. Without it those tests skip, saying why; every other test writes its own
sector files (``tests/routes/helpers.py``).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

VARIABLE = "FTCAMP_SECTORS"


def real_sectors(why: str) -> Path:
    """The directory in FTCAMP_SECTORS; skips the calling test, saying ``why`` it needs the
    real files, when the variable is unset or empty. Set to a directory that is not there, it
    fails: CI asked for the tests and must not lose them to a wrong path."""
    folder = os.environ.get(VARIABLE)
    if not folder:
        pytest.skip(f"{VARIABLE} is not set (the real sector files' directory): {why}")
    path = Path(folder)
    if not path.is_dir():
        pytest.fail(f"{VARIABLE}={folder} is not a directory")
    return path
