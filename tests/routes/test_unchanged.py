"""Speed work never changes a map (issue 19): the JSON and SVG of real sectors, digested.

The digests were taken from the code before the speed work of issue 19's last round (commit
974a18c: one process, no worker) on the real sector files, read in place from the directory in
FTCAMP_SECTORS (without it the tests skip); only the sha256 of each output is kept here, never a
copy of the data or of the maps. The SVG digests
were taken again once, when the hex grid became one path of relative moves: every other byte
of each SVG, and every byte of the JSON, compared equal to the earlier output
(test_output.py checks the grid's outlines). The same outputs
must come out of one process and of two (``workers=2``: batches shared with a forked worker,
trade/routes/parallel.py), with batches of any size, and with the C loops (trade/routes/native.py)
or without them.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from tests.sectors import real_sectors
from trade.routes import RouteSettings, map_routes, native, to_json, to_svg

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
        "ff8cda543c7a32f2a778f7ac0ca4eb00a492b168da9e54d69b763bb5bc7906c6",
    ),
    FIVE: (
        "00e82a70affdf881683ab04cf032a8bc188884ed7878180e9106940df67a60b1",
        "af77095d9d54ac60a3d559993f37b1faabe0a7f28aa10eb1d367957b59a1c1c9",
    ),
    SIXTEEN: (
        "bf99768f7dea41c27e8e721f37ffbea959dc78cb3c92ee65c549b356846525f4",
        "ca25493d5eb3643f0fcc4034d0c10b29429f99dad4ac6dfe467b0328b96dfaec",
    ),
}


@pytest.fixture(scope="module")
def folder() -> Path:
    return real_sectors("digests of real maps taken before the speed work")


def _digests(folder: Path, names: tuple[str, ...], settings: RouteSettings) -> tuple[str, str]:
    result = map_routes([folder / f"{name}.tab" for name in names], settings)
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
@pytest.mark.parametrize("in_c", [True, False], ids=["c", "numpy-scipy"])
def test_outputs_are_those_before_the_speed_work(
    folder: Path,
    names: tuple[str, ...],
    route_settings: RouteSettings,
    in_c: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if in_c and not native.available():
        pytest.skip(native.status())  # so that "c" is what it says
    monkeypatch.setattr(native, "available", lambda: in_c)
    assert _digests(folder, names, route_settings) == DIGESTS[names]
