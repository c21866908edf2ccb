"""Where the benchmarks find the real Traveller sector files: the directory in FTCAMP_SECTORS,
else ``../shared/data/sectors`` beside the checkout. They are read in place, never copied into
the project (non-commercial licence)."""

from __future__ import annotations

import os
from pathlib import Path

SECTORS = Path(
    os.environ.get("FTCAMP_SECTORS")
    or Path(__file__).resolve().parents[2] / "shared" / "data" / "sectors"
)
