"""Speed work never changes a map (issue 19): the JSON and SVG of real sectors, digested.

The digests were taken from the code before the speed work of issue 19's last round (commit
974a18c: one process, no worker) on ../shared/data/sectors, which is read in place; only the
sha256 of each output is kept here, never a copy of the data or of the maps. The same outputs
must come out of one process and of two (``workers=2``: batches shared with a forked worker,
trade/routes/parallel.py), with batches of any size.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from trade.routes import RouteSettings, map_routes, to_json, to_svg

SECTORS = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "sectors"
FIVE = ("Spinward Marches", "Deneb", "Corridor", "Trojan Reach", "Reft")
SIXTEEN = (
    "Gvurrdon", "Tuglikki", "Provence", "Windhorn",
    "Spinward Marches", "Deneb", "Corridor", "Vland",
    "Trojan Reach", "Reft", "Gushemege", "Dagudashaag",
    "Riftspan Reaches", "Verge", "Ilelish", "Zarushagar",
)  # fmt: skip
DIGESTS = {  # sectors -> sha256 of to_json, of to_svg (no notice)
    FIVE[:1]: (
        "b07d210888fdba2fb96caf38c0b1691115a79d78ef60452270193273229e2ee8",
        "4de23d9e636124cb83a4003f5d2c996d434c3c96fd1f3670766e22513fae971e",
    ),
    FIVE: (
        "00e82a70affdf881683ab04cf032a8bc188884ed7878180e9106940df67a60b1",
        "f85a0c23965a66182e3e866fe436c8b355691460efd8a1d8ef03c4fda3d55c3d",
    ),
    SIXTEEN: (
        "bf99768f7dea41c27e8e721f37ffbea959dc78cb3c92ee65c549b356846525f4",
        "bc8c123f289630a7be247c2897937ec542cb02d290c4ee3bd4111213c4f0536f",
    ),
}


def _digests(names: tuple[str, ...], settings: RouteSettings) -> tuple[str, str]:
    result = map_routes([SECTORS / f"{name}.tab" for name in names], settings)
    return (
        hashlib.sha256(to_json(result).encode()).hexdigest(),
        hashlib.sha256(to_svg(result).encode()).hexdigest(),
    )


@pytest.mark.parametrize(
    ("names", "route_settings"),
    [
        (FIVE[:1], RouteSettings()),
        (FIVE[:1], RouteSettings(workers=2, chunk=16)),  # too little work to fork: one process
        (FIVE, RouteSettings()),
        (FIVE, RouteSettings(workers=2)),
        (SIXTEEN, RouteSettings(workers=2)),  # what the command runs
    ],
    ids=["spinward", "spinward-2-workers", "five", "five-2-workers", "sixteen-2-workers"],
)
def test_outputs_are_those_before_the_speed_work(
    names: tuple[str, ...], route_settings: RouteSettings
) -> None:
    assert _digests(names, route_settings) == DIGESTS[names]
